"""The admin sub-application mounted at /admin: its own sessions, error pages and security headers."""

from __future__ import annotations

import logging
from pathlib import Path
from urllib.parse import urlencode

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware import Middleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.admin.auth import AdminSessionMiddleware, LoginRequired, admin_of
from app.admin.router import login_shortcuts, pages, public
from app.admin.tables import TABLES_PATH, mount_tables
from app.admin.templating import render_error
from app.errors import AppError, DatabaseUnavailable, database_unavailable

log = logging.getLogger(__name__)

MOUNT_PATH = "/admin"
STATIC = Path(__file__).parent / "static"
# Our pages load nothing from elsewhere and run no inline script; sqladmin's tables need their own rules.
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
)


class SecurityHeaders:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        ours = not scope["path"].startswith(MOUNT_PATH + TABLES_PATH + "/")

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = message.setdefault("headers", [])
                headers.append((b"x-content-type-options", b"nosniff"))
                headers.append((b"referrer-policy", b"same-origin"))
                headers.append((b"x-frame-options", b"DENY"))
                if not scope["path"].startswith(MOUNT_PATH + "/static/"):
                    # Pages show unreleased provenance: never kept by a shared cache or the back button.
                    headers.append((b"cache-control", b"no-store"))
                if ours:
                    headers.append((b"content-security-policy", CSP.encode()))
            await send(message)

        await self.app(scope, receive, with_headers)


async def _login_redirect(request: Request, exc: Exception) -> Response:
    target = request.url.path + (f"?{request.url.query}" if request.url.query else "")
    query = urlencode({"next": target}) if request.method == "GET" else ""
    return RedirectResponse(f"{MOUNT_PATH}/login" + (f"?{query}" if query else ""), status_code=303)


async def _app_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, AppError)
    page = render_error(request, exc.status, exc.title, exc.detail)
    page.headers.update(exc.headers)  # Retry-After, for one
    return page


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, StarletteHTTPException)
    if "session" in request.scope and getattr(request.state, "admin", None) is None:
        # No route matched, so no dependency looked at the session: the page still knows who asks.
        request.state.admin = await admin_of(request)
    title = "Page not found" if exc.status_code == 404 else "Request refused"
    detail = exc.detail if isinstance(exc.detail, str) else title
    return render_error(request, exc.status_code, title, detail)


async def _invalid_request(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, RequestValidationError)
    errors = exc.errors()
    first = errors[0] if errors else {}
    where = ".".join(str(part) for part in first.get("loc", ()) if part not in ("query", "path", "body"))
    detail = f"{where}: {first.get('msg', 'invalid')}" if where else str(first.get("msg", "invalid"))
    return render_error(request, 422, "Invalid request", detail)


async def _unexpected(request: Request, exc: Exception) -> Response:
    if database_unavailable(exc):
        log.warning("database unavailable: %s", exc)
        return await _app_error(request, DatabaseUnavailable())
    log.exception("unhandled error on %s %s", request.method, request.url.path, exc_info=exc)
    return render_error(
        request, 500, "Something went wrong", "An unexpected error occurred; it has been logged."
    )


def create_admin_app(parent: FastAPI) -> FastAPI:
    """The admin pages, sharing the parent's state (settings, runtime, key cache) and dependency overrides.

    A mounted app's lifespan never runs and `request.app` is the mounted app, so sharing the parent's
    State object is what lets the admin use the same runtime (and `SessionDep`) as the API.
    """
    admin = FastAPI(
        title="Genebank admin",
        openapi_url=None,
        docs_url=None,
        redoc_url=None,
        middleware=[Middleware(SecurityHeaders), Middleware(AdminSessionMiddleware, state=parent.state)],
        exception_handlers={
            LoginRequired: _login_redirect,
            AppError: _app_error,
            StarletteHTTPException: _http_error,
            RequestValidationError: _invalid_request,
            Exception: _unexpected,
        },
    )
    admin.state = parent.state
    admin.dependency_overrides = parent.dependency_overrides
    admin.mount("/static", StaticFiles(directory=STATIC), name="static")
    admin.include_router(public)
    admin.include_router(login_shortcuts)
    admin.include_router(pages)
    mount_tables(admin, parent.state, f"{MOUNT_PATH}/login")
    return admin
