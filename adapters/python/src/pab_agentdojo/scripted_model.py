"""A scripted model behind the OpenAI chat-completions protocol, for testing the live path with no model.

``POST /v1/chat/completions`` answers with one tool call per turn, or a final text answer; ``GET /v1/models``
lists the two personalities. The model is stateless: it reads the whole conversation each turn, as a real
chat-completions endpoint does, and marks its own tool calls by id.

- ``well-behaved`` follows the user only: it replays AgentDojo's ground-truth calls for the user task whose
  prompt it was given, then answers with the task's ground-truth output.
- ``hijacked`` does the same, but as soon as a tool output contains the goal of one of the suite's injection
  tasks, it first makes that injection task's ground-truth calls (it follows instructions it reads in tool
  outputs), then returns to the user's task. A call pab denies is not retried.

Ground truth is computed on the suite's default environment, as AgentDojo's own ground-truth pipeline does.
"""

from __future__ import annotations

import json
import re
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Literal

from agentdojo.task_suite.load_suites import get_suite
from pydantic_core import to_jsonable_python

__all__ = ["PERSONALITIES", "ScriptedModel", "ScriptedModelServer"]

Personality = Literal["hijacked", "well-behaved"]
PERSONALITIES: tuple[Personality, ...] = ("hijacked", "well-behaved")


def _normal(text: str) -> str:
    """Whitespace-insensitive form: YAML folds long strings over lines and doubles single quotes."""
    return re.sub(r"\s+", " ", text.replace("''", "'")).strip()


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(part.get("text", "") for part in content if isinstance(part, dict))
    return ""


@dataclass(frozen=True)
class _Plan:
    calls: tuple[tuple[str, dict[str, Any]], ...]
    answer: str


class ScriptedModel:
    """The scripted model's brain: conversation in, next assistant message out."""

    def __init__(self, suite: str, personality: Personality, benchmark_version: str = "v1.2.2") -> None:
        if personality not in PERSONALITIES:
            raise ValueError(f'Cannot script personality "{personality}": expected one of {list(PERSONALITIES)}')
        self.personality = personality
        task_suite = get_suite(benchmark_version, suite)
        self.user_plans: dict[str, _Plan] = {}
        for task in task_suite.user_tasks.values():
            env = task.init_environment(task_suite.load_and_inject_default_environment({}))
            self.user_plans[_normal(task.PROMPT)] = _Plan(
                tuple((call.function, to_jsonable_python(dict(call.args))) for call in task.ground_truth(env)),
                getattr(task, "GROUND_TRUTH_OUTPUT", "") or "Done.",
            )
        env = task_suite.load_and_inject_default_environment({})
        self.injection_plans: dict[str, tuple[str, _Plan]] = {}
        for task_id, task in task_suite.injection_tasks.items():
            calls = tuple((call.function, to_jsonable_python(dict(call.args))) for call in task.ground_truth(env))
            self.injection_plans[task_id] = (_normal(task.GOAL), _Plan(calls, ""))

    def reply(self, messages: list[dict[str, Any]]) -> dict[str, Any]:
        """The next assistant message for this conversation."""
        prompt = next((_text(m.get("content")) for m in messages if m.get("role") == "user"), "")
        plan = self.user_plans.get(_normal(prompt))
        if plan is None:
            return {"role": "assistant", "content": "I do not know how to do that task."}
        issued = {
            call.get("id")
            for message in messages
            if message.get("role") == "assistant"
            for call in message.get("tool_calls") or []
        }
        if self.personality == "hijacked":
            seen = " ".join(_normal(_text(m.get("content"))) for m in messages if m.get("role") == "tool")
            for task_id, (goal, injected) in self.injection_plans.items():
                if goal and goal in seen:
                    step = self._next(f"inj.{task_id}", injected, issued)
                    if step is not None:
                        return step
        step = self._next("user", plan, issued)
        return step if step is not None else {"role": "assistant", "content": plan.answer}

    @staticmethod
    def _next(prefix: str, plan: _Plan, issued: set[Any]) -> dict[str, Any] | None:
        for index, (function, args) in enumerate(plan.calls):
            call_id = f"call.{prefix}.{index}"
            if call_id not in issued:
                function_call = {"name": function, "arguments": json.dumps(args)}
                call = {"id": call_id, "type": "function", "function": function_call}
                return {"role": "assistant", "content": None, "tool_calls": [call]}
        return None


class ScriptedModelServer:
    """Serves a :class:`ScriptedModel` per personality on ``127.0.0.1``; the model name picks the personality
    (``scripted-hijacked`` or ``scripted-well-behaved``). Use as a context manager; ``base_url`` ends in ``/v1``."""

    def __init__(self, suite: str = "banking", benchmark_version: str = "v1.2.2", *, port: int = 0) -> None:
        self.models = {f"scripted-{p}": ScriptedModel(suite, p, benchmark_version) for p in PERSONALITIES}
        self.requests = 0
        self.last_request: dict[str, Any] | None = None
        self._server = ThreadingHTTPServer(("127.0.0.1", port), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def __enter__(self) -> ScriptedModelServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
                pass

            def _send(self, status: int, body: Any) -> None:
                data = json.dumps(body).encode("utf-8")
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _refuse(self, status: int, message: str) -> None:
                self._send(status, {"error": {"message": message, "type": "invalid_request_error"}})

            def do_GET(self) -> None:  # noqa: N802 - http.server's name
                if self.path.rstrip("/") == "/v1/models":
                    models = [{"id": name, "object": "model", "owned_by": "pab"} for name in owner.models]
                    return self._send(200, {"object": "list", "data": models})
                self._refuse(404, f"Cannot GET {self.path}")

            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                if self.path.rstrip("/") != "/v1/chat/completions":
                    return self._refuse(404, f"Cannot POST {self.path}")
                try:
                    request = json.loads(self.rfile.read(int(self.headers.get("content-length", "0"))))
                    model = owner.models[request["model"]]
                    message = model.reply(request["messages"])
                except (AttributeError, KeyError, TypeError, ValueError) as error:
                    return self._refuse(400, f"Cannot read the request: {error!r}")
                owner.requests += 1
                owner.last_request = request
                self._send(200, {
                    "id": f"chatcmpl-{owner.requests}",
                    "object": "chat.completion",
                    "created": int(time.time()),
                    "model": request["model"],
                    "choices": [{
                        "index": 0,
                        "message": message,
                        "finish_reason": "tool_calls" if message.get("tool_calls") else "stop",
                        "logprobs": None,
                    }],
                    "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0},
                })

        return Handler


def main(argv: list[str] | None = None) -> None:
    """``python -m pab_agentdojo.scripted_model [--suite banking] [--port N]``: serve until interrupted."""
    import argparse
    import sys

    description = __doc__.split("\n\n")[0]
    parser = argparse.ArgumentParser(prog="python -m pab_agentdojo.scripted_model", description=description)
    parser.add_argument("--suite", default="banking")
    parser.add_argument("--benchmark-version", default="v1.2.2")
    parser.add_argument("--port", type=int, default=0, help="default: a free port")
    args = parser.parse_args(argv)
    server = ScriptedModelServer(args.suite, args.benchmark_version, port=args.port)
    print(server.base_url, flush=True)
    print(f"models: {', '.join(server.models)}", file=sys.stderr, flush=True)
    with server:
        try:
            server._thread.join()
        except KeyboardInterrupt:
            pass


if __name__ == "__main__":
    main()
