"""Guards as GEP anti_patterns: served Genes carry only GEP fields (and model_name)

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-03 13:00:00

A Gene's failure guards were an `avoid` list of strings, and every version after the first carried
`parent` (and a worker-made one `generation_meta`): fields GEP's Gene schema refuses. From now on a
guard is a GEP `anti_patterns` entry `{"mode": "avoid", "reason_class": "<guard text>"}` and `parent`
and `generation_meta` are registry facts outside the hashed document (app/gep/document.py).

Upgrade:
- adds `gene_versions.generation_meta` (JSONB) and fills it, for every version, from its document;
- allows the version reason `gep_format`;
- for every Gene whose current version has `avoid`, `parent` or `generation_meta`, writes the next
  version with the same content in GEP form (a new asset_id; its parent the old version; the old
  version's provenance, vectors and linked runs; reason `gep_format`) and makes it current. Old
  versions are untouched, so their asset_ids keep resolving. When the GEP form is byte for byte an
  earlier version (all guards dropped since), one learning_history entry makes it a new document,
  as the registry does for any such version (app/genes/versions.py).

Downgrade removes the `gep_format` versions that are still current (their Genes point at the version
before again), clears the reason of the others, and drops the column and the reason. Versions written
in GEP form by the new code stay as they are.

The canonical JSON below is a frozen copy of app/gep/canonical.py (GEP's content addressing), so this
migration hashes the same way whatever becomes of the application code.
"""

import hashlib
import json
import math
import re
from collections.abc import Sequence
from datetime import UTC, datetime
from json.encoder import encode_basestring  # type: ignore[attr-defined]
from typing import Any

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0018"
down_revision: str | None = "0017"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

OLD_REASONS = ("published", "founded", "guards_added", "guards_merged", "reordered", "dropped")
NEW_REASONS = (*OLD_REASONS, "gep_format")
LEGACY = ("avoid", "parent", "generation_meta")
CONSTRAINT = "ck_gene_versions_reason_valid"


# --- canonical JSON (frozen copy of app/gep/canonical.py) ---------------------------------------
_MAX_SAFE_INT = 2**53
_SURROGATES = re.compile("[\ud800-\udbff][\udc00-\udfff]|[\ud800-\udfff]")


def _fix_surrogate(match: re.Match[str]) -> str:
    text = match.group()
    if len(text) == 2:
        return chr(0x10000 + ((ord(text[0]) - 0xD800) << 10) + (ord(text[1]) - 0xDC00))
    return f"\\u{ord(text):04x}"


def _quote(text: str) -> str:
    encoded: str = encode_basestring(text)
    if not encoded.isascii() and _SURROGATES.search(encoded) is not None:
        encoded = _SURROGATES.sub(_fix_surrogate, encoded)
    return encoded


def _js_number(value: int | float) -> str:
    if isinstance(value, int):
        number = int(value)
        if -_MAX_SAFE_INT <= number <= _MAX_SAFE_INT:
            return str(number)
        try:
            value = float(number)
        except OverflowError:
            return "null"
    else:
        value = float(value)
    if not math.isfinite(value):
        return "null"
    if value == 0.0:
        return "0"
    text = repr(value)
    mantissa, sep, exp_text = text.partition("e")
    if not sep:
        return text[:-2] if text.endswith(".0") else text
    exponent = int(exp_text)
    sign = ""
    if mantissa[0] == "-":
        sign = "-"
        mantissa = mantissa[1:]
    point = exponent + 1
    if point > 21 or point <= -6:
        return f"{sign}{mantissa}e{'+' if exponent >= 0 else '-'}{abs(exponent)}"
    digits = mantissa.replace(".", "")
    if point >= len(digits):
        return sign + digits + "0" * (point - len(digits))
    if point > 0:
        return sign + digits[:point] + "." + digits[point:]
    return sign + "0." + "0" * -point + digits


def _canonical(value: Any) -> str:
    if isinstance(value, str):
        return _quote(value)
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, (int, float)):
        return _js_number(value)
    if isinstance(value, dict):
        keys = sorted(value, key=lambda key: key.encode("utf-16-be", "surrogatepass"))
        return "{" + ",".join(_quote(key) + ":" + _canonical(value[key]) for key in keys) + "}"
    if isinstance(value, list):
        return "[" + ",".join(_canonical(item) for item in value) + "]"
    raise TypeError(f"{type(value).__name__} is not a JSON value")


def _asset_id(body: dict[str, Any]) -> str:
    return "sha256:" + hashlib.sha256(_canonical(body).encode("utf-8")).hexdigest()


# --- the GEP form (as app/gep/document.py's to_gep was when this was written) -------------------
def _is_guard(entry: Any) -> bool:
    return (
        isinstance(entry, dict)
        and entry.get("mode") == "avoid"
        and isinstance(entry.get("reason_class"), str)
    )


def _gep_form(document: dict[str, Any]) -> dict[str, Any]:
    result = {key: value for key, value in document.items() if key not in LEGACY}
    current = list(document.get("anti_patterns") or [])
    existing: dict[str, Any] = {}
    for entry in current:
        if _is_guard(entry):
            existing.setdefault(entry["reason_class"], entry)
    texts = list(existing) + [str(text) for text in document.get("avoid") or [] if isinstance(text, str)]
    entries = [entry for entry in current if not _is_guard(entry)]
    entries += [
        existing.get(text) or {"mode": "avoid", "reason_class": text} for text in dict.fromkeys(texts)
    ]
    if entries:
        result["anti_patterns"] = entries[-12:]
    return result


def _reason_check(reasons: Sequence[str]) -> str:
    return "reason IS NULL OR reason IN (" + ", ".join(f"'{r}'" for r in reasons) + ")"


def upgrade() -> None:
    op.add_column("gene_versions", sa.Column("generation_meta", postgresql.JSONB(), nullable=True))
    op.drop_constraint(op.f(CONSTRAINT), "gene_versions", type_="check")
    op.create_check_constraint(op.f(CONSTRAINT), "gene_versions", _reason_check(NEW_REASONS))
    conn = op.get_bind()
    conn.execute(
        sa.text(
            "UPDATE gene_versions SET generation_meta = document -> 'generation_meta' "
            "WHERE jsonb_typeof(document -> 'generation_meta') = 'object'"
        )
    )
    # The next version: the same row (provenance, vectors, generation_meta) with the GEP document.
    insert = sa.text(
        "INSERT INTO gene_versions (version, asset_id, parent_asset_id, canonical_json, document_json, document,"
        " reason, valid_from, valid_to, created_at, gene_id, producer_model, provenance_kind, verifier, task_id,"
        " task_family, task_description, cost_tokens, cost_attempts, cost_seconds, published_by, generation_meta,"
        " embedding, embedding_model, search_tsv, signals_tsv)"
        " SELECT version + 1, :asset_id, asset_id, :canonical, :served, CAST(:document AS jsonb), 'gep_format',"
        " now(), NULL, now(), gene_id, producer_model, provenance_kind, verifier, task_id,"
        " task_family, task_description, cost_tokens, cost_attempts, cost_seconds, published_by, generation_meta,"
        " embedding, embedding_model, search_tsv, signals_tsv"
        " FROM gene_versions WHERE id = :old_id RETURNING id"
    )
    rows = conn.execute(
        sa.text(
            "SELECT v.id, v.gene_id, v.version, v.document_json FROM genes g"
            " JOIN gene_versions v ON v.gene_id = g.id AND v.version = g.current_version"
            " WHERE v.document ?| array['avoid', 'parent', 'generation_meta'] ORDER BY g.id"
        )
    ).all()
    for old_id, gene_id, version, document_json in rows:
        document = json.loads(document_json)
        document.pop("asset_id", None)
        body = _gep_form(document)
        asset_id = _asset_id(body)
        taken = sa.text("SELECT 1 FROM gene_versions WHERE asset_id = :asset_id")
        while conn.execute(taken, {"asset_id": asset_id}).first() is not None:
            entry = {"at": datetime.now(UTC).isoformat(timespec="microseconds"), "mode": "registry"}
            entry["reason_class"] = "gep_format"
            body = {**body, "learning_history": [*(body.get("learning_history") or []), entry][-20:]}
            asset_id = _asset_id(body)
        served = {**body, "asset_id": asset_id}
        conn.execute(sa.text("UPDATE gene_versions SET valid_to = now() WHERE id = :id"), {"id": old_id})
        new_id = conn.execute(
            insert,
            {
                "asset_id": asset_id,
                "canonical": _canonical(body),
                "served": _canonical(served),
                "document": _canonical(served),
                "old_id": old_id,
            },
        ).scalar_one()
        conn.execute(
            sa.text(
                "INSERT INTO version_trajectories (version_id, trajectory_id, role)"
                " SELECT :new_id, trajectory_id, role FROM version_trajectories WHERE version_id = :old_id"
            ),
            {"new_id": new_id, "old_id": old_id},
        )
        conn.execute(
            sa.text(
                "UPDATE genes SET current_version = :version, current_asset_id = :asset_id, updated_at = now()"
                " WHERE id = :gene_id"
            ),
            {"version": version + 1, "asset_id": asset_id, "gene_id": gene_id},
        )


def downgrade() -> None:
    conn = op.get_bind()
    rows = conn.execute(
        sa.text(
            "SELECT v.id, v.gene_id, v.version FROM genes g"
            " JOIN gene_versions v ON v.gene_id = g.id AND v.version = g.current_version"
            " WHERE v.reason = 'gep_format'"
        )
    ).all()
    for version_id, gene_id, version in rows:
        conn.execute(sa.text("DELETE FROM gene_versions WHERE id = :id"), {"id": version_id})
        previous = conn.execute(
            sa.text(
                "UPDATE gene_versions SET valid_to = NULL WHERE gene_id = :gene_id AND version = :version"
                " RETURNING asset_id"
            ),
            {"gene_id": gene_id, "version": version - 1},
        ).scalar_one()
        conn.execute(
            sa.text(
                "UPDATE genes SET current_version = :version, current_asset_id = :asset_id, updated_at = now()"
                " WHERE id = :gene_id"
            ),
            {"version": version - 1, "asset_id": previous, "gene_id": gene_id},
        )
    conn.execute(sa.text("UPDATE gene_versions SET reason = NULL WHERE reason = 'gep_format'"))
    op.drop_constraint(op.f(CONSTRAINT), "gene_versions", type_="check")
    op.create_check_constraint(op.f(CONSTRAINT), "gene_versions", _reason_check(OLD_REASONS))
    op.drop_column("gene_versions", "generation_meta")
