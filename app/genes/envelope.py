"""JSON for a Gene version, assembled from one database row without an ORM or validation pass.

Fetch-by-id is the registry's hottest path. The row carries the document and verifier as JSON text,
which is spliced in as is; the rest is a small dict for json.dumps. The shape is GeneVersionRead's,
and tests compare the two.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import orjson


@dataclass(frozen=True)
class VersionView:
    row: Mapping[str, Any]

    @property
    def gene_id(self) -> str:
        return str(self.row["gene_id"])

    @property
    def asset_id(self) -> str:
        return str(self.row["asset_id"])

    @property
    def version(self) -> int:
        return int(self.row["version"])

    def document(self) -> dict[str, Any]:
        document: dict[str, Any] = json.loads(self.row["document_json"])
        return document

    def to_json(self) -> bytes:
        row = self.row
        task = None
        if row["task_id"] is not None:
            task = {
                "id": row["task_id"],
                "family": row["task_family"],
                "description": row["task_description"],
            }
        cost = None
        if any(row[key] is not None for key in ("cost_tokens", "cost_attempts", "cost_seconds")):
            cost = {
                "tokens": row["cost_tokens"],
                "attempts": row["cost_attempts"],
                "seconds": row["cost_seconds"],
            }
        envelope = {
            "gene_id": row["gene_id"],
            "version": row["version"],
            "asset_id": row["asset_id"],
            "parent_asset_id": row["parent_asset_id"],
            "current": row["version"] == row["current_version"],
            "status": row["status"],
            "status_message": row["status_message"],
            "category": row["category"],
            "task_family": row["gene_task_family"],
            "valid_from": row["valid_from"],
            "valid_to": row["valid_to"],
            "gene_created_at": row["gene_created_at"],
            "gene_updated_at": row["gene_updated_at"],
            "owner": {"key_id": row["owner_key_id"], "name": row["owner_name"]},
            "reason": row["reason"],
            "generation_meta": row["generation_meta"],
        }
        provenance = {
            "kind": row["provenance_kind"],
            "producer_model": row["producer_model"],
            "task": task,
            "cost": cost,
            "trajectory_ids": row["trajectory_ids"] or [],
            "guard_trajectory_ids": row["guard_trajectory_ids"] or [],
            "published_by": {"key_id": row["published_by"], "name": row["published_by_name"]},
        }
        # orjson writes datetimes as RFC 3339 (…Z, like pydantic) and UUIDs as strings, in C.
        verifier = (row["verifier_json"] or "null").encode()
        return b"".join(
            (
                orjson.dumps(envelope, option=orjson.OPT_UTC_Z)[:-1],
                b',"provenance":',
                orjson.dumps(provenance)[:-1],
                b',"verifier":',
                verifier,
                b'},"document":',
                row["document_json"].encode(),
                b"}",
            )
        )
