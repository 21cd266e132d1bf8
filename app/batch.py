"""Bulk intake: many items in one request (POST /v1/genes/batch, POST /v1/trajectories/batch).

The body is a JSON array of the single endpoint's bodies, or NDJSON (`application/x-ndjson`, one
body a line; blank lines are skipped). At most GENEBANK_BATCH_MAX_ITEMS items and
GENEBANK_BATCH_MAX_BYTES bytes: past either the whole request is refused (413) and nothing is
stored; so is a body that is not a JSON array, or not JSON at all (NDJSON: a line that is not JSON
is that item's problem only).

Every item is judged on its own, by the single endpoint's own code: parsed strictly
(app/jsonbody.py), validated by its model, then processed inside a SAVEPOINT of the request's
transaction (`each_in_savepoint`). An item the single endpoint would refuse with a 4xx gets that
problem document as its result and leaves nothing behind; the others are stored, and everything
commits together at the end. An error no item can cause (the database gone) fails the request and
stores nothing. (A Gene batch's new lineages are the exception to the one-SAVEPOINT-an-item rule:
they are written set-wise, a chunk to a SAVEPOINT, with the rows and answers their single publishes
would give, app/genes/bulk.py.)

Rate limits count items: the request was one write when it came in; a batch of N items takes the
other N - 1 before anything is parsed further, all or nothing. When the key's write budget cannot
take the whole batch the request is answered 429 with Retry-After and nothing is stored (a batch
larger than the whole limit is 413: it can never pass, split it).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from fastapi import Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field, ValidationError
from sqlalchemy.ext.asyncio import AsyncSession

from app.auth.middleware import AUDIT_DETAIL, rate_limits
from app.auth.principal import Principal
from app.errors import (
    AppError,
    InvalidJSON,
    PayloadTooLarge,
    UnsupportedMediaType,
    ValidationFailed,
    clean_validation_errors,
    problem_of,
)
from app.jsonbody import is_json_media_type, strict_loads
from app.state import settings_of

NDJSON = "application/x-ndjson"
GENES_PATH = "/v1/genes/batch"
TRAJECTORIES_PATH = "/v1/trajectories/batch"
BULK_PATHS = frozenset({GENES_PATH, TRAJECTORIES_PATH})

M = TypeVar("M", bound=BaseModel)
T = TypeVar("T")


def request_body_doc(schema_name: str) -> dict[str, Any]:
    """The request body as OpenAPI shows it: an array of the single endpoint's bodies. (NDJSON, the
    same items one a line, is said in the description: schema-driven clients and testers cannot
    build it from a schema.)"""
    items = {"$ref": f"#/components/schemas/{schema_name}"}
    return {
        "requestBody": {
            "required": True,
            "description": f"a JSON array of {schema_name}, or {NDJSON} with one {schema_name} a line",
            "content": {"application/json": {"schema": {"type": "array", "items": items, "minItems": 1}}},
        }
    }


class BatchAnswer(BaseModel):
    """What became of each item, in the order sent."""

    accepted: int = Field(description="items stored, or found already stored (idempotent re-sends)")
    rejected: int = Field(description="items refused; their result is a problem document")
    results: list[dict[str, Any]] = Field(
        description="one per item, in order: the single endpoint's answer with `index` and `status` "
        "(2xx), or the item's problem document (type, title, status, detail, errors) with `index`"
    )


@dataclass
class Item(Generic[M]):
    """One item of a batch: its validated model, or why it was refused before any processing."""

    index: int
    model: M | None = None
    problem: AppError | None = None
    extra: dict[str, Any] | None = None  # fields the batch takes off the item (an idempotency key)


def _problem_for(error: ValidationError) -> ValidationFailed:
    errors = clean_validation_errors(error.errors())
    where = ".".join(errors[0]["loc"]) if errors else ""
    message = str(errors[0]["msg"]) if errors else "invalid"
    return ValidationFailed(f"{where}: {message}" if where else message, extra={"errors": errors})


def parse_items(
    body: bytes,
    content_type: str,
    model: type[M],
    *,
    max_items: int,
    max_depth: int,
    take: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
) -> list[Item[M]]:
    """The items of a batch body, each validated by `model` or refused with its problem (CPU work:
    run it off the event loop). `take` removes batch-only fields from an item before validation.

    Raises (the whole request refused) for a body that is not a batch at all or is too large.
    """
    media_type = content_type.split(";", 1)[0].strip().lower()
    values: list[Any | AppError] = []
    if media_type == NDJSON:
        lines = [line for line in body.split(b"\n") if line.strip()]
        _check_count(len(lines), max_items)
        for line in lines:
            try:
                values.append(strict_loads(line.strip(), max_depth=max_depth))
            except AppError as error:
                values.append(error)
    elif is_json_media_type(content_type):
        parsed = strict_loads(body, max_depth=max_depth + 1)
        if not isinstance(parsed, list):
            raise ValidationFailed(f"send a JSON array of items (or {NDJSON}, one item a line)")
        _check_count(len(parsed), max_items)
        values = parsed
    else:
        raise UnsupportedMediaType(
            f"send the items as application/json (an array) or {NDJSON}, "
            f"not {content_type or 'without a Content-Type'}"
        )
    items: list[Item[M]] = []
    for index, value in enumerate(values):
        item: Item[M] = Item(index)
        items.append(item)
        if isinstance(value, AppError):
            item.problem = value
            continue
        if not isinstance(value, dict):
            item.problem = ValidationFailed(f"item {index} is not a JSON object")
            continue
        try:
            if take is not None:
                item.extra = take(value)
            item.model = model.model_validate(value)
        except ValidationError as error:
            item.problem = _problem_for(error)
        except AppError as error:
            item.problem = error
    return items


def _check_count(count: int, max_items: int) -> None:
    if count == 0:
        raise ValidationFailed("the batch holds no items; send at least one")
    if count > max_items:
        raise PayloadTooLarge(
            f"the batch holds {count} items; at most {max_items} a request (GENEBANK_BATCH_MAX_ITEMS)",
            extra={"max_items": max_items},
        )


async def read_items(
    request: Request, model: type[M], take: Callable[[dict[str, Any]], dict[str, Any]] | None = None
) -> list[Item[M]]:
    """The request's items, parsed and validated off the event loop, its rate limit charged."""
    settings = settings_of(request)
    body = await request.body()
    if not body:
        raise InvalidJSON("the request has no body; send a JSON array of items")
    items = await asyncio.to_thread(
        parse_items,
        body,
        request.headers.get("content-type", ""),
        model,
        max_items=settings.batch_max_items,
        max_depth=settings.max_json_depth,
        take=take,
    )
    await charge(request, len(items))
    return items


async def charge(request: Request, count: int) -> None:
    """Count the batch's items against the caller's write limit: all of them, or refuse it (429)."""
    principal: Principal = request.state.principal
    limits = rate_limits(request.app.state)
    identity = str(principal.key_id)
    limit = limits.items["writes"].amount
    if count > limit:
        raise PayloadTooLarge(
            f"the batch holds {count} items and your key may write {limit} a window: split it",
            extra={"max_items": limit},
        )
    # The request itself was counted once on its way in.
    if count > 1 and not await limits.hit("writes", identity, cost=count - 1):
        raise await limits.refusal("writes", identity, f"writes ({count} items in this batch)")


async def each_in_savepoint(
    session: AsyncSession,
    items: Sequence[Item[M]],
    process: Callable[[Item[M]], Awaitable[dict[str, Any]]],
    *,
    instance: str,
) -> list[dict[str, Any]]:
    """Process the items in order, each in a SAVEPOINT: a refused item (AppError) is rolled back
    alone and answered with its problem; the item's result otherwise."""
    results: list[dict[str, Any]] = []
    for item in items:
        if item.problem is not None:
            results.append({"index": item.index, **problem_of(item.problem, instance=instance)})
            continue
        try:
            async with session.begin_nested():
                answer = await process(item)
        except AppError as error:
            results.append({"index": item.index, **problem_of(error, instance=instance)})
            continue
        results.append({"index": item.index, **answer})
    return results


def batch_response(request: Request, results: list[dict[str, Any]]) -> JSONResponse:
    accepted = sum(1 for result in results if result["status"] < 400)
    answer = {"accepted": accepted, "rejected": len(results) - accepted, "results": results}
    # The audit entry records the counts (the answer may be too long for the audit's capture).
    request.scope.setdefault("state", {})[AUDIT_DETAIL] = {
        "items": len(results),
        "accepted": accepted,
        "rejected": len(results) - accepted,
    }
    return JSONResponse(answer)
