"""Builders for realistic request payloads; each test overrides only what it is about."""

from __future__ import annotations

import copy
from typing import Any

BASE_GENE: dict[str, Any] = {
    "type": "Gene",
    "schema_version": "1.13.0",
    "id": "gene_pytest_flaky_network",
    "category": "repair",
    "summary": "Stabilise pytest suites that fail on network access",
    "signals_match": ["pytest", "ConnectionError", "/flaky.*network/i"],
    "preconditions": ["the repository uses pytest"],
    "strategy": [
        "Find tests that open sockets with `pytest --setup-show` and a socket guard",
        "Mock the HTTP layer with responses or respx instead of calling the network",
        "Mark the remaining integration tests and skip them when offline",
    ],
    "anti_patterns": [
        {
            "mode": "avoid",
            "reason_class": "Do not raise the global timeout: the verifier caps runtime at 60 s",
        }
    ],
    "constraints": {"max_files": 5, "forbidden_paths": [".git"]},
    "validation": ["pytest -q"],
    "model_name": "claude-opus-4-5",
}

BASE_PROVENANCE: dict[str, Any] = {
    "kind": "verified_trajectory",
    "producer_model": "claude-opus-4-5",
    "verifier": {"name": "pytest", "version": "8.3", "passed": True, "score": 1.0, "details": {"tests": 42}},
    "task": {
        "id": "code-0001",
        "family": "code_generation",
        "description": "Make the test suite of a small HTTP client pass without network access",
    },
    "cost": {"tokens": 48213, "attempts": 3, "seconds": 412.5},
}


def gene_doc(**overrides: Any) -> dict[str, Any]:
    """A GEP Gene; `avoid=[texts]` gives it those guards (as anti_patterns entries, GEP's form)."""
    doc = copy.deepcopy(BASE_GENE)
    if "avoid" in overrides:
        guards = overrides.pop("avoid")
        doc["anti_patterns"] = [{"mode": "avoid", "reason_class": text} for text in guards or []] or None
    doc.update(overrides)
    return {k: v for k, v in doc.items() if v is not None}


def publish_payload(gene: dict[str, Any] | None = None, **provenance: Any) -> dict[str, Any]:
    prov = copy.deepcopy(BASE_PROVENANCE)
    prov.update(provenance)
    return {
        "gene": gene if gene is not None else gene_doc(),
        "provenance": {k: v for k, v in prov.items() if v is not None},
    }
