"""Bodies of the admin API: keys and the audit log."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field

from app.schemas import CursorModel, Name, StrictModel


class KeyIn(StrictModel):
    name: Name
    role: Literal["consumer", "producer", "admin"]
    consumer_model: Name | None = Field(
        default=None,
        description="bind the key to the consumer model it runs: its outcome reports then count in that "
        "model's figures, and it may report under no other model",
    )
    owner: Name | None = Field(
        default=None,
        description="who holds the key (a person, team or organisation): keys of one owner are not "
        "independent runs when founding a Gene waits for a second one (GENEBANK_FOUND_MIN_RUNS); "
        "a key without an owner is its own",
    )


class KeyRead(BaseModel):
    id: uuid.UUID
    name: str
    role: str
    consumer_model: str | None
    owner: str | None
    prefix: str = Field(description="the public part of the key, as in gb_<prefix>_…")
    created_at: datetime
    created_by: uuid.UUID | None
    revoked_at: datetime | None
    last_used_at: datetime | None


class KeyCreated(KeyRead):
    key: str = Field(description="the key itself: shown this once, stored only as a hash")


class AuditRead(BaseModel):
    id: int
    at: datetime
    key_id: uuid.UUID | None
    actor: str
    role: str
    action: str
    target: str | None
    client: str | None
    method: str | None
    path: str | None
    status: int
    detail: dict[str, Any] | None
    # Identical refusals written as one entry: how many, and when the first and the last happened.
    repeat_count: int = 1
    first_at: datetime
    last_at: datetime


class AuditCursor(CursorModel):
    at: datetime
    id: int


class AuditPage(BaseModel):
    items: list[AuditRead]
    next_cursor: str | None
