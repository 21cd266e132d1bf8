"""Response bodies of the evolution endpoints (events, lineage, guards)."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from app.genes.schemas import KeyRef
from app.schemas import StrictModel


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
    provenance_kind: str = Field(description="of the strategy (kept by versions that only change guards)")
    producer_model: str = Field(description="the model that wrote the strategy")
    published_by: KeyRef
    valid_from: datetime
    valid_to: datetime | None
    trajectory_ids: list[uuid.UUID] = Field(description="the run(s) the strategy came from")
    guard_trajectory_ids: list[uuid.UUID] = Field(description="runs whose guards changed this version")
    event_id: int | None = Field(description="the evolution event that wrote this version")
    change: str | None = Field(description="published, founded or merged")
    reason: str | None = Field(
        description="why this version exists: published, founded, guards_added, guards_merged (a guard took "
        "a producer's wording), reordered (the same guards ranked anew by evidence) or dropped; null for "
        "versions written before reasons were recorded"
    )
    guards_added: list[str]
    guards_dropped: list[str]


class LineagePage(BaseModel):
    gene_id: str
    status: str
    items: list[LineageEntry]
    next_cursor: str | None


class Backer(BaseModel):
    key_id: uuid.UUID
    name: str
    owner: bool = Field(description="the key that owns the Gene")


class GuardRead(BaseModel):
    id: int | None = Field(
        description="the guard's id (to approve or reject it); null for a guard of the document the worker "
        "has not recorded yet (a published Gene before its first merge)"
    )
    text: str
    origin: Literal["published", "trajectory"] = Field(
        description="published: it came with a version published through POST /v1/genes (the document's "
        "own); trajectory: a run's guard, merged by the worker"
    )
    since_version: int | None = Field(
        description="the first version whose `avoid` carried it (null if never served)"
    )
    state: str = Field(
        description="active (may be served), proposed (waits for backing or a human) or rejected"
    )
    evidence: int = Field(
        description="what the worker ranks guards by: the runs that carried this guard (or a paraphrase of "
        "it), plus one for the published document that carried it once the worker has recorded it; 0 for "
        "a document's guard before the first merge"
    )
    kept: bool = Field(description="in the current document's `avoid` list")
    trajectories: int = Field(
        description="linked trajectories: the merge evidence (a guard from a published document has none)"
    )
    backers: list[Backer] = Field(
        description="distinct keys behind the guard: the senders of its runs, or the publisher of the "
        "document that carried it"
    )
    hold_reason: str | None = Field(
        description="why the guard waits for the owner or an admin whatever its backing"
    )
    reviewed_by: str | None
    reviewed_at: datetime | None
    review_note: str | None
    first_seen_at: datetime
    last_seen_at: datetime
    dropped_at: datetime | None


class GuardList(BaseModel):
    gene_id: str
    quorum: int = Field(description="distinct keys other than the owner it takes to serve a guard")
    items: list[GuardRead]


class ReviewIn(StrictModel):
    note: Annotated[str, StringConstraints(max_length=1000)] | None = None


class ReviewRead(BaseModel):
    gene_id: str
    guard: GuardRead
    version: int = Field(description="the Gene's current version after the review")
    asset_id: str
    new_version: bool = Field(description="whether the review changed the served guards")
