"""The OpenAPI document, completed with what FastAPI cannot infer: problem+json errors and the key scheme.

Every operation can answer with RFC 9457 problem documents (bad JSON, a missing or wrong key, a rate
limit, an unknown id…), and FastAPI's default 422 schema is not ours; clients and schema-driven
testers (schemathesis in CI) must see the errors as they really are.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi

from app.errors import PROBLEM_JSON

PROBLEM_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["type", "title", "status", "detail"],
    "properties": {
        "type": {"type": "string", "format": "uri"},
        "title": {"type": "string"},
        "status": {"type": "integer"},
        "detail": {"type": "string"},
        "instance": {"type": "string"},
        "errors": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "loc": {"type": "array", "items": {"type": "string"}},
                    "msg": {"type": "string"},
                    "type": {"type": "string"},
                },
            },
        },
    },
    "additionalProperties": True,
}

ERRORS = {
    "400": "the body is not JSON, or the request is malformed",
    "401": "no API key, or an unknown, malformed or revoked one",
    "403": "the key's role (or ownership) does not allow this",
    "404": "no such Gene, version, asset, trajectory or key",
    "405": "method not allowed here",
    "409": "conflicts with the current state (stale parent, duplicate report…)",
    "410": "the Gene was revoked",
    "413": "the body exceeds GENEBANK_MAX_BODY_BYTES",
    "415": "the body is not application/json",
    "422": "the payload is not valid (the problem's `errors` say where)",
    "429": "rate limit exceeded (see Retry-After and the RateLimit-* headers)",
}


def build_openapi(app: FastAPI) -> dict[str, Any]:
    if app.openapi_schema:
        return app.openapi_schema
    schema = get_openapi(
        title=app.title,
        version=app.version,
        summary=app.summary,
        description=app.description,
        routes=app.routes,
    )
    components = schema.setdefault("components", {})
    components.setdefault("schemas", {})["Problem"] = PROBLEM_SCHEMA
    components.setdefault("securitySchemes", {})["HTTPBearer"] = {
        "type": "http",
        "scheme": "bearer",
        "description": "an API key, `Authorization: Bearer gb_…`; reads may be anonymous if allowed",
    }
    problem = {PROBLEM_JSON: {"schema": {"$ref": "#/components/schemas/Problem"}}}
    for path, operations in schema.get("paths", {}).items():
        for operation in operations.values():
            responses = operation.setdefault("responses", {})
            for status, description in ERRORS.items():
                responses[status] = {"description": description, "content": problem}
            if "503" in responses:  # /readyz: not ready is a problem document too
                responses["503"] = {"description": responses["503"]["description"], "content": problem}
            if not path.startswith(("/healthz", "/readyz")):
                operation.setdefault("security", [{"HTTPBearer": []}, {}])
    for unused in ("HTTPValidationError", "ValidationError"):
        components["schemas"].pop(unused, None)
    app.openapi_schema = schema
    return schema


def install(app: FastAPI) -> None:
    app.openapi = lambda: build_openapi(app)  # type: ignore[method-assign]
