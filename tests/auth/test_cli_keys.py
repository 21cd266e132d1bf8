"""`genebank keys create | list | revoke` against a real database, as an operator would run them."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from app.cli import cli


@pytest.fixture
def runner(migrated_url: str, monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    monkeypatch.setenv("GENEBANK_DATABASE_URL", migrated_url)
    return CliRunner()


def test_keys_lifecycle_from_the_command_line(runner: CliRunner) -> None:
    created = runner.invoke(cli, ["keys", "create", "--role", "producer", "--name", "nightly agent"])
    assert created.exit_code == 0, created.output
    header, token = created.output.strip().splitlines()[-2:]
    key_id = header.split()[0]
    assert re.fullmatch(r"gb_[A-Za-z0-9]{12}_[A-Za-z0-9_-]{43}", token)
    assert header.endswith("producer  nightly agent")

    listed = runner.invoke(cli, ["keys", "list"])
    assert listed.exit_code == 0
    assert key_id in listed.output and token not in listed.output
    assert f"gb_{token[3:15]}_…" in listed.output

    revoked = runner.invoke(cli, ["keys", "revoke", key_id])
    assert revoked.exit_code == 0 and "revoked" in revoked.output
    assert key_id not in runner.invoke(cli, ["keys", "list"]).output
    assert "revoked" in runner.invoke(cli, ["keys", "list", "--all"]).output
    again = runner.invoke(cli, ["keys", "revoke", key_id])
    assert again.exit_code == 1 and "already revoked" in again.output

    bad_role = runner.invoke(cli, ["keys", "create", "--role", "root", "--name", "x"])
    assert bad_role.exit_code != 0
