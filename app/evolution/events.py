"""The shape of evolution events: what each kind of change records about a Gene."""

from __future__ import annotations

import os
import socket
import uuid
from collections.abc import Sequence
from typing import Any

from app.evolution.merge import MergePlan
from app.models import EventKind, GeneVersion

API_ACTOR = "api"


def worker_actor() -> str:
    return f"worker:{socket.gethostname()}:{os.getpid()}"


def published_event(
    previous: GeneVersion | None, version: GeneVersion, trajectory_ids: Sequence[uuid.UUID]
) -> dict[str, Any]:
    """A version sent to POST /v1/genes: its guard changes are the difference of the `avoid` lists."""
    old_avoid = list((previous.document.get("avoid") or []) if previous else [])
    new_avoid = list(version.document.get("avoid") or [])
    return {
        "gene_id": version.gene_id,
        "kind": EventKind.published.value,
        "trajectory_ids": list(trajectory_ids),
        "guards_added": [{"text": text} for text in new_avoid if text not in old_avoid],
        "guards_merged": [],
        "guards_dropped": [
            {"text": text, "reason": "removed by a published version"}
            for text in old_avoid
            if text not in new_avoid
        ],
        "old_asset_id": previous.asset_id if previous else None,
        "new_asset_id": version.asset_id,
        "old_version": previous.version if previous else None,
        "new_version": version.version,
        "actor": API_ACTOR,
    }


def guard_changes(plan: MergePlan, resynced: Sequence[dict[str, Any]] = ()) -> dict[str, Any]:
    """The guards part of a worker event (ids are set: the plan has been written).

    Events are public: they name guards (whose texts `/guards` shows anyway), never the wording a
    run sent for a guard it merged into.
    """
    return {
        "guards_added": [{"guard_id": g.id, "text": g.text, "state": g.state} for g in plan.added],
        "guards_merged": [
            {
                "guard_id": m.into.id,
                "text": m.into.text,
                "similarity": round(m.similarity, 4),
                "evidence": m.into.evidence,
                "counted": m.counted,
                "state": m.into.state,
            }
            for m in plan.merged
        ],
        "guards_dropped": [
            *resynced,
            *(
                {"guard_id": g.id, "text": g.text, "evidence": g.evidence, "reason": "cap"}
                for g in plan.dropped
            ),
        ],
    }
