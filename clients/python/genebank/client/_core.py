"""What the synchronous and asynchronous clients share: the calls, retries, the ETag cache, verification.

Each API operation is described once, as a `Call` (method, path, query, body, how to read the answer);
`Client` and `AsyncClient` only differ in how they send it and how they wait between attempts.

Retries: a 429 or 503 is tried again after the `Retry-After` the registry sent (else an exponential
backoff with jitter), at most `max_retries` times and never for longer than `max_retry_wait` at once;
so is a connection that could not be opened or was dropped before an answer. Every write of the API
is idempotent (a trajectory carries an Idempotency-Key, an outcome report is keyed by key, task, asset
and attempt, a published document is content-addressed), so a repeated request never counts twice.
A read that timed out is not retried: the caller's timeout is the caller's budget.
"""

from __future__ import annotations

import os
import random
import uuid
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Generic, TypeVar
from urllib.parse import quote

import httpx
from pydantic import BaseModel

from genebank.client import models
from genebank.client.canonical import compute_asset_id
from genebank.client.errors import (
    AssetMismatch,
    ProblemError,
    TransportError,
    parse_retry_after,
    problem_from_response,
)

T = TypeVar("T")
M = TypeVar("M", bound=BaseModel)

DEFAULT_URL = "http://127.0.0.1:8000"
VERSION = "0.1.0"
RETRY_STATUSES = frozenset({429, 503})
# Failures where the request cannot have been processed, or the connection died before an answer.
RETRY_ERRORS = (httpx.ConnectError, httpx.ConnectTimeout, httpx.RemoteProtocolError)


def resolve_settings(base_url: str | None, key: str | None) -> tuple[str, str | None]:
    """The registry's URL and key: as given, else GENEBANK_URL and GENEBANK_KEY, else the local default."""
    url = base_url or os.environ.get("GENEBANK_URL") or DEFAULT_URL
    return url.rstrip("/"), key if key is not None else (os.environ.get("GENEBANK_KEY") or None)


def default_headers(key: str | None, extra: Mapping[str, str] | None) -> dict[str, str]:
    headers = {
        "User-Agent": f"genebank-client/{VERSION} httpx/{httpx.__version__}",
        "Accept": "application/json",
    }
    if key:
        headers["Authorization"] = f"Bearer {key}"
    headers.update(extra or {})
    return headers


@dataclass(frozen=True)
class RetryPolicy:
    max_retries: int = 3
    max_retry_wait: float = 60.0
    backoff: float = 0.5

    def _backoff(self, attempt: int) -> float:
        return float(self.backoff * 2**attempt * (0.5 + random.random()))

    def after_response(self, response: httpx.Response, attempt: int) -> float | None:
        """Seconds to wait before trying again, or None to give the answer to the caller."""
        if response.status_code not in RETRY_STATUSES or attempt >= self.max_retries:
            return None
        told = parse_retry_after(response.headers.get("retry-after"))
        delay = told if told is not None else self._backoff(attempt)
        return delay if delay <= self.max_retry_wait else None

    def after_error(self, error: httpx.HTTPError, attempt: int) -> float | None:
        if not isinstance(error, RETRY_ERRORS) or attempt >= self.max_retries:
            return None
        return min(self._backoff(attempt), self.max_retry_wait)


def transport_error(error: httpx.HTTPError, request: httpx.Request) -> TransportError:
    return TransportError(f"{request.method} {request.url}: {type(error).__name__}: {error}")


class ETagCache:
    """Answers kept with their ETag (the asset_id), so that asking again costs a 304 and no body."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[str, tuple[str, Any]] = OrderedDict()

    def get(self, key: str) -> tuple[str, Any] | None:
        found = self._items.get(key)
        if found is not None:
            self._items.move_to_end(key)
        return found

    def put(self, key: str, etag: str, value: Any) -> None:
        if self.size <= 0:
            return
        self._items[key] = (etag, value)
        self._items.move_to_end(key)
        while len(self._items) > self.size:
            self._items.popitem(last=False)


@dataclass(frozen=True)
class Call(Generic[T]):
    """One request of the API and how to read its answer."""

    method: str
    path: str
    parse: Callable[[httpx.Response], T]
    params: Mapping[str, Any] | None = None
    body: Any = None
    headers: Mapping[str, str] = field(default_factory=dict)
    revalidate: bool = False  # keep the answer under its ETag; ask with If-None-Match next time

    def request(self, http: httpx.Client | httpx.AsyncClient, cache: ETagCache) -> tuple[httpx.Request, Any]:
        request = http.build_request(
            self.method,
            self.path,
            params=_query(self.params),
            json=self.body,
            headers=dict(self.headers),
        )
        cached = cache.get(str(request.url)) if self.revalidate else None
        if cached is not None:
            request.headers["If-None-Match"] = cached[0]
        return request, cached

    def finish(self, request: httpx.Request, response: httpx.Response, cached: Any, cache: ETagCache) -> T:
        if response.status_code == 304 and cached is not None:
            value: T = cached[1]
            return value
        if 200 <= response.status_code < 300:
            value = self.parse(response)
            etag = response.headers.get("etag")
            if self.revalidate and etag:
                cache.put(str(request.url), etag, value)
            return value
        raise problem_from_response(response)


def _query(params: Mapping[str, Any] | None) -> dict[str, Any] | None:
    if not params:
        return None
    query: dict[str, Any] = {}
    for name, value in params.items():
        if value is None:
            continue
        if isinstance(value, datetime):
            if value.tzinfo is None:
                raise ValueError(f"{name} needs a timezone (the registry refuses naive timestamps)")
            value = value.isoformat()
        query[name] = value
    return query


def _body(**fields: Any) -> dict[str, Any]:
    """A JSON body of the fields given; None means "not sent", so the registry's default applies."""
    return {name: value for name, value in fields.items() if value is not None}


def _segment(value: str | int, what: str) -> str:
    text = str(value)
    if not text:
        raise ValueError(f"{what} is empty")
    # Percent-encode everything: an id with a "/" or ".." must not walk to another endpoint.
    return quote(text, safe="")


def _model(cls: type[M]) -> Callable[[httpx.Response], M]:
    def parse(response: httpx.Response) -> M:
        return cls.model_validate_json(response.content)

    return parse


def _model_list(cls: type[M]) -> Callable[[httpx.Response], list[M]]:
    def parse(response: httpx.Response) -> list[M]:
        return [cls.model_validate(item) for item in response.json()]

    return parse


def verify_document(document: Mapping[str, Any], asset_id: str, where: str) -> None:
    """Raise AssetMismatch unless the document hashes to asset_id (and says so itself)."""
    computed = compute_asset_id(document)
    if computed != asset_id:
        raise AssetMismatch(asset_id, computed, where)
    stated = document.get("asset_id")
    if stated is not None and stated != asset_id:
        raise AssetMismatch(asset_id, str(stated), f"{where} (its own asset_id field)")


def _verified_version(response: httpx.Response) -> models.GeneVersion:
    version = models.GeneVersion.model_validate_json(response.content)
    verify_document(version.document, version.asset_id, f"{version.gene_id} v{version.version}")
    return version


def _plain_version(response: httpx.Response) -> models.GeneVersion:
    return models.GeneVersion.model_validate_json(response.content)


def _asset_parser(asset_id: str) -> Callable[[httpx.Response], dict[str, Any]]:
    def parse(response: httpx.Response) -> dict[str, Any]:
        document = response.json()
        if not isinstance(document, dict):
            raise AssetMismatch(asset_id, "(not a JSON object)", f"asset {asset_id}")
        verify_document(document, asset_id, f"asset {asset_id}")
        return document

    return parse


def new_idempotency_key() -> str:
    return f"gbc-{uuid.uuid4().hex}"


def is_finished(trajectory: models.Trajectory) -> bool:
    return trajectory.state != "pending"


# --- the calls ---------------------------------------------------------------------------------------------


def search_call(
    query: str | None,
    *,
    signals: Sequence[str] | None,
    k: int | None,
    consumer_model: str | None,
    category: str | None,
    task_family: str | None,
    producer_model: str | None,
    provenance_kind: str | None,
    status: Sequence[str] | None,
    min_quality: float | None,
    explain: bool | None,
    cursor: str | None,
    include_weak: bool | None = None,
) -> Call[models.SearchResponse]:
    body = _body(
        query=query,
        signals=list(signals) if signals else None,
        k=k,
        consumer_model=consumer_model,
        category=category,
        task_family=task_family,
        producer_model=producer_model,
        provenance_kind=provenance_kind,
        status=list(status) if status else None,
        min_quality=min_quality,
        explain=explain or None,
        cursor=cursor,
        include_weak=include_weak or None,
    )
    return Call("POST", "/v1/search", _model(models.SearchResponse), body=body)


def match_call(
    task: str,
    *,
    signals: Sequence[str] | None,
    consumer_model: str | None,
    max_tokens: int | None,
    k: int | None,
    category: str | None,
    task_family: str | None,
    producer_model: str | None,
    provenance_kind: str | None,
    status: Sequence[str] | None,
    min_quality: float | None,
) -> Call[models.MatchResponse]:
    body = _body(
        task=task,
        signals=list(signals) if signals else None,
        consumer_model=consumer_model,
        max_tokens=max_tokens,
        k=k,
        category=category,
        task_family=task_family,
        producer_model=producer_model,
        provenance_kind=provenance_kind,
        status=list(status) if status else None,
        min_quality=min_quality,
    )
    return Call("POST", "/v1/match", _model(models.MatchResponse), body=body)


def gene_call(
    gene_id: str, *, version: int | None, as_of: datetime | None, verify: bool, cache: bool
) -> Call[models.GeneVersion]:
    path = f"/v1/genes/{_segment(gene_id, 'gene_id')}"
    if version is not None:
        if as_of is not None:
            raise ValueError("give a version or as_of, not both")
        path += f"/versions/{_segment(version, 'version')}"
    parse = _verified_version if verify else _plain_version
    return Call("GET", path, parse, params={"as_of": as_of}, revalidate=cache)


def prompt_call(gene_id: str, *, max_tokens: int | None, as_of: datetime | None) -> Call[models.Prompt]:
    return Call(
        "GET",
        f"/v1/genes/{_segment(gene_id, 'gene_id')}/prompt",
        _model(models.Prompt),
        params={"max_tokens": max_tokens, "as_of": as_of},
    )


def asset_call(asset_id: str) -> Call[dict[str, Any]]:
    return Call("GET", f"/v1/assets/{_segment(asset_id, 'asset_id')}", _asset_parser(asset_id))


def genes_call(
    *,
    category: str | None,
    producer_model: str | None,
    status: str | None,
    task_family: str | None,
    updated_since: datetime | None,
    order: str | None,
    limit: int | None,
    cursor: str | None,
) -> Call[models.GenePage]:
    params = {
        "category": category,
        "producer_model": producer_model,
        "status": status,
        "task_family": task_family,
        "updated_since": updated_since,
        "order": order,
        "limit": limit,
        "cursor": cursor,
    }
    return Call("GET", "/v1/genes", _model(models.GenePage), params=params)


def versions_call(gene_id: str, *, limit: int | None, cursor: str | None) -> Call[models.VersionPage]:
    return Call(
        "GET",
        f"/v1/genes/{_segment(gene_id, 'gene_id')}/versions",
        _model(models.VersionPage),
        params={"limit": limit, "cursor": cursor},
    )


def events_call(gene_id: str, *, limit: int | None, cursor: str | None) -> Call[models.EventPage]:
    return Call(
        "GET",
        f"/v1/genes/{_segment(gene_id, 'gene_id')}/events",
        _model(models.EventPage),
        params={"limit": limit, "cursor": cursor},
    )


def guards_call(gene_id: str) -> Call[models.GuardList]:
    return Call("GET", f"/v1/genes/{_segment(gene_id, 'gene_id')}/guards", _model(models.GuardList))


def stats_call(gene_id: str) -> Call[models.Stats]:
    return Call("GET", f"/v1/genes/{_segment(gene_id, 'gene_id')}/stats", _model(models.Stats))


def producers_call() -> Call[list[models.ProducerReputation]]:
    return Call("GET", "/v1/producers", _model_list(models.ProducerReputation))


def publish_call(gene: Mapping[str, Any], provenance: Mapping[str, Any]) -> Call[models.PublishResult]:
    body = {"gene": dict(gene), "provenance": dict(provenance)}
    return Call("POST", "/v1/genes", _model(models.PublishResult), body=body)


def publish_many_call(items: Sequence[Mapping[str, Any]]) -> Call[models.BatchResult]:
    body = [{"gene": dict(item["gene"]), "provenance": dict(item["provenance"])} for item in items]
    return Call("POST", "/v1/genes/batch", _model(models.BatchResult), body=body)


def submit_many_call(runs: Sequence[Mapping[str, Any]], idempotency_key: str) -> Call[models.BatchResult]:
    return Call(
        "POST",
        "/v1/trajectories/batch",
        _model(models.BatchResult),
        body=[dict(run) for run in runs],
        headers={"Idempotency-Key": idempotency_key},
    )


def validate_call(gene: Mapping[str, Any]) -> Call[models.ValidationReport]:
    return Call("POST", "/v1/genes/validate", _model(models.ValidationReport), body=dict(gene))


def submit_call(run: Mapping[str, Any], idempotency_key: str) -> Call[models.TrajectoryAccepted]:
    return Call(
        "POST",
        "/v1/trajectories",
        _model(models.TrajectoryAccepted),
        body=dict(run),
        headers={"Idempotency-Key": idempotency_key},
    )


def trajectory_call(trajectory_id: str) -> Call[models.Trajectory]:
    return Call(
        "GET", f"/v1/trajectories/{_segment(str(trajectory_id), 'trajectory_id')}", _model(models.Trajectory)
    )


def trajectories_call(
    *,
    state: str | None,
    gene_id: str | None,
    task_family: str | None,
    since: datetime | None,
    until: datetime | None,
    key_id: str | None,
    limit: int | None,
    cursor: str | None,
) -> Call[models.TrajectoryPage]:
    return Call(
        "GET",
        "/v1/trajectories",
        _model(models.TrajectoryPage),
        params={
            "state": state,
            "gene_id": gene_id,
            "task_family": task_family,
            "since": since.isoformat() if since else None,
            "until": until.isoformat() if until else None,
            "key_id": key_id,
            "limit": limit,
            "cursor": cursor,
        },
    )


def outcome_call(
    gene_id: str,
    *,
    asset_id: str,
    task_id: str,
    success: bool,
    consumer_model: str | None,
    attempt_id: str | None,
    score: float | None,
    tokens_used: int | None,
    baseline_tokens: int | None,
    baseline_success: bool | None,
    reason: str | None,
    note: str | None,
) -> Call[models.OutcomeResult]:
    body = _body(
        asset_id=asset_id,
        task_id=task_id,
        success=success,
        consumer_model=consumer_model,
        attempt_id=attempt_id,
        score=score,
        tokens_used=tokens_used,
        baseline_tokens=baseline_tokens,
        baseline_success=baseline_success,
        reason=reason,
        note=note,
    )
    path = f"/v1/genes/{_segment(gene_id, 'gene_id')}/outcomes"
    return Call("POST", path, _model(models.OutcomeResult), body=body)


def status_call(gene_id: str, status: str, reason: str) -> Call[models.LifecycleChange]:
    path = f"/v1/genes/{_segment(gene_id, 'gene_id')}/status"
    return Call("POST", path, _model(models.LifecycleChange), body={"status": status, "reason": reason})


def owner_call(gene_id: str, key_id: str) -> Call[models.OwnerChange]:
    path = f"/v1/genes/{_segment(gene_id, 'gene_id')}/owner"
    return Call("POST", path, _model(models.OwnerChange), body={"key_id": str(key_id)})


__all__ = ["Call", "ETagCache", "ProblemError", "RetryPolicy"]
