"""The deployment files are accepted by the tools that read them."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_docker_compose_config_is_valid() -> None:
    if shutil.which("docker-compose") is None:
        pytest.skip("docker-compose is not installed (.ci/run installs it)")
    result = subprocess.run(
        ["docker-compose", "config", "--services"],
        cwd=ROOT,
        env={**os.environ, "GENEBANK_DB_PASSWORD": "only-for-this-check"},
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert set(result.stdout.split()) >= {"db", "api"}


def test_ci_runs_the_readme_test_command() -> None:
    readme = (ROOT / "README.md").read_text()
    ci = (ROOT / ".ci" / "run").read_text()
    assert "make test" in readme
    assert "make test" in ci
