"""`AsyncClient`: the registry over HTTP, for asyncio or trio (httpx.AsyncClient); as `Client`, awaited."""

from __future__ import annotations

import copy
import time
from collections.abc import AsyncIterator, Mapping, Sequence
from datetime import datetime
from typing import Any, Literal, TypeVar

import anyio
import httpx

from genebank.client import _core, models
from genebank.client._core import Call, ETagCache, RetryPolicy
from genebank.client.errors import WaitTimeout

T = TypeVar("T")


class AsyncClient:
    """A Genebank registry, asynchronously. `AsyncClient()` reads GENEBANK_URL and GENEBANK_KEY; use it as
    an async context manager.

    Every method raises a `ProblemError` subclass for a refusal (`GeneNotFound`, `Forbidden`,
    `ValidationFailed`, ...), `TransportError` when the registry cannot be reached, and
    `AssetMismatch` when a document does not hash to the asset_id it was served as.
    """

    def __init__(
        self,
        base_url: str | None = None,
        key: str | None = None,
        *,
        timeout: float | httpx.Timeout = 30.0,
        max_retries: int = 3,
        max_retry_wait: float = 60.0,
        cache_size: int = 256,
        headers: Mapping[str, str] | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        event_hooks: Mapping[str, list[Any]] | None = None,
    ) -> None:
        self.base_url, key = _core.resolve_settings(base_url, key)
        self.retry = RetryPolicy(max_retries=max_retries, max_retry_wait=max_retry_wait)
        self._cache = ETagCache(cache_size)
        self._assets: dict[str, dict[str, Any]] = {}
        self._http = httpx.AsyncClient(
            base_url=self.base_url,
            headers=_core.default_headers(key, headers),
            timeout=timeout,
            transport=transport,
            event_hooks=dict(event_hooks or {}),
        )

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._http.aclose()

    async def _send(self, call: Call[T]) -> T:
        request, cached = call.request(self._http, self._cache)
        attempt = 0
        while True:
            try:
                response = await self._http.send(request)
            except httpx.HTTPError as error:
                delay = self.retry.after_error(error, attempt)
                if delay is None:
                    raise _core.transport_error(error, request) from error
            else:
                delay = self.retry.after_response(response, attempt)
                if delay is None:
                    return call.finish(request, response, cached, self._cache)
                await response.aclose()
            await anyio.sleep(delay)
            attempt += 1

    # --- finding Genes ---------------------------------------------------------------------------------

    async def search(
        self,
        query: str | None = None,
        *,
        signals: Sequence[str] | None = None,
        k: int | None = None,
        consumer_model: str | None = None,
        category: str | None = None,
        task_family: str | None = None,
        producer_model: str | None = None,
        provenance_kind: str | None = None,
        status: Sequence[str] | None = None,
        min_quality: float | None = None,
        explain: bool = False,
        cursor: str | None = None,
        include_weak: bool = False,
    ) -> models.SearchResponse:
        """Hybrid search with a relevance band (`found`, `low_confidence`, `no_match`)."""
        return await self._send(
            _core.search_call(
                query,
                signals=signals,
                k=k,
                consumer_model=consumer_model,
                category=category,
                task_family=task_family,
                producer_model=producer_model,
                provenance_kind=provenance_kind,
                status=status,
                min_quality=min_quality,
                explain=explain,
                cursor=cursor,
                include_weak=include_weak,
            )
        )

    async def iter_search(
        self,
        query: str | None = None,
        *,
        signals: Sequence[str] | None = None,
        k: int | None = None,
        consumer_model: str | None = None,
        category: str | None = None,
        task_family: str | None = None,
        producer_model: str | None = None,
        provenance_kind: str | None = None,
        status: Sequence[str] | None = None,
        min_quality: float | None = None,
        explain: bool = False,
        include_weak: bool = False,
    ) -> AsyncIterator[models.SearchResult]:
        """Every result of a search, page after page (`k` per page) until the registry has no more."""
        cursor: str | None = None
        while True:
            page = await self.search(
                query,
                signals=signals,
                k=k,
                consumer_model=consumer_model,
                category=category,
                task_family=task_family,
                producer_model=producer_model,
                provenance_kind=provenance_kind,
                status=status,
                min_quality=min_quality,
                explain=explain,
                cursor=cursor,
                include_weak=include_weak,
            )
            for item in page.results:
                yield item
            if not page.next_cursor:
                return
            cursor = page.next_cursor

    async def match(
        self,
        task: str,
        *,
        signals: Sequence[str] | None = None,
        consumer_model: str | None = None,
        max_tokens: int | None = None,
        k: int | None = None,
        category: str | None = None,
        task_family: str | None = None,
        producer_model: str | None = None,
        provenance_kind: str | None = None,
        status: Sequence[str] | None = None,
        min_quality: float | None = None,
    ) -> models.MatchResponse:
        """The best Gene(s) for a task, rendered for a prompt within `max_tokens`, with their asset_ids."""
        return await self._send(
            _core.match_call(
                task,
                signals=signals,
                consumer_model=consumer_model,
                max_tokens=max_tokens,
                k=k,
                category=category,
                task_family=task_family,
                producer_model=producer_model,
                provenance_kind=provenance_kind,
                status=status,
                min_quality=min_quality,
            )
        )

    # --- reading Genes ---------------------------------------------------------------------------------

    async def get_gene(
        self,
        gene_id: str,
        *,
        version: int | None = None,
        as_of: datetime | None = None,
        verify: bool = True,
        cache: bool = True,
    ) -> models.GeneVersion:
        """The current version (or `version`, or the one current at `as_of`), with its provenance.

        The answer is kept under its ETag: asking again sends If-None-Match and a 304 costs no body.
        The ETag covers the document; registry facts such as `status` may change under it, so pass
        `cache=False` when they matter. `verify` recomputes the document's asset_id.
        """
        return await self._send(
            _core.gene_call(gene_id, version=version, as_of=as_of, verify=verify, cache=cache)
        )

    async def get_prompt(
        self, gene_id: str, *, max_tokens: int | None = None, as_of: datetime | None = None
    ) -> models.Prompt:
        """The Gene rendered as compact text for a prompt, never over `max_tokens` (estimated)."""
        return await self._send(_core.prompt_call(gene_id, max_tokens=max_tokens, as_of=as_of))

    async def get_asset(self, asset_id: str) -> dict[str, Any]:
        """The GEP document of `asset_id`, verified by recomputing its hash here (`AssetMismatch` if not).

        Content-addressed and verified, it can never be stale: it is kept and not asked for again.
        """
        document = self._assets.get(asset_id)
        if document is None:
            document = await self._send(_core.asset_call(asset_id))
            if self._cache.size > 0:
                if len(self._assets) >= self._cache.size:
                    self._assets.pop(next(iter(self._assets)))
                self._assets[asset_id] = document
        return copy.deepcopy(document)

    async def list_genes(
        self,
        *,
        category: str | None = None,
        producer_model: str | None = None,
        status: str | None = None,
        task_family: str | None = None,
        updated_since: datetime | None = None,
        order: Literal["asc", "desc"] | None = None,
        limit: int | None = None,
        cursor: str | None = None,
    ) -> models.GenePage:
        """One page of Genes, most recently updated first (`order="asc"` for the oldest first)."""
        return await self._send(
            _core.genes_call(
                category=category,
                producer_model=producer_model,
                status=status,
                task_family=task_family,
                updated_since=updated_since,
                order=order,
                limit=limit,
                cursor=cursor,
            )
        )

    async def iter_genes(
        self,
        *,
        category: str | None = None,
        producer_model: str | None = None,
        status: str | None = None,
        task_family: str | None = None,
        updated_since: datetime | None = None,
        order: Literal["asc", "desc"] | None = None,
        page_size: int | None = None,
    ) -> AsyncIterator[models.GeneSummary]:
        """Every Gene the filters keep, following the cursor to the end."""
        cursor: str | None = None
        while True:
            page = await self.list_genes(
                category=category,
                producer_model=producer_model,
                status=status,
                task_family=task_family,
                updated_since=updated_since,
                order=order,
                limit=page_size,
                cursor=cursor,
            )
            for item in page.items:
                yield item
            if not page.next_cursor:
                return
            cursor = page.next_cursor

    async def list_versions(
        self, gene_id: str, *, limit: int | None = None, cursor: str | None = None
    ) -> models.VersionPage:
        return await self._send(_core.versions_call(gene_id, limit=limit, cursor=cursor))

    async def iter_versions(
        self, gene_id: str, *, page_size: int | None = None
    ) -> AsyncIterator[models.VersionSummary]:
        """Every version of the Gene, oldest first."""
        cursor: str | None = None
        while True:
            page = await self.list_versions(gene_id, limit=page_size, cursor=cursor)
            for item in page.items:
                yield item
            if not page.next_cursor:
                return
            cursor = page.next_cursor

    async def list_events(
        self, gene_id: str, *, limit: int | None = None, cursor: str | None = None
    ) -> models.EventPage:
        return await self._send(_core.events_call(gene_id, limit=limit, cursor=cursor))

    async def iter_events(self, gene_id: str, *, page_size: int | None = None) -> AsyncIterator[models.Event]:
        """Every change to the Gene (published, founded, merged), oldest first."""
        cursor: str | None = None
        while True:
            page = await self.list_events(gene_id, limit=page_size, cursor=cursor)
            for item in page.items:
                yield item
            if not page.next_cursor:
                return
            cursor = page.next_cursor

    async def get_guards(self, gene_id: str) -> models.GuardList:
        return await self._send(_core.guards_call(gene_id))

    async def get_stats(self, gene_id: str) -> models.Stats:
        return await self._send(_core.stats_call(gene_id))

    async def producers(self) -> list[models.ProducerReputation]:
        return await self._send(_core.producers_call())

    # --- writing -----------------------------------------------------------------------------------------

    async def publish(self, gene: Mapping[str, Any], provenance: Mapping[str, Any]) -> models.PublishResult:
        """Publish a Gene version (producer key); `created` is false when it was already published."""
        return await self._send(_core.publish_call(gene, provenance))

    async def publish_many(self, items: Sequence[Mapping[str, Any]]) -> models.BatchResult:
        """Publish up to 500 Genes in one request, each item `{"gene": …, "provenance": …}`; one
        result per item, in order (`BatchResult.problems` lists the refused ones). Retry-safe."""
        return await self._send(_core.publish_many_call(items))

    async def submit_many(
        self, runs: Sequence[Mapping[str, Any]], *, idempotency_key: str | None = None
    ) -> models.BatchResult:
        """Submit up to 500 runs in one request; one result per run, in order. Retries reuse one
        Idempotency-Key (run i is keyed `<key>/<i>`), generated if not given."""
        key = idempotency_key or _core.new_idempotency_key()
        return await self._send(_core.submit_many_call(runs, key))

    async def validate(self, gene: Mapping[str, Any]) -> models.ValidationReport:
        """Check a Gene document against GEP's schema and the registry's rules; stores nothing."""
        return await self._send(_core.validate_call(gene))

    async def submit_trajectory(
        self, run: Mapping[str, Any], *, idempotency_key: str | None = None
    ) -> models.TrajectoryAccepted:
        """Submit a verified run (producer key). Retries reuse one Idempotency-Key, generated if not given."""
        key = idempotency_key or _core.new_idempotency_key()
        return await self._send(_core.submit_call(run, key))

    async def list_trajectories(
        self,
        *,
        state: str | None = None,
        gene_id: str | None = None,
        task_family: str | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
        key_id: str | None = None,
        limit: int | None = None,
        cursor: str | None = None,
    ) -> models.TrajectoryPage:
        """Your runs (an admin: any key's, or `key_id`'s), newest first, with counts per state."""
        return await self._send(
            _core.trajectories_call(
                state=state,
                gene_id=gene_id,
                task_family=task_family,
                since=since,
                until=until,
                key_id=key_id,
                limit=limit,
                cursor=cursor,
            )
        )

    async def iter_trajectories(
        self,
        *,
        state: str | None = None,
        gene_id: str | None = None,
        task_family: str | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
        key_id: str | None = None,
        page_size: int | None = None,
    ) -> AsyncIterator[models.Trajectory]:
        """Every run under the filters, newest first."""
        cursor: str | None = None
        while True:
            page = await self.list_trajectories(
                state=state,
                gene_id=gene_id,
                task_family=task_family,
                since=since,
                until=until,
                key_id=key_id,
                limit=page_size,
                cursor=cursor,
            )
            for item in page.items:
                yield item
            if not page.next_cursor:
                return
            cursor = page.next_cursor

    async def get_trajectory(self, trajectory_id: str) -> models.Trajectory:
        return await self._send(_core.trajectory_call(trajectory_id))

    async def wait_for(
        # The same signature as Client.wait_for; a deadline here also bounds the polling interval.
        self,
        trajectory_id: str,
        *,
        timeout: float = 60.0,  # noqa: ASYNC109
        interval: float = 0.25,
    ) -> models.Trajectory:
        """Poll a trajectory until the worker merged or rejected it; `WaitTimeout` after `timeout` s."""
        deadline = time.monotonic() + timeout
        while True:
            trajectory = await self.get_trajectory(trajectory_id)
            if _core.is_finished(trajectory):
                return trajectory
            if time.monotonic() + interval > deadline:
                raise WaitTimeout(f"trajectory {trajectory_id} still pending after {timeout:g} s")
            await anyio.sleep(interval)
            interval = min(interval * 1.5, 2.0)

    async def report_outcome(
        self,
        gene_id: str,
        *,
        asset_id: str,
        task_id: str,
        success: bool,
        consumer_model: str | None = None,
        attempt_id: str | None = None,
        score: float | None = None,
        tokens_used: int | None = None,
        baseline_tokens: int | None = None,
        baseline_success: bool | None = None,
        reason: Literal["failed", "partial", "irrelevant"] | None = None,
        note: str | None = None,
    ) -> models.OutcomeResult:
        """Report how using a version went. A key bound to a model may leave `consumer_model` out."""
        return await self._send(
            _core.outcome_call(
                gene_id,
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
        )

    async def set_status(
        self, gene_id: str, status: Literal["candidate", "promoted", "deprecated", "revoked"], reason: str
    ) -> models.LifecycleChange:
        """Promote, deprecate or reinstate (admin), or revoke (admin or the owner), with a reason."""
        return await self._send(_core.status_call(gene_id, status, reason))

    async def transfer_owner(self, gene_id: str, key_id: str) -> models.OwnerChange:
        """Hand the Gene to another producer or admin key (its owner or an admin)."""
        return await self._send(_core.owner_call(gene_id, key_id))
