"""Every admin page over HTTP: what it shows, its filters, escaping, and the lifecycle actions."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from html import unescape

import httpx
import pytest
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.admin.activity.service import activity_pages
from app.admin.genes.repository import GeneFilters
from app.admin.genes.service import gene_pages
from app.auth.principal import Principal, Role
from app.embeddings import EmbeddingService
from app.models import ApiKey, AuditEntry, GeneStatusChange
from app.trajectories.service import trajectory_service
from tests.admin.conftest import History, csrf_of
from tests.evolution.builders import FAILED_VERIFIER, trajectory_in, trajectory_payload
from tests.evolution.jobs import merge_next
from tests.factories import gene_doc, publish_payload

ClientAs = Callable[[str | None], httpx.AsyncClient]


def text_of(html: str) -> str:
    """The page's visible text, roughly: tags dropped, whitespace folded."""
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


async def test_every_page_answers(signed_in: httpx.AsyncClient, history: History) -> None:
    gene, run = history.gene_id, history.trajectory_ids[0]
    titles = {
        "/admin/": "Dashboard",
        "/admin/genes": "Genes",
        "/admin/genes?family=code_generation&status=candidate&min_quality=&sort=id&order=asc": "Genes",
        f"/admin/genes/{gene}": gene,
        f"/admin/genes/{gene}/diff?from=1&to=2": f"{gene}: v1 → v2",
        "/admin/producers": "Producers",
        "/admin/producers/claude-opus-4-5": "claude-opus-4-5",
        "/admin/trajectories": "Trajectories",
        "/admin/trajectories?state=merged&producer=&gene=": "Trajectories",
        f"/admin/trajectories/{run}": f"Trajectory {run[:8]}",
        "/admin/events": "Evolution events",
        f"/admin/events?gene={gene}&kind=published": "Evolution events",
        "/admin/audit": "Audit log",
        "/admin/audit?outcome=failed&action=&key=": "Audit log",
    }
    for path, title in titles.items():
        page = await signed_in.get(path)
        assert page.status_code == 200, (path, page.text[:500])
        assert f"<title>{title} · Genebank admin</title>" in page.text, path
        for landmark in ("<header", "<nav", "<main", "<footer"):
            assert landmark in page.text, (path, landmark)


async def test_the_tables_are_sqladmins_and_read_only(signed_in: httpx.AsyncClient) -> None:
    index = await signed_in.get("/admin/tables/")
    assert index.status_code == 200 and "Genebank tables" in index.text
    keys = await signed_in.get("/admin/tables/api-key/list")
    assert keys.status_code == 200 and "key_hash" not in keys.text
    assert (await signed_in.get("/admin/tables/api-key/create")).status_code == 403
    assert (await signed_in.delete("/admin/tables/api-key/delete?pks=x")).status_code in (403, 405)


async def test_the_dashboard_counts_and_shows_recent_events(
    signed_in: httpx.AsyncClient, history: History
) -> None:
    page = text_of((await signed_in.get("/admin/")).text)
    assert "1 Genes 1 candidate 0 promoted 0 deprecated 0 revoked 2 versions 3 outcome reports" in page
    assert "code_generation 1 0 0 0 1" in page
    assert "Pending trajectories 0" in page and "Last merge never" in page
    assert f"{history.gene_id} v2 published v1 → v2 +1 guard" in page


async def test_the_gene_page_shows_document_lineage_provenance_and_outcomes(
    signed_in: httpx.AsyncClient, history: History
) -> None:
    html = (await signed_in.get(f"/admin/genes/{history.gene_id}")).text
    page = text_of(html)
    assert "Record the HTTP fixtures once with respx and replay them" in page
    assert "⚠" not in page  # guards are marked by CSS, not by characters in the text
    assert "Never call the live API" in page
    # The lineage: two version nodes, v2's parent link, and each run a link to its page.
    lineage = html[
        html.index('<svg class="lineage"') : html.index("</svg>", html.index('<svg class="lineage"'))
    ]
    assert lineage.count('class="node node-version"') + lineage.count('class="node node-current"') == 2
    assert lineage.count('class="edge edge-parent"') == 1
    for run in history.trajectory_ids:
        assert f'href="/admin/trajectories/{run}"' in lineage
    # Provenance chain of each version: task → producer → verifier → trajectories.
    assert "Task code-0002 (code_generation): Keep the client tests offline" in page
    assert "Verifier pytest 8.3 passed , score 1.0" in page
    # The current version's own provenance: its parent (a column since migration 0018) and why it exists.
    assert f"Parent {history.assets[0][:19]}…" in page
    assert "Why this version published" in page
    # Outcomes: both charts, per-model table, stats.
    assert html.count('class="bar bar-success"') >= 1 and html.count('class="bar bar-failure"') == 1
    assert "qwen3-8b: 1 of 2 succeeded (50%)" in html and "llama-3.1-8b: 1 of 1 succeeded (100%)" in html
    assert "Reuse (outcome reports) 3" in page and "Consumer models 2" in page
    assert "Discovery cost 96,426 tokens, 6 attempts, 825.0 s over 2 runs" in page
    # The actions a candidate may take, each needing a reason.
    assert 'name="reason" rows="2" required minlength="3"' in html
    assert re.findall(r'name="status" value="(\w+)"', html) == ["promoted", "deprecated", "revoked"]


async def test_the_diff_marks_added_and_removed_guards_and_steps(
    signed_in: httpx.AsyncClient, history: History
) -> None:
    forward = (await signed_in.get(f"/admin/genes/{history.gene_id}/diff?from=1&to=2")).text

    def field(html: str, name: str) -> str:
        start = html.index(f'<section id="field-{name}"')
        return html[start : html.index("</section>", start)]

    added = r'<li class="added">.*?<ins><span class="sr-only">added: </span>(.*?)</ins>'
    strategy, guards = field(forward, "strategy"), field(forward, "guards")
    assert re.findall(added, strategy) == ["Record the HTTP fixtures once with respx and replay them"]
    assert re.findall(added, guards) == ["Never call the live API"]
    assert '<li class="removed">' not in strategy + guards
    assert strategy.count('<li class="same">') == 3 and guards.count('<li class="same">') == 1
    assert "strategy steps</a>: <span" in forward and "1 added" in forward
    # The version says why it exists.
    assert 'why: <strong class="version-reason">published</strong>' in forward
    backward = (await signed_in.get(f"/admin/genes/{history.gene_id}/diff?from=2&to=1")).text
    removed = re.findall(r"<del><span class=\"sr-only\">removed: </span>(.*?)</del>", backward)
    assert (
        "Never call the live API" in removed
        and "Record the HTTP fixtures once with respx and replay them" in removed
    )
    same = (await signed_in.get(f"/admin/genes/{history.gene_id}/diff?from=2&to=2")).text
    assert "The two versions have the same content." in same


async def test_untrusted_text_is_escaped_everywhere(
    signed_in: httpx.AsyncClient, client_as: ClientAs, history: History
) -> None:
    hostile = "<img src=x onerror=alert(1)>"
    payload = publish_payload(gene=gene_doc(id="gene_hostile_markup", summary=f"Render {hostile} safely"))
    assert (await client_as("admin").post("/v1/genes", json=payload)).status_code == 201
    for path in ("/admin/genes", "/admin/genes/gene_hostile_markup", "/admin/"):
        html = (await signed_in.get(path)).text
        assert hostile not in html
    assert "Render &lt;img src=x onerror=alert(1)&gt; safely" in (await signed_in.get("/admin/genes")).text
    run = (await signed_in.get(f"/admin/trajectories/{history.trajectory_ids[0]}")).text
    assert "<b>no network</b>" not in run and "ConnectionError: &lt;b&gt;no network&lt;/b&gt;" in run


async def test_the_trajectory_page_shows_its_steps_verifier_and_where_it_went(
    signed_in: httpx.AsyncClient, history: History
) -> None:
    page = text_of((await signed_in.get(f"/admin/trajectories/{history.trajectory_ids[0]}")).text)
    assert "State merged : published inline with its Gene version" in page
    assert "failed pytest -q Error ConnectionError" in page and "Correction mock" in page
    assert "ok add respx mocks Observation 42 passed" in page
    assert '"tests": 42' in page and "Secrets redacted 0" in page
    assert f"Evidence behind: {history.gene_id} v1" in page


async def test_genes_filter_sort_and_page(
    signed_in: httpx.AsyncClient, client_as: ClientAs, history: History
) -> None:
    admin = client_as("admin")
    for index, (category, producer) in enumerate([("optimize", "gpt-5"), ("innovate", "gpt-5")]):
        doc = gene_doc(
            id=f"gene_extra_{index}", category=category, model_name=producer, summary=f"100% extra {index}"
        )
        assert (
            await admin.post("/v1/genes", json=publish_payload(gene=doc, producer_model=producer))
        ).status_code == 201

    async def ids(query: str) -> list[str]:
        html = (await signed_in.get(f"/admin/genes?{query}")).text
        return re.findall(r'<th scope="row"><a href="/admin/genes/([^"#]+)">', html)

    assert await ids("sort=id&order=asc") == ["gene_extra_0", "gene_extra_1", history.gene_id]
    assert await ids("sort=id&order=desc") == [history.gene_id, "gene_extra_1", "gene_extra_0"]
    assert await ids("category=optimize") == ["gene_extra_0"]
    assert await ids("producer=gpt-5&sort=id&order=asc") == ["gene_extra_0", "gene_extra_1"]
    # "%" is a character to find, not a wildcard: only the two summaries holding one match.
    assert await ids("q=%25&sort=id&order=asc") == ["gene_extra_0", "gene_extra_1"]
    assert await ids("q=FLAKY") == [history.gene_id]
    assert await ids("min_quality=0.01") == [history.gene_id]  # the only Gene with reports
    assert await ids("status=revoked") == []
    sorted_by_quality = (await signed_in.get("/admin/genes?sort=quality&order=desc")).text
    assert 'aria-sort="descending"' in sorted_by_quality
    bad = await signed_in.get("/admin/genes?min_quality=2")
    assert bad.status_code == 422 and "min_quality" in bad.text


async def test_pages_of_unknown_things_are_404_pages(signed_in: httpx.AsyncClient) -> None:
    for path in (
        "/admin/genes/gene_nobody_knows",
        "/admin/genes/gene_nobody_knows/diff",
        "/admin/producers/nobody",
        "/admin/trajectories/00000000-0000-0000-0000-000000000000",
        "/admin/no-such-page",
    ):
        page = await signed_in.get(path)
        assert page.status_code == 404, path
        assert "<main" in page.text and "Back to the dashboard" in page.text


async def _act(client: httpx.AsyncClient, gene_id: str, status: str, reason: str) -> str:
    page = await client.get(f"/admin/genes/{gene_id}")
    answer = await client.post(
        f"/admin/genes/{gene_id}/status",
        data={"csrf_token": csrf_of(page.text), "status": status, "reason": reason},
    )
    assert answer.status_code == 303 and answer.headers["location"] == f"/admin/genes/{gene_id}#actions"
    return (await client.get(f"/admin/genes/{gene_id}")).text


async def test_lifecycle_actions_need_a_reason_and_are_audited(
    signed_in: httpx.AsyncClient, client_as: ClientAs, history: History, session: AsyncSession
) -> None:
    gene = history.gene_id
    promoted = await _act(signed_in, gene, "promoted", "Verified by hand on three repositories")
    assert f"{gene} is now promoted (candidate before)" in promoted
    blank = await _act(signed_in, gene, "deprecated", "  ")
    assert "give a reason of 3 to 1000 characters" in blank and "status-promoted" in blank
    revoked = await _act(signed_in, gene, "revoked", "Its advice deleted a user's fixtures")
    assert f"{gene} is now revoked" in revoked and "revocation is final" in revoked
    assert 'name="reason"' not in revoked
    again = await _act(signed_in, gene, "promoted", "Changed my mind about it")
    assert "is revoked: it cannot be set to promoted" in again

    changes = (await session.scalars(select(GeneStatusChange).order_by(GeneStatusChange.id))).all()
    assert [(c.from_status, c.to_status, c.actor) for c in changes] == [
        ("candidate", "promoted", "test admin"),
        ("promoted", "revoked", "test admin"),
    ]
    entries = (
        await session.scalars(
            select(AuditEntry).where(AuditEntry.action == "admin.set_status").order_by(AuditEntry.id)
        )
    ).all()
    assert [(e.actor, e.target, e.status, e.client, e.method) for e in entries] == [
        ("test admin", gene, 200, "127.0.0.1", "POST"),
        ("test admin", gene, 422, "127.0.0.1", "POST"),
        ("test admin", gene, 200, "127.0.0.1", "POST"),
        ("test admin", gene, 409, "127.0.0.1", "POST"),
    ]
    assert entries[2].detail == {
        "status": "revoked",
        "reason": "Its advice deleted a user's fixtures",
        "from_status": "promoted",
    }

    # Revoked: gone from the API and from search, still fully visible to admins (with its history).
    consumer = client_as("consumer")
    assert (await consumer.get(f"/v1/genes/{gene}")).status_code == 410
    found = await consumer.post("/v1/search", json={"query": "pytest suites that fail on network access"})
    assert gene not in [r["gene_id"] for r in found.json()["results"]]
    page = text_of(revoked)
    assert "not estimated for a revoked Gene" in page and "Reuse (outcome reports) 3" in page
    audit = text_of((await signed_in.get("/admin/audit?action=admin.set_status&outcome=failed")).text)
    assert "is revoked: it cannot be set to promoted" in audit and "Verified by hand" not in audit


async def test_the_gene_list_pages(session: AsyncSession, client_as: ClientAs, history: History) -> None:
    payload = publish_payload(gene=gene_doc(id="gene_another_one"))
    assert (await client_as("admin").post("/v1/genes", json=payload)).status_code == 201
    first = await gene_pages.genes(session, GeneFilters(), sort="id", descending=False, page=1, size=1)
    second = await gene_pages.genes(session, GeneFilters(), sort="id", descending=False, page=2, size=1)
    assert (first.page.total, first.page.pages) == (2, 2)
    assert [row[0].id for row in first.rows] == ["gene_another_one"]
    assert [row[0].id for row in second.rows] == [history.gene_id]


async def test_feeds_page_newest_first(session: AsyncSession, history: History) -> None:
    first = await activity_pages.events(session, gene_id=history.gene_id, kind=None, cursor=None, size=1)
    assert [e.event.new_version for e in first.entries if e.event] == [2] and first.next_cursor is not None
    second = await activity_pages.events(
        session, gene_id=history.gene_id, kind=None, cursor=first.next_cursor, size=1
    )
    assert [e.event.new_version for e in second.entries if e.event] == [1] and second.next_cursor is None
    audit = await activity_pages.audit_log(
        session, key_id=None, action=None, target=None, failed=None, cursor=None, size=2
    )
    assert len(audit.entries) == 2 and audit.next_cursor is not None
    rest = await activity_pages.audit_log(
        session, key_id=None, action=None, target=None, failed=None, cursor=audit.next_cursor, size=100
    )
    assert {e.id for e in rest.entries}.isdisjoint({e.id for e in audit.entries})
    assert audit.entries[-1].id > rest.entries[0].id


@pytest.mark.parametrize(
    "path",
    ["/admin/audit?cursor=not-a-cursor", "/admin/trajectories?cursor=%21", "/admin/events?cursor=e30"],
)
async def test_a_bad_cursor_is_a_clean_error_page(signed_in: httpx.AsyncClient, path: str) -> None:
    page = await signed_in.get(path)
    assert page.status_code == 422 and "cursor is not one this service issued" in page.text


async def test_a_producer_with_only_runs_has_a_page_reached_by_its_quoted_link(
    signed_in: httpx.AsyncClient, client_as: ClientAs
) -> None:
    body = trajectory_payload(producer={"model": "meta/llama #4?"})
    accepted = await client_as("producer").post("/v1/trajectories", json=body)
    assert accepted.status_code == 202, accepted.text
    run = (await signed_in.get(f"/admin/trajectories/{accepted.json()['id']}")).text
    link = re.search(r'<a href="(/admin/producers/[^"]+)">meta/llama #4\?</a>', run)
    assert link is not None and link.group(1) == "/admin/producers/meta/llama%20%234%3F"
    page = await signed_in.get(link.group(1))
    assert page.status_code == 200
    assert (
        "Trajectories 1 : 1 pending" in text_of(page.text) and "No current Gene of this producer" in page.text
    )


async def test_limit_sets_the_rows_a_page_and_the_next_page_keeps_it(
    signed_in: httpx.AsyncClient, history: History
) -> None:
    html = (await signed_in.get(f"/admin/events?gene={history.gene_id}&limit=1")).text
    assert html.count('<li id="event-') == 1
    older = re.search(r'<a href="(/admin/events\?[^"]+)" rel="next">', html)
    assert older is not None and "limit=1" in unescape(older.group(1))
    rest = (await signed_in.get(unescape(older.group(1)))).text
    assert rest.count('<li id="event-') == 1 and 'rel="next"' not in rest
    assert (await signed_in.get("/admin/events?limit=0")).status_code == 422


async def test_the_gene_page_lists_the_documents_guards_before_the_first_merge(
    signed_in: httpx.AsyncClient, history: History
) -> None:
    html = (await signed_in.get(f"/admin/genes/{history.gene_id}")).text
    guards = html[
        html.index('<section id="guards"') : html.index("</section>", html.index('<section id="guards"'))
    ]
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", guards, re.S)[1:]
    listed = [text_of(row) for row in rows]
    assert len(listed) == 2
    assert listed[0].startswith(" Do not raise the global timeout") and "published, since v1" in listed[0]
    assert listed[1].startswith(" Never call the live API") and "published, since v2" in listed[1]
    assert all("served" in row and "recorded at the first merge" in row for row in listed)
    assert "guard_review" not in guards and "/guards/" not in guards  # nothing to review yet


async def test_a_keys_page_shows_its_runs_as_the_api_does(
    signed_in: httpx.AsyncClient,
    client_as: ClientAs,
    history: History,
    session: AsyncSession,
    embeddings: EmbeddingService,
) -> None:
    producer = client_as("producer")
    task = {
        "id": "code-0099",
        "family": "code_generation",
        "description": "Speed up the HTTP client's retry logic when the API answers 503",
    }
    sent = await producer.post(
        "/v1/trajectories", json=trajectory_payload(task=task, verifier=FAILED_VERIFIER)
    )
    assert sent.status_code == 202
    result = await merge_next(session, embeddings)
    assert result is not None and result.state == "rejected"
    waiting = await producer.post(
        "/v1/trajectories", json=trajectory_payload(task={**task, "id": "code-0100"})
    )
    assert waiting.status_code == 202
    key_id = await session.scalar(select(ApiKey.id).where(ApiKey.name == "test producer"))

    model = text_of((await signed_in.get("/admin/producers/claude-opus-4-5")).text)
    assert "Keys that sent its runs" in model and "test producer 1 0 1 2" in model
    html = (await signed_in.get(f"/admin/keys/{key_id}")).text
    assert (
        f'href="/admin/keys/{key_id}"'
        in (await signed_in.get(f"/admin/trajectories/{sent.json()['id']}")).text
    )
    page = text_of(html)
    assert "Runs of key test producer" in page and "1 pending 0 merged 1 rejected" in page
    api = (await producer.get("/v1/trajectories")).json()
    assert re.findall(r'href="/admin/trajectories/([0-9a-f-]+)"', html) == [run["id"] for run in api["items"]]
    rejected = next(run for run in api["items"] if run["state"] == "rejected")
    assert rejected["reason"] in page
    assert f"Closest Gene: {history.gene_id} (similarity {rejected['closest_similarity']:.2f})" in page

    only = (await signed_in.get(f"/admin/keys/{key_id}?state=rejected&gene=&family=&since=&until=")).text
    assert re.findall(r'href="/admin/trajectories/([0-9a-f-]+)"', only) == [str(result.trajectory_id)]
    assert "1 pending 0 merged 1 rejected" in text_of(only)  # counts follow every filter but the state
    assert "No run matches" in (await signed_in.get(f"/admin/keys/{key_id}?since=2999-01-01")).text
    assert "No run matches" in (await signed_in.get(f"/admin/keys/{key_id}?until=2000-01-01")).text
    assert (await signed_in.get(f"/admin/keys/{key_id}?cursor=%21")).status_code == 422
    assert (await signed_in.get(f"/admin/keys/{key_id}?since=2026-02-30")).status_code == 422
    assert (await signed_in.get(f"/admin/keys/{key_id}?until=9999-12-31")).status_code == 200
    assert (await signed_in.get(f"/admin/keys/{uuid.uuid4()}")).status_code == 404


async def test_runs_that_only_add_evidence_are_grouped_and_status_reasons_are_dated(
    signed_in: httpx.AsyncClient,
    client: httpx.AsyncClient,
    history: History,
    session: AsyncSession,
    embeddings: EmbeddingService,
) -> None:
    admin = await session.scalar(select(ApiKey).where(ApiKey.name == "test admin"))
    assert admin is not None
    owner = Principal(admin.id, admin.name, Role.admin)
    for index in range(5):
        task = {
            "id": f"code-{index}",
            "family": "code_generation",
            "description": f"Keep test {index} offline",
        }
        body = trajectory_in(gene_id=history.gene_id, guards=["Never call the live API"], task=task)
        await trajectory_service.submit(session, body, submitter=owner)
        assert (await merge_next(session, embeddings)).state == "merged"  # type: ignore[union-attr]
    events = (await client.get(f"/v1/genes/{history.gene_id}/events")).json()["items"]
    # The first run reorders the guards (a new version); the other four only add evidence.
    assert [e["new_asset_id"] == e["old_asset_id"] for e in events[-5:]] == [False, True, True, True, True]

    dashboard = text_of((await signed_in.get("/admin/")).text)
    assert dashboard.count("4 runs added evidence to 1 guard") == 1
    assert f"{history.gene_id} v3 evidence only (4 events) v3" in dashboard
    assert f"{history.gene_id} v3 merged v2 → v3" in dashboard
    feed = (await signed_in.get(f"/admin/events?gene={history.gene_id}")).text
    assert text_of(feed).count("4 runs added evidence to 1 guard") == 1
    assert feed.count('<li class="group">') == 1 and feed.count('<ol class="feed">') == 1
    for event in events[-4:]:
        assert f'<li id="event-{event["id"]}">' in feed  # each grouped event is still listed

    await _act(signed_in, history.gene_id, "promoted", "Verified by hand on three repositories")
    page = text_of((await signed_in.get(f"/admin/genes/{history.gene_id}")).text)
    change = (await client.get(f"/v1/genes/{history.gene_id}/stats")).json()["status_history"][-1]
    recorded = datetime.fromisoformat(change["at"]).astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
    assert (
        f"Status reason Verified by hand on three repositories (recorded {recorded} by test admin, "
        "when it became promoted: the figures of that moment; the quality now )" in page
    )
    assert "Quality now (lower bound)" in page
