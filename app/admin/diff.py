"""The difference between two Gene documents, field by field; list fields (strategy, guards…) line by line.

Guards are compared as one list of texts (`guards`), whether a version carries them as guard entries
of `anti_patterns` or, written before migration 0018, as `avoid`: a version that only moved them to
GEP fields shows its guards unchanged. Other anti-patterns are compared as `anti_patterns`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from typing import Any, Literal

from app.gep.document import guard_entries, guards_of

# Fields in the order a reader wants them; any other field follows, alphabetically.
FIELD_ORDER = (
    "summary",
    "category",
    "signals_match",
    "preconditions",
    "strategy",
    "guards",
    "anti_patterns",
    "constraints",
    "validation",
    "model_name",
    "schema_version",
    "parent",
    "generation_meta",
)
# Not a change of content: every version differs in these.
IGNORED = frozenset({"asset_id", "type", "id"})
LABELS = {
    "signals_match": "signals",
    "guards": "failure guards",
    "anti_patterns": "other anti-patterns",
    "strategy": "strategy steps",
    "model_name": "producer model",
}

LineOp = Literal["same", "added", "removed", "moved"]


@dataclass(frozen=True)
class Line:
    op: LineOp
    text: str
    # For a moved line: its 1-based position in the old list.
    was: int | None = None


@dataclass
class FieldDiff:
    name: str
    label: str
    lines: list[Line]
    changed: bool

    @property
    def added(self) -> int:
        return sum(1 for line in self.lines if line.op == "added")

    @property
    def removed(self) -> int:
        return sum(1 for line in self.lines if line.op == "removed")

    @property
    def moved(self) -> int:
        return sum(1 for line in self.lines if line.op == "moved")


@dataclass
class DocumentDiff:
    fields: list[FieldDiff] = field(default_factory=list)

    @property
    def changed(self) -> list[FieldDiff]:
        return [f for f in self.fields if f.changed]

    def field(self, name: str) -> FieldDiff | None:
        return next((f for f in self.fields if f.name == name), None)


def _as_lines(value: Any) -> list[str]:
    """A field as lines: one per list item, a JSON rendering for objects, the value itself otherwise."""
    if value is None:
        return []
    if isinstance(value, list):
        return [item if isinstance(item, str) else _json(item) for item in value]
    if isinstance(value, dict):
        return _json(value, indent=2).splitlines()
    if isinstance(value, str):
        return [value]
    return [_json(value)]


def _json(value: Any, indent: int | None = None) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, indent=indent)


def diff_lines(old: list[str], new: list[str]) -> list[Line]:
    """Old and new lines in order; a replaced line shows as removed then added, and a line that only
    changed place (a guard ranked anew by evidence) as moved, at its new place."""
    lines: list[Line] = []
    matcher = SequenceMatcher(a=old, b=new, autojunk=False)
    opcodes = matcher.get_opcodes()
    gone = [text for tag, i1, i2, _, _ in opcodes if tag != "equal" for text in old[i1:i2]]
    came = [text for tag, _, _, j1, j2 in opcodes if tag != "equal" for text in new[j1:j2]]
    moved = set(gone) & set(came)
    for tag, i1, i2, j1, j2 in opcodes:
        if tag == "equal":
            lines.extend(Line("same", text) for text in old[i1:i2])
            continue
        lines.extend(Line("removed", text) for text in old[i1:i2] if text not in moved)
        lines.extend(
            Line("moved", text, was=old.index(text) + 1) if text in moved else Line("added", text)
            for text in new[j1:j2]
        )
    return lines


def _reader_view(document: dict[str, Any]) -> dict[str, Any]:
    """The document with its guards as `guards` (texts), and only non-guard entries in `anti_patterns`."""
    view = {key: value for key, value in document.items() if key not in ("avoid", "anti_patterns")}
    if guards := guards_of(document):
        view["guards"] = guards
    others = [entry for entry in document.get("anti_patterns") or [] if entry not in guard_entries(document)]
    if others:
        view["anti_patterns"] = others
    return view


def diff_documents(old: dict[str, Any], new: dict[str, Any]) -> DocumentDiff:
    old, new = _reader_view(old), _reader_view(new)
    names = [name for name in FIELD_ORDER if name in old or name in new]
    names += sorted((set(old) | set(new)) - set(FIELD_ORDER) - IGNORED)
    result = DocumentDiff()
    for name in names:
        lines = diff_lines(_as_lines(old.get(name)), _as_lines(new.get(name)))
        changed = old.get(name) != new.get(name)
        result.fields.append(FieldDiff(name, LABELS.get(name, name.replace("_", " ")), lines, changed))
    return result
