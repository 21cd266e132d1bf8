"""A new Gene's document from the trajectory that founds it: the producer's draft, completed
deterministically from the trajectory itself (nothing is written by the registry):

| field | from the draft, else |
| --- | --- |
| `id` | `gene_<family>_<first words of the task>_<6 hex of the content hash>` |
| `category` | `repair` when the run overcame a failed step, else `innovate` |
| `summary` | the task description (≤ 300 characters) |
| `signals_match` | the error classes the run ran into, else the first five content words of the task |
| `strategy` | the actions of the successful steps, in order (else the corrections of failed ones) |
| `constraints` | `{"max_files": 10, "forbidden_paths": [".git"]}` |
| `validation` | the verifier's `details.command` when it has no shell operator, else the verifier's name |
| `preconditions` | only from the draft |

plus `model_name` (the producer model), `avoid` (the merged guards) and `generation_meta`
(`source`: `draft` or `distilled`, the task id, the errors overcome).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from app.evolution.extraction import shorten, signals_of, squash
from app.gep.document import SHELL_OPERATORS

SCHEMA_VERSION = "1.13.0"
DEFAULT_CONSTRAINTS: dict[str, Any] = {"max_files": 10, "forbidden_paths": [".git"]}
_WORD = re.compile(r"[a-z0-9]+")
_STOPWORDS_TEXT = (
    "a an and are as at be by for from has have in into is it its make makes of on or so that the "
    "their them then this to was were when which while with without"
)
_STOPWORDS = frozenset(_STOPWORDS_TEXT.split())


class NothingToDistil(ValueError):
    """The trajectory holds nothing a Gene could be made of."""


def _words(text: str) -> list[str]:
    return [w for w in _WORD.findall(text.lower()) if w not in _STOPWORDS]


def gene_id_for(task_family: str | None, description: str, content_hash: str) -> str:
    slug = "_".join(_words(description)[:5])[:60].strip("_") or "task"
    # GENE_ID_PATTERN allows 128 characters; a long family slug must not push the hash suffix out.
    base = f"gene_{task_family or 'task'}_{slug}"[:120]
    return f"{base}_{content_hash.removeprefix('sha256:')[:6]}"


def _distilled_strategy(steps: Sequence[Mapping[str, Any]]) -> list[str]:
    actions = [squash(str(s["action"])) for s in steps if s.get("ok")]
    if not actions:
        actions = [squash(str(s["correction"])) for s in steps if s.get("correction")]
    return [shorten(a, 1000) for a in dict.fromkeys(a for a in actions if a)][:30]


def _validation(verifier: Mapping[str, Any]) -> list[str]:
    details = verifier.get("details")
    command = details.get("command") if isinstance(details, Mapping) else None
    if isinstance(command, str) and command.strip() and not SHELL_OPERATORS.search(command):
        return [shorten(squash(command), 300)]
    name = SHELL_OPERATORS.sub(" ", str(verifier.get("name", "verifier")))
    return [shorten(squash(name), 300) or "verifier"]


def founding_document(
    *,
    gene_id: str,
    description: str,
    task_id: str,
    producer_model: str,
    steps: Sequence[Mapping[str, Any]],
    verifier: Mapping[str, Any],
    draft: Mapping[str, Any] | None,
    avoid: Sequence[str],
) -> dict[str, Any]:
    """The raw (unhashed) GEP document; validate it with GeneDocument before use."""
    draft = draft or {}
    errors = signals_of(steps, verifier)
    strategy = list(draft.get("strategy") or _distilled_strategy(steps))
    if not strategy:
        raise NothingToDistil("the trajectory has no successful step or correction to distil a strategy from")
    signals = list(draft.get("signals_match") or errors or _words(description)[:5])
    if not signals:
        raise NothingToDistil("the trajectory names no signal and its task description has no content words")
    failed_steps = any(not s.get("ok") for s in steps)
    document: dict[str, Any] = {
        "type": "Gene",
        "schema_version": SCHEMA_VERSION,
        "id": gene_id,
        "category": draft.get("category") or ("repair" if failed_steps else "innovate"),
        "summary": draft.get("summary") or shorten(squash(description), 300),
        "signals_match": signals[:32],
        "strategy": strategy,
        "constraints": draft.get("constraints") or dict(DEFAULT_CONSTRAINTS),
        "validation": list(draft.get("validation") or _validation(verifier)),
        "model_name": producer_model,
    }
    if draft.get("preconditions"):
        document["preconditions"] = list(draft["preconditions"])
    if avoid:
        document["avoid"] = list(avoid)
    meta: dict[str, Any] = {"source": "draft" if draft.get("strategy") else "distilled", "task_id": task_id}
    if errors:
        meta["overcame_errors"] = errors
    document["generation_meta"] = meta
    return document
