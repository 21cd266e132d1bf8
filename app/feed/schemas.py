"""The change feed's API types."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field

from app.schemas import CursorModel


class FeedCursor(CursorModel):
    xid: int
    id: int


class FeedItem(BaseModel):
    kind: Literal["version", "status"] = Field(
        description="version: a new immutable version (fetch it by asset_id); status: the Gene's status "
        "changed (promoted, deprecated, revoked, candidate)"
    )
    gene_id: str
    version: int | None = Field(description="of a `version` item")
    asset_id: str | None = Field(description="of a `version` item: GET /v1/assets/{asset_id}")
    status: str | None = Field(description="of a `status` item")
    status_message: str | None = Field(description="of a `status` item: why")
    occurred_at: datetime


class FeedPage(BaseModel):
    items: list[FeedItem]
    next_cursor: str = Field(
        description="where to continue: pass it as `since` next time (also when `items` is empty: the "
        "position does not move until there is something new)"
    )
