"""Hybrid search: three retrieval stages, then one learned model scores every candidate.

Stages (app/search/repository.py): vector (HNSW cosine), keyword (full text over the query's rare terms)
and signals (Genes sharing a rare signal word). Every candidate of any stage is then described by a few
features (app/search/fusion.py: similarity, the best similarity to the Gene's task keys, keyword scores
and the summary/signals field match, ranks, signal evidence, quality) and a logistic model fitted on the
training split of bench/data (bench/search_fit.py) turns them into `score`: the estimated probability
that this Gene is the right one for the query. It is calibrated, so comparable across queries: a score
of 0.8 means right about four times in five, whatever the query.

Signal evidence is the specificity of the strongest signal hit: the shape of the text it matched (an
identifier or an error message counts fully, one plain word such as `timeout` little) times its IDF over
the Genes' signal words, so a broad word cannot lift an unrelated query.

A result is `found` when its score reaches the model's `found` threshold, `low_confidence` when it
reaches `low`; results under `low` are not returned unless `include_weak` asks for them (then as
`weak`). The thresholds were chosen on the training split (bench/search_fit.py) and can be overridden
(GENEBANK_SEARCH_FOUND_SCORE, GENEBANK_SEARCH_LOW_SCORE). The response's band is its best result's;
with nothing at `low` or above it is `no_match`. A Gene shown to hurt the consumer's model (negative
transfer) ranks after every other result and is never matched.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any

import psycopg

from app.config import Settings
from app.embeddings import EmbeddingService
from app.errors import ValidationFailed
from app.gep.prompt import BudgetTooSmall, render
from app.gep.signals import Hit, hit_shape, pattern_hits
from app.outcomes.quality import Evidence, posterior
from app.schemas import CursorCodec, CursorModel, InvalidCursor
from app.search.fusion import FusionModel, fitted_model
from app.search.repository import EXACT_SCAN_LIMIT, Filters, Lexical, SearchRepository
from app.search.schemas import (
    Band,
    Confidence,
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
class Scored:
    row: dict[str, Any]
    score: float
    similarity: float
    confidence: Confidence
    signal_hits: list[str]
    features: dict[str, float]
    lead: float
    answerable: float
    quality: float
    # What only an explanation shows, derived when one is asked for: the keyword and signal stages'
    # ranks, and the time the search was ranked at (freshness).
    keyword_rank: int | None
    signal_rank: int | None
    ranked_at: datetime
    half_life_days: float

    @property
    def stages(self) -> dict[str, int]:
        ranks = {"vector": self.row["vector_rank"], "keyword": self.keyword_rank, "signals": self.signal_rank}
        return {stage: int(rank) for stage, rank in ranks.items() if rank is not None}

    @property
    def freshness(self) -> float:
        age_days = max(0.0, (self.ranked_at - self.row["valid_from"]).total_seconds() / 86400)
        return math.exp(-math.log(2) * age_days / self.half_life_days)

    def explanation(self, model: FusionModel) -> Explanation:
        return Explanation(
            stages={name: StageRank(rank=rank) for name, rank in self.stages.items()},
            features=self.features,
            contributions=model.contributions(self.features, self.lead),
            answerable=self.answerable,
            quality=self.quality,
            freshness=self.freshness,
        )


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


def candidate_features(
    rows: list[dict[str, Any]],
    found: Lexical,
    evidence: dict[int, float],
    quality: Callable[[dict[str, Any]], float],
) -> dict[int, dict[str, float]]:
    """The fusion model's features of every candidate (app/search/fusion.py), by version id."""
    if not rows:
        return {}
    similarity = {int(r["id"]): float(r["similarity"]) for r in rows}
    task = {
        int(r["id"]): similarity[int(r["id"])]
        if r["task_similarity"] is None
        else float(r["task_similarity"])
        for r in rows
    }
    best_similarity, best_task = max(similarity.values()), max(task.values())
    out = {}
    for row in rows:
        version_id = int(row["id"])
        keyword_rank = found.keyword.get(version_id)
        out[version_id] = {
            "similarity": similarity[version_id],
            "similarity_gap": similarity[version_id] - best_similarity,
            "task_similarity": task[version_id],
            "task_gap": task[version_id] - best_task,
            "keyword": found.keyword_score.get(version_id, 0.0),
            "keyword_headline": found.keyword_headline.get(version_id, 0.0),
            "keyword_rr": 1.0 / keyword_rank if keyword_rank else 0.0,
            "vector_rr": 1.0 / int(row["vector_rank"]) if row["vector_rank"] else 0.0,
            "signal_evidence": evidence.get(version_id, 0.0),
            "quality": quality(row),
        }
    return out


def _pattern_hits(rows: list[dict[str, Any]], signals: list[str]) -> dict[int, list[Hit]]:
    """Each candidate's signal hits (app/gep/signals.py), by version id.

    Without consumer signals no pattern can hit (half the queries ask with none). Each distinct
    pattern is matched once: candidates share patterns (a Gene's versions, Genes of one family).
    """
    if not signals:
        return {int(row["id"]): [] for row in rows}
    matched: dict[str, list[Hit]] = {}
    out = {}
    for row in rows:
        hits = []
        for source in row["signals_match"] or []:
            found = matched.get(source)
            if found is None:
                found = matched[source] = pattern_hits([source], signals)
            hits.extend(found)
        out[int(row["id"])] = hits
    return out


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
        model = self.model(settings)
        band = self._band(scored)
        if not request.include_weak:
            scored = [item for item in scored if item.confidence != "weak"]
        page = scored[offset : offset + request.k]
        more = len(scored) > offset + request.k and offset + request.k < MAX_OFFSET
        return SearchResponse(
            band=band,
            results=[self._result(item, model if request.explain else None) for item in page],
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
        chosen = [item for item in scored if not item.row["demoted"] and item.confidence != "weak"][
            : request.k
        ]
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

        async def lexical() -> tuple[Lexical, bool]:
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
            found, exact = await lexical_task
        rows = await repo.candidates(
            query_vector=vector,
            extra_ids=sorted(set(found.keyword) | set(found.signals)),
            filters=filters,
            per_stage=per_stage,
            exact=exact,
            consumer_model=consumer_model,
        )
        all_hits = _pattern_hits(rows, signals)
        evidence = await self._signal_evidence(repo, all_hits)
        hits = {version_id: [hit.pattern for hit in found] for version_id, found in all_hits.items()}
        signal_order = sorted(
            (row for row in rows if hits[int(row["id"])]),
            key=lambda row: (-evidence[int(row["id"])], -float(row["similarity"]), row["gene_id"]),
        )
        signal_rank = {int(row["id"]): rank for rank, row in enumerate(signal_order, start=1)}
        baseline = self._unreported_quality(settings)
        features = candidate_features(
            rows, found, evidence, lambda row: self._quality(row, settings) - baseline
        )
        model = self.model(settings)
        ids = [int(row["id"]) for row in rows]
        # A Gene demoted for this consumer model is no option for it, so it does not compete with the
        # others for the lead; it is scored against all candidates.
        usable = [int(row["id"]) for row in rows if not row["demoted"]]
        answerable = model.answerable([features[i] for i in ids])
        base_of = {version_id: model.base(features[version_id]) for version_id in ids}
        leads: dict[int, float] = {}
        probabilities: dict[int, float] = {}
        # With no Gene demoted the second group is the first: the same leads and probabilities.
        for group in (ids, usable) if len(usable) < len(ids) else (ids,):
            bases = [base_of[version_id] for version_id in group]
            for version_id, base, lead in zip(group, bases, model.leads(bases), strict=True):
                leads[version_id] = lead
                probabilities[version_id] = answerable * model.given_answerable(base, lead)
        now = datetime.now(UTC)
        half_life = settings.search_freshness_half_life_days
        min_quality = request.min_quality
        scored = []
        for row in rows:
            version_id = int(row["id"])
            described = features[version_id]
            quality = described["quality"] + baseline
            if min_quality is not None and quality < min_quality:
                continue
            score = probabilities[version_id]
            scored.append(
                Scored(
                    row=row,
                    score=score,
                    similarity=float(row["similarity"]),
                    confidence=self._confidence(score, model),
                    signal_hits=hits[version_id],
                    features=described,
                    lead=leads[version_id],
                    answerable=answerable,
                    quality=quality,
                    keyword_rank=found.keyword.get(version_id),
                    signal_rank=signal_rank.get(version_id),
                    ranked_at=now,
                    half_life_days=half_life,
                )
            )
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
    def _unreported_quality(settings: Settings) -> float:
        """The quality of a Gene nobody reported on, whose producer is unknown: the quality feature's zero."""
        return _prior_quality(0.5, settings.quality_prior_strength, settings.quality_lower_quantile)

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
    def model(settings: Settings) -> FusionModel:
        fitted = fitted_model(settings.embedding_model_dir)
        found = fitted.found if settings.search_found_score is None else settings.search_found_score
        low = fitted.low if settings.search_low_score is None else settings.search_low_score
        if (found, low) == (fitted.found, fitted.low):
            return fitted
        return replace(fitted, found=found, low=low)

    @staticmethod
    def _confidence(score: float, model: FusionModel) -> Confidence:
        if score >= model.found:
            return "found"
        return "low_confidence" if score >= model.low else "weak"

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
        confidences = {item.confidence for item in scored}
        if "found" in confidences:
            return "found"
        return "low_confidence" if "low_confidence" in confidences else "no_match"

    @staticmethod
    def _result(item: Scored, model: FusionModel | None) -> SearchResult:
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
            explain=item.explanation(model) if model is not None else None,
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
