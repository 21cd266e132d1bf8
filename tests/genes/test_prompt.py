"""Rendering a Gene for a consumer's prompt within a token budget."""

from __future__ import annotations

import httpx
import pytest

from app.gep.prompt import estimate_tokens, render
from tests.factories import gene_doc, publish_payload


def test_full_render_contains_every_section_in_order() -> None:
    rendered = render(gene_doc(), version=1, max_tokens=1000)
    text = rendered.text
    assert not rendered.truncated
    positions = [
        text.index(h) for h in ("Summary:", "Applies when:", "Strategy:", "Avoid:", "Validate with:")
    ]
    assert positions == sorted(positions)
    assert "1. Find tests that open sockets" in text
    assert rendered.tokens == estimate_tokens(text)


@pytest.mark.parametrize("budget", [26, 30, 45, 60, 80, 120, 200])
def test_render_never_exceeds_the_budget(budget: int) -> None:
    rendered = render(gene_doc(), version=1, max_tokens=budget)
    assert rendered.tokens <= budget
    assert estimate_tokens(rendered.text) <= budget


def test_tight_budget_keeps_strategy_prefix_before_guards() -> None:
    doc = gene_doc()
    full = render(doc, version=1, max_tokens=10_000)
    header_only = render(doc, version=1, max_tokens=estimate_tokens(full.text.split("\nApplies")[0]))
    assert header_only.omitted["strategy"] == 3
    assert "Strategy:" not in header_only.text
    two_steps = render(doc, version=1, max_tokens=full.tokens - 20)
    assert two_steps.truncated
    assert "1. Find tests" in two_steps.text


def test_budget_below_header_is_refused() -> None:
    with pytest.raises(ValueError, match="at least"):
        render(gene_doc(), version=1, max_tokens=3)


def test_estimate_counts_long_words_and_symbols() -> None:
    assert estimate_tokens("") == 0
    assert estimate_tokens("a b c") == 3
    assert estimate_tokens("internationalization") == 5
    assert estimate_tokens("x = f(y);") == 7
    assert estimate_tokens("日本語") == 3


async def test_prompt_endpoint(client: httpx.AsyncClient) -> None:
    await client.post("/v1/genes", json=publish_payload())
    response = await client.get("/v1/genes/gene_pytest_flaky_network/prompt", params={"max_tokens": 60})
    assert response.status_code == 200
    body = response.json()
    assert body["tokens"] <= 60 and body["max_tokens"] == 60
    assert body["truncated"] is True
    assert body["text"].startswith("Gene gene_pytest_flaky_network v1")
    too_small = await client.get("/v1/genes/gene_pytest_flaky_network/prompt", params={"max_tokens": 2})
    assert too_small.status_code == 422
    assert too_small.json()["min_max_tokens"] > 2
    default = (await client.get("/v1/genes/gene_pytest_flaky_network/prompt")).json()
    assert default["truncated"] is False and default["max_tokens"] == 600


def test_trimming_follows_strategy_guards_preconditions_validation_strictly() -> None:
    """A later section never gets in while an earlier one is cut short, even if its items are shorter."""
    doc = {
        **gene_doc(),
        "strategy": ["Step one is short", "Step two " + "is rather long and detailed " * 8],
        "anti_patterns": [{"mode": "avoid", "reason_class": "Short guard"}],
        "preconditions": ["Short precondition"],
        "validation": ["pytest -q"],
    }
    full = render(doc, version=1, max_tokens=10_000)
    cut_in_strategy = render(doc, version=1, max_tokens=full.tokens - 40)
    assert cut_in_strategy.omitted == {"strategy": 1, "avoid": 1, "preconditions": 1, "validation": 1}
    assert "Short guard" not in cut_in_strategy.text and "Step one" in cut_in_strategy.text
    guards_kept = render(doc, version=1, max_tokens=full.tokens - 5)
    assert guards_kept.omitted["strategy"] == 0 and guards_kept.omitted["avoid"] == 0
    assert guards_kept.omitted["validation"] >= 1
