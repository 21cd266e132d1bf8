"""One live registry for the client, command-line and MCP tests: `genebank serve` in its own process on the
embedded database in a temporary data directory (as `make run` starts it), with a key per role.

Tests share it, so each names its Genes and tasks uniquely (`unique()`) and asserts on what it made.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from tests.live import ServeProcess, subprocess_env


@dataclass(frozen=True)
class Key:
    id: str
    token: str


@dataclass(frozen=True)
class Live:
    server: ServeProcess
    admin: str
    owner: Key  # a producer that publishes the tests' Genes (and so may not report on them)
    producer: Key  # another producer
    consumer: Key

    @property
    def url(self) -> str:
        return self.server.url

    def env(self, key: str, **more: str) -> dict[str, str]:
        """The environment of a command run against this registry with `key`."""
        return subprocess_env(GENEBANK_URL=self.url, GENEBANK_KEY=key, **more)


def unique(prefix: str) -> str:
    return f"{prefix}_{uuid.uuid4().hex[:10]}"


@pytest.fixture(scope="session")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Live]:
    with ServeProcess(
        tmp_path_factory.mktemp("live-genebank"),
        GENEBANK_RATE_LIMIT_READS="100000/minute",
        GENEBANK_RATE_LIMIT_SEARCH="100000/minute",
        GENEBANK_RATE_LIMIT_WRITES="100000/minute",
    ) as server:
        keys = {
            role: Key(*server.create_key(kind, f"live {role}"))
            for role, kind in (("owner", "producer"), ("producer", "producer"), ("consumer", "consumer"))
        }
        yield Live(server=server, admin=server.admin_key, **keys)
