"""Floods of refused requests: limited per client address before they cost a key look-up, and
audited in aggregate (one entry with a repeat count per refusal and flush) rather than row by row.
"""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator, Callable
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import func, select, text
from sqlalchemy.ext.asyncio import AsyncSession

from app.models import AuditEntry
from tests.admin.conftest import csrf_of
from tests.factories import publish_payload

Clients = Callable[..., httpx.AsyncClient]
JSON = {"Content-Type": "application/json"}


@pytest.fixture
async def from_address(app: FastAPI) -> AsyncIterator[Clients]:
    """Clients calling from a given address (ASGI's `client`), with optional headers."""
    opened: list[httpx.AsyncClient] = []

    def make(address: str, **headers: str) -> httpx.AsyncClient:
        transport = httpx.ASGITransport(app=app, client=(address, 40000))
        client = httpx.AsyncClient(transport=transport, base_url="http://genebank.test", headers=headers)
        opened.append(client)
        return client

    yield make
    for client in opened:
        await client.aclose()


def _limits(app: FastAPI, **values: Any) -> None:
    """Limits per hour: a sliding window frees a per-minute budget gradually while a test runs."""
    app.state.settings = app.state.settings.model_copy(update=values)


async def _audit_rows(session: AsyncSession, **where: Any) -> list[AuditEntry]:
    stmt = select(AuditEntry).filter_by(**where).order_by(AuditEntry.id)
    return list((await session.scalars(stmt)).all())


async def _key_lookups(session: AsyncSession) -> int:
    """Scans of api_keys in this test's transaction (the key look-ups run on its connection)."""
    scans = await session.scalar(
        text(
            "SELECT coalesce(seq_scan, 0) + coalesce(idx_scan, 0) FROM pg_stat_xact_user_tables "
            "WHERE relname = 'api_keys'"
        )
    )
    return int(scans or 0)


def _unknown_key() -> str:
    return f"gb_{secrets.token_hex(6)}_{secrets.token_urlsafe(32)}"


async def _flush(app: FastAPI) -> int:
    flushed: int = await app.state.audit.flush(app.state.runtime.read_pool)
    return flushed


async def test_a_thousand_keyless_writes_cost_a_handful_of_audit_rows_and_say_how_many_they_were(
    app: FastAPI, session: AsyncSession, from_address: Clients
) -> None:
    _limits(app, rate_limit_unauthenticated="10/hour")
    flood = from_address("198.51.100.7")
    statuses = [(await flood.post("/v1/genes", json=publish_payload())).status_code for _ in range(1000)]
    assert statuses == [401] * 10 + [429] * 990
    refused = await flood.post("/v1/genes", json=publish_payload())
    assert refused.status_code == 429 and int(refused.headers["retry-after"]) >= 1

    written = await _audit_rows(session, client="198.51.100.7")
    assert [(row.status, row.repeat_count) for row in written] == [(401, 1), (429, 1)]
    assert await _flush(app) == 2
    rows = await _audit_rows(session, client="198.51.100.7")
    assert len(rows) == 4
    assert sum(row.repeat_count for row in rows) == 1001
    aggregated = {row.status: row for row in rows[2:]}
    assert aggregated[401].repeat_count == 9 and aggregated[429].repeat_count == 990
    assert all(row.first_at <= row.last_at for row in rows)
    assert aggregated[429].action == "rate_limited:unauthenticated" and aggregated[429].actor == "anonymous"
    # Nothing more to write; the next flush forgets the quiet refusals.
    assert await _flush(app) == 0


async def test_unknown_keys_are_refused_before_their_look_up_once_an_address_used_up_its_refusals(
    app: FastAPI, session: AsyncSession, from_address: Clients, keys: dict[str, str]
) -> None:
    _limits(app, rate_limit_unauthenticated="10/hour")
    # A key this address used before the flood stays verified (key cache) and keeps working.
    known = from_address("203.0.113.50", Authorization=f"Bearer {keys['consumer']}")
    assert (await known.get("/v1/genes")).status_code == 200

    before = await _key_lookups(session)
    statuses = []
    for index in range(1000):
        guesser = from_address("203.0.113.50", Authorization=f"Bearer {_unknown_key()}")
        answer = await (guesser.get("/v1/genes") if index % 2 else guesser.post("/v1/genes", json={}))
        statuses.append(answer.status_code)
        await guesser.aclose()
    lookups = await _key_lookups(session) - before
    assert statuses[:10] == [401] * 10 and set(statuses[10:]) == {429}, statuses[:40]
    assert lookups <= 10, f"{lookups} key look-ups for 1,000 unknown keys"
    assert (await known.get("/v1/genes")).status_code == 200
    # Another address is not affected.
    other = from_address("203.0.113.51", Authorization=f"Bearer {keys['producer']}")
    assert (await other.get("/v1/genes")).status_code == 200
    assert len(await _audit_rows(session, client="203.0.113.50")) <= 3  # 401 (writes), 429, and nothing else


async def test_429s_and_413s_are_audited_and_aggregated(
    app: FastAPI, session: AsyncSession, from_address: Clients, keys: dict[str, str]
) -> None:
    _limits(app, rate_limit_writes="2/hour", rate_limit_reads="3/hour")
    producer = from_address("192.0.2.10", Authorization=f"Bearer {keys['producer']}")
    writes = [(await producer.post("/v1/genes", json=publish_payload())).status_code for _ in range(5)]
    assert writes == [201, 200, 429, 429, 429]
    reads = [(await producer.get("/v1/genes")).status_code for _ in range(5)]
    assert reads == [200, 200, 200, 429, 429]
    big = b'{"gene": "' + b"x" * (app.state.settings.max_body_bytes + 10) + b'"}'
    for _ in range(3):
        too_large = await producer.post(
            "/v1/genes", content=big, headers={"Content-Type": "application/json"}
        )
        assert too_large.status_code == 413

    def summary(rows: list[AuditEntry]) -> list[tuple[str, int, int]]:
        return [(row.action, row.status, row.repeat_count) for row in rows if row.status in (413, 429)]

    written = await _audit_rows(session, client="192.0.2.10")
    assert summary(written) == [
        ("rate_limited:writes", 429, 1),
        ("rate_limited:reads", 429, 1),
        ("POST /v1/genes", 413, 1),
    ]
    assert all(row.actor == "test producer" for row in written)
    await _flush(app)
    flushed = summary(await _audit_rows(session, client="192.0.2.10"))[3:]
    assert sorted(flushed) == [
        ("POST /v1/genes", 413, 2),
        ("rate_limited:reads", 429, 1),
        ("rate_limited:writes", 429, 2),
    ]
    # The audit API shows the counts.
    admin = from_address("192.0.2.99", Authorization=f"Bearer {keys['admin']}")
    listed = (await admin.get("/v1/admin/audit", params={"failed": True})).json()["items"]
    repeated = next(item for item in listed if item["status"] == 413 and item["repeat_count"] == 2)
    assert repeated["first_at"] <= repeated["last_at"]


async def test_admin_sign_in_attempts_are_limited_per_address(
    app: FastAPI, session: AsyncSession, from_address: Clients, keys: dict[str, str], tmp_path: Any
) -> None:
    _limits(app, rate_limit_admin_login="3/hour", data_dir=tmp_path)

    async def sign_in(client: httpx.AsyncClient, token: str) -> httpx.Response:
        form = await client.get("/admin/login")
        return await client.post(
            "/admin/login", data={"csrf_token": csrf_of(form.text), "key": token, "next": "/admin/"}
        )

    guesser = from_address("198.51.100.20")
    attempts = [(await sign_in(guesser, _unknown_key())).status_code for _ in range(6)]
    assert attempts == [401, 401, 401, 429, 429, 429]
    # Even the right key waits: the address is out of attempts.
    late = await sign_in(guesser, keys["admin"])
    assert late.status_code == 429 and int(late.headers["retry-after"]) >= 1
    assert (await sign_in(from_address("198.51.100.21"), keys["admin"])).status_code == 303

    await _flush(app)
    rows = await _audit_rows(session, action="admin.login", client="198.51.100.20")
    assert sorted((row.status, row.repeat_count) for row in rows) == [(401, 1), (401, 2), (429, 1), (429, 3)]
    assert await session.scalar(select(func.count()).select_from(AuditEntry)) >= 4
