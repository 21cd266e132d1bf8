"""The first admin key of an empty registry.

- `GENEBANK_BOOTSTRAP_ADMIN_KEY_FILE` set (unattended deployments): the key is read from that file if
  it exists (an operator may provision one: `gb_<12 letters or digits>_<32-64 URL-safe characters>`),
  else generated and written there with mode 0600; either way it is never printed. A file others can
  read, or one that holds no well-formed key, stops the start-up with an error naming it.
- Unset, on the embedded database (`make run`): generated and printed once, on the very first start.
- Unset, on an external database: nothing is printed, ever; the log says how to make the first key
  (`genebank keys create --role admin --name …`, e.g. through `docker-compose exec api`).

Once any active key exists, none of this happens and the file is not touched. Processes starting
together on an empty registry make one key (a transaction-level advisory lock).
"""

from __future__ import annotations

import asyncio
import logging

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.auth.keys import NewKey, generate, parse
from app.auth.principal import SYSTEM, Role
from app.auth.repository import KeyRepository
from app.auth.service import key_service
from app.config import Settings
from app.private_file import PrivateFileError, read_or_create

log = logging.getLogger(__name__)


class BootstrapKeyError(PrivateFileError):
    pass


async def first_admin_key(
    sessionmaker: async_sessionmaker[AsyncSession], new: NewKey | None = None
) -> str | None:
    """Create an admin key when the registry has no active key at all; its token, or None."""
    async with sessionmaker.begin() as session:
        await KeyRepository(session).lock_bootstrap()
        if await key_service.has_keys(session):
            return None
        created = await key_service.create(
            session, name="initial admin", role=Role.admin, created_by=None, new=new
        )
        await key_service.audit(session, SYSTEM, "create_key", str(created.key.id))
        return created.token


async def _has_keys(sessionmaker: async_sessionmaker[AsyncSession]) -> bool:
    async with sessionmaker() as session:
        return await key_service.has_keys(session)


def _key_from_file(settings: Settings) -> tuple[NewKey, bool]:
    path = settings.bootstrap_admin_key_file
    assert path is not None
    try:
        token, written = read_or_create(path, lambda: generate().token)
    except PrivateFileError as error:
        raise BootstrapKeyError(f"GENEBANK_BOOTSTRAP_ADMIN_KEY_FILE: {error}") from None
    new = parse(token)
    if new is None:
        raise BootstrapKeyError(
            f"GENEBANK_BOOTSTRAP_ADMIN_KEY_FILE: {path} does not hold a Genebank API key "
            "(gb_<12 letters or digits>_<32-64 URL-safe characters>); delete it to have one generated"
        )
    return new, written


async def bootstrap_admin(
    sessionmaker: async_sessionmaker[AsyncSession], settings: Settings, *, embedded: bool
) -> None:
    """Give an empty registry its first admin key, as the module docstring says; BootstrapKeyError stops."""
    if await _has_keys(sessionmaker):
        return
    if settings.bootstrap_admin_key_file is not None:
        new, written = await asyncio.to_thread(_key_from_file, settings)
        if await first_admin_key(sessionmaker, new) is not None:
            log.info(
                "first admin key %s %s",
                "generated into" if written else "read from",
                settings.bootstrap_admin_key_file,
            )
        return
    if embedded:
        if token := await first_admin_key(sessionmaker):
            announce(token)
        return
    log.warning(
        "the registry has no API key yet: create the first admin key with "
        "`genebank keys create --role admin --name NAME` (with Docker Compose: "
        "`docker-compose exec api genebank keys create --role admin --name NAME`), "
        "or set GENEBANK_BOOTSTRAP_ADMIN_KEY_FILE"
    )


def announce(token: str) -> None:
    # Printed, never logged: this is the only time the key exists outside its hash.
    print(
        "\n  The registry's first admin key (shown this once; keep it):\n"
        f'\n      {token}\n\n  For the README\'s examples:  export GB="Authorization: Bearer {token}"\n'
        "  Create more with `genebank keys create --role producer --name …`.\n",
        flush=True,
    )
