"""A U+0000 in an admin form (PostgreSQL text cannot hold it): a 422 page, nothing changed, audited."""

from __future__ import annotations

from collections.abc import Callable

import httpx
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.models import AuditEntry, GeneStatusChange
from tests.admin.conftest import History, csrf_of

BrowserClient = Callable[[], httpx.AsyncClient]


async def _refusals(session: AsyncSession) -> list[AuditEntry]:
    stmt = select(AuditEntry).where(AuditEntry.action == "admin.invalid_form").order_by(AuditEntry.id)
    return list((await session.scalars(stmt)).all())


async def test_a_nul_byte_in_a_status_reason_is_a_422_page_and_is_audited(
    signed_in: httpx.AsyncClient, history: History, session: AsyncSession
) -> None:
    gene = history.gene_id
    page = await signed_in.get(f"/admin/genes/{gene}")
    refused = await signed_in.post(
        f"/admin/genes/{gene}/status",
        data={"csrf_token": csrf_of(page.text), "status": "promoted", "reason": "Verified\x00 by hand"},
    )
    assert refused.status_code == 422
    assert refused.headers["content-type"].startswith("text/html") and "<main" in refused.text
    assert "U+0000" in refused.text
    assert await session.scalar(select(func.count()).select_from(GeneStatusChange)) == 0
    [entry] = await _refusals(session)
    assert (entry.status, entry.actor, entry.method, entry.path) == (
        422,
        "test admin",
        "POST",
        f"/admin/genes/{gene}/status",
    )
    assert entry.detail is not None and "U+0000" in entry.detail["problem"]
    # The page still works afterwards.
    assert (await signed_in.get(f"/admin/genes/{gene}")).status_code == 200


async def test_a_nul_byte_in_the_sign_in_form_is_a_422_page_and_is_audited(
    browser_client: BrowserClient, keys: dict[str, str], session: AsyncSession
) -> None:
    client = browser_client()
    form = await client.get("/admin/login")
    refused = await client.post(
        "/admin/login",
        data={"csrf_token": csrf_of(form.text), "key": keys["admin"] + "\x00", "next": "/admin/"},
    )
    assert refused.status_code == 422 and "U+0000" in refused.text
    [entry] = await _refusals(session)
    assert (entry.status, entry.actor, entry.path) == (422, "anonymous", "/admin/login")
    assert (await client.get("/admin/")).status_code == 303  # not signed in
