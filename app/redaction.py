"""Secret redaction for everything a client sends that other people will read.

Trajectories are agent logs: they carry API keys pasted into commands, tokens echoed in HTTP traces,
database URLs with passwords, private keys dumped by a misconfigured tool. Whatever a trajectory holds
may end up in a Gene that every consumer reads, so secrets are replaced before the trajectory is
stored or hashed. (Hashing after redaction also makes two runs that differ only in a rotated key the
same content.)

Linear time. Every rule is an RE2 expression (no backreferences, no lookaround), so one scan is linear
in the text. RE2 alone does not make a *sequence* of scans linear: `finditer` restarts after each
match, and a rule whose preferred alternative can run far before failing and falling back to a short
match (`a+b|a` over "aaaa...") rescans the same text for every match. The rules are written so that a
thread that is still alive is either the match being extended or is bounded (`{0,40}`, `{1,256}`)
or is cut at the next quote or newline; tests/test_redaction.py checks the growth on each rule's own
alphabet repeated (4x the input may cost at most ~8x the time) and a fixed budget (1 MB of
"a-a-a-..." well under a second). What Python `re` did with lookaheads (`(?!\\[REDACTED\\])`, "not
hex") is done after the match: a rule may carry a `check` on the captured value, and spans that fall
inside an existing [REDACTED] are dropped, which keeps redaction idempotent.

One pass, then one rewrite. Each rule reports the span of its secret (the whole match, or the group
named `secret`: a rule keeps the key of `password=...`, the user of `curl -u user:pass`, the scheme of
`Bearer ...`); overlapping and touching spans merge, so a PEM block or a URL counts once whatever
narrower rule also fires inside it. `count` is the number of merged spans; `kinds` attributes each to
the first rule (in `_RULES` order) that starts it.

Recall first on well-known token formats; conservative on free text: a `key=value` pair is redacted
only when the key names a secret (password, token, api_key, ...), and a value that is code (a call,
a subscript, `settings.SECRET_KEY`, `${VAR}`, `None`) is left alone. `Redactor.json` redacts dict
keys as well as values, and a string value whose key names a secret is redacted whole.

detect-secrets' token-format plugins that the rules here do not already cover (Mailchimp, Square,
Twilio, Artifactory, ...) are compiled with RE2 and run as rules too. Its keyword and entropy plugins
are not used: on the planted-secret corpus they flag 174 of 180 clean samples (hex entropy fires on
asset ids, git SHAs and digests), and its keyword regex backtracks quadratically (16 KB of
"passwordpassword..." takes 26 s, "secret_secret_..." 29 s).

Before the per-rule scans, one RE2 scan of all rules joined (without captures, so RE2 answers from
its DFA) says whether any rule can match at all; most strings, and adversarial text that matches
nothing, stop there (a short string costs ~4 us instead of ~40 us).

Figures (`bench/redaction.py`, 2-core machine shared with other work, 1 MB, median of 5 runs; the
baselines run on the same bytes in the same run; MB/s):

    text                                          redact  str.lower()  one RE2 scan
    ordinary agent-log text (clean corpus)          10.0         3706           179
    agent-log text with secrets (3,948 in 1 MB)      5.8         3569           423
    a-a-a-                                         468.8         3622           664
    password=password=                               7.5         2970           643
    passwordpassword                               441.4         3630           651
    password="x  (41,666 matches)                    2.7         3529           645
    key characters (random run)                    122.6         3394           648
    nested quotes                                  536.6         3609           667
    curl -u a:b  (41,667 matches)                    4.0         3551           638
    -----BEGIN PRIVATE KEY----- (unclosed)          10.8         2689           669

The machine was loaded (the RE2 baseline on ordinary text ran at 179 MB/s against ~680 otherwise;
an earlier, quieter run gave 18.8 MB/s on ordinary text). Every shape stays above 2 MB/s, so 1 MB
costs well under a second; what remains is ~1.5 ms per MB per rule that can match, and ~10 us per
match in RE2's Python wrapper (the 41,666-match shapes).

    planted-secret corpus (294 secrets, 180 clean)   caught  flagged  FP clean samples  FP spans
    Genebank rules                                    95.9%    95.9%          0 of 180         0
    detect-secrets, all default plugins               88.8%    98.0%        174 of 180      1939
    detect-secrets, token-format plugins only         35.7%    57.1%          0 of 180         0
    union of Genebank and all of detect-secrets       99.3%   100.0%        174 of 180      1939

The 12 secrets Genebank misses are the corpus' deliberately hard kinds (a password in prose, a random
secret under a name that says nothing); detect-secrets' entropy plugin catches them at the cost of
the false positives above. The corpus and these rules were written together: on text unlike it,
expect lower recall.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import re2

REDACTED = "[REDACTED]"


def _compile(pattern: str) -> Any:
    options = re2.Options()
    options.log_errors = False
    # The DFA cache; when it fills RE2 falls back to its NFA, slower but still linear.
    options.max_mem = 32 << 20
    return re2.compile(pattern, options)


@dataclass(frozen=True)
class _Rule:
    name: str
    pattern: str
    # A cheap necessary substring of the lowercased text; a rule whose hint is absent is not run.
    hint: str | tuple[str, ...] | None = None
    # Accepts or rejects the captured secret (what a lookahead would have said in Python `re`).
    check: Callable[[str], bool] | None = None
    # Accepts or rejects it in its context: (text, start, end) of the secret.
    context: Callable[[str, int, int], bool] | None = None
    # Capture groups holding the secret, first participating one wins; none: the whole match.
    groups: tuple[str, ...] = ("secret",)
    # Any capture group holds the secret (detect-secrets' convention), the first participating one.
    any_group: bool = False
    # Delimiters a pattern matches around its secret (detect-secrets' `(?:\s|=|:|"|^)`), given back.
    trim: str = ""
    regex: Any = field(init=False, repr=False, compare=False)
    indices: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        regex = _compile(self.pattern)
        named = regex.groupindex
        object.__setattr__(self, "regex", regex)
        indices = (
            tuple(range(1, regex.groups + 1))
            if self.any_group
            else tuple(named[g] for g in self.groups if g in named)
        )
        object.__setattr__(self, "indices", indices)


_HEX = frozenset("0123456789abcdefABCDEF")
_PLACEHOLDERS = frozenset(
    {"none", "null", "nil", "true", "false", "undefined", "str", "string", "int", "bytes", "bool",
     "optional", "required", "redacted", "hidden", "masked", "secret", "password", "token"}
)  # fmt: skip
_CODE_PREFIXES = ("$", "{{", "%(", "<", "os.", "process.env", "env.", "getenv", "settings.", "config.")


def _dotted_name(value: str) -> bool:
    parts = value.split(".")
    return len(parts) > 1 and all(part.replace("_", "a").isalpha() and part.isascii() for part in parts)


def _is_value(value: str) -> bool:
    """False for what is code or a placeholder rather than a secret value."""
    lowered = value.lower()
    if lowered in _PLACEHOLDERS or lowered.startswith(_CODE_PREFIXES):
        return False
    if "${" in value or "{{" in value:
        # A template (`changeme-${ENV}`, `{{ vault_password }}`) is filled in elsewhere.
        return False
    if "(" in value or ")" in value or "[" in value:
        return False
    if set(value) <= {"*", "x", "X", ".", "-", "_"}:
        return False
    # `settings.SECRET_KEY`, `request.form`: an attribute chain without a digit is a reference.
    return not _dotted_name(value)


_PROSE_NEXT = re.compile(r"[ \t]+[a-z]")


def _not_prose(text: str, start: int, end: int) -> bool:
    """False for an English sentence that runs on through a colon after a secret's name.

    "Do not commit build directories to make it pass: they go stale" and "Do not combine
    Access-Control-Allow-Origin: * with credentials: browsers reject it" name no secret: the "value"
    is a lowercase word after `name:` and the sentence goes on with another lowercase word. A
    `password=letters`, a quoted value, or a value with a digit, a capital or a symbol is still a
    secret, and so is a lowercase word that ends its line or clause ("password: letmein").
    """
    value = text[start:end]
    if not (value.isascii() and value.isalpha() and value.islower()):
        return True
    if not text[:start].rstrip(" \t").endswith(":"):
        return True
    return _PROSE_NEXT.match(text, end) is None


def _has_digit(value: str) -> bool:
    return any(c.isdigit() for c in value)


def _credential_like(value: str) -> bool:
    """After "Bearer"/"Token": a digit or, when long, mixed case ("Token expiration" has neither)."""
    if not _is_value(value):
        return False
    if _has_digit(value):
        return True
    return len(value) >= 20 and any(c.isupper() for c in value) and any(c.islower() for c in value)


def _aws_secret_like(value: str) -> bool:
    # 40 hex digits is a git SHA or a SHA-1, never an AWS secret key (base64 of 30 random bytes).
    if set(value) <= _HEX:
        return False
    return any(c.isupper() for c in value) and any(c.islower() for c in value)


_SENSITIVE_NAMES = (
    r"pass(?:word|wd|phrase)?|pwd|pgpassword|secret|token|api[_-]?key|apikey|access[_-]?key"
    r"|secret[_-]?access[_-]?key|private[_-]?key|client[_-]?secret|auth[_-]?(?:token|key)"
    r"|access[_-]?token|refresh[_-]?token|session[_-]?(?:id|token)|credentials?|account[_-]?key"
    r"|signing[_-]?key|encryption[_-]?key|master[_-]?key"
)
_NAME_SUFFIX = r"(?:[_.-]?(?:key|token|value|id|secret))?"
_SECRET_NAME = _compile(r"(?i)(?:[A-Za-z0-9]*[_.-])?(?:" + _SENSITIVE_NAMES + r")" + _NAME_SUFFIX)

# A word made of token characters, ended by anything else or the end of the text (RE2 has no
# lookahead; the terminator is outside the captured group).
_END = r"(?:[^A-Za-z0-9_-]|\z)"

_RULES: tuple[_Rule, ...] = (
    _Rule(
        "private_key",
        # Up to its END line or, cut off, to the end of the text: better too much than half a key.
        r"(?s)(?P<secret>-{4,5} ?BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)? ?-{4,5}.*?"
        r"(?:-{4,5} ?END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)? ?-{4,5}|\z))",
        hint="private key",
    ),
    _Rule(
        "url_password",
        r"\b[a-zA-Z][a-zA-Z0-9+.-]*://[^\s:/@'\"]*:(?P<secret>[^\s@/'\"]+)@",
        hint="://",
    ),
    _Rule(
        "authorization",
        r"(?i)\b(?:proxy-)?authorization\\?[\"']?[ \t]*[:=][ \t]*\\?[\"']?"
        r"(?:(?:bearer|basic|token|bot|apikey|sso-key)[ \t]+)?(?P<secret>[^\s\"'\\,;]{8,})",
        hint="authorization",
        check=_is_value,
    ),
    _Rule(
        "bearer",
        r"\b(?:[Bb]earer|BEARER|[Bb]asic|BASIC|[Tt]oken|TOKEN|Bot)[ \t]+(?P<secret>[A-Za-z0-9._~+/=-]{8,})",
        check=_credential_like,
    ),
    _Rule("jwt", r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}", hint="eyj"),
    # OpenAI, Anthropic and similar "sk-..." keys (sk-proj-..., sk-ant-api03-...).
    _Rule("sk_key", r"\bsk-[A-Za-z0-9_-]{16,}", hint="sk-"),
    _Rule("stripe_key", r"\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}", hint=("_live_", "_test_")),
    _Rule("github_token", r"\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})", hint="_"),
    _Rule(
        "gitlab_token",
        r"\b(?:gl(?:pat|dt|ft|soat|rt|cbt|imt|ptt|agent|oas)-|GR1348941)[A-Za-z0-9_-]{20,}",
        hint=("gl", "gr1348941"),
    ),
    _Rule("slack_token", r"\b(?:xox[abposre]|xapp)-[A-Za-z0-9-]{10,}", hint=("xox", "xapp-")),
    _Rule(
        "slack_webhook",
        r"hooks\.slack\.com/(?:services|workflows|triggers)/(?P<secret>[A-Za-z0-9_/-]{20,})",
        hint="hooks.slack.com",
    ),
    _Rule(
        "aws_access_key",
        r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ABIA|ACCA|A3T[A-Z0-9])[0-9A-Z]{16}\b",
        hint="a",
    ),
    _Rule(
        "aws_secret_key",
        # 40 characters of base64 within 40 of "aws" or "secret" on the same line.
        r"(?i)(?:aws|secret)[^\n]{0,40}?[^A-Za-z0-9/+](?P<secret>[A-Za-z0-9/+]{40})(?:[^A-Za-z0-9/+=]|\z)",
        hint=("aws", "secret"),
        check=_aws_secret_like,
    ),
    _Rule("google_api_key", r"\bAIza[0-9A-Za-z_-]{35}", hint="aiza"),
    _Rule("huggingface_token", r"\bhf_[A-Za-z0-9]{30,}", hint="hf_"),
    _Rule("npm_token", r"\bnpm_[A-Za-z0-9]{36}", hint="npm_"),
    _Rule("pypi_token", r"\bpypi-AgE[A-Za-z0-9_-]{50,}", hint="pypi-"),
    _Rule("genebank_key", r"\bgb_[A-Za-z0-9]{12}_[A-Za-z0-9_-]{32,}", hint="gb_"),
    _Rule("sendgrid_key", r"\bSG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43,}", hint="sg."),
    _Rule(
        "azure_storage_key",
        r"(?i)(?:\b(?:AccountKey|SharedAccessKey)[ \t]*=[ \t]*|[?&]sig=)(?P<secret>[A-Za-z0-9%+/=]{20,})",
        hint=("key", "sig="),
    ),
    _Rule(
        "discord_bot_token",
        r"(?:\b|_)(?P<secret>[MNO][A-Za-z0-9_-]{23,25}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,})",
        hint=".",
    ),
    _Rule(
        "discord_webhook",
        r"discord(?:app)?\.com/api/(?:v\d+/)?webhooks/\d+/(?P<secret>[A-Za-z0-9_-]{20,})",
        hint="webhooks/",
    ),
    _Rule(
        "telegram_bot_token",
        r"(?:\b|bot)(?P<secret>\d{5,16}:A[A-Za-z0-9_-]{34})" + _END,
        hint=":a",
    ),
    # mysql -uroot -pS3cret (the password glued to -p; "-p" alone prompts, "-P" is the port).
    _Rule(
        "mysql_password",
        r"\bmysql(?:dump|admin|sh|import|check|slap|binlog|pump)?(?:[ \t][^\n|;&]*?)?[ \t]"
        r"-p[\"']?(?P<secret>[^\s\"']+)",
        hint="mysql",
    ),
    # curl -u user:password keeps the user.
    _Rule(
        "curl_user",
        r"\bcurl(?:[ \t][^\n|;&]*?)?[ \t](?:-u|--user)(?:[ \t]+|=)?[\"']?[^\s:\"']*:(?P<secret>[^\s\"']+)",
        hint="curl",
    ),
    # password=..., "api_key": "...", AWS_SECRET_ACCESS_KEY=..., PGPASSWORD=..., MYSQL_PWD=...
    _Rule(
        "key_value",
        r"(?i)(?:\b|_)(?:" + _SENSITIVE_NAMES + r")" + _NAME_SUFFIX + r"\\?[\"']?[ \t]*(?:=>|:=|[:=])[ \t]*"
        r"(?:\\?\"(?P<dq>[^\"\\\r\n]{1,256})\\?\"|'(?P<sq>[^'\r\n]{1,256})'"
        r"|[\"']?(?P<bare>[^\s\"',;&}\]]{3,}))",
        groups=("dq", "sq", "bare"),
        check=_is_value,
        context=_not_prose,
    ),
    _Rule(
        "secret_flag",
        r"(?i)--(?:password|passwd|token|api-key|apikey|secret|client-secret|access-token|auth-token)"
        r"(?:[ \t]+|=)[\"']?(?P<secret>[^\s\"']{3,})",
        hint="--",
        check=_is_value,
    ),
)


# detect-secrets' token-format plugins whose secrets the rules above already redact (and measure:
# bench/redaction.py). PrivateKeyDetector names only the BEGIN line; the rule above takes the block.
_OWN_FORMATS = frozenset(
    {
        "AWSKeyDetector", "AzureStorageKeyDetector", "BasicAuthDetector", "DiscordBotTokenDetector",
        "GitHubTokenDetector", "GitLabTokenDetector", "JwtTokenDetector", "NpmDetector", "OpenAIDetector",
        "PrivateKeyDetector", "PypiTokenDetector", "SendGridDetector", "SlackDetector", "StripeDetector",
        "TelegramBotTokenDetector", "IPPublicDetector",
    }
)  # fmt: skip


def _maintained_rules() -> tuple[_Rule, ...]:
    """detect-secrets' other token-format patterns (Mailchimp, Square, Twilio, Artifactory, ...), run by RE2.

    They come from the maintained package, so new formats arrive with its upgrades. A pattern RE2
    cannot run (lookbehind, as in its keyword-assignment forms) is skipped: RE2 keeps the scan
    linear, and tests/test_redaction.py times every rule, these included, on its own alphabet.
    """
    from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class
    from detect_secrets.plugins.base import RegexBasedDetector

    rules = []
    plugins: dict[str, type] = get_mapping_from_secret_type_to_class()
    for secret_type, plugin in sorted(plugins.items()):
        if not issubclass(plugin, RegexBasedDetector) or plugin.__name__ in _OWN_FORMATS:
            continue
        name = re.sub(r"[^a-z0-9]+", "_", secret_type.lower()).strip("_")
        patterns: tuple[re.Pattern[str], ...] = tuple(getattr(plugin, "denylist", ()))
        for pattern in patterns:
            if pattern.flags & re.VERBOSE:
                continue
            source = ("(?i)" if pattern.flags & re.IGNORECASE else "") + pattern.pattern
            try:
                rules.append(_Rule(name, source, any_group=True, trim=" \t\r\n=:\"'"))
            except re2.error:
                continue
    return tuple(rules)


_RULES = _RULES + _maintained_rules()


def _without_captures(pattern: str) -> str:
    """`pattern` with every capturing group made non-capturing (escapes and classes respected)."""
    out: list[str] = []
    index, in_class = 0, False
    while index < len(pattern):
        char = pattern[index]
        if char == "\\":
            out.append(pattern[index : index + 2])
            index += 2
            continue
        if in_class:
            in_class = char != "]" or pattern[index - 1] == "["
        elif char == "[":
            in_class = True
            if pattern.startswith("[^]", index) or pattern.startswith("[]", index):
                out.append(pattern[index : index + (3 if pattern[index + 1] == "^" else 2)])
                index += 3 if pattern[index + 1] == "^" else 2
                continue
        elif char == "(":
            if pattern.startswith("(?P<", index):
                out.append("(?:")
                index = pattern.index(">", index) + 1
                continue
            if not pattern.startswith("(?", index):
                out.append("(?:")
                index += 1
                continue
        out.append(char)
        index += 1
    return "".join(out)


# Every rule at once, without captures (so RE2 answers from its DFA alone): no match here means no
# rule matches anywhere, in one scan instead of one per rule; most strings hold no candidate at all.
_ANY_RULE = _compile("|".join("(?:" + _without_captures(rule.pattern) + ")" for rule in _RULES))


def _hinted(rule: _Rule, lowered: str) -> bool:
    if rule.hint is None:
        return True
    if isinstance(rule.hint, str):
        return rule.hint in lowered
    return any(hint in lowered for hint in rule.hint)


def _placeholders(text: str) -> list[tuple[int, int]]:
    found = []
    start = text.find(REDACTED)
    while start != -1:
        found.append((start, start + len(REDACTED)))
        start = text.find(REDACTED, start + len(REDACTED))
    return found


def _outside(span: tuple[int, int], holes: list[tuple[int, int]], text: str) -> list[tuple[int, int]]:
    """The parts of `span` outside the existing placeholders that still hold a letter or digit."""
    start, end = span
    pieces = []
    for hole_start, hole_end in holes:
        if hole_end <= start or hole_start >= end:
            continue
        if hole_start > start:
            pieces.append((start, hole_start))
        start = max(start, hole_end)
    if start < end:
        pieces.append((start, end))
    return [(a, b) for a, b in pieces if any(c.isalnum() for c in text[a:b])]


def find_secrets(text: str) -> list[tuple[int, int, str]]:
    """The merged (start, end, rule) spans of the secrets in `text`, in order."""
    lowered = text.lower()
    # On ASCII text byte offsets are character offsets, and RE2's wrapper skips its offset decoding.
    subject: str | bytes = text.encode() if text.isascii() else text
    if _ANY_RULE.search(subject) is None:
        return []
    found: list[tuple[int, int, int]] = []
    for order, rule in enumerate(_RULES):
        if not _hinted(rule, lowered):
            continue
        for match in rule.regex.finditer(subject):
            start, end = match.span()
            for index in rule.indices:
                if match.span(index)[0] != -1:
                    start, end = match.span(index)
                    break
            if rule.trim:
                while start < end and text[start] in rule.trim:
                    start += 1
                while end > start and text[end - 1] in rule.trim:
                    end -= 1
            if start >= end:
                continue
            if rule.check is not None and not rule.check(text[start:end]):
                continue
            if rule.context is not None and not rule.context(text, start, end):
                continue
            found.append((start, end, order))
    if not found:
        return []
    found.sort(key=lambda item: (item[0], item[2]))
    merged: list[list[int]] = []
    for start, end, order in found:
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end, order])
    holes = _placeholders(text)
    spans: list[tuple[int, int, str]] = []
    for start, end, order in merged:
        pieces = _outside((start, end), holes, text) if holes else [(start, end)]
        spans.extend((a, b, _RULES[order].name) for a, b in pieces)
    return spans


class Redactor:
    """Redacts strings and JSON values, counting every secret replaced."""

    def __init__(self) -> None:
        self.count = 0
        self.kinds: dict[str, int] = {}

    def _note(self, kind: str) -> None:
        self.count += 1
        self.kinds[kind] = self.kinds.get(kind, 0) + 1

    def text(self, value: str) -> str:
        spans = find_secrets(value)
        if not spans:
            return value
        pieces = []
        last = 0
        for start, end, kind in spans:
            pieces.append(value[last:start])
            pieces.append(REDACTED)
            last = end
            self._note(kind)
        pieces.append(value[last:])
        return "".join(pieces)

    def json(self, value: Any) -> Any:
        """A copy of a JSON value with every string redacted, dict keys included.

        A string whose key names a secret ("password", "private_key_id", "OPENAI_API_KEY") is
        replaced whole, as the same pair written `key=value` in text would be.
        """
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, list):
            return [self.json(item) for item in value]
        if isinstance(value, dict):
            result: dict[Any, Any] = {}
            for key, item in value.items():
                new_key = self.text(key) if isinstance(key, str) else key
                if new_key in result:
                    # Two keys redacted to the same text must not lose a value.
                    suffix = 2
                    while f"{new_key} ({suffix})" in result:
                        suffix += 1
                    new_key = f"{new_key} ({suffix})"
                if isinstance(key, str) and isinstance(item, str) and self._secret_pair(key, item):
                    self._note("key_value")
                    result[new_key] = REDACTED
                else:
                    result[new_key] = self.json(item)
            return result
        return value

    @staticmethod
    def _secret_pair(key: str, item: str) -> bool:
        # The key's name first: it is short, and most keys name no secret, so a long value is
        # seldom looked at.
        if _SECRET_NAME.fullmatch(key) is None:
            return False
        return len(item) >= 3 and item != REDACTED and _is_value(item)


def redact(text: str) -> tuple[str, int]:
    """`text` with its secrets replaced by [REDACTED], and how many were replaced."""
    redactor = Redactor()
    return redactor.text(text), redactor.count
