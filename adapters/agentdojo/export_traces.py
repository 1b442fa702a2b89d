"""Export AgentDojo ground-truth runs as pab traces.

Usage:
    python adapters/agentdojo/export_traces.py --part user [--suite S] [--out DIR]

Phase 1 (``--part user``) replays every user task's ground truth on the default,
un-injected environment through AgentDojo's own FunctionsRuntime and records each
call, the exact tool output string the model would see, and AgentDojo's utility
verdict. ``--part attacks`` is a phase-2 stub.
"""

import argparse
import datetime
import hashlib
import json
import os
import re
import shutil
import sys
import types
from collections.abc import Sequence
from importlib.metadata import version
from pathlib import Path
from typing import Any

from agentdojo.agent_pipeline.agent_pipeline import AgentPipeline, load_system_message
from agentdojo.agent_pipeline.base_pipeline_element import BasePipelineElement
from agentdojo.agent_pipeline.basic_elements import InitQuery, SystemMessage
from agentdojo.agent_pipeline.tool_execution import tool_result_to_str
from agentdojo.base_tasks import BaseUserTask
from agentdojo.default_suites.v1.tools import cloud_drive_client, email_client
from agentdojo.default_suites.v1.tools.types import Email
from agentdojo.functions_runtime import EmptyEnv, Env, FunctionsRuntime
from agentdojo.task_suite.load_suites import get_suites
from agentdojo.task_suite.task_suite import TaskSuite
from agentdojo.types import (
    ChatAssistantMessage,
    ChatMessage,
    ChatToolResultMessage,
    text_content_block_from_string,
)
from pydantic import BaseModel
from pydantic_core import to_jsonable_python

AGENTDOJO_VERSION = "0.1.35"
BENCHMARK_VERSION = "v1.2.2"
SUITES = ("banking", "slack", "travel", "workspace")
DEFAULT_OUT = Path(__file__).resolve().parents[2] / "traces" / "agentdojo" / BENCHMARK_VERSION

# The environments' own "today" (workspace calendar and travel `current_day`), at noon.
FROZEN_NOW = datetime.datetime(2024, 5, 15, 12, 0, 0)

Json = Any


# ---------------------------------------------------------------------------
# Clock


class _FrozenDateTime(datetime.datetime):
    @classmethod
    def now(cls, tz: datetime.tzinfo | None = None) -> datetime.datetime:  # type: ignore[override]
        assert tz is None
        return FROZEN_NOW


def freeze_clock() -> None:
    """Make every `datetime.datetime.now()` reachable from the tools return FROZEN_NOW."""
    shim = types.ModuleType("datetime")
    shim.__dict__.update(datetime.__dict__)
    shim.datetime = _FrozenDateTime  # type: ignore[attr-defined]
    for module in (email_client, cloud_drive_client):  # the only tool modules calling now()
        module.datetime = shim  # type: ignore[attr-defined]
    Email.model_fields["timestamp"].default_factory = _FrozenDateTime.now
    Email.model_rebuild(force=True)


# ---------------------------------------------------------------------------
# Serialisation


def dumps_line(obj: Json) -> str:
    return json.dumps(obj, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def dumps_doc(obj: Json) -> str:
    return json.dumps(obj, sort_keys=True, ensure_ascii=False, indent=2) + "\n"


def to_json(value: Any) -> Json:
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, (list, tuple)):
        return [to_json(v) for v in value]
    if isinstance(value, dict):
        return {str(k): to_json(v) for k, v in value.items()}
    return to_jsonable_python(value)


def task_number(task_id: str) -> int:
    match = re.fullmatch(r"\w+_(\d+)", task_id)
    assert match is not None, task_id
    return int(match.group(1))


# ---------------------------------------------------------------------------
# User tasks


class GroundTruthRecorder(BasePipelineElement):
    """Like AgentDojo's GroundTruthPipeline, but records raw results and does not raise.

    Each call goes through `FunctionsRuntime.run_function` exactly as `ToolsExecutor`
    does, and the text is what `ToolsExecutor` + the LLM adapters show the model:
    `tool_result_to_str(result)` (YAML for models and lists, `str()` otherwise), or the
    runtime's error string on failure.
    """

    def __init__(self, task: BaseUserTask[Any]) -> None:
        self.task = task
        self.events: list[dict[str, Json]] = []

    def query(
        self,
        query: str,
        runtime: FunctionsRuntime,
        env: Env = EmptyEnv(),  # type: ignore[assignment]  # noqa: B008 - same signature as the base class
        messages: Sequence[ChatMessage] = (),
        extra_args: dict[Any, Any] = {},  # noqa: B006
    ) -> tuple[str, FunctionsRuntime, Env, Sequence[ChatMessage], dict[Any, Any]]:
        self.events = []
        new_messages: list[ChatMessage] = []
        for i, call in enumerate(self.task.ground_truth(env)):
            call_id = f"call_{i}"
            self.events.append(
                {"type": "call", "id": call_id, "tool": call.function, "args": to_json(call.args), "actor": "user"}
            )
            new_messages.append(
                ChatAssistantMessage(role="assistant", tool_calls=[call], content=[text_content_block_from_string("")])
            )
            result, error = runtime.run_function(env, call.function, call.args)
            text = tool_result_to_str(result)  # what ToolsExecutor puts in the tool message
            # The LLM adapters show the error string instead when the call failed.
            event: dict[str, Json] = {"type": "result", "id": call_id, "content": text if error is None else error}
            if error is not None:
                event["error"] = error
            elif not isinstance(result, str):
                event["data"] = to_json(result)
            self.events.append(event)
            new_messages.append(
                ChatToolResultMessage(
                    role="tool",
                    content=[text_content_block_from_string(text)],
                    tool_call=call,
                    tool_call_id=None,
                    error=error,
                )
            )
        new_messages.append(
            ChatAssistantMessage(
                role="assistant",
                content=[text_content_block_from_string(self.task.GROUND_TRUTH_OUTPUT)],
                tool_calls=None,
            )
        )
        return query, runtime, env, [*messages, *new_messages], extra_args


def user_trace(suite: TaskSuite[Any], task: BaseUserTask[Any], system_message: str) -> tuple[list[Json], int, bool]:
    """Run one user task's ground truth; return (trace lines, number of calls, utility)."""
    recorder = GroundTruthRecorder(task)
    pipeline = AgentPipeline([SystemMessage(system_message), InitQuery(), recorder])
    # Loads the default (un-injected) environment, applies init_environment, runs the
    # pipeline and checks utility exactly as the benchmark does.
    utility, _ = suite.run_task_with_pipeline(pipeline, task, injection_task=None, injections={})
    header = {
        "pab": "trace",
        "schemaVersion": 1,
        "id": f"agentdojo/{BENCHMARK_VERSION}/{suite.name}/{task.ID}",
        "meta": {
            "source": "agentdojo",
            "suite": suite.name,
            "userTask": task.ID,
            "injectionTask": None,
            "attack": None,
            "utility": utility,
        },
    }
    events = [
        {"type": "system", "content": system_message},
        {"type": "user", "content": task.PROMPT},
        *recorder.events,
    ]
    return [header, *events], len(recorder.events) // 2, utility


def tool_specs(suite: TaskSuite[Any]) -> list[Json]:
    return [
        {"name": f.name, "description": f.description, "parameters": f.parameters.model_json_schema()}
        for f in suite.tools
    ]


def export_user(suite: TaskSuite[Any], out: Path) -> tuple[dict[str, str], dict[str, int], list[str]]:
    """Write suite.json and user/*.jsonl; return (files -> sha256, counts, failing task ids)."""
    system_message = load_system_message(None)
    task_ids = sorted(suite.user_tasks, key=task_number)
    files: dict[str, str] = {}

    def write(rel: str, text: str) -> None:
        path = out / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        data = text.encode("utf-8")
        path.write_bytes(data)
        files[rel] = hashlib.sha256(data).hexdigest()

    write(
        f"{suite.name}/suite.json",
        dumps_doc(
            {
                "schemaVersion": 1,
                "suite": suite.name,
                "benchmarkVersion": BENCHMARK_VERSION,
                "agentdojo": AGENTDOJO_VERSION,
                "systemMessage": system_message,
                "tools": tool_specs(suite),
                "userTasks": task_ids,
            }
        ),
    )
    shutil.rmtree(out / suite.name / "user", ignore_errors=True)
    calls, failing = 0, []
    for task_id in task_ids:
        lines, n_calls, utility = user_trace(suite, suite.user_tasks[task_id], system_message)
        calls += n_calls
        if not utility:
            failing.append(task_id)
        write(f"{suite.name}/user/{task_id}.jsonl", "".join(dumps_line(line) + "\n" for line in lines))
    return files, {"userTasks": len(task_ids), "userCalls": calls}, failing


# ---------------------------------------------------------------------------
# Attacks (phase 2)


def export_attacks(suite: TaskSuite[Any], out: Path) -> tuple[dict[str, str], dict[str, int]]:
    """Phase 2: injection-task x attack traces under <suite>/attacks/. Not implemented yet."""
    raise NotImplementedError("phase 2")


# ---------------------------------------------------------------------------
# Manifest and CLI


def update_manifest(out: Path, suite: str, part: str, files: dict[str, str], counts: dict[str, int]) -> None:
    """Merge one suite/part into manifest.json, leaving other suites and parts untouched."""
    path = out / "manifest.json"
    manifest: dict[str, Json] = json.loads(path.read_text("utf-8")) if path.exists() else {}
    manifest.update({"schemaVersion": 1, "benchmarkVersion": BENCHMARK_VERSION, "agentdojo": AGENTDOJO_VERSION})
    entry = manifest.setdefault("suites", {}).setdefault(suite, {})
    entry.setdefault("counts", {}).update(counts)
    owned = (f"{suite}/suite.json", f"{suite}/user/") if part == "user" else (f"{suite}/attacks/",)
    kept = {p: h for p, h in entry.get("files", {}).items() if not p.startswith(owned)}
    entry["files"] = dict(sorted({**kept, **files}.items()))
    manifest["suites"] = dict(sorted(manifest["suites"].items()))
    path.write_text(dumps_doc(manifest), "utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--part", choices=("user", "attacks"), required=True)
    parser.add_argument("--suite", choices=SUITES, action="append", help="repeatable; default: all suites")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)

    if version("agentdojo") != AGENTDOJO_VERSION:
        parser.error(f"agentdojo=={AGENTDOJO_VERSION} required, found {version('agentdojo')}")
    freeze_clock()
    suites = get_suites(BENCHMARK_VERSION)
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    for name in sorted(args.suite or SUITES):
        if args.part == "attacks":
            files, counts = export_attacks(suites[name], out)
            update_manifest(out, name, "attacks", files, counts)
            continue
        files, counts, failing = export_user(suites[name], out)
        update_manifest(out, name, "user", files, counts)
        print(f"{name}: {counts['userTasks']} user tasks, {counts['userCalls']} calls, utility failures: {failing}")
    return 0


if __name__ == "__main__":
    # Some AgentDojo tools order values through Python sets, so string hashing must be
    # fixed for the output to be reproducible: re-exec with PYTHONHASHSEED=0 if needed.
    if os.environ.get("PYTHONHASHSEED") != "0":
        os.execve(sys.executable, [sys.executable, *sys.argv], {**os.environ, "PYTHONHASHSEED": "0"})
    sys.exit(main())
