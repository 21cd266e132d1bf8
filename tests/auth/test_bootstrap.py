"""The first admin key of an empty registry: from GENEBANK_BOOTSTRAP_ADMIN_KEY_FILE, printed once on the
embedded default, never printed with an external database."""

from __future__ import annotations

import asyncio
import logging
import os
import stat
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from sqlalchemy import make_url
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.auth.bootstrap import BootstrapKeyError, bootstrap_admin
from app.auth.keys import generate
from app.auth.principal import Role
from app.auth.service import KeyCache, key_service
from app.config import Settings
from app.db import create_engine, create_sessionmaker


@pytest.fixture
async def empty_registry(migrated_url: str) -> AsyncIterator[async_sessionmaker[AsyncSession]]:
    engine = create_engine(migrated_url, Settings(database_url=migrated_url))
    yield create_sessionmaker(engine)
    await engine.dispose()


def conninfo(url: str) -> str:
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def active_keys(url: str) -> list[tuple[Any, ...]]:
    with psycopg.connect(conninfo(url)) as conn:
        return conn.execute(
            "SELECT name, role FROM api_keys WHERE revoked_at IS NULL AND name <> 'system'"
        ).fetchall()


async def role_of(url: str, token: str) -> Role:
    async with await psycopg.AsyncConnection.connect(conninfo(url), autocommit=True) as conn:
        return (await key_service.authenticate(conn, token, KeyCache(0))).role


async def test_a_generated_key_goes_into_the_file_and_is_never_printed(
    empty_registry: async_sessionmaker[AsyncSession],
    migrated_url: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    key_file = tmp_path / "secrets" / "admin-key"
    settings = Settings(database_url=migrated_url, bootstrap_admin_key_file=key_file)
    with caplog.at_level(logging.INFO):
        await bootstrap_admin(empty_registry, settings, embedded=False)
    token = key_file.read_text().strip()
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert await role_of(migrated_url, token) == Role.admin
    assert token not in capsys.readouterr().out and token not in caplog.text
    assert f"generated into {key_file}" in caplog.text

    # Later starts change nothing, even once the file is gone.
    key_file.unlink()
    await bootstrap_admin(empty_registry, settings, embedded=True)
    assert not key_file.exists() and active_keys(migrated_url) == [("initial admin", "admin")]
    assert capsys.readouterr().out == ""


async def test_an_operator_provisioned_key_is_read_from_the_file(
    empty_registry: async_sessionmaker[AsyncSession], migrated_url: str, tmp_path: Path
) -> None:
    token = generate().token
    key_file = tmp_path / "admin-key"
    key_file.write_text(token + "\n")
    key_file.chmod(0o600)
    await bootstrap_admin(
        empty_registry, Settings(database_url=migrated_url, bootstrap_admin_key_file=key_file), embedded=False
    )
    assert await role_of(migrated_url, token) == Role.admin
    assert key_file.read_text() == token + "\n"


@pytest.mark.parametrize(
    ("content", "mode", "message"),
    [
        ("gb_short_x", 0o600, "does not hold a Genebank API key"),
        (None, 0o644, "mode 0600"),
    ],
)
async def test_a_bad_key_file_stops_the_start(
    empty_registry: async_sessionmaker[AsyncSession],
    migrated_url: str,
    tmp_path: Path,
    content: str | None,
    mode: int,
    message: str,
) -> None:
    key_file = tmp_path / "admin-key"
    key_file.write_text(content or generate().token)
    key_file.chmod(mode)
    settings = Settings(database_url=migrated_url, bootstrap_admin_key_file=key_file)
    with pytest.raises(BootstrapKeyError, match=message):
        await bootstrap_admin(empty_registry, settings, embedded=False)
    assert active_keys(migrated_url) == []


async def test_an_unwritable_key_file_location_stops_the_start(
    empty_registry: async_sessionmaker[AsyncSession], migrated_url: str, tmp_path: Path
) -> None:
    (tmp_path / "a-file").write_text("")
    settings = Settings(database_url=migrated_url, bootstrap_admin_key_file=tmp_path / "a-file" / "admin-key")
    with pytest.raises(BootstrapKeyError, match="GENEBANK_BOOTSTRAP_ADMIN_KEY_FILE: cannot"):
        await bootstrap_admin(empty_registry, settings, embedded=False)


async def test_external_database_without_a_key_file_prints_nothing(
    empty_registry: async_sessionmaker[AsyncSession],
    migrated_url: str,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    await bootstrap_admin(empty_registry, Settings(database_url=migrated_url), embedded=False)
    assert capsys.readouterr().out == ""
    assert active_keys(migrated_url) == []
    assert "docker-compose exec api genebank keys create --role admin" in caplog.text


async def test_the_embedded_default_prints_its_first_key_once(
    empty_registry: async_sessionmaker[AsyncSession], migrated_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    settings = Settings(database_url=migrated_url)
    await bootstrap_admin(empty_registry, settings, embedded=True)
    printed = capsys.readouterr().out
    token = next(word for word in printed.split() if word.startswith("gb_"))
    assert f'export GB="Authorization: Bearer {token}"' in printed
    assert await role_of(migrated_url, token) == Role.admin
    await bootstrap_admin(empty_registry, settings, embedded=True)
    assert capsys.readouterr().out == ""


async def test_processes_starting_together_make_one_key(migrated_url: str, tmp_path: Path) -> None:
    settings = Settings(database_url=migrated_url, bootstrap_admin_key_file=tmp_path / "admin-key")
    engines = [create_engine(migrated_url, settings) for _ in range(4)]
    try:
        await asyncio.gather(
            *(bootstrap_admin(create_sessionmaker(engine), settings, embedded=False) for engine in engines)
        )
    finally:
        for engine in engines:
            await engine.dispose()
    assert active_keys(migrated_url) == [("initial admin", "admin")]
    assert await role_of(migrated_url, (tmp_path / "admin-key").read_text().strip()) == Role.admin
    assert sorted(os.listdir(tmp_path)) == ["admin-key"]  # no draft left behind
