"""Small helpers so that base problems and their variants can be written compactly.

A base problem (``G``) holds the text shared by all its variants, with ``{placeholders}`` that each
variant (``V``) fills in.  A variant also brings its own signals, validation commands and usually its
own strategy steps / failure guards.  Placeholders are only replaced for keys a variant defines, so
literal braces such as ``{name}`` in a translation rule survive untouched.

Strategy assembly: the base ``steps`` may contain the marker ``"@"``; the variant's own steps are
spliced in there (or after the first base step when there is no marker).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

CATEGORIES = ("repair", "optimize", "innovate", "explore")
_PLACEHOLDER = re.compile(r"\{([a-z_][a-z0-9_]*)\}")


def _tup(x: str | tuple[str, ...] | list[str] | None) -> tuple[str, ...]:
    if x is None:
        return ()
    if isinstance(x, str):
        return (x,)
    return tuple(x)


@dataclass(frozen=True)
class Variant:
    key: str
    sig: tuple[str, ...]
    val: tuple[str, ...] = ()
    steps: tuple[str, ...] = ()
    avoid: tuple[str, ...] = ()
    pre: tuple[str, ...] = ()
    vars: dict[str, str] = field(default_factory=dict)
    category: str | None = None
    max_files: int | None = None
    summary: str | None = None
    task: str | None = None


@dataclass(frozen=True)
class Base:
    slug: str
    category: str
    summary: str
    task: str
    pre: tuple[str, ...]
    steps: tuple[str, ...]
    avoid: tuple[str, ...]
    variants: tuple[Variant, ...]
    sig: tuple[str, ...] = ()
    val: tuple[str, ...] = ()
    max_files: int | None = None
    forbid: tuple[str, ...] = ()


def V(key, sig, val=(), steps=(), avoid=(), pre=(), *, cat=None, mf=None, summary_override=None, task_override=None,
      **vars):
    """One concrete variant of a base problem."""
    return Variant(
        key=key, sig=_tup(sig), val=_tup(val), steps=_tup(steps), avoid=_tup(avoid), pre=_tup(pre),
        vars=dict(vars), category=cat, max_files=mf, summary=summary_override, task=task_override,
    )


def G(slug, cat, summary, task, pre, steps, avoid, *variants, sig=(), val=(), mf=None, fp=()):
    """A hand-written base problem with its variants."""
    return Base(
        slug=slug, category=cat, summary=summary, task=task, pre=_tup(pre), steps=_tup(steps),
        avoid=_tup(avoid), variants=tuple(variants), sig=_tup(sig), val=_tup(val), max_files=mf,
        forbid=_tup(fp),
    )


def fill(text: str, values: dict[str, str]) -> str:
    return _PLACEHOLDER.sub(lambda m: values.get(m.group(1), m.group(0)), text)


def expand(base: Base) -> list[dict]:
    """Turn a base problem into one partial Gene record per variant."""
    out = []
    all_keys = set().union(*(v.vars.keys() for v in base.variants)) if base.variants else set()
    for v in base.variants:
        f = lambda s, _v=v: fill(s, _v.vars)  # noqa: E731
        steps = list(base.steps)
        if "@" in steps:
            i = steps.index("@")
            steps[i : i + 1] = list(v.steps)
        else:
            steps[1:1] = list(v.steps)
        rec = {
            "base": base.slug,
            "variant": v.key,
            "id": f"gene_{base.slug}_{v.key}",
            "category": v.category or base.category,
            "summary": f(v.summary or base.summary),
            "signals_match": list(base.sig) + list(v.sig),
            "preconditions": [f(p) for p in base.pre] + [f(p) for p in v.pre],
            "strategy": [f(s) for s in steps],
            "avoid": [f(a) for a in base.avoid] + [f(a) for a in v.avoid],
            "max_files": v.max_files or base.max_files,
            "forbidden_paths": [".git", *base.forbid],
            "validation": list(v.val or base.val),
            "task": f(v.task or base.task),
        }
        text = " ".join([rec["summary"], rec["task"], *rec["preconditions"], *rec["strategy"], *rec["avoid"]])
        left = {m for m in _PLACEHOLDER.findall(text) if m in all_keys}
        if left:
            raise ValueError(f"{rec['id']}: unfilled placeholders {sorted(left)}")
        out.append(rec)
    return out
