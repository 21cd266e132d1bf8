"""Helpers for the GEP hub tests: a node's side of the wire contract, written from the contract itself
(docs/a2a.md, the captured bodies), not from the hub's code."""

from __future__ import annotations

import copy
import hashlib
import hmac
import itertools
import json
import time
from dataclasses import dataclass
from typing import Any

import httpx

# The Gene and Capsule the real evolver 1.94.0 client published on the wire (the contract's §5),
# with the asset_ids it computed.
GENE: dict[str, Any] = {
    "type": "Gene",
    "id": "gene_probe_retry_timeout",
    "category": "repair",
    "signals_match": ["timeout", "ETIMEDOUT", "retry"],
    "preconditions": ["network call times out intermittently"],
    "strategy": ["Wrap the call in bounded exponential backoff", "Cap attempts at 3", "Log each retry"],
    "constraints": {"max_files": 3, "forbidden_paths": [".git", "node_modules"]},
    "validation": ["node -e \"require('./retry')\""],
    "summary": "Retry transient network timeouts with bounded exponential backoff",
    "schema_version": "1.6.0",
    "asset_id": "sha256:9ef0a8faded85293b66ba9689d3c348a2a7ff873c1dc72ccd95f4edf13704906",
}
CAPSULE: dict[str, Any] = {
    "type": "Capsule",
    "id": "capsule_probe_retry_timeout_1",
    "schema_version": "1.13.0",
    "trigger": ["timeout", "ETIMEDOUT"],
    "gene": "gene_probe_retry_timeout",
    "summary": "Added bounded exponential backoff (3 attempts) around HTTP client call; "
    "flaky ETIMEDOUT test now passes",
    "confidence": 0.9,
    "blast_radius": {"files": 1, "lines": 24},
    "outcome": {"status": "success", "score": 0.92},
    "success_streak": 3,
    "env_fingerprint": {"platform": "linux", "arch": "x64", "node_version": "v20.20.2"},
    "source_type": "generated",
    "a2a": {"eligible_to_broadcast": True},
    "content": "Intent: fix flaky ETIMEDOUT. Change: retry wrapper with backoff 200ms*2^n, max 3 attempts. "
    "Validation: unit test green 20/20 runs.",
    "asset_id": "sha256:36e3d3b28d8da693e7b2b7723b0113e3147b291ae1db972a20a2f715f4bd669d",
    "execution_trace": [
        {"step": 1, "stage": "build", "cmd": "git apply -- 1 file(s), 24 line(s)", "exit": 0}
    ],
}

_counter = itertools.count()


def asset_id(asset: dict[str, Any]) -> str:
    """sha256 of the canonical JSON (sorted keys, no whitespace) without asset_id, for plain JSON
    values whose numbers print alike in Python and JavaScript (all of the tests' do)."""
    body = {key: value for key, value in asset.items() if key != "asset_id"}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()


def hashed(asset: dict[str, Any]) -> dict[str, Any]:
    result = {key: value for key, value in asset.items() if key != "asset_id"}
    result["asset_id"] = asset_id(result)
    return result


def variant(suffix: str, *, success: bool = True) -> tuple[dict[str, Any], dict[str, Any]]:
    """Another Gene + Capsule pair of the same shape, hashed."""
    gene = copy.deepcopy(GENE)
    gene["id"] = f"gene_probe_{suffix}"
    gene["summary"] = f"Retry transient network timeouts ({suffix})"
    capsule = copy.deepcopy(CAPSULE)
    capsule["id"] = f"capsule_probe_{suffix}"
    capsule["gene"] = gene["id"]
    if not success:
        capsule["outcome"] = {"status": "failed", "score": 0.1}
        capsule["execution_trace"] = [{"step": 1, "stage": "test", "cmd": "npm test", "exit": 1}]
    return hashed(gene), hashed(capsule)


@dataclass
class Node:
    """A node's side of the contract over an httpx client."""

    http: httpx.AsyncClient
    node_id: str
    secret: str

    def message_id(self) -> str:
        return f"msg_{int(time.time() * 1000)}_{next(_counter):08x}"

    def envelope(
        self, message_type: str, payload: dict[str, Any], message_id: str | None = None
    ) -> dict[str, Any]:
        return {
            "protocol": "gep-a2a",
            "protocol_version": "1.0.0",
            "message_type": message_type,
            "message_id": message_id or self.message_id(),
            "sender_id": self.node_id,
            "timestamp": "2026-12-03T08:00:00.000Z",
            "payload": payload,
        }

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.secret}"}

    def sign(self, *asset_ids: str) -> str:
        return hmac.new(
            self.secret.encode(), "|".join(sorted(asset_ids)).encode(), hashlib.sha256
        ).hexdigest()

    def bundle(self, gene: dict[str, Any], capsule: dict[str, Any], **extra: Any) -> dict[str, Any]:
        return {
            "assets": [gene, capsule],
            "signature": self.sign(gene["asset_id"], capsule["asset_id"]),
            **extra,
        }

    async def send(
        self, message_type: str, payload: dict[str, Any], *, message_id: str | None = None
    ) -> httpx.Response:
        body = self.envelope(message_type, payload, message_id)
        return await self.http.post(f"/a2a/{message_type}", json=body, headers=self.headers)

    async def post(self, path: str, body: dict[str, Any]) -> httpx.Response:
        return await self.http.post(path, json=body, headers=self.headers)

    def solidify_body(self, gene_id: str) -> dict[str, Any]:
        signals_hash, mutation_hash = "6b433104f5b2506b", "1cba4591c91cef00"
        ts = int(time.time() * 1000)
        key = hashlib.sha256(self.secret.encode()).hexdigest()
        message = f"{self.node_id}|{gene_id}|{signals_hash}|{mutation_hash}|{ts}"
        signature = hmac.new(key.encode(), message.encode(), hashlib.sha256).hexdigest()
        return {
            "sender_id": self.node_id,
            "gene_id": gene_id,
            "signals_hash": signals_hash,
            "mutation_hash": mutation_hash,
            "ts": ts,
            "client_signature": signature,
        }


def client_score(row: dict[str, Any]) -> float:
    """The evolver selector's score of a search row (threshold 0.72)."""
    if row.get("status") not in (None, "promoted"):
        return 0.0
    streak = min(max(row["success_streak"], 1), 5)
    return float(row["confidence"]) * streak * row["reputation_score"] / 100
