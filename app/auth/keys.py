"""API keys: `gb_<prefix>_<secret>`. The public prefix finds the row; only sha256(key) is stored."""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass

_KEY = re.compile(r"^gb_([A-Za-z0-9]{12})_([A-Za-z0-9_-]{32,64})$")


@dataclass(frozen=True)
class NewKey:
    prefix: str
    secret: str

    @property
    def token(self) -> str:
        return f"gb_{self.prefix}_{self.secret}"

    @property
    def digest(self) -> str:
        return digest(self.token)


def generate() -> NewKey:
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
    prefix = "".join(secrets.choice(alphabet) for _ in range(12))
    return NewKey(prefix=prefix, secret=secrets.token_urlsafe(32))


def parse(token: str) -> NewKey | None:
    """A well-formed key (e.g. one an operator provisioned for the first start), or None."""
    match = _KEY.match(token)
    return NewKey(prefix=match.group(1), secret=match.group(2)) if match else None


def digest(token: str) -> str:
    # Keys carry 256 random bits: a fast hash is enough (no dictionary to defend against).
    return hashlib.sha256(token.encode()).hexdigest()


def prefix_of(token: str) -> str | None:
    match = _KEY.match(token)
    return match.group(1) if match else None


def matches(token: str, stored_digest: str) -> bool:
    return hmac.compare_digest(digest(token), stored_digest)
