"""Every statement of the webhooks domain."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Row, and_, func, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.ext.asyncio import AsyncSession

from app.models import EvolutionEvent, WebhookDelivery, WebhookSubscription


class WebhookRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def add(self, subscription: WebhookSubscription) -> WebhookSubscription:
        self.session.add(subscription)
        await self.session.flush()
        return subscription

    async def subscriptions(self) -> Sequence[WebhookSubscription]:
        stmt = select(WebhookSubscription).order_by(WebhookSubscription.created_at, WebhookSubscription.id)
        return (await self.session.scalars(stmt)).all()

    async def subscription(self, subscription_id: uuid.UUID) -> WebhookSubscription | None:
        return await self.session.get(WebhookSubscription, subscription_id)

    async def delete(self, subscription: WebhookSubscription) -> None:
        await self.session.delete(subscription)

    async def lock_active(self) -> Sequence[WebhookSubscription]:
        """Active subscriptions no other planner holds (one planner per subscription at a time)."""
        stmt = (
            select(WebhookSubscription)
            .where(WebhookSubscription.active)
            .order_by(WebhookSubscription.id)
            .with_for_update(skip_locked=True)
        )
        return (await self.session.scalars(stmt)).all()

    async def version_kinds(self, asset_ids: Sequence[str]) -> dict[str, str]:
        """For each new version's asset_id, the kind of the event that wrote it (published, merged, …)."""
        if not asset_ids:
            return {}
        stmt = select(EvolutionEvent.new_asset_id, EvolutionEvent.kind).where(
            EvolutionEvent.new_asset_id.in_(asset_ids),
            EvolutionEvent.old_asset_id.is_distinct_from(EvolutionEvent.new_asset_id),
        )
        return {asset_id: kind for asset_id, kind in (await self.session.execute(stmt)).all()}

    async def plan(self, rows: list[dict[str, Any]]) -> None:
        if rows:
            await self.session.execute(pg_insert(WebhookDelivery).values(rows).on_conflict_do_nothing())

    async def advance(self, subscription_id: uuid.UUID, xid: int, event_id: int) -> None:
        await self.session.execute(
            update(WebhookSubscription)
            .where(WebhookSubscription.id == subscription_id)
            .values(position_xid=xid, position_id=event_id)
        )

    async def claim_due(self, limit: int, lease: timedelta) -> Sequence[Row[Any]]:
        """Due pending deliveries, each with its attempt counted and a lease taken (caller commits)."""
        due = (
            select(WebhookDelivery.id)
            .where(WebhookDelivery.state == "pending", WebhookDelivery.next_attempt_at <= func.now())
            .order_by(WebhookDelivery.next_attempt_at)
            .limit(limit)
            .with_for_update(skip_locked=True)
            .scalar_subquery()
        )
        claimed = (
            update(WebhookDelivery)
            .where(WebhookDelivery.id.in_(due))
            .values(attempts=WebhookDelivery.attempts + 1, next_attempt_at=func.now() + lease)
            .returning(
                WebhookDelivery.id,
                WebhookDelivery.subscription_id,
                WebhookDelivery.feed_event_id,
                WebhookDelivery.event_type,
                WebhookDelivery.payload,
                WebhookDelivery.attempts,
            )
            .cte("claimed")
        )
        stmt = select(claimed, WebhookSubscription.url).join(
            WebhookSubscription, WebhookSubscription.id == claimed.c.subscription_id
        )
        return (await self.session.execute(stmt)).all()

    async def finish(
        self,
        delivery_id: int,
        *,
        state: str,
        status: int | None,
        error: str | None,
        next_attempt_at: datetime | None = None,
    ) -> None:
        values: dict[str, Any] = {"state": state, "last_status": status, "last_error": error}
        if state == "delivered":
            values["delivered_at"] = func.now()
        if next_attempt_at is not None:
            values["next_attempt_at"] = next_attempt_at
        await self.session.execute(
            update(WebhookDelivery).where(WebhookDelivery.id == delivery_id).values(**values)
        )

    async def deliveries(
        self, subscription_id: uuid.UUID, *, before: int | None, limit: int
    ) -> Sequence[WebhookDelivery]:
        stmt = select(WebhookDelivery).where(WebhookDelivery.subscription_id == subscription_id)
        if before is not None:
            stmt = stmt.where(WebhookDelivery.id < before)
        return (await self.session.scalars(stmt.order_by(WebhookDelivery.id.desc()).limit(limit))).all()

    async def replay(self, subscription_id: uuid.UUID, delivery_id: int) -> WebhookDelivery | None:
        """Send a delivery again (whatever its state): pending, due now, attempts from zero."""
        stmt = (
            update(WebhookDelivery)
            .where(
                and_(WebhookDelivery.id == delivery_id, WebhookDelivery.subscription_id == subscription_id)
            )
            .values(state="pending", attempts=0, next_attempt_at=func.now(), delivered_at=None)
            .returning(WebhookDelivery)
        )
        return (await self.session.scalars(stmt)).one_or_none()
