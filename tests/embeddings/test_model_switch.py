"""Serving a fine-tuned embedding model (GENEBANK_EMBEDDING_MODEL_DIR) and switching back.

The model is a real fine-tune by bench/finetune.py, cut to two steps on eight training triples (a few
CPU-seconds): its weights differ from the stock ones, which is all the switch needs to be exercised.
Its fusion.json is the stock fit with a shifted bias, so a search shows which fusion it was scored with.
"""

from __future__ import annotations

import json
import shutil
import sys
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import httpx
import numpy as np
import pytest
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from typer.testing import CliRunner

from app.cli import cli
from app.config import Settings
from app.embeddings import EmbeddingService
from app.embeddings.base import MODEL_NAME, bundled_model_dir
from app.embeddings.export import FP32_NAME
from app.embeddings.factory import served_model
from app.embeddings.model import FUSION_FILE, MANIFEST_FILE, ModelUnavailable, embedding_model
from app.embeddings.onnx_backend import OnnxEmbedder
from app.embeddings.torch_backend import SentenceTransformerEmbedder
from app.genes.indexing import embedding_text
from app.main import create_app
from app.models import GeneTaskKey, GeneVersion
from app.search.fusion import FusionModel, fitted_model
from app.search.reembed import reembed
from tests.conftest import DatabaseInfo, build_app
from tests.factories import gene_doc, publish_payload

BENCH = Path(__file__).resolve().parents[2] / "bench"
NOWHERE = "postgresql://genebank@127.0.0.1:1/genebank"
BIAS_SHIFT = 0.375
TEXTS = ["pytest hangs on an async fixture", "pin the dependency versions before the build"]


@dataclass(frozen=True)
class Tuned:
    directory: Path
    fusion: FusionModel
    embeddings: EmbeddingService


@pytest.fixture(scope="module")
def tuned(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Tuned]:
    sys.path.insert(0, str(BENCH))
    try:
        import finetune
    finally:
        sys.path.remove(str(BENCH))
    directory = tmp_path_factory.mktemp("minilm-ft")
    rows = finetune.triples(seed=7)[:8]
    training = finetune.train(directory, 1, 4, 1e-4, seed=7, threads=1, tokens=32, rows=rows, max_steps=2)
    assert training["steps"] == 2 and training["triples"] == 8
    stock = fitted_model()
    fusion = replace(stock, bias=stock.bias + BIAS_SHIFT)
    finetune.package(directory, fusion, {"training": training, "held_out": {"hybrid_mrr10": 0.0}})
    service = EmbeddingService(SentenceTransformerEmbedder(model_dir=directory, threads=1))
    yield Tuned(directory, fusion, service)
    service.close()


def test_a_fine_tuned_directory_is_servable_and_named_by_its_weights(tuned: Tuned, tmp_path: Path) -> None:
    for name in ("model.safetensors", "tokenizer.json", FUSION_FILE, MANIFEST_FILE):
        assert (tuned.directory / name).is_file(), name
    model = embedding_model(tuned.directory)
    assert not model.stock and model.fingerprint is not None
    assert model.name == f"{MODEL_NAME}+ft-{model.fingerprint}" != MODEL_NAME
    assert tuned.embeddings.name == model.name
    manifest = json.loads((tuned.directory / MANIFEST_FILE).read_text())
    assert manifest["name"] == model.name and manifest["training"]["steps"] == 2
    assert json.loads((tuned.directory / FUSION_FILE).read_text())["model"] == model.fingerprint
    assert fitted_model(tuned.directory) == tuned.fusion != fitted_model()
    # The name is the weights', not the path's: a moved copy is the same model.
    moved = tmp_path / "elsewhere"
    shutil.copytree(tuned.directory, moved)
    assert embedding_model(moved).name == model.name
    assert embedding_model(bundled_model_dir()).stock


async def test_the_fine_tuned_vectors_differ_and_both_backends_agree(
    tuned: Tuned, embeddings: EmbeddingService, tmp_path: Path
) -> None:
    stock = await embeddings.embed_texts(TEXTS)
    vectors = await tuned.embeddings.embed_texts(TEXTS)
    assert float(np.max(np.abs(vectors - stock))) > 1e-3
    # The ONNX export is per model: the fine-tune's file lands beside the stock one, not over it (the
    # stock export here is a stand-in: loading it as a model would fail).
    models_dir = tmp_path / "models"
    models_dir.mkdir()
    (models_dir / FP32_NAME).write_bytes(b"the stock export")
    onnx = OnnxEmbedder(models_dir, threads=1, model_dir=tuned.directory)
    assert onnx.name == tuned.embeddings.name
    fingerprint = embedding_model(tuned.directory).fingerprint
    assert sorted(p.name for p in models_dir.iterdir()) == sorted(
        [FP32_NAME, f"all-MiniLM-L6-v2+ft-{fingerprint}.onnx"]
    )
    assert (models_dir / FP32_NAME).read_bytes() == b"the stock export"
    assert np.min(np.sum(onnx.encode(TEXTS) * vectors, axis=1)) > 0.9999


@pytest.fixture
async def serve(session: AsyncSession, database: DatabaseInfo, engine, keys: dict[str, str]) -> AsyncIterator:
    """serve(settings, embeddings): an admin client on an app configured so, in the test's transaction."""
    opened: list[httpx.AsyncClient] = []

    def make(settings: Settings, embeddings: EmbeddingService) -> httpx.AsyncClient:
        app = build_app(settings, engine, session, database, embeddings)
        client = httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app),
            base_url="http://genebank.test",
            headers={"Authorization": f"Bearer {keys['admin']}"},
        )
        opened.append(client)
        return client

    yield make
    for client in opened:
        await client.aclose()


async def _models(session: AsyncSession, genes: list[str]) -> tuple[set[str], set[str]]:
    versions = await session.scalars(
        select(GeneVersion.embedding_model).where(GeneVersion.gene_id.in_(genes))
    )
    keys = await session.scalars(select(GeneTaskKey.embedding_model).where(GeneTaskKey.gene_id.in_(genes)))
    return set(versions), set(keys)


async def _search(client: httpx.AsyncClient, query: str) -> dict:
    response = await client.post("/v1/search", json={"query": query, "explain": True, "include_weak": True})
    assert response.status_code == 200, response.text
    return response.json()


async def test_reembed_switches_genes_and_task_keys_to_the_fine_tune_and_back(
    tuned: Tuned, embeddings: EmbeddingService, settings: Settings, session: AsyncSession, serve
) -> None:
    stock_client = serve(settings, embeddings)
    genes = []
    for index, (summary, task) in enumerate(
        [
            ("Mark async tests so pytest-asyncio runs them", "my async pytest tests never finish"),
            ("Pin transitive dependencies with a lock file", "the CI build breaks after a release upstream"),
        ]
    ):
        gene = gene_doc(id=f"gene_switch_{index}", summary=summary)
        payload = publish_payload(
            gene=gene, task={"id": f"switch-{index}", "family": "code_generation", "description": task}
        )
        response = await stock_client.post("/v1/genes", json=payload)
        assert response.status_code == 201, response.text
        genes.append(gene["id"])
    assert await _models(session, genes) == ({MODEL_NAME}, {MODEL_NAME})
    sessionmaker = async_sessionmaker(
        bind=session.bind, expire_on_commit=False, join_transaction_mode="create_savepoint"
    )

    # Switch: every version and task key gets the fine-tune's vector and name.
    assert await reembed(sessionmaker, tuned.embeddings) >= len(genes)
    assert await _models(session, genes) == ({tuned.embeddings.name}, {tuned.embeddings.name})
    row = await session.scalar(select(GeneVersion).where(GeneVersion.gene_id == genes[0]))
    assert row is not None
    await session.refresh(row)
    expected = (await tuned.embeddings.embed_texts([embedding_text(row.document)]))[0]
    assert float(np.dot(np.asarray(row.embedding), expected)) > 0.9999
    assert await reembed(sessionmaker, tuned.embeddings) == 0  # nothing left from another model

    # Served with the fine-tune's settings: its vectors, its fusion.
    tuned_settings = settings.model_copy(update={"embedding_model_dir": tuned.directory})
    body = await _search(serve(tuned_settings, tuned.embeddings), "pytest async test never finishes")
    assert body["embedding_model"] == tuned.embeddings.name
    assert body["results"][0]["gene_id"] == genes[0]
    assert body["results"][0]["explain"]["contributions"]["bias"] == pytest.approx(tuned.fusion.bias)

    # Switch back: the stock name, vectors and fusion again.
    assert await reembed(sessionmaker, embeddings) >= len(genes)
    assert await _models(session, genes) == ({MODEL_NAME}, {MODEL_NAME})
    body = await _search(stock_client, "pytest async test never finishes")
    assert body["embedding_model"] == MODEL_NAME
    assert body["results"][0]["gene_id"] == genes[0]
    assert body["results"][0]["explain"]["contributions"]["bias"] == pytest.approx(fitted_model().bias)


def _without_fusion(tuned: Tuned, target: Path) -> Path:
    shutil.copytree(tuned.directory, target, ignore=shutil.ignore_patterns(FUSION_FILE))
    return target


async def test_the_start_refuses_a_fine_tune_without_its_fusion(tuned: Tuned, tmp_path: Path) -> None:
    bare = _without_fusion(tuned, tmp_path / "bare")
    settings = Settings(database_url=NOWHERE, data_dir=tmp_path / "data", embedding_model_dir=bare)
    app = create_app(settings)
    with pytest.raises(ModelUnavailable) as refused:
        async with app.router.lifespan_context(app):
            pytest.fail("the application started")
    message = str(refused.value)
    assert f"{bare} (GENEBANK_EMBEDDING_MODEL_DIR) has no fusion.json" in message
    assert "make finetune" in message and "unset GENEBANK_EMBEDDING_MODEL_DIR" in message


async def test_a_fusion_fitted_for_other_weights_is_refused(tuned: Tuned, tmp_path: Path) -> None:
    other = _without_fusion(tuned, tmp_path / "other")
    data = json.loads((tuned.directory / FUSION_FILE).read_text())
    (other / FUSION_FILE).write_text(json.dumps({**data, "model": "0123456789abcdef"}))
    with pytest.raises(ModelUnavailable, match="was fitted for the weights 0123456789abcdef"):
        served_model(Settings(embedding_model_dir=other))
    (other / FUSION_FILE).write_text(json.dumps({"weights": {}}))
    with pytest.raises(ModelUnavailable, match="is not a fusion model"):
        served_model(Settings(embedding_model_dir=other))
    with pytest.raises(ModelUnavailable, match="holds no weights"):
        served_model(Settings(embedding_model_dir=tmp_path))


def test_genebank_serve_and_reembed_say_so_in_one_line(
    tuned: Tuned, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bare = _without_fusion(tuned, tmp_path / "bare")
    monkeypatch.setenv("GENEBANK_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("GENEBANK_DATABASE_URL", NOWHERE)
    monkeypatch.setenv("GENEBANK_EMBEDDING_MODEL_DIR", str(bare))
    for command in (["serve", "--port", "0"], ["reembed"]):
        result = CliRunner().invoke(cli, command)
        assert result.exit_code == 1, command
        assert result.output.startswith(f"error: the fine-tuned embedding model in {bare} "), command
        assert "Traceback" not in result.output
