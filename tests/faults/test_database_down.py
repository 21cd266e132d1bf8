"""The database goes away under a running `genebank serve` and comes back.

While it is down, every request that needs it is answered 503 application/problem+json with a
Retry-After header: reads (the psycopg read pool and the SQLAlchemy engine), writes, search and the
key look-up of the access middleware. Once it is back, not one request fails: the pools must not hand
out the connections the restart killed.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import httpx
import pytest

from tests.factories import gene_doc, publish_payload
from tests.faults.serving import serving, socket_dir, start_postgres, stop_postgres

pytestmark = pytest.mark.slow

GENE_ID = "gene_pytest_flaky_network"


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _new_key(admin: httpx.Client, role: str, name: str) -> str:
    created = admin.post("/v1/admin/keys", json={"name": name, "role": role})
    assert created.status_code == 201, created.text
    token: str = created.json()["key"]
    return token


def _publish(client: httpx.Client, index: int) -> httpx.Response:
    doc = gene_doc(id=f"gene_outage_{index:04d}", summary=f"Recover a service after outage number {index}")
    return client.post("/v1/genes", json=publish_payload(gene=doc))


def _search(client: httpx.Client) -> httpx.Response:
    return client.post("/v1/search", json={"query": "pytest suite fails without network access", "k": 3})


def _fetch_as(client: httpx.Client, token: str) -> httpx.Response:
    return client.get(f"/v1/genes/{GENE_ID}", headers=_bearer(token))


def _assert_unavailable(response: httpx.Response, what: str) -> None:
    assert response.status_code == 503, f"{what}: {response.status_code} {response.text[:300]}"
    assert response.headers["content-type"] == "application/problem+json", what
    assert int(response.headers["retry-after"]) >= 1, what
    assert response.json()["status"] == 503, what


def test_database_down_answers_503_and_once_back_no_request_fails(data_dir: Path) -> None:
    with serving(data_dir) as served:
        admin_token = served.admin_key()
        with (
            httpx.Client(base_url=served.url, headers=_bearer(admin_token), timeout=60) as admin,
            httpx.Client(base_url=served.url, timeout=60) as anyone,
        ):
            producer = httpx.Client(
                base_url=served.url, headers=_bearer(_new_key(admin, "producer", "p")), timeout=60
            )
            # Keys nobody has used yet: their first request needs the middleware's database look-up.
            unseen = [_new_key(admin, "consumer", f"c{i}") for i in range(60)]
            assert producer.post("/v1/genes", json=publish_payload()).status_code == 201
            # Every pool holds connections opened before the restart.
            for _ in range(20):
                assert admin.get(f"/v1/genes/{GENE_ID}").status_code == 200
                assert admin.get("/v1/genes").status_code == 200
                assert _search(admin).status_code == 200

            sockets = socket_dir(served.pgdata)
            stop_postgres(served.pgdata)

            _assert_unavailable(admin.get(f"/v1/genes/{GENE_ID}"), "fetch by id")
            _assert_unavailable(admin.get(f"/v1/genes/{GENE_ID}/versions/1"), "fetch a version")
            _assert_unavailable(admin.get("/v1/genes"), "list")
            _assert_unavailable(_search(admin), "search")
            _assert_unavailable(_publish(producer, 0), "publish")
            _assert_unavailable(admin.get("/v1/admin/audit"), "audit log")
            _assert_unavailable(anyone.get("/v1/genes", headers=_bearer(unseen.pop())), "key look-up")
            _assert_unavailable(
                anyone.post("/v1/genes", json=publish_payload(), headers=_bearer(unseen.pop())),
                "key look-up before a write",
            )
            assert admin.get("/healthz").status_code == 200
            assert admin.get("/readyz").status_code == 503

            start_postgres(served.pgdata, sockets)

            kinds = itertools.cycle(
                [
                    ("fetch", lambda i: admin.get(f"/v1/genes/{GENE_ID}")),
                    ("version", lambda i: admin.get(f"/v1/genes/{GENE_ID}/versions/1")),
                    ("list", lambda i: admin.get("/v1/genes", params={"limit": 5})),
                    ("search", lambda i: _search(admin)),
                    ("publish", lambda i: _publish(producer, i)),
                    (
                        "unseen key",
                        lambda i: anyone.get(f"/v1/genes/{GENE_ID}", headers=_bearer(unseen.pop())),
                    ),
                    ("prompt", lambda i: admin.get(f"/v1/genes/{GENE_ID}/prompt")),
                    ("audit", lambda i: admin.get("/v1/admin/audit", params={"limit": 5})),
                ]
            )
            failed = []
            for index in range(1, 201):
                kind, send = next(kinds)
                answer = send(index)
                if answer.status_code >= 400:
                    failed.append((index, kind, answer.status_code, answer.text[:200]))
            producer.close()
            assert not failed, f"{len(failed)} of 200 failed after the restart: {failed[:10]}\n{served.log()}"
