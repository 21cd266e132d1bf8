"""`/favicon.ico`, answered before the access middleware.

Browsers ask for it by themselves, with no key, on any page that names no icon (a JSON answer, a
table page): the access middleware would refuse it with a 401. The icon is the admin pages' own.
"""

from __future__ import annotations

from pathlib import Path

from starlette.responses import Response
from starlette.types import ASGIApp, Receive, Scope, Send

ICON = Path(__file__).parent / "admin" / "static" / "favicon.ico"


class FaviconMiddleware:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.icon = ICON.read_bytes()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"] == "/favicon.ico" and scope["method"] in ("GET", "HEAD"):
            response = Response(
                self.icon, media_type="image/x-icon", headers={"Cache-Control": "max-age=86400"}
            )
            await response(scope, receive, send)
            return
        await self.app(scope, receive, send)
