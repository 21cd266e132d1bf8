"""The client's command-line verbs against a live registry: search, get, publish, submit, report, with
readable output and --json; `genebank submit` of 1,000 runs with progress, per-line refusals and counts."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from genebank.client import Client
from genebank.client.cli import cli
from tests.client.conftest import Live, unique
from tests.factories import BASE_PROVENANCE, gene_doc

TASK = "Make the test suite of a small HTTP client pass without network access"
GENEBANK = [sys.executable, "-c", "from app.cli import main; main()"]


def invoke(live: Live, key: str, *args: str, stdin: str | None = None) -> Any:
    env = {"GENEBANK_URL": live.url, "GENEBANK_KEY": key}
    return CliRunner().invoke(cli, list(args), env=env, input=stdin, terminal_width=160)


def test_publish_search_get_and_report(live: Live, tmp_path: Path) -> None:
    gene_id, family = unique("gene_cli_docker_port"), unique("cli")
    doc = gene_doc(
        id=gene_id,
        summary="Free the host port docker compose says is already allocated",
        signals_match=["port is already allocated", "docker compose"],
        strategy=["Find the container holding the port with docker ps", "Stop it or map another host port"],
        avoid=[],
    )
    payload = {
        "gene": doc,
        # The task the Gene came from is a search key of it, so it says what the Gene is about.
        "provenance": {
            **BASE_PROVENANCE,
            "task": {
                **BASE_PROVENANCE["task"],
                "family": family,
                "description": "docker compose up fails: a host port is already taken by another container",
            },
        },
    }
    source = tmp_path / "gene.json"
    source.write_text(json.dumps(payload))

    published = invoke(live, live.owner.token, "publish", str(source))
    assert published.exit_code == 0, published.output
    assert published.output.startswith(f"published  {gene_id} v1  sha256:")
    again = invoke(live, live.owner.token, "publish", "-", "--json", stdin=json.dumps(payload))
    assert again.exit_code == 0 and json.loads(again.output)["created"] is False
    refused = invoke(live, live.consumer.token, "publish", str(source))
    assert refused.exit_code == 1 and "error: 403 forbidden" in refused.output

    found = invoke(
        live, live.consumer.token, "search", "docker compose says the port is taken", "-s",
        "Bind for 0.0.0.0:5432 failed: port is already allocated", "--family", family,
    )  # fmt: skip
    assert found.exit_code == 0, found.output
    lines = found.output.splitlines()
    assert lines[0] == "band: found  (1 results)" and lines[1].split()[:2] == ["#", "gene_id"]
    assert lines[2].split()[:2] == ["1", gene_id]
    as_json = invoke(live, live.consumer.token, "search", "docker port taken", "--family", family, "--json")
    assert json.loads(as_json.output)["results"][0]["gene_id"] == gene_id

    shown = invoke(live, live.consumer.token, "get", gene_id)
    assert shown.exit_code == 0, shown.output
    assert shown.output.splitlines()[0].startswith(f"{gene_id} v1  candidate  sha256:")
    assert "  1. Find the container holding the port with docker ps" in shown.output
    prompt = invoke(live, live.consumer.token, "get", gene_id, "--prompt", "--max-tokens", "40")
    assert prompt.exit_code == 0 and prompt.output.startswith(f"Gene {gene_id} v1")
    with Client(live.url, live.consumer.token) as client:
        assert prompt.output.rstrip("\n") == client.get_prompt(gene_id, max_tokens=40).text
    missing = invoke(live, live.consumer.token, "get", "gene_nobody_published_this")
    assert missing.exit_code == 1 and "error: 404 gene-not-found" in missing.output

    reported = invoke(
        live, live.consumer.token, "report", gene_id, "--task-id", unique("ops"), "--failure",
        "--reason", "partial", "--consumer-model", "qwen3-8b", "--note", "the port was held by podman",
    )  # fmt: skip
    assert reported.exit_code == 0, reported.output
    assert reported.output.startswith(f"reported {gene_id} for qwen3-8b: counted; status candidate")
    own = invoke(
        live, live.owner.token, "report", gene_id, "--task-id", "x", "--success", "--consumer-model", "m"
    )
    assert own.exit_code == 1 and "error: 403 self-report" in own.output
    nowhere = CliRunner().invoke(cli, ["search", "x", "--url", "http://127.0.0.1:9", "--key", "gb_x"])
    assert nowhere.exit_code == 1 and nowhere.output.startswith("error: GET") is False
    assert "error: POST http://127.0.0.1:9/v1/search: ConnectError" in nowhere.output


@pytest.mark.slow
def test_submit_of_1000_runs_shows_progress_and_ends_with_counts(live: Live, tmp_path: Path) -> None:
    gene_id, model = unique("gene_cli_bulk"), unique("bulk-model")
    with Client(live.url, live.owner.token) as owner:
        owner.publish(
            gene_doc(id=gene_id, model_name=model),
            {**BASE_PROVENANCE, "producer_model": model},
        )
    runs = []
    for number in range(1, 1001):
        run: dict[str, Any] = {
            "task": {"id": f"bulk-{number:04d}", "family": "code_generation", "description": TASK},
            "producer": {"model": model},
            "steps": [{"action": "add respx mocks in conftest.py", "ok": True, "observation": "42 passed"}],
            "verifier": {"name": "pytest", "version": "8.3", "passed": True},
            "gene_id": gene_id,
        }
        if number == 500:
            run["steps"] = []  # refused with 422: a run has at least one step
        runs.append(json.dumps(run))
    runs[776] = '{"task": '  # line 777: not JSON at all
    source = tmp_path / "runs.jsonl"
    source.write_text("\n".join(runs) + "\n")

    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "from app.cli import main; main()",
            "submit",
            str(source),
            "--concurrency",
            "8",
        ],
        env=live.env(live.owner.token),
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert done.returncode == 1, done.stdout + done.stderr[-3000:]  # some lines were refused
    assert done.stdout.strip() == (
        "1000 runs: 998 accepted (998 new), 2 refused; 998 merged, 0 rejected, 0 pending"
    ), done.stderr[-3000:]
    assert "line 500: 422 validation-failed: body.steps" in done.stderr
    assert "line 777: not JSON" in done.stderr
    assert "submitting: 100%" in done.stderr and "1000/1000" in done.stderr
    assert "merging: 100%" in done.stderr and "998/998" in done.stderr

    # Again: every run is already known (the same content), nothing new, and --json says so line by line.
    again = subprocess.run(
        [*GENEBANK, "submit", str(source), "--json", "-q"],
        env=live.env(live.owner.token),
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    summary = json.loads(again.stdout)
    assert (summary["accepted"], summary["new"], summary["refused"]) == (998, 0, 2)
    assert [r["line"] for r in summary["refused_lines"]] == [500, 777]
    assert {r["state"] for r in summary["trajectories"]} == {"merged"}
    assert again.stderr.splitlines()[0].startswith("line 777: not JSON")  # never a run: reported first
    assert again.stderr.splitlines()[1].startswith("line 500: 422")
    assert len(again.stderr.splitlines()) == 2 and "submitting" not in again.stderr
