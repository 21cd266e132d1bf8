"""Without Chromium (or docker-compose) the suite stays green with one line saying how to enable those
tests; GENEBANK_REQUIRE_BROWSER=1 / GENEBANK_REQUIRE_DOCKER_COMPOSE=1 (CI) turn the absence into a failure."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BROWSER_MODULES = ["tests/admin/test_browser.py", "tests/test_api_docs.py"]
# Something that runs beside them, as in the whole suite (pytest exits 5 when nothing ran at all).
OTHER = "tests/gep/test_signals.py"


def run_pytest(args: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("GENEBANK_REQUIRE_")}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-ra", *args],
        cwd=ROOT,
        env={**clean, "PYTHONPATH": str(ROOT), **env},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_browser_tests_skip_with_one_line_without_chromium(tmp_path: Path) -> None:
    missing = str(tmp_path / "no-chromium")
    skipped = run_pytest([*BROWSER_MODULES, OTHER], GENEBANK_CHROMIUM=missing)
    assert skipped.returncode == 0, skipped.stdout + skipped.stderr
    lines = [line for line in skipped.stdout.splitlines() if "browser tests skipped:" in line]
    assert len(lines) == 1, skipped.stdout
    assert "GENEBANK_CHROMIUM" in lines[0] and "apt-get install chromium" in lines[0]
    assert " passed, 2 skipped" in skipped.stdout

    required = run_pytest(BROWSER_MODULES, GENEBANK_CHROMIUM=missing, GENEBANK_REQUIRE_BROWSER="1")
    assert required.returncode != 0
    assert "browser tests required (GENEBANK_REQUIRE_BROWSER=1)" in required.stdout


def test_docker_compose_check_skips_or_fails_without_docker_compose(tmp_path: Path) -> None:
    # A PATH with the interpreter's directory only: no docker-compose on it.
    no_tools = {"PATH": str(Path(sys.executable).parent)}
    selected = ["tests/test_deploy_files.py", "-k", "docker_compose_config"]
    skipped = run_pytest(selected, **no_tools)
    assert skipped.returncode == 0, skipped.stdout + skipped.stderr
    lines = [line for line in skipped.stdout.splitlines() if "docker-compose tests skipped:" in line]
    assert len(lines) == 1, skipped.stdout

    required = run_pytest(selected, GENEBANK_REQUIRE_DOCKER_COMPOSE="1", **no_tools)
    assert required.returncode != 0
    assert "docker-compose tests required (GENEBANK_REQUIRE_DOCKER_COMPOSE=1)" in required.stdout
