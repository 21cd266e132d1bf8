"""/docs (Swagger UI) and /redoc render in a real Chromium with every request off this machine refused."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from app.config import Settings
from tests import external
from tests.live import CHROMIUM_ARGS, LiveServer

pytestmark = pytest.mark.browser
CHROMIUM = external.chromium()

LOCAL_HOSTS = {"127.0.0.1", "localhost", "[::1]", "::1"}


async def test_api_docs_render_offline(tmp_path: Path) -> None:
    from playwright.async_api import async_playwright

    # The pages need no database: the server runs without its lifespan (no runtime is ever touched).
    settings = Settings(database_url="postgresql://unused@127.0.0.1:1/unused", data_dir=tmp_path)
    blocked: list[tuple[str, str]] = []
    with LiveServer(settings, lifespan="off") as server:
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            context = await browser.new_context(base_url=server.url)

            async def offline(route: Any) -> None:
                url = route.request.url
                if urlsplit(url).hostname in LOCAL_HOSTS or url.startswith("data:"):
                    await route.continue_()
                else:
                    blocked.append((route.request.resource_type, route.request.url))
                    await route.abort("internetdisconnected")

            await context.route("**/*", offline)
            page = await context.new_page()
            page.set_default_timeout(20_000)

            await page.goto("/docs")
            operations = page.locator(".opblock")
            await operations.first.wait_for()
            paths = await page.locator(".opblock-summary-path").all_inner_texts()
            assert "/v1/genes/validate" in {path.replace("\u200b", "") for path in paths}
            assert await operations.count() >= 25
            assert await page.locator(".swagger-ui .info .title").inner_text() != ""

            await page.goto("/redoc")
            await page.get_by_text("Publish a Gene version", exact=False).first.wait_for()
            menu = await page.locator("[role=menuitem], li[data-item-id] label").all_inner_texts()
            assert len(menu) >= 25, menu[:5]

            await browser.close()
    # ReDoc's footer asks for the Redocly logo and drops the <img> when that fails: cosmetic. Nothing
    # the pages need (script, style sheet, font, the OpenAPI document) may come from elsewhere.
    needed = [(kind, url) for kind, url in blocked if kind != "image"]
    assert needed == [], f"the docs pages need something off this machine: {needed}"
