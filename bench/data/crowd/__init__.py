"""A coherent crowd: generated Genes on problems the labelled corpus does not hold.

`bench/search_quality.py --distractors N --crowd coherent` mixes N of these into the labelled corpus
(the default crowd, `spliced`, is search_features.distractors: halves of labelled Genes). Each family
module (`code_generation.py`, …) lists hand-written `Problem`s: a problem of its family that no
labelled base problem states (the same tools, languages and kinds of task, another failure), written
as templates whose `{slots}` each generated Gene fills with one combination of the slot values. A
slot value is a string, or a dict that fills several placeholders at once (a language with its
framework and test runner). So every generated Gene reads whole, and the Genes of one problem are
near-duplicates of each other the way a labelled base problem's variants are; none of them is the
right answer to a labelled query.

    generate(count, seed)  # `count` publish payloads, the four families in turn, deterministic
"""

from __future__ import annotations

import importlib
import itertools
import random
import re
from dataclasses import dataclass, field
from typing import Any

SlotValue = str | dict[str, str]
_PLACEHOLDER = re.compile(r"\{([a-z_][a-z0-9_]*)\}")
CATEGORIES = ("repair", "optimize", "innovate", "explore")
FAMILIES = ("code_generation", "math_reasoning", "rule_following", "agent_environment")
MODELS = (
    "claude-opus-4-5",
    "claude-sonnet-4-5",
    "gpt-5",
    "gemini-2.5-pro",
    "qwen3-coder-480b",
    "deepseek-r1",
)


@dataclass(frozen=True)
class Problem:
    slug: str  # lower_snake_case, unique within its family
    category: str  # repair | optimize | innovate | explore
    summary: str  # one sentence: what the Gene does, for which problem
    task: str  # the task a producer was given, as its verifier's task description would say it
    steps: tuple[str, ...]  # the strategy, 3-5 steps
    avoid: tuple[str, ...]  # 1-2 failure guards ("Do not …")
    signals: tuple[str, ...]  # 2-4 signals_match entries: error strings, identifiers, tool names
    preconditions: tuple[str, ...] = ()
    validation: tuple[str, ...] = ()
    slots: dict[str, tuple[SlotValue, ...]] = field(default_factory=dict)


def fill(template: str, values: dict[str, str]) -> str:
    def one(match: re.Match[str]) -> str:
        if match.group(1) not in values:
            raise KeyError(f"no value for {{{match.group(1)}}} in {template!r}")
        return values[match.group(1)]

    return _PLACEHOLDER.sub(one, template)


def combinations(problem: Problem) -> list[dict[str, str]]:
    """Every combination of the problem's slot values, each as the placeholder values it sets."""
    names = sorted(problem.slots)
    out = []
    for chosen in itertools.product(*(problem.slots[n] for n in names)):
        values: dict[str, str] = {}
        for name, value in zip(names, chosen, strict=True):
            values.update(value if isinstance(value, dict) else {name: value})
        out.append(values)
    return out


def gene(
    family: str, problem: Problem, values: dict[str, str], number: int, rng: random.Random
) -> dict[str, Any]:
    """One publish payload for `problem` with `values` filled in."""
    model = rng.choice(MODELS)
    payload = {
        "gene": {
            "type": "Gene",
            "schema_version": "1.13.0",
            "id": f"crowd_{problem.slug}_{number:04d}",
            "category": problem.category,
            "summary": fill(problem.summary, values),
            "signals_match": list(dict.fromkeys(fill(s, values) for s in problem.signals)),
            "strategy": [fill(s, values) for s in problem.steps],
            "avoid": [fill(a, values) for a in problem.avoid],
            "constraints": {"max_files": rng.randint(3, 10), "forbidden_paths": [".git"]},
            "model_name": model,
        },
        "provenance": {
            "kind": "verified_trajectory",
            "producer_model": model,
            "verifier": {
                "name": f"{family}-harness",
                "version": "1.0",
                "passed": True,
                "score": round(rng.uniform(0.5, 1.0), 3),
            },
            "task": {
                "id": f"{family}-crowd-{problem.slug}-{number}",
                "family": family,
                "description": fill(problem.task, values),
            },
        },
    }
    if problem.preconditions:
        payload["gene"]["preconditions"] = [fill(p, values) for p in problem.preconditions]
    if problem.validation:
        payload["gene"]["validation"] = [fill(v, values) for v in problem.validation]
    return payload


def problems(families: tuple[str, ...] = FAMILIES) -> dict[str, list[Problem]]:
    return {f: list(importlib.import_module(f".{f}", __name__).PROBLEMS) for f in families}


def generate(count: int, seed: int = 17) -> list[dict[str, Any]]:
    """`count` payloads: each family in turn, and within a family its problems in turn, each problem's
    combinations in a seeded random order (so a smaller crowd spreads over every problem)."""
    rng = random.Random(seed)
    queues: dict[str, list[tuple[Problem, list[dict[str, str]]]]] = {}
    for family, listed in problems().items():
        queues[family] = []
        for problem in listed:
            combos = combinations(problem)
            rng.shuffle(combos)
            queues[family].append((problem, combos))
    out: list[dict[str, Any]] = []
    taken = dict.fromkeys(FAMILIES, 0)
    cursor = dict.fromkeys(FAMILIES, 0)  # the problem each family takes its next Gene from
    while len(out) < count:
        progressed = False
        for family in FAMILIES:
            if len(out) >= count:
                break
            queue = queues[family]
            for _ in range(len(queue)):
                problem, combos = queue[cursor[family]]
                cursor[family] = (cursor[family] + 1) % len(queue)
                if combos:
                    out.append(gene(family, problem, combos.pop(), taken[family], rng))
                    taken[family] += 1
                    progressed = True
                    break
        if not progressed:
            raise ValueError(f"the crowd holds only {len(out)} distinct Genes, {count} asked")
    return out
