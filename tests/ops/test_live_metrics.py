"""`genebank serve` as operators run it: JSON log lines carrying the request id, and /metrics showing
the embedder and the in-process worker after a publish and a merged run."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import httpx

from tests.evolution.builders import trajectory_payload
from tests.factories import BASE_GENE, publish_payload
from tests.live import ROOT, ServeProcess
from tests.ops.test_metrics import sample


def _json_lines(log: Path) -> list[dict[str, Any]]:
    lines = []
    for line in log.read_text().splitlines():
        if line.startswith("{"):
            lines.append(json.loads(line))
    return lines


def test_json_logs_and_metrics_of_a_running_registry(tmp_path: Path) -> None:
    with ServeProcess(tmp_path, GENEBANK_LOG_FORMAT="json", GENEBANK_LOG_LEVEL="info") as server:
        _, producer = server.create_key("producer", "metrics producer")
        writer = httpx.Client(
            base_url=server.url, headers={"Authorization": f"Bearer {producer}"}, timeout=60
        )
        admin = httpx.Client(
            base_url=server.url, headers={"Authorization": f"Bearer {server.admin_key}"}, timeout=60
        )
        with writer, admin:
            published = writer.post(
                "/v1/genes", json=publish_payload(), headers={"X-Request-ID": "publish-0001"}
            )
            assert published.status_code == 201, published.text
            assert published.headers["x-request-id"] == "publish-0001"
            run = writer.post("/v1/trajectories", json=trajectory_payload(gene_id=BASE_GENE["id"]))
            assert run.status_code == 202, run.text
            deadline = time.monotonic() + 120
            while (state := writer.get(f"/v1/trajectories/{run.json()['id']}").json()["state"]) == "pending":
                assert time.monotonic() < deadline, "the in-process worker did not take the run in 120 s"
                time.sleep(0.2)
            assert state == "merged"
            assert writer.post("/v1/search", json={"query": "tests call the live API"}).status_code == 200

            text = admin.get("/metrics").text
        assert (sample(text, "genebank_embedding_seconds_count") or 0) >= 2  # the publish and the merge
        assert (sample(text, "genebank_embedded_texts_total") or 0) >= 2
        assert sample(text, "genebank_worker_jobs_total", result="merged") == 1
        assert sample(text, "genebank_trajectories", state="merged") == 1
        assert sample(text, "genebank_trajectories", state="pending") == 0

    # Every series the example Grafana dashboard plots is one this registry serves.
    dashboard = json.loads((ROOT / "deploy" / "grafana" / "genebank-dashboard.json").read_text())
    plotted = {
        name
        for panel in dashboard["panels"]
        for target in panel["targets"]
        for name in re.findall(r"\b((?:genebank|http)_\w+)\b", target["expr"])
    }
    assert len(plotted) >= 8
    served = {line.split("{")[0].split(" ")[0] for line in text.splitlines() if not line.startswith("#")}
    assert plotted <= served, f"plotted but not served: {sorted(plotted - served)}"

    lines = _json_lines(server.log)
    assert lines, "no JSON log line written"
    assert all({"asctime", "level", "logger", "message", "request_id"} <= line.keys() for line in lines)
    # uvicorn's access line of the publish carries the id the client sent.
    access = [
        line for line in lines if line["logger"] == "uvicorn.access" and "POST /v1/genes " in line["message"]
    ]
    assert [line["request_id"] for line in access] == ["publish-0001"]
    assert any(line["request_id"] == "-" and "Genebank ready" in line["message"] for line in lines)
