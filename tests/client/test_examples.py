"""examples/: the agent loop runs against a live registry, and every MCP configuration snippet starts the
server this repository ships, with the variables it reads."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from app.cli import cli
from genebank.client import Client
from tests.client.conftest import Live, unique
from tests.factories import BASE_PROVENANCE, gene_doc

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
SNIPPETS = sorted((EXAMPLES / "mcp").glob("*.json"))
VARIABLES = {"GENEBANK_URL", "GENEBANK_KEY", "GENEBANK_CONSUMER_MODEL"}


def test_the_agent_loop_runs_against_a_live_registry(live: Live) -> None:
    gene_id = unique("gene_version_sort_numeric")
    doc = gene_doc(
        id=gene_id,
        category="repair",
        summary="Sort version strings such as 1.10.0 and 1.2.0 in the right order",
        signals_match=["version sort", "semver"],
        preconditions=["versions are dot-separated numbers"],
        strategy=[
            "Split each version on dots and compare the parts as integers, not as text",
            "Treat a missing part as smaller: 1.2 comes before 1.2.0",
        ],
        avoid=["Never sort version strings as plain text: 1.10.0 would come before 1.2.0"],
        validation=["python -m pytest tests/test_versions.py"],
    )
    task = {"id": "sort-0001", "family": "code_generation", "description": "Sort release versions"}
    with Client(live.url, live.owner.token) as owner:
        owner.publish(doc, {**BASE_PROVENANCE, "task": task})

    # A producer key that does not own the Gene: it may report on it, and submit its runs.
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / "agent_loop.py")],
        env=live.env(live.producer.token),
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr[-3000:]
    assert "HTTP Request" not in done.stderr  # the server logs no request lines into the agent's log
    lines = done.stdout.splitlines()
    assert lines[-1] == "3/3 tasks solved", done.stdout
    solved = [line for line in lines if line.startswith("versions-")]
    assert len(solved) == 3 and all(f"band found, gene {gene_id}, verifier True" in line for line in solved)
    assert done.stdout.count("report_outcome: Recorded for toy-sorter-1: counted.") == 3
    assert done.stdout.count("submit_run: Run ") == 3 and done.stdout.count(f"merged into {gene_id}: ") == 3

    with Client(live.url, live.owner.token) as owner:
        stats = owner.get_stats(gene_id)
        events = list(owner.iter_events(gene_id))
    assert stats.usage.reports == 3 and stats.quality.weighted_successes > 2.9
    assert sum(len(event.trajectory_ids) for event in events if event.kind == "merged") == 3


@pytest.mark.parametrize("snippet", SNIPPETS, ids=lambda path: path.name)
def test_mcp_config_snippets_start_genebank_mcp(snippet: Path) -> None:
    config = json.loads(snippet.read_text())
    server = config["mcpServers"]["genebank"]
    assert [server["command"], *server["args"]] == ["genebank", "mcp"]
    assert set(server["env"]) == VARIABLES


def test_the_claude_code_command_starts_genebank_mcp() -> None:
    script = (EXAMPLES / "mcp" / "claude_code.sh").read_text().replace("\\\n", " ")
    line = next(line for line in script.splitlines() if line.startswith("claude mcp add"))
    words = shlex.split(line)
    assert words[words.index("--") + 1 :] == ["genebank", "mcp"]
    assert {words[i + 1].split("=")[0] for i, word in enumerate(words) if word == "--env"} == VARIABLES


def test_the_variables_named_are_the_ones_read() -> None:
    help_text = CliRunner().invoke(cli, ["mcp", "--help"], terminal_width=200)
    assert help_text.exit_code == 0, help_text.output
    for variable in VARIABLES:
        assert variable in help_text.output
    readme = (EXAMPLES / "mcp" / "README.md").read_text()
    assert set(re.findall(r"GENEBANK_[A-Z_]+", readme)) == VARIABLES
