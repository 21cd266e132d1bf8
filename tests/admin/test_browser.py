"""The admin pages in a real headless Chromium (Debian's `chromium`, by Playwright) against a live server.

One server, one browser, one realistic registry for the module (the demo Genes, runs merged by the
evolution worker, a producer key's runs, outcome reports spread over three weeks): an admin signs in
with the keyboard, finds a Gene, opens it, compares two versions, follows the lineage to a
trajectory, revokes a Gene with a reason and sees it leave search and enter the audit log; and every
page fits a 390 px phone and a 1,366 px laptop screen. The main pages are saved as screenshots under
artifacts/screenshots/; GENEBANK_UPDATE_README_SCREENSHOT=1 also refreshes docs/admin-gene-page.png
and docs/admin-gene-page-phone.png.
"""

from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from sqlalchemy import make_url
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.auth.principal import Principal, Role
from app.auth.service import key_service
from app.cli import load_demo
from app.config import Settings
from app.db import create_engine, create_sessionmaker
from app.embeddings import EmbeddingService
from app.evolution.worker import EvolutionWorker
from app.genes.repository import GeneRepository
from app.genes.schemas import PublishRequest
from app.genes.service import gene_service
from app.gep.document import guards_of, with_guards
from app.outcomes.schemas import OutcomeIn
from app.outcomes.service import outcome_service
from app.trajectories.service import trajectory_service
from tests import external
from tests.conftest import DatabaseInfo, migrated_database
from tests.evolution.builders import FAILED_VERIFIER, trajectory_in
from tests.live import CHROMIUM_ARGS, LiveServer

pytestmark = pytest.mark.browser
CHROMIUM = external.chromium()
ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "artifacts" / "screenshots"
README_SCREENSHOT = ROOT / "docs" / "admin-gene-page.png"
PHONE_SCREENSHOT = ROOT / "docs" / "admin-gene-page-phone.png"

FEATURED = "gene_pytest_asyncio_hang_timeout"
TO_REVOKE = "gene_docker_compose_port_already_allocated"
TO_PROMOTE = "gene_npm_eresolve_peer_conflict"
HOSTILE = "<script>alert('xss')</script>"
# A Gene that a producer key's runs only add evidence to: the dashboard groups them.
BUSY = "gene_pytest_src_layout_module_not_found"


async def _registry(
    url: str, settings: Settings, embeddings: EmbeddingService
) -> tuple[dict[str, str], Principal]:
    """The demo Genes, evolved by real worker merges, with outcome reports; the keys to use it."""
    await load_demo(url, settings, embeddings)
    engine = create_engine(url, settings)
    sessions = create_sessionmaker(engine)
    try:
        tokens, producer = await _keys(sessions)
        await _evolve(sessions, url, embeddings, producer)
        await _edit_by_hand(sessions, embeddings)
        await _outcomes(sessions, settings)
    finally:
        await engine.dispose()
    # Spread the reports over three weeks so that the chart over time has a shape.
    conninfo = make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(conninfo) as conn:
        conn.execute("UPDATE outcomes SET created_at = created_at - (id % 9) * interval '2 days'")
    return tokens, producer


async def _keys(sessions: async_sessionmaker[AsyncSession]) -> tuple[dict[str, str], Principal]:
    tokens = {}
    async with sessions.begin() as session:
        for name, role in (
            ("ops admin", Role.admin),
            ("eval consumer", Role.consumer),
            ("ci producer", Role.producer),
        ):
            created = await key_service.create(session, name=name, role=role, created_by=None)
            tokens[role.name] = created.token
            if role == Role.producer:
                producer = Principal(created.key.id, name, role)
    return tokens, producer


def _producer_runs(busy_guard: str) -> list[Any]:
    """A producer key's runs: one about nothing registered (rejected, naming the closest Gene), and
    four that add evidence to a guard the busy Gene already serves."""
    src_layout = {
        "family": "code_generation",
        "description": "pytest cannot import the package of a src layout",
    }
    steps = [
        {
            "action": "pytest -q",
            "ok": False,
            "error": "ModuleNotFoundError: No module named 'mypkg'",
            "correction": "pip install -e . before running the tests",
        },
        {"action": "pip install -e . && pytest -q", "ok": True, "observation": "12 passed"},
    ]
    runs = [
        trajectory_in(
            task={
                "id": "ci-retry-503",
                "family": "code_generation",
                "description": "Speed up the HTTP client's retry logic when the API answers 503",
            },
            producer={"model": "gpt-5"},
            verifier=FAILED_VERIFIER,
        )
    ]
    for index in range(4):
        runs.append(
            trajectory_in(
                task={**src_layout, "id": f"ci-src-{index}"},
                producer={"model": "gpt-5"},
                steps=steps,
                gene_id=BUSY,
                guards=[busy_guard],
            )
        )
    return runs


async def _evolve(
    sessions: async_sessionmaker[AsyncSession], url: str, embeddings: EmbeddingService, producer: Principal
) -> None:
    task = {"family": "code_generation", "description": "Make a hanging pytest-asyncio suite finish"}
    runs = [
        trajectory_in(
            task={**task, "id": "cg-hang-0101"},
            producer={"model": "claude-opus-4-5", "agent": "swe-agent 1.2"},
            gene_id=FEATURED,
            guards=["Never await a queue.get() without a timeout in tests; wrap it in asyncio.wait_for"],
        ),
        trajectory_in(
            task={
                **task,
                "id": "cg-hang-0102",
                "description": f"Make the hanging pytest-asyncio suite of the {HOSTILE} renderer finish",
            },
            producer={"model": "gpt-5"},
            gene_id=FEATURED,
            steps=[
                {
                    "action": "export GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789 && pytest -q",
                    "ok": False,
                    "error": "Failed: Timeout >10.0s in test_stream",
                    "correction": "close the aiohttp session in the fixture teardown",
                },
                {"action": "close the session after yield", "ok": True, "observation": f"ok {HOSTILE}"},
            ],
            # Unlike any guard the Gene has (the guard-pair model would merge a paraphrase of one).
            guards=[
                "Do not leave background tasks running after a test; cancel them in the fixture teardown"
            ],
        ),
    ]
    async with sessions.begin() as session:
        # The worker takes runs in the order they arrived, in one transaction too: the 3 -> 4 diff
        # below is 0102's (0101 merges first).
        for body in runs:
            await trajectory_service.submit(session, body)
        busy = await GeneRepository(session).gene_with_version(BUSY)
        assert busy is not None
        for body in _producer_runs(guards_of(busy[1].document)[0]):
            await trajectory_service.submit(session, body, submitter=producer)
    await EvolutionWorker(sessionmaker=sessions, database_url=url, embeddings=embeddings).run(drain=True)
    async with sessions.begin() as session:  # one left for the worker: the dashboard shows its lag
        await trajectory_service.submit(
            session, trajectory_in(task={**task, "id": "cg-hang-0199"}, gene_id=FEATURED)
        )


async def _edit_by_hand(sessions: async_sessionmaker[AsyncSession], embeddings: EmbeddingService) -> None:
    """A maintainer's version on top of the merges: a strategy step added, the oldest guard removed."""
    async with sessions.begin() as session:
        found = await GeneRepository(session).gene_with_version(FEATURED)
        assert found is not None
        current = found[1]
        doc = {k: v for k, v in current.document.items() if k != "asset_id"}
        doc["parent"] = current.asset_id
        doc["strategy"] = [
            *doc["strategy"][:3],
            "Log the pending tasks with asyncio.all_tasks() when a test times out",
            *doc["strategy"][3:],
        ]
        doc = with_guards(doc, [g for g in guards_of(doc) if "time.sleep" not in g])
        request = PublishRequest.model_validate(
            {"gene": doc, "provenance": {"kind": "manual", "producer_model": doc["model_name"]}}
        )
        await gene_service.publish(session, request, embeddings)


async def _outcomes(sessions: async_sessionmaker[AsyncSession], settings: Settings) -> None:
    async with sessions() as session:
        genes = GeneRepository(session)
        # The assets consumers were handed: the current version of each Gene.
        assets = {g: (await genes.get_gene(g)).current_asset_id for g in (FEATURED, TO_REVOKE, TO_PROMOTE)}  # type: ignore[union-attr]
    plan = [
        (FEATURED, "qwen3-8b", [True, True, True, False, True, True, True]),
        (FEATURED, "llama-3.1-8b", [True, False, True, True, False]),
        (FEATURED, "gemma-3-12b", [False, False, True]),
        (TO_REVOKE, "qwen3-8b", [True, False]),
        (TO_PROMOTE, "qwen3-8b", [True]),
    ]
    for gene_id, model, results in plan:
        for index, success in enumerate(results):
            body = OutcomeIn.model_validate(
                {
                    "asset_id": assets[gene_id],
                    "consumer_model": model,
                    "task_id": f"{model}-{index}",
                    "success": success,
                    "tokens_used": 1800 + 100 * index,
                    "baseline_tokens": 5200,
                }
            )
            # A bound key per consumer model and per report: figures from distinct consumers.
            reporter = Principal(uuid.uuid4(), f"eval {model}", Role.consumer, consumer_model=model)
            async with sessions.begin() as session:
                await outcome_service.report(session, gene_id, body, reporter, settings)


@dataclass
class Site:
    """The live server over the module's registry."""

    url: str
    tokens: dict[str, str]
    producer: Principal


@pytest.fixture(scope="module")
async def site(
    database: DatabaseInfo, embeddings: EmbeddingService, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[Site]:
    with migrated_database(database, prefix="genebank_browser") as url:
        settings = Settings(
            database_url=url,
            data_dir=tmp_path_factory.mktemp("browser"),
            migrate_on_start=False,
            run_worker="false",
            rate_limit_reads="100000/minute",
            rate_limit_search="100000/minute",
            rate_limit_writes="100000/minute",
        )
        tokens, producer = await _registry(url, settings, embeddings)
        with LiveServer(settings) as server:
            yield Site(server.url, tokens, producer)


@pytest.fixture
def screenshots() -> Iterator[Path]:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    yield SCREENSHOTS


A11Y_PROBE = """() => {
  const problems = [];
  for (const tag of ["header", "nav", "main", "footer"]) {
    if (!document.querySelector(tag)) problems.push(`no <${tag}>`);
  }
  const headings = [...document.querySelectorAll("h1, h2, h3, h4, h5, h6")].map(h => Number(h.tagName[1]));
  if (headings.filter(level => level === 1).length !== 1) problems.push("not exactly one <h1>");
  headings.forEach((level, i) => {
    if (i > 0 && level > headings[i - 1] + 1) problems.push(`heading h${level} after h${headings[i - 1]}`);
  });
  for (const field of document.querySelectorAll("input:not([type=hidden]), select, textarea")) {
    const labelled = (field.id && document.querySelector(`label[for="${field.id}"]`)) ||
      field.closest("label") || field.getAttribute("aria-label") || field.getAttribute("aria-labelledby");
    if (!labelled) problems.push(`unlabelled ${field.tagName.toLowerCase()} ${field.name}`);
  }
  for (const button of document.querySelectorAll("button")) {
    if (!button.textContent.trim() && !button.getAttribute("aria-label")) problems.push("an unnamed button");
  }
  return {title: document.title, problems};
}"""


async def _check_accessible(page: Any) -> None:
    report = await page.evaluate(A11Y_PROBE)
    assert report["title"].endswith("· Genebank admin"), report["title"]
    assert report["problems"] == [], f"{page.url}: {report['problems']}"


async def _search_ids(api: httpx.AsyncClient, query: str) -> list[str]:
    response = await api.post("/v1/search", json={"query": query, "k": 10})
    assert response.status_code == 200, response.text
    return [result["gene_id"] for result in response.json()["results"]]


async def test_an_admin_follows_provenance_and_revokes_a_gene_in_a_real_browser(
    site: Site, tmp_path: Path, screenshots: Path
) -> None:
    from playwright.async_api import async_playwright

    tokens, server = site.tokens, site
    dialogs: list[str] = []

    api = httpx.AsyncClient(
        base_url=server.url, headers={"Authorization": f"Bearer {tokens['consumer']}"}, timeout=30
    )
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        context = await browser.new_context(viewport={"width": 1280, "height": 900}, base_url=server.url)
        page = await context.new_page()
        page.set_default_timeout(15_000)

        async def on_dialog(dialog: Any) -> None:
            dialogs.append(dialog.message)
            await dialog.accept()

        page.on("dialog", on_dialog)
        # A CSP violation, a missing asset or a script error shows up here.
        console_errors: list[str] = []
        page.on(
            "console",
            lambda message: (
                console_errors.append(f"{page.url}: {message.text}")
                if message.type == "error" and "/admin/tables/" not in page.url
                else None
            ),
        )

        # Signing in, with the keyboard only: the key field has focus, Enter submits.
        await page.goto("/admin/genes")
        assert page.url.endswith("/admin/login?next=%2Fadmin%2Fgenes")
        await page.keyboard.type(tokens["admin"])
        await page.screenshot(path=screenshots / "login.png")
        await page.keyboard.press("Enter")
        await page.wait_for_url("**/admin/genes")
        await page.goto("/admin/")
        assert await page.locator("h1").inner_text() == "Dashboard"
        assert "ops admin" in await page.locator("header").inner_text()
        worker = await page.locator("#worker-heading + dl").inner_text()
        assert "Pending trajectories\n1" in worker.replace("\t", "\n")
        await _check_accessible(page)
        await page.screenshot(path=screenshots / "dashboard.png", full_page=True)

        # The first Tab lands on the skip link, which moves focus to the content.
        await page.keyboard.press("Tab")
        assert await page.evaluate("document.activeElement.textContent") == "Skip to content"

        # Finding a Gene: filter, then sort by quality.
        await page.get_by_role("navigation", name="Main").get_by_role("link", name="Genes").click()
        await page.get_by_label("Id or summary contains").fill("asyncio")
        await page.get_by_role("button", name="Filter").click()
        await page.wait_for_url("**/admin/genes?q=asyncio*")
        assert await page.locator("table.genes tbody tr").count() == 1
        await page.get_by_role("link", name="Clear").click()
        await page.get_by_role("link", name="Quality", exact=True).click()
        rows = page.locator("table.genes tbody tr")
        assert await rows.count() == 12
        assert await rows.first.locator("th a").inner_text() == FEATURED  # the most reported-on Gene
        await _check_accessible(page)
        await page.screenshot(path=screenshots / "genes.png", full_page=True)

        # Its page: the readable document, the lineage graph, the outcome charts.
        await page.get_by_role("link", name=FEATURED, exact=True).click()
        await page.wait_for_url(f"**/admin/genes/{FEATURED}")
        assert FEATURED in await page.locator("h1").inner_text()
        strategy = page.locator("#document ol.strategy li")
        assert await strategy.count() == 6
        assert await page.locator("svg.lineage a.node-version, svg.lineage a.node-current").count() == 5
        assert await page.locator("svg.chart rect.bar-success").count() > 3
        assert "gemma-3-12b" in await page.locator("#outcomes").inner_text()
        hostile = page.locator("#versions").get_by_text(HOSTILE, exact=False)
        assert await hostile.count() >= 1 and not dialogs  # a run's task, shown as text, never run
        await _check_accessible(page)
        await page.screenshot(path=screenshots / "gene.png", full_page=True)
        await page.screenshot(
            path=tmp_path / "readme.png",
            full_page=True,
            clip={"x": 0, "y": 0, "width": 1280, "height": 1330},
        )

        # Comparing two versions: v1 (published) against v5 (two merges and a hand edit later).
        compare = page.locator("#versions form.compare")
        await compare.get_by_label("Compare version").select_option("1")
        await compare.get_by_label("with version").select_option("5")
        await compare.get_by_role("button", name="Compare").click()
        await page.wait_for_url(f"**/admin/genes/{FEATURED}/diff?from=1&to=5")
        guards = page.locator("#field-guards")
        added = await guards.locator("li.added").all_inner_texts()
        assert any("background tasks running after a test" in line for line in added), added
        removed = await guards.locator("li.removed").all_inner_texts()
        assert len(removed) == 1 and "time.sleep" in removed[0]
        steps = await page.locator("#field-strategy li.added").all_inner_texts()
        assert len(steps) == 1 and "asyncio.all_tasks()" in steps[0]
        await _check_accessible(page)
        await page.screenshot(path=screenshots / "diff.png", full_page=True)

        # Following the lineage to a trajectory: the graph's nodes are links.
        await page.goto(f"/admin/genes/{FEATURED}")
        run = page.locator("svg.lineage a.node-failed, svg.lineage a.node-passed").filter(
            has_text="cg-hang-0102"
        )
        await run.first.click()
        await page.wait_for_url("**/admin/trajectories/*")
        heading = await page.locator("h1").inner_text()
        assert "cg-hang-0102" in heading
        body = await page.locator("main").inner_text()
        assert HOSTILE in body and not dialogs  # shown as text, never run
        assert "Secrets redacted\n1" in body.replace("\t", "\n")
        assert "ghp_abcdefghijklmnop" not in body
        merged = await page.locator("#merged-heading + p").inner_text()
        assert FEATURED in merged
        await _check_accessible(page)
        await page.screenshot(path=screenshots / "trajectory.png", full_page=True)

        for name, path in (("producers", "/admin/producers"), ("events", "/admin/events")):
            await page.goto(path)
            await _check_accessible(page)
            await page.screenshot(path=screenshots / f"{name}.png", full_page=True)
        assert await page.locator("ol.feed > li").count() >= 14

        # Revoking a Gene: it leaves search and enters the audit log.
        query = "docker compose cannot start: port is already allocated"
        assert TO_REVOKE in await _search_ids(api, query)
        await page.goto(f"/admin/genes/{TO_REVOKE}")
        await page.get_by_label("Revoke (final)").check()
        await page.get_by_label("Reason (required", exact=False).fill(
            "Advice to remap ports broke CI runners"
        )
        await page.get_by_role("button", name="Apply").click()
        await page.wait_for_url(f"**/admin/genes/{TO_REVOKE}#actions")
        assert dialogs and "final" in dialogs[-1]  # the confirmation (a script nicety)
        assert "is now revoked" in await page.locator(".flash.success").inner_text()
        assert "revoked" in await page.locator("h1 .status").inner_text()
        assert TO_REVOKE not in await _search_ids(api, query)
        assert (await api.get(f"/v1/genes/{TO_REVOKE}")).status_code == 410

        await page.get_by_role("navigation", name="Main").get_by_role("link", name="Audit log").click()
        await page.get_by_label("Action").fill("admin.set_status")
        await page.get_by_role("button", name="Filter").click()
        entry = page.locator("table.audit tbody tr").first
        text = await entry.inner_text()
        assert "ops admin" in text and TO_REVOKE in text and "200" in text and "127.0.0.1" in text
        assert "Advice to remap ports broke CI runners" in text
        await _check_accessible(page)
        await page.screenshot(path=screenshots / "audit.png", full_page=True)

        assert console_errors == []

        # Plain table browsing is sqladmin's, behind the same session.
        await page.goto("/admin/tables/outcome/list")
        assert "gemma-3-12b" in await page.locator("body").inner_text()
        await page.screenshot(path=screenshots / "tables.png")
        # Its landing page lists the tables and leads back to our pages.
        await page.get_by_role("link", name="Genebank tables").click()
        await page.wait_for_url("**/admin/tables/")
        assert await page.locator("ul.tables li a").count() == 8
        await page.screenshot(path=screenshots / "tables-landing.png")
        await page.get_by_role("link", name="Back to the Genebank admin").click()
        await page.wait_for_url("**/admin/")
        assert await page.locator("h1").inner_text() == "Dashboard"

        # Without JavaScript: the same session still reads the document and uses the forms.
        state = await context.storage_state()
        plain = await browser.new_context(java_script_enabled=False, storage_state=state, base_url=server.url)
        quiet = await plain.new_page()
        await quiet.goto(f"/admin/genes/{TO_PROMOTE}")
        assert await quiet.locator("#document ol.strategy li").count() >= 3
        assert await quiet.locator("#actions textarea[name=reason][required]").count() == 1
        await quiet.get_by_label("Promote").check()
        await quiet.get_by_label("Reason (required", exact=False).fill("Verified by hand on three repos")
        await quiet.get_by_role("button", name="Apply").click()
        assert "is now promoted" in await quiet.locator(".flash.success").inner_text()
        # v3 is run 0101's merge (its guard joined a paraphrase: a reorder), v4 run 0102's new guard.
        await quiet.goto(f"/admin/genes/{FEATURED}/diff?from=3&to=4")
        assert await quiet.locator("#field-guards li.added").count() == 1
        await plain.close()

        # Signing out ends the session.
        await page.goto("/admin/")
        await page.get_by_role("button", name="Sign out").click()
        await page.wait_for_url("**/admin/login")
        await page.goto("/admin/")
        assert "/admin/login" in page.url
        await browser.close()
    await api.aclose()

    if os.environ.get("GENEBANK_UPDATE_README_SCREENSHOT") == "1":
        README_SCREENSHOT.parent.mkdir(exist_ok=True)
        shutil.copyfile(tmp_path / "readme.png", README_SCREENSHOT)


VIEWPORTS = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1366, "height": 768}}
# What sticks out past the right edge, for a failure message that says where to look.
OVERFLOW_PROBE = """() => {
  const limit = window.innerWidth + 0.5;
  // Inside a scrolling box that fits, unless absolutely placed with no positioned box in between.
  const clipped = (e) => {
    let free = getComputedStyle(e).position === "absolute";
    for (let up = e.parentElement; up; up = up.parentElement) {
      const style = getComputedStyle(up);
      if (!free && style.overflowX !== "visible" && up.getBoundingClientRect().right <= limit) return true;
      if (free && style.position !== "static") free = false;
    }
    return false;
  };
  const name = (e) => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "")
    + (e.getAttribute("class") ? "." + e.getAttribute("class").split(" ").join(".") : "");
  const wide = [...document.querySelectorAll("body *")]
    .filter(e => e.getBoundingClientRect().right > limit && !clipped(e))
    .slice(0, 6)
    .map(e => `${name(e)} right=${Math.round(e.getBoundingClientRect().right)}`);
  return {scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth, wide};
}"""


async def _signed_in(browser: Any, site: Site, viewport: dict[str, int], scale: float = 1) -> Any:
    context = await browser.new_context(viewport=viewport, device_scale_factor=scale, base_url=site.url)
    page = await context.new_page()
    page.set_default_timeout(15_000)
    await page.goto("/admin/login")
    await page.get_by_label("Admin API key").fill(site.tokens["admin"])
    await page.get_by_role("button", name="Sign in").click()
    await page.wait_for_url("**/admin/")
    return context


async def test_every_page_fits_a_phone_and_a_laptop_screen(site: Site, screenshots: Path) -> None:
    from playwright.async_api import async_playwright

    async with httpx.AsyncClient(
        base_url=site.url, headers={"Authorization": f"Bearer {site.tokens['producer']}"}, timeout=30
    ) as producer:
        runs = (await producer.get("/v1/trajectories", params={"state": "rejected"})).json()["items"]
    assert runs and runs[0]["closest_gene_id"], runs
    paths = [
        "/admin/",
        "/admin/genes",
        "/admin/genes?sort=quality&order=desc",
        f"/admin/genes/{FEATURED}",
        f"/admin/genes/{BUSY}",
        f"/admin/genes/{FEATURED}/diff?from=1&to=5",
        "/admin/producers",
        "/admin/producers/gpt-5",
        f"/admin/keys/{site.producer.key_id}",
        "/admin/trajectories",
        f"/admin/trajectories/{runs[0]['id']}",
        "/admin/events",
        "/admin/audit",
        "/admin/no-such-page",
        "/admin/tables/",
    ]
    too_wide = []
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for name, viewport in VIEWPORTS.items():
            signed_out = await browser.new_context(viewport=viewport, base_url=site.url)
            context = await _signed_in(browser, site, viewport)
            for path in ["/admin/login", *paths]:
                page = await (signed_out if path == "/admin/login" else context).new_page()
                await page.goto(path)
                found = await page.evaluate(OVERFLOW_PROBE)
                assert found["innerWidth"] == viewport["width"]
                if found["scrollWidth"] > found["innerWidth"]:
                    too_wide.append(
                        f"{name} {path}: {found['scrollWidth']} px > {found['innerWidth']} {found['wide']}"
                    )
                await page.close()
            await context.close()
            await signed_out.close()

        # The Gene page on a phone: its header, lineage, charts and tables within the screen.
        phone = await _signed_in(browser, site, VIEWPORTS["phone"], scale=2)
        page = await phone.new_page()
        await page.goto(f"/admin/genes/{FEATURED}")
        lineage = await page.locator("svg.lineage").bounding_box()
        chart = await page.locator("svg.chart").first.bounding_box()
        assert lineage is not None and chart is not None
        assert chart["x"] + chart["width"] <= VIEWPORTS["phone"]["width"]
        await page.screenshot(path=screenshots / "gene-phone.png", full_page=True)
        # For the docs: from the top of the page to the end of the outcome charts.
        bottom = await page.locator("#outcomes").bounding_box()
        assert bottom is not None
        await page.screenshot(
            path=screenshots / "gene-phone-top.png",
            full_page=True,
            clip={
                "x": 0,
                "y": 0,
                "width": VIEWPORTS["phone"]["width"],
                "height": bottom["y"] + bottom["height"],
            },
        )
        for section in ("lineage", "outcomes", "guards"):
            await page.locator(f"#{section}").screenshot(path=screenshots / f"gene-phone-{section}.png")
        await browser.close()
    assert too_wide == []
    if os.environ.get("GENEBANK_UPDATE_README_SCREENSHOT") == "1":
        shutil.copyfile(screenshots / "gene-phone-top.png", PHONE_SCREENSHOT)
