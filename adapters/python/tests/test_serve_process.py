"""start_process() stops the server and everything it started, as `npx` (which runs Deno as a child) needs."""

import os
import sys

import pytest

from pab_agentdojo.serve_process import free_port, start_process

SERVER = """
import json, subprocess, sys
from http.server import BaseHTTPRequestHandler, HTTPServer
child = subprocess.Popen(["sleep", "300"])  # a grandchild, as npx -> deno
open(sys.argv[2], "w").write(str(child.pid))
class Health(BaseHTTPRequestHandler):
    def log_message(self, *args): pass
    def do_GET(self):
        body = json.dumps({"ok": True, "version": "t"}).encode()
        self.send_response(200); self.send_header("content-length", str(len(body))); self.end_headers()
        self.wfile.write(body)
HTTPServer(("127.0.0.1", int(sys.argv[1])), Health).serve_forever()
"""


def test_start_process_leaves_no_process_of_its_group_behind(tmp_path):
    port, pid_file = free_port(), tmp_path / "grandchild.pid"
    command = [sys.executable, "-c", SERVER, str(port), str(pid_file)]
    with start_process(command, f"http://127.0.0.1:{port}", timeout=30) as client:
        assert client.health()["version"] == "t"
        grandchild = int(pid_file.read_text())
        group = os.getpgid(grandchild)
        assert group != os.getpgid(0)  # the server runs in a process group of its own
    with pytest.raises(ProcessLookupError):
        os.killpg(group, 0)
    with pytest.raises(ProcessLookupError):
        os.kill(grandchild, 0)


def test_start_process_reports_a_server_that_exits_at_once():
    with pytest.raises(RuntimeError, match=r"Cannot start pab \(.*\): it exited with 3:\nboom"):
        with start_process([sys.executable, "-c", "print('boom'); raise SystemExit(3)"], "http://127.0.0.1:9", timeout=30):
            pass

