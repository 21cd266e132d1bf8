"""A trajectory's stored form and its content hash (the idempotency key for identical submissions)."""

from __future__ import annotations

import hashlib
import uuid
from typing import Any, cast

from app.gep.canonical import JSONValue, canonical_json
from app.schemas import Cost, Step, TaskRef, Verifier


def trajectory_values(
    *,
    task: TaskRef,
    producer_model: str,
    producer_agent: str | None,
    steps: list[Step],
    verifier: Verifier,
    cost: Cost | None,
    guards: list[str] | None = None,
    gene_draft: dict[str, Any] | None = None,
    target_gene_id: str | None = None,
) -> dict[str, Any]:
    """Column values for a new `trajectories` row, including the hash of everything submitted."""
    step_dicts = [step.model_dump(exclude_none=True) for step in steps]
    verifier_dict = verifier.model_dump(exclude_none=True)
    cost_dict = cost.model_dump(exclude_none=True) if cost else {}
    hashed = {
        "task": task.model_dump(exclude_none=True),
        "producer": {"model": producer_model, "agent": producer_agent},
        "steps": step_dicts,
        "verifier": verifier_dict,
        "cost": cost_dict,
        "guards": guards,
        "gene_draft": gene_draft,
        "target_gene_id": target_gene_id,
    }
    content_hash = "sha256:" + hashlib.sha256(canonical_json(cast(JSONValue, hashed)).encode()).hexdigest()
    return {
        "id": uuid.uuid4(),
        "content_hash": content_hash,
        "task_id": task.id,
        "task_family": task.family,
        "task_description": task.description,
        "producer_model": producer_model,
        "producer_agent": producer_agent,
        "steps": step_dicts,
        "verifier": verifier_dict,
        "verifier_passed": verifier.passed,
        "cost_tokens": cost_dict.get("tokens"),
        "cost_attempts": cost_dict.get("attempts"),
        "cost_seconds": cost_dict.get("seconds"),
        "guards": guards,
        "gene_draft": gene_draft,
        "target_gene_id": target_gene_id,
    }
