"""What every admin page family shares: the not-found error, offset pages, action results, the audit.

The pages are split by family (`dashboard`, `genes`, `producers`, `trajectories`, `activity`), each a
`service.py` (what a page shows, assembled from the domain services; never commits) beside a
`repository.py` (the admin's own SQL). The one statement they share, the session key's lookup, is in
`app/admin/repository.py`.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeAlias

from sqlalchemy import Row
from sqlalchemy.ext.asyncio import AsyncSession

from app.auth.principal import Principal
from app.auth.service import key_service
from app.errors import NotFound

# A row of any shape (several columns and entities).
AnyRow: TypeAlias = Row[*tuple[Any, ...]]
# A route's path by name and parameters (the router's url()), for links the services build.
Href = Callable[..., str]
# Admin pages show this many rows a page unless ?limit= asks otherwise (capped by the settings).
PAGE_SIZE = 25
REASON_MIN, REASON_MAX = 3, 1000


class AdminNotFound(NotFound):
    code = "not-found"
    title = "Not found"


@dataclass(frozen=True)
class Page:
    """Offset pagination for sortable tables."""

    number: int
    size: int
    total: int

    @property
    def pages(self) -> int:
        return max(1, math.ceil(self.total / self.size))

    @property
    def offset(self) -> int:
        return (self.number - 1) * self.size


@dataclass
class ActionResult:
    ok: bool
    message: str


def pretty_json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2, sort_keys=True)


async def audit_action(
    session: AsyncSession,
    principal: Principal,
    action: str,
    target: str | None,
    *,
    client: str | None,
    path: str,
    status: int,
    detail: dict[str, Any] | None = None,
) -> None:
    """An admin-page action in the API's audit log (the access middleware leaves /admin to us)."""
    await key_service.audit(
        session,
        principal,
        action,
        target,
        client=client,
        method="POST",
        path=path,
        status=status,
        detail=detail,
    )
