"""Shared fixtures: one pab server for the whole test session.

The server is the REAL ``pab serve`` of this checkout whenever ``cli.ts serve --help`` works. Until that command
exists on this branch, the tests use ``serve_double.ts`` (the HTTP contract over the real Guard), except under
``CI=true``, where a missing ``pab serve`` is a failure: CI must test the real server.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from pab_agentdojo.serve_process import REPO_ROOT, deno_command, free_port, pab_serve, serve_available, start_process
from pab_client import PabClient

BANKING_POLICY = REPO_ROOT / "traces" / "agentdojo" / "policies" / "banking.yaml"
DOUBLE = Path(__file__).with_name("serve_double.ts")


@dataclass(frozen=True)
class Backend:
    """The running pab server: ``real`` (pab serve) or ``double`` (serve_double.ts)."""

    kind: str
    client: PabClient


@functools.cache
def _serve_available() -> bool:
    return serve_available()


@pytest.fixture(scope="session")
def real_serve() -> bool:
    return _serve_available()


def pytest_terminal_summary(terminalreporter) -> None:
    """Say which pab server the tests used, so a log shows it (tests/python_bridge_test.ts checks it under CI)."""
    kind = "the real pab serve" if _serve_available() else "serve_double.ts (no pab serve in this checkout)"
    terminalreporter.write_line(f"pab server used: {kind}")


@pytest.fixture(scope="session")
def pab(real_serve: bool) -> Iterator[Backend]:
    if real_serve:
        with pab_serve(BANKING_POLICY) as client:
            yield Backend("real", client)
        return
    if os.environ.get("CI") == "true":
        pytest.fail("pab serve is missing: `deno run --allow-read cli.ts serve --help` fails, and CI=true needs the real server")
    port = free_port()
    command = [*deno_command(), "run", "--allow-net=localhost", "--allow-read", str(DOUBLE),
               "--policy", str(BANKING_POLICY), "--port", str(port)]
    with start_process(command, f"http://localhost:{port}") as client:
        yield Backend("double", client)
