"""A new Gene's document from the trajectory that founds it: the producer's draft, completed
deterministically from the trajectory itself (nothing is written by the registry):

| field | from the draft, else |
| --- | --- |
| `id` | `gene_<family>_<first words of the task>_<6 hex of the content hash>` |
| `category` | `repair` when the run overcame a failed step, else `innovate` |
| `summary` | a sentence about the problem: the task as a sentence, then the errors overcome (≤ 300) |
| `signals_match` | the errors overcome (class, message phrase), then the task's distinctive terms |
| `strategy` | the actions of the successful steps, in order (else the corrections of failed ones) |
| `constraints` | `{"max_files": 10, "forbidden_paths": [".git"]}` |
| `validation` | the verifier's `details.command` when it has no shell operator, else the verifier's name |
| `preconditions` | only from the draft |

The summary reads "Add a NOT NULL column to a 200M-row table without locking it. Overcomes
LockNotAvailable (canceling statement due to lock timeout)." The signals are each error class the run
overcame and the start of its message ("canceling statement due to lock timeout"), then the task's
distinctive terms (`distinctive_terms`): identifiers and ALL-CAPS keywords (`not null`, `sys.path`),
else pairs of adjacent content words (`http client`), else content words of 7 letters or more; never a
stop word, a generic verb or a bare number.

plus `model_name` (the producer model), `anti_patterns` (the merged guards, one guard entry each,
app/gep/document.py) and `generation_meta` (`source`: `draft` or `distilled`, the task id,
`overcame_errors`: the error classes of the run's failed steps and verifier, in order,
`psycopg.errors.LockNotAvailable` included), which `GeneDocument` moves out of the hashed document
into the version's `generation_meta` column.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from app.evolution.extraction import errors_of, shorten, squash
from app.gep.document import SHELL_OPERATORS, with_guards

SCHEMA_VERSION = "1.13.0"
DEFAULT_CONSTRAINTS: dict[str, Any] = {"max_files": 10, "forbidden_paths": [".git"]}
_WORD = re.compile(r"[a-z0-9]+")
_STOPWORDS_TEXT = (
    "a an and are as at be by for from has have in into is it its make makes of on or so that the "
    "their them then this to was were when which while with without"
)
_STOPWORDS = frozenset(_STOPWORDS_TEXT.split())
# Words too common in task descriptions to say what a task is about (on top of the stop words).
_GENERIC_TEXT = (
    "add adds added all also any able back both can could does doing done each every few find fix fixes "
    "fixing get gets given how if implement keep make making many more most must new no nor not one only "
    "other others our out over pass passes passing run runs same should small some such task tasks test "
    "tests than too two under up use used uses using way ways what whether who will work works would "
    "write code file files data value values number numbers result results ensure create without within "
    "existing current there these those very just need needs needed cause caused causes causing"
)
_GENERIC = _STOPWORDS | frozenset(_GENERIC_TEXT.split())
_TERM = re.compile(r"[A-Za-z0-9][\w.\-/]*[\w]|[A-Za-z]")
_CODE_LIKE = re.compile(r"[a-z][A-Z]|\w[_.]\w|^[A-Z]{3,}$")
_ID_DIGITS = re.compile(r"\d{3,}")
_MESSAGE_CUT = re.compile(r"[(<\[{:'\"=;,]")


class NothingToDistil(ValueError):
    """The trajectory holds nothing a Gene could be made of."""


def _words(text: str) -> list[str]:
    return [w for w in _WORD.findall(text.lower()) if w not in _STOPWORDS]


def _content(token: str) -> bool:
    return (
        token.lower() not in _GENERIC
        and not token[0].isdigit()
        and len(token) >= 3
        and not _ID_DIGITS.search(token)
    )


def distinctive_terms(description: str, limit: int = 4) -> list[str]:
    """The task's distinctive terms, lower case (signals match case-insensitively): identifiers and
    ALL-CAPS keywords first (consecutive ones joined: "NOT NULL"), then pairs of adjacent content
    words, and only without either, content words of 7 letters or more. No stop word, no generic
    verb, no bare number (nor a token that starts with a digit, "200M-row")."""
    tokens = _TERM.findall(description)
    terms: list[str] = []
    used: set[int] = set()
    index = 0
    while index < len(tokens):
        token = tokens[index]
        if token[0].isdigit() or _ID_DIGITS.search(token) or not _CODE_LIKE.search(token):
            index += 1
            continue
        run = [index]
        while (
            token.isupper()
            and run[-1] + 1 < len(tokens)
            and tokens[run[-1] + 1].isupper()
            and not tokens[run[-1] + 1][0].isdigit()
        ):
            run.append(run[-1] + 1)
        if token.isupper() and len(run) == 1 and (len(token) < 5 or not _content(token)):
            index += 1
            continue
        terms.append(" ".join(tokens[i] for i in run).lower())
        used.update(run)
        index = run[-1] + 1
    for index in range(len(tokens) - 1):
        if index in used or index + 1 in used:
            continue
        first, second = tokens[index], tokens[index + 1]
        if _content(first) and _content(second):
            terms.append(f"{first} {second}".lower())
            used.update((index, index + 1))
    if not terms:
        terms = [t.lower() for t in tokens if _content(t) and len(t) >= 7][:2]
    return list(dict.fromkeys(terms))[:limit]


def _message_phrase(message: str) -> str | None:
    """The distinctive start of an error message ("canceling statement due to lock timeout"), or None."""
    phrase = _MESSAGE_CUT.split(message, maxsplit=1)[0].strip(" .-")
    words = phrase.split()
    if len(phrase) > 60:
        phrase = phrase[:60].rsplit(" ", 1)[0]
        words = phrase.split()
    if (len(words) >= 2 and len(phrase) >= 10) or (len(words) == 1 and len(phrase) >= 12):
        return phrase.lower()
    return None


def _summary(description: str, errors: Sequence[tuple[str, str]], task_id: str) -> str:
    """A sentence about the problem: the task as a sentence, then what it overcame."""
    text = squash(description)
    phrases = [(cls, _message_phrase(msg)) for cls, msg in errors[:2]]
    overcame = "; ".join(f"{cls} ({phrase})" if phrase else cls for cls, phrase in phrases)
    if len(text.split()) < 4 or text == task_id:
        sentence = f"Overcomes {overcame}." if overcame else f"Solves task {text}."
        return shorten(sentence, 300)
    sentence = text[0].upper() + text[1:]
    if sentence[-1] not in ".!?":
        sentence += "."
    if overcame:
        sentence = f"{sentence} Overcomes {shorten(overcame, max(40, 280 - len(sentence)))}."
    return shorten(sentence, 300)


def founding_signals(description: str, errors: Sequence[tuple[str, str]]) -> list[str]:
    """signals_match for a founded Gene: the errors overcome (class, message phrase), then task terms."""
    signals: list[str] = []
    for error_class, message in errors:
        signals.append(error_class)
        phrase = _message_phrase(message)
        if phrase:
            signals.append(phrase)
    signals.extend(distinctive_terms(description))
    return list(dict.fromkeys(signals))


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
    overcame = errors_of(steps, verifier)
    errors = [error_class for error_class, _ in overcame]
    strategy = list(draft.get("strategy") or _distilled_strategy(steps))
    if not strategy:
        raise NothingToDistil("the trajectory has no successful step or correction to distil a strategy from")
    signals = list(draft.get("signals_match") or founding_signals(description, overcame))
    if not signals:
        raise NothingToDistil("the trajectory names no signal and its task description has no content words")
    failed_steps = any(not s.get("ok") for s in steps)
    document: dict[str, Any] = {
        "type": "Gene",
        "schema_version": SCHEMA_VERSION,
        "id": gene_id,
        "category": draft.get("category") or ("repair" if failed_steps else "innovate"),
        "summary": draft.get("summary") or _summary(description, overcame, task_id),
        "signals_match": signals[:32],
        "strategy": strategy,
        "constraints": draft.get("constraints") or dict(DEFAULT_CONSTRAINTS),
        "validation": list(draft.get("validation") or _validation(verifier)),
        "model_name": producer_model,
    }
    if draft.get("preconditions"):
        document["preconditions"] = list(draft["preconditions"])
    document = with_guards(document, avoid)
    meta: dict[str, Any] = {"source": "draft" if draft.get("strategy") else "distilled", "task_id": task_id}
    if errors:
        meta["overcame_errors"] = errors
    document["generation_meta"] = meta
    return document
