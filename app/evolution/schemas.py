"""Response bodies of the evolution endpoints (events, lineage, guards)."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field


class EventRead(BaseModel):
    id: int
    kind: str = Field(description="published (POST /v1/genes), founded or merged (the worker)")
    trajectory_ids: list[uuid.UUID]
    guards_added: list[dict[str, Any]]
    guards_merged: list[dict[str, Any]] = Field(
        description="incoming guards that meant the same as an existing one (its evidence grew)"
    )
    guards_dropped: list[dict[str, Any]]
    old_asset_id: str | None
    new_asset_id: str = Field(description="equal to old_asset_id when only evidence changed")
    old_version: int | None
    new_version: int
    actor: str
    details: dict[str, Any] | None
    created_at: datetime


class EventPage(BaseModel):
    gene_id: str
    items: list[EventRead]
    next_cursor: str | None


class LineageEntry(BaseModel):
    version: int
    asset_id: str
    parent_asset_id: str | None
    provenance_kind: str
    producer_model: str
    valid_from: datetime
    valid_to: datetime | None
    trajectory_ids: list[uuid.UUID]
    event_id: int | None = Field(description="the evolution event that wrote this version")
    change: str | None = Field(description="published, founded or merged")
    guards_added: list[str]
    guards_dropped: list[str]


class LineagePage(BaseModel):
    gene_id: str
    status: str
    items: list[LineageEntry]
    next_cursor: str | None


class GuardRead(BaseModel):
    id: int
    text: str
    evidence: int = Field(description="trajectories that carried this guard (or a paraphrase of it)")
    kept: bool = Field(description="in the current document's `avoid` list")
    trajectories: int = Field(description="linked trajectories (a guard from a published document has none)")
    first_seen_at: datetime
    last_seen_at: datetime
    dropped_at: datetime | None


class GuardList(BaseModel):
    gene_id: str
    items: list[GuardRead]
