"""The key that signs admin session cookies: a setting, or a file generated once under the data directory.

The API checks it when it starts (app/main.py): a data directory it cannot write is a clear start-up
error rather than a 500 on every admin page.
"""

from __future__ import annotations

import secrets

from app.config import Settings
from app.private_file import InsecureFile, PrivateFileError, read_or_create

SIGNING_FILE = "admin-session-secret"


class SecretUnavailable(PrivateFileError):
    pass


class InsecureSecretFile(SecretUnavailable):
    pass


def session_secret(settings: Settings) -> str:
    """GENEBANK_ADMIN_SESSION_SECRET, else the generated one in <data_dir> (created on first use)."""
    if settings.admin_session_secret is not None:
        return settings.admin_session_secret.get_secret_value()
    path = settings.data_dir / SIGNING_FILE
    try:
        value, _ = read_or_create(path, lambda: secrets.token_urlsafe(48))
    except InsecureFile as error:
        raise InsecureSecretFile(f"{error} (or set GENEBANK_ADMIN_SESSION_SECRET)") from None
    except PrivateFileError as error:
        raise SecretUnavailable(
            f"the admin session secret cannot be stored: {error}; make GENEBANK_DATA_DIR "
            f"({settings.data_dir}) writable by this user, or set GENEBANK_ADMIN_SESSION_SECRET"
        ) from None
    if len(value) < 32:
        raise InsecureSecretFile(f"{path} holds fewer than 32 characters; delete it to generate a new one")
    return value
