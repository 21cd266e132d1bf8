"""Baseline for bench/fetch.py: a bare FastAPI endpoint reading one row by primary key with psycopg.

No ORM, no response model, no middleware: the least a FastAPI service can do to answer a fetch.
Run with: BASELINE_DSN=... uvicorn bench.baseline_app:app
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, HTTPException
from psycopg_pool import AsyncConnectionPool

pool = AsyncConnectionPool(os.environ.get("BASELINE_DSN", ""), min_size=4, max_size=10, open=False)


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    await pool.open()
    yield
    await pool.close()


app = FastAPI(lifespan=lifespan)


@app.get("/healthz")
async def healthz() -> dict[str, str]:
    return {"status": "ok"}


@app.get("/genes/{gene_id}")
async def get_gene(gene_id: str) -> dict[str, Any]:
    async with pool.connection() as conn:
        cursor = await conn.execute(
            "SELECT id, status, current_version, current_asset_id FROM genes WHERE id = %s", (gene_id,)
        )
        row = await cursor.fetchone()
    if row is None:
        raise HTTPException(404)
    return {"gene_id": row[0], "status": row[1], "version": row[2], "asset_id": row[3]}
