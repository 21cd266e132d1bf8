"""HTTP layer of the GEP hub (`/a2a/*`, the wire contract of EvoMap's evolver client) and the admin
API of nodes (`/v1/admin/nodes`).

/a2a is outside the access middleware (its Bearer is a node secret, not an API key): each request
here authenticates its node, applies the owner key's rate limit of the endpoint class (reads, search,
writes; refused authentications per client address) and writes its audit entry, as the middleware
does for keys. Answers are always JSON; errors are `{"error": code, "message": …}`. Any other /a2a
path is a JSON 404, which the client takes as "not offered" and degrades silently.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi import status as http
from fastapi.responses import JSONResponse
from starlette.background import BackgroundTask

from app.a2a.errors import A2AError, record_audit
from app.a2a.schemas import NodeCreated, NodeIn, NodeRead, parse_envelope, sender
from app.a2a.service import NodeCaller, hub_service, node_service
from app.auth.dependencies import AdminKey
from app.auth.middleware import rate_limits
from app.auth.principal import ANONYMOUS, Principal
from app.db import SessionDep, read_connection
from app.errors import AppError, Conflict, NotFound, ValidationFailed
from app.jsonbody import JSONRoute, strict_loads
from app.state import runtime, settings_of

router = APIRouter(prefix="/a2a", tags=["a2a"])
admin_router = APIRouter(prefix="/v1/admin", tags=["admin"], route_class=JSONRoute)

# Answers a GEP client reads (see docs/a2a.md); the OpenAPI document only lists them.
ANSWER: dict[int | str, dict[str, Any]] = {
    200: {"content": {"application/json": {}}, "description": "the wire contract's answer"},
    401: {"content": {"application/json": {}}, "description": '{"error": "node_secret_required" | …}'},
}


class Call:
    """One /a2a request: its body, its node, its rate limit and its audit entry."""

    def __init__(self, request: Request, action: str, endpoint: str) -> None:
        self.request = request
        self.action = action
        self.endpoint = endpoint
        self.principal: Principal = ANONYMOUS
        self.node_id: str | None = None
        self.client = request.client.host if request.client else None
        self.target: str | None = None

    async def body(self) -> Any:
        raw = await self.request.body()
        try:
            return strict_loads(raw, max_depth=settings_of(self.request).max_json_depth)
        except ValueError as exc:
            raise A2AError(400, "invalid_json", f"the body is not valid JSON: {str(exc)[:200]}") from None

    async def authenticate(self, session: Any, sender_id: str | None) -> NodeCaller:
        """The node behind the Bearer secret; it must be `sender_id` when one is given."""
        limits = rate_limits(self.request.app.state)
        address = f"addr:{self.client}"
        self.node_id = sender_id
        if not await limits.allows("unauthenticated", address):
            raise await self.too_many("unauthenticated", address)
        try:
            caller = await node_service.authenticate(
                session, self.request.headers.get("authorization"), sender_id
            )
        except A2AError:
            await limits.hit("unauthenticated", address)
            raise
        self.node_id = caller.node_id
        await self.limit(caller.principal)
        return caller

    async def limit(self, principal: Principal) -> None:
        self.principal = principal
        identity = str(principal.key_id) if principal.key_id else f"addr:{self.client}"
        if not await rate_limits(self.request.app.state).hit(self.endpoint, identity):
            raise await self.too_many(self.endpoint, identity)

    async def too_many(self, endpoint: str, identity: str) -> A2AError:
        headers = await rate_limits(self.request.app.state).refusal_headers(endpoint, identity)
        retry = int(headers["Retry-After"])
        return A2AError(
            429,
            "rate_limited",
            f"rate limit for {endpoint} exceeded; retry in {retry} s",
            extra={"retry_after_ms": retry * 1000},
            headers=headers,
        )

    def entry(self, status: int, detail: dict[str, Any]) -> dict[str, Any]:
        """An audit entry, written once the request's transaction is over (record_audit)."""
        return {
            "key_id": self.principal.key_id,
            "actor": f"node:{self.node_id}" if self.node_id else self.principal.name,
            "role": self.principal.role.name,
            "action": self.action,
            "target": (self.target or self.node_id or "")[:300] or None,
            "client": self.client,
            "method": self.request.method,
            "path": self.request.url.path,
            "status": status,
            "detail": _json(detail) if detail else None,
        }

    async def answer(
        self, work: Callable[[], Awaitable[dict[str, Any]]], *, audited: bool = True
    ) -> JSONResponse:
        try:
            body = await work()
        except A2AError as error:
            error.audit = self.entry(error.status, {"error": error.code})
            raise
        except AppError as error:  # a registry service refused: same status, the client's shape
            converted = A2AError.from_app(error)
            converted.audit = self.entry(converted.status, {"error": converted.code})
            raise converted from None
        if not audited:
            return JSONResponse(body)
        entry = self.entry(200, _summary(body))
        return JSONResponse(body, background=BackgroundTask(record_audit, self.request, entry))


def _json(value: dict[str, Any]) -> str:
    return json.dumps(value)


def _summary(body: dict[str, Any]) -> dict[str, Any]:
    payload = body.get("payload") if isinstance(body.get("payload"), dict) else body
    assert isinstance(payload, dict)
    keep = ("status", "decision", "bundle_id", "gene_id", "version", "counted", "applied", "reason", "valid")
    return {key: payload[key] for key in keep if key in payload and payload[key] is not None}


@router.post("/hello", responses=ANSWER)
async def hello(request: Request, session: SessionDep) -> JSONResponse:
    """Register a node (open registration only), acknowledge it, or rotate its secret (`rotate_secret`)."""
    call = Call(request, "a2a:hello", "writes")

    async def work() -> dict[str, Any]:
        # Hellos are counted per client address (an open registration makes a key per new node) and
        # refused ones like refused authentications.
        limits = rate_limits(request.app.state)
        address = f"addr:{call.client}"
        if not await limits.allows("unauthenticated", address):
            raise await call.too_many("unauthenticated", address)
        await call.limit(ANONYMOUS)
        envelope = parse_envelope(await call.body(), "hello")
        call.node_id = envelope.sender_id
        try:
            answer, owner = await node_service.hello(
                session, envelope, request.headers.get("authorization"), settings_of(request)
            )
        except A2AError as error:
            if error.status in (401, 403):
                await limits.hit("unauthenticated", address)
            raise
        call.principal = owner
        return answer

    return await call.answer(work)


@router.post("/heartbeat", responses=ANSWER)
async def heartbeat(request: Request, session: SessionDep) -> JSONResponse:
    """Liveness: `{"status": "ok"}`. Never `force_update`; over the limit, the client's 2xx back-off form."""
    call = Call(request, "a2a:heartbeat", "writes")

    async def work() -> dict[str, Any]:
        body = await call.body()
        if not isinstance(body, dict):
            raise A2AError(422, "invalid_payload", "a heartbeat is a JSON object")
        await call.authenticate(session, sender(body.get("sender_id") or body.get("node_id")))
        assert call.node_id is not None
        await node_service.seen(session, call.node_id)
        return {"status": "ok"}

    try:
        return await call.answer(work, audited=False)
    except A2AError as error:
        if error.status != 429:
            raise
        # The client backs its heartbeat off only on an HTTP 2xx in this form (wire contract §0.6).
        retry_ms = int(error.extra.get("retry_after_ms", 60_000))
        window = rate_limits(request.app.state).items["writes"].get_expiry() * 1000
        return JSONResponse(
            {"status": "rate_limited", "retry_after_ms": retry_ms, "policy": {"window_ms": window}},
            background=BackgroundTask(record_audit, request, error.audit),
        )


def _publisher(name: str, dry_run: bool) -> Callable[[Request, Any], Awaitable[JSONResponse]]:
    async def endpoint(request: Request, session: SessionDep) -> JSONResponse:
        call = Call(request, f"a2a:{name}", "writes")
        state = runtime(request)

        async def work() -> dict[str, Any]:
            envelope = parse_envelope(await call.body(), name)
            caller = await call.authenticate(session, envelope.sender_id)
            call.target = envelope.message_id
            return await hub_service.publish(
                session, caller, envelope, state.embeddings, dry_run=dry_run, cpu=state.cpu
            )

        if not dry_run:
            return await call.answer(work)
        try:
            return await call.answer(work, audited=False)
        except A2AError as error:
            if error.status in (401, 403, 429):
                raise
            # The publish CLI reads a dry run's verdict from payload.valid / payload.reason.
            return JSONResponse(
                {
                    "payload": {
                        "valid": False,
                        "ok": False,
                        "reason": error.code,
                        "message": error.message,
                        **error.extra,
                    }
                }
            )

    return endpoint


router.add_api_route(
    "/validate",
    _publisher("validate", dry_run=True),
    methods=["POST"],
    responses=ANSWER,
    summary="Validate a bundle (dry run of publish)",
    description="Everything publish checks, nothing stored: `payload.valid` true, or false with a reason.",
)
router.add_api_route(
    "/publish",
    _publisher("publish", dry_run=False),
    methods=["POST"],
    responses=ANSWER,
    summary="Publish a bundle: Gene + Capsule [+ EvolutionEvent]",
    description="Envelope, Bearer ↔ sender_id, HMAC over the sorted asset ids, each asset_id recomputed, "
    "replayed message ids refused; the Gene becomes a registry version, the Capsule its evidence.",
)


@router.post("/fetch", responses=ANSWER)
async def fetch(request: Request, session: SessionDep) -> JSONResponse:
    """Search rows (`search_only`), full assets by `asset_ids` (stored bytes, unchanged) or by signals;
    task modes answer empty."""
    call = Call(request, "a2a:fetch", "search")

    async def work() -> dict[str, Any]:
        envelope = parse_envelope(await call.body(), "fetch")
        await call.authenticate(session, envelope.sender_id)
        state = runtime(request)
        async with read_connection(request) as conn:
            return await hub_service.fetch(session, conn, envelope.payload, state.embeddings, state.settings)

    return await call.answer(work, audited=False)


@router.post("/verify-solidify", responses=ANSWER)
async def verify_solidify(request: Request, session: SessionDep) -> JSONResponse:
    """The solidify permit: `{"ok": true}` when client_signature verifies with hex(sha256(secret))."""
    call = Call(request, "a2a:verify_solidify", "writes")

    async def work() -> dict[str, Any]:
        body = await call.body()
        if not isinstance(body, dict):
            raise A2AError(422, "invalid_payload", "a JSON object")
        caller = await call.authenticate(session, sender(body.get("sender_id")))
        call.target = str(body.get("gene_id"))[:200]
        return hub_service.verify_solidify(caller, body)

    return await call.answer(work)


@router.post("/assets/{asset_id}/reviews", responses=ANSWER)
async def review(asset_id: str, request: Request, session: SessionDep) -> JSONResponse:
    """A node's rating of an asset it used: an outcome report by its key (4-5 success, 1-2 failure)."""
    call = Call(request, "a2a:review", "writes")
    call.target = asset_id

    async def work() -> dict[str, Any]:
        body = await call.body()
        if not isinstance(body, dict):
            raise A2AError(422, "invalid_payload", "a JSON object")
        caller = await call.authenticate(session, sender(body.get("sender_id")))
        return await hub_service.review(session, caller, asset_id, body, settings_of(request))

    return await call.answer(work)


def _enveloped(name: str) -> Callable[[Request, Any], Awaitable[JSONResponse]]:
    async def endpoint(request: Request, session: SessionDep) -> JSONResponse:
        call = Call(request, f"a2a:{name}", "writes")

        async def work() -> dict[str, Any]:
            envelope = parse_envelope(await call.body(), name)
            caller = await call.authenticate(session, envelope.sender_id)
            target = envelope.payload.get("target_asset_id")
            call.target = target if isinstance(target, str) else envelope.message_id
            if name == "report":
                return await hub_service.report(session, caller, envelope, settings_of(request))
            if name == "decision":
                return await hub_service.decision(session, caller, envelope)
            return await hub_service.revoke(session, caller, envelope)

        return await call.answer(work)

    return endpoint


for _name, _doc in (
    ("report", "A validation report on an asset: an outcome report by the node's key when it has a verdict."),
    ("decision", "A node's accept/reject/quarantine verdict on an asset: recorded in the audit log."),
    ("revoke", "Revoke a Gene the node's key owns (or any, for an admin key)."),
):
    router.add_api_route(f"/{_name}", _enveloped(_name), methods=["POST"], responses=ANSWER, description=_doc)


@router.get("/assets/published-by-me", responses=ANSWER)
async def published_by_me(
    request: Request,
    session: SessionDep,
    node_id: Annotated[str | None, Query(max_length=40)] = None,
    limit: Annotated[int, Query(ge=1, le=200)] = 100,
    cursor: Annotated[str | None, Query(max_length=20)] = None,
    type: Annotated[str | None, Query(max_length=40)] = None,  # the client's parameter name
) -> JSONResponse:
    """The assets this node published, oldest first, each with its stored payload."""
    call = Call(request, "a2a:published_by_me", "reads")

    async def work() -> dict[str, Any]:
        caller = await call.authenticate(session, sender(node_id))
        return await hub_service.published_by(session, caller, limit=limit, cursor=cursor, asset_type=type)

    return await call.answer(work, audited=False)


@router.get("/assets/purchased", responses=ANSWER)
async def purchased(
    request: Request, session: SessionDep, node_id: Annotated[str | None, Query(max_length=40)] = None
) -> JSONResponse:
    """Nothing is sold here: always an empty list."""
    call = Call(request, "a2a:purchased", "reads")

    async def work() -> dict[str, Any]:
        await call.authenticate(session, sender(node_id))
        return {"assets": [], "count": 0, "has_more": False, "next_cursor": None}

    return await call.answer(work, audited=False)


@router.get("/assets/{asset_id}", responses=ANSWER)
async def asset(asset_id: str, request: Request, session: SessionDep) -> JSONResponse:
    """One stored asset: `{"payload": asset}` (a node identifies itself with its secret alone here)."""
    call = Call(request, "a2a:asset", "reads")

    async def work() -> dict[str, Any]:
        await call.authenticate(session, None)
        async with read_connection(request) as conn:
            return await hub_service.asset(session, conn, asset_id)

    return await call.answer(work, audited=False)


@router.api_route("/{rest:path}", methods=["GET", "POST", "PUT", "PATCH", "DELETE"], include_in_schema=False)
async def not_offered(rest: str) -> JSONResponse:
    """Everything outside the minimal contract: a JSON 404 (the client degrades silently)."""
    return JSONResponse(
        {"error": "not_found", "message": f"/a2a/{rest[:100]} is not offered by this hub"}, status_code=404
    )


# --- admin API -----------------------------------------------------------------------------------


@admin_router.post("/nodes", status_code=http.HTTP_201_CREATED, response_model=NodeCreated)
async def create_node(body: NodeIn, session: SessionDep, _: AdminKey) -> NodeCreated:
    """Mint a GEP node for a key (A2A_NODE_ID, A2A_NODE_SECRET); the secret is shown this once."""
    node, secret = await _admin(node_service.create(session, body.key_id, name=body.name))
    return NodeCreated(**node_service.fields(node), node_secret=secret)


@admin_router.get("/nodes", response_model=list[NodeRead])
async def list_nodes(session: SessionDep, _: AdminKey) -> list[NodeRead]:
    return [NodeRead(**fields) for fields in await node_service.list(session)]


@admin_router.delete("/nodes/{node_id}", response_model=NodeRead)
async def revoke_node(node_id: str, session: SessionDep, _: AdminKey) -> NodeRead:
    """Revoke a node: its secret is refused from then on (its key's other nodes are not touched)."""
    return NodeRead(**await _admin(node_service.revoke(session, node_id)))


async def _admin(work: Awaitable[Any]) -> Any:
    """The admin API answers problem documents, like the rest of /v1."""
    try:
        return await work
    except A2AError as error:
        kind = {404: NotFound, 409: Conflict}.get(error.status, ValidationFailed)
        raise kind(error.message) from None
