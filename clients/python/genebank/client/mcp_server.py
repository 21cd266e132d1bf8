"""Genebank for agents over MCP (the official `mcp` SDK): four tools and the prompt text of every Gene.

Tools: `find_gene` (the best Gene for a task within a token budget, with its band and why),
`get_gene`, `report_outcome`, and `submit_run` (producer keys; a consumer key is refused with a
message saying so). Resources: `genebank://genes/{gene_id}/prompt` (text) and
`genebank://genes/{gene_id}/document` (the verified GEP document, JSON).

The server is a client of a running registry: GENEBANK_URL and GENEBANK_KEY from the environment (a
consumer key is enough to find and report), GENEBANK_CONSUMER_MODEL names the model the agent runs
(its reports count for that model). No tool revokes, administers or changes a Gene's status: an agent
holding this server can read, report and contribute runs, nothing else.

Each tool answers with readable text for the model and the same facts as structured content; a refusal
of the registry is a tool error (`isError`) whose text says what to do instead.

Transports: stdio (an agent starts `genebank mcp`) and streamable HTTP (`--transport http`, stateless,
JSON answers, on 127.0.0.1 by default: whoever reaches it acts with its key).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
from collections.abc import Sequence
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ResourceNotFoundError, ToolError
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import BaseModel, Field

from genebank.client import models
from genebank.client._async import AsyncClient
from genebank.client._core import VERSION
from genebank.client.errors import (
    Forbidden,
    GenebankError,
    GeneNotFound,
    GeneRevoked,
    NotFound,
    ProblemError,
    SelfReport,
    Unauthorized,
    ValidationFailed,
    WaitTimeout,
)

INSTRUCTIONS = """\
Genebank is a registry of verified agent experience: Genes, each a strategy that solved a kind of task \
for another agent (checked by a verifier), with its preconditions and the failure guards (GEP anti_patterns) \
learned from runs that went wrong.
Use it like this:
1. Before a non-trivial task (a failing test, a build or install error, a tricky problem), call find_gene \
with the task in one sentence and the exact error strings you see as signals.
2. If the band is "found", follow the Gene's strategy and respect its guards; if "low_confidence", check \
its preconditions first; if "no_match", work without one.
3. When the task is done or abandoned, call report_outcome with the gene_id and asset_id you used.
4. If your key may produce, call submit_run with the verified run (steps, verifier result, guards), \
whether it passed or failed: that is how Genes improve."""

BANDS = {
    "found": "found: the Gene is about this task; follow its strategy and respect its guards",
    "low_confidence": "low_confidence: it may not apply; check its preconditions before following it",
    "no_match": "no_match: no Gene is close enough to this task; solve it without one "
    "(and consider submit_run afterwards, so the next agent finds one)",
}


def _prose(text: str) -> str:
    return " ".join(text.split())


# Tool descriptions: what the model reads to decide when and how to call each tool.
FIND_GENE = _prose("""
Find verified experience for the task you are about to attempt. Call it before starting a non-trivial
task (a failing test, a build or install error, a tricky problem): describe the task in one sentence and
pass the exact error strings you see as `signals`. Returns the best Gene rendered as compact
instructions within `max_tokens` (a strategy that worked for other agents, its preconditions, and
failure guards to avoid), with the relevance band and why it matched: 'found' (follow it),
'low_confidence' (check its preconditions first), 'no_match' (solve the task without one). Keep gene_id
and asset_id: after the task, call report_outcome with them.
""")
GET_GENE = _prose("""
Read one Gene by its gene_id: its current version rendered as instructions within `max_tokens`, with the
asset_id to report against. Use it when you already know the gene_id (from find_gene, or a user), or to
read a Gene find_gene shortened. `include_document` also returns the full GEP document (strategy,
preconditions, failure guards as anti_patterns, validation, constraints), verified against its asset_id.
""")
REPORT_OUTCOME = _prose("""
Tell the registry how using a Gene went, once the task is solved or abandoned: this is how Genes earn or
lose their rank for your model. success=true when the task was solved while following the Gene. On
failure give `reason`: 'failed' (you followed it and it did not help), 'partial' (it helped in part),
'irrelevant' (it was the wrong Gene for this task; this does not count against it). Pass the gene_id and
asset_id find_gene or get_gene returned, and a task_id naming this task (one report per task; reporting
again changes nothing).
""")
SUBMIT_RUN = _prose("""
Share a run a verifier judged, passed or failed, so the registry learns from it (needs a producer key;
with a consumer key it is refused and nothing is stored). Give the steps in order (action, ok, and for a
failed step the exact error and the correction that worked), the verifier's name and result, and
optionally `guards`: short lessons such as 'Never X; do Y instead' (at most 12, 200 characters each).
Name gene_id when the run used a Gene. Secrets are redacted; the registry merges the guards into the
Gene, or founds a new Gene from a passed run. Returns the run's state once processed (or 'pending').
""")


class FoundGene(BaseModel):
    gene_id: str
    asset_id: str = Field(description="report_outcome takes this asset_id")
    version: int
    confidence: Literal["found", "low_confidence"]
    similarity: float
    why: str
    text: str = Field(description="the Gene rendered as instructions, within the token budget")


class FindGeneResult(BaseModel):
    band: Literal["found", "low_confidence", "no_match"]
    advice: str
    genes: list[FoundGene]
    tokens: int
    max_tokens: int


class GeneText(BaseModel):
    gene_id: str
    version: int
    asset_id: str
    status: str
    tokens: int
    omitted: dict[str, int]
    text: str
    document: dict[str, Any] | None = None


class OutcomeRecorded(BaseModel):
    gene_id: str
    consumer_model: str
    counted: bool
    status: str
    reports: int | None
    quality: float | None = Field(description="the lower bound of the Gene's success rate for this model")


class RunStep(BaseModel):
    action: str = Field(description="what was done: a command, an edit, a tool call (≤ 4000 characters)")
    ok: bool = Field(description="whether this step worked")
    observation: str | None = Field(default=None, description="what came back, briefly")
    error: str | None = Field(default=None, description="for a failed step: the exact error message")
    correction: str | None = Field(default=None, description="for a failed step: what fixed it")


class RunRecorded(BaseModel):
    id: str
    state: Literal["pending", "merged", "rejected"]
    created: bool
    gene_id: str | None = None
    asset_id: str | None = None
    reason: str | None = None


def _result(text: str, structured: BaseModel) -> CallToolResult:
    return CallToolResult(
        content=[TextContent(type="text", text=text)],
        structured_content=structured.model_dump(mode="json"),
    )


def _tool_error(error: GenebankError, action: str) -> ToolError:
    """The registry's refusal, worded for the model: what happened and what to do instead."""
    if isinstance(error, ProblemError):
        said = f"{error.status_code} {error.problem_code}: {error.detail or error.title}"
        if isinstance(error, GeneRevoked):
            hint = "This Gene was revoked; call find_gene for another."
        elif isinstance(error, GeneNotFound | NotFound):
            hint = "Check the id, or call find_gene to look for a Gene."
        elif isinstance(error, SelfReport):
            hint = "Owners do not report on their own Genes; nothing was recorded."
        elif isinstance(error, Unauthorized):
            hint = "This MCP server's GENEBANK_KEY is missing or not valid; ask the user to set it."
        elif isinstance(error, Forbidden):
            hint = "This MCP server's key may not do that."
        elif isinstance(error, ValidationFailed):
            hint = "Fix the arguments named above and call again."
        else:
            hint = ""
        return ToolError(f"Genebank refused to {action} ({said}). {hint}".strip())
    return ToolError(f"Could not {action}: {error}")


def _why(match: models.MatchedGene, searched: models.SearchResult | None) -> str:
    parts = [f"cosine similarity {match.similarity:.2f} between your task and the Gene"]
    if searched is not None:
        if searched.signal_hits:
            parts.append("its signals matched yours: " + ", ".join(searched.signal_hits))
        parts.append(f"status {searched.status}, strategy from {searched.provenance_kind.replace('_', ' ')}")
        if searched.demoted_for_consumer_model:
            parts.append("reports say your model does worse with it than without it")
    if match.truncated:
        parts.append("shortened to fit max_tokens (ask get_gene for more)")
    return "; ".join(parts)


def build_server(client: AsyncClient, *, consumer_model: str | None = None) -> MCPServer:
    """The MCP server over an open AsyncClient (whose key decides what the tools may do).

    `consumer_model` is the model the agent runs: its reports and searches are for that model.
    """
    default_model = consumer_model or os.environ.get("GENEBANK_CONSUMER_MODEL") or None
    server = MCPServer(
        "genebank",
        title="Genebank",
        description="Verified agent experience: find a Gene for a task, follow it, report how it went.",
        instructions=INSTRUCTIONS,
        version=VERSION,
        log_level="WARNING",
    )
    read_only = ToolAnnotations(read_only_hint=True, destructive_hint=False, open_world_hint=False)
    writes = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True)

    @server.tool(
        name="find_gene",
        title="Find a Gene for a task",
        annotations=read_only,
        description=FIND_GENE,
    )
    async def find_gene(
        task: Annotated[str, Field(description="the task in one sentence, as you would tell a colleague")],
        signals: Annotated[
            list[str] | None, Field(description="exact error messages, exception names or tool names seen")
        ] = None,
        max_tokens: Annotated[int, Field(ge=16, le=8000, description="budget for all returned Genes")] = 600,
        k: Annotated[int, Field(ge=1, le=5, description="how many Genes at most")] = 1,
        task_family: Annotated[
            str | None, Field(description="optional: code_generation, math_reasoning, rule_following, ...")
        ] = None,
    ) -> Annotated[CallToolResult, FindGeneResult]:
        try:
            matched, searched = await asyncio.gather(
                client.match(
                    task,
                    signals=signals,
                    consumer_model=default_model,
                    max_tokens=max_tokens,
                    k=k,
                    task_family=task_family,
                ),
                client.search(
                    task, signals=signals, consumer_model=default_model, k=max(k, 5), task_family=task_family
                ),
            )
        except GenebankError as error:
            raise _tool_error(error, "search") from None
        by_id = {result.gene_id: result for result in searched.results}
        genes = [
            FoundGene(
                gene_id=gene.gene_id,
                asset_id=gene.asset_id,
                version=gene.version,
                confidence=gene.confidence,
                similarity=round(gene.similarity, 3),
                why=_why(gene, by_id.get(gene.gene_id)),
                text=gene.text,
            )
            for gene in matched.genes
        ]
        answer = FindGeneResult(
            band=matched.band,
            advice=BANDS[matched.band],
            genes=genes,
            tokens=matched.tokens,
            max_tokens=matched.max_tokens,
        )
        lines = [f"Band {BANDS[matched.band]}."]
        for gene in genes:
            lines += [
                "",
                f"gene_id: {gene.gene_id}  asset_id: {gene.asset_id}  ({gene.confidence})",
                f"Why: {gene.why}.",
                gene.text,
            ]
        if genes:
            lines += ["", "After the task, call report_outcome with this gene_id and asset_id."]
        return _result("\n".join(lines), answer)

    @server.tool(
        name="get_gene",
        title="Read a Gene",
        annotations=read_only,
        description=GET_GENE,
    )
    async def get_gene(
        gene_id: Annotated[str, Field(description="the Gene's id, e.g. gene_pytest_flaky_network")],
        max_tokens: Annotated[int, Field(ge=16, le=100_000, description="budget of the rendered text")] = 600,
        include_document: Annotated[bool, Field(description="also return the GEP document")] = False,
    ) -> Annotated[CallToolResult, GeneText]:
        try:
            prompt = await client.get_prompt(gene_id, max_tokens=max_tokens)
            version = await client.get_gene(gene_id) if include_document else None
        except GenebankError as error:
            raise _tool_error(error, f"read {gene_id}") from None
        status = version.status if version is not None else "current"
        answer = GeneText(
            gene_id=prompt.gene_id,
            version=prompt.version,
            asset_id=prompt.asset_id,
            status=status,
            tokens=prompt.tokens,
            omitted=prompt.omitted,
            text=prompt.text,
            document=version.document if version is not None else None,
        )
        text = f"gene_id: {prompt.gene_id}  asset_id: {prompt.asset_id}\n{prompt.text}"
        if prompt.omitted:
            left_out = ", ".join(f"{count} {part}" for part, count in prompt.omitted.items())
            text += f"\n(left out to fit max_tokens: {left_out})"
        return _result(text, answer)

    @server.tool(
        name="report_outcome",
        title="Report how a Gene worked",
        annotations=writes,
        description=REPORT_OUTCOME,
    )
    async def report_outcome(
        gene_id: Annotated[str, Field(description="the Gene you used")],
        asset_id: Annotated[str, Field(description="the asset_id find_gene or get_gene returned")],
        task_id: Annotated[str, Field(description="a stable id for this task, e.g. the issue or test name")],
        success: Annotated[bool, Field(description="whether the task was solved")],
        reason: Annotated[
            Literal["failed", "partial", "irrelevant"] | None,
            Field(description="for success=false only: why it did not work out"),
        ] = None,
        note: Annotated[str | None, Field(description="one or two sentences on what happened")] = None,
        score: Annotated[float | None, Field(ge=0, le=1, description="the verifier's score, if any")] = None,
        tokens_used: Annotated[int | None, Field(ge=0, description="tokens the task took")] = None,
        consumer_model: Annotated[
            str | None, Field(description="your model's name, when the server does not know it")
        ] = None,
    ) -> Annotated[CallToolResult, OutcomeRecorded]:
        try:
            result = await client.report_outcome(
                gene_id,
                asset_id=asset_id,
                task_id=task_id,
                success=success,
                reason=reason if not success else None,
                note=note,
                score=score,
                tokens_used=tokens_used,
                consumer_model=consumer_model or default_model,
            )
        except GenebankError as error:
            raise _tool_error(error, f"record the outcome for {gene_id}") from None
        quality = result.quality
        answer = OutcomeRecorded(
            gene_id=result.gene_id,
            consumer_model=result.consumer_model,
            counted=result.counted,
            status=result.status,
            reports=quality.reports if quality else None,
            quality=round(quality.lower_bound, 3) if quality else None,
        )
        counted = "counted" if result.counted else "recorded as a retrieval miss (not counted against it)"
        text = f"Recorded for {result.consumer_model}: {counted}. The Gene is {result.status}."
        return _result(text, answer)

    @server.tool(
        name="submit_run",
        title="Share a verified run",
        annotations=writes,
        description=SUBMIT_RUN,
    )
    async def submit_run(
        task_id: Annotated[str, Field(description="a stable id for the task")],
        task_description: Annotated[str, Field(description="the task in one or two sentences")],
        steps: Annotated[list[RunStep], Field(min_length=1, description="what was done, in order")],
        verifier_name: Annotated[str, Field(description="what checked the result, e.g. pytest")],
        verifier_passed: Annotated[bool, Field(description="whether the verifier passed the result")],
        guards: Annotated[
            list[str] | None, Field(description="lessons learned, each ≤ 200 characters")
        ] = None,
        gene_id: Annotated[str | None, Field(description="the Gene the run followed, if any")] = None,
        task_family: Annotated[str | None, Field(description="e.g. code_generation")] = None,
        producer_model: Annotated[
            str | None, Field(description="the model that ran the task (default: the server's)")
        ] = None,
        wait_seconds: Annotated[
            float, Field(ge=0, le=60, description="how long to wait for the registry to process it")
        ] = 10.0,
    ) -> Annotated[CallToolResult, RunRecorded]:
        model = producer_model or os.environ.get("GENEBANK_PRODUCER_MODEL") or default_model
        if not model:
            raise ToolError("Name producer_model: the model that ran the task.")
        task: dict[str, Any] = {"id": task_id, "description": task_description}
        if task_family:
            task["family"] = task_family
        run: dict[str, Any] = {
            "task": task,
            "producer": {"model": model, "agent": "genebank-mcp"},
            "steps": [step.model_dump(exclude_none=True) for step in steps],
            "verifier": {"name": verifier_name, "passed": verifier_passed},
        }
        if guards:
            run["guards"] = guards
        if gene_id:
            run["gene_id"] = gene_id
        try:
            accepted = await client.submit_trajectory(run)
        except Forbidden as error:
            raise ToolError(
                "submit_run needs a producer key, and this MCP server's GENEBANK_KEY may only read and "
                f"report ({error.status_code} {error.problem_code}). Nothing was stored."
            ) from None
        except GenebankError as error:
            raise _tool_error(error, "store the run") from None
        answer = RunRecorded(id=accepted.id, state=accepted.state, created=accepted.created)
        if wait_seconds > 0:
            try:
                final = await client.wait_for(accepted.id, timeout=wait_seconds, interval=0.25)
            except WaitTimeout:
                pass
            except GenebankError as error:
                raise _tool_error(error, "follow the run") from None
            else:
                answer = RunRecorded(
                    id=final.id,
                    state=final.state,
                    created=accepted.created,
                    gene_id=final.gene_id,
                    asset_id=final.asset_id,
                    reason=final.reason,
                )
        text = {
            "pending": f"Run {answer.id} stored; the registry will process it shortly.",
            "merged": f"Run {answer.id} merged into {answer.gene_id}: {answer.reason or 'recorded'}.",
            "rejected": f"Run {answer.id} rejected: {answer.reason}.",
        }[answer.state]
        return _result(text, answer)

    @server.resource(
        "genebank://genes/{gene_id}/prompt",
        name="gene_prompt",
        title="A Gene as prompt text",
        description="The Gene's current version rendered as compact instructions (default token budget).",
        mime_type="text/plain",
    )
    async def gene_prompt(gene_id: str) -> str:
        try:
            prompt = await client.get_prompt(gene_id)
        except NotFound:
            raise ResourceNotFoundError(f"no Gene {gene_id}") from None
        except GenebankError as error:
            raise ResourceError(f"cannot read {gene_id}: {error}") from None
        return prompt.text

    @server.resource(
        "genebank://genes/{gene_id}/document",
        name="gene_document",
        title="A Gene's GEP document",
        description="The Gene's current GEP document, verified against its asset_id.",
        mime_type="application/json",
    )
    async def gene_document(gene_id: str) -> str:
        try:
            version = await client.get_gene(gene_id)
        except NotFound:
            raise ResourceNotFoundError(f"no Gene {gene_id}") from None
        except GenebankError as error:
            raise ResourceError(f"cannot read {gene_id}: {error}") from None
        return json.dumps(version.document, indent=2, ensure_ascii=False)

    return server


def serve(
    *,
    url: str | None = None,
    key: str | None = None,
    consumer_model: str | None = None,
    transport: Literal["stdio", "http"] = "stdio",
    host: str = "127.0.0.1",
    port: int = 8765,
    path: str = "/mcp",
) -> None:
    """Run the MCP server until its client goes (stdio) or the process is stopped (http)."""

    # On stdio, stderr is the agent's log: httpx would write a line there for every request.
    logging.getLogger("httpx").setLevel(logging.WARNING)

    async def run() -> None:
        async with AsyncClient(url, key) as client:
            server = build_server(client, consumer_model=consumer_model)
            if transport == "stdio":
                await server.run_stdio_async()
                return
            import uvicorn

            app = server.streamable_http_app(
                streamable_http_path=path, stateless_http=True, json_response=True, host=host
            )
            config = uvicorn.Config(app, host=host, port=port, log_level="warning")
            await uvicorn.Server(config).serve()

    asyncio.run(run())


def main(argv: Sequence[str] | None = None) -> None:
    """`python -m genebank.client.mcp_server [stdio|http [PORT]]`: the server without the command line."""
    import sys

    args = list(sys.argv[1:] if argv is None else argv)
    transport = args[0] if args else "stdio"
    if transport not in ("stdio", "http"):
        raise SystemExit("usage: python -m genebank.client.mcp_server [stdio|http [PORT]]")
    serve(transport="stdio" if transport == "stdio" else "http", port=int(args[1]) if len(args) > 1 else 8765)


if __name__ == "__main__":
    main()
