"""Hybrid search: three retrieval stages fused by reciprocal rank, then re-ranked by priors.

score = 0.80·relevance + 0.15·quality + 0.02·provenance + 0.03·freshness, where
- relevance is the weighted reciprocal-rank fusion, Σ w_stage / (10 + rank), of the vector
  (w 1.0), keyword (w 0.3) and signal (w 0.5) stages, divided by its maximum for the stages in
  play, so it lies in 0..1;
- quality is the lower quantile of the Gene's success posterior (app/outcomes/quality.py): for the
  consumer's model when it has reported on this Gene, for all models otherwise, and before any
  report the prior from the producer's reputation;
- provenance is 1 for verified trajectories, 0.5 for manual Genes, 0 for reference solutions;
- freshness is exp(-ln 2 · age / half-life) of the current version.
Relevance dominates by design: priors order Genes that are about equally relevant, and proven
quality (a lower bound of 0.8 against an unreported Gene's 0.2) can lift a Gene over a neighbour one
rank ahead of it in every stage, not over one that is clearly more relevant. The constants
were chosen on bench/data (bench/search_quality.py), where the vector stage is the strongest single
stage. A Gene shown to hurt the consumer's model (negative transfer) ranks after every other result
and is never matched.

A Gene is `found` when its cosine similarity to the query reaches `search_found_similarity`, or
when one of its signal patterns hits and the similarity reaches `search_low_similarity`; it is
`low_confidence` otherwise. The band is the best confidence among the results; when no result
reaches `search_low_similarity` the band is `no_match` and no result is returned.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import math
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any, Literal

import psycopg

from app.config import Settings
from app.embeddings import EmbeddingService
from app.errors import ValidationFailed
from app.gep.prompt import BudgetTooSmall, render
from app.gep.signals import Hit, hit_shape, pattern_hits
from app.outcomes.quality import Evidence, posterior
from app.schemas import CursorCodec, CursorModel, InvalidCursor
from app.search.repository import EXACT_SCAN_LIMIT, Filters, SearchRepository
from app.search.schemas import (
    Band,
    Explanation,
    MatchedGene,
    MatchRequest,
    MatchResponse,
    SearchFilters,
    SearchRequest,
    SearchResponse,
    SearchResult,
    StageRank,
)

RRF_K = 10
STAGE_WEIGHTS = {"vector": 1.0, "keyword": 0.3, "signals": 0.5}
WEIGHTS = {"relevance": 0.80, "quality": 0.15, "provenance": 0.02, "freshness": 0.03}
PROVENANCE_VALUE = {"verified_trajectory": 1.0, "manual": 0.5, "reference": 0.0}
DEFAULT_STATUSES = ["candidate", "promoted"]
# Always valid as a filter, even before any Gene of the family is published.
RESEARCH_TASK_FAMILIES = ("agent_environment", "code_generation", "math_reasoning", "rule_following")
MAX_OFFSET = 200


# A signal hit this specific (hit_shape × signal_idf) vouches for a Gene the text only half matches: an
# identifier or message the Genes seldom carry; one word, even a rare one in capitals, never does.
SPECIFIC_SIGNAL = 0.6


def signal_idf(size: int, frequency: int | None) -> float:
    """ln((N + 1) / (df + 0.5)) / ln(N + 1), in 0..1: near 1 for a word one Gene has, less as more do.

    Before the statistics know any Gene (N = 0) every hit counts fully; a matched text with no word
    (punctuation only) counts half.
    """
    if size <= 0:
        return 1.0
    if frequency is None:
        return 0.5
    return min(1.0, max(0.0, math.log((size + 1) / (frequency + 0.5)) / math.log(size + 1)))


class SearchCursor(CursorModel):
    offset: int
    search: str  # the fingerprint of the query and filters the cursor belongs to


SEARCH_CURSOR = CursorCodec(SearchCursor)


@dataclass
class _Parts:
    stages: dict[str, tuple[int, float]]
    relevance: float
    quality: float
    freshness: float
    parts: dict[str, float]

    def model(self) -> Explanation:
        return Explanation(
            stages={
                name: StageRank(rank=rank, contribution=share) for name, (rank, share) in self.stages.items()
            },
            relevance=self.relevance,
            quality=self.quality,
            freshness=self.freshness,
            parts=self.parts,
        )


@dataclass
class Scored:
    row: dict[str, Any]
    score: float
    similarity: float
    confidence: Literal["found", "low_confidence"]
    signal_hits: list[str]
    explanation: _Parts


@lru_cache(maxsize=1024)
def _prior_quality(prior_mean: float, strength: float, level: float) -> float:
    """The quality of a Gene nobody has reported on yet: its producer-based prior's lower quantile."""
    return posterior(Evidence(0.0, 0.0, datetime.now(UTC)), prior_mean, strength).quantile(level)


def query_text(query: str | None, signals: list[str]) -> str:
    parts = [query] if query else []
    if signals:
        parts.append("Signals: " + "; ".join(signals))
    return "\n".join(parts)


def _filters(request: SearchFilters) -> Filters:
    return Filters(
        statuses=list(request.status or DEFAULT_STATUSES),
        category=request.category,
        task_family=request.task_family,
        producer_model=request.producer_model,
        provenance_kind=request.provenance_kind,
    )


class SearchService:
    async def search(
        self,
        conn: psycopg.AsyncConnection[Any],
        request: SearchRequest,
        embeddings: EmbeddingService,
        settings: Settings,
    ) -> SearchResponse:
        fingerprint = self._fingerprint(request)
        offset = self._offset(request.cursor, fingerprint)
        scored = await self._rank(
            conn,
            request,
            query=request.query,
            signals=request.signals,
            consumer_model=request.consumer_model,
            want=offset + request.k,
            embeddings=embeddings,
            settings=settings,
        )
        page = scored[offset : offset + request.k]
        more = len(scored) > offset + request.k and offset + request.k < MAX_OFFSET
        return SearchResponse(
            band=self._band(scored),
            results=[self._result(item, request.explain) for item in page],
            next_cursor=SEARCH_CURSOR.encode(SearchCursor(offset=offset + request.k, search=fingerprint))
            if more
            else None,
            embedding_model=embeddings.name,
        )

    async def match(
        self,
        conn: psycopg.AsyncConnection[Any],
        request: MatchRequest,
        embeddings: EmbeddingService,
        settings: Settings,
    ) -> MatchResponse:
        scored = await self._rank(
            conn,
            request,
            query=request.task,
            signals=request.signals,
            consumer_model=request.consumer_model,
            want=request.k,
            embeddings=embeddings,
            settings=settings,
        )
        # A Gene that made this consumer model do worse than without it is never handed to it.
        chosen = [item for item in scored if not item.row["demoted"]][: request.k]
        documents = await SearchRepository(conn).documents([int(item.row["id"]) for item in chosen])
        genes: list[MatchedGene] = []
        remaining = request.max_tokens
        for item in chosen:
            try:
                rendered = render(
                    json.loads(documents[int(item.row["id"])]),
                    version=item.row["version"],
                    max_tokens=remaining,
                )
            except BudgetTooSmall:
                break
            remaining -= rendered.tokens
            genes.append(
                MatchedGene(
                    gene_id=item.row["gene_id"],
                    asset_id=item.row["asset_id"],
                    version=item.row["version"],
                    score=item.score,
                    similarity=item.similarity,
                    confidence=item.confidence,
                    tokens=rendered.tokens,
                    truncated=rendered.truncated,
                    omitted=rendered.omitted,
                    text=rendered.text,
                )
            )
        return MatchResponse(
            band=self._band(scored),
            genes=genes,
            tokens=request.max_tokens - remaining,
            max_tokens=request.max_tokens,
        )

    async def _rank(
        self,
        conn: psycopg.AsyncConnection[Any],
        request: SearchFilters,
        *,
        query: str | None,
        signals: list[str],
        consumer_model: str | None,
        want: int,
        embeddings: EmbeddingService,
        settings: Settings,
    ) -> list[Scored]:
        filters = _filters(request)
        repo = SearchRepository(conn)
        if filters.task_family is not None:
            await self._check_task_family(repo, filters.task_family)
        text = query_text(query, signals)
        per_stage = max(settings.search_candidates, want + 10)

        async def lexical() -> tuple[dict[str, dict[int, int]], bool]:
            # Runs on the connection while the query is being embedded in the embedder's thread.
            exact = filters.narrowing and (
                await repo.filtered_count(filters, EXACT_SCAN_LIMIT + 1) <= EXACT_SCAN_LIMIT
            )
            found = await repo.lexical(
                keyword_text=text,
                signal_text=" ".join(signals) if signals else None,
                filters=filters,
                per_stage=per_stage,
            )
            return found, exact

        lexical_task = asyncio.create_task(lexical())
        try:
            vector = await embeddings.embed_query(text)
        finally:
            lexical_ranks, exact = await lexical_task
        rows = await repo.candidates(
            query_vector=vector,
            extra_ids=sorted(set(lexical_ranks["keyword"]) | set(lexical_ranks["signals"])),
            filters=filters,
            per_stage=per_stage,
            exact=exact,
            consumer_model=consumer_model,
        )
        stages = (
            ["vector"] + (["keyword"] if lexical_ranks["keyword"] else []) + (["signals"] if signals else [])
        )
        best_possible = sum(STAGE_WEIGHTS[stage] for stage in stages) / (RRF_K + 1)
        all_hits = {int(row["id"]): pattern_hits(row["signals_match"] or [], signals) for row in rows}
        evidence = await self._signal_evidence(repo, all_hits)
        hits = {version_id: [hit.pattern for hit in found] for version_id, found in all_hits.items()}
        signal_order = sorted(
            (row for row in rows if hits[int(row["id"])]),
            key=lambda row: (-evidence[int(row["id"])], -float(row["similarity"]), row["gene_id"]),
        )
        signal_rank = {int(row["id"]): rank for rank, row in enumerate(signal_order, start=1)}
        now = datetime.now(UTC)
        half_life = settings.search_freshness_half_life_days
        scored = []
        for row in rows:
            version_id = int(row["id"])
            similarity = float(row["similarity"])
            row_hits = hits[version_id]
            confidence = self._confidence(similarity, evidence[version_id], settings)
            quality = self._quality(row, settings)
            if request.min_quality is not None and quality < request.min_quality:
                continue
            ranks = {
                "vector": row["vector_rank"],
                "keyword": lexical_ranks["keyword"].get(version_id),
                "signals": signal_rank.get(version_id),
            }
            # Plain (rank, share) pairs: an Explanation model is only built for results that show it.
            stage_ranks = {
                stage: (int(rank), STAGE_WEIGHTS[stage] / (RRF_K + int(rank)))
                for stage, rank in ranks.items()
                if stage in stages and rank is not None
            }
            relevance = sum(share for _, share in stage_ranks.values()) / best_possible
            age_days = max(0.0, (now - row["valid_from"]).total_seconds() / 86400)
            freshness = math.exp(-math.log(2) * age_days / half_life)
            parts = {
                "relevance": WEIGHTS["relevance"] * relevance,
                "quality": WEIGHTS["quality"] * quality,
                "provenance": WEIGHTS["provenance"] * PROVENANCE_VALUE.get(row["provenance_kind"], 0.0),
                "freshness": WEIGHTS["freshness"] * freshness,
            }
            score = sum(parts.values())
            explanation = _Parts(stage_ranks, relevance, quality, freshness, parts)
            scored.append(Scored(row, score, similarity, confidence, row_hits, explanation))
        if not any(item.similarity >= settings.search_low_similarity for item in scored):
            return []  # nothing plausible: say so rather than offer the least bad Gene
        scored.sort(
            key=lambda item: (item.row["demoted"], -item.score, -item.similarity, item.row["gene_id"])
        )
        return scored

    @staticmethod
    async def _check_task_family(repo: SearchRepository, family: str) -> None:
        """A task family no Gene has is far more often a typo than a question: say so, with the valid ones."""
        if family in RESEARCH_TASK_FAMILIES or await repo.task_family_known(family):
            return
        valid = sorted(set(RESEARCH_TASK_FAMILIES) | set(await repo.task_families()))
        message = f"unknown task family {family!r}; valid: {', '.join(valid)}"
        raise ValidationFailed(
            f"task_family: {message}",
            extra={
                "errors": [{"loc": ["body", "task_family"], "msg": message, "type": "unknown_task_family"}],
                "valid": valid,
            },
        )

    @staticmethod
    def _quality(row: dict[str, Any], settings: Settings) -> float:
        if row["quality_model"] is not None:
            return float(row["quality_model"])
        if row["quality_all"] is not None:
            return float(row["quality_all"])
        prior = 0.5
        successes, failures = row["producer_successes"], row["producer_failures"]
        if successes is not None:
            prior = (1 + successes) / (2 + successes + failures)  # the producer's reputation (uniform prior)
        level = settings.quality_lower_quantile
        return _prior_quality(round(prior, 3), settings.quality_prior_strength, level)

    @staticmethod
    def _confidence(
        similarity: float, signal_evidence: float, settings: Settings
    ) -> Literal["found", "low_confidence"]:
        if similarity >= settings.search_found_similarity:
            return "found"
        if signal_evidence >= SPECIFIC_SIGNAL and similarity >= settings.search_low_similarity:
            return "found"
        return "low_confidence"

    @staticmethod
    async def _signal_evidence(repo: SearchRepository, hits: dict[int, list[Hit]]) -> dict[int, float]:
        """Each candidate's strongest signal hit: its shape times its IDF over the Genes' signal words."""
        texts = sorted({hit.matched for found in hits.values() for hit in found})
        if not texts:
            return dict.fromkeys(hits, 0.0)
        size, frequencies = await repo.signal_frequencies(texts)
        return {
            version_id: max(
                (hit_shape(hit.matched) * signal_idf(size, frequencies.get(hit.matched)) for hit in found),
                default=0.0,
            )
            for version_id, found in hits.items()
        }

    @staticmethod
    def _band(scored: list[Scored]) -> Band:
        if not scored:
            return "no_match"
        return "found" if any(item.confidence == "found" for item in scored) else "low_confidence"

    @staticmethod
    def _result(item: Scored, explain: bool) -> SearchResult:
        row = item.row
        return SearchResult(
            gene_id=row["gene_id"],
            asset_id=row["asset_id"],
            version=row["version"],
            score=item.score,
            similarity=item.similarity,
            confidence=item.confidence,
            summary=row["summary"],
            category=row["category"],
            task_family=row["task_family"],
            producer_model=row["producer_model"],
            provenance_kind=row["provenance_kind"],
            status=row["status"],
            signal_hits=item.signal_hits,
            demoted_for_consumer_model=bool(row["demoted"]),
            explain=item.explanation.model() if explain else None,
        )

    @staticmethod
    def _fingerprint(request: SearchRequest) -> str:
        identity = request.model_dump(mode="json", exclude={"cursor", "explain"})
        return hashlib.sha256(json.dumps(identity, sort_keys=True).encode()).hexdigest()[:16]

    @staticmethod
    def _offset(cursor: str | None, fingerprint: str) -> int:
        position = SEARCH_CURSOR.decode(cursor)
        if position is None:
            return 0
        if position.search != fingerprint or not 0 < position.offset <= MAX_OFFSET:
            raise InvalidCursor("cursor does not belong to this search (same query and filters)")
        return position.offset


search_service = SearchService()
