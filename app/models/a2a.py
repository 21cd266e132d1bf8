"""GEP A2A hub tables: nodes (principals of the evolver client), the assets they published, and the
message ids already seen (replays are refused). See app/a2a/ and docs/a2a.md."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import BigInteger, Boolean, DateTime, ForeignKey, Identity, Index, Integer, Text
from sqlalchemy.orm import Mapped, mapped_column

from app.models.base import Base, utcnow_column


class A2ANode(Base):
    """A GEP node: belongs to a Genebank key (its owner) and acts with that key's role.

    The secret itself is never stored: `secret_hash` (sha256, hex) and its HMAC midstates
    (app/a2a/node_secrets.py).
    """

    __tablename__ = "a2a_nodes"

    node_id: Mapped[str] = mapped_column(Text, primary_key=True)
    key_id: Mapped[uuid.UUID] = mapped_column(
        ForeignKey("api_keys.id", ondelete="CASCADE"), nullable=False, index=True
    )
    name: Mapped[str | None] = mapped_column(Text)
    secret_hash: Mapped[str] = mapped_column(Text, nullable=False, unique=True)
    hmac_inner: Mapped[str] = mapped_column(Text, nullable=False)
    hmac_outer: Mapped[str] = mapped_column(Text, nullable=False)
    secret_version: Mapped[int] = mapped_column(Integer, nullable=False, server_default="1")
    # Registered by its own first hello (GENEBANK_A2A_OPEN_REGISTRATION): its reviews never count.
    open_registration: Mapped[bool] = mapped_column(Boolean, nullable=False, server_default="false")
    created_at: Mapped[datetime] = utcnow_column()
    rotated_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    last_seen_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class A2AAsset(Base):
    """An asset a node published in a bundle, stored as sent (value for value), content-addressed."""

    __tablename__ = "a2a_assets"
    __table_args__ = (Index("ix_a2a_assets_node_id_seq", "node_id", "seq"),)

    seq: Mapped[int] = mapped_column(BigInteger, Identity(), primary_key=True)
    asset_id: Mapped[str] = mapped_column(Text, nullable=False, unique=True)
    asset_type: Mapped[str] = mapped_column(Text, nullable=False)
    local_id: Mapped[str] = mapped_column(Text, nullable=False)
    # The Gene it belongs to (`capsule.gene`) and the Gene version it was published with.
    gene_id: Mapped[str | None] = mapped_column(ForeignKey("genes.id", ondelete="CASCADE"), index=True)
    gene_asset_id: Mapped[str | None] = mapped_column(Text)
    document: Mapped[dict[str, Any]] = mapped_column(nullable=False)
    node_id: Mapped[str] = mapped_column(ForeignKey("a2a_nodes.node_id", ondelete="CASCADE"), nullable=False)
    bundle_id: Mapped[str] = mapped_column(Text, nullable=False)
    # The run a Capsule became: evidence of its Gene (success) or a failed run for the worker.
    trajectory_id: Mapped[uuid.UUID | None] = mapped_column(
        ForeignKey("trajectories.id", ondelete="SET NULL")
    )
    created_at: Mapped[datetime] = utcnow_column()


class A2AMessage(Base):
    """A state-changing envelope's message_id, per node: the same id again is a replay."""

    __tablename__ = "a2a_messages"

    node_id: Mapped[str] = mapped_column(
        ForeignKey("a2a_nodes.node_id", ondelete="CASCADE"), primary_key=True
    )
    message_id: Mapped[str] = mapped_column(Text, primary_key=True)
    message_type: Mapped[str] = mapped_column(Text, nullable=False)
    received_at: Mapped[datetime] = utcnow_column()
