"""Fixtures for the server's tests: an in-process client, and a real `rulekit serve` process."""
from __future__ import annotations

from typing import Iterator

import pytest
from starlette.testclient import TestClient

from serve.serve_helpers import SERVED, Server, make_client


@pytest.fixture(scope="session")
def client() -> Iterator[TestClient]:
    with make_client(SERVED) as c:
        yield c


@pytest.fixture(scope="session")
def server() -> Iterator[Server]:
    s = Server("--rulesets", str(SERVED))
    yield s
    s.stop()
