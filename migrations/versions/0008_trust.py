"""trust: owners for every Gene, private trajectories, guard backers and states, honest provenance,
outcomes counted by key

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-02 17:00:00

- A `system` key row (it can never authenticate) owns what the command line wrote; unowned Genes
  and trajectories without a submitter get it, and both columns become NOT NULL.
- Trajectories are unique per (submitting key, content hash) instead of globally.
- Guards get a state (active / proposed / rejected) and their backing keys; every existing guard was
  served, so it is active, backed by the submitters of its runs (or the owner, for a guard that came
  with a published document).
- Versions the worker wrote only to change guards take back the strategy's provenance of the
  version before them; their runs are linked with the role `guards`.
- Outcomes take a reason and a note, and whether their key was bound to the consumer model.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

SYSTEM = "00000000-0000-4000-8000-000000000001"
PAIRED_COLUMNS = ("paired_reports", "paired_successes", "paired_baseline_successes")
PROVENANCE_COLUMNS = (
    "producer_model",
    "provenance_kind",
    "verifier",
    "task_id",
    "task_family",
    "task_description",
    "cost_tokens",
    "cost_attempts",
    "cost_seconds",
)


def _run(statement: str) -> None:
    op.get_bind().execute(sa.text(statement), {"system": SYSTEM})


def _refer_to_keys(table: str, column: str, ondelete: str | None) -> None:
    op.drop_constraint(f"fk_{table}_{column}_api_keys", table, type_="foreignkey")
    op.create_foreign_key(
        f"fk_{table}_{column}_api_keys", table, "api_keys", [column], ["id"], ondelete=ondelete
    )


def upgrade() -> None:
    op.add_column("api_keys", sa.Column("consumer_model", sa.Text(), nullable=True))
    _run(
        "INSERT INTO api_keys (id, name, role, prefix, key_hash) "
        "VALUES (:system, 'system', 'admin', 'system', '!') ON CONFLICT DO NOTHING"
    )

    _run("UPDATE genes SET owner_key_id = :system WHERE owner_key_id IS NULL")
    op.alter_column("genes", "owner_key_id", nullable=False)
    _refer_to_keys("genes", "owner_key_id", None)

    _run("UPDATE trajectories SET submitted_by = :system WHERE submitted_by IS NULL")
    op.alter_column("trajectories", "submitted_by", nullable=False)
    _refer_to_keys("trajectories", "submitted_by", None)
    op.drop_constraint("uq_trajectories_content_hash", "trajectories", type_="unique")
    op.create_unique_constraint(
        "uq_trajectories_submitted_by_content_hash", "trajectories", ["submitted_by", "content_hash"]
    )
    op.add_column("trajectories", sa.Column("route_gene_id", sa.Text(), nullable=True))
    op.add_column("trajectories", sa.Column("route_similarity", sa.Double(), nullable=True))

    op.add_column(
        "version_trajectories",
        sa.Column("role", sa.Text(), server_default="strategy", nullable=False),
    )
    op.create_check_constraint(
        op.f("ck_version_trajectories_role_valid"), "version_trajectories", "role IN ('strategy', 'guards')"
    )
    op.add_column("gene_versions", sa.Column("published_by", sa.UUID(), nullable=True))
    conn = op.get_bind()
    merged = conn.execute(
        sa.text(
            "SELECT v.id, p.id AS parent_id, (SELECT t.submitted_by FROM trajectories t "
            "  WHERE t.id = ANY(e.trajectory_ids) LIMIT 1) AS submitter "
            "FROM evolution_events e "
            "JOIN gene_versions v ON v.gene_id = e.gene_id AND v.version = e.new_version "
            "JOIN gene_versions p ON p.gene_id = e.gene_id AND p.version = e.old_version "
            "WHERE e.kind = 'merged' AND e.new_version <> e.old_version "
            "ORDER BY v.gene_id, v.version"
        )
    ).all()
    assignments = ", ".join(f"{c} = p.{c}" for c in PROVENANCE_COLUMNS)
    for version_id, parent_id, submitter in merged:
        # In version order, so a chain of merges copies the strategy's provenance down the chain.
        conn.execute(
            sa.text(
                f"UPDATE gene_versions v SET {assignments} FROM gene_versions p "  # noqa: S608 (constants)
                "WHERE v.id = :version AND p.id = :parent"
            ),
            {"version": version_id, "parent": parent_id},
        )
        conn.execute(
            sa.text("UPDATE version_trajectories SET role = 'guards' WHERE version_id = :version"),
            {"version": version_id},
        )
        if submitter is not None:
            conn.execute(
                sa.text("UPDATE gene_versions SET published_by = :key WHERE id = :version"),
                {"key": submitter, "version": version_id},
            )
    op.execute(
        "UPDATE gene_versions v SET published_by = coalesce(("
        "  SELECT t.submitted_by FROM version_trajectories l JOIN trajectories t ON t.id = l.trajectory_id"
        "  WHERE l.version_id = v.id LIMIT 1), g.owner_key_id) "
        "FROM genes g WHERE g.id = v.gene_id AND v.published_by IS NULL"
    )
    op.alter_column("gene_versions", "published_by", nullable=False)
    op.create_foreign_key(
        "fk_gene_versions_published_by_api_keys", "gene_versions", "api_keys", ["published_by"], ["id"]
    )

    op.add_column("guards", sa.Column("state", sa.Text(), server_default="active", nullable=False))
    op.add_column("guards", sa.Column("hold_reason", sa.Text(), nullable=True))
    op.add_column("guards", sa.Column("reviewed_by", sa.UUID(), nullable=True))
    op.add_column("guards", sa.Column("reviewed_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column("guards", sa.Column("review_note", sa.Text(), nullable=True))
    op.create_foreign_key("fk_guards_reviewed_by_api_keys", "guards", "api_keys", ["reviewed_by"], ["id"])
    op.create_check_constraint(
        op.f("ck_guards_state_valid"), "guards", "state IN ('active', 'proposed', 'rejected')"
    )
    op.create_check_constraint(op.f("ck_guards_kept_is_active"), "guards", "NOT kept OR state = 'active'")
    op.create_table(
        "guard_backers",
        sa.Column("guard_id", sa.BigInteger(), nullable=False),
        sa.Column("key_id", sa.UUID(), nullable=False),
        sa.Column("first_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.ForeignKeyConstraint(
            ["guard_id"], ["guards.id"], name="fk_guard_backers_guard_id_guards", ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(["key_id"], ["api_keys.id"], name="fk_guard_backers_key_id_api_keys"),
        sa.PrimaryKeyConstraint("guard_id", "key_id", name="pk_guard_backers"),
    )
    op.create_index("ix_guard_backers_key_id", "guard_backers", ["key_id"])
    op.execute(
        "INSERT INTO guard_backers (guard_id, key_id, first_at) "
        "SELECT e.guard_id, t.submitted_by, min(t.received_at) FROM guard_evidence e "
        "JOIN trajectories t ON t.id = e.trajectory_id GROUP BY e.guard_id, t.submitted_by"
    )
    op.execute(
        "INSERT INTO guard_backers (guard_id, key_id, first_at) "
        "SELECT g.id, n.owner_key_id, g.first_seen_at FROM guards g JOIN genes n ON n.id = g.gene_id "
        "WHERE NOT EXISTS (SELECT 1 FROM guard_backers b WHERE b.guard_id = g.id)"
    )

    op.add_column("outcomes", sa.Column("reason", sa.Text(), nullable=True))
    op.add_column("outcomes", sa.Column("note", sa.Text(), nullable=True))
    op.add_column("outcomes", sa.Column("model_bound", sa.Boolean(), server_default="false", nullable=False))
    op.create_check_constraint(
        op.f("ck_outcomes_reason_valid"),
        "outcomes",
        "reason IS NULL OR reason IN ('failed', 'partial', 'irrelevant')",
    )
    op.add_column("gene_quality", sa.Column("reporters", sa.Integer(), server_default="0", nullable=False))
    for column in PAIRED_COLUMNS:
        op.alter_column("gene_quality", column, type_=sa.Double(), server_default="0")
    op.execute(
        "UPDATE gene_quality q SET reporters = (SELECT count(DISTINCT o.reporter) FROM outcomes o "
        "WHERE o.gene_id = q.gene_id AND (q.consumer_model = '' OR o.consumer_model = q.consumer_model))"
    )

    op.drop_constraint(op.f("ck_evolution_events_kind_valid"), "evolution_events", type_="check")
    op.create_check_constraint(
        op.f("ck_evolution_events_kind_valid"),
        "evolution_events",
        "kind IN ('published', 'founded', 'merged', 'reviewed')",
    )


def downgrade() -> None:
    op.execute("DELETE FROM evolution_events WHERE kind = 'reviewed'")
    op.drop_constraint(op.f("ck_evolution_events_kind_valid"), "evolution_events", type_="check")
    op.create_check_constraint(
        op.f("ck_evolution_events_kind_valid"),
        "evolution_events",
        "kind IN ('published', 'founded', 'merged')",
    )
    op.drop_column("gene_quality", "reporters")
    for column in PAIRED_COLUMNS:
        op.alter_column(
            "gene_quality",
            column,
            type_=sa.Integer(),
            server_default="0",
            postgresql_using=f"round({column})::integer",
        )
    op.drop_constraint(op.f("ck_outcomes_reason_valid"), "outcomes", type_="check")
    op.drop_column("outcomes", "model_bound")
    op.drop_column("outcomes", "note")
    op.drop_column("outcomes", "reason")

    op.drop_index("ix_guard_backers_key_id", table_name="guard_backers")
    op.drop_table("guard_backers")
    op.drop_constraint(op.f("ck_guards_kept_is_active"), "guards", type_="check")
    op.drop_constraint(op.f("ck_guards_state_valid"), "guards", type_="check")
    op.drop_constraint("fk_guards_reviewed_by_api_keys", "guards", type_="foreignkey")
    for column in ("review_note", "reviewed_at", "reviewed_by", "hold_reason", "state"):
        op.drop_column("guards", column)

    op.drop_constraint("fk_gene_versions_published_by_api_keys", "gene_versions", type_="foreignkey")
    op.drop_column("gene_versions", "published_by")
    op.drop_constraint(op.f("ck_version_trajectories_role_valid"), "version_trajectories", type_="check")
    op.drop_column("version_trajectories", "role")

    op.drop_column("trajectories", "route_similarity")
    op.drop_column("trajectories", "route_gene_id")
    # Identical content from several keys collapses to the first one's row again.
    op.execute(
        "DELETE FROM trajectories t USING trajectories u WHERE t.content_hash = u.content_hash "
        "AND (t.received_at, t.id) > (u.received_at, u.id)"
    )
    op.drop_constraint("uq_trajectories_submitted_by_content_hash", "trajectories", type_="unique")
    op.create_unique_constraint("uq_trajectories_content_hash", "trajectories", ["content_hash"])
    op.alter_column("trajectories", "submitted_by", nullable=True)
    _refer_to_keys("trajectories", "submitted_by", "SET NULL")
    _run("UPDATE trajectories SET submitted_by = NULL WHERE submitted_by = :system")

    op.alter_column("genes", "owner_key_id", nullable=True)
    _refer_to_keys("genes", "owner_key_id", "SET NULL")
    _run("UPDATE genes SET owner_key_id = NULL WHERE owner_key_id = :system")
    _run("DELETE FROM api_keys WHERE id = :system")
    op.drop_column("api_keys", "consumer_model")
