"""The admin pages: parse the request, call the admin service, render a template. Nothing else."""

from __future__ import annotations

import uuid
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Form, Path, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import BeforeValidator, Field, StringConstraints

from app.admin.auth import (
    AdminDep,
    CsrfChecked,
    admin_of,
    audit_refusal,
    current_admin,
    flash,
    log_in,
    log_out,
)
from app.admin.repository import GeneFilters, GeneSort
from app.admin.service import ACTIONS, admin_service
from app.admin.tables import TABLES_PATH
from app.admin.templating import render, url
from app.auth.middleware import rate_limits
from app.db import SessionDep
from app.errors import AppError
from app.state import runtime, settings_of


def _blank_is_none(value: Any) -> Any:
    return None if isinstance(value, str) and not value.strip() else value


# Filter forms send every field, empty ones as "": those mean "any".
BlankIsNone = BeforeValidator(_blank_is_none)
# The length limit applies to the string, not to the None a blank field becomes.
Text = Annotated[Annotated[str, StringConstraints(max_length=200)] | None, BlankIsNone, Query()]
LongText = Annotated[Annotated[str, StringConstraints(max_length=2000)] | None, BlankIsNone, Query()]
Positive = Annotated[Annotated[int, Field(ge=1, le=2**31 - 1)] | None, BlankIsNone, Query()]
Share = Annotated[Annotated[float, Field(ge=0, le=1)] | None, BlankIsNone, Query()]
Status = Annotated[Literal["candidate", "promoted", "deprecated", "revoked"] | None, BlankIsNone, Query()]
PAGE_SIZE = 25

public = APIRouter()
pages = APIRouter(dependencies=[Depends(current_admin)])
login_shortcuts = APIRouter()


def _client(request: Request) -> str | None:
    return request.client.host if request.client else None


def _next_path(value: str | None) -> str:
    """Only a path inside the admin is followed after login: never another site."""
    if value and value.startswith("/admin/") and not value.startswith("//") and "\\" not in value:
        return value
    return "/admin/"


@public.get("/login", name="login", response_class=HTMLResponse)
async def login_page(
    request: Request,
    next_path: Annotated[LongText, Query(alias="next")] = None,
) -> Response:
    if await admin_of(request) is not None:
        return RedirectResponse(_next_path(next_path), status_code=303)
    return render(request, "login.html", {"next": _next_path(next_path), "error": None})


@public.post("/login", name="login_submit", response_class=HTMLResponse, dependencies=[CsrfChecked])
async def login_submit(
    request: Request,
    session: SessionDep,
    key: Annotated[str, Form(max_length=300)] = "",
    next_path: Annotated[str, Form(alias="next", max_length=2000)] = "/admin/",
) -> Response:
    address = f"addr:{_client(request)}"
    limits = rate_limits(request.app.state)
    if not await limits.hit("admin_login", address):
        limited = await limits.refusal("admin_login", address, "sign-in attempts")
        await audit_refusal(request, "admin.login", limited.status, limited.detail)
        page = render(
            request, "login.html", {"next": _next_path(next_path), "error": limited.detail}, limited.status
        )
        page.headers["Retry-After"] = limited.headers["Retry-After"]
        return page
    try:
        admin = await log_in(request, key)
    except AppError as refused:
        await audit_refusal(request, "admin.login", refused.status, refused.detail)
        return render(
            request, "login.html", {"next": _next_path(next_path), "error": refused.detail}, refused.status
        )
    await admin_service.audit(
        session,
        admin.principal,
        "admin.login",
        str(admin.key_id),
        client=_client(request),
        path=request.url.path,
        status=200,
    )
    return RedirectResponse(_next_path(next_path), status_code=303)


@public.post("/logout", name="logout", dependencies=[CsrfChecked])
async def logout(request: Request) -> Response:
    log_out(request)
    flash(request, "You are signed out.")
    return RedirectResponse(url(request, "login"), status_code=303)


# sqladmin brings its own login form and a GET logout link; ours (with their CSRF tokens) take over.
@login_shortcuts.get(TABLES_PATH + "/login", include_in_schema=False)
async def tables_login(request: Request) -> Response:
    return RedirectResponse(url(request, "login"), status_code=303)


@login_shortcuts.get(TABLES_PATH + "/logout", include_in_schema=False, response_class=HTMLResponse)
async def tables_logout(request: Request) -> Response:
    """Signing out changes state, so it takes a form post: this page asks for it."""
    return render(request, "logout.html")


@pages.get("/", name="dashboard", response_class=HTMLResponse)
async def dashboard(request: Request, session: SessionDep) -> Response:
    return render(request, "dashboard.html", {"page": await admin_service.dashboard(session)})


@pages.get("/genes", name="genes", response_class=HTMLResponse)
async def genes(
    request: Request,
    session: SessionDep,
    q: Text = None,
    family: Text = None,
    category: Text = None,
    producer: Text = None,
    status: Status = None,
    min_quality: Share = None,
    sort: Annotated[GeneSort, Query()] = "updated",
    order: Annotated[Literal["asc", "desc"], Query()] = "desc",
    page: Annotated[int, Query(ge=1, le=100_000)] = 1,
) -> Response:
    filters = GeneFilters(
        text=q,
        task_family=family,
        category=category,
        producer_model=producer,
        status=status,
        min_quality=min_quality,
    )
    listing = await admin_service.genes(
        session, filters, sort=sort, descending=order == "desc", page=page, size=PAGE_SIZE
    )
    query = {
        "q": q,
        "family": family,
        "category": category,
        "producer": producer,
        "status": status,
        "min_quality": min_quality,
    }
    return render(
        request,
        "genes.html",
        {"listing": listing, "query": query, "sort": sort, "order": order, "statuses": list(ACTIONS)},
    )


@pages.get("/genes/{gene_id}", name="gene_page", response_class=HTMLResponse)
async def gene_page(request: Request, session: SessionDep, gene_id: str) -> Response:
    page = await admin_service.gene_page(
        session, gene_id, settings_of(request), lambda name, **params: url(request, name, **params)
    )
    return render(request, "gene.html", {"page": page})


@pages.get("/genes/{gene_id}/diff", name="gene_diff", response_class=HTMLResponse)
async def gene_diff(
    request: Request,
    session: SessionDep,
    gene_id: str,
    old: Annotated[Positive, Query(alias="from")] = None,
    new: Annotated[Positive, Query(alias="to")] = None,
) -> Response:
    return render(request, "diff.html", {"page": await admin_service.diff(session, gene_id, old, new)})


@pages.post("/genes/{gene_id}/status", name="gene_status", dependencies=[CsrfChecked])
async def gene_status(
    request: Request,
    session: SessionDep,
    admin: AdminDep,
    gene_id: str,
    status: Annotated[str, Form(max_length=20)] = "",
    reason: Annotated[str, Form(max_length=5000)] = "",
) -> Response:
    result = await admin_service.set_status(
        session, gene_id, status, reason, admin, client=_client(request), path=request.url.path
    )
    flash(request, result.message, "success" if result.ok else "error")
    return RedirectResponse(url(request, "gene_page", gene_id=gene_id) + "#actions", status_code=303)


@pages.post("/genes/{gene_id}/guards/{guard_id}", name="guard_review", dependencies=[CsrfChecked])
async def guard_review(
    request: Request,
    session: SessionDep,
    admin: AdminDep,
    gene_id: str,
    guard_id: Annotated[int, Path(ge=1, le=2**63 - 1)],
    decision: Annotated[str, Form(max_length=20)] = "",
    note: Annotated[str, Form(max_length=5000)] = "",
) -> Response:
    result = await admin_service.review_guard(
        session,
        gene_id,
        guard_id,
        decision,
        note,
        admin,
        runtime(request).embeddings,
        client=_client(request),
        path=request.url.path,
    )
    flash(request, result.message, "success" if result.ok else "error")
    return RedirectResponse(url(request, "gene_page", gene_id=gene_id) + "#guards", status_code=303)


@pages.get("/producers", name="producers", response_class=HTMLResponse)
async def producers(request: Request, session: SessionDep) -> Response:
    rows = await admin_service.producers(session, settings_of(request))
    return render(request, "producers.html", {"rows": rows})


@pages.get("/producers/{model:path}", name="producer_page", response_class=HTMLResponse)
async def producer_page(request: Request, session: SessionDep, model: str) -> Response:
    page = await admin_service.producer(session, model, settings_of(request))
    return render(request, "producer.html", {"page": page})


@pages.get("/trajectories", name="trajectories", response_class=HTMLResponse)
async def trajectories(
    request: Request,
    session: SessionDep,
    state: Annotated[Literal["pending", "merged", "rejected"] | None, BlankIsNone, Query()] = None,
    producer: Text = None,
    gene: Text = None,
    cursor: LongText = None,
) -> Response:
    listing = await admin_service.trajectories(
        session,
        state=state,
        producer_model=producer,
        gene_id=gene,
        cursor=cursor,
        size=PAGE_SIZE,
    )
    query = {"state": state, "producer": producer, "gene": gene}
    return render(request, "trajectories.html", {"listing": listing, "query": query})


@pages.get("/trajectories/{trajectory_id}", name="trajectory_page", response_class=HTMLResponse)
async def trajectory_page(request: Request, session: SessionDep, trajectory_id: uuid.UUID) -> Response:
    return render(
        request, "trajectory.html", {"page": await admin_service.trajectory(session, trajectory_id)}
    )


@pages.get("/events", name="events", response_class=HTMLResponse)
async def events(
    request: Request,
    session: SessionDep,
    gene: Text = None,
    kind: Annotated[Literal["published", "founded", "merged"] | None, BlankIsNone, Query()] = None,
    cursor: LongText = None,
) -> Response:
    feed = await admin_service.events(session, gene_id=gene, kind=kind, cursor=cursor, size=PAGE_SIZE)
    return render(request, "events.html", {"feed": feed, "query": {"gene": gene, "kind": kind}})


@pages.get("/audit", name="audit", response_class=HTMLResponse)
async def audit(
    request: Request,
    session: SessionDep,
    key: Annotated[uuid.UUID | None, BlankIsNone, Query()] = None,
    action: Text = None,
    target: LongText = None,
    outcome: Annotated[Literal["failed", "succeeded"] | None, BlankIsNone, Query()] = None,
    cursor: LongText = None,
) -> Response:
    listing = await admin_service.audit_log(
        session,
        key_id=key,
        action=action,
        target=target,
        failed=None if outcome is None else outcome == "failed",
        cursor=cursor,
        size=PAGE_SIZE,
    )
    query = {"key": key, "action": action, "target": target, "outcome": outcome}
    return render(request, "audit.html", {"listing": listing, "query": query})
