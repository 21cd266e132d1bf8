"""A real uvicorn server in a thread, on a port of its own, for tests that drive it over the network."""

from __future__ import annotations

import socket
import threading
import time
from typing import Literal

import uvicorn

from app.config import Settings
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

    def __init__(self, settings: Settings, lifespan: Literal["on", "off"] = "on") -> None:
        self.socket = socket.socket()
        self.socket.bind(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.socket.getsockname()[1]}"
        config = uvicorn.Config(create_app(settings), log_level="warning", lifespan=lifespan)
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
