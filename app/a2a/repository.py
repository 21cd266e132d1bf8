"""SQL of the GEP hub: nodes, their assets, seen message ids, and the reads its search rows need."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

from sqlalchemy import func, literal_column, select, update
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.ext.asyncio import AsyncSession

from app.models import A2AAsset, A2AMessage, A2ANode, ApiKey, Outcome


class NodeRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def add(self, node: A2ANode) -> A2ANode:
        self.session.add(node)
        await self.session.flush()
        await self.session.refresh(node)
        return node

    async def get(self, node_id: str, *, lock: bool = False) -> A2ANode | None:
        stmt = select(A2ANode).where(A2ANode.node_id == node_id).execution_options(populate_existing=True)
        if lock:
            stmt = stmt.with_for_update()
        return (await self.session.scalars(stmt)).first()

    async def with_key(self, secret_hash: str) -> tuple[A2ANode, ApiKey] | None:
        """The node whose secret hashes to `secret_hash`, and its owning key."""
        stmt = (
            select(A2ANode, ApiKey)
            .join(ApiKey, ApiKey.id == A2ANode.key_id)
            .where(A2ANode.secret_hash == secret_hash)
            .execution_options(populate_existing=True)
        )
        row = (await self.session.execute(stmt)).first()
        return (row[0], row[1]) if row else None

    async def list(self, *, key_id: uuid.UUID | None = None) -> Sequence[A2ANode]:
        stmt = select(A2ANode).order_by(A2ANode.created_at, A2ANode.node_id)
        if key_id is not None:
            stmt = stmt.where(A2ANode.key_id == key_id)
        return (await self.session.scalars(stmt)).all()

    async def rotate(self, node_id: str, secret_hash: str, inner: str, outer: str) -> int:
        version = await self.session.scalar(
            update(A2ANode)
            .where(A2ANode.node_id == node_id)
            .values(
                secret_hash=secret_hash,
                hmac_inner=inner,
                hmac_outer=outer,
                secret_version=A2ANode.secret_version + 1,
                rotated_at=func.now(),
            )
            .returning(A2ANode.secret_version)
        )
        assert version is not None
        return int(version)

    async def revoke(self, node_id: str) -> None:
        await self.session.execute(
            update(A2ANode).where(A2ANode.node_id == node_id).values(revoked_at=func.now())
        )

    async def seen(self, node_id: str) -> None:
        # At most one write a minute per node, like a key's last_used_at.
        await self.session.execute(
            update(A2ANode)
            .where(
                A2ANode.node_id == node_id,
                A2ANode.last_seen_at.is_(None)
                | (A2ANode.last_seen_at < func.now() - literal_column("interval '1 minute'")),
            )
            .values(last_seen_at=func.now())
        )

    async def remember_message(self, node_id: str, message_id: str, message_type: str) -> bool:
        """False when this node already sent this message id (a replay)."""
        inserted = await self.session.scalar(
            insert(A2AMessage)
            .values(node_id=node_id, message_id=message_id, message_type=message_type)
            .on_conflict_do_nothing()
            .returning(A2AMessage.message_id)
        )
        return inserted is not None


class AssetRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def add_if_absent(self, values: dict[str, Any]) -> bool:
        inserted = await self.session.scalar(
            insert(A2AAsset).values(**values).on_conflict_do_nothing().returning(A2AAsset.seq)
        )
        return inserted is not None

    async def get(self, asset_id: str) -> A2AAsset | None:
        return (await self.session.scalars(select(A2AAsset).where(A2AAsset.asset_id == asset_id))).first()

    async def many(self, asset_ids: Sequence[str]) -> dict[str, A2AAsset]:
        rows = await self.session.scalars(select(A2AAsset).where(A2AAsset.asset_id.in_(list(asset_ids))))
        return {row.asset_id: row for row in rows}

    async def published_by(
        self, node_id: str, *, after: int | None, limit: int, asset_type: str | None
    ) -> Sequence[A2AAsset]:
        stmt = select(A2AAsset).where(A2AAsset.node_id == node_id)
        if after is not None:
            stmt = stmt.where(A2AAsset.seq > after)
        if asset_type is not None:
            stmt = stmt.where(A2AAsset.asset_type == asset_type)
        return (await self.session.scalars(stmt.order_by(A2AAsset.seq).limit(limit))).all()

    async def success_streaks(self, gene_ids: Sequence[str]) -> dict[str, int]:
        """Per Gene: how many of its latest counted reports in a row were successes."""
        if not gene_ids:
            return {}
        ranked = (
            select(
                Outcome.gene_id,
                Outcome.success,
                func.row_number()
                .over(partition_by=Outcome.gene_id, order_by=(Outcome.created_at.desc(), Outcome.id.desc()))
                .label("n"),
            )
            .where(Outcome.gene_id.in_(list(gene_ids)), Outcome.reason.is_distinct_from("irrelevant"))
            .subquery()
        )
        first_failure = (
            select(ranked.c.gene_id, func.min(ranked.c.n).label("n"))
            .where(ranked.c.success.is_(False))
            .group_by(ranked.c.gene_id)
            .subquery()
        )
        totals = select(ranked.c.gene_id, func.count().label("reports")).group_by(ranked.c.gene_id).subquery()
        stmt = select(totals.c.gene_id, totals.c.reports, first_failure.c.n).outerjoin(
            first_failure, first_failure.c.gene_id == totals.c.gene_id
        )
        streaks = {}
        for gene_id, reports, failure_at in (await self.session.execute(stmt)).all():
            streaks[gene_id] = int(reports) if failure_at is None else int(failure_at) - 1
        return streaks
