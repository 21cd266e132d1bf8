"""Tools some tests need from the system: Chromium (browser tests), docker-compose, redis-server, and
Node with EvoMap's evolver client (the GEP hub's real-client test).

Present: the tests run. Missing: they are skipped with one line saying how to enable them, unless
GENEBANK_REQUIRE_BROWSER=1 / GENEBANK_REQUIRE_DOCKER_COMPOSE=1 / GENEBANK_REQUIRE_REDIS=1 /
GENEBANK_REQUIRE_NODE=1 (set by .ci/run) make that a failure, so CI never skips them silently.

Call these at module level (browser test modules: nothing is collected, no database starts) or in a
test's body, never from a fixture: pytest reports a fixture's skip at each test's own line, whereas a
skip raised here is reported at this file's line, so `pytest -ra` folds every module's skip into one
summary line.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

DEFAULT_CHROMIUM = Path("/usr/bin/chromium")


def missing(what: str, reason: str, require_variable: str) -> None:
    if os.environ.get(require_variable) == "1":
        pytest.fail(f"{what} required ({require_variable}=1) but {reason}", pytrace=False)
    pytest.skip(
        f"{what} skipped: {reason}; {require_variable}=1 turns this into a failure", allow_module_level=True
    )


def chromium() -> str:
    """The Chromium to drive: GENEBANK_CHROMIUM, else /usr/bin/chromium, else `chromium` on PATH."""
    configured = os.environ.get("GENEBANK_CHROMIUM")
    if configured:
        candidate: str | None = configured
        where = f"GENEBANK_CHROMIUM={configured} is not an executable file"
    else:
        candidate = str(DEFAULT_CHROMIUM) if DEFAULT_CHROMIUM.exists() else shutil.which("chromium")
        where = f"no Chromium at {DEFAULT_CHROMIUM} or on PATH"
    if candidate is None or not os.path.isfile(candidate) or not os.access(candidate, os.X_OK):
        missing(
            "browser tests",
            f"{where} (`apt-get install chromium`, or set GENEBANK_CHROMIUM to a Chromium binary)",
            "GENEBANK_REQUIRE_BROWSER",
        )
    try:
        import playwright.async_api  # noqa: F401
    except ImportError:
        missing(
            "browser tests",
            "Playwright is not installed (pip install -e '.[dev]')",
            "GENEBANK_REQUIRE_BROWSER",
        )
    assert candidate is not None
    return candidate


def docker_compose() -> str:
    """The docker-compose executable on PATH."""
    found = shutil.which("docker-compose")
    if found is None:
        missing(
            "docker-compose tests",
            "docker-compose is not on PATH (`apt-get install docker-compose`)",
            "GENEBANK_REQUIRE_DOCKER_COMPOSE",
        )
    assert found is not None
    return found


def redis_server() -> str:
    """The redis-server executable on PATH (shared rate limits across processes)."""
    found = shutil.which("redis-server")
    if found is None:
        missing(
            "Redis tests",
            "redis-server is not on PATH (`apt-get install redis-server`)",
            "GENEBANK_REQUIRE_REDIS",
        )
    assert found is not None
    return found


EVOLVER_VERSION = "1.94.0"


def evolver() -> Path:
    """The installed `@evomap/evolver` package (GPL-3.0: a test tool, installed at test time, never in
    the repository): GENEBANK_EVOLVER_DIR is the directory npm installed it into, and Node 20 or newer
    must be on PATH. .ci/run installs both."""
    how = (
        f"npm install --ignore-scripts --prefix DIR @evomap/evolver@{EVOLVER_VERSION} "
        "and set GENEBANK_EVOLVER_DIR=DIR (Node 20 or newer: `apt-get install nodejs npm`)"
    )
    node = shutil.which("node")
    if node is None:
        missing("real evolver client test", f"node is not on PATH ({how})", "GENEBANK_REQUIRE_NODE")
    assert node is not None
    version = subprocess.run([node, "--version"], capture_output=True, text=True, check=False).stdout.strip()
    major = int(version.lstrip("v").split(".")[0]) if version.startswith("v") else 0
    if major < 20:
        missing(
            "real evolver client test",
            f"node is {version or 'unknown'}, not 20 or newer",
            "GENEBANK_REQUIRE_NODE",
        )
    configured = os.environ.get("GENEBANK_EVOLVER_DIR")
    package = Path(configured or "/nonexistent") / "node_modules" / "@evomap" / "evolver"
    manifest = package / "package.json"
    if not configured or not manifest.is_file():
        where = (
            f"no @evomap/evolver under GENEBANK_EVOLVER_DIR={configured}"
            if configured
            else "GENEBANK_EVOLVER_DIR is not set"
        )
        missing("real evolver client test", f"{where} ({how})", "GENEBANK_REQUIRE_NODE")
    found = json.loads(manifest.read_text()).get("version")
    if found != EVOLVER_VERSION:
        missing(
            "real evolver client test",
            f"@evomap/evolver is {found}, not {EVOLVER_VERSION}",
            "GENEBANK_REQUIRE_NODE",
        )
    return package
