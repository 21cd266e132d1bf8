"""Build the labelled search-quality data: bench/data/corpus.jsonl and bench/data/queries.jsonl.

The hand-written material lives in ``bench/data/families/`` (one module per task family plus
``queries.py``).  This script expands every base problem into its variants, attaches deterministic
provenance (fixed seed, no network), runs the sanity checks below and writes both files.

    .venv/bin/python bench/data/build_corpus.py           # build and check
    .venv/bin/python bench/data/build_corpus.py --check   # check only, write nothing
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import re
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from families import agent_environment, code_generation, math_reasoning, queries, rule_following  # noqa: E402
from families._dsl import CATEGORIES, expand  # noqa: E402

SEED = 20250611
SCHEMA_VERSION = "1.13.0"
FAMILY_MODULES = {
    "code_generation": code_generation,
    "math_reasoning": math_reasoning,
    "rule_following": rule_following,
    "agent_environment": agent_environment,
}

# Producer models, weighted per family (code models show up more for code, reasoning models for maths).
MODELS = [
    "claude-opus-4-5",
    "claude-sonnet-4-5",
    "gpt-5",
    "gemini-2.5-pro",
    "qwen3-coder-480b",
    "llama-4-maverick",
    "deepseek-r1",
]
MODEL_WEIGHTS = {
    "code_generation": [4, 4, 4, 3, 5, 1, 2],
    "math_reasoning": [3, 2, 5, 4, 1, 1, 5],
    "rule_following": [5, 4, 4, 3, 1, 3, 1],
    "agent_environment": [5, 4, 4, 4, 2, 2, 1],
}
# Default constraints.max_files per family when a base problem does not set it (drawn once per base).
MAX_FILES_RANGE = {
    "code_generation": (2, 12),
    "math_reasoning": (1, 2),
    "rule_following": (1, 4),
    "agent_environment": (1, 8),
}
VERIFIERS = {
    "code_generation": ["pytest-harness", "ci-replay", "unit-test-runner", "build-check"],
    "math_reasoning": ["answer-match", "sympy-equivalence", "proof-checker"],
    "rule_following": ["format-validator", "rubric-grader", "schema-check"],
    "agent_environment": ["env-replay", "state-diff-checker", "task-success-oracle"],
}

SHELL_OPERATORS = re.compile(r"[;|&<>`]|\$\(")
GEP_REGEX = re.compile(r"^/.+/[a-z]*$")
RE2_UNSUPPORTED = re.compile(r"\(\?<?[=!]|\\[1-9]")
ERROR_CODE = re.compile(r"^[A-Z0-9_ ]+$")
ALIAS = re.compile(r"^[^|\s][^|]*[^|\s](?:\|[^|\s][^|]*[^|\s])+$")
ID_RE = re.compile(r"^gene_[a-z0-9]+(?:_[a-z0-9]+)*$")
WORD = re.compile(r"[a-z0-9]+")
NGRAM = 8


def _details(family: str, rng: random.Random) -> dict[str, object]:
    roll = rng.random()
    if roll < 0.5:
        return {}
    if family == "code_generation":
        total = rng.randint(3, 400)
        return {"tests_passed": total, "tests_total": total}
    if family == "math_reasoning":
        return {"answer_format": rng.choice(["integer", "fraction", "expression", "decimal"])}
    if family == "rule_following":
        return {"checks_passed": rng.randint(4, 30), "checks_failed": 0}
    return {"steps": rng.randint(4, 60), "final_state_match": True}


def _default_max_files(family: str, base: str) -> int:
    lo, hi = MAX_FILES_RANGE[family]
    return random.Random(f"{SEED}:{base}").randint(lo, hi)


def build_genes() -> list[dict]:
    rng = random.Random(SEED)
    genes: list[dict] = []
    for family, module in FAMILY_MODULES.items():
        for n, rec in enumerate((r for base in module.BASES for r in expand(base)), start=1):
            model = rng.choices(MODELS, weights=MODEL_WEIGHTS[family])[0]
            kind = rng.choices(["verified_trajectory", "manual", "reference"], weights=[85, 10, 5])[0]
            score = round(rng.triangular(0.5, 1.0, 0.97), 3)
            attempts = rng.choices([1, 2, 3, 4, 5], weights=[45, 28, 15, 8, 4])[0]
            gene = {
                "type": "Gene",
                "schema_version": SCHEMA_VERSION,
                "id": rec["id"],
                "category": rec["category"],
                "summary": rec["summary"],
                "signals_match": rec["signals_match"],
                "preconditions": rec["preconditions"],
                "strategy": rec["strategy"],
                "avoid": rec["avoid"],
                "constraints": {
                    "max_files": rec["max_files"] or _default_max_files(family, rec["base"]),
                    "forbidden_paths": rec["forbidden_paths"],
                },
                "validation": rec["validation"],
                "model_name": model,
            }
            provenance = {
                "kind": kind,
                "producer_model": model,
                "verifier": {
                    "name": rng.choice(VERIFIERS[family]),
                    "version": f"1.{rng.randint(0, 9)}",
                    "passed": True,
                    "score": score,
                    "details": _details(family, rng),
                },
                "task": {"id": f"{family}-{n}", "family": family, "description": rec["task"]},
                "cost": {
                    "tokens": int(rng.lognormvariate(9.6, 0.7)) * attempts,
                    "attempts": attempts,
                    "seconds": round(rng.lognormvariate(4.0, 0.8) * attempts, 1),
                },
            }
            genes.append({"gene": gene, "provenance": provenance, "_base": rec["base"]})
    return genes


def build_queries() -> list[dict]:
    out = []
    for i, q in enumerate(queries.QUERIES, start=1):
        out.append(
            {
                "id": f"q{i:03d}",
                "query": q["query"],
                "signals": list(q["signals"]),
                "family": "",
                "relevant": [f"gene_{r}" for r in q["relevant"]],
            }
        )
    return out


def _ngrams(text: str) -> set[tuple[str, ...]]:
    words = WORD.findall(text.lower())
    return {tuple(words[i : i + NGRAM]) for i in range(len(words) - NGRAM + 1)}


def _gene_text(entry: dict) -> str:
    g, p = entry["gene"], entry["provenance"]
    parts = [
        g["summary"],
        *g["signals_match"],
        *g["preconditions"],
        *g["strategy"],
        *g["avoid"],
        p["task"]["description"],
    ]
    return " ".join(parts)


def check(genes: list[dict], qs: list[dict]) -> list[str]:
    errors: list[str] = []

    def err(msg: str) -> None:
        errors.append(msg)

    ids = Counter(e["gene"]["id"] for e in genes)
    errors.extend(f"duplicate gene id {i}" for i, c in ids.items() if c > 1)
    by_id = {e["gene"]["id"]: e for e in genes}
    for e in genes:
        g, gid = e["gene"], e["gene"]["id"]
        if not ID_RE.match(gid):
            err(f"{gid}: id not snake_case")
        if g["category"] not in CATEGORIES:
            err(f"{gid}: bad category {g['category']}")
        if len(g["summary"]) > 140 or "\n" in g["summary"]:
            err(f"{gid}: summary {len(g['summary'])} chars")
        sig = g["signals_match"]
        if not 2 <= len(sig) <= 5 or len(set(sig)) != len(sig):
            err(f"{gid}: {len(sig)} signals (or duplicates)")
        if sum(1 for s in sig if GEP_REGEX.match(s)) > 1:
            err(f"{gid}: more than one regex signal")
        for s in sig:
            if not s.strip() or len(s) > 80 or s != s.strip() or "\n" in s:
                err(f"{gid}: bad signal {s!r}")
            if not GEP_REGEX.match(s):
                if s != s.lower() and not ERROR_CODE.match(s):
                    err(f"{gid}: signal {s!r} should be lowercase (only error codes keep their case)")
                if "|" in s and not ALIAS.match(s):
                    err(f"{gid}: signal {s!r} contains '|' but is not a clean 'term|synonym' alias")
            if GEP_REGEX.match(s):
                body, flags = s[1 : s.rindex("/")], s[s.rindex("/") + 1 :]
                if set(flags) - set("imsguy"):
                    err(f"{gid}: signal {s!r} parses as a regex with unknown flags {flags!r}")
                if RE2_UNSUPPORTED.search(body):
                    err(f"{gid}: regex signal {s!r} uses lookaround or backreferences (RE2 rejects them)")
                try:
                    re.compile(body)
                except re.error as exc:
                    err(f"{gid}: regex signal {s!r} does not compile: {exc}")
        for field, lo, hi in (
            ("preconditions", 1, 3),
            ("strategy", 3, 6),
            ("avoid", 1, 4),
            ("validation", 1, 2),
        ):
            if not lo <= len(g[field]) <= hi:
                err(f"{gid}: {field} has {len(g[field])} items")
        for field in ("strategy", "avoid", "preconditions"):
            for s in g[field]:
                if len(s) > 200:
                    err(f"{gid}: {field} item {len(s)} chars: {s[:60]}...")
                if not s.strip() or "\n" in s:
                    err(f"{gid}: empty or multi-line {field} item")
        for cmd in g["validation"]:
            if SHELL_OPERATORS.search(cmd):
                err(f"{gid}: shell operator in validation {cmd!r}")
        if not 1 <= g["constraints"]["max_files"] <= 20:
            err(f"{gid}: max_files out of range")
        if len(e["provenance"]["task"]["description"]) > 400:
            err(f"{gid}: task description too long")

    # Variants of one base must differ in more than a noun: distinct signals and mostly distinct steps.
    by_base: dict[str, list[dict]] = {}
    for e in genes:
        by_base.setdefault(e["_base"], []).append(e)
    for base, members in by_base.items():
        for i, a in enumerate(members):
            for b in members[i + 1 :]:
                ga, gb = a["gene"], b["gene"]
                if set(ga["signals_match"]) == set(gb["signals_match"]):
                    err(f"{base}: {ga['id']} and {gb['id']} share all signals")
                if ga["strategy"] == gb["strategy"]:
                    err(f"{base}: {ga['id']} and {gb['id']} have identical strategy")
                if ga["summary"] == gb["summary"]:
                    err(f"{base}: {ga['id']} and {gb['id']} have identical summary")

    qids = Counter(q["query"] for q in qs)
    errors.extend(f"duplicate query text {t[:60]!r}" for t, c in qids.items() if c > 1)
    gene_grams = {gid: _ngrams(_gene_text(e)) for gid, e in by_id.items()}
    for q in qs:
        if not q["relevant"]:
            err(f"{q['id']}: no relevant genes")
        missing = [r for r in q["relevant"] if r not in by_id]
        if missing:
            err(f"{q['id']}: unknown relevant ids {missing}")
            continue
        fams = {by_id[r]["provenance"]["task"]["family"] for r in q["relevant"]}
        if len(fams) != 1:
            err(f"{q['id']}: relevant genes span families {fams}")
        q["family"] = fams.pop() if len(fams) == 1 else ""
        if len(q["signals"]) > 3:
            err(f"{q['id']}: more than 3 signals")
        if len(q["query"]) > 400:
            err(f"{q['id']}: query too long")
        qgrams = _ngrams(q["query"])
        for r in q["relevant"]:
            shared = qgrams & gene_grams[r]
            if shared:
                err(f"{q['id']}: copies an {NGRAM}-word run from {r}: {' '.join(sorted(shared)[0])!r}")
    return errors


# --- hard queries and the train/test split -------------------------------------------------------------
# Words that say nothing about a Gene, and a crude suffix stripper: enough to decide "shares a word".
_STOP_WORDS = (
    "a an the and or of to in on for with by at from is are was were be been it its this that these those"
    " my our your we i you they he she them their as not no do does did so but if into than then there"
    " here when while which what who how why can could should would will just only also any all each every"
    " some more most very too up down out over under about after before again same other such own off via per"
)
_STOP = set(_STOP_WORDS.split())
NEAR_DUPLICATE_JACCARD = 0.6  # a sibling Gene whose summary shares this share of words
TEST_SHARE = 30  # percent of base problems whose queries form the test split


def content_words(text: str) -> set[str]:
    out = set()
    for word in WORD.findall(text.lower()):
        if word in _STOP or len(word) <= 2:
            continue
        for suffix in ("ing", "ed", "es", "s", "ly"):
            if len(word) > 4 and word.endswith(suffix):
                word = word[: -len(suffix)]
                break
        out.add(word)
    return out


def split_of(key: str) -> str:
    return "test" if int(hashlib.sha256(key.encode()).hexdigest()[:8], 16) % 100 < TEST_SHARE else "train"


def annotate(genes: list[dict], qs: list[dict]) -> None:
    """Tag hard queries and give every query its split (by base problem, so no base is in both).

    - `paraphrase`: the query (text and signals) shares no content word with the summary or the
      signals_match of any Gene it is labelled with;
    - `near_duplicate`: a Gene it is labelled with has a sibling (same base problem) whose summary shares
      at least NEAR_DUPLICATE_JACCARD of its content words: only the deciding detail tells them apart.
    """
    by_id = {e["gene"]["id"]: e for e in genes}
    siblings: dict[str, list[str]] = {}
    for e in genes:
        siblings.setdefault(e["_base"], []).append(e["gene"]["id"])

    def summary_words(gene_id: str) -> set[str]:
        return content_words(by_id[gene_id]["gene"]["summary"])

    def headline_words(gene_id: str) -> set[str]:
        gene = by_id[gene_id]["gene"]
        return content_words(gene["summary"] + " " + " ".join(gene["signals_match"]))

    def closest_sibling(gene_id: str) -> float:
        own = summary_words(gene_id)
        return max(
            len(own & summary_words(s)) / len(own | summary_words(s))
            for s in siblings[by_id[gene_id]["_base"]]
            if s != gene_id
        )

    for q in qs:
        relevant = [r for r in q["relevant"] if r in by_id]
        if not relevant:
            continue
        asked = content_words(q["query"] + " " + " ".join(q["signals"]))
        tags = []
        if not any(asked & headline_words(r) for r in relevant):
            tags.append("paraphrase")
        if max(closest_sibling(r) for r in relevant) >= NEAR_DUPLICATE_JACCARD:
            tags.append("near_duplicate")
        q["hard"] = tags
        q["split"] = split_of(by_id[relevant[0]]["_base"])


def write_jsonl(path: Path, rows: list[dict]) -> None:
    with path.open("w", encoding="utf-8", newline="\n") as fh:
        for row in rows:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="run the checks without writing files")
    args = ap.parse_args()

    genes = build_genes()
    qs = build_queries()
    errors = check(genes, qs)
    annotate(genes, qs)
    for msg in errors:
        print("ERROR", msg, file=sys.stderr)

    fam_genes = Counter(e["provenance"]["task"]["family"] for e in genes)
    fam_bases = {f: len(m.BASES) for f, m in FAMILY_MODULES.items()}
    fam_queries = Counter(q["family"] for q in qs)
    with_sig = sum(1 for q in qs if q["signals"])
    print(f"genes: {len(genes)} from {sum(fam_bases.values())} base problems")
    for f in FAMILY_MODULES:
        print(f"  {f:18s} bases={fam_bases[f]:3d} genes={fam_genes[f]:4d} queries={fam_queries[f]:3d}")
    print(f"queries: {len(qs)} ({with_sig} with signals, {len(qs) - with_sig} without)")
    multi = sum(1 for q in qs if len(q["relevant"]) > 1)
    hard = [q for q in qs if q.get("hard")]
    print(
        f"hard queries: {len(hard)} ({sum('paraphrase' in q['hard'] for q in hard)} paraphrases sharing no"
        f" word with the Gene's summary and signals, {sum('near_duplicate' in q['hard'] for q in hard)}"
        " near-duplicate)"
    )
    for split in ("train", "test"):
        part = [q for q in qs if q.get("split") == split]
        print(f"  {split}: {len(part)} queries, {sum(bool(q.get('hard')) for q in part)} hard")
    print(f"queries with more than one relevant gene: {multi}")
    if errors:
        print(f"{len(errors)} errors; nothing written", file=sys.stderr)
        return 1
    if not args.check:
        write_jsonl(
            HERE / "corpus.jsonl", [{"gene": e["gene"], "provenance": e["provenance"]} for e in genes]
        )
        write_jsonl(HERE / "queries.jsonl", qs)
        print(f"wrote {HERE / 'corpus.jsonl'} and {HERE / 'queries.jsonl'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
