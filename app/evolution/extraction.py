"""Deterministic guard extraction from a trajectory's own text (used when the producer sent no guards).

The registry never writes advice of its own: a guard is the producer's words (the step that caused a
failure, the error it led to, its correction, the verifier's message) put into one fixed template, a
rule a consumer model can follow. The rules:

1. A failed step (`ok: false`) that carries a `correction` becomes
   "When <error signature>, do not <mistake>; instead <correction>"
   (without an error text: "Do not <mistake>; instead <correction>"). A failed step without a
   correction teaches no alternative and yields nothing.
2. The mistake is the step that *caused* the failure, not the command that showed it. A failed step
   whose action is a diagnostic (running the tests, a type checker or linter, reading a log or a
   file: `pytest -q`, `npm test`, `mypy`, `tail app.log`, "run the test suite") only reports the
   failure: the mistake is the nearest step before it that is not a diagnostic, unless a diagnostic
   passed in between (then that step was fine and the run names no cause). The signature then says
   what showed the failure ("When the tests fail with <signature>, do not <cause>; instead …");
   without a cause the rule is "do not run them again unchanged".
3. A failed verifier run whose details name an error becomes
   "When verified by <verifier>, do not leave <ErrorClass: message> unresolved".
4. Error signature: the last "SomethingError: message" line of the error text (tracebacks end with it;
   a dotted module prefix is dropped; `psycopg.errors.LockNotAvailable: …` counts too), else its first
   line that is not a traceback frame.
5. Run-specific detail is masked into stable placeholders, so thirty runs of one failure read the
   same (`mask`): URLs, hosts and IP addresses (`<host>`), ports (`<port>`), paths and file names
   (`<path>`, `<file>`; well-known files such as `conftest.py` or `pyproject.toml` are kept), line
   numbers (`line <n>`), memory addresses, UUIDs, long hex and numeric ids (`<id>`). In the error
   signature, numbers that are not limits are masked too (`assert <n> == <n>`); a limit (a number
   after "max", "limit", "timeout", "at most", "exceeds", … or before a unit: `30 s`, `512 MB`,
   `3 retries`) and an HTTP status or exit code are kept, but not a measurement (a number after
   "took", "elapsed", "used", "got", …: `took <n> ms, budget 200 ms`). Numbers in the action and the
   correction are the producer's instruction (`use 4/52 * 3/51`) and are kept.
6. Each guard is at most 200 characters: the parts share the budget fairly, longer ones are cut at a
   word boundary with "…". Duplicates within one trajectory are dropped; at most 12 guards.
7. Each failed step with a correction has a failure key (`failure_key`): a digest of its error
   signature with every number and placeholder blanked out, and of its correction, normalized. Two
   runs that met the same error and fixed it the same way teach the same lesson, however their
   producers worded their guards: the merge (app/evolution/merge.py) uses the key to recognise the
   paraphrases its pair model scores too low.

The texts were redacted when the trajectory was stored; they are redacted again here (before ids
are masked), which costs little and keeps this function safe on its own.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping, Sequence
from typing import Any

from app.gep.document import MAX_GUARDS
from app.redaction import Redactor

MAX_GUARD_CHARS = 200
_MASK_LIMIT = 2000
ELLIPSIS = "…"

_ERROR_LINE = re.compile(
    r"(?<![\w.])(?:[A-Za-z_]\w*\.)*"
    r"(?P<cls>[A-Z]\w*(?:Error|Exception|Warning|Exit|Interrupt|Failure|Fault|Timeout))\b:?\s*(?P<msg>.*)$"
    # A class from an errors or exceptions module, whatever its name: psycopg.errors.LockNotAvailable.
    r"|(?<![\w.])(?:[A-Za-z_]\w*\.)*(?:errors|exceptions|exc)\.(?P<dotted>[A-Z]\w+):\s*(?P<dmsg>.*)$"
)
_SPACE = re.compile(r"\s+")
_FRAME = re.compile(r'\s*(?:File "|Traceback \(most recent call last\)|During handling of|\^+\s*$)')
# urllib3 and friends repeat the underlying error in a long "(Caused by …)" tail.
_CAUSED_BY = re.compile(r"\s*\(Caused by .*$")
_DETAIL_CLASS_KEYS = ("error_class", "error_type", "exception", "error_code", "code")
_DETAIL_MESSAGE_KEYS = ("message", "error", "reason", "failure", "detail", "stderr", "output")

# Masks applied in order, on at most _MASK_LIMIT characters of each part (a guard keeps ~200).
_TLDS = "com|org|net|io|dev|app|local|internal|lan|cloud|ai|co|us|uk|de|fr|example|test|svc|cluster"
_FILE_EXTENSIONS = (
    "py|pyi|pyc|ipynb|js|mjs|cjs|ts|tsx|jsx|go|rs|java|kt|rb|php|c|h|cc|cpp|hpp|cs|swift|scala|sh|"
    "sql|json|yaml|yml|toml|ini|cfg|conf|txt|md|rst|csv|tsv|log|lock|xml|html|css|env|db|sqlite|"
    "parquet|pkl|whl|tar|gz|zip|so|dll|exe|bin|out|err|tmp|bak|pid"
)
# File names that name a convention, not one run's file: kept as written.
KNOWN_FILES = frozenset(
    [
        "conftest.py",
        "setup.py",
        "setup.cfg",
        "pyproject.toml",
        "__init__.py",
        "__main__.py",
        "manage.py",
        "settings.py",
        "requirements.txt",
        "package.json",
        "package-lock.json",
        "tsconfig.json",
        "cargo.toml",
        "cargo.lock",
        "go.mod",
        "go.sum",
        "makefile",
        "dockerfile",
        "docker-compose.yml",
        "docker-compose.yaml",
        "alembic.ini",
        "tox.ini",
        "pytest.ini",
        "mypy.ini",
        ".env",
        ".gitignore",
        "readme.md",
        "poetry.lock",
        "uv.lock",
        "yarn.lock",
        "pnpm-lock.yaml",
    ]
)
_URL = re.compile(r"\b[a-zA-Z][\w+.-]{0,20}://[^\s'\"<>)\]]+")
_HOST_KEY = re.compile(r"\b(host|hostname|server|address|addr)\s*=\s*(['\"]?)[^\s'\",)]+\2", re.IGNORECASE)
_PORT_KEY = re.compile(r"\bport\s*(=|:|\s)\s*\d{1,5}\b", re.IGNORECASE)
_IP = re.compile(r"\b\d{1,3}(?:\.\d{1,3}){3}\b|\[[0-9a-fA-F:]{3,39}\]")
_HOSTNAME = re.compile(rf"\b(?:[a-zA-Z0-9-]{{1,63}}\.)+(?:{_TLDS})\b(?!\.\w)", re.IGNORECASE)
_HOST_PORT = re.compile(r"(<host>|\blocalhost):\d{2,5}\b")
_PATH = re.compile(
    r"(?<![\w<])(?:[A-Za-z]:\\|~?/|\.{1,2}/|[\w.-]*[A-Za-z_][\w.-]*/)[\w.@+-]*(?:[/\\][\w.@+-]+)*"
)
_FILE = re.compile(rf"(?<![\w/.<-])[\w-]+(?:\.[\w-]+)*\.(?:{_FILE_EXTENSIONS})\b(?![.\w/-])", re.IGNORECASE)
_LINE_NUMBER = re.compile(r"\b(line|lines|ln|col|column)\s*(?:=|:)?\s*\d+(?:\s*[-:]\s*\d+)?\b", re.IGNORECASE)
_ADDRESS = re.compile(r"\b0x[0-9a-fA-F]{4,}\b")
_UUID = re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b", re.IGNORECASE)
_HEX_ID = re.compile(r"\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{12,}\b|\b[0-9a-f]{16,}\b", re.IGNORECASE)
_LONG_NUMBER = re.compile(r"(?<![\w.])\d{6,}(?![\w.])")
_ID_KEY = re.compile(
    r"\b(id|pid|uid|job|run|request|trace|build|session|task)([ _-]?id)?\s*[=:#]\s*\d+\b", re.IGNORECASE
)
_NUMBER = re.compile(r"(?<![\w.<])[-+]?\d+(?:[.,]\d+)*(?![\w<])")
_LIMIT_BEFORE = re.compile(
    r"(?:max|maximum|min|minimum|limit|limits|timeout|timed out after|at most|at least|up to|"
    r"exceeds?|exceeded|over|under|above|below|more than|less than|fewer than|within|after|status|code|"
    r"exit|http|errno|"
    r"version|v|python|[<>]=?)\s*[:=]?\s*$",
    re.IGNORECASE,
)
_LIMIT_UNIT = re.compile(
    r"^\s*(?:%|s\b|ms\b|us\b|ns\b|sec|second|minute|min\b|hour|h\b|day|[kmgt]i?b\b|bytes?|kb|mb|gb|"
    r"chars?|characters?|tokens?|lines?|files?|retries|retry|attempts?|times|workers?|threads?|"
    r"connections?|requests?|items?|rows?|pages?|steps?|mib|gib|px|dpi|x\b)",
    re.IGNORECASE,
)
# A number after one of these is what the run measured, not a limit, even before a unit: "request
# took 48419 ms, budget 200 ms" keeps the budget and masks the duration.
_MEASURED_BEFORE = re.compile(
    r"\b(?:took|taking|elapsed|used|using|usage|spent|lasted|ran for|runtime|duration|consumed|"
    r"measured|observed|actual|peaked at|got|received|returned)\s*(?:about|around|~)?\s*[:=]?\s*$",
    re.IGNORECASE,
)
_HTTP_REASON = re.compile(
    r"^\s*(?:unauthorized|forbidden|not found|bad request|conflict|too many|internal|service unavailable|"
    r"gateway|method not allowed|unprocessable|payment|gone|precondition)",
    re.IGNORECASE,
)


def squash(text: str) -> str:
    """One line, single spaces, volatile ids (memory addresses, UUIDs, long hex) masked."""
    text = _ADDRESS.sub("0x…", text)
    text = _UUID.sub("<uuid>", text)
    text = re.sub(r"\b[0-9a-f]{16,}\b", "<hex>", text)
    return _SPACE.sub(" ", text).strip()


def _path_or_file(match: re.Match[str]) -> str:
    token = match.group(0)
    name = re.split(r"[/\\]", token.rstrip("/\\"))[-1]
    if name.lower() in KNOWN_FILES:
        return name
    if "/" not in token and "\\" not in token:
        return token
    # "and/or", "async/await", "I/O": a single slash between two plain words is not a path.
    if re.fullmatch(r"[A-Za-z]+/[A-Za-z]+", token):
        return token
    return "<path>"


def _file(match: re.Match[str]) -> str:
    token = match.group(0)
    return token if token.lower() in KNOWN_FILES else "<file>"


def _number(match: re.Match[str]) -> str:
    before = match.string[max(0, match.start() - 24) : match.start()]
    after = match.string[match.end() : match.end() + 24]
    if _LIMIT_BEFORE.search(before):
        return match.group(0)
    if _MEASURED_BEFORE.search(before):
        return "<n>"
    if _LIMIT_UNIT.match(after) or _HTTP_REASON.match(after):
        return match.group(0)
    return "<n>"


def mask(text: str, *, numbers: bool = False) -> str:
    """`text` on one line with run-specific detail replaced by stable placeholders (rule 5).

    With `numbers`, numbers that are not limits, status or exit codes become `<n>` too.
    """
    # A guard keeps at most ~200 characters of any part: masking more would only cost time.
    text = squash(text[:_MASK_LIMIT])
    text = _URL.sub("<url>", text)
    text = _HOST_KEY.sub(lambda m: f"{m.group(1)}=<host>", text)
    text = _PORT_KEY.sub("port=<port>", text)
    text = _IP.sub("<host>", text)
    text = _HOSTNAME.sub("<host>", text)
    text = _HOST_PORT.sub(lambda m: f"{m.group(1)}:<port>", text)
    text = _PATH.sub(_path_or_file, text)
    text = _FILE.sub(_file, text)
    text = _LINE_NUMBER.sub(lambda m: f"{m.group(1)} <n>", text)
    text = _ID_KEY.sub(_id_label, text)
    text = _HEX_ID.sub("<id>", text)
    text = _LONG_NUMBER.sub("<id>", text)
    if numbers:
        text = _NUMBER.sub(_number, text)
    return _SPACE.sub(" ", text).strip()


def _id_label(match: re.Match[str]) -> str:
    token = match.group(0)
    head = re.match(r"^[^\d]*", token)
    return (head.group(0) if head else "") + "<id>"


def shorten(text: str, limit: int) -> str:
    """Cut at a word boundary within `limit` characters, marking the cut with an ellipsis."""
    if len(text) <= limit:
        return text
    if limit <= 1:
        return ELLIPSIS[:limit]
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    if space >= limit // 2:
        cut = cut[:space]
    return cut.rstrip(" ,;:.-") + ELLIPSIS


def fit(template: str, parts: Sequence[str], limit: int = MAX_GUARD_CHARS) -> str:
    """Fill `template`'s {} slots with `parts`, sharing the remaining budget fairly between them."""
    budget = limit - len(template.replace("{}", ""))
    lengths = [len(part) for part in parts]
    shares = [0] * len(parts)
    remaining = budget
    # Water-filling: short parts keep their length; what they leave goes to the longer ones.
    for index in sorted(range(len(parts)), key=lambda i: lengths[i]):
        fair = remaining // (len(parts) - sum(1 for s in shares if s))
        shares[index] = max(1, min(lengths[index], fair))
        remaining -= shares[index]
    return template.format(*(shorten(part, share) for part, share in zip(parts, shares, strict=True)))


def error_signature(error: str) -> str:
    """ "ErrorClass: message" from the last line that names an error class, else the first line;
    run-specific detail masked (rule 5)."""
    lines = [line for line in error.splitlines() if line.strip()]
    for line in reversed(lines):
        found = error_in(line)
        if found:
            error_class, raw = found
            message = mask(_CAUSED_BY.sub("", raw), numbers=True)
            return f"{error_class}: {message}" if message else error_class
    # No error class: the first line that is not a traceback's frame or header.
    plain = [line for line in lines if not _FRAME.match(line)] or lines
    return mask(plain[0], numbers=True) if plain else ""


def error_in(line: str) -> tuple[str, str] | None:
    """(error class, raw message) when `line` names an error class."""
    match = _ERROR_LINE.search(line)
    if match is None:
        return None
    if match.group("cls"):
        return match.group("cls"), match.group("msg")
    return match.group("dotted"), match.group("dmsg")


def _verifier_signature(details: Any) -> str:
    if isinstance(details, str):
        return error_signature(details)
    if not isinstance(details, Mapping):
        return ""
    error_class = next((str(details[k]) for k in _DETAIL_CLASS_KEYS if details.get(k)), "")
    message = next(
        (details[k] for k in _DETAIL_MESSAGE_KEYS if isinstance(details.get(k), str) and details[k]), ""
    )
    signature = error_signature(message) if message else ""
    if error_class and not signature.startswith(error_class):
        signature = f"{error_class}: {signature}" if signature else error_class
    return squash(signature)


_INSPECTED = "inspecting the output shows"
# The mistake of a rule whose run named no cause (rule 2): app/evolution/guard_match.py compares
# such a rule by its remedy.
NO_CAUSE_RULES = ("run them again unchanged", "read it again unchanged")
# Diagnostics: commands and steps that show a failure rather than cause it (rule 2), with what a
# failure of each is called in a guard.
_RUNNER = r"(?:(?:uv|poetry|pipenv|hatch|pdm)\s+run\s+|python[0-9.]*\s+-m\s+|npx\s+|bunx\s+)?"
_DIAGNOSTICS: tuple[tuple[re.Pattern[str], str, str], ...] = (  # (pattern, seen, again)
    (
        re.compile(
            rf"^\s*{_RUNNER}(?:pytest|py\.test|unittest|nose2|tox|nox|jest|vitest|mocha|ava|rspec|"
            r"phpunit|ctest|(?:npm|yarn|pnpm|bun)\s+(?:run\s+)?test|go\s+test|cargo\s+(?:test|nextest)|"
            r"(?:mvn|gradle|\./gradlew)\s+\S*test|make\s+(?:test|check)|dotnet\s+test|mix\s+test|"
            r"(?:re-?)?run(?:ning)?\s+(?:the\s+|all\s+)?(?:\w+\s+)?(?:tests?|test\s+suite|suite|specs?))\b",
            re.IGNORECASE,
        ),
        "the tests fail",
        NO_CAUSE_RULES[0],
    ),
    (
        re.compile(
            rf"^\s*{_RUNNER}(?:mypy|pyright|ruff|flake8|pylint|black\s+--check|eslint|tsc|prettier\s+--check|"
            r"cargo\s+(?:check|clippy)|go\s+vet|golangci-lint|shellcheck|(?:re-?)?run\s+(?:the\s+)?"
            r"(?:type\s*checker|linter|lint|checks?))\b",
            re.IGNORECASE,
        ),
        "the checks fail",
        NO_CAUSE_RULES[0],
    ),
    (
        re.compile(
            r"^\s*(?:sudo\s+)?(?:cat|tail|head|less|more|grep|rg|ls|tree|find|stat|wc|diff|journalctl|dmesg|"
            r"(?:kubectl|docker|podman)\s+(?:logs|describe|ps|inspect)|git\s+(?:status|diff|log|show)|"
            r"(?:read|open|inspect|check|view|look\s+at|print|show)\s+(?:the\s+)?\w*\s*"
            r"(?:logs?|output|traceback|stack\s*trace|error|file|config))\b",
            re.IGNORECASE,
        ),
        _INSPECTED,
        NO_CAUSE_RULES[1],
    ),
)


def diagnostic(action: str) -> tuple[str, str] | None:
    """(what its failure is called, the rule without a cause) when `action` only shows a failure."""
    for pattern, seen, again in _DIAGNOSTICS:
        if pattern.search(action):
            return seen, again
    return None


def _cause(steps: Sequence[Mapping[str, Any]], index: int) -> Mapping[str, Any] | None:
    """The step that caused the failure step `index` showed: the nearest earlier step that is not a
    diagnostic, unless a diagnostic passed after it."""
    for step in reversed(steps[:index]):
        shown = diagnostic(str(step.get("action", "")))
        if shown is None:
            return dict(step)
        # Tests or checks that passed clear what came before; reading a log clears nothing.
        if step.get("ok") and shown[0] != _INSPECTED:
            return None
    return None


def _step_guard(steps: Sequence[Mapping[str, Any]], index: int, redactor: Redactor) -> str:
    step = steps[index]
    action = mask(redactor.text(str(step.get("action", ""))))
    correction = mask(redactor.text(str(step["correction"])))
    signature = error_signature(redactor.text(str(step.get("error") or "")))
    shown = diagnostic(action)
    if shown is None:
        if signature:
            return fit("When {}, do not {}; instead {}", [signature, action, correction])
        return fit("Do not {}; instead {}", [action, correction])
    seen, again = shown
    cause = _cause(steps, index)
    when = f"When {seen} {'with ' if seen.endswith('fail') else ''}{{}}" if signature else f"When {seen}"
    mistake = mask(redactor.text(str(cause.get("action", "")))) if cause is not None else ""
    if not mistake:
        parts = [signature, correction] if signature else [correction]
        return fit(f"{when}, do not {again}; instead {{}}", parts)
    parts = [signature, mistake, correction] if signature else [mistake, correction]
    return fit(f"{when}, do not {{}}; instead {{}}", parts)


def extract_guards(steps: Sequence[Mapping[str, Any]], verifier: Mapping[str, Any]) -> list[str]:
    """The guards rules 1-6 above derive from a trajectory's steps and verifier result."""
    return list(extract_keyed_guards(steps, verifier))


def extract_keyed_guards(
    steps: Sequence[Mapping[str, Any]], verifier: Mapping[str, Any]
) -> dict[str, set[str]]:
    """The guards of `extract_guards`, in order, each with the failure keys of the steps it came from
    (rule 7; none for the verifier's guard)."""
    redactor = Redactor()
    guards: dict[str, set[str]] = {}
    for index, step in enumerate(steps):
        if step.get("ok") or not step.get("correction"):
            continue
        keys = guards.setdefault(_step_guard(steps, index, redactor), set())
        key = failure_key(step)
        if key is not None:
            keys.add(key)
    if not verifier.get("passed"):
        signature = _verifier_signature(redactor.json(verifier.get("details")))
        if signature:
            name = mask(str(verifier.get("name", "")))
            guards.setdefault(
                fit("When verified by {}, do not leave {} unresolved", [name, signature]), set()
            )
    return dict(list(guards.items())[:MAX_GUARDS])


_BLANK = re.compile(r"<[a-z]+>|[-+]?\d+(?:[.,]\d+)*")
_PLAIN = re.compile(r"[^a-z#]+")


def failure_key(step: Mapping[str, Any]) -> str | None:
    """Rule 7: the digest of a failed step's error signature and correction, each normalized (masked,
    numbers blanked, lower case, punctuation dropped); None without an error or a correction."""
    error = str(step.get("error") or "")
    correction = str(step.get("correction") or "")
    if step.get("ok") or not error.strip() or not correction.strip():
        return None
    redactor = Redactor()
    parts = [error_signature(redactor.text(error)), mask(redactor.text(correction))]
    normal = [_PLAIN.sub(" ", _BLANK.sub("#", part).lower()).strip() for part in parts]
    if not all(normal):
        return None
    return hashlib.sha256("\n".join(normal).encode()).hexdigest()[:16]


def compact_producer_guard(text: str) -> str:
    """A producer's guard as written, on one line (it was redacted and length-checked on submission)."""
    return shorten(_SPACE.sub(" ", text).strip(), 300)


def errors_of(steps: Sequence[Mapping[str, Any]], verifier: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(error class, masked message) of each error a run ran into, in order of appearance, once each."""
    found: dict[str, str] = {}
    texts = [str(step.get("error") or "") for step in steps]
    details = verifier.get("details")
    if isinstance(details, str):
        texts.append(details)
    elif isinstance(details, Mapping):
        texts.extend(str(details[k]) for k in (*_DETAIL_CLASS_KEYS, *_DETAIL_MESSAGE_KEYS) if details.get(k))
    for text in texts:
        for line in text.splitlines():
            error = error_in(line)
            if error is not None:
                found.setdefault(error[0], mask(_CAUSED_BY.sub("", error[1]), numbers=True))
    return list(found.items())


def signals_of(steps: Sequence[Mapping[str, Any]], verifier: Mapping[str, Any]) -> list[str]:
    """Error classes a run ran into, in order of appearance: its signals for routing and distillation."""
    return [error_class for error_class, _ in errors_of(steps, verifier)]
