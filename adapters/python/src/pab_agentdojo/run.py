"""A live AgentDojo run, with and without pab, against any OpenAI-compatible endpoint.

    python -m pab_agentdojo.run --suite banking --defense none pab --model qwen3:8b \\
        --base-url http://localhost:11434/v1 --injection-tasks injection_task_0 injection_task_1 injection_task_2

For each defence it runs every chosen user task without an attack, then every (user task, injection task) pair
under AgentDojo's ``important_instructions`` attack, and prints attack success, utility without attack and utility
under attack, with a one-sided 95% upper bound (exact binomial) on any attack success rate that is 0.

``--model scripted-hijacked`` or ``--model scripted-well-behaved`` without ``--base-url`` starts the scripted
model server (see ``scripted_model``) on localhost instead of talking to a real model.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import traceback
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, TextIO

import openai
from agentdojo.agent_pipeline import AgentPipeline, InitQuery, SystemMessage, ToolsExecutionLoop, ToolsExecutor
from agentdojo.agent_pipeline.agent_pipeline import load_system_message
from agentdojo.attacks.attack_registry import load_attack
from agentdojo.functions_runtime import EmptyEnv
from agentdojo.task_suite.load_suites import get_suite
from pydantic_core import to_jsonable_python

from pab_client import PabClient, PabError

from .chat_llm import ChatCompletionsLLM
from .executor import PabToolsExecutor
from .scripted_model import ScriptedModelServer
from .serve_process import REPO_ROOT, pab_serve
from .stats import format_rate, upper_bound_zero

__all__ = ["DefenseResult", "main", "run_defense"]

DEFENSES = ("none", "pab")
# As in AgentDojo's benchmark script (and pab's replayed traces): the attack addresses the model by the name
# AgentDojo derives from its default model, "GPT-4", whatever model is really behind the endpoint.
ATTACK_PIPELINE_NAME = "gpt-4o-2024-05-13"


@dataclass
class DefenseResult:
    """One defence's counts, per task and per pair."""

    defense: str
    utility: dict[str, bool] = field(default_factory=dict)
    attacks: dict[str, dict[str, bool]] = field(default_factory=dict)  # "u__i" -> {utility, attackSucceeded}
    errors: list[str] = field(default_factory=list)
    ran_calls: int = 0
    blocked_calls: int = 0
    failed_closed_calls: int = 0

    @property
    def attack_successes(self) -> int:
        return sum(pair["attackSucceeded"] for pair in self.attacks.values())

    @property
    def utility_under_attack(self) -> int:
        return sum(pair["utility"] for pair in self.attacks.values())


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m pab_agentdojo.run", description=__doc__.split("\n\n")[0])
    parser.add_argument("--suite", default="banking", help="AgentDojo suite (default banking)")
    parser.add_argument("--benchmark-version", default="v1.2.2")
    parser.add_argument("--defense", nargs="+", choices=DEFENSES, default=list(DEFENSES))
    parser.add_argument(
        "--model", required=True, help="model name at the endpoint, or scripted-hijacked / scripted-well-behaved"
    )
    parser.add_argument("--base-url", help="OpenAI-compatible endpoint, e.g. http://localhost:11434/v1 (Ollama)")
    parser.add_argument(
        "--api-key", default=os.environ.get("OPENAI_API_KEY", "local"), help="default $OPENAI_API_KEY or 'local'"
    )
    parser.add_argument("--temperature", type=float, default=0.0)
    parser.add_argument("--no-think", action="store_true", help="append Qwen3's /no_think switch to the system message")
    parser.add_argument("--user-tasks", nargs="+", help="default: every user task of the suite")
    parser.add_argument("--injection-tasks", nargs="+", default=[], help="default: none (utility only)")
    parser.add_argument("--attack", default="important_instructions")
    parser.add_argument("--policy", type=Path, help="default traces/agentdojo/policies/SUITE.yaml")
    parser.add_argument("--pab-url", help="use a running pab serve instead of starting one")
    parser.add_argument("--pab-token", help="the --token of a pab serve at --pab-url")
    parser.add_argument("--json", type=Path, help="also write the results as JSON to this file")
    parser.add_argument(
        "--logdir", type=Path, help="write each run's conversation to DIR/DEFENSE/TASK[__INJECTION].json"
    )
    return parser


def run_defense(
    defense: str,
    *,
    args: argparse.Namespace,
    llm_client: openai.OpenAI,
    pab: PabClient | None,
    log: TextIO,
) -> DefenseResult:
    """Run one defence over the chosen tasks and pairs."""
    suite = get_suite(args.benchmark_version, args.suite)
    system_message = load_system_message(None) + ("\n/no_think" if args.no_think else "")
    llm = ChatCompletionsLLM(llm_client, args.model, temperature=args.temperature)
    executor = ToolsExecutor() if defense == "none" else PabToolsExecutor(_require(pab))
    loop = ToolsExecutionLoop([executor, llm])
    pipeline = _RecordingPipeline([SystemMessage(system_message), InitQuery(), llm, loop])
    pipeline.name = f"{args.model}-{defense}"
    target = AgentPipeline([])
    target.name = ATTACK_PIPELINE_NAME
    attack = load_attack(args.attack, suite, target)
    result = DefenseResult(defense)
    user_tasks = args.user_tasks or list(suite.user_tasks)
    for task_id in user_tasks:
        task = suite.get_user_task_by_id(task_id)
        try:
            utility, _ = suite.run_task_with_pipeline(pipeline, task, injection_task=None, injections={})
        except Exception:  # one failed task must not end a run of hours; it counts as a failure and is reported
            result.errors.append(f"{task_id}: {traceback.format_exc(limit=3)}")
            utility = False
        result.utility[task_id] = bool(utility)
        _save_log(args.logdir, defense, task_id, pipeline, {"utility": bool(utility)})
        print(f"[{defense}] {task_id}: utility {utility}", file=log, flush=True)
        for injection_id in args.injection_tasks:
            injection = suite.get_injection_task_by_id(injection_id)
            pair = f"{task_id}__{injection_id}"
            try:
                injections = attack.attack(task, injection)
                utility, security = suite.run_task_with_pipeline(pipeline, task, injection, injections)
            except Exception:
                result.errors.append(f"{pair}: {traceback.format_exc(limit=3)}")
                utility, security = False, False
            result.attacks[pair] = {"utility": bool(utility), "attackSucceeded": bool(security)}
            _save_log(args.logdir, defense, pair, pipeline, result.attacks[pair])
            print(f"[{defense}] {pair}: utility {utility}, attack succeeded {security}", file=log, flush=True)
    if isinstance(executor, PabToolsExecutor):
        statuses = [record.status for record in executor.records]
        result.ran_calls = statuses.count("ran")
        result.blocked_calls = statuses.count("blocked") + statuses.count("needs_accept")
        result.failed_closed_calls = statuses.count("failed_closed")
    return result


class _RecordingPipeline(AgentPipeline):
    """AgentDojo's pipeline, keeping the last run's messages for ``--logdir``."""

    last_messages: Sequence[Any] = ()

    def query(self, query, runtime, env=EmptyEnv(), messages=[], extra_args={}):  # noqa: B006 - AgentDojo's signature
        self.last_messages = []
        out = super().query(query, runtime, env, messages, extra_args)
        self.last_messages = out[3]
        return out


def _save_log(logdir: Path | None, defense: str, name: str, pipeline: _RecordingPipeline, verdict: dict) -> None:
    if logdir is None:
        return
    folder = logdir / defense
    folder.mkdir(parents=True, exist_ok=True)
    record = {"run": name, "defense": defense, **verdict, "messages": to_jsonable_python(pipeline.last_messages)}
    (folder / f"{name}.json").write_text(json.dumps(record, indent=1, ensure_ascii=False))


def _check_names(args: argparse.Namespace) -> None:
    """Refuse unknown suites and tasks before anything starts, naming what exists."""
    try:
        suite = get_suite(args.benchmark_version, args.suite)
    except KeyError:
        raise SystemExit(f'Cannot run: AgentDojo {args.benchmark_version} has no suite "{args.suite}"') from None
    for kind, chosen, known in (
        ("user task", args.user_tasks or [], suite.user_tasks),
        ("injection task", args.injection_tasks, suite.injection_tasks),
    ):
        unknown = [name for name in chosen if name not in known]
        if unknown:
            names = ", ".join(sorted(known, key=_natural))
            raise SystemExit(f'Cannot run: {args.suite} has no {kind} "{unknown[0]}"; it has {names}')


def _natural(name: str) -> tuple[str, int]:
    stem, _, number = name.rpartition("_")
    return (stem, int(number)) if number.isdigit() else (name, -1)


def _require(pab: PabClient | None) -> PabClient:
    if pab is None:
        raise RuntimeError("Cannot run the pab defence: no pab server")
    return pab


def format_table(results: Sequence[DefenseResult]) -> str:
    """The results as a Markdown table, in the ProvGuard seed's shape, with the bounds below it."""

    def row(title: str, cells: Iterator[str]) -> str:
        return f"| {title} | " + " | ".join(cells) + " |"

    rows = [
        row("", ("No defence" if r.defense == "none" else r.defense for r in results)),
        "|---|" + "---|" * len(results),
        row("Attack success", (format_rate(r.attack_successes, len(r.attacks)) for r in results)),
        row("Utility, no attack", (f"{sum(r.utility.values())} / {len(r.utility)}" for r in results)),
        row("Utility under attack", (f"{r.utility_under_attack} / {len(r.attacks)}" for r in results)),
    ]
    for r in results:
        if r.attacks and r.attack_successes == 0:
            bound = upper_bound_zero(len(r.attacks))
            rows.append(
                f"- {r.defense}: 0 of {len(r.attacks)} attacks succeeded; the one-sided 95% upper bound on its attack "
                f"success rate is {100 * bound:.1f}% (exact binomial, Clopper-Pearson: 1 - 0.05^(1/{len(r.attacks)}))."
            )
        if r.defense == "pab":
            rows.append(
                f"- pab: {r.ran_calls} calls ran, {r.blocked_calls} were blocked, "
                f"{r.failed_closed_calls} did not run because pab could not be asked."
            )
        if r.errors:
            rows.append(f"- {r.defense}: {len(r.errors)} runs failed with an error and count as failures.")
    return "\n".join(rows)


@contextlib.contextmanager
def _endpoint(args: argparse.Namespace) -> Iterator[str]:
    if args.base_url:
        yield args.base_url
    elif args.model.startswith("scripted-"):
        with ScriptedModelServer(args.suite, args.benchmark_version) as server:
            yield server.base_url
    else:
        raise SystemExit(
            "Cannot run: --base-url is required unless --model is scripted-hijacked or scripted-well-behaved"
        )


@contextlib.contextmanager
def _pab(args: argparse.Namespace) -> Iterator[PabClient | None]:
    if "pab" not in args.defense:
        yield None
    elif args.pab_url:
        client = PabClient(args.pab_url, token=args.pab_token)
        try:
            client.health()
        except PabError as error:
            raise SystemExit(f"Cannot use pab at {args.pab_url}: {error}") from None
        yield client
    else:
        policy = args.policy or REPO_ROOT / "traces" / "agentdojo" / "policies" / f"{args.suite}.yaml"
        with pab_serve(policy) as client:
            yield client


def main(argv: Sequence[str] | None = None, out: TextIO = sys.stdout, log: TextIO = sys.stderr) -> list[DefenseResult]:
    """Run the benchmark; print the table to ``out`` and progress to ``log``."""
    args = _parser().parse_args(argv)
    _check_names(args)
    with _endpoint(args) as base_url, _pab(args) as pab:
        llm_client = openai.OpenAI(base_url=base_url, api_key=args.api_key, max_retries=2)
        results = [run_defense(d, args=args, llm_client=llm_client, pab=pab, log=log) for d in args.defense]
    users = len(results[0].utility) if results else 0
    print(
        f"AgentDojo {args.benchmark_version} {args.suite}, model {args.model}, attack {args.attack}: "
        f"{users} user tasks, {len(args.injection_tasks)} injection tasks",
        file=out,
    )
    print(format_table(results), file=out)
    if args.json:
        saved = [{**asdict(r), "attackSuccesses": r.attack_successes} for r in results]
        args.json.write_text(json.dumps(saved, indent=2))
    return results


if __name__ == "__main__":
    main()
