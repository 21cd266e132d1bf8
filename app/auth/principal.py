"""Who is calling: a key with a role, or nobody."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from enum import IntEnum

from app.models.api_key import SYSTEM_KEY_ID, SYSTEM_KEY_NAME


class Role(IntEnum):
    """Ordered: every role may do what the roles below it may."""

    anonymous = 0
    consumer = 1
    producer = 2
    admin = 3


@dataclass(frozen=True)
class Principal:
    key_id: uuid.UUID | None
    name: str
    role: Role
    # The consumer model a key is bound to: its outcome reports may name no other.
    consumer_model: str | None = None

    @property
    def authenticated(self) -> bool:
        return self.key_id is not None

    def at_least(self, role: Role) -> bool:
        return self.role >= role


ANONYMOUS = Principal(key_id=None, name="anonymous", role=Role.anonymous)
# The command line (demo, loaders, key management, benchmarks): a named key that owns what it writes.
SYSTEM = Principal(key_id=SYSTEM_KEY_ID, name=SYSTEM_KEY_NAME, role=Role.admin)
