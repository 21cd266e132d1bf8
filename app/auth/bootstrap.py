"""The first start of the embedded default: one admin key, printed once."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.auth.principal import SYSTEM, Role
from app.auth.service import key_service


async def first_admin_key(sessionmaker: async_sessionmaker[AsyncSession]) -> str | None:
    """Create an admin key when the registry has no active key at all; its token, or None."""
    async with sessionmaker.begin() as session:
        if await key_service.has_keys(session):
            return None
        created = await key_service.create(session, name="initial admin", role=Role.admin, created_by=None)
        await key_service.audit(session, SYSTEM, "create_key", str(created.key.id))
        return created.token


def announce(token: str) -> None:
    # Printed, never logged: this is the only time the key exists outside its hash.
    print(
        "\n  The registry's first admin key (shown this once; keep it, e.g. in GENEBANK_KEY):\n"
        f"\n      {token}\n\n  Create more with `genebank keys create --role producer --name …`.\n",
        flush=True,
    )
