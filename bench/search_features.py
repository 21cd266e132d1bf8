"""Shared by bench/search_fit.py and bench/search_quality.py: the labelled set's candidates and features.

Publishes bench/data/corpus.jsonl into a scratch database (every Gene with its task key, as a publish
makes it), then runs every labelled and unrelated query through the service's own ranking
(SearchService._rank) and keeps, per query, each candidate's features (app/search/fusion.py) and
whether it is a relevant Gene. Also computes the two obvious baselines over the whole corpus: exact
dense cosine (MiniLM) and BM25 over the Gene text.
"""

from __future__ import annotations

import asyncio
import json
import math
import pickle
import random
import re
import time
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
import psycopg
from harness import conninfo

from app.config import Settings
from app.db import configure_read_connection, create_engine, create_sessionmaker
from app.embeddings import EmbeddingService
from app.embeddings.base import Embedder
from app.errors import ValidationFailed
from app.genes.schemas import PublishRequest
from app.genes.service import gene_service
from app.gep.document import guards_of
from app.search.fusion import ANSWER_FEATURES, MODEL_FEATURES, QUALITY_WEIGHT, FusionModel
from app.search.schemas import SearchRequest
from app.search.service import query_text, search_service
from app.search.term_stats import refresh_term_stats

DATA = Path(__file__).resolve().parent / "data"


def load(name: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (DATA / name).read_text().splitlines() if line.strip()]


@dataclass
class Candidate:
    gene_id: str
    features: dict[str, float]
    relevant: bool
    score: float  # the committed model's (the service's) score


@dataclass
class Asked:
    id: str
    split: str
    negative: bool
    hard: list[str]
    family: str
    relevant: set[str]
    candidates: list[Candidate] = field(default_factory=list)
    dense: list[str] = field(default_factory=list)  # whole-corpus cosine ranking (top 100)
    bm25: list[str] = field(default_factory=list)  # whole-corpus BM25 ranking (top 100)


def _halves(a: str, b: str, rng: random.Random) -> str:
    """The first part of `a`'s words and the rest of `b`'s, cut near the middle of each."""
    wa, wb = a.split(), b.split()
    cut_a = max(1, len(wa) // 2 + rng.randint(-2, 2))
    cut_b = max(1, len(wb) // 2 + rng.randint(-2, 2))
    return " ".join(wa[:cut_a] + wb[cut_b:])[:300]


def distractors(count: int, seed: int = 13) -> list[dict[str, Any]]:
    """`count` generated publish payloads, none a copy of a labelled Gene: near-duplicate recombinations.

    Each takes a labelled Gene A (every Gene in turn) and a Gene B of the same task family but another
    base problem, and splices them field by field: the summary and the task description are the first
    half of A's words and the second half of B's; the strategy one or two of A's steps then one or two of
    B's; the signals one of A's and one of B's; the preconditions A's, the guards B's. So a distractor
    shares vocabulary, signals and steps with two labelled Genes and states neither's problem whole:
    every labelled Gene is half of about 2 x count / 1,064 distractors.
    """
    corpus = load("corpus.jsonl")
    # corpus.jsonl holds each base problem's four variants on consecutive lines (build_corpus.py).
    base = {p["gene"]["id"]: line // 4 for line, p in enumerate(corpus)}
    by_family: dict[str, list[dict[str, Any]]] = {}
    for payload in corpus:
        by_family.setdefault(payload["provenance"]["task"]["family"], []).append(payload)
    rng = random.Random(seed)
    out = []
    for index in range(count):
        a = corpus[index % len(corpus)]
        family = a["provenance"]["task"]["family"]
        b = rng.choice([p for p in by_family[family] if base[p["gene"]["id"]] != base[a["gene"]["id"]]])
        ga, gb = a["gene"], b["gene"]
        steps = rng.sample(ga["strategy"], rng.randint(1, 2)) + rng.sample(gb["strategy"], rng.randint(1, 2))
        gene = {
            **ga,
            "id": f"distractor_{index:05d}",
            "summary": _halves(ga["summary"], gb["summary"], rng),
            "signals_match": list(
                dict.fromkeys([rng.choice(ga["signals_match"]), rng.choice(gb["signals_match"])])
            ),
            "strategy": steps,
            "avoid": gb.get("avoid") or ga.get("avoid"),
        }
        gene.pop("asset_id", None)
        task = {
            **a["provenance"]["task"],
            "id": f"{family}-d{index}",
            "description": _halves(
                a["provenance"]["task"]["description"], b["provenance"]["task"]["description"], rng
            ),
        }
        out.append({"gene": gene, "provenance": {**a["provenance"], "task": task}})
    return out


async def publish(
    url: str, settings: Settings, embeddings: EmbeddingService, extra: list[dict[str, Any]] | None = None
) -> None:
    """The labelled corpus one publish at a time, then `extra` (distractors) eight publishes at once,
    each through GeneService.publish as POST /v1/genes runs it (its embedding and task key included)."""
    engine = create_engine(url, settings)
    sessionmaker = create_sessionmaker(engine)
    refused: list[str] = []

    async def one(payload: dict[str, Any]) -> None:
        try:
            async with sessionmaker.begin() as session:
                await gene_service.publish(session, PublishRequest.model_validate(payload), embeddings)
        except ValidationFailed as exc:  # e.g. the secret scanner's false positives
            refused.append(f"{payload['gene']['id']}: {exc.detail[:80]}")

    try:
        for payload in load("corpus.jsonl"):
            await one(payload)
        if extra:
            start = time.perf_counter()
            gate = asyncio.Semaphore(8)

            async def gated(payload: dict[str, Any]) -> None:
                async with gate:
                    await one(payload)

            await asyncio.gather(*(gated(p) for p in extra))
            print(
                f"published {len(extra)} generated Genes in {time.perf_counter() - start:.0f} s", flush=True
            )
        if refused:
            print(f"{len(refused)} Genes refused by publish:", *refused[:20], sep="\n  ")
    finally:
        await engine.dispose()
    async with await psycopg.AsyncConnection.connect(conninfo(url), autocommit=True) as conn:
        await refresh_term_stats(conn)


_TOKEN = re.compile(r"[a-z0-9]+")


class BM25:
    """Okapi BM25 (k1 1.2, b 0.75) over summary, signals, strategy, preconditions and guards."""

    def __init__(self, documents: dict[str, str]) -> None:
        self.ids = list(documents)
        self.docs = [Counter(_TOKEN.findall(documents[i].lower())) for i in self.ids]
        self.lengths = [sum(d.values()) for d in self.docs]
        self.average = sum(self.lengths) / len(self.lengths)
        frequency: Counter[str] = Counter()
        for doc in self.docs:
            frequency.update(doc.keys())
        n = len(self.docs)
        self.idf = {t: math.log(1 + (n - df + 0.5) / (df + 0.5)) for t, df in frequency.items()}

    def rank(self, text: str, top: int = 100) -> list[str]:
        terms = [t for t in set(_TOKEN.findall(text.lower())) if t in self.idf]
        scores = []
        for doc_id, doc, length in zip(self.ids, self.docs, self.lengths, strict=True):
            total = 0.0
            for t in terms:
                tf = doc.get(t, 0)
                if tf:
                    total += self.idf[t] * tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * length / self.average))
            if total > 0:
                scores.append((total, doc_id))
        scores.sort(key=lambda pair: (-pair[0], pair[1]))
        return [doc_id for _, doc_id in scores[:top]]


def gene_text(gene: dict[str, Any]) -> str:
    parts = [gene.get("summary") or "", " ".join(gene.get("signals_match") or [])]
    for key in ("strategy", "preconditions"):
        parts.append(" ".join(gene.get(key) or []))
    parts.append(" ".join(guards_of(gene)))  # anti_patterns guard entries, or the corpus's `avoid`
    return "\n".join(parts)


async def collect(
    url: str, settings: Settings, embeddings: EmbeddingService, extra: list[dict[str, Any]] | None = None
) -> list[Asked]:
    """Every labelled and unrelated query, with its candidates, features and the baselines' rankings."""
    corpus = load("corpus.jsonl") + (extra or [])
    asked: list[Asked] = []
    async with await psycopg.AsyncConnection.connect(conninfo(url), autocommit=True) as conn:
        await configure_read_connection(conn, ef_search=settings.search_ef_search)
        rows = await (
            await conn.execute(
                "SELECT gene_id, embedding::text FROM gene_versions WHERE valid_to IS NULL ORDER BY gene_id"
            )
        ).fetchall()
        gene_ids = [str(r[0]) for r in rows]
        published = set(gene_ids)
        bm25 = BM25({p["gene"]["id"]: gene_text(p["gene"]) for p in corpus if p["gene"]["id"] in published})
        matrix = np.array([json.loads(r[1]) for r in rows], dtype=np.float32)
        for negative, items in ((False, load("queries.jsonl")), (True, load("negatives.jsonl"))):
            for item in items:
                if not set(item.get("relevant") or []) <= published:
                    print(f"  {item['id']} left out: a Gene it is labelled with was refused")
                    continue
                signals = item.get("signals") or []
                request = SearchRequest(query=item["query"], signals=signals, k=10)
                scored = await search_service._rank(
                    conn,
                    request,
                    query=request.query,
                    signals=request.signals,
                    consumer_model=None,
                    want=10,
                    embeddings=embeddings,
                    settings=settings,
                )
                relevant = set(item.get("relevant") or [])
                text = query_text(request.query, request.signals)
                vector = np.asarray(await embeddings.embed_query(text), dtype=np.float32)
                order = np.argsort(-(matrix @ vector), kind="stable")[:100]
                asked.append(
                    Asked(
                        id=item["id"],
                        split=item["split"],
                        negative=negative,
                        hard=list(item.get("hard") or []),
                        family=item.get("family", ""),
                        relevant=relevant,
                        candidates=[
                            Candidate(s.row["gene_id"], s.features, s.row["gene_id"] in relevant, s.score)
                            for s in scored
                        ],
                        dense=[gene_ids[i] for i in order],
                        bm25=bm25.rank(text),
                    )
                )
    return asked


def collect_all(
    settings: Settings, embeddings: EmbeddingService, url: str, extra: list[dict[str, Any]] | None = None
) -> list[Asked]:
    asyncio.run(publish(url, settings, embeddings, extra))
    return asyncio.run(collect(url, settings, embeddings, extra))


CROWDS = ("spliced", "coherent")


def crowd(count: int, kind: str = "spliced") -> list[dict[str, Any]]:
    """`count` generated Genes to crowd the labelled corpus with: `spliced`, halves of labelled Genes
    (`distractors`), or `coherent`, whole Genes on problems the corpus does not hold (data/crowd)."""
    if kind == "spliced":
        return distractors(count)
    if kind == "coherent":
        import sys

        sys.path.insert(0, str(DATA))
        from crowd import generate  # bench/data/crowd

        return generate(count)
    raise ValueError(f"unknown crowd {kind!r}: one of {', '.join(CROWDS)}")


def crowd_cache(cache: Path | None, count: int, kind: str = "spliced") -> Path | None:
    """Where a crowded collection is cached beside the plain one: <cache>.d<N> (spliced), .c<N> (coherent)."""
    return cache.with_name(f"{cache.name}.{'d' if kind == 'spliced' else 'c'}{count}") if cache else None


def is_generated(gene_id: str) -> bool:
    return gene_id.startswith(("distractor_", "crowd_"))


def collected(
    cache: Path | None, distractors_count: int = 0, embedder: Embedder | None = None, kind: str = "spliced"
) -> list[Asked]:
    """Collect in a scratch database, or reuse a pickle of a previous collection (features do not depend
    on the weights, so one collection serves fitting and evaluation). With `distractors_count`, that many
    generated Genes (`crowd` of that `kind`) are published beside the labelled corpus. `embedder`
    replaces the configured one (bench/finetune.py: a fine-tuned model embeds the corpus, task keys and
    queries)."""
    if cache is not None and cache.exists():
        with cache.open("rb") as handle:
            loaded: list[Asked] = pickle.load(handle)
        current = {item["id"] for name in ("queries.jsonl", "negatives.jsonl") for item in load(name)}
        return [a for a in loaded if a.id in current]  # queries removed from the data since
    from harness import scratch_database

    from app.embeddings import load_embedder

    with scratch_database() as url:
        settings = Settings(database_url=url)
        embeddings = EmbeddingService(embedder or load_embedder(settings))
        try:
            extra = crowd(distractors_count, kind) if distractors_count else None
            asked = collect_all(settings, embeddings, url, extra)
        finally:
            embeddings.close()
    if cache is not None:
        with cache.open("wb") as handle:
            pickle.dump(asked, handle)
    return asked


# --- fitting ---------------------------------------------------------------------------------------------


def _logistic(x: np.ndarray, y: np.ndarray, l2: float) -> tuple[np.ndarray, float]:
    """L2-regularised logistic regression on standardised columns; weights returned on the raw scale."""
    from scipy.optimize import minimize

    mean, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale == 0] = 1.0
    z = (x - mean) / scale

    def loss(theta: np.ndarray) -> tuple[float, np.ndarray]:
        w, b = theta[:-1], theta[-1]
        p = 1 / (1 + np.exp(-(z @ w + b)))
        eps = 1e-12
        value = -np.sum(y * np.log(p + eps) + (1 - y) * np.log(1 - p + eps)) + 0.5 * l2 * np.sum(w * w)
        residual = p - y
        return float(value), np.concatenate([z.T @ residual + l2 * w, [residual.sum()]])

    theta = minimize(loss, np.zeros(x.shape[1] + 1), jac=True, method="L-BFGS-B").x
    weights = theta[:-1] / scale
    return weights, float(theta[-1] - np.sum(theta[:-1] * mean / scale))


def fit_candidates(asked: list[Asked], features: tuple[str, ...], l2: float) -> FusionModel:
    """First layer on every candidate, then the second (scale, lead, offset) on the first's logits.

    A feature that does not vary on the training data (quality: no outcome reports) cannot be fitted:
    quality keeps its hand-set weight, any other such feature gets 0.
    """
    learnable = tuple(
        f for f in features if np.std([c.features[f] for a in asked for c in a.candidates]) > 1e-9
    )
    x = np.array([[c.features[f] for f in learnable] for a in asked for c in a.candidates])
    y = np.array([1.0 if c.relevant else 0.0 for a in asked for c in a.candidates])
    w, b = _logistic(x, y, l2)
    weights = {f: round(float(v), 6) for f, v in zip(learnable, w, strict=True)}
    for f in features:
        if f not in weights:
            weights[f] = QUALITY_WEIGHT if f == "quality" else 0.0
    first = FusionModel(weights=weights, bias=round(b, 6), found=0.5, low=0.1)
    second_x, second_y = [], []
    for a in asked:
        bases = [first.base(c.features) for c in a.candidates]
        for c, base, lead in zip(a.candidates, bases, first.leads(bases), strict=True):
            second_x.append([base, lead])
            second_y.append(1.0 if c.relevant else 0.0)
    (scale, lead), offset = _logistic(np.array(second_x), np.array(second_y), l2=1e-3)
    return replace(first, scale=round(float(scale), 6), lead=round(float(lead), 6), offset=round(offset, 6))


def fit(asked: list[Asked], features: tuple[str, ...] = MODEL_FEATURES, l2: float = 1.0) -> FusionModel:
    """P(this | answerable) on the labelled queries, then P(answerable) on labelled and unrelated ones."""
    model = fit_candidates([a for a in asked if not a.negative], features, l2)
    rows = [a for a in asked if a.candidates]
    x = np.array([[max(c.features[f] for c in a.candidates) for f in ANSWER_FEATURES] for a in rows])
    y = np.array([0.0 if a.negative else 1.0 for a in rows])
    w, b = _logistic(x, y, l2)
    return replace(
        model,
        answer_weights={f: round(float(v), 6) for f, v in zip(ANSWER_FEATURES, w, strict=True)},
        answer_bias=round(b, 6),
    )


def probabilities(a: Asked, model: FusionModel) -> list[float]:
    return model.probabilities([c.features for c in a.candidates])


def top_scores(asked: list[Asked], model: FusionModel) -> list[tuple[float, bool]]:
    """Per query: the best candidate's probability and whether that candidate is relevant."""
    out = []
    for a in asked:
        if not a.candidates:
            out.append((0.0, False))
            continue
        p, best = max(zip(probabilities(a, model), a.candidates, strict=True), key=lambda pair: pair[0])
        out.append((p, best.relevant))
    return out


def right_gene_absent(asked: list[Asked]) -> list[Asked]:
    """Each labelled query again, as if the registry held no right Gene: its candidates without every
    variant of the base problems it is labelled with (corpus.jsonl holds a base problem's four variants on
    consecutive lines), so what remains are other problems' Genes of the same setting. These are the
    queries on which a search calls a wrong Gene `found`; unrelated queries do not show it, their
    candidates are plainly off."""
    base = {p["gene"]["id"]: line // 4 for line, p in enumerate(load("corpus.jsonl"))}
    out = []
    for a in asked:
        if a.negative:
            continue
        gone = {base[g] for g in a.relevant if g in base}

        def kept(gene_id: str, gone: set[int] = gone) -> bool:
            return base.get(gene_id) not in gone

        out.append(
            replace(
                a,
                id=f"{a.id}-absent",
                negative=True,
                relevant=set(),
                candidates=[c for c in a.candidates if kept(c.gene_id)],
                dense=[g for g in a.dense if kept(g)],
                bm25=[g for g in a.bm25 if kept(g)],
            )
        )
    return out


def choose_thresholds(train: list[Asked], model: FusionModel) -> FusionModel:
    """`low`: the highest floor that leaves at most 3 % of answerable training queries with no result;
    `found`: the lowest threshold above it at which no unrelated training query is found and the top
    result is right at least 90 % of the time, counted over the answerable training queries and the same
    queries with their right Gene absent (`right_gene_absent`): `found` must hold when the registry does
    not have the answer too."""
    answerable = top_scores([a for a in train if not a.negative], model)
    absent = top_scores(right_gene_absent(train), model)
    unrelated = top_scores([a for a in train if a.negative], model)
    grid = [i / 1000 for i in range(1, 1000)]
    low = max(t for t in grid if sum(p < t for p, _ in answerable) <= 0.03 * len(answerable))
    worst_unrelated = max((p for p, _ in unrelated), default=0.0)
    found = 0.99
    for t in grid:
        if t < low or t <= worst_unrelated:
            continue
        chosen = [right for p, right in answerable + absent if p >= t]
        if chosen and sum(chosen) / len(chosen) >= 0.9:
            found = t
            break
    return replace(model, found=round(found, 3), low=round(low, 3))


def reliability(
    asked: list[Asked], model: FusionModel, bins: int = 10
) -> tuple[list[tuple[str, int, float, float]], float]:
    """(bin, count, mean predicted, observed) over every candidate, and the expected calibration error."""
    pairs = [
        (p, c.relevant) for a in asked for p, c in zip(probabilities(a, model), a.candidates, strict=True)
    ]
    return _bins(pairs, bins)


def _bins(pairs: list[tuple[float, bool]], bins: int) -> tuple[list[tuple[str, int, float, float]], float]:
    table, ece = [], 0.0
    for b in range(bins):
        lo, hi = b / bins, (b + 1) / bins
        inside = [(p, r) for p, r in pairs if lo <= p < hi or (b == bins - 1 and p == 1.0)]
        if not inside:
            continue
        mean_p = sum(p for p, _ in inside) / len(inside)
        observed = sum(r for _, r in inside) / len(inside)
        ece += len(inside) / len(pairs) * abs(mean_p - observed)
        table.append((f"{lo:.1f}-{hi:.1f}", len(inside), mean_p, observed))
    return table, ece


def top1_reliability(
    asked: list[Asked], model: FusionModel, bins: int = 10
) -> tuple[list[tuple[str, int, float, float]], float]:
    """The same over each query's first result only: the one an agent acts on."""
    return _bins(top_scores(asked, model), bins)
