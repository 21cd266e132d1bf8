"""The shape of the worker's evolution events: what a merge or founding records about the guards."""

from __future__ import annotations

import os
import socket
from collections.abc import Sequence
from typing import Any

from app.evolution.merge import MergePlan


def worker_actor() -> str:
    return f"worker:{socket.gethostname()}:{os.getpid()}"


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
        ]
        # Two guards of the Gene found to be one (merge.py): the folded one's row is gone.
        + [
            {
                "guard_id": survivor.id,
                "text": survivor.text,
                "evidence": survivor.evidence,
                "state": survivor.state,
                "folded_guard_id": absorbed.id,
                "folded_text": absorbed.text,
            }
            for survivor, absorbed in plan.folded
        ],
        "guards_dropped": [
            *resynced,
            *(
                {"guard_id": g.id, "text": g.text, "evidence": g.evidence, "reason": "cap"}
                for g in plan.dropped
            ),
        ],
    }
