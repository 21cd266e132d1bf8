"""A small agent loop over Genebank's MCP server: find_gene -> prompt -> model -> verifier ->
report_outcome -> submit_run.

The model is a toy that stands in for an LLM: it sorts version strings, as text unless its prompt tells it
to compare the parts as numbers, which is what the Gene it finds says. The verifier is real: it checks the
answer. Everything else is what an agent does with Genebank, through the MCP SDK's client, talking to
`genebank mcp` over stdio exactly as Claude Code or Cursor would.

    export GENEBANK_URL=http://127.0.0.1:8000 GENEBANK_KEY=gb_…   # a producer key; a consumer key
    python examples/agent_loop.py                                  # skips submit_run
"""

from __future__ import annotations

import asyncio
import os
import sys
import uuid
from typing import Any

from mcp import Client, StdioServerParameters
from mcp.types import CallToolResult, TextContent

MODEL = "toy-sorter-1"
TASKS = [
    ["1.10.0", "1.2.0", "1.9.3"],
    ["2.0.10", "2.0.9", "10.0.0", "2.0.1"],
    ["0.9", "0.10", "0.1.1"],
]
SYSTEM = "You are a careful assistant. Answer with the list only."


def toy_model(prompt: str, versions: list[str]) -> list[str]:
    """Stands in for an LLM: follows the one instruction it understands, else does the naive thing."""
    if "as integers" in prompt:
        return sorted(versions, key=lambda v: [int(part) for part in v.split(".")])
    return sorted(versions)


def verifier(versions: list[str], answer: list[str]) -> bool:
    expected = sorted(versions, key=lambda v: tuple(int(part) for part in v.split(".")))
    return answer == expected


def text_of(result: CallToolResult) -> str:
    return "\n".join(block.text for block in result.content if isinstance(block, TextContent))


async def solve(client: Client, versions: list[str]) -> dict[str, Any]:
    task = f"Sort the version strings {', '.join(versions)} in ascending order"
    task_id = f"versions-{uuid.uuid4().hex[:8]}"

    # 1. Ask the registry for verified experience with this kind of task.
    found = await client.call_tool(
        "find_gene", {"task": task, "signals": ["version sort"], "max_tokens": 300}
    )
    match = found.structured_content or {}
    gene = match["genes"][0] if match.get("genes") else None

    # 2. Put the Gene into the prompt, then let the model work.
    prompt = "\n\n".join(part for part in (SYSTEM, gene["text"] if gene else "", f"Task: {task}") if part)
    answer = toy_model(prompt, versions)
    passed = verifier(versions, answer)
    print(f"{task_id}: band {match.get('band')}, gene {gene['gene_id'] if gene else '-'}, verifier {passed}")

    # 3. Report how the Gene worked, so that it ranks by what it does for this model.
    if gene:
        reported = await client.call_tool(
            "report_outcome",
            {
                "gene_id": gene["gene_id"],
                "asset_id": gene["asset_id"],
                "task_id": task_id,
                "success": passed,
                **({} if passed else {"reason": "failed"}),
            },
        )
        print(f"  report_outcome: {text_of(reported)}")

    # 4. Share the verified run: the registry merges what it teaches into the Gene (producer keys only).
    run = await client.call_tool(
        "submit_run",
        {
            "task_id": task_id,
            "task_description": task,
            "task_family": "code_generation",
            "steps": [{"action": f"sort {versions}", "ok": passed, "observation": str(answer)}],
            "verifier_name": "toy-verifier",
            "verifier_passed": passed,
            "producer_model": MODEL,
            **({"gene_id": gene["gene_id"]} if gene else {}),
        },
    )
    print(f"  submit_run: {text_of(run)}")
    return {"task_id": task_id, "passed": passed, "gene": gene, "run": run.structured_content}


async def main() -> list[dict[str, Any]]:
    # The MCP server as an agent starts it; it reads GENEBANK_URL and GENEBANK_KEY from the environment.
    server = StdioServerParameters(
        command=sys.executable,
        args=["-m", "genebank.client.mcp_server"],
        env={**os.environ, "GENEBANK_CONSUMER_MODEL": MODEL},
    )
    async with Client(server) as client:
        return [await solve(client, versions) for versions in TASKS]


if __name__ == "__main__":
    results = asyncio.run(main())
    solved = sum(result["passed"] for result in results)
    print(f"{solved}/{len(results)} tasks solved")
