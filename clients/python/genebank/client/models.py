"""Typed answers of the registry (pydantic). Field for field the server's response bodies; the test suite
compares each model with the server's own so that neither drifts.

Fields the registry adds later are kept, not refused (`extra="allow"`): an older client still reads a
newer registry. Ids (Gene, asset, trajectory, key) are plain strings, ready to pass back.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

Band = Literal["found", "low_confidence", "no_match"]
TrajectoryState = Literal["pending", "merged", "rejected"]


class Model(BaseModel):
    model_config = ConfigDict(extra="allow")


# --- search and match ----------------------------------------------------------------------------------


class StageRank(Model):
    rank: int


class Explanation(Model):
    stages: dict[str, StageRank]
    features: dict[str, float]
    contributions: dict[str, float]  # add up to the logit: score = answerable / (1 + exp(-sum))
    answerable: float
    quality: float
    freshness: float


class SearchResult(Model):
    gene_id: str
    asset_id: str
    version: int
    score: float
    similarity: float
    confidence: Literal["found", "low_confidence", "weak"]
    summary: str | None
    category: str
    task_family: str | None
    producer_model: str
    provenance_kind: str
    status: str
    signal_hits: list[str]
    demoted_for_consumer_model: bool
    explain: Explanation | None = None


class SearchResponse(Model):
    band: Band
    results: list[SearchResult]
    next_cursor: str | None
    embedding_model: str


class MatchedGene(Model):
    gene_id: str
    asset_id: str
    version: int
    score: float
    similarity: float
    confidence: Literal["found", "low_confidence", "weak"]
    tokens: int
    truncated: bool
    text: str
    omitted: dict[str, int] = Field(default_factory=dict)  # per section; absent from older servers


class MatchResponse(Model):
    band: Band
    genes: list[MatchedGene]
    tokens: int
    max_tokens: int


# --- Genes -----------------------------------------------------------------------------------------------


class KeyRef(Model):
    key_id: str
    name: str


class TaskRef(Model):
    id: str
    family: str | None = None
    description: str


class Cost(Model):
    tokens: int | None = None
    attempts: int | None = None
    seconds: float | None = None


class Provenance(Model):
    kind: str
    producer_model: str
    verifier: dict[str, Any] | None
    task: TaskRef | None
    cost: Cost | None
    trajectory_ids: list[str]
    guard_trajectory_ids: list[str]
    published_by: KeyRef


class GeneVersion(Model):
    """A version with the registry's facts; `document` is the GEP document its `asset_id` hashes."""

    gene_id: str
    version: int
    asset_id: str
    parent_asset_id: str | None
    current: bool
    status: str
    status_message: str | None
    category: str
    task_family: str | None
    valid_from: datetime
    valid_to: datetime | None
    gene_created_at: datetime
    gene_updated_at: datetime
    owner: KeyRef
    reason: str | None = None  # why this version exists (published, guards_merged, reordered, …)
    generation_meta: dict[str, Any] | None = None  # how the worker made it; not part of the hash
    provenance: Provenance
    document: dict[str, Any]

    @property
    def guards(self) -> list[str]:
        """The failure guards: the document's `anti_patterns` entries of mode "avoid" (their
        `reason_class`), then, in a version written before guards were anti_patterns, its `avoid`."""
        entries = self.document.get("anti_patterns") or []
        texts = [
            e["reason_class"]
            for e in entries
            if isinstance(e, dict) and e.get("mode") == "avoid" and isinstance(e.get("reason_class"), str)
        ]
        texts += [t for t in self.document.get("avoid") or [] if isinstance(t, str)]
        return list(dict.fromkeys(texts))


class GeneSummary(Model):
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


class GenePage(Model):
    items: list[GeneSummary]
    next_cursor: str | None


class VersionSummary(Model):
    version: int
    asset_id: str
    parent_asset_id: str | None
    producer_model: str
    provenance_kind: str
    valid_from: datetime
    valid_to: datetime | None


class VersionPage(Model):
    gene_id: str
    items: list[VersionSummary]
    next_cursor: str | None


class Prompt(Model):
    gene_id: str
    version: int
    asset_id: str
    max_tokens: int
    tokens: int
    truncated: bool
    omitted: dict[str, int]
    text: str


class PublishResult(Model):
    gene_id: str
    version: int
    asset_id: str
    created: bool
    # Older Genebank fields sent (`avoid`, `parent`, `generation_meta`), converted before hashing.
    converted: list[str] = []


class ValidationFinding(Model):
    source: str
    path: str
    message: str


class ValidationReport(Model):
    valid: bool
    asset_id: str
    errors: list[ValidationFinding]
    warnings: list[ValidationFinding]


class OwnerChange(Model):
    gene_id: str
    owner: KeyRef
    previous_owner: KeyRef


# --- trajectories and evolution --------------------------------------------------------------------------


class TrajectoryAccepted(Model):
    id: str
    state: TrajectoryState
    created: bool


class BatchResult(Model):
    """What became of each item of a batch, in order: `results[i]["status"]` < 300 is stored (with
    the single endpoint's fields), otherwise the item's problem document."""

    accepted: int
    rejected: int
    results: list[dict[str, Any]]

    @property
    def problems(self) -> list[dict[str, Any]]:
        return [result for result in self.results if result["status"] >= 400]


class Producer(Model):
    model: str
    agent: str | None = None


class Trajectory(Model):
    id: str
    state: TrajectoryState
    reason: str | None
    gene_id: str | None
    asset_id: str | None
    closest_gene_id: str | None
    closest_similarity: float | None
    task: TaskRef
    producer: Producer
    verifier_passed: bool
    redactions: int
    received_at: datetime
    processed_at: datetime | None


class TrajectoryCounts(Model):
    pending: int = 0
    merged: int = 0
    rejected: int = 0


class TrajectoryPage(Model):
    items: list[Trajectory]
    counts: TrajectoryCounts
    next_cursor: str | None


class Event(Model):
    id: int
    kind: str
    trajectory_ids: list[str]
    guards_added: list[dict[str, Any]]
    guards_merged: list[dict[str, Any]]
    guards_dropped: list[dict[str, Any]]
    old_asset_id: str | None
    new_asset_id: str
    old_version: int | None
    new_version: int
    actor: str
    details: dict[str, Any] | None
    created_at: datetime


class EventPage(Model):
    gene_id: str
    items: list[Event]
    next_cursor: str | None


class Backer(Model):
    key_id: str
    name: str
    owner: bool


class Guard(Model):
    id: int | None
    text: str
    origin: str
    since_version: int | None
    state: str
    evidence: int
    kept: bool
    trajectories: int
    backers: list[Backer]
    hold_reason: str | None
    reviewed_by: str | None
    reviewed_at: datetime | None
    review_note: str | None
    first_seen_at: datetime
    last_seen_at: datetime
    dropped_at: datetime | None


class GuardList(Model):
    gene_id: str
    quorum: int
    items: list[Guard]


# --- outcomes, quality, lifecycle ------------------------------------------------------------------------


class Quality(Model):
    consumer_model: str | None
    reports: int
    reporters: int
    weighted_successes: float
    weighted_failures: float
    mean: float
    lower_bound: float
    upper_bound: float
    demoted: bool


class OutcomeResult(Model):
    id: int
    gene_id: str
    consumer_model: str
    counted: bool
    status: str
    quality: Quality | None


class VersionQuality(Model):
    version: int
    asset_id: str
    reports: int
    mean: float
    lower_bound: float


class Usage(Model):
    reports: int
    reporters: int
    irrelevant: int
    consumer_models: int
    tasks: int
    reports_with_baseline: int
    tokens_saved: int


class DiscoveryCost(Model):
    tokens: int
    attempts: int
    seconds: float
    runs: int


class StatusChange(Model):
    from_status: str
    to_status: str
    reason: str
    actor: str
    at: datetime


class Stats(Model):
    gene_id: str
    status: str
    status_message: str | None
    prior_mean: float
    quality: Quality
    by_consumer_model: list[Quality]
    by_version: list[VersionQuality]
    usage: Usage
    discovery_cost: DiscoveryCost
    status_history: list[StatusChange]


class ProducerReputation(Model):
    producer_model: str
    genes: int
    reports: int
    mean: float
    lower_bound: float


class LifecycleChange(Model):
    gene_id: str
    from_status: str
    status: str
    reason: str
    actor: str
