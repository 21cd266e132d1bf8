"""HTTP layer of the genes API: parse, call the service, shape the answer (ETag, Location, 304)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request, Response
from fastapi import status as http
from fastapi.responses import JSONResponse

from app.auth.dependencies import ProducerKey
from app.batch import (
    GENES_PATH,
    BatchAnswer,
    batch_response,
    read_items,
    request_body_doc,
)
from app.db import ReadSessionDep, SessionDep, read_connection
from app.errors import AppError, ValidationFailed, problem_of
from app.genes.envelope import VersionView
from app.genes.schemas import (
    AssetIdPath,
    GeneIdPath,
    GeneOrder,
    GenePage,
    GeneVersionRead,
    OwnerChange,
    OwnerIn,
    PromptRead,
    PublishRequest,
    PublishResponse,
    VersionPage,
)
from app.genes.service import Published, gene_service
from app.jsonbody import JSONRoute
from app.schemas import CursorParam, Limit, TaskFamily, page_size
from app.state import runtime, settings_of

router = APIRouter(prefix="/v1", tags=["genes"], route_class=JSONRoute)

AsOf = Annotated[
    datetime | None, Query(description="answer with the version that was current at this instant (RFC 3339)")
]

NOT_MODIFIED: dict[int | str, dict[str, Any]] = {
    304: {"description": "the client's copy (If-None-Match) is current"}
}


# Content-addressed answers never change: a CDN or any shared cache may keep them for a year. A
# revocation answers 410 from here on; a cache in front must be purged for it (docs/operations.md).
IMMUTABLE = "public, max-age=31536000, immutable"


def _etag(asset_id: str) -> str:
    return f'"{asset_id}"'


def _not_modified(if_none_match: str | None, asset_id: str) -> bool:
    if not if_none_match:
        return False
    tags = {tag.strip().removeprefix("W/") for tag in if_none_match.split(",")}
    return "*" in tags or _etag(asset_id) in tags


def _version_response(view: VersionView, if_none_match: str | None, cache_control: str) -> Response:
    """The version's JSON (or 304), with its asset_id as ETag; built from the row, not a model."""
    headers = {"ETag": _etag(view.asset_id), "Cache-Control": cache_control}
    if _not_modified(if_none_match, view.asset_id):
        return Response(status_code=http.HTTP_304_NOT_MODIFIED, headers=headers)
    return Response(view.to_json(), media_type="application/json", headers=headers)


def _aware(moment: datetime | None) -> datetime | None:
    if moment is not None and moment.tzinfo is None:
        raise ValidationFailed("timestamps need a UTC offset, e.g. 2026-12-01T10:00:00Z")
    return moment


# The fetch endpoints read their optional parameters from the request themselves: FastAPI resolves
# each declared parameter at ~35 µs, a third of a whole fetch (bench/fetch.py). openapi_extra keeps
# them documented.
_AS_OF_DOC = {
    "name": "as_of",
    "in": "query",
    "required": False,
    "description": "answer with the version that was current at this instant (RFC 3339, with offset)",
    "schema": {"type": "string", "format": "date-time"},
}
_IF_NONE_MATCH_DOC = {
    "name": "If-None-Match",
    "in": "header",
    "required": False,
    "description": "ETags (asset_ids) the client already holds; a match answers 304",
    "schema": {"type": "string"},
}


def _as_of(request: Request) -> datetime | None:
    raw = request.query_params.get("as_of")
    if raw is None:
        return None
    try:
        moment = datetime.fromisoformat(raw)
    except ValueError:
        raise ValidationFailed(f"as_of {raw[:40]!r} is not an RFC 3339 timestamp") from None
    return _aware(moment)


def _publish_answer(body: PublishRequest, published: Published) -> PublishResponse:
    version = published.version
    return PublishResponse(
        gene_id=version.gene_id,
        version=version.version,
        asset_id=version.asset_id,
        created=published.created,
        converted=body.gene.legacy(),
    )


@router.post(
    "/genes",
    status_code=http.HTTP_201_CREATED,
    response_model=PublishResponse,
    responses={200: {"model": PublishResponse, "description": "identical document already published"}},
)
async def publish_gene(
    body: PublishRequest, session: SessionDep, request: Request, producer: ProducerKey
) -> JSONResponse:
    """Publish a Gene version; a new lineage belongs to the key that founds it."""
    published = await gene_service.publish(
        session, body, runtime(request).embeddings, actor=producer, cpu=runtime(request).cpu
    )
    version = published.version
    answer = _publish_answer(body, published)
    location = str(request.url_for("get_gene_version", gene_id=version.gene_id, version=version.version).path)
    return JSONResponse(
        answer.model_dump(mode="json"),
        status_code=http.HTTP_201_CREATED if published.created else http.HTTP_200_OK,
        headers={"Location": location, "ETag": _etag(version.asset_id)},
    )


@router.post(
    GENES_PATH.removeprefix("/v1"),
    response_model=BatchAnswer,
    openapi_extra=request_body_doc("PublishRequest"),
)
async def publish_genes(request: Request, session: SessionDep, producer: ProducerKey) -> JSONResponse:
    """Publish many Gene versions: a JSON array of POST /v1/genes bodies, or NDJSON (app/batch.py).

    One result per item, in order: `{"index", "status": 201|200, "gene_id", "version", "asset_id",
    "created", "converted"}` as the single publish answers, or the item's problem document. Each item
    is atomic (new lineages are written set-wise, a chunk to a savepoint; any other item by the single
    publish's code in a savepoint of its own, app/genes/bulk.py); their texts are embedded in one call
    to the embedder. The batch counts as one write per item against the key's limit.
    """
    items = await read_items(request, PublishRequest)
    state = runtime(request)
    valid = [item.model for item in items if item.model is not None]
    published = await gene_service.publish_batch(
        session, valid, state.embeddings, actor=producer, cpu=state.cpu
    )
    outcomes = iter(published)
    results: list[dict[str, Any]] = []
    for item in items:
        outcome = item.problem if item.model is None else next(outcomes)
        if isinstance(outcome, AppError):
            results.append({"index": item.index, **problem_of(outcome, instance=request.url.path)})
            continue
        assert isinstance(outcome, Published) and item.model is not None
        results.append(
            {
                "index": item.index,
                "status": http.HTTP_201_CREATED if outcome.created else http.HTTP_200_OK,
                **_publish_answer(item.model, outcome).model_dump(mode="json"),
            }
        )
    return batch_response(request, results)


@router.get("/genes", response_model=GenePage)
async def list_genes(
    session: ReadSessionDep,
    request: Request,
    limit: Limit = None,
    cursor: CursorParam = None,
    order: GeneOrder = "desc",
    category: Annotated[str | None, Query(max_length=32)] = None,
    producer_model: Annotated[str | None, Query(max_length=200)] = None,
    status: Annotated[str | None, Query(max_length=32)] = None,
    task_family: Annotated[TaskFamily | None, Query()] = None,
    updated_since: AsOf = None,
) -> GenePage:
    return await gene_service.list_genes(
        session,
        limit=page_size(settings_of(request), limit),
        cursor=cursor,
        descending=order == "desc",
        category=category,
        producer_model=producer_model,
        status=status,
        task_family=task_family,
        updated_since=_aware(updated_since),
    )


@router.get(
    "/genes/{gene_id}",
    response_model=GeneVersionRead,
    responses=NOT_MODIFIED,
    openapi_extra={"parameters": [_AS_OF_DOC, _IF_NONE_MATCH_DOC]},
)
async def get_gene(gene_id: GeneIdPath, request: Request) -> Response:
    """The Gene's current version (or the one current at `as_of`), with registry facts and provenance."""
    as_of = _as_of(request)
    async with read_connection(request) as conn:
        view = await gene_service.read_version(conn, gene_id, as_of=as_of)
    return _version_response(view, request.headers.get("if-none-match"), "no-cache")


@router.get("/genes/{gene_id}/versions", response_model=VersionPage)
async def list_versions(
    gene_id: GeneIdPath,
    session: ReadSessionDep,
    request: Request,
    limit: Limit = None,
    cursor: CursorParam = None,
) -> VersionPage:
    return await gene_service.list_versions(
        session, gene_id, limit=page_size(settings_of(request), limit), cursor=cursor
    )


@router.get(
    "/genes/{gene_id}/versions/{version}",
    response_model=GeneVersionRead,
    responses=NOT_MODIFIED,
    openapi_extra={"parameters": [_IF_NONE_MATCH_DOC]},
)
async def get_gene_version(
    gene_id: GeneIdPath, version: Annotated[int, Path(ge=1, le=2**31 - 1)], request: Request
) -> Response:
    async with read_connection(request) as conn:
        view = await gene_service.read_version(conn, gene_id, version=version)
    # A numbered version never changes; only a revocation (answered 410) can end it.
    return _version_response(view, request.headers.get("if-none-match"), IMMUTABLE)


@router.get(
    "/assets/{asset_id}",
    responses={
        200: {"content": {"application/json": {}}, "description": "the GEP document, canonical bytes"},
        **NOT_MODIFIED,
    },
)
async def get_asset(asset_id: AssetIdPath, request: Request) -> Response:
    """The GEP document exactly as hashed (canonical JSON) with its asset_id, for verification."""
    async with read_connection(request) as conn:
        view = await gene_service.read_version(conn, asset_id=asset_id)
    if_none_match = request.headers.get("if-none-match")
    headers = {
        "ETag": _etag(view.asset_id),
        "Cache-Control": IMMUTABLE,
        "Link": f'</v1/genes/{view.gene_id}/versions/{view.version}>; rel="describedby"',
    }
    if _not_modified(if_none_match, view.asset_id):
        return Response(status_code=http.HTTP_304_NOT_MODIFIED, headers=headers)
    return Response(view.row["document_json"], media_type="application/json", headers=headers)


@router.post("/genes/{gene_id}/owner", response_model=OwnerChange)
async def transfer_gene(
    gene_id: GeneIdPath, body: OwnerIn, session: SessionDep, caller: ProducerKey
) -> OwnerChange:
    """Transfer the Gene to another producer or admin key (by its owner or an admin); audited."""
    return await gene_service.transfer(session, gene_id, body.key_id, caller)


@router.get("/genes/{gene_id}/prompt", response_model=PromptRead)
async def get_prompt(
    gene_id: GeneIdPath,
    request: Request,
    max_tokens: Annotated[int | None, Query(ge=1, le=100_000)] = None,
    as_of: AsOf = None,
) -> PromptRead:
    """The Gene rendered as compact text for a prompt, never over `max_tokens` (estimated, see README)."""
    budget = max_tokens or settings_of(request).prompt_max_tokens_default
    async with read_connection(request) as conn:
        view = await gene_service.read_version(conn, gene_id, as_of=_aware(as_of))
    rendered = gene_service.render_prompt(view, budget)
    return PromptRead(
        gene_id=view.gene_id,
        version=view.version,
        asset_id=view.asset_id,
        max_tokens=budget,
        tokens=rendered.tokens,
        truncated=rendered.truncated,
        omitted=rendered.omitted,
        text=rendered.text,
    )
