"""Webhook subscriptions and their deliveries (app/webhooks/).

The outbox is `feed_events` itself (written by triggers in the transaction of each change); a
subscription keeps the feed position up to which its deliveries were planned, and each delivery is
one (subscription, feed event) pair, unique, so an event is planned once per subscription whatever
crashes in between.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    DateTime,
    ForeignKey,
    Identity,
    Index,
    Integer,
    Text,
    UniqueConstraint,
    text,
)
from sqlalchemy.dialects.postgresql import ARRAY, JSONB, UUID
from sqlalchemy.orm import Mapped, mapped_column

from app.models.base import Base, utcnow_column
from app.models.feed import Xid8

EVENT_TYPES = ("gene.published", "gene.evolved", "gene.promoted", "gene.deprecated", "gene.revoked")


class WebhookSubscription(Base):
    __tablename__ = "webhook_subscriptions"

    id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), primary_key=True, default=uuid.uuid4)
    url: Mapped[str] = mapped_column(Text, nullable=False)
    events: Mapped[list[str]] = mapped_column(ARRAY(Text), nullable=False)
    description: Mapped[str | None] = mapped_column(Text)
    active: Mapped[bool] = mapped_column(Boolean, nullable=False, server_default=text("true"))
    created_by: Mapped[uuid.UUID] = mapped_column(ForeignKey("api_keys.id"), nullable=False)
    created_at: Mapped[datetime] = utcnow_column()
    # The feed position (xid, id) up to which this subscription's deliveries have been planned.
    position_xid: Mapped[int] = mapped_column(Xid8(), nullable=False, server_default=text("'0'::xid8"))
    position_id: Mapped[int] = mapped_column(BigInteger, nullable=False, server_default=text("0"))


class WebhookDelivery(Base):
    __tablename__ = "webhook_deliveries"
    __table_args__ = (
        CheckConstraint("state IN ('pending', 'delivered', 'failed')", name="state_valid"),
        UniqueConstraint("subscription_id", "feed_event_id", name="uq_webhook_deliveries_event"),
        Index(
            "ix_webhook_deliveries_due",
            "next_attempt_at",
            postgresql_where=text("state = 'pending'"),
        ),
        Index("ix_webhook_deliveries_subscription_id_id", "subscription_id", "id"),
    )

    id: Mapped[int] = mapped_column(BigInteger, Identity(), primary_key=True)
    subscription_id: Mapped[uuid.UUID] = mapped_column(
        ForeignKey("webhook_subscriptions.id", ondelete="CASCADE"), nullable=False
    )
    feed_event_id: Mapped[int] = mapped_column(BigInteger, nullable=False)
    event_type: Mapped[str] = mapped_column(Text, nullable=False)
    payload: Mapped[dict[str, Any]] = mapped_column(JSONB, nullable=False)
    state: Mapped[str] = mapped_column(Text, nullable=False, server_default=text("'pending'"))
    attempts: Mapped[int] = mapped_column(Integer, nullable=False, server_default=text("0"))
    next_attempt_at: Mapped[datetime] = utcnow_column()
    last_status: Mapped[int | None] = mapped_column(Integer)
    last_error: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = utcnow_column()
    delivered_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
