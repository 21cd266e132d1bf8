"""Fixtures for the admin pages: a signed-in browser-like client and a Gene with some history."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from tests.factories import gene_doc, publish_payload

GENE = "gene_pytest_flaky_network"
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


def csrf_of(html: str) -> str:
    found = CSRF.search(html)
    assert found, "the page has no CSRF field"
    return found.group(1)


async def sign_in(client: httpx.AsyncClient, token: str, next_path: str = "/admin/") -> httpx.Response:
    form = await client.get("/admin/login")
    assert form.status_code == 200
    return await client.post(
        "/admin/login", data={"csrf_token": csrf_of(form.text), "key": token, "next": next_path}
    )


@pytest.fixture
def admin_app(app: FastAPI, tmp_path: Path) -> FastAPI:
    # The session secret is generated into the data directory on first use: keep it in this test's.
    app.state.settings = app.state.settings.model_copy(update={"data_dir": tmp_path})
    return app


@pytest.fixture
def browser_client(admin_app: FastAPI) -> Callable[[], httpx.AsyncClient]:
    """Clients without an Authorization header: the admin pages know only their session cookie."""
    opened: list[httpx.AsyncClient] = []

    def make() -> httpx.AsyncClient:
        client = httpx.AsyncClient(
            transport=httpx.ASGITransport(app=admin_app), base_url="http://genebank.test"
        )
        opened.append(client)
        return client

    yield make  # type: ignore[misc]


@pytest.fixture
async def signed_in(
    browser_client: Callable[[], httpx.AsyncClient], keys: dict[str, str]
) -> httpx.AsyncClient:
    client = browser_client()
    response = await sign_in(client, keys["admin"])
    assert response.status_code == 303, response.text
    return client


@dataclass
class History:
    gene_id: str
    assets: list[str]
    trajectory_ids: list[str]


@pytest.fixture
async def history(client_as: Callable[[str | None], httpx.AsyncClient]) -> History:
    """A Gene with two versions (a guard and a strategy step added), its runs and a few outcome reports."""
    admin, consumer = client_as("admin"), client_as("consumer")
    steps: list[dict[str, Any]] = [
        {
            "action": "pytest -q",
            "ok": False,
            "error": "ConnectionError: <b>no network</b>",
            "correction": "mock",
        },
        {"action": "add respx mocks", "ok": True, "observation": "42 passed"},
    ]
    first = publish_payload()
    first["provenance"]["trajectory"] = {"steps": steps}
    v1 = await admin.post("/v1/genes", json=first)
    assert v1.status_code == 201, v1.text
    doc = gene_doc(
        parent=v1.json()["asset_id"],
        strategy=[*gene_doc()["strategy"], "Record the HTTP fixtures once with respx and replay them"],
        avoid=[
            "Do not raise the global timeout: the verifier caps runtime at 60 s",
            "Never call the live API",
        ],
    )
    second = publish_payload(
        gene=doc,
        task={"id": "code-0002", "family": "code_generation", "description": "Keep the client tests offline"},
    )
    second["provenance"]["trajectory"] = {"steps": [{"action": "pytest -q --record", "ok": True}]}
    v2 = await admin.post("/v1/genes", json=second)
    assert v2.status_code == 201, v2.text
    assets = [v1.json()["asset_id"], v2.json()["asset_id"]]
    for index, (model, success) in enumerate(
        [("qwen3-8b", True), ("qwen3-8b", False), ("llama-3.1-8b", True)]
    ):
        body = {
            "asset_id": assets[1],
            "consumer_model": model,
            "task_id": f"task-{index}",
            "success": success,
        }
        assert (await consumer.post(f"/v1/genes/{GENE}/outcomes", json=body)).status_code == 201
    lineage = (await admin.get(f"/v1/genes/{GENE}/lineage")).json()
    runs = [str(t) for item in lineage["items"] for t in item["trajectory_ids"]]
    return History(GENE, assets, runs)
