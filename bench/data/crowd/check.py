"""Check a crowd family module: every combination fills, validates as a publish and reads distinct.

.venv/bin/python bench/data/crowd/check.py code_generation [--show 3]
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path[:0] = [str(ROOT), str(ROOT / "bench" / "data")]

from app.genes.schemas import PublishRequest  # noqa: E402
from crowd import CATEGORIES, FAMILIES, combinations, gene, problems  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("family", choices=FAMILIES)
    parser.add_argument("--show", type=int, default=0, help="print this many generated Genes per problem")
    args = parser.parse_args()
    listed = problems((args.family,))[args.family]
    errors: list[str] = []
    slugs = Counter(p.slug for p in listed)
    errors += [f"slug {s!r} used {n} times" for s, n in slugs.items() if n > 1]
    texts: Counter[str] = Counter()
    total = 0
    rng = random.Random(0)
    for problem in listed:
        if problem.category not in CATEGORIES:
            errors.append(f"{problem.slug}: category {problem.category!r}")
        combos = combinations(problem)
        for n, values in enumerate(combos):
            try:
                payload = gene(args.family, problem, values, n, rng)
                PublishRequest.model_validate(payload)
            except Exception as exc:
                errors.append(f"{problem.slug} {values}: {str(exc)[:300]}")
                continue
            texts[payload["gene"]["summary"] + "\n" + payload["provenance"]["task"]["description"]] += 1
            if n < args.show:
                g = payload["gene"]
                print(f"--- {g['id']}\n{g['summary']}\nTASK: {payload['provenance']['task']['description']}")
                print(
                    "SIGNALS:",
                    g["signals_match"],
                    "\nSTEPS:",
                    *g["strategy"],
                    "AVOID:",
                    *g["avoid"],
                    sep="\n  ",
                )
        total += len(combos)
        print(f"{problem.slug:50s} {len(combos):5d} combinations")
    errors += [f"{n} Genes read the same: {t[:120]!r}" for t, n in texts.items() if n > 1]
    print(f"{args.family}: {len(listed)} problems, {total} Genes")
    for e in errors[:40]:
        print("ERROR", e)
    return 1 if errors else 0


if __name__ == "__main__":
    raise SystemExit(main())
