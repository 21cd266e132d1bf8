"""A secret kept in a file only its owner may read: read it, or generate it once (mode 0600).

Used for the admin session signing key and the bootstrap admin key. Two processes starting together
agree on one value: the first complete file wins (a hard link appears whole or not at all) and the
other reads it. A file others can read or replace is refused: whoever reads it holds the secret.
Every failure is a `PrivateFileError` whose message names the file and what to do, for start-up
errors an operator can act on.
"""

from __future__ import annotations

import os
import secrets
import stat
from collections.abc import Callable
from pathlib import Path


class PrivateFileError(RuntimeError):
    """The file cannot be read, written or trusted; the message says which file and why."""


class InsecureFile(PrivateFileError):
    pass


def read_or_create(path: Path, make: Callable[[], str]) -> tuple[str, bool]:
    """The value in `path`, or `make()` written there first; and whether it was written now."""
    try:
        return _read(path), False
    except FileNotFoundError:
        pass
    value = make()
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        draft = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
        fd = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        try:
            with os.fdopen(fd, "w", encoding="ascii") as handle:
                handle.write(value + "\n")
            os.link(draft, path)
        except FileExistsError:
            return _read(path), False
        finally:
            draft.unlink(missing_ok=True)
    except OSError as error:
        raise PrivateFileError(
            f"cannot write {path}: {error.strerror or error} (running as uid {os.getuid()})"
        ) from error
    return value, True


def _read(path: Path) -> str:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    except FileNotFoundError:
        raise
    except OSError as error:
        raise PrivateFileError(f"cannot read {path}: {error.strerror or error}") from error
    with os.fdopen(fd, encoding="ascii") as handle:
        info = os.fstat(handle.fileno())
        if not stat.S_ISREG(info.st_mode) or info.st_mode & 0o077 or info.st_uid != os.getuid():
            raise InsecureFile(f"{path} must be a regular file owned by this user with mode 0600")
        try:
            return handle.read().strip()
        except (OSError, UnicodeDecodeError) as error:
            raise PrivateFileError(f"cannot read {path}: {error}") from error
