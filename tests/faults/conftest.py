"""Fixtures of the fault tests."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture
def data_dir() -> Iterator[Path]:
    """A Genebank data directory outside pytest's own temporary tree.

    As root, the embedded PostgreSQL runs as its own user and needs to traverse every parent of its
    data directory; pytest resets its base directory to mode 0700 whenever a session starts.
    """
    path = Path(tempfile.mkdtemp(prefix="genebank-faults-"))
    try:
        yield path / "data"
    finally:
        shutil.rmtree(path, ignore_errors=True)
