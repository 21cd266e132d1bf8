"""Redaction: throughput on adversarial and ordinary text, recall and false positives on planted secrets.

    .venv/bin/python bench/redaction.py [--runs 5] [--size 1000000] [--no-detect-secrets]

Throughput is the median of `--runs` runs over `--size` characters of each shape, beside two baselines
timed on the same bytes in the same run: `str.lower()` and one RE2 search for a pattern that never
matches (`\\bzq\\b`), i.e. the cost of reading the text once. Adversarial shapes repeat the alphabets
that stress each kind of rule ("a-a-a-", "password=password=", runs of key characters, nested
quotes, the prefixes of the contextual rules without their ending).

Recall and false positives are measured on the planted-secret corpus of bench/data/secrets_corpus.py
(its docstring defines *caught*, *flagged* and false positive), for Genebank's rules
(app.redaction.find_secrets), for detect-secrets (its default plugins and filters through
`detect_secrets.core.scan.scan_line`, line by line, a reported value redacted wherever it occurs on
its line; and its token-format plugins alone, without the keyword, entropy and IP plugins), and for
the union of Genebank's rules and all of detect-secrets. gitleaks' rules are not measured: they are
published with gitleaks (a Go program), not as a PyPI or npm package.

detect-secrets runs on adversarial lines of growing length too (its patterns are Python `re`), to
show whether it could be used at run time on untrusted text.
"""

from __future__ import annotations

import argparse
import random
import statistics
import string
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import re2

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench" / "data"))

from secrets_corpus import build  # noqa: E402

from app.redaction import Redactor, find_secrets  # noqa: E402

Span = tuple[int, int]


def _repeat(unit: str, size: int) -> str:
    return (unit * (size // len(unit) + 1))[:size]


def adversarial_shapes(size: int) -> dict[str, str]:
    rng = random.Random(7)
    keyish = "".join(rng.choice(string.ascii_letters + string.digits + "_-") for _ in range(size))
    return {
        "a-a-a-": _repeat("a-", size),
        "password=password=": _repeat("password=", size),
        "passwordpassword (no separator)": _repeat("password", size),
        'password="x (unclosed quotes)': _repeat('password="x ', size),
        "key characters (random run)": keyish,
        "nested quotes": _repeat('"\'\\"{"a": "', size),
        "curl -u a:b (many matches)": _repeat("curl -u a:b ", size),
        "-----BEGIN PRIVATE KEY----- (unclosed)": _repeat("-----BEGIN PRIVATE KEY-----", size),
        "x://u: (URL without @)": _repeat("x://u:", size),
        "aws secret (prefix, no key)": _repeat("aws secret ", size),
    }


def ordinary_text(size: int, samples: list[dict[str, Any]]) -> str:
    clean = [sample["text"] for sample in samples if sample["set"] == "clean"]
    return _repeat("\n".join(clean) + "\n", size)


def mixed_text(size: int, samples: list[dict[str, Any]]) -> str:
    return _repeat("\n".join(sample["text"] for sample in samples) + "\n", size)


def _median_seconds(fn: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def throughput(runs: int, size: int, samples: list[dict[str, Any]]) -> None:
    trivial = re2.compile(r"\bzq\b")
    shapes = {"ordinary agent-log text (clean corpus)": ordinary_text(size, samples)}
    shapes["agent-log text with secrets (whole corpus)"] = mixed_text(size, samples)
    shapes.update(adversarial_shapes(size))
    print(
        f"\nThroughput on {size / 1e6:.1f} MB, median of {runs} runs (MB/s; x = redact time / lower() time)"
    )
    print(f"{'text':44} {'redact':>8} {'lower()':>8} {'RE2 scan':>9} {'x':>6} {'secrets':>8}")
    for name, text in shapes.items():
        mb = len(text.encode()) / 1e6
        t_redact = _median_seconds(lambda text=text: Redactor().text(text), runs)
        t_lower = _median_seconds(text.lower, runs)
        t_scan = _median_seconds(lambda text=text: trivial.search(text), runs)
        redactor = Redactor()
        redactor.text(text)
        print(
            f"{name:44} {mb / t_redact:8.1f} {mb / t_lower:8.0f} {mb / t_scan:9.0f} "
            f"{t_redact / t_lower:6.0f} {redactor.count:8d}"
        )


# --- recall and false positives ---------------------------------------------------------------------


def _line_offsets(text: str) -> list[tuple[int, str]]:
    out, start = [], 0
    for line in text.split("\n"):
        out.append((start, line))
        start += len(line) + 1
    return out


def _occurrences(line: str, value: str) -> list[Span]:
    spans, start = [], line.find(value)
    while value and start != -1:
        spans.append((start, start + len(value)))
        start = line.find(value, start + 1)
    return spans


_FORMAT_ONLY_EXCLUDED = {
    "KeywordDetector",
    "Base64HighEntropyString",
    "HexHighEntropyString",
    "IPPublicDetector",
}


def detect_secrets_finder(format_only: bool) -> Callable[[str], list[Span]]:
    from detect_secrets.core.scan import scan_line
    from detect_secrets.settings import default_settings, get_settings

    def find(text: str) -> list[Span]:
        spans: list[Span] = []
        with default_settings():
            if format_only:
                get_settings().disable_plugins(*_FORMAT_ONLY_EXCLUDED)
            for offset, line in _line_offsets(text):
                for secret in scan_line(line):
                    value = secret.secret_value or ""
                    spans.extend((offset + a, offset + b) for a, b in _occurrences(line, value))
        return spans

    return find


def genebank_finder(text: str) -> list[Span]:
    return [(start, end) for start, end, _ in find_secrets(text)]


def _covered(span: Span, redacted: list[Span]) -> bool:
    """Every character of `span` lies in the union of `redacted`."""
    position, end = span
    for a, b in sorted(redacted):
        if a <= position < b:
            position = b
        if position >= end:
            return True
    return position >= end


def _overlaps(span: Span, other: Span) -> bool:
    return span[0] < other[1] and other[0] < span[1]


def score(samples: list[dict[str, Any]], finders: dict[str, Callable[[str], list[Span]]]) -> None:
    found = {name: [finder(sample["text"]) for sample in samples] for name, finder in finders.items()}
    found["union: Genebank + detect-secrets"] = [
        a + b for a, b in zip(found["Genebank"], found["detect-secrets (all plugins)"], strict=True)
    ]
    planted = sum(len(sample["secrets"]) for sample in samples)
    clean = [i for i, sample in enumerate(samples) if sample["set"] == "clean"]
    print(
        f"\nPlanted-secret corpus: {planted} secrets in {len(samples) - len(clean)} samples, "
        f"{len(clean)} clean samples"
    )
    print(
        f"{'rules':38} {'caught':>12} {'flagged':>12} {'FP clean samples':>17} "
        f"{'FP spans':>9} {'collateral':>10}"
    )
    per_kind: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    for name, results in found.items():
        caught = flagged = fp_samples = fp_spans = collateral = 0
        for sample, spans in zip(samples, results, strict=True):
            planted_spans = [(a, b) for a, b, _ in sample["secrets"]]
            for a, b, kind in sample["secrets"]:
                hit = _covered((a, b), spans)
                caught += hit
                flagged += any(_overlaps((a, b), s) for s in spans)
                per_kind[kind][name][0] += hit
                per_kind[kind][name][1] += 1
            stray = [s for s in spans if not any(_overlaps(s, p) for p in planted_spans)]
            if sample["set"] == "clean":
                fp_samples += bool(stray)
                fp_spans += len(stray)
            else:
                collateral += len(stray)
        print(
            f"{name:38} {caught:4d} ({caught / planted:5.1%}) {flagged:4d} ({flagged / planted:5.1%}) "
            f"{fp_samples:8d} of {len(clean):3d} {fp_spans:9d} {collateral:10d}"
        )
    names = list(found)
    print("\nCaught per kind (" + " | ".join(names) + ")")
    for kind in sorted(per_kind):
        row = per_kind[kind]
        total = row[names[0]][1]
        cells = " ".join(f"{row[name][0]:3d}" for name in names)
        print(f"  {kind:24} of {total:3d}: {cells}")
    print("\nFalse positives in clean samples (first 12):")
    shown = 0
    for name, results in found.items():
        for index in clean:
            text = samples[index]["text"]
            for a, b in results[index]:
                if shown < 12:
                    print(f"  {name[:24]:24} {samples[index]['id']:12} {text[a:b][:60]!r}")
                shown += 1


def detect_secrets_adversarial(budget: float) -> None:
    finder = detect_secrets_finder(format_only=False)
    print("\ndetect-secrets on one adversarial line (seconds; stops past the budget)")
    shapes = {
        "a-a-a-": "a-",
        "password=password=": "password=",
        'password="x ': 'password="x ',
        "passwordpassword": "password",
        "secret_secret_": "secret_",
    }
    for name, unit in shapes.items():
        cells = []
        for size in (2_000, 4_000, 8_000, 16_000):
            start = time.perf_counter()
            finder(_repeat(unit, size))
            elapsed = time.perf_counter() - start
            ours = _median_seconds(lambda size=size, unit=unit: find_secrets(_repeat(unit, size)), 3)
            cells.append(f"{size // 1000:2d} KB {elapsed:7.3f} (Genebank {ours:.4f})")
            if elapsed > budget:
                break
        print(f"  {name:22} " + "; ".join(cells))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--size", type=int, default=1_000_000)
    parser.add_argument("--no-detect-secrets", action="store_true", help="measure Genebank's rules only")
    parser.add_argument(
        "--budget", type=float, default=20.0, help="seconds per detect-secrets adversarial run"
    )
    args = parser.parse_args()
    samples = build()
    throughput(args.runs, args.size, samples)
    finders: dict[str, Callable[[str], list[Span]]] = {"Genebank": genebank_finder}
    if not args.no_detect_secrets:
        finders["detect-secrets (all plugins)"] = detect_secrets_finder(format_only=False)
        finders["detect-secrets (format plugins)"] = detect_secrets_finder(format_only=True)
        score(samples, finders)
        detect_secrets_adversarial(args.budget)
    else:
        planted = sum(len(sample["secrets"]) for sample in samples)
        caught = sum(
            _covered((a, b), genebank_finder(sample["text"]))
            for sample in samples
            for a, b, _ in sample["secrets"]
        )
        print(f"\nGenebank caught {caught} of {planted} planted secrets")


if __name__ == "__main__":
    main()
