"""The `genebank` command as an operator meets it: help, the build-time model export, the demo."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import httpx
import numpy as np
import pytest
from typer.testing import CliRunner

from app.cli import DEMO_ACTION, cli
from app.config import Settings
from app.embeddings import EmbeddingService
from app.embeddings.onnx_backend import OnnxEmbedder
from tests.live import LiveServer, served_model_env

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    ("command", "flag"),
    [
        (["worker"], "--drain"),
        (["reembed"], "--all"),
        (["keys", "list"], "--all"),
        (["export-model"], "--int8"),
        (["vector-index"], "--force"),
    ],
)
def test_flags_are_shown_as_flags(command: list[str], flag: str) -> None:
    result = CliRunner().invoke(cli, [*command, "--help"], terminal_width=120)
    assert result.exit_code == 0, result.output
    line = next(line for line in result.output.splitlines() if line.strip().startswith(flag))
    assert "<bool>" not in result.output, line
    assert line.split()[0] == flag and not line.split()[1].startswith(("<", "[", "BOOL")), line


def test_export_model_writes_the_model_the_server_then_loads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, embeddings: EmbeddingService
) -> None:
    models = tmp_path / "models"
    monkeypatch.setenv("GENEBANK_MODELS_DIR", str(models))
    monkeypatch.setenv("GENEBANK_DATA_DIR", str(tmp_path / "elsewhere"))
    exported = CliRunner().invoke(cli, ["export-model"])
    assert exported.exit_code == 0, exported.output
    model = models / "all-MiniLM-L6-v2.onnx"
    assert exported.stdout.startswith(f"{model}  ") and model.stat().st_size > 50 * 2**20
    assert not (tmp_path / "elsewhere").exists()

    # Once exported, the file is kept: a second run (an image rebuilt from cache) writes nothing.
    written_at = model.stat().st_mtime_ns
    assert CliRunner().invoke(cli, ["export-model"]).exit_code == 0
    assert model.stat().st_mtime_ns == written_at

    # The server's ONNX backend finds it there and gives the reference model's vectors.
    texts = ["pytest hangs on an asyncio queue", "docker compose port already allocated"]
    onnx = OnnxEmbedder(Settings().embedding_models_dir).encode(texts)
    reference = embeddings.embedder.encode(texts)
    assert float(np.min(np.sum(onnx * reference, axis=1))) > 0.9999


def test_export_model_into_an_unwritable_place_is_one_error_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "a-file").write_text("")
    monkeypatch.setenv("GENEBANK_MODELS_DIR", str(tmp_path / "a-file" / "models"))
    result = CliRunner().invoke(cli, ["export-model"])
    assert result.exit_code == 1
    assert result.output.startswith(f"error: cannot write the ONNX model in {tmp_path / 'a-file' / 'models'}")


@pytest.mark.slow
async def test_demo_loads_into_the_embedded_database_of_a_running_server(tmp_path: Path) -> None:
    """`genebank demo` joins the embedded PostgreSQL a running `genebank serve` started, and leaves it up."""
    key_file = tmp_path / "admin-key"
    common = {"data_dir": tmp_path, "embedding_backend": "torch", "run_worker": "false"}
    settings = Settings(database_url=None, bootstrap_admin_key_file=key_file, **common)  # type: ignore[arg-type]
    with LiveServer(settings) as server:
        env = {
            **{k: v for k, v in os.environ.items() if not k.startswith("GENEBANK_")},
            "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "clients" / "python")]),
            "GENEBANK_DATA_DIR": str(tmp_path),
            **served_model_env(),
        }
        demo = await asyncio.to_thread(
            subprocess.run,
            [sys.executable, "-c", "from app.cli import main; main()", "demo"],
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        assert demo.returncode == 0, demo.stdout + demo.stderr
        assert "a running `genebank serve` may keep running" in demo.stdout
        assert "published  gene_pytest_asyncio_hang_timeout v1" in demo.stdout

        headers = {"Authorization": f"Bearer {key_file.read_text().strip()}"}
        async with httpx.AsyncClient(base_url=server.url, headers=headers, timeout=30) as api:
            fetched = await api.get("/v1/genes/gene_pytest_asyncio_hang_timeout")
            assert fetched.status_code == 200, fetched.text
            audit = (await api.get("/v1/admin/audit", params={"action": DEMO_ACTION, "limit": 100})).json()
    entries = audit["items"]
    published = demo.stdout.count("published  ")
    assert len(entries) == published and {e["actor"] for e in entries} == {"system"}
    assert {e["status"] for e in entries} == {201}
