"""The key that signs admin session cookies: a setting, or a file generated once under the data directory."""

from __future__ import annotations

import os
import secrets
import stat
from pathlib import Path

from app.config import Settings

SIGNING_FILE = "admin-session-secret"


class InsecureSecretFile(RuntimeError):
    pass


def session_secret(settings: Settings) -> str:
    """GENEBANK_ADMIN_SESSION_SECRET, else the generated one in <data_dir> (created on first use)."""
    if settings.admin_session_secret is not None:
        return settings.admin_session_secret.get_secret_value()
    return _file_secret(settings.data_dir / SIGNING_FILE)


def _file_secret(path: Path) -> str:
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    generated = secrets.token_urlsafe(48)
    draft = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    fd = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as handle:
        handle.write(generated + "\n")
    try:
        # A hard link appears complete or not at all: two processes starting together agree on the
        # first one's secret, and neither ever reads a half-written file.
        os.link(draft, path)
    except FileExistsError:
        return _read_existing(path)
    finally:
        draft.unlink()
    return generated


def _read_existing(path: Path) -> str:
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    with os.fdopen(fd, encoding="ascii") as handle:
        info = os.fstat(handle.fileno())
        # Whoever can read or replace the secret can forge an admin session.
        if not stat.S_ISREG(info.st_mode) or info.st_mode & 0o077 or info.st_uid != os.getuid():
            raise InsecureSecretFile(
                f"{path} must be a regular file owned by this user with mode 0600 "
                "(or set GENEBANK_ADMIN_SESSION_SECRET)"
            )
        value = handle.read().strip()
    if len(value) < 32:
        raise InsecureSecretFile(f"{path} holds fewer than 32 characters; delete it to generate a new one")
    return value
