"""Helpers for the server's tests: an in-process client, and a real `rulekit serve` process."""
from __future__ import annotations

import http.client
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from starlette.testclient import TestClient

from rulekit.serve.app import create_app
from rulekit.serve.limits import ServeConfig, ServeLimits

HAND = {"indicator": "7p", "hand": "46m123456789s22z", "win_tile": "5m"}


def make_client(rulesets_dir: Path | None = None, **limits: object) -> TestClient:
    config = ServeConfig(limits=ServeLimits(**limits), rulesets_dir=rulesets_dir)  # type: ignore[arg-type]
    return TestClient(create_app(config), raise_server_exceptions=False)


def child_env() -> dict[str, str]:
    """Run children on the very package these tests import (installed, or this checkout)."""
    import rulekit
    env = dict(os.environ)
    root = str(Path(rulekit.__file__).resolve().parent.parent)
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
    return env


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Server:
    """A `rulekit serve` child process on a free loopback port."""

    def __init__(self, *args: str) -> None:
        self.port = free_port()
        self.host = "127.0.0.1"
        self.url = f"http://{self.host}:{self.port}"
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "rulekit.cli", "serve", "--port", str(self.port), *args],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=tempfile.gettempdir(),
            env=child_env())
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"rulekit serve exited: {self.proc.stderr.read()!r}")  # type: ignore[union-attr]
            try:
                conn = http.client.HTTPConnection(self.host, self.port, timeout=2)
                conn.request("GET", "/healthz")
                if conn.getresponse().status == 200:
                    conn.close()
                    return
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError("rulekit serve did not start within 30 s")

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        if self.proc.stderr:
            self.proc.stderr.close()


SERVED = Path(__file__).parent / "served"
