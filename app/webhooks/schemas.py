"""Webhook API types (admin)."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field, field_validator

from app.schemas import CursorModel, StrictModel, Text

EventType = Literal["gene.published", "gene.evolved", "gene.promoted", "gene.deprecated", "gene.revoked"]


class SubscriptionIn(StrictModel):
    url: str = Field(max_length=2000, description="where to POST events (http or https)")
    events: list[EventType] = Field(min_length=1, max_length=5)
    description: Text | None = None

    @field_validator("url")
    @classmethod
    def _http(cls, value: str) -> str:
        if not value.startswith(("https://", "http://")) or any(ch.isspace() for ch in value):
            raise ValueError("a webhook URL is an http:// or https:// URL")
        return value

    @field_validator("events")
    @classmethod
    def _distinct(cls, value: list[str]) -> list[str]:
        return sorted(set(value))


class SubscriptionRead(BaseModel):
    id: uuid.UUID
    url: str
    events: list[str]
    description: str | None
    active: bool
    created_at: datetime


class SubscriptionCreated(SubscriptionRead):
    secret: str = Field(
        description="verifies the Genebank-Signature header of each delivery; shown here (and derived, "
        "never stored)"
    )


class DeliveryRead(BaseModel):
    id: int
    event_id: int = Field(description="the feed event: the idempotency id a receiver deduplicates on")
    event_type: str
    state: Literal["pending", "delivered", "failed"]
    attempts: int
    next_attempt_at: datetime
    last_status: int | None
    last_error: str | None
    created_at: datetime
    delivered_at: datetime | None
    payload: dict[str, Any]


class DeliveryCursor(CursorModel):
    id: int


class DeliveryPage(BaseModel):
    items: list[DeliveryRead]
    next_cursor: str | None
