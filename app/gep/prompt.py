"""Render a Gene as compact text for a consumer's prompt, never over a token budget.

Consumers use many tokenizers, so the count is an upper-bound estimate rather than one model's exact
figure: every run of word characters costs ceil(len/4) tokens (at least 1), every other
non-space character costs 1 (non-ASCII letters count one token each). BPE tokenizers for English
land below this estimate, so text that fits here fits there.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from app.gep.document import guards_of

_PIECES = re.compile(r"[A-Za-z0-9_]+|\S")

# Fill order when the budget is tight: what makes a Gene usable comes first. Trimming follows it
# strictly: a shorter guard never gets in while a strategy step is left out, nor a precondition while
# a guard is, so a trimmed rendering is always a prefix of this order.
SECTION_PRIORITY = ("strategy", "avoid", "preconditions", "validation")
_HEADINGS = {
    "preconditions": "Applies when:",
    "strategy": "Strategy:",
    "avoid": "Avoid:",
    "validation": "Validate with:",
}
_RENDER_ORDER = ("preconditions", "strategy", "avoid", "validation")


def estimate_tokens(text: str) -> int:
    return sum(math.ceil(len(piece) / 4) if len(piece) > 1 else 1 for piece in _PIECES.findall(text))


class BudgetTooSmall(ValueError):
    def __init__(self, needed: int) -> None:
        super().__init__(f"max_tokens must be at least {needed} to render this Gene's header")
        self.needed = needed


@dataclass
class RenderedPrompt:
    text: str
    tokens: int
    omitted: dict[str, int] = field(default_factory=dict)

    @property
    def truncated(self) -> bool:
        return any(self.omitted.values())


def _item_line(section: str, index: int, item: str) -> str:
    return f"{index}. {item}" if section == "strategy" else f"- {item}"


def render(document: Mapping[str, Any], *, version: int, max_tokens: int) -> RenderedPrompt:
    header_lines = [f"Gene {document['id']} v{version}"]
    if document.get("summary"):
        header_lines.append(f"Summary: {document['summary']}")
    header = "\n".join(header_lines)
    used = estimate_tokens(header)
    if used > max_tokens:
        raise BudgetTooSmall(used)

    sections: dict[str, list[str]] = {
        name: [str(item) for item in (document.get(name) or [])] for name in _RENDER_ORDER
    }
    # The guards: guard entries of `anti_patterns` (or a version's `avoid`, before migration 0018).
    sections["avoid"] = guards_of(document)
    kept: dict[str, list[str]] = {name: [] for name in _RENDER_ORDER}
    omitted: dict[str, int] = {}
    cut = False  # once a section is cut short, every section after it in priority is left out whole
    for name in SECTION_PRIORITY:
        items = sections[name]
        if cut:
            omitted[name] = len(items)
            continue
        heading_cost = estimate_tokens(_HEADINGS[name]) if items else 0
        for position, item in enumerate(items):
            cost = estimate_tokens(_item_line(name, position + 1, item)) + (
                heading_cost if position == 0 else 0
            )
            if used + cost > max_tokens:
                # Strategy steps are ordered: a later step without the earlier ones would mislead.
                omitted[name] = len(items) - position
                cut = True
                break
            kept[name].append(item)
            used += cost
        else:
            omitted[name] = 0

    lines = [header]
    for name in _RENDER_ORDER:
        if kept[name]:
            lines.append(_HEADINGS[name])
            lines.extend(_item_line(name, index + 1, item) for index, item in enumerate(kept[name]))
    text = "\n".join(lines)
    return RenderedPrompt(text=text, tokens=estimate_tokens(text), omitted=omitted)
