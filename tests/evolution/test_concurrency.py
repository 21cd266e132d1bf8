"""Several worker processes on one database: every trajectory merged exactly once, nothing lost when
one of them is killed mid-run (SIGKILL) and restarted.

1,000 trajectories for 20 Genes, each carrying one to three guards from a pool of mutually distinct
warnings (checked below to sit far under the merge threshold, so the expected evidence is exact).
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pytest
from sqlalchemy import func, select, text
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.embeddings import EmbeddingService
from app.evolution.merge import GUARD_MERGE_THRESHOLD
from app.genes.schemas import PublishRequest
from app.genes.service import gene_service
from app.gep.document import guards_of
from app.models import (
    EvolutionEvent,
    Gene,
    GeneVersion,
    Guard,
    Trajectory,
    guard_evidence,
    version_trajectories,
)
from app.trajectories.service import trajectory_service
from tests.evolution.builders import FAILED_VERIFIER, trajectory_in
from tests.factories import gene_doc, publish_payload
from tests.live import served_model_env

pytestmark = pytest.mark.slow

GENES = 20
TRAJECTORIES = 1000
WORKERS = 4
POOL = [
    "Do not call the live payment API from tests; use the sandbox fixtures",
    "Avoid sleeping a fixed 30 seconds for the database; poll its readiness",
    "Never edit the generated protobuf files; change the .proto and regenerate",
    "Do not round intermediate probabilities; keep exact fractions until the end",
    "Avoid force-pushing to the shared release branch",
    "Do not answer in markdown when the prompt asks for plain JSON",
    "Never delete the dpkg lock files to get past an apt error",
    "Avoid widening fixture scope to session: the shared object leaks state",
]


def _gene_id(index: int) -> str:
    return f"gene_concurrency_{index:02d}"


async def _seed(
    sessionmaker: async_sessionmaker[AsyncSession], embeddings: EmbeddingService
) -> dict[str, Counter[str]]:
    """20 published Genes and 1,000 pending trajectories; returns the expected evidence per Gene and guard."""
    vectors = await embeddings.embed_texts(POOL)
    similarities = vectors @ vectors.T - np.eye(len(POOL))
    assert similarities.max() < GUARD_MERGE_THRESHOLD - 0.2, "the guard pool must hold distinct warnings"

    for index in range(GENES):
        doc = gene_doc(id=_gene_id(index), summary=f"Concurrency fixture Gene number {index}", avoid=None)
        async with sessionmaker.begin() as session:
            await gene_service.publish(
                session, PublishRequest.model_validate(publish_payload(gene=doc)), embeddings
            )

    rng = random.Random(20261202)
    expected: dict[str, Counter[str]] = {_gene_id(i): Counter() for i in range(GENES)}
    async with sessionmaker.begin() as session:
        for index in range(TRAJECTORIES):
            gene_id = _gene_id(index % GENES)
            guards = rng.sample(POOL, rng.randint(1, 3))
            failed = rng.random() < 0.3
            body = trajectory_in(
                task={
                    "id": f"load-{index:05d}",
                    "family": "code_generation",
                    # About what every fixture Gene is about (offline pytest suites), as a run that
                    # names its Gene must be.
                    "description": f"Make the test suite of HTTP client {index} pass without network access",
                },
                gene_id=gene_id,
                guards=guards,
                **({"verifier": FAILED_VERIFIER} if failed else {}),
            )
            await trajectory_service.submit(session, body)
            expected[gene_id].update(guards)
    return expected


@contextmanager
def _workers() -> Iterator[list[subprocess.Popen[bytes]]]:
    processes: list[subprocess.Popen[bytes]] = []
    try:
        yield processes
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
                process.wait()


def _start(url: str, data_dir: str) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "GENEBANK_DATABASE_URL": url,
        "GENEBANK_MIGRATE_ON_START": "false",
        "GENEBANK_DATA_DIR": data_dir,
        "GENEBANK_LOG_LEVEL": "warning",
        "GENEBANK_WORKER_CONCURRENCY": "2",
        "GENEBANK_WORKER_POLL_SECONDS": "1",
        "GENEBANK_EMBEDDING_THREADS": "1",
        # The model exported once for the test run; a fresh data directory would export it again.
        **served_model_env(),
    }
    command = [str(Path(sys.executable).with_name("genebank")), "worker"]
    return subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


async def _count_states(sessionmaker: async_sessionmaker[AsyncSession]) -> Counter[str]:
    async with sessionmaker() as session:
        rows = await session.execute(select(Trajectory.state, func.count()).group_by(Trajectory.state))
        return Counter({state: count for state, count in rows})


async def _wait_for(
    sessionmaker: async_sessionmaker[AsyncSession],
    merged: int,
    processes: list[subprocess.Popen[bytes]],
    within: float,
) -> None:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        states = await _count_states(sessionmaker)
        assert states["rejected"] == 0, states
        if states["merged"] >= merged:
            return
        for process in processes:
            if process.poll() not in (None, -signal.SIGKILL):
                raise AssertionError(
                    f"a worker exited: {process.stderr.read().decode() if process.stderr else ''}"
                )
        await asyncio.sleep(0.25)
    raise AssertionError(f"only {await _count_states(sessionmaker)} after {within} s")


async def _wait_listening(sessionmaker: async_sessionmaker[AsyncSession], count: int, within: float) -> None:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        async with sessionmaker() as session:
            listening = await session.scalar(
                text(
                    "SELECT count(*) FROM pg_stat_activity "
                    "WHERE application_name = 'genebank-worker-listen' AND datname = current_database()"
                )
            )
        if listening == count:
            return
        await asyncio.sleep(0.2)
    raise AssertionError(f"{count} workers did not start listening within {within} s")


def _stop(processes: list[subprocess.Popen[bytes]]) -> None:
    """SIGTERM: each worker finishes its jobs in hand and exits cleanly."""
    for process in processes:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
    for process in processes:
        code = process.wait(timeout=60)
        if code != -signal.SIGKILL:
            assert code == 0, process.stderr.read().decode() if process.stderr else code


async def _assert_merged_exactly_once(
    sessionmaker: async_sessionmaker[AsyncSession], expected: dict[str, Counter[str]]
) -> None:
    async with sessionmaker() as session:
        assert await _count_states(sessionmaker) == Counter({"merged": TRAJECTORIES})
        # Every trajectory is in exactly one event, and that event is a merge into its own Gene.
        per_trajectory = Counter(
            (row.trajectory_id, row.gene_id)
            for row in await session.execute(
                select(
                    func.unnest(EvolutionEvent.trajectory_ids).label("trajectory_id"), EvolutionEvent.gene_id
                )
            )
        )
        assert len(per_trajectory) == TRAJECTORIES and set(per_trajectory.values()) == {1}
        targets = dict((await session.execute(select(Trajectory.id, Trajectory.target_gene_id))).all())
        assert all(targets[trajectory_id] == gene_id for trajectory_id, gene_id in per_trajectory)

        for gene in await session.scalars(select(Gene)):
            versions = (
                await session.scalars(
                    select(GeneVersion).where(GeneVersion.gene_id == gene.id).order_by(GeneVersion.version)
                )
            ).all()
            assert [v.version for v in versions] == list(range(1, len(versions) + 1))
            assert gene.current_version == len(versions) and gene.current_asset_id == versions[-1].asset_id
            assert [v.parent_asset_id for v in versions[1:]] == [v.asset_id for v in versions[:-1]]
            assert [v.valid_to is None for v in versions] == [False] * (len(versions) - 1) + [True]
            # Each evolved version stands on exactly one trajectory; each event that wrote one is there.
            linked = Counter(
                await session.scalars(
                    select(version_trajectories.c.version_id).where(
                        version_trajectories.c.version_id.in_([v.id for v in versions[1:]])
                    )
                )
            )
            assert set(linked.values()) <= {1} and len(linked) == len(versions) - 1
            writes = await session.scalar(
                select(func.count())
                .select_from(EvolutionEvent)
                .where(EvolutionEvent.gene_id == gene.id, EvolutionEvent.kind == "merged")
                .where(EvolutionEvent.new_version != EvolutionEvent.old_version)
            )
            assert writes == len(versions) - 1

            guards = (await session.scalars(select(Guard).where(Guard.gene_id == gene.id))).all()
            assert {g.text: g.evidence_count for g in guards} == dict(expected[gene.id])
            assert all(g.kept for g in guards)
            for guard in guards:
                links = await session.scalar(
                    select(func.count())
                    .select_from(guard_evidence)
                    .where(guard_evidence.c.guard_id == guard.id)
                )
                assert links == guard.evidence_count
            ranked = sorted(
                guards,
                key=lambda g: (
                    -g.evidence_count,
                    -g.last_seen_at.timestamp(),
                    -g.first_seen_at.timestamp(),
                    g.text,
                ),
            )
            assert guards_of(versions[-1].document) == [g.text for g in ranked]


async def test_four_worker_processes_merge_every_trajectory_exactly_once(
    committed: async_sessionmaker[AsyncSession], migrated_url: str, embeddings: EmbeddingService
) -> None:
    with tempfile.TemporaryDirectory() as data_dir, _workers() as processes:
        # The workers start (and load their model) while the test seeds; they wait for the commit.
        processes.extend(_start(migrated_url, data_dir) for _ in range(WORKERS))
        expected = await _seed(committed, embeddings)
        await _wait_for(committed, TRAJECTORIES, processes, within=400)
        _stop(processes)
    await _assert_merged_exactly_once(committed, expected)


async def test_a_worker_killed_mid_run_and_restarted_loses_and_doubles_nothing(
    committed: async_sessionmaker[AsyncSession], migrated_url: str, embeddings: EmbeddingService
) -> None:
    with tempfile.TemporaryDirectory() as data_dir, _workers() as processes:
        processes.extend(_start(migrated_url, data_dir) for _ in range(WORKERS))
        expected = await _seed(committed, embeddings)
        await _wait_for(committed, TRAJECTORIES // 4, processes, within=300)
        victim = processes[0]
        victim.send_signal(signal.SIGKILL)
        assert victim.wait(timeout=10) == -signal.SIGKILL
        merged_at_kill = (await _count_states(committed))["merged"]
        assert merged_at_kill < TRAJECTORIES, "the kill must land mid-run"
        processes.append(_start(migrated_url, data_dir))
        # Ready once it listens (its signal handlers are in place by then).
        await _wait_listening(committed, WORKERS, within=120)
        await _wait_for(committed, TRAJECTORIES, processes, within=400)
        _stop(processes)
    await _assert_merged_exactly_once(committed, expected)
