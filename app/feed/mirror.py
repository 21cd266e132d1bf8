"""Export, import and mirror: a registry's versions and statuses carried to another, verified.

One record format for all three: a JSON line per feed item, in feed order.
- `{"kind": "version", "record": <GET /v1/genes/{id}/versions/{n}>}`: the version as the API serves
  it (document, provenance, status);
- `{"kind": "status", "gene_id": …, "status": …, "status_message": …}`.

Applying a version publishes its document with its strategy's provenance, as the command line's
system key (the importing registry owns what it imports), and checks that the asset_id computed here
is the one the record names: a document altered on the way is refused, never stored. Publishing an
identical document again changes nothing, so an interrupted import or mirror simply runs again.
Versions are applied in feed order, so each names its parent as the current version. A status record
sets the Gene's status as it is at the source (revocations included), audited as the mirror's.

`genebank mirror URL` follows another registry's GET /v1/feed with a consumer key, fetches each new
version's record, applies it, and keeps its position in `<data dir>/mirrors/<host>.cursor` after each
page, so it resumes where it stopped.
"""

from __future__ import annotations

import base64
import hashlib
import json
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import numpy as np
import psycopg
from pydantic import ValidationError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db import configure_read_connection, libpq_conninfo
from app.embeddings import EmbeddingService
from app.errors import AppError
from app.feed.schemas import FeedItem
from app.feed.service import feed_service
from app.genes.errors import GeneRevoked
from app.genes.schemas import PublishRequest
from app.genes.service import gene_service
from app.outcomes.lifecycle import lifecycle_service

log = logging.getLogger(__name__)

PAGE = 200


class MirrorError(Exception):
    """A record that cannot be applied as it stands (its source is wrong, not this registry)."""


def publish_request(record: dict[str, Any]) -> PublishRequest:
    """The publish that reproduces a version record: its document and its strategy's provenance."""
    provenance = record["provenance"]
    try:
        return PublishRequest.model_validate(
            {
                # `parent` is the version's record, not part of its document: a next version names it.
                "gene": {
                    **record["document"],
                    **({"parent": record["parent_asset_id"]} if record.get("parent_asset_id") else {}),
                    "asset_id": record["asset_id"],
                },
                "provenance": {
                    "kind": provenance["kind"],
                    "producer_model": provenance["producer_model"],
                    "verifier": provenance.get("verifier"),
                    "task": provenance.get("task"),
                    "cost": provenance.get("cost"),
                },
            }
        )
    except (KeyError, TypeError, ValidationError) as error:
        raise MirrorError(f"version record of {record.get('gene_id')!r} is not valid: {error}") from None


@dataclass
class Applied:
    created: int = 0
    unchanged: int = 0
    statuses: int = 0
    skipped: int = 0  # statuses already so, Genes not here, versions of Genes revoked at the source

    def summary(self) -> str:
        return (
            f"{self.created} versions created, {self.unchanged} already here, "
            f"{self.statuses} statuses set, {self.skipped} skipped"
        )


class Importer:
    """Applies records to this registry, each in its own transaction."""

    def __init__(self, sessionmaker: async_sessionmaker[AsyncSession], embeddings: EmbeddingService) -> None:
        self.sessionmaker = sessionmaker
        self.embeddings = embeddings
        self.applied = Applied()

    async def apply(self, line: dict[str, Any]) -> None:
        kind = line.get("kind")
        if kind == "version":
            await self.version(line["record"])
        elif kind == "status":
            await self.status(line["gene_id"], line["status"], line.get("status_message"))
        else:
            raise MirrorError(f"unknown record kind {kind!r}")

    async def version(self, record: dict[str, Any]) -> None:
        request = publish_request(record)
        try:
            async with self.sessionmaker.begin() as session:
                published = await gene_service.publish(session, request, self.embeddings)
        except AppError as error:
            raise MirrorError(f"{record['gene_id']} v{record['version']}: {error.detail}") from None
        if published.version.asset_id != record["asset_id"]:  # publish checked the claim; belt and braces
            raise MirrorError(
                f"{record['gene_id']}: asset_id {published.version.asset_id} != {record['asset_id']}"
            )
        if published.created:
            self.applied.created += 1
        else:
            self.applied.unchanged += 1

    async def status(self, gene_id: str, status: str, message: str | None) -> None:
        async with self.sessionmaker.begin() as session:
            changed = await lifecycle_service.mirror_status(session, gene_id, status, message or "mirrored")
        if changed:
            self.applied.statuses += 1
        else:
            self.applied.skipped += 1


async def export_lines(
    sessionmaker: async_sessionmaker[AsyncSession], database_url: str, *, embeddings: bool = False
) -> AsyncIterator[str]:
    """This registry's feed from the beginning as JSON lines (revoked Genes' versions are left out).

    With `embeddings`, each version line carries its stored vector (app/feed/bulk.py), so that
    `genebank import --trust-embeddings` loads it without embedding it again.
    """
    conn = await psycopg.AsyncConnection.connect(libpq_conninfo(database_url), autocommit=True)
    await configure_read_connection(conn, ef_search=40)
    try:
        since: str | None = None
        while True:
            async with sessionmaker() as session:
                page = await feed_service.page(session, since, PAGE)
            for item in page.items:
                line = await _export_item(conn, item, embeddings)
                if line is not None:
                    yield json.dumps(line, separators=(",", ":"), ensure_ascii=False)
            if not page.items:
                return
            since = page.next_cursor
    finally:
        await conn.close()


async def _export_item(
    conn: psycopg.AsyncConnection[Any], item: FeedItem, embeddings: bool = False
) -> dict[str, Any] | None:
    if item.kind == "status":
        return {
            "kind": "status",
            "gene_id": item.gene_id,
            "status": item.status,
            "status_message": item.status_message,
        }
    try:
        view = await gene_service.read_version(conn, item.gene_id, version=item.version)
    except GeneRevoked:
        return None
    line: dict[str, Any] = {"kind": "version", "record": json.loads(view.to_json())}
    if embeddings:
        query = (
            "SELECT embedding_model, embedding::text FROM gene_versions WHERE gene_id = %s AND version = %s"
        )
        row = await (await conn.execute(query, (item.gene_id, item.version))).fetchone()
        if row is not None and row[1] is not None:
            vector = np.array(json.loads(row[1]), dtype=np.float32)
            line["embedding"] = {"model": row[0], "f32": encode_vector(vector)}
    return line


def encode_vector(vector: np.ndarray) -> str:
    """The `f32` field of an export line's embedding: little-endian float32, base64."""
    return base64.b64encode(np.asarray(vector, dtype="<f4").tobytes()).decode("ascii")


def cursor_file(data_dir: Path, url: str) -> Path:
    host = httpx.URL(url).host or "registry"
    digest = hashlib.sha256(url.encode()).hexdigest()[:12]
    return data_dir / "mirrors" / f"{host}-{digest}.cursor"


class Mirror:
    """Follows another registry's feed into this one."""

    def __init__(self, source: httpx.AsyncClient, importer: Importer, position: Path) -> None:
        self.source = source
        self.importer = importer
        self.position = position

    async def step(self) -> int:
        """Apply one page of the source's feed; how many items it held."""
        since = self.position.read_text().strip() if self.position.exists() else None
        response = await self.source.get(
            "/v1/feed", params={"limit": PAGE, **({"since": since} if since else {})}
        )
        response.raise_for_status()
        page = response.json()
        for item in page["items"]:
            if item["kind"] == "status":
                await self.importer.status(item["gene_id"], item["status"], item["status_message"])
                continue
            record = await self.source.get(f"/v1/genes/{item['gene_id']}/versions/{item['version']}")
            if record.status_code == 410:  # revoked at the source since: its status item follows
                self.importer.applied.skipped += 1
                continue
            record.raise_for_status()
            await self.importer.version(record.json())
        self.position.parent.mkdir(parents=True, exist_ok=True)
        self.position.write_text(page["next_cursor"])
        return len(page["items"])
