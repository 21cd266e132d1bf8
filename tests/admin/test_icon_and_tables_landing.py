"""The admin pages' icon (never a 401) and the landing page of /admin/tables/ (with the way back)."""

from __future__ import annotations

import re
import struct
from collections.abc import Callable

import httpx

from tests.admin.conftest import sign_in

ICON_LINK = re.compile(r'<link rel="icon" href="([^"]+)"')


async def test_favicon_ico_answers_without_a_key(browser_client: Callable[[], httpx.AsyncClient]) -> None:
    client = browser_client()
    for method in ("GET", "HEAD"):
        icon = await client.request(method, "/favicon.ico")
        assert icon.status_code == 200, icon.text
        assert icon.headers["content-type"] == "image/x-icon"
    icon = await client.get("/favicon.ico")
    reserved, kind, count = struct.unpack("<HHH", icon.content[:6])
    assert (reserved, kind) == (0, 1) and count >= 1
    offset = struct.unpack("<I", icon.content[18:22])[0]
    assert icon.content[offset : offset + 8] == b"\x89PNG\r\n\x1a\n"
    # Only the icon: everything else at the root still needs a key.
    assert (await client.get("/favicon.png")).status_code == 401


async def test_every_kind_of_admin_page_names_an_icon_that_loads_without_a_session(
    browser_client: Callable[[], httpx.AsyncClient], keys: dict[str, str]
) -> None:
    anonymous = browser_client()
    signed_in = browser_client()
    assert (await sign_in(signed_in, keys["admin"])).status_code == 303
    pages = [(anonymous, "/admin/login"), (signed_in, "/admin/"), (signed_in, "/admin/tables/outcome/list")]
    for client, path in pages:
        page = await client.get(path)
        assert page.status_code == 200, path
        found = ICON_LINK.search(page.text)
        assert found, f"{path} names no icon: the browser would ask for /favicon.ico"
        icon = await anonymous.get(found.group(1))
        assert icon.status_code == 200 and icon.headers["content-type"].startswith("image/"), path


async def test_the_tables_landing_page_lists_the_tables_and_leads_back(
    browser_client: Callable[[], httpx.AsyncClient], keys: dict[str, str]
) -> None:
    client = browser_client()
    assert (await sign_in(client, keys["admin"])).status_code == 303
    landing = await client.get("/admin/tables/")
    assert landing.status_code == 200
    assert '<a href="/admin/" id="back-to-admin">' in landing.text
    tables = re.findall(
        r'<li><a href="(http://genebank\.test/admin/tables/[^"]+/list)">([^<]+)</a></li>', landing.text
    )
    names = {name for _, name in tables}
    assert {"API keys", "Trajectories", "Outcomes", "Guards", "Audit log"} <= names, names
    assert len(tables) == 8
    for url, name in tables:
        assert (await client.get(url)).status_code == 200, name
