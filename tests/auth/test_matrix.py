"""Every endpoint × anonymous / consumer / producer / admin / revoked key, each answer checked."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy.ext.asyncio import AsyncSession

from app.embeddings import EmbeddingService
from tests.evolution.builders import trajectory_payload
from tests.evolution.jobs import merge_next
from tests.factories import gene_doc, publish_payload

ROLES = ("anonymous", "consumer", "producer", "admin", "revoked")
FOREIGN_GUARD = "When the live API is unreachable in tests, do not retry it; mock the HTTP layer instead"
READ = {"anonymous": 401, "consumer": 200, "producer": 200, "admin": 200, "revoked": 401}
PUBLIC = dict.fromkeys(ROLES, 200)


@dataclass
class World:
    gene_id: str  # owned by the admin's key
    asset_id: str
    trajectory_id: str  # sent by the producer's key, merged into the Gene as a proposed guard
    key_id: str  # a consumer key the admin may revoke
    guard_id: int
    heir_id: str  # a producer key the Gene may be transferred to
    subscription_id: str  # a webhook subscription the admin may list and remove


@dataclass
class Call:
    method: str
    path: str
    expected: dict[str, int]
    body: Callable[[str, World], dict[str, Any] | list[Any]] | None = None

    def url(self, world: World) -> str:
        return self.path.format(
            gene_id=world.gene_id,
            asset_id=world.asset_id,
            trajectory_id=world.trajectory_id,
            key_id=world.key_id,
            guard_id=world.guard_id,
            subscription_id=world.subscription_id,
            version=1,
            node_id="node_0123456789abcdef",  # no such node: the admin's DELETE is a 404
        )


def publish_body(role: str, world: World) -> dict[str, Any]:
    return publish_payload(gene=gene_doc(id=f"gene_matrix_{role}"))


def trajectory_body(role: str, world: World) -> dict[str, Any]:
    return trajectory_payload(
        task={"id": f"matrix-{role}", "family": "code_generation", "description": "x y z"}
    )


def outcome_body(role: str, world: World) -> dict[str, Any]:
    return {"asset_id": world.asset_id, "consumer_model": "m", "task_id": f"t-{role}", "success": True}


CALLS = [
    Call("GET", "/healthz", PUBLIC),
    Call("GET", "/readyz", PUBLIC),
    Call("GET", "/v1/genes", READ),
    Call("GET", "/v1/genes/{gene_id}", READ),
    Call("GET", "/v1/genes/{gene_id}/versions", READ),
    Call("GET", "/v1/genes/{gene_id}/versions/{version}", READ),
    Call("GET", "/v1/assets/{asset_id}", READ),
    Call("GET", "/v1/genes/{gene_id}/prompt", READ),
    Call("GET", "/v1/genes/{gene_id}/stats", READ),
    Call("GET", "/v1/genes/{gene_id}/events", READ),
    Call("GET", "/v1/genes/{gene_id}/lineage", READ),
    Call("GET", "/v1/genes/{gene_id}/guards", READ),
    Call("GET", "/v1/producers", READ),
    Call("POST", "/v1/search", READ, lambda role, world: {"query": "pytest network failures"}),
    Call("POST", "/v1/match", READ, lambda role, world: {"task": "pytest network failures"}),
    Call(
        "POST",
        "/v1/genes",
        {"anonymous": 401, "consumer": 403, "producer": 201, "admin": 201, "revoked": 401},
        publish_body,
    ),
    Call(
        "POST",
        "/v1/genes/batch",
        {"anonymous": 401, "consumer": 403, "producer": 200, "admin": 200, "revoked": 401},
        lambda role, world: [publish_payload(gene=gene_doc(id=f"gene_matrix_batch_{role}"))],
    ),
    Call(
        "POST",
        "/v1/genes/validate",
        {"anonymous": 401, "consumer": 200, "producer": 200, "admin": 200, "revoked": 401},
        lambda role, world: gene_doc(),
    ),
    Call(
        "POST",
        "/v1/trajectories",
        {"anonymous": 401, "consumer": 403, "producer": 202, "admin": 202, "revoked": 401},
        trajectory_body,
    ),
    Call(
        "POST",
        "/v1/trajectories/batch",
        {"anonymous": 401, "consumer": 403, "producer": 200, "admin": 200, "revoked": 401},
        lambda role, world: [trajectory_body(f"batch-{role}", world)],
    ),
    Call(
        "GET",
        "/v1/trajectories",
        {"anonymous": 401, "consumer": 403, "producer": 200, "admin": 200, "revoked": 401},
    ),
    Call(
        "GET",
        "/v1/trajectories/{trajectory_id}",
        {"anonymous": 401, "consumer": 403, "producer": 200, "admin": 200, "revoked": 401},
    ),
    Call(
        "POST",
        "/v1/genes/{gene_id}/outcomes",
        # The admin's key owns the Gene: its reports would be self-reports.
        {"anonymous": 401, "consumer": 201, "producer": 201, "admin": 403, "revoked": 401},
        outcome_body,
    ),
    Call(
        "POST",
        "/v1/genes/{gene_id}/guards/{guard_id}/approve",
        # Only the Gene's owner (here the admin) or an admin reviews its guards.
        {"anonymous": 401, "consumer": 403, "producer": 403, "admin": 200, "revoked": 401},
        lambda role, world: {"note": f"matrix {role}"},
    ),
    Call(
        "POST",
        "/v1/genes/{gene_id}/guards/{guard_id}/reject",
        {"anonymous": 401, "consumer": 403, "producer": 403, "admin": 200, "revoked": 401},
    ),
    Call(
        "POST",
        "/v1/genes/{gene_id}/status",
        {"anonymous": 401, "consumer": 403, "producer": 403, "admin": 200, "revoked": 401},
        lambda role, world: {"status": "promoted" if role == "admin" else "deprecated", "reason": "matrix"},
    ),
    Call(
        "POST",
        "/v1/admin/keys",
        {"anonymous": 401, "consumer": 403, "producer": 403, "admin": 201, "revoked": 401},
        lambda role, world: {"name": f"made by {role}", "role": "consumer"},
    ),
    Call(
        "GET",
        "/v1/admin/keys",
        {"anonymous": 401, "consumer": 403, "producer": 403, "admin": 200, "revoked": 401},
    ),
    Call(
        "POST",
        "/v1/admin/nodes",
        {"anonymous": 401, "consumer": 403, "producer": 403, "admin": 201, "revoked": 401},
        lambda role, world: {"key_id": world.heir_id},
    ),
    Call(
        "GET",
        "/v1/admin/nodes",
        {"anonymous": 401, "consumer": 403, "producer": 403, "admin": 200, "revoked": 401},
    ),
    Call(
        "DELETE",
        "/v1/admin/nodes/{node_id}",
        {"anonymous": 401, "consumer": 403, "producer": 403, "admin": 404, "revoked": 401},
    ),
    Call(
        "GET",
        "/v1/admin/audit",
        {"anonymous": 401, "consumer": 403, "producer": 403, "admin": 200, "revoked": 401},
    ),
    Call("GET", "/v1/feed", READ),
    Call(
        "GET",
        "/metrics",
        {"anonymous": 401, "consumer": 403, "producer": 403, "admin": 200, "revoked": 401},
    ),
    Call(
        "POST",
        "/v1/admin/webhooks",
        {"anonymous": 401, "consumer": 403, "producer": 403, "admin": 201, "revoked": 401},
        lambda role, world: {"url": f"https://hooks.example.org/{role}", "events": ["gene.promoted"]},
    ),
    Call(
        "GET",
        "/v1/admin/webhooks",
        {"anonymous": 401, "consumer": 403, "producer": 403, "admin": 200, "revoked": 401},
    ),
    Call(
        "GET",
        "/v1/admin/webhooks/{subscription_id}/deliveries",
        {"anonymous": 401, "consumer": 403, "producer": 403, "admin": 200, "revoked": 401},
    ),
    Call(
        "POST",
        "/v1/admin/webhooks/{subscription_id}/deliveries/1/replay",
        # Allowed, and the subscription has no delivery 1 (none was planned in the test).
        {"anonymous": 401, "consumer": 403, "producer": 403, "admin": 404, "revoked": 401},
    ),
    Call(
        "DELETE",
        "/v1/admin/webhooks/{subscription_id}",
        {"anonymous": 401, "consumer": 403, "producer": 403, "admin": 200, "revoked": 401},
    ),
    Call(
        "DELETE",
        "/v1/admin/keys/{key_id}",
        {"anonymous": 401, "consumer": 403, "producer": 403, "admin": 200, "revoked": 401},
    ),
    # Last: it hands the Gene to another key.
    Call(
        "POST",
        "/v1/genes/{gene_id}/owner",
        {"anonymous": 401, "consumer": 403, "producer": 403, "admin": 200, "revoked": 401},
        lambda role, world: {"key_id": world.heir_id},
    ),
]


@pytest.fixture
async def world(
    client_as: Callable[[str | None], httpx.AsyncClient], session: AsyncSession, embeddings: EmbeddingService
) -> World:
    admin = client_as("admin")
    published = (await admin.post("/v1/genes", json=publish_payload())).json()
    trajectory = await client_as("producer").post(
        "/v1/trajectories", json=trajectory_payload(gene_id=published["gene_id"], guards=[FOREIGN_GUARD])
    )
    result = await merge_next(session, embeddings)
    assert result is not None and result.state == "merged", result
    guards = (await admin.get(f"/v1/genes/{published['gene_id']}/guards")).json()["items"]
    [guard] = [g for g in guards if g["text"] == FOREIGN_GUARD]
    assert guard["state"] == "proposed" and not guard["kept"]
    victim = (await admin.post("/v1/admin/keys", json={"name": "to revoke", "role": "consumer"})).json()
    heir = (await admin.post("/v1/admin/keys", json={"name": "heir", "role": "producer"})).json()
    hook = {"url": "https://hooks.example.org/matrix", "events": ["gene.published"]}
    subscription = (await admin.post("/v1/admin/webhooks", json=hook)).json()
    return World(
        published["gene_id"],
        published["asset_id"],
        trajectory.json()["id"],
        victim["id"],
        guard["id"],
        heir["id"],
        subscription["id"],
    )


def test_the_matrix_covers_every_operation(app: FastAPI) -> None:
    """Every operation but the GEP hub's, whose callers are nodes, not keys (tests/a2a/test_hub.py
    checks that no API key opens it)."""
    documented = {
        (method.upper(), path)
        for path, operations in app.openapi()["paths"].items()
        for method in operations
        if not path.startswith("/a2a/")
    }
    called = {
        (call.method, call.path.replace("/deliveries/1/", "/deliveries/{delivery_id}/")) for call in CALLS
    }
    assert documented == called


@pytest.mark.parametrize("role", ROLES)
async def test_authorization_matrix(
    role: str, world: World, client_as: Callable[[str | None], httpx.AsyncClient]
) -> None:
    client = client_as(None if role == "anonymous" else role)
    for call in CALLS:
        body = call.body(role, world) if call.body else None
        response = await client.request(call.method, call.url(world), json=body)
        expected = call.expected[role]
        assert response.status_code == expected, f"{role} {call.method} {call.path}: {response.text[:300]}"
        if expected in (401, 403):
            assert response.headers["content-type"] == "application/problem+json"
        if expected == 401:
            assert response.headers["www-authenticate"].startswith("Bearer")


async def test_anonymous_reads_when_the_registry_is_public(
    app: FastAPI, world: World, client_as: Callable[[str | None], httpx.AsyncClient]
) -> None:
    app.state.settings = app.state.settings.model_copy(update={"anonymous_read": True})
    anonymous = client_as(None)
    for call in CALLS:
        body = call.body("anonymous", world) if call.body else None
        response = await anonymous.request(call.method, call.url(world), json=body)
        expected = 200 if call.expected is READ else call.expected["anonymous"]
        assert response.status_code == expected, f"{call.method} {call.path}: {response.text[:200]}"
    revoked = await client_as("revoked").get(f"/v1/genes/{world.gene_id}")
    assert revoked.status_code == 401  # a bad key is refused, never downgraded to anonymous


async def test_a_producer_cannot_touch_another_producers_gene(
    app: FastAPI, client_as: Callable[[str | None], httpx.AsyncClient]
) -> None:
    admin = client_as("admin")
    alice_key = (await admin.post("/v1/admin/keys", json={"name": "alice", "role": "producer"})).json()["key"]
    alice = httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app),
        base_url="http://genebank.test",
        headers={"Authorization": f"Bearer {alice_key}"},
    )
    bob = client_as("producer")
    v1 = (await alice.post("/v1/genes", json=publish_payload())).json()
    next_version = publish_payload(gene=gene_doc(parent=v1["asset_id"], summary="bob's rewrite"))
    refused = await bob.post("/v1/genes", json=next_version)
    assert refused.status_code == 403
    assert refused.json()["type"].endswith("/not-owner")
    revoke = await bob.post(
        f"/v1/genes/{v1['gene_id']}/status", json={"status": "revoked", "reason": "mine now"}
    )
    assert revoke.status_code == 403
    assert (await alice.post("/v1/genes", json=next_version)).status_code == 201
    assert (
        await admin.post(
            "/v1/genes",
            json=publish_payload(
                gene=gene_doc(
                    parent=(await alice.get(f"/v1/genes/{v1['gene_id']}")).json()["asset_id"],
                    summary="admin edit",
                )
            ),
        )
    ).status_code == 201
    own = await alice.post(
        f"/v1/genes/{v1['gene_id']}/status", json={"status": "revoked", "reason": "leaked"}
    )
    assert own.status_code == 200 and own.json()["actor"] == "alice"
    await alice.aclose()


async def test_registry_computed_fields_cannot_be_set_by_clients(client: httpx.AsyncClient) -> None:
    for field, value in (
        ("status", "promoted"),
        ("version", 7),
        ("quality", 1.0),
        ("valid_from", "2020-01-01"),
    ):
        payload = publish_payload()
        payload[field] = value
        response = await client.post("/v1/genes", json=payload)
        assert response.status_code == 422, field
    provenance = publish_payload()
    provenance["provenance"]["evidence_count"] = 99
    assert (await client.post("/v1/genes", json=provenance)).status_code == 422
    wrong_asset = publish_payload(gene={**gene_doc(), "asset_id": "sha256:" + "1" * 64})
    assert (await client.post("/v1/genes", json=wrong_asset)).status_code == 422
