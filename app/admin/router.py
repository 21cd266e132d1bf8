"""The admin pages: parse the request, call the page family's service, render a template. Nothing else."""

from __future__ import annotations

import uuid
from datetime import UTC, date, datetime, time, timedelta
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Form, Path, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import BeforeValidator, Field, StringConstraints

from app.admin.activity.service import activity_pages
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
from app.admin.common import PAGE_SIZE, AdminNotFound, audit_action
from app.admin.dashboard.service import dashboard_page
from app.admin.genes.repository import GeneFilters, GeneSort
from app.admin.genes.service import ACTIONS, gene_pages
from app.admin.producers.service import producer_pages
from app.admin.tables import TABLES_PATH
from app.admin.templating import render, url
from app.admin.trajectories.service import trajectory_pages
from app.admin.webhooks.service import webhook_pages
from app.auth.middleware import rate_limits
from app.db import SessionDep
from app.errors import AppError
from app.schemas import CursorParam, Limit, page_size
from app.state import runtime, settings_of
from app.trajectories.schemas import RunFilters


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
RunState = Annotated[Literal["pending", "merged", "rejected"] | None, BlankIsNone, Query()]
Day = Annotated[date | None, BlankIsNone, Query()]

public = APIRouter()
pages = APIRouter(dependencies=[Depends(current_admin)])
login_shortcuts = APIRouter()


def _size(request: Request, limit: int | None) -> int:
    """Rows a page: the admin's own default, or ?limit=, capped like every list's."""
    return page_size(settings_of(request), limit or PAGE_SIZE)


def _start_of(day: date | None) -> datetime | None:
    return None if day is None else datetime.combine(day, time.min, UTC)


def _end_of(day: date | None) -> datetime | None:
    """The start of the next day (None past the calendar's last one: no bound at all)."""
    return None if day is None or day == date.max else _start_of(day + timedelta(days=1))


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
    await audit_action(
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
    return render(request, "dashboard.html", {"page": await dashboard_page.dashboard(session)})


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
    limit: Limit = None,
) -> Response:
    filters = GeneFilters(
        text=q,
        task_family=family,
        category=category,
        producer_model=producer,
        status=status,
        min_quality=min_quality,
    )
    listing = await gene_pages.genes(
        session, filters, sort=sort, descending=order == "desc", page=page, size=_size(request, limit)
    )
    query = {
        "q": q,
        "family": family,
        "category": category,
        "producer": producer,
        "status": status,
        "min_quality": min_quality,
        "limit": limit,
    }
    return render(
        request,
        "genes.html",
        {"listing": listing, "query": query, "sort": sort, "order": order, "statuses": list(ACTIONS)},
    )


@pages.get("/genes/{gene_id}", name="gene_page", response_class=HTMLResponse)
async def gene_page(request: Request, session: SessionDep, gene_id: str) -> Response:
    page = await gene_pages.gene_page(
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
    return render(request, "diff.html", {"page": await gene_pages.diff(session, gene_id, old, new)})


@pages.post("/genes/{gene_id}/status", name="gene_status", dependencies=[CsrfChecked])
async def gene_status(
    request: Request,
    session: SessionDep,
    admin: AdminDep,
    gene_id: str,
    status: Annotated[str, Form(max_length=20)] = "",
    reason: Annotated[str, Form(max_length=5000)] = "",
) -> Response:
    result = await gene_pages.set_status(
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
    result = await gene_pages.review_guard(
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


@pages.get("/webhooks", name="webhooks", response_class=HTMLResponse)
async def webhooks(request: Request, session: SessionDep) -> Response:
    return render(request, "webhooks.html", {"subscriptions": await webhook_pages.subscriptions(session)})


@pages.get("/webhooks/{subscription_id}", name="webhook_page", response_class=HTMLResponse)
async def webhook_page(
    request: Request,
    session: SessionDep,
    subscription_id: uuid.UUID,
    limit: Limit = None,
    cursor: CursorParam = None,
) -> Response:
    page = await webhook_pages.subscription(session, subscription_id, cursor, _size(request, limit))
    if page is None:
        raise AdminNotFound(f"no webhook subscription {subscription_id}")
    return render(request, "webhook.html", {"page": page})


@pages.post(
    "/webhooks/{subscription_id}/deliveries/{delivery_id}/replay",
    name="webhook_replay",
    dependencies=[CsrfChecked],
)
async def webhook_replay(
    request: Request,
    session: SessionDep,
    admin: AdminDep,
    subscription_id: uuid.UUID,
    delivery_id: Annotated[int, Path(ge=1, le=2**63 - 1)],
) -> Response:
    result = await webhook_pages.replay(
        session, subscription_id, delivery_id, admin, client=_client(request), path=request.url.path
    )
    flash(request, result.message, "success" if result.ok else "error")
    return RedirectResponse(url(request, "webhook_page", subscription_id=subscription_id), status_code=303)


@pages.get("/producers", name="producers", response_class=HTMLResponse)
async def producers(request: Request, session: SessionDep) -> Response:
    rows = await producer_pages.producers(session, settings_of(request))
    return render(request, "producers.html", {"rows": rows})


@pages.get("/producers/{model:path}", name="producer_page", response_class=HTMLResponse)
async def producer_page(request: Request, session: SessionDep, model: str) -> Response:
    page = await producer_pages.producer(session, model, settings_of(request))
    return render(request, "producer.html", {"page": page})


@pages.get("/keys/{key_id}", name="key_page", response_class=HTMLResponse)
async def key_page(
    request: Request,
    session: SessionDep,
    admin: AdminDep,
    key_id: uuid.UUID,
    state: RunState = None,
    gene: Text = None,
    family: Text = None,
    since: Day = None,
    until: Day = None,
    cursor: CursorParam = None,
    limit: Limit = None,
) -> Response:
    """A key's runs as GET /v1/trajectories shows them to that key; the days are whole UTC days."""
    filters = RunFilters(
        state=state,
        gene_id=gene,
        task_family=family,
        since=_start_of(since),
        until=_end_of(until),
    )
    page = await producer_pages.key_runs(
        session, key_id, admin, filters, cursor=cursor, size=_size(request, limit)
    )
    query = {
        "state": state,
        "gene": gene,
        "family": family,
        "since": since,
        "until": until,
        "limit": limit,
    }
    return render(request, "key.html", {"page": page, "query": query})


@pages.get("/trajectories", name="trajectories", response_class=HTMLResponse)
async def trajectories(
    request: Request,
    session: SessionDep,
    state: RunState = None,
    producer: Text = None,
    gene: Text = None,
    cursor: CursorParam = None,
    limit: Limit = None,
) -> Response:
    listing = await trajectory_pages.trajectories(
        session,
        state=state,
        producer_model=producer,
        gene_id=gene,
        cursor=cursor,
        size=_size(request, limit),
    )
    query = {"state": state, "producer": producer, "gene": gene, "limit": limit}
    return render(request, "trajectories.html", {"listing": listing, "query": query})


@pages.get("/trajectories/{trajectory_id}", name="trajectory_page", response_class=HTMLResponse)
async def trajectory_page(request: Request, session: SessionDep, trajectory_id: uuid.UUID) -> Response:
    return render(
        request, "trajectory.html", {"page": await trajectory_pages.trajectory(session, trajectory_id)}
    )


@pages.get("/events", name="events", response_class=HTMLResponse)
async def events(
    request: Request,
    session: SessionDep,
    gene: Text = None,
    kind: Annotated[Literal["published", "founded", "merged"] | None, BlankIsNone, Query()] = None,
    cursor: CursorParam = None,
    limit: Limit = None,
) -> Response:
    feed = await activity_pages.events(
        session, gene_id=gene, kind=kind, cursor=cursor, size=_size(request, limit)
    )
    query = {"gene": gene, "kind": kind, "limit": limit}
    return render(request, "events.html", {"feed": feed, "query": query})


@pages.get("/audit", name="audit", response_class=HTMLResponse)
async def audit(
    request: Request,
    session: SessionDep,
    key: Annotated[uuid.UUID | None, BlankIsNone, Query()] = None,
    action: Text = None,
    target: LongText = None,
    outcome: Annotated[Literal["failed", "succeeded"] | None, BlankIsNone, Query()] = None,
    cursor: CursorParam = None,
    limit: Limit = None,
) -> Response:
    listing = await activity_pages.audit_log(
        session,
        key_id=key,
        action=action,
        target=target,
        failed=None if outcome is None else outcome == "failed",
        cursor=cursor,
        size=_size(request, limit),
    )
    query = {"key": key, "action": action, "target": target, "outcome": outcome, "limit": limit}
    return render(request, "audit.html", {"listing": listing, "query": query})
