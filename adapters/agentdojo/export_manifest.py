"""The exporter's manifest.json: every file's sha256 and the pab policies' sha256.

Imported by export_traces.py; kept apart so each file stays short.
"""

import hashlib
import json
from pathlib import Path
from typing import Any

Json = Any


def dumps_doc(obj: Json) -> str:
    return json.dumps(obj, sort_keys=True, ensure_ascii=False, indent=2) + "\n"


def policy_hashes(policies: Path, suites: tuple[str, ...]) -> dict[str, str]:
    """sha256 of each suite's pab policy (`<policies>/<suite>.yaml`), by suite: the bench refuses one that differs."""
    return {
        path.stem: hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(policies.glob("*.yaml"))
        if path.stem in suites
    }


def update_manifest(
    out: Path,
    suite: str,
    part: str,
    files: dict[str, str],
    counts: dict[str, Json],
    header: dict[str, Json],
    policies: dict[str, str],
) -> None:
    """Merge one suite/part into manifest.json, leaving other suites and parts untouched."""
    path = out / "manifest.json"
    manifest: dict[str, Json] = json.loads(path.read_text("utf-8")) if path.exists() else {}
    manifest.update(header)
    entry = manifest.setdefault("suites", {}).setdefault(suite, {})
    entry.setdefault("counts", {}).update(counts)
    owned = (f"{suite}/suite.json", f"{suite}/user/") if part == "user" else (f"{suite}/attacks/",)
    kept = {p: h for p, h in entry.get("files", {}).items() if not p.startswith(owned)}
    entry["files"] = dict(sorted({**kept, **files}.items()))
    manifest["suites"] = dict(sorted(manifest["suites"].items()))
    manifest["policies"] = policies
    path.write_text(dumps_doc(manifest), "utf-8")


def write_policy_hashes(out: Path, policies: dict[str, str]) -> None:
    """Only refresh the policies' sha256 in an existing manifest."""
    path = out / "manifest.json"
    manifest: dict[str, Json] = json.loads(path.read_text("utf-8"))
    manifest["policies"] = policies
    path.write_text(dumps_doc(manifest), "utf-8")
