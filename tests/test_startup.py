"""Start-up refuses, with one clear error, what would otherwise fail later on every request."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from app.admin.secret import SecretUnavailable
from app.cli import cli
from app.config import Settings
from app.main import create_app

# Nothing listens there: reaching the database at all would be a different error.
NOWHERE = "postgresql://genebank@127.0.0.1:1/genebank"


def unwritable_data_dir(tmp_path: Path) -> Path:
    # A path under a regular file: no user can create it, root included (CI runs as root).
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("")
    return blocker / "data"


async def test_an_unwritable_data_directory_stops_the_start_before_the_database(tmp_path: Path) -> None:
    data_dir = unwritable_data_dir(tmp_path)
    app = create_app(Settings(database_url=NOWHERE, data_dir=data_dir))
    with pytest.raises(SecretUnavailable) as refused:
        async with app.router.lifespan_context(app):
            pytest.fail("the application started")
    message = str(refused.value)
    assert "admin session secret cannot be stored" in message
    assert f"GENEBANK_DATA_DIR ({data_dir})" in message and "GENEBANK_ADMIN_SESSION_SECRET" in message


def test_genebank_serve_says_so_in_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GENEBANK_DATA_DIR", str(unwritable_data_dir(tmp_path)))
    monkeypatch.setenv("GENEBANK_DATABASE_URL", NOWHERE)
    result = CliRunner().invoke(cli, ["serve", "--port", "0"])
    assert result.exit_code == 1
    assert result.output.startswith("error: the admin session secret cannot be stored: cannot ")
    assert "Traceback" not in result.output
