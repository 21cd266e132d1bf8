"""Vectors bound by the models' column type travel in pgvector's binary format (app/models/vector.py)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from sqlalchemy import Column, Integer, MetaData, Table, event, insert, select, text
from sqlalchemy.exc import StatementError
from sqlalchemy.ext.asyncio import AsyncSession

from app.models import Guard
from app.models.vector import BinaryVector, Vector

_probe = Table(
    "vector_binding_probe", MetaData(), Column("id", Integer, primary_key=True), Column("e", Vector(384))
)


@pytest.fixture
async def probe(session: AsyncSession) -> AsyncSession:
    await session.execute(text("CREATE TEMP TABLE vector_binding_probe (id int PRIMARY KEY, e vector(384))"))
    return session


def _stored(text_form: str) -> np.ndarray:
    return np.asarray([float(v) for v in text_form[1:-1].split(",")], dtype=np.float32)


async def test_vectors_arrive_exact_in_binary_whatever_their_python_form(probe: AsyncSession) -> None:
    rng = np.random.default_rng(19)
    forms: list[Any] = [
        rng.standard_normal(384).astype(np.float32).tolist(),
        rng.standard_normal(384).astype(np.float32),
        rng.standard_normal(384),  # float64: stored as float4, as pgvector's text form would be
    ]
    sent: list[tuple[str, Any]] = []

    def record(conn: Any, cursor: Any, statement: str, parameters: Any, context: Any, many: bool) -> None:
        sent.append((statement, parameters))

    engine = probe.bind.engine  # type: ignore[union-attr]
    event.listen(engine.sync_engine, "before_cursor_execute", record)
    try:
        await probe.execute(insert(_probe), [{"id": i, "e": form} for i, form in enumerate(forms)])
        query = forms[1]
        rows = (await probe.execute(select(_probe.c.id, _probe.c.e.cosine_distance(query)))).all()
    finally:
        event.remove(engine.sync_engine, "before_cursor_execute", record)

    insert_statement, insert_rows = sent[0]
    assert "::VECTOR(384)" in insert_statement
    assert all(isinstance(row["e"], BinaryVector) for row in insert_rows)
    assert any(isinstance(value, BinaryVector) for value in sent[1][1].values())

    texts = dict((await probe.execute(text("SELECT id, e::text FROM vector_binding_probe"))).all())
    for i, form in enumerate(forms):
        np.testing.assert_array_equal(_stored(texts[i]), np.asarray(form, dtype=np.float32))
    by_id = {row[0]: row[1] for row in rows}
    expected = [np.asarray(form, dtype=np.float32).astype(np.float64) for form in forms]
    q = expected[1]
    for i, vector in enumerate(expected):
        cosine = float(vector @ q / (np.linalg.norm(vector) * np.linalg.norm(q)))
        assert by_id[i] == pytest.approx(1 - cosine, abs=1e-5)
    assert by_id[1] == pytest.approx(0.0, abs=1e-6)


async def test_a_vector_of_the_wrong_shape_is_refused_before_it_is_sent(probe: AsyncSession) -> None:
    for bad in ([0.5] * 383, np.zeros((2, 384), dtype=np.float32)):
        with pytest.raises(StatementError, match="expected a vector of 384 dimensions"):
            await probe.execute(insert(_probe).values(id=1, e=bad))
    assert (await probe.execute(text("SELECT count(*) FROM vector_binding_probe"))).scalar_one() == 0


def test_the_models_bind_vectors_in_binary() -> None:
    assert isinstance(Guard.__table__.c.embedding.type, Vector)
    process = Guard.__table__.c.embedding.type.bind_processor(None)  # type: ignore[arg-type]
    assert process(None) is None
    bound = process(np.arange(384, dtype=np.float32))
    assert isinstance(bound, BinaryVector)
    assert bound.values.dtype == np.dtype(">f4")
