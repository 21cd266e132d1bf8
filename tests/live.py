"""Real servers for tests that drive them over the network: uvicorn in a thread (LiveServer), or
`genebank serve` in a process of its own on the embedded database (ServeProcess)."""

from __future__ import annotations

import atexit
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Literal

import httpx
import uvicorn

from app.config import Settings
from app.embeddings.onnx_backend import ensure_model
from app.main import create_app

# Headless, no sandbox (CI runs as root), and none of the browser's own background traffic.
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


class LiveServer:
    """uvicorn serving the real app in a thread. lifespan="off" serves what needs no database (/docs)."""

    def __init__(
        self,
        settings: Settings,
        lifespan: Literal["on", "off"] = "on",
        *,
        ssl_certfile: str | None = None,
        ssl_keyfile: str | None = None,
    ) -> None:
        self.socket = socket.socket()
        self.socket.bind(("127.0.0.1", 0))
        scheme = "https" if ssl_certfile else "http"
        self.url = f"{scheme}://127.0.0.1:{self.socket.getsockname()[1]}"
        config = uvicorn.Config(
            create_app(settings),
            log_level="warning",
            lifespan=lifespan,
            ssl_certfile=ssl_certfile,
            ssl_keyfile=ssl_keyfile,
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.socket]}, daemon=True)

    def __enter__(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 120
        while not self.server.started:
            assert self.thread.is_alive(), "the server thread died while starting"
            assert time.monotonic() < deadline, "the server did not start within 120 s"
            time.sleep(0.05)
        return self

    def __exit__(self, *_: object) -> None:
        self.server.should_exit = True
        self.thread.join(30)
        self.socket.close()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


ROOT = Path(__file__).resolve().parent.parent


def subprocess_env(**variables: str) -> dict[str, str]:
    """The environment of a child process: this checkout's code (app and the client), no GENEBANK_ leak."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GENEBANK_")}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), str(ROOT / "clients" / "python")])
    env.update(variables)
    return env


_exported: Path | None = None
_exporting = threading.Lock()


def exported_models() -> Path:
    """A models directory holding the served model exported to ONNX, made once per test run (the first
    call exports it, ~14 CPU-seconds) and shared by every process the tests start.

    A process pointed at it (`served_model_env`) loads the model in under a second, where the torch
    backend spends ~10 CPU-seconds importing torch and sentence-transformers, and the default ONNX
    backend on a fresh data directory exports the model all over again."""
    global _exported
    with _exporting:
        if _exported is None:
            directory = Path(tempfile.mkdtemp(prefix="genebank-test-models-"))
            atexit.register(shutil.rmtree, directory, True)
            ensure_model(directory, quantized=False)
            _exported = directory
        return _exported


def served_model_env() -> dict[str, str]:
    """The environment that makes a child process serve the shared export (the production backend)."""
    return {"GENEBANK_EMBEDDING_BACKEND": "onnx", "GENEBANK_MODELS_DIR": str(exported_models())}


class ServeProcess:
    """`genebank serve` in a process of its own, as `make run` starts it: the embedded PostgreSQL in a
    fresh data directory, migrated, an evolution worker in-process, the first admin key in a file."""

    def __init__(self, data_dir: Path, **settings: str) -> None:
        self.data_dir = data_dir
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.key_file = data_dir / "admin-key"
        self.log = data_dir / "serve.log"
        defaults = {
            "GENEBANK_DATA_DIR": str(data_dir),
            "GENEBANK_BOOTSTRAP_ADMIN_KEY_FILE": str(self.key_file),
            "GENEBANK_LOG_LEVEL": "warning",
            **served_model_env(),
        }
        self.env = subprocess_env(**(defaults | settings))
        self.process: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> ServeProcess:
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-c", "from app.cli import main; main()", "serve", "--port", str(self.port)],
                env=self.env,
                cwd=self.data_dir,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + 240
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"genebank serve exited: {self.log.read_text()[-3000:]}")
            try:
                if httpx.get(f"{self.url}/readyz", timeout=5).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                self.__exit__()
                raise RuntimeError(f"genebank serve not ready in 240 s: {self.log.read_text()[-3000:]}")
            time.sleep(0.3)
        return self

    @property
    def admin_key(self) -> str:
        return self.key_file.read_text().strip()

    def create_key(self, role: str, name: str, consumer_model: str | None = None) -> tuple[str, str]:
        """A new key (id, token), made through the admin API."""
        body = {"role": role, "name": name, **({"consumer_model": consumer_model} if consumer_model else {})}
        response = httpx.post(
            f"{self.url}/v1/admin/keys",
            json=body,
            headers={"Authorization": f"Bearer {self.admin_key}"},
            timeout=30,
        )
        assert response.status_code == 201, response.text
        created = response.json()
        return str(created["id"]), str(created["key"])

    def __exit__(self, *_: object) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        # SIGTERM: the worker finishes its jobs and the embedded PostgreSQL is stopped by the lifespan.
        self.process.terminate()
        try:
            self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)
