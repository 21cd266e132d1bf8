"""Webhooks: subscriptions (admin API), deliveries planned from the feed, signed, retried, replayable.

**Outbox.** The changes are `feed_events`, written by triggers in the transaction of each change
(app/models/feed.py). A planner turns each subscription's new feed events into deliveries, in one
transaction that also moves the subscription's position: a (subscription, event) pair is unique, so
a planner that dies mid-way plans nothing twice.

**Delivery.** A sender claims due deliveries (`FOR UPDATE SKIP LOCKED`), counts the attempt and takes
a lease in one committed transaction, POSTs, then records the answer: 2xx delivered; anything else
retried after 5 s, 10 s, 20 s, … (at most an hour) until `GENEBANK_WEBHOOK_MAX_ATTEMPTS`, then failed
(replayable from the admin API and pages). A sender killed after the POST and before the record sends
again when the lease ends: delivery is at least once, and `Genebank-Event-Id` (the feed event's id)
is the idempotency id a receiver deduplicates on.

**Signature** (as Stripe's): `Genebank-Signature: t=<unix time>,v1=<hex HMAC-SHA256 of "<t>.<body>">`
with the subscription's secret, which is derived (HMAC of the subscription id under the server's
signing secret, GENEBANK_ADMIN_SESSION_SECRET or the one generated in the data directory), so no
secret is stored; a receiver refuses a timestamp older than a few minutes.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import logging
import time
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.auth.principal import Principal
from app.errors import NotFound
from app.feed.repository import FeedRepository
from app.models import FeedEvent, WebhookDelivery, WebhookSubscription
from app.schemas import CursorCodec
from app.webhooks.repository import WebhookRepository
from app.webhooks.schemas import (
    DeliveryCursor,
    DeliveryPage,
    DeliveryRead,
    SubscriptionCreated,
    SubscriptionIn,
    SubscriptionRead,
)

log = logging.getLogger(__name__)

DELIVERY_CURSOR = CursorCodec(DeliveryCursor)
PLAN_BATCH = 500
SEND_BATCH = 20
LEASE = timedelta(seconds=60)
TIMEOUT_SECONDS = 10.0
MAX_BACKOFF_SECONDS = 3600.0
# A version written by a publish or a founding run is a new Gene or a producer's new version;
# one written by a merge or a guard review is an evolution.
VERSION_EVENTS = {"published": "gene.published", "founded": "gene.published", "merged": "gene.evolved"}
STATUS_EVENTS = {"promoted": "gene.promoted", "deprecated": "gene.deprecated", "revoked": "gene.revoked"}


def subscription_secret(signing_secret: str, subscription_id: uuid.UUID) -> str:
    digest = hmac.new(signing_secret.encode(), f"genebank-webhook:{subscription_id}".encode(), hashlib.sha256)
    return "whsec_" + base64.urlsafe_b64encode(digest.digest()).decode().rstrip("=")


def signature(secret: str, timestamp: int, body: bytes) -> str:
    mac = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()
    return f"t={timestamp},v1={mac}"


def event_type(event: FeedEvent, version_kinds: dict[str, str]) -> str | None:
    if event.kind == "status":
        return STATUS_EVENTS.get(event.status or "")
    return VERSION_EVENTS.get(version_kinds.get(event.asset_id or "", "reviewed"), "gene.evolved")


def payload(event: FeedEvent, kind: str) -> dict[str, Any]:
    data: dict[str, Any] = {"gene_id": event.gene_id}
    if event.kind == "version":
        data |= {"version": event.version, "asset_id": event.asset_id}
    else:
        data |= {"status": event.status, "reason": event.status_message}
    return {"id": event.id, "type": kind, "created": event.occurred_at.isoformat(), "data": data}


def _read(subscription: WebhookSubscription) -> dict[str, Any]:
    return {
        "id": subscription.id,
        "url": subscription.url,
        "events": list(subscription.events),
        "description": subscription.description,
        "active": subscription.active,
        "created_at": subscription.created_at,
    }


def delivery_read(delivery: WebhookDelivery) -> DeliveryRead:
    return DeliveryRead(
        id=delivery.id,
        event_id=delivery.feed_event_id,
        event_type=delivery.event_type,
        state=delivery.state,
        attempts=delivery.attempts,
        next_attempt_at=delivery.next_attempt_at,
        last_status=delivery.last_status,
        last_error=delivery.last_error,
        created_at=delivery.created_at,
        delivered_at=delivery.delivered_at,
        payload=delivery.payload,
    )


class WebhookService:
    async def subscribe(
        self, session: AsyncSession, body: SubscriptionIn, caller: Principal, signing_secret: str
    ) -> SubscriptionCreated:
        """A subscription from now on: it starts at the feed's current end, not its history."""
        assert caller.key_id is not None
        latest = await FeedRepository(session).last()
        subscription = await WebhookRepository(session).add(
            WebhookSubscription(
                id=uuid.uuid4(),
                url=body.url,
                events=list(body.events),
                description=body.description,
                created_by=caller.key_id,
                position_xid=latest[0] if latest else 0,
                position_id=latest[1] if latest else 0,
            )
        )
        await session.refresh(subscription)
        return SubscriptionCreated(
            **_read(subscription), secret=subscription_secret(signing_secret, subscription.id)
        )

    async def list(self, session: AsyncSession) -> list[SubscriptionRead]:
        return [SubscriptionRead(**_read(s)) for s in await WebhookRepository(session).subscriptions()]

    async def subscription(self, session: AsyncSession, subscription_id: uuid.UUID) -> SubscriptionRead:
        found = await WebhookRepository(session).subscription(subscription_id)
        if found is None:
            raise NotFound(f"no webhook subscription {subscription_id}")
        return SubscriptionRead(**_read(found))

    async def unsubscribe(self, session: AsyncSession, subscription_id: uuid.UUID) -> SubscriptionRead:
        repo = WebhookRepository(session)
        subscription = await repo.subscription(subscription_id)
        if subscription is None:
            raise NotFound(f"no webhook subscription {subscription_id}")
        read = SubscriptionRead(**_read(subscription))
        await repo.delete(subscription)
        return read

    async def deliveries(
        self, session: AsyncSession, subscription_id: uuid.UUID, cursor: str | None, limit: int
    ) -> DeliveryPage:
        repo = WebhookRepository(session)
        if await repo.subscription(subscription_id) is None:
            raise NotFound(f"no webhook subscription {subscription_id}")
        position = DELIVERY_CURSOR.decode(cursor)
        rows = await repo.deliveries(
            subscription_id, before=position.id if position else None, limit=limit + 1
        )
        items, next_cursor = DELIVERY_CURSOR.page(rows, limit, lambda d: DeliveryCursor(id=d.id))
        return DeliveryPage(items=[delivery_read(d) for d in items], next_cursor=next_cursor)

    async def replay(
        self, session: AsyncSession, subscription_id: uuid.UUID, delivery_id: int
    ) -> DeliveryRead:
        delivery = await WebhookRepository(session).replay(subscription_id, delivery_id)
        if delivery is None:
            raise NotFound(f"no delivery {delivery_id} of webhook subscription {subscription_id}")
        return delivery_read(delivery)


@dataclass
class Sent:
    planned: int = 0
    delivered: int = 0
    retried: int = 0
    failed: int = 0


class WebhookSender:
    """Plans and sends deliveries; run by every worker process (app/webhooks/dispatcher.py)."""

    def __init__(
        self,
        sessionmaker: async_sessionmaker[AsyncSession],
        signing_secret: str,
        *,
        max_attempts: int,
        retry_base_seconds: float,
        client: httpx.AsyncClient | None = None,
    ) -> None:
        self.sessionmaker = sessionmaker
        self.signing_secret = signing_secret
        self.max_attempts = max_attempts
        self.retry_base_seconds = retry_base_seconds
        self.client = client or httpx.AsyncClient(timeout=TIMEOUT_SECONDS, follow_redirects=False)
        self.totals = Sent()

    async def plan(self) -> int:
        """Deliveries for each active subscription's new feed events; moves its position."""
        planned = 0
        async with self.sessionmaker.begin() as session:
            repo = WebhookRepository(session)
            for subscription in await repo.lock_active():
                events = await FeedRepository(session).after(
                    (subscription.position_xid, subscription.position_id), PLAN_BATCH
                )
                if not events:
                    continue
                kinds = await repo.version_kinds([e.asset_id for e in events if e.asset_id])
                rows = []
                for event in events:
                    kind = event_type(event, kinds)
                    if kind is not None and kind in subscription.events:
                        rows.append(
                            {
                                "subscription_id": subscription.id,
                                "feed_event_id": event.id,
                                "event_type": kind,
                                "payload": payload(event, kind),
                            }
                        )
                await repo.plan(rows)
                await repo.advance(subscription.id, events[-1].xid, events[-1].id)
                planned += len(rows)
        self.totals.planned += planned
        return planned

    async def send_due(self) -> int:
        """Send the deliveries that are due; how many were attempted."""
        async with self.sessionmaker.begin() as session:
            claimed = await WebhookRepository(session).claim_due(SEND_BATCH, LEASE)
        for row in claimed:
            await self._send(
                row.id,
                row.subscription_id,
                row.feed_event_id,
                row.event_type,
                row.payload,
                row.attempts,
                row.url,
            )
        return len(claimed)

    async def _send(
        self,
        delivery_id: int,
        subscription_id: uuid.UUID,
        event_id: int,
        kind: str,
        body: dict[str, Any],
        attempts: int,
        url: str,
    ) -> None:
        content = json.dumps(body, separators=(",", ":")).encode()
        secret = subscription_secret(self.signing_secret, subscription_id)
        headers = {
            "Content-Type": "application/json",
            "User-Agent": "Genebank-Webhooks/1",
            "Genebank-Event": kind,
            "Genebank-Event-Id": str(event_id),
            "Genebank-Delivery-Id": str(delivery_id),
            "Genebank-Signature": signature(secret, int(time.time()), content),
        }
        status: int | None = None
        error: str | None = None
        try:
            response = await self.client.post(url, content=content, headers=headers)
            status = response.status_code
            if not 200 <= status < 300:
                error = f"answered {status}"
        except httpx.HTTPError as exc:
            error = f"{type(exc).__name__}: {exc}"[:500]
        async with self.sessionmaker.begin() as session:
            repo = WebhookRepository(session)
            if error is None:
                await repo.finish(delivery_id, state="delivered", status=status, error=None)
                self.totals.delivered += 1
            elif attempts >= self.max_attempts:
                await repo.finish(delivery_id, state="failed", status=status, error=error)
                self.totals.failed += 1
                log.warning("webhook delivery %s to %s failed for good: %s", delivery_id, url, error)
            else:
                delay = min(self.retry_base_seconds * 2 ** (attempts - 1), MAX_BACKOFF_SECONDS)
                retry_at = datetime.now(UTC) + timedelta(seconds=delay)
                await repo.finish(
                    delivery_id, state="pending", status=status, error=error, next_attempt_at=retry_at
                )
                self.totals.retried += 1

    async def close(self) -> None:
        await self.client.aclose()


webhook_service = WebhookService()
