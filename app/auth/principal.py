"""Who is calling: a key with a role, or nobody."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from enum import IntEnum


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

    @property
    def authenticated(self) -> bool:
        return self.key_id is not None

    def at_least(self, role: Role) -> bool:
        return self.role >= role


ANONYMOUS = Principal(key_id=None, name="anonymous", role=Role.anonymous)
