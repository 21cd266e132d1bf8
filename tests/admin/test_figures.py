"""The pure parts of the admin pages: document diffs and the geometry of the SVG figures."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from app.admin.diff import diff_documents, diff_lines
from app.admin.svg import (
    MAX_BARS,
    MAX_TRAJECTORIES_SHOWN,
    DayCount,
    ModelRate,
    OtherVersion,
    TrajectoryMark,
    VersionMark,
    lineage_graph,
    per_consumer_model,
    rebucket,
    success_over_time,
)
from app.genes.versions import VersionReason, guard_change_reason
from tests.factories import gene_doc

NOW = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)


def test_lines_replaced_in_place_show_as_removed_then_added() -> None:
    lines = diff_lines(["a", "b", "c"], ["a", "B", "c", "d"])
    assert [(line.op, line.text) for line in lines] == [
        ("same", "a"),
        ("removed", "b"),
        ("added", "B"),
        ("same", "c"),
        ("added", "d"),
    ]


def test_document_diff_covers_every_field_in_reading_order() -> None:
    old = gene_doc()
    new = gene_doc(
        strategy=[*old["strategy"][:1], "A new second step", *old["strategy"][1:]],
        avoid=["Never call the live API"],
        constraints={"max_files": 7, "forbidden_paths": [".git"]},
        routing_hint={"tier": "cheap"},
    )
    diff = diff_documents(old, new)
    names = [f.name for f in diff.fields]
    assert names[:8] == [
        "summary",
        "category",
        "signals_match",
        "preconditions",
        "strategy",
        "guards",
        "constraints",
        "validation",
    ]
    assert names[-1] == "routing_hint" and "id" not in names and "type" not in names
    assert [f.name for f in diff.changed] == ["strategy", "guards", "constraints", "routing_hint"]
    strategy = diff.field("strategy")
    assert strategy is not None and (strategy.added, strategy.removed) == (1, 0)
    avoid = diff.field("guards")
    assert avoid is not None and (avoid.added, avoid.removed) == (1, 1)
    constraints = diff.field("constraints")
    assert constraints is not None
    assert [line.text.strip() for line in constraints.lines if line.op != "same"] == [
        '"max_files": 5',
        '"max_files": 7',
    ]


def test_a_reordered_list_is_a_change_without_new_lines() -> None:
    doc = gene_doc()
    diff = diff_documents(doc, gene_doc(strategy=list(reversed(doc["strategy"]))))
    strategy = diff.field("strategy")
    assert strategy is not None and strategy.changed


def _version(number: int, parent: str | None, runs: int = 1, current: bool = False) -> VersionMark:
    return VersionMark(
        version=number,
        asset_id=f"sha256:{number}",
        parent_asset_id=parent,
        change="merged",
        created=NOW,
        current=current,
        href=f"#v{number}",
        trajectories=[
            TrajectoryMark(f"run-{number}-{i}", f"task-{number}-{i}", i % 2 == 0, f"/t/{number}/{i}")
            for i in range(runs)
        ],
    )


def test_the_lineage_links_each_version_to_its_parent_and_its_runs() -> None:
    versions = [
        _version(1, None),
        _version(2, "sha256:1", runs=0),
        _version(3, "sha256:2", runs=7, current=True),
    ]
    graph = lineage_graph(versions, None, [])
    nodes = {node.label: node for node in graph.nodes}
    assert [n.kind for n in graph.nodes if n.kind in ("version", "current")] == [
        "version",
        "version",
        "current",
    ]
    assert nodes["v1"].x < nodes["v2"].x < nodes["v3 (current)"].x
    assert [e.kind for e in graph.edges].count("parent") == 2
    runs = [n for n in graph.nodes if n.kind in ("passed", "failed")]
    assert len(runs) == 1 + MAX_TRAJECTORIES_SHOWN
    assert any(n.label == f"+{7 - MAX_TRAJECTORIES_SHOWN} more" and n.href == "#v3" for n in graph.nodes)
    assert all(n.x >= 0 and n.x + n.w <= graph.width and n.y + n.h <= graph.height for n in graph.nodes)


def test_an_inherited_parent_and_forks_are_drawn_as_other_lineages() -> None:
    parent = OtherVersion("gene_origin", 4, "sha256:origin", None, "/g/origin#v4")
    fork = OtherVersion("gene_child", 1, "sha256:child", "sha256:1", "/g/child#v1")
    stray = OtherVersion("gene_stray", 1, "sha256:stray", "sha256:unknown", "/g/stray#v1")
    graph = lineage_graph([_version(1, "sha256:origin", runs=0)], parent, [fork, stray])
    kinds = [n.kind for n in graph.nodes]
    assert (
        kinds.count("external") == 1 and kinds.count("fork") == 1
    )  # a fork of an unknown version is left out
    external = next(n for n in graph.nodes if n.kind == "external")
    first = next(n for n in graph.nodes if n.kind == "version")
    assert external.x < first.x and [e.kind for e in graph.edges] == ["parent", "fork"]
    forked = next(n for n in graph.nodes if n.kind == "fork")
    assert forked.y + forked.h < first.y


def test_days_are_kept_continuous_and_merged_into_at_most_max_bars() -> None:
    start = date(2026, 1, 1)
    days = [DayCount(start, 2, 1), DayCount(start + timedelta(days=2), 1, 1)]
    assert rebucket(days) == [
        (start, start, 2, 1),
        (start + timedelta(days=1), start + timedelta(days=1), 0, 0),
        (start + timedelta(days=2), start + timedelta(days=2), 1, 1),
    ]
    year = [DayCount(start + timedelta(days=i), 1, i % 2) for i in range(0, 365, 3)]
    bins = rebucket(year)
    assert len(bins) <= MAX_BARS
    assert sum(b[2] for b in bins) == len(year) and sum(b[3] for b in bins) == sum(d.successes for d in year)
    assert bins[0][0] == start and bins[-1][1] == year[-1].day


def test_success_bars_stack_on_failure_bars_within_the_plot() -> None:
    chart = success_over_time([DayCount(date(2026, 1, 1), 4, 3), DayCount(date(2026, 1, 2), 2, 0)])
    base = chart.plot_top + chart.plot_height
    first = [b for b in chart.bars if b.title.startswith("2026-01-01")]
    assert sorted(b.kind for b in first) == ["failure", "success"]
    failure = next(b for b in first if b.kind == "failure")
    success = next(b for b in first if b.kind == "success")
    assert abs(failure.y + failure.h - base) < 1e-6 and abs(success.y + success.h - failure.y) < 1e-6
    assert abs(success.h - 3 * failure.h) < 1e-6
    assert all(chart.plot_top - 1e-6 <= b.y for b in chart.bars)
    assert [t.label for t in chart.y_ticks] == ["0", "2", "4"]
    assert success_over_time([]).bars == []


def test_each_consumer_model_gets_a_bar_and_its_lower_bound_mark() -> None:
    rates = [ModelRate("qwen3-8b", 4, 3, 0.5, False), ModelRate("tiny-model", 2, 0, None, True)]
    chart = per_consumer_model(rates)
    assert [b.w for b in chart.bars] == [0.75 * chart.plot_width, 1.0]
    assert [label.label for label in chart.labels] == ["qwen3-8b", "tiny-model (demoted)"]
    assert [v.label for v in chart.values] == ["3/4 (75%)", "0/2 (0%)"]
    [marker] = chart.markers
    assert marker.x == chart.plot_left + 0.5 * chart.plot_width


def test_a_reorder_shows_as_moves_not_as_added_and_removed() -> None:
    """A version whose guards were ranked anew by evidence: the same texts, another order."""
    lines = diff_lines(["guard a", "guard b", "guard c"], ["guard b", "guard a", "guard c"])
    assert [(line.op, line.text) for line in lines if line.op != "same"] == [("moved", "guard b")]
    assert [line.was for line in lines if line.op == "moved"] == [2]
    doc = gene_doc(avoid=["guard a", "guard b"])
    avoid = diff_documents(doc, gene_doc(avoid=["guard b", "guard a"])).field("guards")
    assert avoid is not None and (avoid.added, avoid.removed, avoid.moved) == (0, 0, 1)
    # A version that only moved its guards from `avoid` to anti_patterns (migration 0018) shows none changed.
    legacy = {**gene_doc(anti_patterns=None), "avoid": ["guard a", "guard b"], "parent": "sha256:" + "a" * 64}
    moved = diff_documents(legacy, doc)
    assert [f.name for f in moved.changed] == ["parent"]
    # A text that is really new or really gone is still added or removed.
    mixed = diff_lines(["a", "b"], ["b", "c", "a"])
    assert sorted(line.op for line in mixed if line.op != "same") == ["added", "moved"]


def test_version_reasons_follow_the_avoid_change() -> None:
    assert guard_change_reason(["a", "b"], ["b", "a"]) == VersionReason.reordered
    assert guard_change_reason(["a"], ["b", "a"]) == VersionReason.guards_added
    assert guard_change_reason(["a", "b"], ["a"]) == VersionReason.dropped
    assert guard_change_reason(["a", "b"], ["c", "a"]) == VersionReason.guards_added
    assert guard_change_reason(["a"], ["b"], reworded=True) == VersionReason.guards_merged
