"""The admin pages of webhooks: subscriptions, a subscription's deliveries, and a replay (CSRF, audited)."""

from __future__ import annotations

from collections.abc import Callable

import httpx
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.models import AuditEntry, WebhookDelivery
from tests.admin.conftest import History, csrf_of


async def test_webhook_pages_list_deliveries_and_replay_one(
    signed_in: httpx.AsyncClient,
    client_as: Callable[[str | None], httpx.AsyncClient],
    session: AsyncSession,
    history: History,
) -> None:
    hook = {"url": "https://hooks.example.org/<b>x</b>", "events": ["gene.evolved"], "description": "ops"}
    made = await client_as("admin").post("/v1/admin/webhooks", json=hook)
    assert made.status_code == 201, made.text
    subscription_id = made.json()["id"]
    # A delivery as the dispatcher would have recorded it after three refused attempts.
    delivery = WebhookDelivery(
        subscription_id=subscription_id,
        feed_event_id=77,
        event_type="gene.evolved",
        payload={"id": 77, "type": "gene.evolved", "data": {"gene_id": history.gene_id, "version": 2}},
        state="failed",
        attempts=3,
        last_status=503,
        last_error="answered 503",
    )
    session.add(delivery)
    await session.flush()

    listing = await signed_in.get("/admin/webhooks")
    assert listing.status_code == 200
    assert "<title>Webhooks · Genebank admin</title>" in listing.text
    assert "https://hooks.example.org/&lt;b&gt;x&lt;/b&gt;" in listing.text  # escaped, never markup
    page = await signed_in.get(f"/admin/webhooks/{subscription_id}")
    assert page.status_code == 200
    assert "answered 503" in page.text and "gene.evolved" in page.text and history.gene_id in page.text

    replay_path = f"/admin/webhooks/{subscription_id}/deliveries/{delivery.id}/replay"
    refused = await signed_in.post(replay_path, data={})
    assert refused.status_code == 403  # no CSRF token
    replayed = await signed_in.post(replay_path, data={"csrf_token": csrf_of(page.text)})
    assert replayed.status_code == 303
    await session.refresh(delivery)
    assert (delivery.state, delivery.attempts) == ("pending", 0)
    audited = await session.scalar(
        select(AuditEntry)
        .where(AuditEntry.action == "replay_webhook_delivery")
        .order_by(AuditEntry.id.desc())
    )
    assert audited is not None and audited.target == subscription_id
    assert (await signed_in.get("/admin/webhooks/00000000-0000-4000-8000-00000000dead")).status_code == 404
