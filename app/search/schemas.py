"""Request and response bodies of search and match."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field, StringConstraints, model_validator

from app.gep.document import NotBlank, Signal
from app.schemas import Name, ProvenanceKindName, StrictModel, TaskFamily

Band = Literal["found", "low_confidence", "no_match"]
# `weak`: under the low_confidence floor, only returned when the request sets include_weak.
Confidence = Literal["found", "low_confidence", "weak"]
QueryText = Annotated[str, StringConstraints(max_length=4000), NotBlank]
GeneStatusName = Literal["candidate", "promoted", "deprecated"]


class SearchFilters(StrictModel):
    category: Literal["repair", "optimize", "innovate", "explore"] | None = None
    task_family: TaskFamily | None = None
    producer_model: Name | None = None
    status: list[GeneStatusName] | None = Field(
        default=None,
        min_length=1,
        description="statuses to include (default: candidate and promoted; revoked Genes are never served)",
    )
    provenance_kind: ProvenanceKindName | None = None
    min_quality: float | None = Field(default=None, ge=0, le=1, allow_inf_nan=False)


class SearchRequest(SearchFilters):
    query: QueryText | None = Field(default=None, description="what the consumer is trying to do")
    signals: list[Signal] = Field(
        default_factory=list, max_length=32, description="error strings, tool names"
    )
    consumer_model: Name | None = Field(
        default=None, description="ranks by quality for this model when known"
    )
    k: int = Field(default=10, ge=1, le=50)
    cursor: Annotated[str, StringConstraints(max_length=512)] | None = None
    explain: bool = False
    include_weak: bool = Field(
        default=False, description="also return results under the low_confidence floor (confidence `weak`)"
    )

    @model_validator(mode="after")
    def _something_to_search(self) -> SearchRequest:
        if self.query is None and not self.signals:
            raise ValueError("give a query, signals, or both")
        return self


class StageRank(BaseModel):
    rank: int


class Explanation(BaseModel):
    """How a score was made: score = answerable / (1 + exp(-logit)); `contributions` add up to the logit."""

    stages: dict[str, StageRank] = Field(description="rank in each retrieval stage that found the Gene")
    features: dict[str, float] = Field(description="the fusion model's inputs (docs/search.md)")
    contributions: dict[str, float] = Field(
        description="weight × feature per feature, the bias, and the recalibration (rescale, lead, offset)"
    )
    answerable: float = Field(
        description="estimated probability that the registry holds a right Gene for this query at all"
    )
    quality: float = Field(
        description="lower quantile of the success posterior (before any report: the producer-based prior)"
    )
    freshness: float = Field(description="exp(-age / half-life) of the current version (not scored)")


class SearchResult(BaseModel):
    gene_id: str
    asset_id: str
    version: int
    score: float = Field(description="calibrated probability that this is the right Gene for the query")
    similarity: float = Field(description="cosine similarity of query and Gene embeddings")
    confidence: Confidence
    summary: str | None
    category: str
    task_family: str | None
    producer_model: str
    provenance_kind: str
    status: str
    signal_hits: list[str] = Field(description="the Gene's signals_match patterns that hit a given signal")
    demoted_for_consumer_model: bool = Field(
        description="reports show this consumer model does worse with the Gene than without it"
    )
    explain: Explanation | None = None


class SearchResponse(BaseModel):
    band: Band
    results: list[SearchResult]
    next_cursor: str | None
    embedding_model: str


class MatchRequest(SearchFilters):
    task: QueryText = Field(description="the task the consumer is about to attempt")
    signals: list[Signal] = Field(default_factory=list, max_length=32)
    consumer_model: Name | None = None
    max_tokens: int = Field(default=600, ge=16, le=100_000, description="budget for all rendered Genes")
    k: int = Field(default=1, ge=1, le=5, description="at most this many Genes")


class MatchedGene(BaseModel):
    gene_id: str
    asset_id: str = Field(description="report outcomes against this asset_id")
    version: int
    score: float
    similarity: float
    confidence: Confidence
    tokens: int
    truncated: bool
    omitted: dict[str, int] = Field(
        description="items left out to stay within the budget, per section (as GET /v1/genes/{id}/prompt)"
    )
    text: str


class MatchResponse(BaseModel):
    band: Band
    genes: list[MatchedGene]
    tokens: int = Field(description="estimated tokens of all rendered Genes together")
    max_tokens: int
