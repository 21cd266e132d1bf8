"""Geometry of the server-side SVG figures: the lineage graph and the outcome charts.

Only numbers and already-truncated labels are computed here; the markup is written by the templates
(app/admin/templates/_figures.html), where Jinja escapes every label.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta

NODE_W, NODE_H = 136, 48
TRAJ_W, TRAJ_H = 136, 26
COLUMN = 172
PAD = 16
MAX_TRAJECTORIES_SHOWN = 4


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass(frozen=True)
class Node:
    x: float
    y: float
    w: float
    h: float
    label: str
    sublabel: str
    title: str
    href: str
    kind: str  # version, current, external, fork, passed, failed, more

    @property
    def cx(self) -> float:
        return self.x + self.w / 2

    @property
    def cy(self) -> float:
        return self.y + self.h / 2


@dataclass(frozen=True)
class Edge:
    path: str
    kind: str  # parent, evidence, fork


@dataclass
class Graph:
    width: float
    height: float
    nodes: list[Node] = field(default_factory=list)
    edges: list[Edge] = field(default_factory=list)


@dataclass(frozen=True)
class TrajectoryMark:
    id: str
    task_id: str
    passed: bool
    href: str


@dataclass(frozen=True)
class VersionMark:
    version: int
    asset_id: str
    parent_asset_id: str | None
    change: str
    created: datetime
    current: bool
    href: str
    trajectories: list[TrajectoryMark]


@dataclass(frozen=True)
class OtherVersion:
    """A version of another Gene: this lineage's parent, or a lineage forked from it."""

    gene_id: str
    version: int
    asset_id: str
    parent_asset_id: str | None
    href: str


def _link(a: Node, b: Node) -> str:
    """A left-to-right parent link; links that skip columns arc above the row."""
    x1, y1, x2, y2 = a.x + a.w, a.cy, b.x, b.cy
    if b.x - (a.x + a.w) <= COLUMN - NODE_W + 1:
        return f"M{x1:.1f},{y1:.1f} L{x2 - 2:.1f},{y2:.1f}"
    lift = a.y - 14
    return f"M{a.cx:.1f},{a.y:.1f} C{a.cx:.1f},{lift:.1f} {b.cx:.1f},{lift:.1f} {b.cx:.1f},{b.y - 2:.1f}"


def lineage_graph(
    versions: list[VersionMark], parent: OtherVersion | None, forks: list[OtherVersion]
) -> Graph:
    """Versions left to right with their parent links; the runs behind each version below it; an
    inherited parent on the far left and the lineages forked from a version above it."""
    fork_row = PAD
    version_row = PAD + (NODE_H + 30 if forks else 0)
    trajectory_row = version_row + NODE_H + 34
    offset = 1 if parent is not None else 0
    columns = len(versions) + offset
    deepest = max((min(len(v.trajectories), MAX_TRAJECTORIES_SHOWN + 1) for v in versions), default=0)
    height = trajectory_row + deepest * (TRAJ_H + 10) + PAD if deepest else version_row + NODE_H + PAD
    graph = Graph(width=PAD * 2 + max(columns, 1) * COLUMN - (COLUMN - NODE_W), height=height)

    by_asset: dict[str, Node] = {}
    if parent is not None:
        node = Node(
            PAD,
            version_row,
            NODE_W,
            NODE_H,
            clip(parent.gene_id, 19),
            f"v{parent.version} (parent)",
            f"inherited from {parent.gene_id} v{parent.version} ({parent.asset_id})",
            parent.href,
            "external",
        )
        graph.nodes.append(node)
        by_asset[parent.asset_id] = node
    for index, mark in enumerate(versions):
        x = PAD + (index + offset) * COLUMN
        node = Node(
            x,
            version_row,
            NODE_W,
            NODE_H,
            f"v{mark.version}" + (" (current)" if mark.current else ""),
            f"{mark.change} · {mark.created:%Y-%m-%d}",
            f"version {mark.version}, {mark.change} {mark.created:%Y-%m-%d %H:%M} UTC, {mark.asset_id}",
            mark.href,
            "current" if mark.current else "version",
        )
        if mark.parent_asset_id in by_asset:
            graph.edges.append(Edge(_link(by_asset[mark.parent_asset_id], node), "parent"))
        graph.nodes.append(node)
        by_asset[mark.asset_id] = node
        shown = mark.trajectories[:MAX_TRAJECTORIES_SHOWN]
        for row, run in enumerate(shown):
            y = trajectory_row + row * (TRAJ_H + 10)
            graph.nodes.append(
                Node(
                    x,
                    y,
                    TRAJ_W,
                    TRAJ_H,
                    clip(run.task_id, 20),
                    "",
                    f"trajectory {run.id} (task {run.task_id}, verifier "
                    f"{'passed' if run.passed else 'failed'}) behind version {mark.version}",
                    run.href,
                    "passed" if run.passed else "failed",
                )
            )
        if shown:
            # One evidence line per version: the runs hang below it like a list.
            last = trajectory_row + (len(shown) - 1) * (TRAJ_H + 10)
            graph.edges.append(
                Edge(f"M{node.cx:.1f},{last:.1f} L{node.cx:.1f},{node.y + node.h + 2:.1f}", "evidence")
            )
        if len(mark.trajectories) > len(shown):
            more = len(mark.trajectories) - len(shown)
            y = trajectory_row + len(shown) * (TRAJ_H + 10)
            graph.nodes.append(
                Node(x, y, TRAJ_W, TRAJ_H, f"+{more} more", "", f"{more} more runs", mark.href, "more")
            )
    placed: dict[str, int] = {}
    for fork in forks:
        origin = by_asset.get(fork.parent_asset_id or "")
        if origin is None:
            continue
        stack = placed.get(origin.label, 0)
        placed[origin.label] = stack + 1
        node = Node(
            origin.x + stack * 8,
            fork_row - stack * 4,
            NODE_W,
            NODE_H - 8,
            clip(fork.gene_id, 19),
            f"v{fork.version} (fork)",
            f"{fork.gene_id} v{fork.version} was forked from this version",
            fork.href,
            "fork",
        )
        graph.nodes.append(node)
        graph.edges.append(
            Edge(f"M{origin.cx:.1f},{origin.y:.1f} L{origin.cx:.1f},{node.y + node.h + 2:.1f}", "fork")
        )
    return graph


@dataclass(frozen=True)
class Bar:
    x: float
    y: float
    w: float
    h: float
    kind: str
    title: str


@dataclass(frozen=True)
class Tick:
    position: float
    label: str


@dataclass
class Chart:
    width: float
    height: float
    plot_left: float
    plot_top: float
    plot_width: float
    plot_height: float
    bars: list[Bar] = field(default_factory=list)
    y_ticks: list[Tick] = field(default_factory=list)
    x_ticks: list[Tick] = field(default_factory=list)
    labels: list[Tick] = field(default_factory=list)
    values: list[Tick] = field(default_factory=list)
    markers: list[Bar] = field(default_factory=list)


@dataclass(frozen=True)
class DayCount:
    day: date
    reports: int
    successes: int


MAX_BARS = 30


def rebucket(days: list[DayCount]) -> list[tuple[date, date, int, int]]:
    """Consecutive days (empty ones included) merged into at most MAX_BARS equal bins."""
    if not days:
        return []
    first, last = days[0].day, days[-1].day
    span = (last - first).days + 1
    width = max(1, math.ceil(span / MAX_BARS))
    bins: dict[int, list[int]] = {}
    for entry in days:
        index = (entry.day - first).days // width
        counts = bins.setdefault(index, [0, 0])
        counts[0] += entry.reports
        counts[1] += entry.successes
    count = (span + width - 1) // width
    result = []
    for index in range(count):
        start = first + timedelta(days=index * width)
        end = min(start + timedelta(days=width - 1), last)
        reports, successes = bins.get(index, [0, 0])
        result.append((start, end, reports, successes))
    return result


def _nice_max(value: int) -> int:
    if value <= 4:
        return max(value, 1)
    magnitude = 10 ** int(math.log10(value))
    for step in (1, 2, 2.5, 5, 10):
        top = int(step * magnitude)
        if top >= value:
            return top
    return value


def success_over_time(days: list[DayCount], width: float = 540, height: float = 220) -> Chart:
    """Stacked bars per day (or per bin of days): successes on top of failures."""
    left, top, bottom = 40.0, 12.0, 34.0
    chart = Chart(width, height, left, top, width - left - 12, height - top - bottom)
    bins = rebucket(days)
    if not bins:
        return chart
    peak = _nice_max(max(reports for *_, reports, _ in bins))
    slot = chart.plot_width / len(bins)
    bar_w = max(2.0, min(28.0, slot * 0.7))
    scale = chart.plot_height / peak
    base = top + chart.plot_height
    for index, (start, end, reports, successes) in enumerate(bins):
        x = left + index * slot + (slot - bar_w) / 2
        when = f"{start:%Y-%m-%d}" if start == end else f"{start:%Y-%m-%d} to {end:%Y-%m-%d}"
        failures = reports - successes
        title = f"{when}: {successes} succeeded, {failures} failed"
        if failures:
            chart.bars.append(Bar(x, base - failures * scale, bar_w, failures * scale, "failure", title))
        if successes:
            y = base - reports * scale
            chart.bars.append(Bar(x, y, bar_w, successes * scale, "success", title))
    for value in sorted({0, peak // 2, peak}):
        chart.y_ticks.append(Tick(base - value * scale, str(value)))
    picks = sorted({0, len(bins) // 2, len(bins) - 1})
    for index in picks:
        chart.x_ticks.append(Tick(left + index * slot + slot / 2, f"{bins[index][0]:%m-%d}"))
    return chart


@dataclass(frozen=True)
class ModelRate:
    consumer_model: str
    reports: int
    successes: int
    lower_bound: float | None
    demoted: bool


def per_consumer_model(rates: list[ModelRate], width: float = 540) -> Chart:
    """One horizontal bar per consumer model: its raw success rate, with the quality lower bound marked."""
    left, top, row = 170.0, 8.0, 30.0
    height = top * 2 + max(len(rates), 1) * row + 18
    chart = Chart(width, height, left, top, width - left - 110, max(len(rates), 1) * row)
    for index, rate in enumerate(rates):
        y = top + index * row
        share = rate.successes / rate.reports if rate.reports else 0.0
        label = clip(rate.consumer_model, 24) + (" (demoted)" if rate.demoted else "")
        chart.labels.append(Tick(y + row / 2, label))
        title = f"{rate.consumer_model}: {rate.successes} of {rate.reports} succeeded ({share:.0%})"
        chart.bars.append(Bar(left, y + 6, max(share * chart.plot_width, 1.0), row - 12, "rate", title))
        summary = f"{rate.successes}/{rate.reports} ({share:.0%})"
        chart.values.append(Tick(y + row / 2, summary))
        if rate.lower_bound is not None:
            x = left + rate.lower_bound * chart.plot_width
            bound = f"{rate.consumer_model}: quality lower bound {rate.lower_bound:.2f}"
            chart.markers.append(Bar(x, y + 2, 2, row - 4, "bound", bound))
    for value in (0.0, 0.5, 1.0):
        chart.y_ticks.append(Tick(left + value * chart.plot_width, f"{value:.0%}"))
    return chart
