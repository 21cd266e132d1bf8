"""The admin API of webhooks: subscriptions, their deliveries, replays."""

from __future__ import annotations

import uuid
from typing import Annotated

from fastapi import APIRouter, Path, Request
from fastapi import status as http

from app.admin.secret import session_secret
from app.auth.dependencies import AdminKey
from app.db import SessionDep
from app.jsonbody import JSONRoute
from app.schemas import CursorParam, Limit, page_size
from app.state import settings_of
from app.webhooks.schemas import (
    DeliveryPage,
    DeliveryRead,
    SubscriptionCreated,
    SubscriptionIn,
    SubscriptionRead,
)
from app.webhooks.service import webhook_service

router = APIRouter(prefix="/v1/admin/webhooks", tags=["admin"], route_class=JSONRoute)

DeliveryId = Annotated[int, Path(ge=1, le=2**63 - 1)]


@router.post("", status_code=http.HTTP_201_CREATED, response_model=SubscriptionCreated)
async def subscribe(
    body: SubscriptionIn, request: Request, session: SessionDep, admin: AdminKey
) -> SubscriptionCreated:
    """Deliver these events to this URL from now on; the answer shows the signing secret."""
    return await webhook_service.subscribe(session, body, admin, session_secret(settings_of(request)))


@router.get("", response_model=list[SubscriptionRead])
async def subscriptions(session: SessionDep, _: AdminKey) -> list[SubscriptionRead]:
    return await webhook_service.list(session)


@router.delete("/{subscription_id}", response_model=SubscriptionRead)
async def unsubscribe(subscription_id: uuid.UUID, session: SessionDep, _: AdminKey) -> SubscriptionRead:
    """Remove the subscription and its delivery history."""
    return await webhook_service.unsubscribe(session, subscription_id)


@router.get("/{subscription_id}/deliveries", response_model=DeliveryPage)
async def deliveries(
    subscription_id: uuid.UUID,
    request: Request,
    session: SessionDep,
    _: AdminKey,
    limit: Limit = None,
    cursor: CursorParam = None,
) -> DeliveryPage:
    """Newest first: state, attempts, the last answer or error, the payload sent."""
    return await webhook_service.deliveries(
        session, subscription_id, cursor, page_size(settings_of(request), limit)
    )


@router.post("/{subscription_id}/deliveries/{delivery_id}/replay", response_model=DeliveryRead)
async def replay(
    subscription_id: uuid.UUID, delivery_id: DeliveryId, session: SessionDep, _: AdminKey
) -> DeliveryRead:
    """Send the delivery again, whatever its state (due at once, attempts from zero)."""
    return await webhook_service.replay(session, subscription_id, delivery_id)
