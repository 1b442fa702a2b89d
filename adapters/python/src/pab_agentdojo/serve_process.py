"""Start ``pab serve`` (the real command, from this checkout) or connect to one that already runs."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from pab_client import PabClient, PabError

__all__ = ["REPO_ROOT", "deno_command", "serve_available", "free_port", "start_process", "pab_serve"]

REPO_ROOT = Path(__file__).resolve().parents[4]
DENO_VERSION = "2.9.6"


def deno_command() -> list[str]:
    """How to run Deno: ``$PAB_DENO`` (the test task passes its own binary), ``deno`` on PATH, or npx."""
    if os.environ.get("PAB_DENO"):
        return [os.environ["PAB_DENO"]]
    if shutil.which("deno"):
        return ["deno"]
    return ["npx", "-y", f"deno@{DENO_VERSION}"]


def _serve_help(repo: Path) -> str | None:
    command = [*deno_command(), "run", "--allow-read", str(repo / "cli.ts"), "serve", "--help"]
    try:
        done = subprocess.run(command, cwd=repo, capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout + done.stderr if done.returncode == 0 else None


def serve_available(repo: Path = REPO_ROOT) -> bool:
    """Whether this checkout has a ``pab serve`` command (``cli.ts serve --help`` exits 0)."""
    return _serve_help(repo) is not None


def free_port() -> int:
    """A port on localhost that was free a moment ago."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def start_process(
    command: Sequence[str], url: str, *, cwd: Path = REPO_ROOT, timeout: float = 120
) -> Iterator[PabClient]:
    """Run a pab HTTP server, wait until ``GET /v1/health`` answers, yield a client, stop it on exit."""
    log = tempfile.TemporaryFile()
    process = subprocess.Popen(list(command), cwd=cwd, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    client = PabClient(url)
    try:
        deadline = time.monotonic() + timeout
        while True:
            if process.poll() is not None:
                log.seek(0)
                raise RuntimeError(f"Cannot start pab ({' '.join(command)}): it exited with {process.returncode}:\n"
                                   + log.read().decode("utf-8", "replace")[-4000:])
            try:
                client.health()
                break
            except PabError:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"Cannot start pab ({' '.join(command)}): no health answer in {timeout} s")
                time.sleep(0.2)
        yield client
    finally:
        _stop(process)
        log.close()


def _stop(process: subprocess.Popen[bytes]) -> None:
    """Stop the server and everything it started: ``npx`` runs Deno as a child, so signal the whole group."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            break
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and _group_alive(process):
            time.sleep(0.1)
        if not _group_alive(process):
            break
    process.wait(timeout=10)


def _group_alive(process: subprocess.Popen[bytes]) -> bool:
    process.poll()  # reap the leader, or it counts as alive
    try:
        os.killpg(process.pid, 0)
    except ProcessLookupError:
        return False
    return True


@contextmanager
def pab_serve(policy: Path, *, repo: Path = REPO_ROOT, port: int | None = None) -> Iterator[PabClient]:
    """Start the real ``pab serve --policy POLICY --port N`` of this checkout, with the permissions its help
    names (a fresh Deno KV file in a scratch folder when the command takes ``--store``), and yield a client."""
    help_text = _serve_help(repo)
    if help_text is None:
        raise RuntimeError(
            f"Cannot start pab serve: `cli.ts serve --help` fails in {repo}; pass --pab-url to use a running one"
        )
    port = port or free_port()
    with tempfile.TemporaryDirectory(prefix="pab-serve-") as scratch:
        permissions = ["--unstable-kv", "--allow-net=localhost", "--allow-read", f"--allow-write={scratch}"]
        command = [*deno_command(), "run", *permissions, str(repo / "cli.ts"), "serve"]
        command += ["--policy", str(policy), "--port", str(port)]
        if "--store" in help_text:
            command += ["--store", str(Path(scratch) / "store.kv")]
        with start_process(command, f"http://localhost:{port}", cwd=repo) as client:
            yield client
