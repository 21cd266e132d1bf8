"""Admin sign-in: which keys get a session, what the cookie holds, CSRF, logout, and the key re-check."""

from __future__ import annotations

import base64
import json
import os
import stat
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlencode

import httpx
import pytest
from pydantic import SecretStr
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.admin import auth
from app.admin.secret import SIGNING_FILE, InsecureSecretFile, session_secret
from app.auth.principal import Role
from app.auth.service import key_service
from app.config import Settings
from app.models import AuditEntry, GeneStatusChange
from tests.admin.conftest import History, csrf_of, sign_in

BrowserClient = Callable[[], httpx.AsyncClient]


async def _audit(session: AsyncSession, action: str) -> list[AuditEntry]:
    stmt = select(AuditEntry).where(AuditEntry.action == action).order_by(AuditEntry.id)
    return list((await session.scalars(stmt)).all())


@pytest.mark.parametrize("path", ["/admin/", "/admin/genes", "/admin/audit", "/admin/tables/"])
async def test_pages_send_strangers_to_the_login_page(browser_client: BrowserClient, path: str) -> None:
    response = await browser_client().get(path)
    assert response.status_code == 303
    location = response.headers["location"]
    assert location.startswith("/admin/login")
    if not path.startswith("/admin/tables"):
        assert location == "/admin/login?" + urlencode({"next": path})


async def test_the_login_page_is_a_labelled_form_with_a_csrf_token(browser_client: BrowserClient) -> None:
    page = await browser_client().get("/admin/login")
    assert page.status_code == 200
    assert "<title>Sign in · Genebank admin</title>" in page.text
    assert '<label for="key">Admin API key</label>' in page.text
    assert 'type="password"' in page.text and 'autocomplete="off"' in page.text
    assert len(csrf_of(page.text)) >= 32
    assert "content-security-policy" in page.headers and page.headers["x-frame-options"] == "DENY"
    assert page.headers["cache-control"] == "no-store"


@pytest.mark.parametrize(
    ("who", "status", "says"),
    [
        ("wrong", 401, "not a Genebank API key"),
        ("unknown", 401, "unknown API key"),
        ("revoked", 401, "revoked"),
        ("consumer", 403, "is a consumer key"),
        ("producer", 403, "is a producer key"),
    ],
)
async def test_only_a_live_admin_key_signs_in(
    browser_client: BrowserClient,
    keys: dict[str, str],
    session: AsyncSession,
    who: str,
    status: int,
    says: str,
) -> None:
    token = {
        "wrong": "hunter2",
        "unknown": "gb_AAAAAAAAAAAA_" + "x" * 43,
    }.get(who) or keys[who]
    client = browser_client()
    refused = await sign_in(client, token)
    assert refused.status_code == status
    assert says in refused.text and 'aria-invalid="true"' in refused.text
    assert token not in refused.text  # the key is never echoed back
    assert (await client.get("/admin/")).status_code == 303
    [entry] = await _audit(session, "admin.login")
    assert (entry.status, entry.actor, entry.client) == (status, "anonymous", "127.0.0.1")


async def test_an_admin_key_gets_a_hardened_cookie_holding_only_the_key_id(
    browser_client: BrowserClient, keys: dict[str, str], session: AsyncSession
) -> None:
    client = browser_client()
    response = await sign_in(client, keys["admin"], next_path="/admin/genes")
    assert response.status_code == 303 and response.headers["location"] == "/admin/genes"
    cookie = response.headers["set-cookie"]
    attributes = {part.strip().split("=")[0].lower(): part for part in cookie.split(";")}
    assert {"httponly", "path", "max-age", "samesite"} <= set(attributes)
    assert "secure" not in attributes  # GENEBANK_ADMIN_SESSION_HTTPS_ONLY is off by default
    assert attributes["path"].strip() == "path=/admin"
    assert attributes["samesite"].strip().lower() == "samesite=lax"
    assert attributes["max-age"].strip() == "Max-Age=28800"
    payload = cookie.split(";")[0].split("=", 1)[1].split(".")[0]
    data = json.loads(base64.b64decode(payload + "=" * (-len(payload) % 4)))
    assert set(data) == {"key_id", "login_at", "csrf"}
    assert keys["admin"] not in cookie
    dashboard = await client.get("/admin/")
    assert dashboard.status_code == 200 and "Signed in as <strong>test admin</strong>" in dashboard.text
    [entry] = await _audit(session, "admin.login")
    assert (entry.status, entry.actor, entry.role, entry.target) == (
        200,
        "test admin",
        "admin",
        data["key_id"],
    )


@pytest.mark.parametrize(
    "next_path", ["https://evil.example/", "//evil.example/admin/", "/v1/genes", "/admin\\x"]
)
async def test_after_login_only_admin_paths_are_followed(
    browser_client: BrowserClient, keys: dict[str, str], next_path: str
) -> None:
    response = await sign_in(browser_client(), keys["admin"], next_path=next_path)
    assert response.headers["location"] == "/admin/"


async def test_login_without_the_forms_csrf_token_is_refused(
    browser_client: BrowserClient, keys: dict[str, str]
) -> None:
    client = browser_client()
    await client.get("/admin/login")
    missing = await client.post("/admin/login", data={"key": keys["admin"]})
    assert missing.status_code == 403 and "did not come from this site" in missing.text
    other = browser_client()
    foreign = csrf_of((await other.get("/admin/login")).text)
    forged = await client.post("/admin/login", data={"key": keys["admin"], "csrf_token": foreign})
    assert forged.status_code == 403
    assert (await client.get("/admin/")).status_code == 303


async def test_a_status_change_without_the_csrf_token_changes_nothing(
    signed_in: httpx.AsyncClient, history: History, session: AsyncSession
) -> None:
    path = f"/admin/genes/{history.gene_id}/status"
    for token in (None, "not-the-token"):
        data = {"status": "revoked", "reason": "forged by another site"}
        if token:
            data["csrf_token"] = token
        refused = await signed_in.post(path, data=data)
        assert refused.status_code == 403
    assert (await signed_in.get(f"/admin/genes/{history.gene_id}")).text.count("revoked</span>") == 0
    changes = await session.scalar(select(func.count()).select_from(GeneStatusChange))
    assert changes == 0 and await _audit(session, "admin.set_status") == []


async def test_logout_needs_the_token_and_ends_the_session(signed_in: httpx.AsyncClient) -> None:
    assert (await signed_in.post("/admin/logout")).status_code == 403
    page = await signed_in.get("/admin/")
    assert page.status_code == 200
    out = await signed_in.post("/admin/logout", data={"csrf_token": csrf_of(page.text)})
    assert out.status_code == 303 and out.headers["location"] == "/admin/login"
    assert "You are signed out." in (await signed_in.get("/admin/login")).text
    assert (await signed_in.get("/admin/")).status_code == 303


async def test_sqladmin_logout_link_asks_for_our_form(signed_in: httpx.AsyncClient) -> None:
    page = await signed_in.get("/admin/tables/logout")
    assert page.status_code == 200 and 'action="/admin/logout"' in page.text
    assert (await signed_in.get("/admin/")).status_code == 200  # a GET alone signs nobody out
    login = await signed_in.get("/admin/tables/login")
    assert login.status_code == 303 and login.headers["location"] == "/admin/login"


async def test_revoking_the_key_ends_its_sessions_at_once(
    browser_client: BrowserClient, session: AsyncSession
) -> None:
    created = await key_service.create(session, name="temporary admin", role=Role.admin, created_by=None)
    client = browser_client()
    assert (await sign_in(client, created.token)).status_code == 303
    assert (await client.get("/admin/genes")).status_code == 200
    await key_service.revoke(session, created.key.id)
    gone = await client.get("/admin/genes")
    assert gone.status_code == 303 and gone.headers["location"].startswith("/admin/login")
    assert "the key of your session was revoked" in (await client.get("/admin/login")).text
    assert (await client.get("/admin/tables/")).status_code == 303


async def test_a_session_ends_max_age_after_login_however_active(
    signed_in: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert (await signed_in.get("/admin/")).status_code == 200
    later = time.time() + 8 * 3600 + 1
    # Only the session's own clock moves: the cookie itself (re-signed on every answer) is still fresh.
    monkeypatch.setattr(auth, "_now", lambda: later)
    expired = await signed_in.get("/admin/")
    assert expired.status_code == 303
    assert "your session expired" in (await signed_in.get("/admin/login")).text


def test_the_generated_secret_is_kept_private_and_reused(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "data")
    first = session_secret(settings)
    path = tmp_path / "data" / SIGNING_FILE
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert len(first) >= 48 and session_secret(settings) == first
    assert [p.name for p in path.parent.iterdir()] == [SIGNING_FILE]  # no draft left behind


def test_a_configured_secret_wins_and_writes_nothing(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, admin_session_secret=SecretStr("s" * 40))
    assert session_secret(settings) == "s" * 40
    assert not (tmp_path / SIGNING_FILE).exists()


def test_a_secret_file_others_can_read_is_refused(tmp_path: Path) -> None:
    path = tmp_path / SIGNING_FILE
    path.write_text("x" * 64)
    os.chmod(path, 0o644)
    with pytest.raises(InsecureSecretFile, match="0600"):
        session_secret(Settings(data_dir=tmp_path))


async def test_sessions_survive_a_restart_with_the_same_data_directory(
    browser_client: BrowserClient, keys: dict[str, str], admin_app: object
) -> None:
    client = browser_client()
    await sign_in(client, keys["admin"])
    # A second app on the same data directory (a restarted server) reads the same secret.
    from app.main import create_app

    settings: Settings = admin_app.state.settings  # type: ignore[attr-defined]
    again = create_app(settings)
    again.state.runtime = admin_app.state.runtime  # type: ignore[attr-defined]
    again.dependency_overrides.update(admin_app.dependency_overrides)  # type: ignore[attr-defined]
    restarted = httpx.AsyncClient(
        transport=httpx.ASGITransport(app=again), base_url="http://genebank.test", cookies=client.cookies
    )
    assert (await restarted.get("/admin/")).status_code == 200
    await restarted.aclose()
