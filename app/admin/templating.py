"""Rendering the admin pages: one Jinja2 environment, autoescaped, strict about undefined names."""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

from fastapi import Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates
from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from app.admin.auth import CSRF_FIELD, csrf_token, pop_flashes
from app.gep.document import guards_of

TEMPLATES = Path(__file__).parent / "templates"


def url(request: Request, name: str, query: Mapping[str, Any] | None = None, **path_params: Any) -> str:
    """A path (no scheme or host) to a named admin route, with an optional query string."""
    # Route converters insert values as they are: a producer named "a#b" must not end the path.
    quoted = {key: quote(str(value), safe="/:") for key, value in path_params.items()}
    path = request.url_for(name, **quoted).path
    params = {k: v for k, v in (query or {}).items() if v not in (None, "")}
    return path + (f"?{urlencode(params)}" if params else "")


def ago(seconds: float | None) -> str:
    if seconds is None:
        return "—"
    seconds = max(0.0, seconds)
    for size, unit in ((86400, "d"), (3600, "h"), (60, "min")):
        if seconds >= size:
            return f"{seconds / size:.1f} {unit}"
    return f"{seconds:.0f} s"


def when(moment: datetime | None) -> str:
    if moment is None:
        return "—"
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S UTC")


def day(moment: datetime | None) -> str:
    return "—" if moment is None else moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M")


def short_asset(asset_id: str | None) -> str:
    if not asset_id:
        return "—"
    return asset_id[:19] + "…"


def pretty(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2, sort_keys=True)


def _context(request: Request) -> dict[str, Any]:
    has_session = "session" in request.scope
    return {
        "admin": getattr(request.state, "admin", None),
        "active": None,
        "csrf_field": CSRF_FIELD,
        "csrf_token": csrf_token(request) if has_session else "",
        "flashes": pop_flashes(request) if has_session else [],
    }


def _environment() -> Environment:
    env = Environment(
        loader=FileSystemLoader(TEMPLATES),
        # Documents, trajectories and model names are untrusted text: everything is escaped.
        autoescape=select_autoescape(default=True, default_for_string=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters.update(ago=ago, when=when, day=day, short_asset=short_asset, pretty=pretty, guards=guards_of)
    return env


templates = Jinja2Templates(env=_environment(), context_processors=[_context])


def render(
    request: Request, template: str, context: Mapping[str, Any] | None = None, status_code: int = 200
) -> HTMLResponse:
    values = dict(context or {})
    values["url"] = lambda name, query=None, **params: url(request, name, query, **params)
    response: HTMLResponse = templates.TemplateResponse(request, template, values, status_code=status_code)
    return response


def render_error(request: Request, status: int, title: str, detail: str) -> HTMLResponse:
    return render(request, "error.html", {"status": status, "title": title, "detail": detail}, status)
