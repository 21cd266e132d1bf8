"""Request and response bodies of the genes API."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Annotated, Any, Literal

from fastapi import Path
from pydantic import BaseModel, Field, model_validator

from app.gep.document import ASSET_ID_REGEX, GENE_ID_PATTERN, MAX_GUARDS, GeneDocument, ShortText
from app.schemas import Cost, CursorModel, Name, ProvenanceKindName, Step, StrictModel, TaskRef, Verifier


class InlineTrajectory(StrictModel):
    """The run behind a published version, stored as evidence with the provenance's task and verifier."""

    steps: list[Step] = Field(min_length=1, max_length=500)
    guards: list[ShortText] | None = Field(default=None, max_length=MAX_GUARDS)
    producer_agent: Name | None = None


class ProvenanceIn(StrictModel):
    kind: ProvenanceKindName
    producer_model: Name
    verifier: Verifier | None = None
    task: TaskRef | None = None
    cost: Cost | None = None
    trajectory: InlineTrajectory | None = None
    trajectory_id: uuid.UUID | None = Field(default=None, strict=False)

    @model_validator(mode="after")
    def _consistent(self) -> ProvenanceIn:
        if self.kind == "verified_trajectory":
            if self.verifier is None or self.task is None:
                raise ValueError("a verified_trajectory needs its verifier result and its task")
            if not self.verifier.passed:
                raise ValueError(
                    "the verifier did not pass: a Gene's strategy may only come from a passed run "
                    "(send failed runs to POST /v1/trajectories, where they become failure guards)"
                )
        if self.trajectory is not None and self.trajectory_id is not None:
            raise ValueError("give either an inline trajectory or a trajectory_id, not both")
        if self.trajectory is not None and (self.verifier is None or self.task is None):
            raise ValueError("an inline trajectory needs the provenance's verifier and task")
        return self


class PublishRequest(StrictModel):
    gene: GeneDocument
    provenance: ProvenanceIn

    @model_validator(mode="after")
    def _model_names_agree(self) -> PublishRequest:
        if self.gene.model_name is not None and self.gene.model_name != self.provenance.producer_model:
            raise ValueError(
                f"gene.model_name {self.gene.model_name!r} differs from provenance.producer_model "
                f"{self.provenance.producer_model!r}"
            )
        return self


class PublishResponse(BaseModel):
    gene_id: str
    version: int
    asset_id: str
    created: bool = Field(description="false when the identical document was already published")
    converted: list[str] = Field(
        default_factory=list,
        description="older Genebank fields the document was sent with, converted before hashing: `avoid` "
        "became guard entries of `anti_patterns`, `parent` and `generation_meta` left the document for the "
        "version's record; `asset_id` is that of the converted (stored and served) document",
    )


class KeyRef(BaseModel):
    key_id: uuid.UUID
    name: str


class ProvenanceRead(BaseModel):
    """Where the version's strategy came from, and what else stands behind the version."""

    kind: str = Field(description="of the strategy: verified_trajectory, manual or reference")
    producer_model: str = Field(description="the model that wrote the strategy")
    verifier: dict[str, Any] | None = Field(description="the verifier result of the strategy's run")
    task: TaskRef | None = Field(description="the task the strategy was learned on")
    cost: Cost | None
    trajectory_ids: list[uuid.UUID] = Field(description="the run(s) the strategy came from")
    guard_trajectory_ids: list[uuid.UUID] = Field(
        description="runs whose failure guards changed this version (its strategy is older)"
    )
    published_by: KeyRef = Field(
        description="the key that published the version, or whose run or guard review made the worker "
        "write it"
    )


class GeneVersionRead(BaseModel):
    """A Gene version with the registry's facts about it; `document` is the hashed GEP document."""

    gene_id: str
    version: int
    asset_id: str
    parent_asset_id: str | None
    current: bool = Field(description="whether this is the Gene's current version")
    status: str
    status_message: str | None
    category: str
    task_family: str | None
    valid_from: datetime
    valid_to: datetime | None
    gene_created_at: datetime
    gene_updated_at: datetime
    owner: KeyRef = Field(description="the key that owns the Gene (publishes its versions)")
    reason: str | None = Field(
        description="why this version exists: published, founded, guards_added, guards_merged, reordered, "
        "dropped or gep_format (null for versions written before reasons were recorded)"
    )
    generation_meta: dict[str, Any] | None = Field(
        description="how the evolution worker made this version's document (source, task, "
        "overcame_errors, …); kept beside the document, not in its hash"
    )
    provenance: ProvenanceRead
    document: dict[str, Any]


class GeneSummary(BaseModel):
    gene_id: str
    status: str
    category: str
    task_family: str | None
    producer_model: str
    version: int
    asset_id: str
    summary: str | None
    created_at: datetime
    updated_at: datetime


class GeneCursor(CursorModel):
    updated_at: datetime
    gene_id: str
    descending: bool


class VersionCursor(CursorModel):
    version: int


class GenePage(BaseModel):
    items: list[GeneSummary]
    next_cursor: str | None


class VersionSummary(BaseModel):
    version: int
    asset_id: str
    parent_asset_id: str | None
    producer_model: str
    provenance_kind: str
    valid_from: datetime
    valid_to: datetime | None


class VersionPage(BaseModel):
    gene_id: str
    items: list[VersionSummary]
    next_cursor: str | None


class PromptRead(BaseModel):
    gene_id: str
    version: int
    asset_id: str
    max_tokens: int
    tokens: int = Field(description="estimated tokens of `text` (an upper-bound estimate, see README)")
    truncated: bool
    omitted: dict[str, int] = Field(description="items left out to stay within the budget, per section")
    text: str


class OwnerIn(StrictModel):
    key_id: uuid.UUID = Field(strict=False, description="the producer or admin key that will own the Gene")


class OwnerChange(BaseModel):
    gene_id: str
    owner: KeyRef
    previous_owner: KeyRef


GeneOrder = Literal["asc", "desc"]
# Path parameters every domain's routes use for a Gene.
GeneIdPath = Annotated[str, Path(pattern=GENE_ID_PATTERN, description="the Gene's stable id")]
AssetIdPath = Annotated[str, Path(pattern=ASSET_ID_REGEX, examples=["sha256:" + "0" * 64])]
