"""A trajectory's stored form and its content hash (the idempotency key for identical submissions).

Secrets are redacted first (app/redaction.py), so neither the stored row nor the hash ever sees them.
"""

from __future__ import annotations

import hashlib
import uuid
from typing import Any, Protocol, cast

from app.gep.canonical import JSONValue, canonical_json
from app.redaction import Redactor
from app.schemas import Cost, Step, TaskRef, Verifier


class TrajectoryLike(Protocol):
    task: TaskRef
    steps: list[Step]
    verifier: Verifier


def text_size(body: TrajectoryLike) -> int:
    """Roughly how much text redaction and hashing will go through (characters)."""
    size = len(body.task.description) + len(str(body.verifier.details or ""))
    for step in body.steps:
        size += len(step.action) + len(step.observation or "") + len(step.error or "")
    return size


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
    redactor = Redactor()
    task_dict: dict[str, Any] = redactor.json(task.model_dump(exclude_none=True))
    step_dicts: list[dict[str, Any]] = redactor.json([step.model_dump(exclude_none=True) for step in steps])
    verifier_dict: dict[str, Any] = redactor.json(verifier.model_dump(exclude_none=True))
    guards = redactor.json(guards) if guards is not None else None
    gene_draft = redactor.json(gene_draft) if gene_draft is not None else None
    producer_agent = redactor.text(producer_agent) if producer_agent is not None else None
    cost_dict = cost.model_dump(exclude_none=True) if cost else {}
    hashed = {
        "task": task_dict,
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
        "task_id": task_dict["id"],
        "task_family": task_dict.get("family"),
        "task_description": task_dict["description"],
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
        "redaction_count": redactor.count,
    }
