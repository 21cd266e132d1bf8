"""The admin pages of webhooks: subscriptions, a subscription's deliveries, and replaying one."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncSession

from app.admin.auth import AdminUser
from app.admin.common import ActionResult, audit_action
from app.errors import NotFound
from app.webhooks.schemas import DeliveryPage, SubscriptionRead
from app.webhooks.service import webhook_service


@dataclass
class SubscriptionPage:
    subscription: SubscriptionRead
    deliveries: DeliveryPage


class WebhookPages:
    async def subscriptions(self, session: AsyncSession) -> list[SubscriptionRead]:
        return await webhook_service.list(session)

    async def subscription(
        self, session: AsyncSession, subscription_id: uuid.UUID, cursor: str | None, limit: int
    ) -> SubscriptionPage | None:
        found = [s for s in await webhook_service.list(session) if s.id == subscription_id]
        if not found:
            return None
        return SubscriptionPage(
            found[0], await webhook_service.deliveries(session, subscription_id, cursor, limit)
        )

    async def replay(
        self,
        session: AsyncSession,
        subscription_id: uuid.UUID,
        delivery_id: int,
        admin: AdminUser,
        *,
        client: str | None,
        path: str,
    ) -> ActionResult:
        try:
            delivery = await webhook_service.replay(session, subscription_id, delivery_id)
        except NotFound as error:
            return ActionResult(False, error.detail)
        await audit_action(
            session,
            admin.principal,
            "replay_webhook_delivery",
            str(subscription_id),
            client=client,
            path=path,
            status=200,
            detail={"delivery_id": delivery_id, "event_id": delivery.event_id},
        )
        return ActionResult(
            True, f"Delivery {delivery_id} ({delivery.event_type}) will be sent again shortly."
        )


webhook_pages = WebhookPages()
