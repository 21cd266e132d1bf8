"""Request and response bodies of the trajectories API."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints, model_validator

from app.gep.document import (
    MAX_GUARDS,
    Constraints,
    GeneId,
    Line,
    ShortText,
    SignalPatterns,
    ValidationCommands,
)
from app.gep.document import NotBlank as NotBlankText
from app.schemas import Cost, Name, Step, StrictModel, TaskRef, Verifier

# A guard is one compact warning; GEP keeps anti-patterns short, and so does the Gene's `avoid` list.
GUARD_MAX_CHARS = 200
GuardText = Annotated[str, StringConstraints(max_length=GUARD_MAX_CHARS), NotBlankText]
TrajectoryStateName = Literal["pending", "merged", "rejected"]


class Producer(StrictModel):
    model: Name = Field(description="the model that ran the task (and wrote the guards and draft)")
    agent: Name | None = Field(default=None, description="the agent or harness around the model")


class GeneDraft(StrictModel):
    """The producer's proposal for a new Gene, used only when the trajectory founds one.

    Every field is optional: what is missing is distilled from the trajectory (see README).
    """

    id: GeneId | None = None
    category: Literal["repair", "optimize", "innovate", "explore"] | None = None
    summary: ShortText | None = None
    signals_match: SignalPatterns | None = None
    preconditions: list[Line] | None = Field(default=None, max_length=20)
    strategy: list[Line] | None = Field(default=None, min_length=1, max_length=30)
    constraints: Constraints | None = None
    validation: ValidationCommands | None = None


class TrajectoryIn(StrictModel):
    task: TaskRef
    producer: Producer
    steps: list[Step] = Field(min_length=1, max_length=500)
    verifier: Verifier
    cost: Cost | None = None
    guards: list[GuardText] | None = Field(
        default=None,
        max_length=MAX_GUARDS,
        description="failure guards the producer's model distilled; merged as written (after redaction)",
    )
    gene_draft: GeneDraft | None = None
    gene_id: GeneId | None = Field(default=None, description="the Gene this run is evidence for, if known")

    @model_validator(mode="after")
    def _draft_needs_a_pass(self) -> TrajectoryIn:
        if self.gene_draft is not None and not self.verifier.passed:
            raise ValueError(
                "a gene_draft needs a passed verifier: a failed run only contributes failure guards"
            )
        return self


class TrajectoryAccepted(BaseModel):
    id: uuid.UUID
    state: TrajectoryStateName
    created: bool = Field(description="false when the same content (or Idempotency-Key) was already stored")


class TrajectoryRead(BaseModel):
    id: uuid.UUID
    state: TrajectoryStateName
    reason: str | None = Field(description="why it was rejected, or what merging it did")
    gene_id: str | None = Field(description="the Gene it was merged into (or founded)")
    asset_id: str | None = Field(description="the Gene's version after the merge")
    closest_gene_id: str | None = Field(
        description="the Gene the worker compared the run with (routed to or named by gene_id)",
    )
    closest_similarity: float | None = Field(description="how close the run was to that Gene (cosine)")
    task: TaskRef
    producer: Producer
    verifier_passed: bool
    redactions: int = Field(description="secrets replaced by [REDACTED] before storage")
    received_at: datetime
    processed_at: datetime | None


def draft_dict(draft: GeneDraft | None) -> dict[str, Any] | None:
    return draft.model_dump(mode="json", exclude_none=True) if draft is not None else None
