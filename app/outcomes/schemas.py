"""Request and response bodies of outcomes, stats, producers and lifecycle actions."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import BaseModel, Field, StringConstraints, model_validator

from app.gep.document import ASSET_ID_REGEX, NotBlank
from app.schemas import Name, StrictModel

Reason = Annotated[str, StringConstraints(min_length=3, max_length=1000), NotBlank]


class OutcomeIn(StrictModel):
    asset_id: Annotated[str, StringConstraints(pattern=ASSET_ID_REGEX)] = Field(
        description="the version the consumer used (the asset_id match or search returned)"
    )
    consumer_model: Name | None = Field(
        default=None,
        description="the model that used the Gene; a key bound to a model may leave it out (and may name "
        "no other); an unbound key must give it",
    )
    task_id: Name
    attempt_id: Name | None = Field(default=None, description="distinguishes retries of one task")
    success: bool
    score: float | None = Field(default=None, ge=0, le=1, allow_inf_nan=False)
    tokens_used: int | None = Field(default=None, ge=0, le=10**12)
    baseline_tokens: int | None = Field(
        default=None,
        ge=0,
        le=10**12,
        description="tokens the same consumer spent on such tasks without the Gene",
    )
    baseline_success: bool | None = Field(
        default=None, description="whether the consumer succeeded at this task without the Gene"
    )
    reason: Literal["failed", "partial", "irrelevant"] | None = Field(
        default=None,
        description="for an unsuccessful use: failed (the Gene did not help; the default), partial (it "
        "helped in part: credited its `score`, else 0.5) or irrelevant (the wrong Gene for the task: a "
        "retrieval miss, not counted against the Gene's quality)",
    )
    note: Annotated[str, StringConstraints(max_length=500)] | None = Field(
        default=None, description="a short note (redacted before storage)"
    )

    @model_validator(mode="after")
    def _reason_is_for_failures(self) -> OutcomeIn:
        if self.success and self.reason is not None:
            raise ValueError("a reason describes an unsuccessful use; leave it out when success is true")
        return self


class QualityRead(BaseModel):
    consumer_model: str | None = Field(
        description="null for all consumer models together; per model, only reports by keys bound to it"
    )
    reports: int = Field(description="counted reports (irrelevant ones are not)")
    reporters: int = Field(
        description="distinct reporting keys, each capped (GENEBANK_QUALITY_MAX_WEIGHT_PER_KEY)"
    )
    weighted_successes: float = Field(description="successes, each weighted 0.5^(age / half-life)")
    weighted_failures: float
    mean: float = Field(description="posterior mean of the success probability")
    lower_bound: float = Field(description="posterior lower quantile: the quality search ranks by")
    upper_bound: float
    demoted: bool = Field(description="this consumer model does worse with the Gene than without it")


class OutcomeRead(BaseModel):
    id: int
    gene_id: str
    consumer_model: str
    counted: bool = Field(description="false for an `irrelevant` report: a retrieval miss")
    status: str
    quality: QualityRead | None


class VersionQualityRead(BaseModel):
    version: int
    asset_id: str
    reports: int
    mean: float
    lower_bound: float


class UsageRead(BaseModel):
    reports: int = Field(description="how often the Gene was reused")
    reporters: int = Field(description="distinct reporting keys")
    irrelevant: int = Field(description="reports that it was the wrong Gene for the task (retrieval misses)")
    consumer_models: int
    tasks: int
    reports_with_baseline: int
    tokens_saved: int = Field(description="sum of baseline_tokens - tokens_used over reports with both")


class CostRead(BaseModel):
    tokens: int
    attempts: int
    seconds: float
    runs: int = Field(description="producer runs behind the Gene's versions")


class StatusChangeRead(BaseModel):
    from_status: str
    to_status: str
    reason: str
    actor: str
    at: datetime


class StatsRead(BaseModel):
    gene_id: str
    status: str
    status_message: str | None
    prior_mean: float = Field(description="the producer's reputation: the prior of the Gene's quality")
    quality: QualityRead
    by_consumer_model: list[QualityRead]
    by_version: list[VersionQualityRead]
    usage: UsageRead
    discovery_cost: CostRead
    status_history: list[StatusChangeRead]


class ProducerRead(BaseModel):
    producer_model: str
    genes: int
    reports: int
    mean: float
    lower_bound: float


class StatusIn(StrictModel):
    status: Literal["candidate", "promoted", "deprecated", "revoked"]
    reason: Reason


class LifecycleChange(BaseModel):
    gene_id: str
    from_status: str
    status: str
    reason: str
    actor: str
