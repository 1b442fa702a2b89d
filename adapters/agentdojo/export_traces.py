"""Export AgentDojo ground-truth runs as pab traces.

Usage:
    python adapters/agentdojo/export_traces.py --part user|attacks|policies [--suite S] [--attack A] [--out DIR]

Phase 1 (``--part user``) replays every user task's ground truth on the default,
un-injected environment through AgentDojo's own FunctionsRuntime and records each
call, the exact tool output string the model would see, and AgentDojo's utility
verdict.

Phase 2 (``--part attacks``) does the same for every (user task, injection task)
pair on the environment injected by one of AgentDojo's attacks (``--attack``,
default ``important_instructions``), then replays the injection task's ground
truth on the same environment (actor "attacker") and records AgentDojo's own
security verdict.

``--part policies`` only writes the sha256 of the pab policies
(``traces/agentdojo/policies/<suite>.yaml``) into the manifest; every part does
that too, so the bench can tell a changed policy from the one the results were
measured with.
"""

import argparse
import hashlib
import json
import os
import re
import shutil
import sys
from collections.abc import Sequence
from importlib.metadata import version
from pathlib import Path
from typing import Any

from agentdojo.agent_pipeline.agent_pipeline import AgentPipeline, load_system_message
from agentdojo.agent_pipeline.base_pipeline_element import BasePipelineElement
from agentdojo.agent_pipeline.basic_elements import InitQuery, SystemMessage
from agentdojo.agent_pipeline.tool_execution import tool_result_to_str
from agentdojo.attacks.attack_registry import load_attack
from agentdojo.attacks.base_attacks import FixedJailbreakAttack
from agentdojo.base_tasks import BaseInjectionTask, BaseUserTask
from agentdojo.functions_runtime import EmptyEnv, Env, FunctionsRuntime
from agentdojo.task_suite.load_suites import get_suites
from agentdojo.task_suite.task_suite import TaskSuite
from agentdojo.types import (
    ChatAssistantMessage,
    ChatMessage,
    ChatToolResultMessage,
    text_content_block_from_string,
)
from export_manifest import dumps_doc, policy_hashes, update_manifest, write_policy_hashes
from frozen_clock import freeze_clock
from pydantic import BaseModel
from pydantic_core import to_jsonable_python

AGENTDOJO_VERSION = "0.1.35"
BENCHMARK_VERSION = "v1.2.2"
SUITES = ("banking", "slack", "travel", "workspace")
TRACES = Path(__file__).resolve().parents[2] / "traces" / "agentdojo"
DEFAULT_OUT = TRACES / BENCHMARK_VERSION
POLICIES = TRACES / "policies"

# Attack target, as in AgentDojo's benchmark script: its default model, and the pipeline
# name AgentPipeline.from_config gives an undefended pipeline. The attack derives its
# {model} and {user} names from it (MODEL_NAMES -> "GPT-4"; "Emma Johnson").
ATTACK = "important_instructions"
# Every attack AgentDojo 0.1.35 registers that turns an injection task's goal into fixed text, so no model is
# needed and the injection task's reference calls are what the text asks for. Left out: "manual" (asks a person
# on stdin) and the denial-of-service attacks ("dos", "*_dos"), whose text ignores the injection task's goal.
ATTACKS = (
    *("important_instructions", "important_instructions_no_user_name", "important_instructions_no_model_name"),
    *("important_instructions_no_names", "important_instructions_wrong_model_name"),
    *("important_instructions_wrong_user_name", "tool_knowledge", "injecagent", "direct", "ignore_previous"),
    "system_message",
)
ATTACK_PIPELINE_NAME = "gpt-4o-2024-05-13"

Json = Any


# ---------------------------------------------------------------------------
# Serialisation


def dumps_line(obj: Json) -> str:
    return json.dumps(obj, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


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

    With an injection task, its `ground_truth(pre_environment)` calls are then run on the
    same (already modified) environment, recorded with actor "attacker".
    """

    def __init__(self, task: BaseUserTask[Any], injection_task: BaseInjectionTask[Any] | None = None) -> None:
        self.task = task
        self.injection_task = injection_task
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
        pre_environment = env.model_copy(deep=True)  # equal to run_task_with_pipeline's pre_environment
        calls = [("user", call) for call in self.task.ground_truth(env)]
        if self.injection_task is not None:
            calls += [("attacker", call) for call in self.injection_task.ground_truth(pre_environment)]
        for i, (actor, call) in enumerate(calls):
            call_id = f"call_{i}"
            self.events.append(
                {"type": "call", "id": call_id, "tool": call.function, "args": to_json(call.args), "actor": actor}
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


def write(out: Path, rel: str, text: str, files: dict[str, str]) -> None:
    """Write out/rel and record its sha256 in files[rel]."""
    path = out / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    data = text.encode("utf-8")
    path.write_bytes(data)
    files[rel] = hashlib.sha256(data).hexdigest()


def jsonl(lines: list[Json]) -> str:
    return "".join(dumps_line(line) + "\n" for line in lines)


def export_user(suite: TaskSuite[Any], out: Path) -> tuple[dict[str, str], dict[str, Json], list[str]]:
    """Write suite.json and user/*.jsonl; return (files -> sha256, counts, failing task ids)."""
    system_message = load_system_message(None)
    task_ids = sorted(suite.user_tasks, key=task_number)
    files: dict[str, str] = {}

    write(
        out,
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
        files,
    )
    shutil.rmtree(out / suite.name / "user", ignore_errors=True)
    calls, failing = 0, []
    for task_id in task_ids:
        lines, n_calls, utility = user_trace(suite, suite.user_tasks[task_id], system_message)
        calls += n_calls
        if not utility:
            failing.append(task_id)
        write(out, f"{suite.name}/user/{task_id}.jsonl", jsonl(lines), files)
    return files, {"userTasks": len(task_ids), "userCalls": calls}, failing


# ---------------------------------------------------------------------------
# Attacks (phase 2)


def replayable(task: BaseInjectionTask[Any], env: Env) -> bool:
    """Whether the injection task has a reference solution (a non-empty ground truth)."""
    try:
        return len(task.ground_truth(env.model_copy(deep=True))) > 0
    except NotImplementedError:
        return False


def attack_trace(
    suite: TaskSuite[Any],
    attack: FixedJailbreakAttack,
    task: BaseUserTask[Any],
    injection_task: BaseInjectionTask[Any],
    system_message: str,
) -> tuple[list[Json], bool]:
    """Run one user task's ground truth under attack, then the injection task's; return (lines, security)."""
    injections = attack.attack(task, injection_task)  # vector id -> injected text
    recorder = GroundTruthRecorder(task, injection_task)
    pipeline = AgentPipeline([SystemMessage(system_message), InitQuery(), recorder])
    # Loads the environment with the injections, applies init_environment, runs both ground
    # truths, then checks utility and security (incl. security_from_traces) as the benchmark does.
    utility, security = suite.run_task_with_pipeline(
        pipeline, task, injection_task=injection_task, injections=injections
    )
    header = {
        "pab": "trace",
        "schemaVersion": 1,
        "id": f"agentdojo/{BENCHMARK_VERSION}/{suite.name}/{task.ID}__{injection_task.ID}",
        "meta": {
            "source": "agentdojo",
            "suite": suite.name,
            "userTask": task.ID,
            "injectionTask": injection_task.ID,
            "attack": attack.name,
            "attackModelName": getattr(attack, "model_name", None),
            "attackUserName": getattr(attack, "user_name", None),
            "attackPipelineName": ATTACK_PIPELINE_NAME,
            "injectionVectors": sorted(injections),
            "injectionTaskGoal": injection_task.GOAL,
            "attackSucceedsUnguarded": security,
            "utilityUnderAttack": utility,
        },
    }
    events = [
        {"type": "system", "content": system_message},
        {"type": "user", "content": task.PROMPT},
        *recorder.events,
    ]
    return [header, *events], security


def export_attacks(suite: TaskSuite[Any], out: Path, attack_name: str) -> tuple[dict[str, str], dict[str, Json]]:
    """Write attacks/<user_task>__<injection_task>.jsonl; return (files -> sha256, counts)."""
    system_message = load_system_message(None)
    target = AgentPipeline([SystemMessage(system_message), InitQuery()])
    target.name = ATTACK_PIPELINE_NAME
    attack = load_attack(attack_name, suite, target)
    assert isinstance(attack, FixedJailbreakAttack)
    env = suite.load_and_inject_default_environment({})
    injection_tasks = [suite.injection_tasks[i] for i in sorted(suite.injection_tasks, key=task_number)]
    kept = [t for t in injection_tasks if replayable(t, env)]
    excluded = sorted((t.ID for t in injection_tasks if t not in kept), key=task_number)
    user_tasks = [suite.user_tasks[i] for i in sorted(suite.user_tasks, key=task_number)]

    shutil.rmtree(out / suite.name / "attacks", ignore_errors=True)
    files: dict[str, str] = {}
    failures: list[str] = []
    for task in user_tasks:
        for injection_task in kept:
            pair = f"{task.ID}__{injection_task.ID}"
            lines, security = attack_trace(suite, attack, task, injection_task, system_message)
            if not security:
                failures.append(pair)
            write(out, f"{suite.name}/attacks/{pair}.jsonl", jsonl(lines), files)
    counts = {
        "pairs": len(files),
        "excluded": len(user_tasks) * len(excluded),
        "excludedInjectionTasks": excluded,
        "unguardedFailures": failures,
    }
    return files, {"attacks": counts}


# ---------------------------------------------------------------------------
# CLI


def manifest_header() -> dict[str, Json]:
    return {"schemaVersion": 1, "benchmarkVersion": BENCHMARK_VERSION, "agentdojo": AGENTDOJO_VERSION}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--part", choices=("user", "attacks", "policies"), required=True)
    parser.add_argument("--suite", choices=SUITES, action="append", help="repeatable; default: all suites")
    parser.add_argument("--attack", choices=ATTACKS, default=ATTACK, help=f"default: {ATTACK}")
    parser.add_argument(
        "--out",
        type=Path,
        help=f"default: {DEFAULT_OUT.relative_to(TRACES.parents[1])} for {ATTACK}, "
        f"{(TRACES / 'attacks').relative_to(TRACES.parents[1])}/ATTACK for the others",
    )
    args = parser.parse_args(argv)
    if args.attack != ATTACK and args.part == "user":
        parser.error("--part user does not depend on the attack: the user traces live in the default --out")

    if version("agentdojo") != AGENTDOJO_VERSION:
        parser.error(f"agentdojo=={AGENTDOJO_VERSION} required, found {version('agentdojo')}")
    freeze_clock()
    suites = get_suites(BENCHMARK_VERSION)
    out: Path = args.out or (DEFAULT_OUT if args.attack == ATTACK else TRACES / "attacks" / args.attack)
    out.mkdir(parents=True, exist_ok=True)
    if args.part == "policies":
        write_policy_hashes(out, policy_hashes(POLICIES, SUITES))
        print(f"{out / 'manifest.json'}: policies {policy_hashes(POLICIES, SUITES)}")
        return 0
    for name in sorted(args.suite or SUITES):
        if args.part == "attacks":
            files, counts = export_attacks(suites[name], out, args.attack)
            update_manifest(out, name, "attacks", files, counts, manifest_header(), policy_hashes(POLICIES, SUITES))
            a = counts["attacks"]
            print(
                f"{name}: {a['pairs']} pairs, {a['excluded']} excluded {a['excludedInjectionTasks']}, "
                f"unguarded failures: {a['unguardedFailures']}"
            )
            continue
        files, counts, failing = export_user(suites[name], out)
        update_manifest(out, name, "user", files, counts, manifest_header(), policy_hashes(POLICIES, SUITES))
        print(f"{name}: {counts['userTasks']} user tasks, {counts['userCalls']} calls, utility failures: {failing}")
    return 0


if __name__ == "__main__":
    # Some AgentDojo tools order values through Python sets, so string hashing must be
    # fixed for the output to be reproducible: re-exec with PYTHONHASHSEED=0 if needed.
    if os.environ.get("PYTHONHASHSEED") != "0":
        os.execve(sys.executable, [sys.executable, *sys.argv], {**os.environ, "PYTHONHASHSEED": "0"})
    sys.exit(main())
