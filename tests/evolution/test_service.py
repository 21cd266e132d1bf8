"""One worker job at a time, in the test's transaction: routing, founding, merging, versions, events."""

from __future__ import annotations

from typing import Any

import httpx
from sqlalchemy import func, select, text, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.auth.principal import SYSTEM, Principal, Role
from app.embeddings import EmbeddingService
from app.evolution.repository import EvolutionRepository
from app.evolution.service import JobResult
from app.gep.canonical import compute_asset_id
from app.gep.document import GeneDocument, guards_of
from app.models import (
    ApiKey,
    EvolutionEvent,
    Gene,
    GeneVersion,
    Guard,
    Trajectory,
    guard_backers,
    guard_evidence,
)
from app.trajectories.service import trajectory_service
from tests.evolution.builders import BASE_TRAJECTORY, FAILED_VERIFIER, trajectory_in
from tests.evolution.jobs import merge_next
from tests.factories import BASE_GENE, gene_doc, publish_payload

GENE_ID = BASE_GENE["id"]
PUBLISHED_GUARD = guards_of(BASE_GENE)[0]
LIVE_API = "Avoid calling the live API from tests; mock the HTTP layer with respx instead"
LIVE_API_PARAPHRASE = "Do not hit the real API in tests: mock HTTP calls with respx"
CLOSE_TO_THE_GENE = "Stabilise the pytest suite of an HTTP client that fails when the network is unavailable"
MATH_TASK = {
    "id": "math-0007",
    "family": "math_reasoning",
    "description": "Find the probability of drawing two aces without replacement from a 52-card deck",
}
MATH_STEPS = [
    {
        "action": "multiply 4/52 by 4/52",
        "ok": False,
        "error": "AnswerMismatchError: got 1/169",
        "correction": "use 4/52 * 3/51: the first ace is not put back",
    },
    {"action": "compute 4/52 * 3/51 = 1/221", "ok": True},
]


async def _generation_meta(session: AsyncSession, gene_id: str) -> dict[str, Any] | None:
    meta: dict[str, Any] | None = await session.scalar(
        select(GeneVersion.generation_meta).where(GeneVersion.gene_id == gene_id, GeneVersion.version == 1)
    )
    return meta


async def _owner(session: AsyncSession) -> Principal:
    """The admin test key, which publishes this module's Genes (so its runs are the owner's)."""
    key = await session.scalar(select(ApiKey).where(ApiKey.name == "test admin"))
    return SYSTEM if key is None else Principal(key.id, key.name, Role.admin)


async def _run(
    session: AsyncSession, embeddings: EmbeddingService, *, by: Principal | None = None, **overrides: Any
) -> JobResult:
    submitter = by or await _owner(session)
    submitted = await trajectory_service.submit(session, trajectory_in(**overrides), submitter=submitter)
    result = await merge_next(session, embeddings)
    assert result is not None and result.trajectory_id == submitted.id
    return result


async def _publish(client: httpx.AsyncClient, **gene: Any) -> dict[str, Any]:
    response = await client.post("/v1/genes", json=publish_payload(gene=gene_doc(**gene)))
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


async def test_passed_run_for_its_target_adds_a_guard_in_a_new_version(
    client: httpx.AsyncClient, session: AsyncSession, embeddings: EmbeddingService
) -> None:
    v1 = await _publish(client)
    result = await _run(session, embeddings, gene_id=GENE_ID, guards=[LIVE_API])
    assert (result.state, result.gene_id, result.new_version) == ("merged", GENE_ID, 2)

    gene = (await client.get(f"/v1/genes/{GENE_ID}")).json()
    assert gene["version"] == 2 and gene["asset_id"] == result.asset_id
    assert gene["parent_asset_id"] == v1["asset_id"] and "parent" not in gene["document"]
    # The newest guard leads among equal evidence; the strategy is untouched.
    assert guards_of(gene["document"]) == [LIVE_API, PUBLISHED_GUARD]
    assert gene["document"]["strategy"] == BASE_GENE["strategy"]
    # The strategy's provenance is the published one; the run is evidence for the guards only.
    assert gene["provenance"]["trajectory_ids"] == []
    assert gene["provenance"]["guard_trajectory_ids"] == [str(result.trajectory_id)]
    assert gene["provenance"]["task"]["id"] == "code-0001"
    assert compute_asset_id({k: v for k, v in gene["document"].items() if k != "asset_id"}) == result.asset_id

    state = (await client.get(f"/v1/trajectories/{result.trajectory_id}")).json()
    assert state["state"] == "merged" and state["gene_id"] == GENE_ID and state["asset_id"] == result.asset_id
    assert "1 guard(s) added" in state["reason"]

    events = (await client.get(f"/v1/genes/{GENE_ID}/events")).json()["items"]
    assert [e["kind"] for e in events] == ["published", "merged"]
    merged = events[1]
    assert merged["trajectory_ids"] == [str(result.trajectory_id)]
    assert [g["text"] for g in merged["guards_added"]] == [LIVE_API]
    assert (merged["old_asset_id"], merged["new_asset_id"]) == (v1["asset_id"], result.asset_id)
    assert (merged["old_version"], merged["new_version"]) == (1, 2)

    lineage = (await client.get(f"/v1/genes/{GENE_ID}/lineage")).json()["items"]
    assert [(v["version"], v["change"]) for v in lineage] == [(1, "published"), (2, "merged")]
    assert lineage[1]["parent_asset_id"] == lineage[0]["asset_id"]
    assert lineage[1]["trajectory_ids"] == []
    assert lineage[1]["guard_trajectory_ids"] == [str(result.trajectory_id)]
    assert lineage[1]["guards_added"] == [LIVE_API]

    guards = (await client.get(f"/v1/genes/{GENE_ID}/guards")).json()["items"]
    assert [(g["text"], g["evidence"], g["trajectories"], g["kept"]) for g in guards] == [
        (LIVE_API, 1, 1, True),
        (PUBLISHED_GUARD, 1, 0, True),
    ]


async def test_a_paraphrase_only_adds_evidence_and_no_version(
    client: httpx.AsyncClient, session: AsyncSession, embeddings: EmbeddingService
) -> None:
    await _publish(client)
    first = await _run(session, embeddings, gene_id=GENE_ID, guards=[LIVE_API])
    second = await _run(
        session,
        embeddings,
        gene_id=GENE_ID,
        guards=[LIVE_API_PARAPHRASE],
        task={
            "id": "code-0043",
            "family": "code_generation",
            "description": "Run a REST client's tests offline",
        },
    )
    assert second.state == "merged" and second.new_version is None
    assert second.asset_id == first.asset_id
    assert "document unchanged" in second.reason
    guard = await session.scalar(select(Guard).where(Guard.text == LIVE_API))
    assert guard is not None and guard.evidence_count == 2
    linked = await session.scalars(
        select(guard_evidence.c.trajectory_id).where(guard_evidence.c.guard_id == guard.id)
    )
    assert set(linked) == {first.trajectory_id, second.trajectory_id}
    assert await session.scalar(select(func.count()).select_from(GeneVersion)) == 2

    event = (await client.get(f"/v1/genes/{GENE_ID}/events")).json()["items"][-1]
    assert event["guards_added"] == [] and event["old_asset_id"] == event["new_asset_id"]
    [merged] = event["guards_merged"]
    assert (merged["text"], merged["evidence"]) == (LIVE_API, 2)
    # Events are public: they do not repeat the wording the second run sent.
    assert LIVE_API_PARAPHRASE not in str(event)


async def test_a_run_that_changes_nothing_writes_no_version(
    client: httpx.AsyncClient, session: AsyncSession, embeddings: EmbeddingService
) -> None:
    v1 = await _publish(client)
    steps = [{"action": "add respx mocks", "ok": True}]
    result = await _run(session, embeddings, gene_id=GENE_ID, steps=steps)
    assert result.state == "merged" and result.asset_id == v1["asset_id"] and result.new_version is None
    assert await session.scalar(select(func.count()).select_from(GeneVersion)) == 1


async def test_failed_run_adds_guards_only_and_keeps_the_strategy(
    client: httpx.AsyncClient, session: AsyncSession, embeddings: EmbeddingService
) -> None:
    await _publish(client)
    result = await _run(session, embeddings, gene_id=GENE_ID, verifier=FAILED_VERIFIER)
    assert result.state == "merged" and result.new_version == 2
    gene = (await client.get(f"/v1/genes/{GENE_ID}")).json()
    document = gene["document"]
    assert document["strategy"] == BASE_GENE["strategy"] and document["summary"] == BASE_GENE["summary"]
    # Extracted from the failed step's correction and from the verifier's error.
    assert guards_of(document)[1] == (
        "When verified by pytest, do not leave AssertionError: expected 3 retries, got <n> in "
        "test_retry_on_503 unresolved"
    )
    assert guards_of(document)[0].startswith(
        "When the tests fail with ConnectionError: HTTPSConnectionPool(host=<host>, port=<port>)"
    )
    assert guards_of(document)[0].endswith(
        "instead mock the HTTP layer with respx instead of calling the live API"
    )
    # The version keeps the strategy's provenance: its passed verifier, not the failed run's.
    assert gene["provenance"]["verifier"]["passed"] is True
    assert (
        gene["provenance"]["kind"] == "verified_trajectory"
        and gene["provenance"]["task"]["id"] == "code-0001"
    )
    assert gene["provenance"]["guard_trajectory_ids"] == [str(result.trajectory_id)]
    # The strategy's author still stands behind the version.
    assert gene["provenance"]["producer_model"] == BASE_GENE["model_name"]


async def test_semantic_match_routes_a_run_without_target(
    client: httpx.AsyncClient, session: AsyncSession, embeddings: EmbeddingService
) -> None:
    await _publish(client)
    task = {"id": "code-0099", "family": "code_generation", "description": CLOSE_TO_THE_GENE}
    result = await _run(session, embeddings, task=task, guards=[LIVE_API])
    assert result.state == "merged" and result.gene_id == GENE_ID
    assert "semantic match" in result.reason
    event = (await client.get(f"/v1/genes/{GENE_ID}/events")).json()["items"][-1]
    assert event["details"]["routed_by"] == "semantic match"
    assert event["details"]["route_similarity"] >= 0.65


async def test_failed_run_without_a_matching_gene_is_rejected(
    client: httpx.AsyncClient, session: AsyncSession, embeddings: EmbeddingService
) -> None:
    await _publish(client)
    result = await _run(session, embeddings, task=MATH_TASK, steps=MATH_STEPS, verifier=FAILED_VERIFIER)
    assert result.state == "rejected"
    state = (await client.get(f"/v1/trajectories/{result.trajectory_id}")).json()
    assert state["state"] == "rejected" and state["gene_id"] is None
    assert "no Gene matches this failed run" in state["reason"]
    assert await session.scalar(select(func.count()).select_from(Gene)) == 1


async def test_other_task_families_are_not_matched(
    client: httpx.AsyncClient, session: AsyncSession, embeddings: EmbeddingService
) -> None:
    await _publish(client)
    task = {"id": "rule-0001", "family": "rule_following", "description": CLOSE_TO_THE_GENE}
    result = await _run(session, embeddings, task=task)
    assert result.state == "merged" and result.gene_id != GENE_ID
    assert result.new_version == 1


async def test_passed_run_without_match_founds_a_candidate_from_its_draft(
    client: httpx.AsyncClient, session: AsyncSession, embeddings: EmbeddingService
) -> None:
    draft = {
        "id": "gene_probability_without_replacement",
        "summary": "Probabilities of draws without replacement: multiply the shrinking conditional fractions",
        "signals_match": ["without replacement", "/two (aces|kings|cards)/i"],
        "strategy": ["Write each draw's probability given the previous draws", "Multiply and simplify"],
        "validation": ["answer-match --exact"],
    }
    result = await _run(session, embeddings, task=MATH_TASK, steps=MATH_STEPS, gene_draft=draft)
    assert (result.state, result.gene_id, result.new_version) == ("merged", draft["id"], 1)
    gene = (await client.get(f"/v1/genes/{draft['id']}")).json()
    assert gene["status"] == "candidate" and gene["task_family"] == "math_reasoning"
    document = gene["document"]
    for key in ("summary", "signals_match", "strategy", "validation"):
        assert document[key] == draft[key]
    assert document["constraints"] == {"max_files": 10, "forbidden_paths": [".git"]}
    assert document["model_name"] == "claude-opus-4-5" and document["category"] == "repair"
    assert guards_of(document) == [
        "When AnswerMismatchError: got <n>/<n>, do not multiply 4/52 by 4/52; "
        "instead use 4/52 * 3/51: the first ace is not put back"
    ]
    assert "generation_meta" not in document  # a registry fact, in the version's own column
    assert await _generation_meta(session, draft["id"]) == {
        "source": "draft",
        "task_id": "math-0007",
        "overcame_errors": ["AnswerMismatchError"],
    }
    assert gene["provenance"]["trajectory_ids"] == [str(result.trajectory_id)]
    events = (await client.get(f"/v1/genes/{draft['id']}/events")).json()["items"]
    assert [(e["kind"], e["old_asset_id"], e["new_version"]) for e in events] == [("founded", None, 1)]


async def test_passed_run_without_draft_founds_a_distilled_gene(
    client: httpx.AsyncClient, session: AsyncSession, embeddings: EmbeddingService
) -> None:
    result = await _run(session, embeddings, task=MATH_TASK, steps=MATH_STEPS)
    assert result.state == "merged" and result.gene_id is not None
    trajectory = await session.get(Trajectory, result.trajectory_id)
    assert trajectory is not None
    assert (
        result.gene_id
        == f"gene_math_reasoning_find_probability_drawing_two_aces_{trajectory.content_hash[7:13]}"
    )
    document = (await client.get(f"/v1/genes/{result.gene_id}")).json()["document"]
    GeneDocument.model_validate(document)
    assert document["strategy"] == ["compute 4/52 * 3/51 = 1/221"]
    # The error it overcame, then the task's distinctive words (no stop words, no "52-card").
    assert document["signals_match"] == ["AnswerMismatchError", "probability", "drawing"]
    assert document["validation"] == ["pytest"]
    assert document["summary"] == f"{MATH_TASK['description']}. Overcomes AnswerMismatchError."
    meta = await _generation_meta(session, result.gene_id)
    assert meta is not None and meta["overcame_errors"] == ["AnswerMismatchError"]
    assert meta["source"] == "distilled"


async def test_unknown_or_revoked_targets_reject_the_run(
    client: httpx.AsyncClient, session: AsyncSession, embeddings: EmbeddingService
) -> None:
    unknown = await _run(session, embeddings, gene_id="gene_nobody_published")
    assert unknown.state == "rejected" and "does not exist" in unknown.reason

    await _publish(client)
    await session.execute(update(Gene).where(Gene.id == GENE_ID).values(status="revoked"))
    revoked = await _run(session, embeddings, gene_id=GENE_ID, guards=[LIVE_API])
    assert revoked.state == "rejected" and "revoked" in revoked.reason
    assert await session.scalar(select(func.count()).select_from(Guard)) == 0


async def test_the_cap_drops_the_least_recently_seen_guard_and_records_it(
    client: httpx.AsyncClient, session: AsyncSession, embeddings: EmbeddingService
) -> None:
    topics = [
        "retry the flaky test in a loop",
        "commit the generated coverage files",
        "pin the transitive dependency by hand",
        "delete the lockfile to resolve conflicts",
        "disable the linter for the whole module",
        "mark the failing test as expected to fail",
        "print debug output to stdout in tests",
        "use sleep to wait for the server",
        "catch every exception in the request handler",
        "edit files under the vendored directory",
        "run the suite with network access",
        "write test fixtures into the repository root",
    ]
    avoid = [f"Do not {topic}" for topic in topics]
    await _publish(client, avoid=avoid)
    result = await _run(session, embeddings, gene_id=GENE_ID, guards=[LIVE_API])
    assert result.new_version == 2
    document = (await client.get(f"/v1/genes/{GENE_ID}")).json()["document"]
    # The published order is kept among equal evidence; the new guard leads; the last one goes.
    assert guards_of(document) == [LIVE_API, *avoid[:11]]
    event = (await client.get(f"/v1/genes/{GENE_ID}/events")).json()["items"][-1]
    assert [(d["text"], d["reason"]) for d in event["guards_dropped"]] == [(avoid[11], "cap")]
    dropped = await session.scalar(select(Guard).where(Guard.text == avoid[11]))
    assert dropped is not None and not dropped.kept and dropped.dropped_at is not None

    # The dropped warning comes up again: found among the dropped guards, its evidence grows to 2,
    # it outranks the guards with evidence 1 and returns; the least recently seen of those leaves.
    again = await _run(
        session,
        embeddings,
        gene_id=GENE_ID,
        guards=[avoid[11]],
        task={
            "id": "code-0051",
            "family": "code_generation",
            "description": "Make a pytest suite pass offline, keeping fixtures out of the repo root",
        },
    )
    assert again.new_version == 3
    document = (await client.get(f"/v1/genes/{GENE_ID}")).json()["document"]
    assert guards_of(document) == [avoid[11], LIVE_API, *avoid[:10]]
    event = (await client.get(f"/v1/genes/{GENE_ID}/events")).json()["items"][-1]
    assert [(m["text"], m["evidence"]) for m in event["guards_merged"]] == [(avoid[11], 2)]
    assert [d["text"] for d in event["guards_dropped"]] == [avoid[10]]
    await session.refresh(dropped)
    assert dropped.kept and dropped.evidence_count == 2 and dropped.dropped_at is None


async def test_a_published_version_that_edits_avoid_is_followed(
    client: httpx.AsyncClient, session: AsyncSession, embeddings: EmbeddingService
) -> None:
    await _publish(client)
    merged = await _run(session, embeddings, gene_id=GENE_ID, guards=[LIVE_API])
    # A maintainer publishes a version that removes the merged guard and writes another one.
    edited = gene_doc(parent=merged.asset_id, avoid=["Do not commit recorded cassettes with real tokens"])
    assert (await client.post("/v1/genes", json=publish_payload(gene=edited))).status_code == 201
    result = await _run(
        session,
        embeddings,
        gene_id=GENE_ID,
        guards=["Never push to the main branch without review"],
        task={"id": "code-0050", "family": "code_generation", "description": "Fix a CI pipeline"},
    )
    document = (await client.get(f"/v1/genes/{GENE_ID}")).json()["document"]
    assert guards_of(document) == [
        "Never push to the main branch without review",
        "Do not commit recorded cassettes with real tokens",
    ]
    assert result.new_version == 4
    event = (await client.get(f"/v1/genes/{GENE_ID}/events")).json()["items"]
    assert [e["kind"] for e in event] == ["published", "merged", "published", "merged"]
    assert [g["text"] for g in event[2]["guards_added"]] == [
        "Do not commit recorded cassettes with real tokens"
    ]
    assert {g["text"] for g in event[2]["guards_dropped"]} == {LIVE_API, PUBLISHED_GUARD}


async def test_the_rows_a_merge_writes_in_shared_statements(
    client: httpx.AsyncClient, session: AsyncSession, embeddings: EmbeddingService
) -> None:
    """Writes that share a statement (evidence and backer, event and trajectory state) leave the
    rows the separate statements left, each once, beside the version's own rows."""
    v1 = await _publish(client)
    owner = await _owner(session)
    phrased = "CI job for our API wrapper breaks whenever outbound network is blocked"
    task = {**BASE_TRAJECTORY["task"], "description": phrased}
    first = await _run(session, embeddings, gene_id=GENE_ID, guards=[LIVE_API], task=task)
    # Another run of the same task (another id): the same guard and task key again.
    second = await _run(
        session, embeddings, gene_id=GENE_ID, guards=[LIVE_API], task={**task, "id": "code-0043"}
    )
    assert (first.new_version, second.new_version) == (2, None)

    versions = (
        await session.execute(
            select(GeneVersion.id, GeneVersion.version, GeneVersion.asset_id, GeneVersion.valid_to.is_(None))
            .where(GeneVersion.gene_id == GENE_ID)
            .order_by(GeneVersion.version)
        )
    ).all()
    assert [(v.version, v.asset_id, v[3]) for v in versions] == [
        (1, v1["asset_id"], False),
        (2, first.asset_id, True),
    ]
    pointer = (
        await session.execute(select(Gene.current_version, Gene.current_asset_id).where(Gene.id == GENE_ID))
    ).one()
    assert tuple(pointer) == (2, first.asset_id)
    # The Gene object of the session took the values it was pointed at, with nothing left to flush.
    gene = await session.get(Gene, GENE_ID)
    assert gene is not None and (gene.current_version, gene.current_asset_id) == (2, first.asset_id)
    assert gene not in session.dirty

    links = await session.execute(
        text("SELECT trajectory_id, role FROM version_trajectories WHERE version_id = :v"),
        {"v": versions[1].id},
    )
    assert [tuple(row) for row in links] == [(first.trajectory_id, "guards")]
    keys = await session.execute(
        text("SELECT source, description FROM gene_task_keys WHERE gene_id = :g AND source = 'trajectory'"),
        {"g": GENE_ID},
    )
    # Both runs have the same task: one key.
    assert [tuple(row) for row in keys] == [("trajectory", phrased)]

    guard_id = await session.scalar(select(Guard.id).where(Guard.gene_id == GENE_ID, Guard.text == LIVE_API))
    evidence = await session.scalars(
        select(guard_evidence.c.trajectory_id).where(guard_evidence.c.guard_id == guard_id)
    )
    assert sorted(map(str, evidence)) == sorted([str(first.trajectory_id), str(second.trajectory_id)])
    backers = await session.scalars(
        select(guard_backers.c.key_id).where(guard_backers.c.guard_id == guard_id)
    )
    assert list(backers) == [owner.key_id]
    assert await session.scalar(select(Guard.evidence_count).where(Guard.id == guard_id)) == 2

    events = (
        await session.execute(
            select(
                EvolutionEvent.kind,
                EvolutionEvent.trajectory_ids,
                EvolutionEvent.old_version,
                EvolutionEvent.new_version,
            )
            .where(EvolutionEvent.gene_id == GENE_ID)
            .order_by(EvolutionEvent.id)
        )
    ).all()
    assert [tuple(e) for e in events] == [
        ("published", [], None, 1),
        ("merged", [first.trajectory_id], 1, 2),
        ("merged", [second.trajectory_id], 2, 2),
    ]
    states = await session.execute(
        select(
            Trajectory.id, Trajectory.state, Trajectory.result_asset_id, Trajectory.processed_at.is_not(None)
        ).where(Trajectory.id.in_([first.trajectory_id, second.trajectory_id]))
    )
    assert {tuple(row) for row in states} == {
        (first.trajectory_id, "merged", first.asset_id, True),
        (second.trajectory_id, "merged", first.asset_id, True),
    }


async def test_a_merged_runs_task_becomes_a_search_key_of_the_gene(
    client: httpx.AsyncClient, session: AsyncSession, embeddings: EmbeddingService
) -> None:
    """Experience expansion: the way the run's user phrased the problem is kept for search, once."""
    await _publish(client)
    phrased = "CI job for our API wrapper breaks whenever outbound network is blocked"
    task = {"id": "code-0099", "family": "code_generation", "description": phrased}
    result = await _run(session, embeddings, gene_id=GENE_ID, guards=[LIVE_API], task=task)
    assert result.state == "merged" and result.new_version == 2
    keys = (
        await session.execute(
            text("SELECT source, description FROM gene_task_keys WHERE gene_id = :g ORDER BY id"),
            {"g": GENE_ID},
        )
    ).all()
    published = publish_payload()["provenance"]["task"]["description"]
    # The new version carries the published task again: no second key for the same text.
    assert [(k.source, k.description) for k in keys] == [("version", published), ("trajectory", phrased)]


async def test_thirty_runs_of_one_failure_become_one_clean_guard_with_evidence_30(
    client: httpx.AsyncClient, session: AsyncSession, embeddings: EmbeddingService
) -> None:
    """The issue's example through the worker: each run hits another host from another test file."""
    await _publish(client)
    for run in range(30):
        error = (
            f"E   requests.exceptions.ConnectionError: HTTPSConnectionPool(host='api{run}.example.com', "
            f"port={8000 + run}): Max retries exceeded with url: /v1/items/{run}"
        )
        steps = [
            {
                "action": f"pytest -q tests/test_api_{run}.py",
                "ok": False,
                "error": error,
                "correction": "patch requests with responses fixtures",
            },
            {"action": "add responses fixtures", "ok": True},
        ]
        result = await _run(session, embeddings, gene_id=GENE_ID, steps=steps)
        assert result.state == "merged", result.reason
    guards = (await session.scalars(select(Guard).where(Guard.gene_id == GENE_ID))).all()
    extracted = [g for g in guards if g.text != PUBLISHED_GUARD]
    assert [g.evidence_count for g in extracted] == [30]
    [text] = [g.text for g in extracted]
    assert text.startswith("When the tests fail with ConnectionError: HTTPSConnectionPool(host=<host>")
    assert "example.com" not in text and "pytest" not in text and "test_api" not in text
    document = (await client.get(f"/v1/genes/{GENE_ID}")).json()["document"]
    assert guards_of(document)[0] == text


PRODUCER_LIVE_API = "Do not call the live API from tests; mock the HTTP layer with respx"


async def test_extracted_and_producer_guards_meet_in_the_producers_words(
    client: httpx.AsyncClient, session: AsyncSession, embeddings: EmbeddingService
) -> None:
    # The Gene already carries the producer's guard: a run without guards (its rule is extracted) adds
    # evidence to it, and no second guard.
    await _publish(client, avoid=[PRODUCER_LIVE_API])
    result = await _run(session, embeddings, gene_id=GENE_ID)
    assert result.state == "merged" and result.new_version is None, result.reason
    [guard] = (await session.scalars(select(Guard).where(Guard.gene_id == GENE_ID))).all()
    assert (guard.text, guard.evidence_count, guard.extracted) == (PRODUCER_LIVE_API, 2, False)


async def test_a_producers_guard_takes_the_place_of_an_extracted_one_and_versions_say_why(
    client: httpx.AsyncClient, session: AsyncSession, embeddings: EmbeddingService
) -> None:
    await _publish(client, avoid=None)
    extracted = await _run(session, embeddings, gene_id=GENE_ID)
    assert extracted.new_version == 2
    [guard] = (await session.scalars(select(Guard).where(Guard.gene_id == GENE_ID))).all()
    assert guard.extracted and guard.text.startswith("When the tests fail with ConnectionError")
    steps = [{"action": "add respx mocks for the client", "ok": True}]
    producer = await _run(session, embeddings, gene_id=GENE_ID, steps=steps, guards=[PRODUCER_LIVE_API])
    assert producer.new_version == 3, producer.reason
    await session.refresh(guard)
    assert (guard.text, guard.evidence_count, guard.extracted) == (PRODUCER_LIVE_API, 2, False)
    document = (await client.get(f"/v1/genes/{GENE_ID}")).json()["document"]
    assert guards_of(document) == [PRODUCER_LIVE_API]
    lineage = (await client.get(f"/v1/genes/{GENE_ID}/lineage")).json()["items"]
    assert [v["reason"] for v in lineage] == ["published", "guards_added", "guards_merged"]


N_PLUS_ONE = "Avoid N+1 queries: load the related objects with selectinload or a join."
N_PLUS_ONE_PARAPHRASE = "One query per item inside a loop is slow; batch the lookups into a single query."


def _n_plus_one_steps(queries: int, correction: str) -> list[dict[str, Any]]:
    return [
        {"action": "load each order's customer with its own query in the loop", "ok": True},
        {
            "action": f"pytest -q tests/perf/test_orders_{queries}.py",
            "ok": False,
            "error": f"AssertionError: expected at most 3 queries, got {queries}",
            "correction": correction,
        },
        {"action": correction, "ok": True},
    ]


async def test_runs_that_met_the_same_failure_and_fix_merge_their_producers_wordings(
    client: httpx.AsyncClient, session: AsyncSession, embeddings: EmbeddingService
) -> None:
    """The pair model scores these two wordings as different guards; their runs met the same error
    and fixed it the same way (the failure key), so they are one guard with the evidence of both."""
    await _publish(client, avoid=None)
    fix = "eager-load the related rows with one selectinload query"
    first = await _run(
        session, embeddings, gene_id=GENE_ID, steps=_n_plus_one_steps(17, fix), guards=[N_PLUS_ONE]
    )
    second = await _run(
        session,
        embeddings,
        gene_id=GENE_ID,
        steps=_n_plus_one_steps(240, fix),
        guards=[N_PLUS_ONE_PARAPHRASE],
    )
    assert first.state == second.state == "merged", second.reason
    [guard] = (await session.scalars(select(Guard).where(Guard.gene_id == GENE_ID))).all()
    assert (guard.text, guard.evidence_count, len(guard.failure_keys)) == (N_PLUS_ONE, 2, 1)
    # The same wording after a run that fixed it another way: another lesson, another guard.
    other = _n_plus_one_steps(17, "cache the customers in a dict keyed by id before the loop")
    await _run(session, embeddings, gene_id=GENE_ID, steps=other, guards=[N_PLUS_ONE_PARAPHRASE])
    guards = (await session.scalars(select(Guard).where(Guard.gene_id == GENE_ID).order_by(Guard.id))).all()
    assert [(g.text, g.evidence_count) for g in guards] == [(N_PLUS_ONE, 2), (N_PLUS_ONE_PARAPHRASE, 1)]


TESTS_OFFLINE = "Tests must not reach the real service over the network: stub HTTP calls with respx."


async def test_two_guards_a_run_shows_to_be_one_are_folded_with_their_evidence_and_backers(
    client: httpx.AsyncClient, session: AsyncSession, embeddings: EmbeddingService
) -> None:
    # A publisher's document may carry two wordings of one warning; nothing merges them until a run
    # brings a guard that means the same as both.
    await _publish(client, avoid=[LIVE_API, TESTS_OFFLINE])
    steps = [{"action": "add respx mocks for the client", "ok": True}]
    result = await _run(session, embeddings, gene_id=GENE_ID, steps=steps, guards=[PRODUCER_LIVE_API])
    assert result.state == "merged" and result.new_version == 2, result.reason

    # The one ranked first keeps its row, with the evidence of both and of this run.
    [guard] = (await session.scalars(select(Guard).where(Guard.gene_id == GENE_ID))).all()
    assert (guard.text, guard.evidence_count, guard.state, guard.kept) == (LIVE_API, 3, "active", True)
    evidence = await session.scalars(
        select(guard_evidence.c.trajectory_id).where(guard_evidence.c.guard_id == guard.id)
    )
    assert list(evidence) == [result.trajectory_id]
    document = (await client.get(f"/v1/genes/{GENE_ID}")).json()["document"]
    assert guards_of(document) == [LIVE_API]
    lineage = (await client.get(f"/v1/genes/{GENE_ID}/lineage")).json()["items"]
    assert [v["reason"] for v in lineage] == ["published", "guards_merged"]
    event = await session.scalar(
        select(EvolutionEvent).where(EvolutionEvent.gene_id == GENE_ID, EvolutionEvent.kind == "merged")
    )
    assert event is not None
    folds = [(m["guard_id"], m["folded_text"]) for m in event.guards_merged if "folded_text" in m]
    assert folds == [(guard.id, TESTS_OFFLINE)]


async def test_a_run_that_backed_both_folded_guards_counts_once(
    client: httpx.AsyncClient, session: AsyncSession, embeddings: EmbeddingService
) -> None:
    await _publish(client, avoid=[LIVE_API, TESTS_OFFLINE])
    steps = [{"action": "add respx mocks for the client", "ok": True}]
    floats = "Avoid comparing floats with == in tests; use pytest.approx."
    earlier = await _run(session, embeddings, gene_id=GENE_ID, steps=steps, guards=[floats])
    assert earlier.state == "merged", earlier.reason
    # A run that had backed both wordings (as one could under an earlier matcher).
    guards = {g.text: g for g in (await session.scalars(select(Guard))).all()}
    both = [guards[LIVE_API], guards[TESTS_OFFLINE]]
    await EvolutionRepository(session).add_evidence([g.id for g in both], earlier.trajectory_id)
    for guard in both:
        guard.evidence_count += 1
    await session.commit()

    bridge = await _run(session, embeddings, gene_id=GENE_ID, steps=steps, guards=[PRODUCER_LIVE_API])
    assert bridge.state == "merged", bridge.reason
    session.expire_all()
    # The two publishes' evidence, the run behind both (once) and the bridging run.
    [guard] = (await session.scalars(select(Guard).where(Guard.text != floats))).all()
    assert (guard.text, guard.evidence_count) == (LIVE_API, 4)
    runs = await session.scalars(
        select(guard_evidence.c.trajectory_id).where(guard_evidence.c.guard_id == guard.id)
    )
    assert set(runs) == {earlier.trajectory_id, bridge.trajectory_id}


async def test_a_run_that_merged_into_a_guard_it_then_folded_is_evidence_for_the_survivor(
    client: httpx.AsyncClient, session: AsyncSession, embeddings: EmbeddingService
) -> None:
    """The run's first guard lands on one wording, its second shows both wordings one, and the
    better-backed one survives: the run's evidence goes to the survivor. (It went to the folded row,
    deleted in the same transaction: a foreign-key error on every attempt, and the run rejected.)"""
    # Two wordings the pair model does not call one (p 0.60-0.63), and a third it finds the same as
    # either (p 0.95-1.00).
    mock = "Mock the HTTP layer with respx instead of calling the live API in tests."
    offline = "Never let the test suite reach the real service: stub HTTP with respx."
    bridge = "Do not call the live API from tests; stub HTTP calls with respx."
    await _publish(client, avoid=[mock, offline])
    for n in range(2):  # two distinct runs (the same one twice would be one trajectory)
        steps = [{"action": f"add respx mocks for client {n}", "ok": True}]
        backing = await _run(session, embeddings, gene_id=GENE_ID, steps=steps, guards=[mock])
        assert backing.state == "merged", backing.reason
    steps = [{"action": "add respx mocks for the client", "ok": True}]
    result = await _run(session, embeddings, gene_id=GENE_ID, steps=steps, guards=[offline, bridge])
    assert result.state == "merged", result.reason
    session.expire_all()
    [guard] = (await session.scalars(select(Guard).where(Guard.gene_id == GENE_ID))).all()
    # Both publishes' evidence, the two runs behind `mock`, and this one (once).
    assert (guard.text, guard.evidence_count) == (mock, 5)
    runs = await session.scalars(
        select(guard_evidence.c.trajectory_id).where(guard_evidence.c.guard_id == guard.id)
    )
    assert result.trajectory_id in set(runs)


async def test_a_folded_guards_evidence_and_backers_move_to_the_survivor(
    client: httpx.AsyncClient, session: AsyncSession, embeddings: EmbeddingService
) -> None:
    """The repository's fold: the absorbed guard's evidence rows and backers become the survivor's
    (a backer of both stays one backer), and its row is deleted."""
    floats = "Avoid comparing floats with == in tests; use pytest.approx."
    await _publish(client, avoid=[LIVE_API, floats])
    owner = await _owner(session)
    runs = []
    for guard_text in (LIVE_API, floats):
        steps = [{"action": "add respx mocks for the client", "ok": True}]
        runs.append(await _run(session, embeddings, gene_id=GENE_ID, steps=steps, guards=[guard_text]))
    guards = {g.text: g for g in (await session.scalars(select(Guard).where(Guard.gene_id == GENE_ID))).all()}
    assert set(guards) == {LIVE_API, floats}
    survivor, absorbed = guards[LIVE_API].id, guards[floats].id
    repo = EvolutionRepository(session)
    # The first run backed both guards: it is reported, so the survivor can count it once.
    await repo.add_evidence([absorbed], runs[0].trajectory_id)
    assert await repo.fold_guards([(survivor, absorbed)]) == {survivor: 1}
    assert await session.scalar(select(func.count()).select_from(Guard).where(Guard.id == absorbed)) == 0
    evidence = await session.scalars(
        select(guard_evidence.c.trajectory_id).where(guard_evidence.c.guard_id == survivor)
    )
    assert set(evidence) == {r.trajectory_id for r in runs}
    backers = await session.scalars(
        select(guard_backers.c.key_id).where(guard_backers.c.guard_id == survivor)
    )
    assert list(backers) == [owner.key_id]


async def test_the_merge_loads_several_guards_not_kept_and_those_sharing_a_failure_key(
    client: httpx.AsyncClient, session: AsyncSession, embeddings: EmbeddingService
) -> None:
    """Proposed and dropped guards are searched in the database: the nearest few per incoming guard
    (the pair model, not cosine order, picks among them) and any sharing one of its failure keys."""
    await _publish(client, avoid=None)
    texts = [
        LIVE_API,
        LIVE_API_PARAPHRASE,
        TESTS_OFFLINE,
        "Avoid comparing floats with == in tests; use pytest.approx.",
    ]
    vectors = await embeddings.embed_texts(texts)
    repo = EvolutionRepository(session)
    ids = await repo.insert_guards(
        [
            {
                "gene_id": GENE_ID,
                "text": text,
                "embedding": vector.tolist(),
                "embedding_model": embeddings.name,
                "kept": False,
                "state": "proposed",
                "failure_keys": ["0123456789abcdef"] if index == 3 else [],
            }
            for index, (text, vector) in enumerate(zip(texts, vectors, strict=True))
        ]
    )
    incoming = vectors[0]
    nearest = await repo.kept_and_nearest(GENE_ID, [incoming], 0.4, 1)
    assert [g.id for g, _ in nearest] == [ids[0]]
    nearest = await repo.kept_and_nearest(GENE_ID, [incoming], 0.4, 3)
    assert {g.id for g, _ in nearest} == set(ids[:3])
    keyed = await repo.kept_and_nearest(GENE_ID, [incoming], 0.4, 1, failure_keys=["0123456789abcdef"])
    assert {g.id for g, _ in keyed} == {ids[0], ids[3]}
