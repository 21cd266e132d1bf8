"""Secret redaction for everything a producer sends in a trajectory.

Trajectories are agent logs: they carry API keys pasted into commands, tokens echoed in HTTP traces,
database URLs with passwords, private keys dumped by a misconfigured tool. Whatever a trajectory holds
may end up in a Gene that every consumer reads, so secrets are replaced before the trajectory is
stored or hashed. (Hashing after redaction also makes two runs that differ only in a rotated key the
same content.)

The patterns favour recall on well-known token formats and stay conservative on free text: a
`key=value` pair is redacted only when the key names a secret (password, token, api_key, ...).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

REDACTED = "[REDACTED]"

_SENSITIVE_NAMES = (
    r"(?:[A-Za-z0-9_.-]*[_.-])?"
    r"(?:pass(?:word|wd|phrase)?|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key"
    r"|client[_-]?secret|auth[_-]?token|session[_-]?id|credentials?)"
    r"(?:[_.-]?(?:key|token|value|id|secret))?"
)


@dataclass(frozen=True)
class _Rule:
    name: str
    pattern: re.Pattern[str]
    # Replaces the whole match by default; a rule may keep a prefix (the key, "Bearer ", the user).
    replace: Callable[[re.Match[str]], str] | None = None


def _keep_group(group: str) -> Callable[[re.Match[str]], str]:
    def replace(match: re.Match[str]) -> str:
        return match.group(group) + REDACTED

    return replace


def _keep_around(match: re.Match[str]) -> str:
    return match.group("head") + REDACTED + match.group("tail")


# Order matters: multi-line and structured forms first, so a PEM block or a URL is redacted whole
# before the narrower token rules look inside it.
_RULES: tuple[_Rule, ...] = (
    _Rule(
        "private_key",
        re.compile(
            r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----.*?"
            r"(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|\Z)",
            re.DOTALL,
        ),
    ),
    _Rule(
        "url_password",
        re.compile(r"(?P<head>\b[a-zA-Z][a-zA-Z0-9+.-]*://[^\s:/@'\"]*:)(?P<secret>[^\s@/'\"]+)(?P<tail>@)"),
        _keep_around,
    ),
    _Rule(
        "authorization",
        re.compile(r"(?P<head>\b(?:Bearer|Basic|Token|Bot)\s+)[A-Za-z0-9._~+/=-]{8,}", re.IGNORECASE),
        _keep_group("head"),
    ),
    _Rule("jwt", re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}")),
    # OpenAI, Anthropic and similar "sk-..." keys (sk-proj-..., sk-ant-api03-...).
    _Rule("sk_key", re.compile(r"\bsk-[A-Za-z0-9_-]{16,}")),
    _Rule("stripe_key", re.compile(r"\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}")),
    _Rule("github_token", re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})")),
    _Rule("gitlab_token", re.compile(r"\bglpat-[A-Za-z0-9_-]{20,}")),
    _Rule("slack_token", re.compile(r"\bxox[abposr]-[A-Za-z0-9-]{10,}")),
    _Rule("aws_access_key", re.compile(r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA)[0-9A-Z]{16}\b")),
    _Rule("google_api_key", re.compile(r"\bAIza[0-9A-Za-z_-]{35}")),
    _Rule("huggingface_token", re.compile(r"\bhf_[A-Za-z0-9]{30,}")),
    _Rule("npm_token", re.compile(r"\bnpm_[A-Za-z0-9]{36}")),
    # password=..., "api_key": "...", AWS_SECRET_ACCESS_KEY=..., --password ... (value up to a delimiter).
    _Rule(
        "key_value",
        re.compile(
            r"(?P<head>(?P<quote>[\"']?)\b" + _SENSITIVE_NAMES + r"(?P=quote)\s*(?:[:=]|=>)\s*[\"']?)"
            r"(?!\[REDACTED\])(?P<secret>[^\s\"',;&}\]]{3,})",
            re.IGNORECASE,
        ),
        _keep_group("head"),
    ),
    _Rule(
        "secret_flag",
        re.compile(
            r"(?P<head>--(?:password|passwd|token|api-key|secret|client-secret)[ =][\"']?)"
            r"(?!\[REDACTED\])[^\s\"']{3,}",
            re.IGNORECASE,
        ),
        _keep_group("head"),
    ),
)


class Redactor:
    """Redacts strings and JSON values, counting every secret replaced."""

    def __init__(self) -> None:
        self.count = 0
        self.kinds: dict[str, int] = {}

    def text(self, value: str) -> str:
        for rule in _RULES:
            value, replaced = rule.pattern.subn(rule.replace or REDACTED, value)
            if replaced:
                self.count += replaced
                self.kinds[rule.name] = self.kinds.get(rule.name, 0) + replaced
        return value

    def json(self, value: Any) -> Any:
        """A copy of a JSON value with every string (keys excepted) redacted."""
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, list):
            return [self.json(item) for item in value]
        if isinstance(value, dict):
            return {key: self.json(item) for key, item in value.items()}
        return value


def redact(text: str) -> tuple[str, int]:
    """`text` with its secrets replaced by [REDACTED], and how many were replaced."""
    redactor = Redactor()
    return redactor.text(text), redactor.count
