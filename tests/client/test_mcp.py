"""`genebank mcp` driven by the MCP SDK's own client, over stdio and over streamable HTTP, against a live
registry: the tools are listed and each is called, refusals arrive as tool errors, submit_run is refused
with a consumer key and works with a producer key, and every Gene's prompt text is a resource."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Any

import pytest
from mcp import Client as McpClient
from mcp import MCPError, StdioServerParameters
from mcp.types import CallToolResult, TextContent, TextResourceContents

from genebank.client import Client
from tests.client.conftest import Live, unique
from tests.factories import BASE_PROVENANCE, gene_doc
from tests.live import free_port

TOOLS = {"find_gene", "get_gene", "report_outcome", "submit_run"}
GENEBANK = [sys.executable, "-c", "from app.cli import main; main()"]


def _text(result: CallToolResult) -> str:
    return "\n".join(block.text for block in result.content if isinstance(block, TextContent))


@contextmanager
def _http_server(env: dict[str, str]) -> Iterator[str]:
    port = free_port()
    process = subprocess.Popen(
        [*GENEBANK, "mcp", "--transport", "http", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            assert process.poll() is None, process.stderr.read().decode() if process.stderr else "exited"
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "the MCP server did not listen within 60 s"
                time.sleep(0.2)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()


@asynccontextmanager
async def connected(transport: str, env: dict[str, str]) -> AsyncIterator[McpClient]:
    if transport == "stdio":
        params = StdioServerParameters(command=GENEBANK[0], args=[*GENEBANK[1:], "mcp"], env=env)
        async with McpClient(params) as client:
            yield client
    else:
        with _http_server(env) as url:
            async with McpClient(url) as client:
                yield client


def _publish(live: Live) -> dict[str, Any]:
    """A Gene in a task family of its own, so that find_gene on the shared registry finds it alone."""
    family, gene_id = unique("mcp"), unique("gene_mcp_sqlite_locked")
    doc = gene_doc(
        id=gene_id,
        summary="Stop 'database is locked' errors when several writers share one SQLite file",
        signals_match=["sqlite3.OperationalError", "database is locked"],
        strategy=[
            "Open every connection with a busy timeout of 5 seconds",
            "Switch the database to WAL journal mode once at start-up",
            "Keep write transactions short: commit before any network call",
        ],
        avoid=["Never retry in a tight loop without sleeping: it starves the writer holding the lock"],
    )
    provenance = {
        **BASE_PROVENANCE,
        "task": {"id": "db-0007", "family": family, "description": "Fix a flaky SQLite writer pool"},
    }
    with Client(live.url, live.owner.token) as owner:
        published = owner.publish(doc, provenance)
        prompt = owner.get_prompt(gene_id).text
    return {"gene_id": gene_id, "asset_id": published.asset_id, "family": family, "prompt": prompt}


@pytest.mark.parametrize("transport", ["stdio", "http"])
async def test_every_tool_over_mcp_with_a_consumer_key(live: Live, transport: str) -> None:
    gene = _publish(live)
    env = live.env(live.consumer.token, GENEBANK_CONSUMER_MODEL="qwen3-8b")
    async with connected(transport, env) as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        assert set(tools) == TOOLS  # nothing that revokes, administers or changes a status
        for tool in tools.values():
            assert tool.description and len(tool.description) > 200, tool.name
        assert tools["find_gene"].input_schema["required"] == ["task"]

        found = await client.call_tool(
            "find_gene",
            {
                "task": "my SQLite writers keep failing with database is locked",
                "signals": ["sqlite3.OperationalError: database is locked"],
                "task_family": gene["family"],
                "max_tokens": 300,
            },
        )
        assert not found.is_error, _text(found)
        structured = found.structured_content
        assert structured is not None and structured["band"] == "found"
        [hit] = structured["genes"]
        assert (hit["gene_id"], hit["asset_id"]) == (gene["gene_id"], gene["asset_id"])
        assert "signals matched yours" in hit["why"]
        assert "WAL journal mode" in _text(found) and "report_outcome" in _text(found)

        nothing = await client.call_tool(
            "find_gene", {"task": "knit a wool scarf for the winter", "task_family": gene["family"]}
        )
        assert not nothing.is_error and nothing.structured_content == {
            **(nothing.structured_content or {}),
            "band": "no_match",
            "genes": [],
        }

        read = await client.call_tool("get_gene", {"gene_id": gene["gene_id"], "include_document": True})
        assert not read.is_error, _text(read)
        assert read.structured_content is not None
        assert read.structured_content["text"] == gene["prompt"]
        assert read.structured_content["document"]["asset_id"] == gene["asset_id"]

        missing = await client.call_tool("get_gene", {"gene_id": "gene_nobody_published_this"})
        assert missing.is_error and "404" in _text(missing) and "find_gene" in _text(missing)
        invalid = await client.call_tool("find_gene", {"task": "x", "max_tokens": 1})
        assert invalid.is_error  # refused by the tool's own schema, before the registry

        reported = await client.call_tool(
            "report_outcome",
            {
                "gene_id": gene["gene_id"],
                "asset_id": gene["asset_id"],
                "task_id": unique("task"),
                "success": True,
                "tokens_used": 1200,
            },
        )
        assert not reported.is_error, _text(reported)
        assert reported.structured_content is not None
        assert reported.structured_content["consumer_model"] == "qwen3-8b"
        assert reported.structured_content["counted"] is True
        wrong_asset = await client.call_tool(
            "report_outcome",
            {"gene_id": gene["gene_id"], "asset_id": "sha256:" + "0" * 64, "task_id": "t", "success": False},
        )
        assert wrong_asset.is_error and "404" in _text(wrong_asset)

        refused = await client.call_tool(
            "submit_run",
            {
                "task_id": unique("db"),
                "task_description": "Fix a flaky SQLite writer pool",
                "steps": [{"action": "set busy_timeout", "ok": True}],
                "verifier_name": "pytest",
                "verifier_passed": True,
            },
        )
        assert refused.is_error
        assert "needs a producer key" in _text(refused) and "Nothing was stored" in _text(refused)

        templates = (await client.list_resource_templates()).resource_templates
        assert {t.uri_template for t in templates} == {
            "genebank://genes/{gene_id}/prompt",
            "genebank://genes/{gene_id}/document",
        }
        contents = (await client.read_resource(f"genebank://genes/{gene['gene_id']}/prompt")).contents
        assert isinstance(contents[0], TextResourceContents) and contents[0].text == gene["prompt"]
        with pytest.raises(MCPError):
            await client.read_resource("genebank://genes/gene_nobody_published_this/prompt")

    with Client(live.url, live.owner.token) as owner:
        stats = owner.get_stats(gene["gene_id"])
    assert stats.usage.reports == 1 and [q.consumer_model for q in stats.by_consumer_model] in (
        [],
        ["qwen3-8b"],
    )


async def test_submit_run_with_a_producer_key(live: Live) -> None:
    gene = _publish(live)
    env = live.env(live.producer.token, GENEBANK_CONSUMER_MODEL="claude-opus-4-5")
    async with connected("stdio", env) as client:
        submitted = await client.call_tool(
            "submit_run",
            {
                "task_id": unique("db"),
                "task_description": "Stop database is locked errors with several SQLite writers",
                "task_family": gene["family"],
                "steps": [
                    {
                        "action": "pytest -q tests/test_pool.py",
                        "ok": False,
                        "error": "sqlite3.OperationalError: database is locked",
                        "correction": "set PRAGMA busy_timeout=5000 on every connection",
                    },
                    {"action": "add the pragma to the connection factory", "ok": True},
                ],
                "verifier_name": "pytest",
                "verifier_passed": True,
                "guards": ["Never share one sqlite3 connection across threads; open one per writer"],
                "gene_id": gene["gene_id"],
                "wait_seconds": 30,
            },
        )
        assert not submitted.is_error, _text(submitted)
        result = submitted.structured_content
        assert result is not None and result["state"] == "merged" and result["gene_id"] == gene["gene_id"]
    with Client(live.url, live.producer.token) as producer:
        trajectory = producer.get_trajectory(result["id"])
    assert trajectory.producer.model == "claude-opus-4-5" and trajectory.producer.agent == "genebank-mcp"
