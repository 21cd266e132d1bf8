"""X-Forwarded-For is believed only from GENEBANK_TRUSTED_PROXIES, on a real `genebank serve`.

Every request here comes from 127.0.0.1. Untrusted, a forged header changes neither the address the
audit log records nor the one the per-address limits count on; with 127.0.0.1 trusted as a proxy,
the forwarded address is the client's.
"""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from tests.factories import publish_payload
from tests.faults.serving import serving

pytestmark = pytest.mark.slow


def _keyless_writes(url: str, forwarded: list[str]) -> list[int]:
    with httpx.Client(base_url=url, timeout=30) as client:
        return [
            client.post("/v1/genes", json=publish_payload(), headers={"X-Forwarded-For": address}).status_code
            for address in forwarded
        ]


def _audited_clients(url: str, admin_key: str) -> list[str]:
    with httpx.Client(base_url=url, headers={"Authorization": f"Bearer {admin_key}"}, timeout=30) as admin:
        items = admin.get("/v1/admin/audit", params={"failed": True, "limit": 50}).json()["items"]
    return sorted({item["client"] for item in items if item["path"] == "/v1/genes"})


def test_forwarded_addresses_count_only_from_trusted_proxies(data_dir: Path) -> None:
    forged = [f"203.0.113.{n}" for n in range(1, 5)]
    # The admin's key is verified before the flood and stays so (key cache): an address past its
    # refused authentications gets no look-up for a key it has not used lately.
    limits = {"rate_limit_unauthenticated": "3/hour", "key_cache_seconds": "300"}
    with serving(data_dir, **limits) as served:
        admin_key = served.admin_key()
        assert _audited_clients(served.url, admin_key) == []
        # One address as far as the server can tell: its fourth refusal is over the limit.
        assert _keyless_writes(served.url, forged) == [401, 401, 401, 429]
        assert _audited_clients(served.url, admin_key) == ["127.0.0.1"]

    with serving(data_dir, trusted_proxies="127.0.0.1", **limits) as served:
        _audited_clients(served.url, admin_key)
        # Behind a trusted proxy, four clients: one refusal each.
        assert _keyless_writes(served.url, forged) == [401, 401, 401, 401]
        assert set(_audited_clients(served.url, admin_key)) == {"127.0.0.1", *forged}
