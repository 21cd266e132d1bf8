"""EvoMap's real evolver client (npm @evomap/evolver 1.94.0) against a live Genebank on loopback.

The client is GPL-3.0: it is installed at test time (GENEBANK_EVOLVER_DIR, see tests/external.py and
.ci/run), never copied into the repository. Its CLI publishes and reuses; its library functions do what
`evolver solidify` and its daemon do on the wire (evolver_session.js calls them). Each node has its own
HOME and workspace in a temporary directory.
"""

from __future__ import annotations

import json
import os
import shutil
import ssl
import subprocess
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.config import Settings
from tests.a2a.hub import CAPSULE, GENE
from tests.external import evolver, missing
from tests.live import LiveServer

pytestmark = pytest.mark.slow
# At module level: without the client nothing is collected and no database starts.
PACKAGE = evolver()
DRIVER = Path(__file__).with_name("evolver_session.js")


class EvolverNode:
    """One node: the installed client with its own HOME and workspace, pointed at the hub."""

    def __init__(self, package: Path, root: Path, hub: str, node_id: str, secret: str) -> None:
        self.package = package
        self.workspace = root / "workspace"
        self.workspace.mkdir(parents=True)
        home = root / "home"
        home.mkdir()
        clean = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("GENEBANK_", "A2A_", "EVOMAP_", "EVOLVER_"))
        }
        self.env = {
            **clean,
            "HOME": str(home),
            # All three: the client's compiled-in default is the public hub.
            "A2A_HUB_URL": hub,
            "EVOMAP_HUB_URL": hub,
            "EVOLVER_DEFAULT_HUB_URL": hub,
            **(
                {"EVOMAP_HUB_ALLOW_INSECURE": "1"} if hub.startswith("http://") else {}
            ),  # plain http: loopback only
            "EVOMAP_DEVICE_ID": node_id.removeprefix("node_").ljust(32, "0"),
            "A2A_NODE_ID": node_id,
            "A2A_NODE_SECRET": secret,
            "EVOLVER_PACKAGE": str(package),
        }

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["node", *args],
            cwd=self.workspace,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )

    def cli(self, *args: str) -> dict[str, Any]:
        """An `evolver` command with --json: its last output line is the contract's JSON."""
        done = self.run(str(self.package / "index.js"), *args)
        lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
        assert lines, done.stdout[-2000:] + done.stderr[-2000:]
        result: dict[str, Any] = json.loads(lines[-1])
        return result

    def step(self, name: str, arg: Any = None) -> Any:
        extra = [] if arg is None else [arg if isinstance(arg, str) else json.dumps(arg)]
        done = self.run(str(DRIVER), name, *extra)
        lines = [line for line in done.stdout.splitlines() if line.startswith("RESULT ")]
        assert lines, done.stdout[-2000:] + done.stderr[-2000:]
        return json.loads(lines[-1].removeprefix("RESULT "))


def test_the_real_client_publishes_reuses_finds_solidifies_reviews_reports(
    scratch_url: str, tmp_path: Path
) -> None:
    package = PACKAGE
    key_file = tmp_path / "admin-key"
    settings = Settings(
        database_url=scratch_url,  # type: ignore[arg-type]
        data_dir=tmp_path,
        embedding_backend="torch",
        run_worker="false",
        bootstrap_admin_key_file=key_file,
    )
    with LiveServer(settings) as server:
        admin = httpx.Client(
            base_url=server.url, headers={"Authorization": f"Bearer {key_file.read_text().strip()}"}
        )

        def key(role: str, name: str) -> dict[str, Any]:
            created = admin.post("/v1/admin/keys", json={"role": role, "name": name})
            assert created.status_code == 201, created.text
            body: dict[str, Any] = created.json()
            return body

        def node(key_id: str, name: str) -> EvolverNode:
            minted = admin.post("/v1/admin/nodes", json={"key_id": key_id})
            assert minted.status_code == 201, minted.text
            body = minted.json()
            return EvolverNode(package, tmp_path / name, server.url, body["node_id"], body["node_secret"])

        producer = node(key("producer", "evolver producer")["id"], "producer")
        consumer = node(key("consumer", "evolver consumer")["id"], "consumer")

        hello = producer.step("hello")
        assert hello["ok"] is True, hello

        # `evolver publish`: validate, then publish; accepted with the ids the client computed.
        gene = {k: v for k, v in GENE.items() if k != "asset_id"}
        capsule = {k: v for k, v in CAPSULE.items() if k != "asset_id"}
        (producer.workspace / "gene.json").write_text(json.dumps(gene))
        (producer.workspace / "capsule.json").write_text(json.dumps(capsule))
        published = producer.cli("publish", "--json", "--asset", "gene.json", "--asset", "capsule.json")
        assert published["ok"] is True and published["status"] == "accepted", published
        ids = {asset["type"]: asset["asset_id"] for asset in published["assets"]}
        gene_asset = ids["Gene"]
        stored = admin.get(f"/v1/genes/{GENE['id']}").json()
        assert stored["asset_id"] == gene_asset and stored["provenance"]["kind"] == "verified_trajectory"
        audit = admin.get("/v1/admin/audit", params={"action": "a2a:validate"}).json()["items"]
        assert audit == []  # a dry run is not a write; the publish is:
        assert len(admin.get("/v1/admin/audit", params={"action": "a2a:publish"}).json()["items"]) == 1

        # `evolver reuse` by id on another node: the client re-hashes what the hub served.
        reused = consumer.cli("reuse", "--json", "--id", gene_asset)
        assert reused["ok"] is True and reused["action"] == "reused", reused

        # hubSearch: a candidate is not picked; once outcome reports promote it, it is.
        signals = ["timeout", "ETIMEDOUT"]
        miss = consumer.step("search", signals)
        assert miss["hit"] is False and miss["reason"] == "below_threshold", miss
        for index in range(3):
            reporter = httpx.Client(
                base_url=server.url,
                headers={"Authorization": f"Bearer {key('consumer', f'r{index}')['key']}"},
            )
            for task in ("t1", "t2"):
                body = {"asset_id": gene_asset, "consumer_model": "m", "task_id": task, "success": True}
                assert reporter.post(f"/v1/genes/{GENE['id']}/outcomes", json=body).status_code == 201
            reporter.close()
        assert admin.get(f"/v1/genes/{GENE['id']}").json()["status"] == "promoted"
        hit = consumer.step("search", signals)
        assert hit["hit"] is True and hit["asset_id"] == gene_asset, hit

        # What `evolver solidify` sends: the permit request, then the review of the reused asset.
        permit = consumer.step("verify-solidify", GENE["id"])
        assert permit["ok"] is True, permit
        review = consumer.step("review", {"assetId": gene_asset, "geneId": GENE["id"]})
        assert review["submitted"] is True, review
        usage = admin.get(f"/v1/genes/{GENE['id']}/stats").json()["usage"]
        assert usage["reports"] == 7  # six by the reporters' keys, one review by the consumer node's key

        report = consumer.step("report", {"assetId": gene_asset, "geneId": GENE["id"]})
        assert report["ok"] is True and report["response"]["counted"] is True, report
        beat = consumer.step("heartbeat")
        assert beat["ok"] is True and beat["response"] == {"status": "ok"}, beat
        admin.close()


def _self_signed(directory: Path) -> tuple[Path, Path, Path]:
    """A private CA and a certificate it signed for 127.0.0.1 (openssl)."""
    ca_key, ca, key, csr, cert = (
        directory / name for name in ("ca.key", "ca.pem", "key.pem", "csr.pem", "cert.pem")
    )
    ext = directory / "ext.cnf"
    ext.write_text("subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\n")
    commands = [
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-keyout",
            ca_key,
            "-out",
            ca,
            "-days",
            "1",
            "-subj",
            "/CN=genebank test CA",
        ],
        [
            "openssl",
            "req",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-keyout",
            key,
            "-out",
            csr,
            "-subj",
            "/CN=127.0.0.1",
        ],
        [
            "openssl",
            "x509",
            "-req",
            "-in",
            csr,
            "-CA",
            ca,
            "-CAkey",
            ca_key,
            "-CAcreateserial",
            "-out",
            cert,
            "-days",
            "1",
            "-extfile",
            ext,
        ],
    ]
    for command in commands:
        subprocess.run([str(part) for part in command], capture_output=True, check=True, timeout=60)
    return ca, cert, key


def test_the_real_client_over_tls_with_a_private_ca(scratch_url: str, tmp_path: Path) -> None:
    """HTTPS without EVOMAP_HUB_ALLOW_INSECURE: the client trusts the hub through NODE_EXTRA_CA_CERTS."""
    if shutil.which("openssl") is None:
        missing("TLS test", "openssl is not on PATH (`apt-get install openssl`)", "GENEBANK_REQUIRE_NODE")
    ca, cert, key = _self_signed(tmp_path)
    key_file = tmp_path / "admin-key"
    settings = Settings(
        database_url=scratch_url,  # type: ignore[arg-type]
        data_dir=tmp_path,
        embedding_backend="torch",
        run_worker="false",
        bootstrap_admin_key_file=key_file,
    )
    with LiveServer(settings, ssl_certfile=str(cert), ssl_keyfile=str(key)) as server:
        admin = httpx.Client(
            base_url=server.url,
            verify=ssl.create_default_context(cafile=str(ca)),
            headers={"Authorization": f"Bearer {key_file.read_text().strip()}"},
        )
        key_id = admin.post("/v1/admin/keys", json={"role": "consumer", "name": "tls"}).json()["id"]
        minted = admin.post("/v1/admin/nodes", json={"key_id": key_id}).json()
        admin.close()
        node = EvolverNode(PACKAGE, tmp_path / "node", server.url, minted["node_id"], minted["node_secret"])
        assert "EVOMAP_HUB_ALLOW_INSECURE" not in node.env
        untrusted = node.step("heartbeat")
        assert untrusted["ok"] is False, untrusted  # a certificate from an unknown CA is refused
        node.env["NODE_EXTRA_CA_CERTS"] = str(ca)
        assert node.step("hello")["ok"] is True
        beat = node.step("heartbeat")
        assert beat["ok"] is True and beat["response"] == {"status": "ok"}, beat
