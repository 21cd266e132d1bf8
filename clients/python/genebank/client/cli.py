"""Command-line verbs on the client, for people and shell scripts: search, get, publish, submit, report, mcp.

They talk to a running registry over HTTP (GENEBANK_URL, GENEBANK_KEY, or --url / --key) and print
readable tables, or JSON with --json. The server's `genebank` command registers them (`register`); the
light `genebank-client` distribution runs them alone (`genebank-client search …`, extra `cli`).

`submit` takes one run (a JSON object) or many (JSON Lines, one run per line): runs go out a few at a
time with a progress bar, a line the registry refuses is reported with its number and the rest go on,
and once the worker has merged or rejected them (`--wait`, the default) a summary gives the counts.
The exit status is 1 when any line was refused, so a script notices.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar, cast

import typer

from genebank.client import models
from genebank.client._async import AsyncClient
from genebank.client._sync import Client
from genebank.client.errors import GenebankError, ProblemError, TransportError, WaitTimeout

T = TypeVar("T")

Url = Annotated[
    str | None,
    typer.Option("--url", envvar="GENEBANK_URL", help="the registry (default http://127.0.0.1:8000)"),
]
Key = Annotated[
    str | None,
    typer.Option("--key", envvar="GENEBANK_KEY", help="API key (gb_…)", show_default=False, show_envvar=True),
]
AsJson = Annotated[bool, typer.Option("--json", help="print JSON for machines instead of a table")]


def _fail(message: str) -> typer.Exit:
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(1)


def _describe(error: GenebankError) -> str:
    if isinstance(error, ProblemError):
        return f"{error.status_code} {error.problem_code}: {error.detail or error.title}"
    return str(error)


@contextmanager
def _client(url: str | None, key: str | None) -> Iterator[Client]:
    try:
        with Client(url, key) as client:
            yield client
    except GenebankError as error:
        raise _fail(_describe(error)) from None


def _print_json(value: Any) -> None:
    if isinstance(value, models.Model):
        typer.echo(value.model_dump_json(indent=2))
    else:
        typer.echo(json.dumps(value, indent=2, ensure_ascii=False, default=str))


def _width() -> int:
    return shutil.get_terminal_size((120, 24)).columns


def _clip(text: str | None, width: int) -> str:
    text = (text or "").replace("\n", " ")
    return text if len(text) <= width else text[: max(width - 1, 0)] + "…"


def _read_text(source: str) -> str:
    if source == "-":
        return sys.stdin.read()
    try:
        return Path(source).read_text(encoding="utf-8")
    except OSError as error:
        raise _fail(f"cannot read {source}: {error.strerror or error}") from None


# --- search --------------------------------------------------------------------------------------------


def search(
    query: Annotated[str, typer.Argument(help="what you are trying to do, in words")],
    signal: Annotated[
        list[str] | None, typer.Option("--signal", "-s", help="an error string or tool name (repeatable)")
    ] = None,
    k: Annotated[int, typer.Option("-k", min=1, max=50, help="how many results")] = 10,
    task_family: Annotated[
        str | None, typer.Option("--family", help="task family, e.g. code_generation")
    ] = None,
    category: Annotated[str | None, typer.Option(help="repair, optimize, innovate or explore")] = None,
    consumer_model: Annotated[str | None, typer.Option(help="rank by quality for this model")] = None,
    status: Annotated[list[str] | None, typer.Option(help="statuses to include (repeatable)")] = None,
    as_json: AsJson = False,
    url: Url = None,
    key: Key = None,
) -> None:
    """Search the registry: Genes ranked by relevance and quality, with the relevance band."""
    with _client(url, key) as client:
        found = client.search(
            query,
            signals=signal,
            k=k,
            task_family=task_family,
            category=category,
            consumer_model=consumer_model,
            status=status,
        )
    if as_json:
        _print_json(found)
        return
    typer.echo(f"band: {found.band}  ({len(found.results)} results)")
    if not found.results:
        return
    head = f"{'#':>2}  {'gene_id':<44} {'v':>3} {'score':>5} {'sim':>5}  {'band':<14} "
    typer.echo(head + "summary")
    for rank, result in enumerate(found.results, 1):
        line = (
            f"{rank:>2}  {_clip(result.gene_id, 44):<44} {result.version:>3} {result.score:>5.2f} "
            f"{result.similarity:>5.2f}  {result.confidence:<14} "
        )
        typer.echo(line + _clip(result.summary, _width() - len(line)))
    if found.next_cursor:
        typer.echo(f"(more: -k up to 50, or the API's cursor {found.next_cursor[:16]}…)")


# --- get -----------------------------------------------------------------------------------------------


def _print_gene(gene: models.GeneVersion) -> None:
    doc = gene.document
    typer.echo(f"{gene.gene_id} v{gene.version}  {gene.status}  {gene.asset_id}")
    typer.echo(f"summary:   {doc.get('summary') or '-'}")
    typer.echo(f"category:  {gene.category}   task family: {gene.task_family or '-'}")
    typer.echo(f"signals:   {', '.join(doc.get('signals_match') or []) or '-'}")
    sections = (
        ("preconditions", doc.get("preconditions")),
        ("strategy", doc.get("strategy")),
        ("guards", gene.guards),
        ("validation", doc.get("validation")),
    )
    for title, items in sections:
        if items:
            typer.echo(f"{title}:")
            for number, item in enumerate(items, 1):
                typer.echo(f"  {number}. {item}")
    provenance = gene.provenance
    verifier = provenance.verifier or {}
    passed = {True: "passed", False: "failed"}.get(bool(verifier["passed"])) if "passed" in verifier else "-"
    typer.echo(
        f"provenance: {provenance.kind} by {provenance.producer_model}; "
        f"verifier {verifier.get('name', '-')} {passed}; owner {gene.owner.name}"
    )


def get(
    gene_id: Annotated[str, typer.Argument(help="the Gene's id")],
    version: Annotated[int | None, typer.Option(min=1, help="a numbered version (default: current)")] = None,
    prompt: Annotated[bool, typer.Option("--prompt", help="print it rendered for a prompt")] = False,
    max_tokens: Annotated[int | None, typer.Option(min=1, help="token budget of --prompt")] = None,
    as_json: AsJson = False,
    url: Url = None,
    key: Key = None,
) -> None:
    """Show a Gene (verified against its asset_id), or its prompt text with --prompt."""
    with _client(url, key) as client:
        if prompt:
            if version is not None:
                raise _fail("--prompt renders the current version; leave out --version")
            rendered = client.get_prompt(gene_id, max_tokens=max_tokens)
            if as_json:
                _print_json(rendered)
            else:
                typer.echo(rendered.text)
            return
        gene = client.get_gene(gene_id, version=version)
    if as_json:
        _print_json(gene)
    else:
        _print_gene(gene)


# --- publish -------------------------------------------------------------------------------------------


def publish(
    source: Annotated[str, typer.Argument(help='a JSON file {"gene": …, "provenance": …}, or - for stdin')],
    as_json: AsJson = False,
    url: Url = None,
    key: Key = None,
) -> None:
    """Publish a Gene version (a producer key): the registry computes its asset_id."""
    try:
        payload = json.loads(_read_text(source))
    except ValueError as error:
        raise _fail(f"{source} is not JSON: {error}") from None
    if not isinstance(payload, dict) or set(payload) != {"gene", "provenance"}:
        raise _fail(f'{source} must hold one object with "gene" and "provenance"')
    with _client(url, key) as client:
        published = client.publish(payload["gene"], payload["provenance"])
    if as_json:
        _print_json(published)
    else:
        verb = "published" if published.created else "unchanged"
        typer.echo(f"{verb}  {published.gene_id} v{published.version}  {published.asset_id}")


# --- submit --------------------------------------------------------------------------------------------


@dataclass
class Line:
    number: int
    run: Any = None
    error: str | None = None
    trajectory: models.TrajectoryAccepted | None = None
    final: models.Trajectory | None = None


@dataclass
class Batch:
    lines: list[Line] = field(default_factory=list)

    @property
    def refused(self) -> list[Line]:
        return [line for line in self.lines if line.error is not None]

    def summary(self) -> dict[str, Any]:
        accepted = [line for line in self.lines if line.trajectory is not None]
        states = [line.final.state if line.final else "pending" for line in accepted]
        return {
            "runs": len(self.lines),
            "accepted": len(accepted),
            "new": sum(1 for line in accepted if line.trajectory and line.trajectory.created),
            "refused": len(self.refused),
            "merged": states.count("merged"),
            "rejected": states.count("rejected"),
            "pending": states.count("pending"),
        }


def _parse_runs(text: str) -> list[Line]:
    """One JSON object (however laid out), else JSON Lines; unparseable lines are errors of their own."""
    stripped = text.strip()
    if stripped.startswith("{"):
        try:
            single = json.loads(stripped)
        except ValueError:
            single = None
        if isinstance(single, dict):
            return [Line(1, single)]
    lines = []
    for number, raw in enumerate(text.splitlines(), 1):
        if not raw.strip():
            continue
        try:
            value = json.loads(raw)
        except ValueError as error:
            lines.append(Line(number, error=f"not JSON: {error}"))
            continue
        if isinstance(value, dict):
            lines.append(Line(number, value))
        else:
            lines.append(Line(number, error="not a JSON object"))
    return lines


class _Progress:
    """A tqdm bar on stderr when tqdm is there and wanted; messages go above it."""

    def __init__(self, total: int, unit: str, description: str, enabled: bool) -> None:
        self.bar: Any = None
        if enabled:
            try:
                from tqdm import tqdm
            except ImportError:  # the light client without its `cli` extra: no bar, still messages
                pass
            else:
                self.bar = tqdm(total=total, unit=unit, desc=description, file=sys.stderr, mininterval=0.2)

    def update(self, count: int = 1) -> None:
        if self.bar is not None:
            self.bar.update(count)

    def write(self, message: str) -> None:
        if self.bar is not None:
            self.bar.write(message, file=sys.stderr)
        else:
            typer.echo(message, err=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


async def _submit_all(
    batch: Batch,
    client: AsyncClient,
    *,
    concurrency: int,
    wait: bool,
    timeout: float,  # noqa: ASYNC109  (each run's own deadline in wait_for, not the whole batch's)
    progress: bool,
) -> None:
    gate = asyncio.Semaphore(concurrency)
    to_send = [line for line in batch.lines if line.error is None]
    bar = _Progress(len(batch.lines), "run", "submitting", progress)
    for line in batch.refused:  # lines that were never runs
        bar.write(f"line {line.number}: {line.error}")
        bar.update()

    async def send(line: Line) -> None:
        async with gate:
            try:
                line.trajectory = await client.submit_trajectory(line.run)
            except GenebankError as error:
                line.error = _describe(error)
                bar.write(f"line {line.number}: {line.error}")
            bar.update()

    await asyncio.gather(*(send(line) for line in to_send))
    bar.close()
    accepted = [line for line in batch.lines if line.trajectory is not None]
    if not wait or not accepted:
        return
    bar = _Progress(len(accepted), "run", "merging", progress)

    async def follow(line: Line) -> None:
        assert line.trajectory is not None
        async with gate:
            try:
                line.final = await client.wait_for(line.trajectory.id, timeout=timeout, interval=0.5)
            except WaitTimeout:
                pass
            except GenebankError as error:
                bar.write(f"line {line.number}: following {line.trajectory.id}: {_describe(error)}")
            else:
                if line.final.state == "rejected":
                    bar.write(f"line {line.number}: rejected: {line.final.reason}")
            bar.update()

    await asyncio.gather(*(follow(line) for line in accepted))
    bar.close()


def submit(
    source: Annotated[
        str, typer.Argument(help="a run as JSON, or JSON Lines (one run per line); - for stdin")
    ],
    wait: Annotated[
        bool, typer.Option("--wait/--no-wait", help="follow the runs until merged or rejected")
    ] = True,
    timeout: Annotated[float, typer.Option(min=1, help="seconds to follow each run with --wait")] = 300.0,
    concurrency: Annotated[int, typer.Option(min=1, max=32, help="runs in flight at once")] = 4,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="no progress bar")] = False,
    as_json: AsJson = False,
    url: Url = None,
    key: Key = None,
) -> None:
    """Submit verified runs (a producer key) and report what became of them."""
    batch = Batch(_parse_runs(_read_text(source)))
    if not batch.lines:
        raise _fail(f"{source} holds no run")

    async def go() -> None:
        # Big batches meet the writes rate limit: wait as the registry says, for longer than a script would.
        async with AsyncClient(url, key, max_retries=8) as client:
            await _submit_all(
                batch, client, concurrency=concurrency, wait=wait, timeout=timeout, progress=not quiet
            )

    try:
        asyncio.run(go())
    except TransportError as error:
        raise _fail(str(error)) from None
    summary = batch.summary()
    if as_json:
        refused = [{"line": line.number, "error": line.error} for line in batch.refused]
        runs = [
            {
                "line": line.number,
                "id": line.trajectory.id,
                "state": line.final.state if line.final else line.trajectory.state,
                "gene_id": line.final.gene_id if line.final else None,
                "reason": line.final.reason if line.final else None,
            }
            for line in batch.lines
            if line.trajectory is not None
        ]
        _print_json({**summary, "refused_lines": refused, "trajectories": runs})
    else:
        text = (
            f"{summary['runs']} runs: {summary['accepted']} accepted ({summary['new']} new), "
            f"{summary['refused']} refused"
        )
        if wait:
            text += (
                f"; {summary['merged']} merged, {summary['rejected']} rejected, {summary['pending']} pending"
            )
        typer.echo(text)
    if batch.refused:
        raise typer.Exit(1)


# --- report --------------------------------------------------------------------------------------------


def report(
    gene_id: Annotated[str, typer.Argument(help="the Gene you used")],
    task_id: Annotated[str, typer.Option(help="your task's id (a report is idempotent per task)")],
    success: Annotated[bool, typer.Option("--success/--failure", help="did the task succeed")],
    asset_id: Annotated[
        str | None, typer.Option(help="the version you used (default: the current one)")
    ] = None,
    consumer_model: Annotated[
        str | None, typer.Option(help="the model that used it (a key bound to a model may leave it out)")
    ] = None,
    reason: Annotated[
        str | None, typer.Option(help="for a failure: failed, partial or irrelevant (the wrong Gene)")
    ] = None,
    note: Annotated[str | None, typer.Option(help="a short note (redacted before storage)")] = None,
    score: Annotated[float | None, typer.Option(min=0, max=1)] = None,
    tokens_used: Annotated[int | None, typer.Option(min=0)] = None,
    baseline_tokens: Annotated[
        int | None, typer.Option(min=0, help="tokens such a task takes without it")
    ] = None,
    attempt_id: Annotated[str | None, typer.Option(help="tells retries of one task apart")] = None,
    as_json: AsJson = False,
    url: Url = None,
    key: Key = None,
) -> None:
    """Report how using a Gene went: it ranks Genes by their outcomes, per consumer model."""
    if reason is not None and reason not in ("failed", "partial", "irrelevant"):
        raise _fail("--reason is failed, partial or irrelevant")
    with _client(url, key) as client:
        used = asset_id or client.get_gene(gene_id, cache=False).asset_id
        result = client.report_outcome(
            gene_id,
            asset_id=used,
            task_id=task_id,
            success=success,
            consumer_model=consumer_model,
            reason=cast(Literal["failed", "partial", "irrelevant"] | None, reason),
            note=note,
            score=score,
            tokens_used=tokens_used,
            baseline_tokens=baseline_tokens,
            attempt_id=attempt_id,
        )
    if as_json:
        _print_json(result)
        return
    counted = "counted" if result.counted else "not counted (irrelevant: a retrieval miss)"
    quality = result.quality
    figures = f"; quality {quality.lower_bound:.2f} over {quality.reports} reports" if quality else ""
    typer.echo(
        f"reported {result.gene_id} for {result.consumer_model}: {counted}; status {result.status}{figures}"
    )


# --- mcp -----------------------------------------------------------------------------------------------


def mcp(
    transport: Annotated[
        str, typer.Option(help="stdio (an agent starts this command) or http (streamable HTTP)")
    ] = "stdio",
    host: Annotated[str, typer.Option(help="interface for --transport http (keep it local)")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port for --transport http")] = 8765,
    path: Annotated[str, typer.Option(help="endpoint path for --transport http")] = "/mcp",
    consumer_model: Annotated[
        str | None,
        typer.Option(envvar="GENEBANK_CONSUMER_MODEL", help="the model the agent runs, for its reports"),
    ] = None,
    url: Url = None,
    key: Key = None,
) -> None:
    """Serve Genebank to agents over MCP: find_gene, get_gene, report_outcome, submit_run, Gene resources."""
    try:
        from genebank.client import mcp_server
    except ImportError as error:
        raise _fail(
            f"the MCP server needs the `mcp` package (pip install 'genebank-client[mcp]'): {error}"
        ) from None
    if transport not in ("stdio", "http"):
        raise _fail("--transport is stdio or http")
    mcp_server.serve(
        url=url,
        key=key,
        consumer_model=consumer_model,
        transport="stdio" if transport == "stdio" else "http",
        host=host,
        port=port,
        path=path,
    )


VERBS: dict[str, Callable[..., None]] = {
    "search": search,
    "get": get,
    "publish": publish,
    "submit": submit,
    "report": report,
    "mcp": mcp,
}


def register(app: typer.Typer) -> None:
    """Add the client verbs to a Typer app (the server's `genebank` command)."""
    for name, verb in VERBS.items():
        app.command(name)(verb)


cli = typer.Typer(
    help="Genebank's client: search, read, publish, submit runs and report outcomes over HTTP; serve MCP.",
    no_args_is_help=True,
    rich_markup_mode=None,
)
register(cli)


def main() -> None:
    cli()
