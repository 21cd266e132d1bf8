"""Integers past Python's 4,300-digit conversion limit: a 422, never a 500 that drops the connection.

`int()` refuses such strings with a ValueError (CPython's guard against quadratic conversions), so
anything that parses client text as an integer must refuse them as invalid input instead.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from tests.factories import gene_doc, publish_payload

HUGE = "9" * 5000
GENE_ID = "gene_pytest_flaky_network"


def _assert_422(response: httpx.Response) -> None:
    assert response.status_code == 422, response.text[:300]
    assert response.headers["content-type"] == "application/problem+json"


@pytest.mark.parametrize("number", [HUGE, "-" + HUGE, "1" + "0" * 4300, HUGE + ".5e3"])
async def test_a_huge_integer_in_a_json_body_is_422(client: httpx.AsyncClient, number: str) -> None:
    body = (
        '{"gene": {"id": "gene_pytest_flaky_network", "constraints": {"max_files": '
        + number
        + "}}, "
        + '"provenance": {"kind": "manual"}}'
    )
    response = await client.post("/v1/genes", content=body, headers={"Content-Type": "application/json"})
    if "." in number:
        # A float that large is infinite: refused as well.
        _assert_422(response)
        return
    _assert_422(response)
    assert "2^53" in response.json()["detail"]


async def test_a_huge_integer_anywhere_in_a_body_is_422(client: httpx.AsyncClient) -> None:
    search = '{"query": "pytest fails offline", "k": ' + HUGE + "}"
    _assert_422(await client.post("/v1/search", content=search, headers={"Content-Type": "application/json"}))
    payload = publish_payload(gene=gene_doc())
    raw = httpx.Request("POST", "/", json=payload).content.decode()
    raw = raw.replace('"max_files":5', '"max_files":' + HUGE)
    assert HUGE in raw
    _assert_422(await client.post("/v1/genes", content=raw, headers={"Content-Type": "application/json"}))


async def test_a_huge_integer_in_a_query_or_path_parameter_is_422(
    client_as: Callable[[str | None], httpx.AsyncClient],
) -> None:
    admin = client_as("admin")
    assert (await admin.post("/v1/genes", json=publish_payload())).status_code == 201
    for path, params in [
        ("/v1/genes", {"limit": HUGE}),
        ("/v1/genes", {"limit": "-" + HUGE}),
        (f"/v1/genes/{GENE_ID}/versions", {"limit": HUGE}),
        (f"/v1/genes/{GENE_ID}/versions/{HUGE}", {}),
        (f"/v1/genes/{GENE_ID}/prompt", {"max_tokens": HUGE}),
        ("/v1/admin/audit", {"limit": HUGE}),
    ]:
        _assert_422(await admin.get(path, params=params))


@pytest.mark.parametrize(
    ("length", "status"),
    # The last one is a valid length of 2: it reaches authentication (no key sent).
    [(b"9" * 5000, 413), ("²".encode("latin-1"), 400), (b"0" * 5000 + b"2", 401)],
)
async def test_a_content_length_no_integer_conversion_can_take_is_a_4xx(
    app: FastAPI, length: bytes, status: int
) -> None:
    """Sent as raw ASGI: an HTTP client would not send such a header."""
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/v1/genes",
        "raw_path": b"/v1/genes",
        "query_string": b"",
        "root_path": "",
        "headers": [(b"content-type", b"application/json"), (b"content-length", length)],
        "client": ("127.0.0.1", 50000),
        "server": ("genebank.test", 80),
        "state": {},
    }
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"{}", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    await app(scope, receive, send)
    assert sent[0]["type"] == "http.response.start" and sent[0]["status"] == status
