"""An AgentDojo pipeline element that asks pab before every tool call and records every result.

Use it in place of AgentDojo's ``ToolsExecutor``::

    ToolsExecutionLoop([PabToolsExecutor(PabClient(url)), llm])

For each task it opens a pab session, records the system and user messages as trusted, and for every tool call
the model makes it proposes the call to pab. Only a reserved call runs; its output (AgentDojo's structured value)
is committed to pab, which labels it by the policy. A call pab does not reserve never runs: the model is answered,
in a tool message, with pab's decision and the way to yes. If pab cannot be asked, or cannot record an output,
the call fails closed.
"""

from __future__ import annotations

from ast import literal_eval
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from agentdojo.agent_pipeline.base_pipeline_element import BasePipelineElement
from agentdojo.agent_pipeline.llms.google_llm import EMPTY_FUNCTION_NAME
from agentdojo.agent_pipeline.tool_execution import is_string_list, tool_result_to_str
from agentdojo.functions_runtime import EmptyEnv, Env, FunctionCall, FunctionReturnType, FunctionsRuntime
from agentdojo.types import ChatMessage, ChatToolResultMessage, get_text_content_as_str, text_content_block_from_string
from pydantic_core import to_jsonable_python

from pab_client import PabClient, PabError, PabSession, ProposeResult

__all__ = ["CallRecord", "PabToolsExecutor", "never_confirm"]

SESSION_KEY = "pab_session"
SYNCED_KEY = "pab_synced_messages"

ConfirmFunction = Callable[[ProposeResult], bool]


def never_confirm(result: ProposeResult) -> bool:
    """The benchmark has no human: every request for the user's confirmation is declined."""
    return False


@dataclass(frozen=True)
class CallRecord:
    """What happened to one tool call, named as ``pab serve`` names it: ``ran`` (it was ``reserved``), ``blocked``
    or ``needs_accept`` (the ``propose`` status that kept it from running), or ``failed_closed`` (pab could not be
    asked). ``outcome`` is the decision's ``allow``, ``confirm`` or ``block``."""

    session: str | None
    tool: str
    args: dict[str, Any]
    status: Literal["ran", "blocked", "needs_accept", "failed_closed"]
    outcome: str | None = None
    explanation: str = ""
    confirmed: bool = False
    gaps: tuple[str, ...] = field(default=())


class PabToolsExecutor(BasePipelineElement):
    """Runs the model's tool calls through pab (see the module doc). ``records`` lists every call, in order."""

    name = "pab"

    def __init__(
        self,
        client: PabClient,
        *,
        confirm: ConfirmFunction = never_confirm,
        accept: bool = True,
        tool_output_formatter: Callable[[FunctionReturnType], str] = tool_result_to_str,
    ) -> None:
        self.client = client
        self.confirm = confirm
        self.accept = accept
        self.output_formatter = tool_output_formatter
        self.records: list[CallRecord] = []

    def query(
        self,
        query: str,
        runtime: FunctionsRuntime,
        env: Env = EmptyEnv(),
        messages: Sequence[ChatMessage] = [],
        extra_args: dict = {},
    ) -> tuple[str, FunctionsRuntime, Env, Sequence[ChatMessage], dict]:
        if len(messages) == 0:
            return query, runtime, env, messages, extra_args
        extra_args = self._sync_messages(messages, extra_args)
        last = messages[-1]
        if last["role"] != "assistant" or not last["tool_calls"]:
            return query, runtime, env, messages, extra_args
        session: PabSession = extra_args[SESSION_KEY]
        results = [self._answer(session, runtime, env, call) for call in last["tool_calls"]]
        return query, runtime, env, [*messages, *results], extra_args

    def _sync_messages(self, messages: Sequence[ChatMessage], extra_args: dict) -> dict:
        """Open the task's session on first use and record new system and user messages as trusted."""
        session: PabSession = extra_args.get(SESSION_KEY) or self.client.create_session()
        synced: int = extra_args.get(SYNCED_KEY, 0)
        for message in messages[synced:]:
            if message["role"] == "system":
                session.system(get_text_content_as_str(message["content"]))
            elif message["role"] == "user":
                session.user(get_text_content_as_str(message["content"]))
        return {**extra_args, SESSION_KEY: session, SYNCED_KEY: len(messages)}

    def _answer(
        self, session: PabSession, runtime: FunctionsRuntime, env: Env, call: FunctionCall
    ) -> ChatToolResultMessage:
        if call.function == EMPTY_FUNCTION_NAME:
            return _tool_message(call, "", "Empty function name provided. Provide a valid function name.")
        if call.function not in (tool.name for tool in runtime.functions.values()):
            return _tool_message(call, "", f"Invalid tool {call.function} provided.")
        # As AgentDojo's ToolsExecutor does: list arguments sent as strings become lists (before pab sees them).
        for key, value in call.args.items():
            if isinstance(value, str) and is_string_list(value):
                call.args[key] = literal_eval(value)
        args = to_jsonable_python(dict(call.args))
        try:
            result, confirmed = self._propose(session, call.function, args)
        except PabError as error:
            text = f"pab could not check this call, so it did not run: {error}"
            self.records.append(CallRecord(session.id, call.function, args, "failed_closed", explanation=text))
            return _tool_message(call, text, text)
        gaps = tuple(gap.code for gap in result.decision.gaps)
        if result.status != "reserved" or result.reservation is None:
            text = f"pab did not run this call ({result.status}).\n{result.explanation}"
            self.records.append(
                CallRecord(session.id, call.function, args, result.status, result.decision.outcome, text, confirmed, gaps)
            )
            return _tool_message(call, text, text)
        value, error = runtime.run_function(env, call.function, call.args)
        try:
            if error is not None:
                session.commit(result.reservation.id, error=error)
            else:
                session.commit(result.reservation.id, output=to_jsonable_python(value))
        except PabError as failure:
            text = f"pab could not record this call's output, so it is withheld: {failure}"
            self.records.append(CallRecord(session.id, call.function, args, "failed_closed", explanation=text))
            return _tool_message(call, text, text)
        self.records.append(
            CallRecord(session.id, call.function, args, "ran", result.decision.outcome, result.explanation, confirmed)
        )
        return _tool_message(call, self.output_formatter(value), error)

    def _propose(self, session: PabSession, tool: str, args: dict[str, Any]) -> tuple[ProposeResult, bool]:
        """Propose; when only the user's word is missing and ``confirm`` says yes, ask for it and propose again."""
        result = session.propose(tool, args, accept=self.accept)
        if result.status != "blocked" or not _only_user_missing(result) or not self.confirm(result):
            return result, False
        # The user's yes is bound to the decision they were shown.
        ruling = session.request_ruling("user", tool, args, shown=result.shown)
        return session.propose(tool, args, accept=self.accept, rulings=[ruling.id]), True


def _only_user_missing(result: ProposeResult) -> bool:
    recovery = result.decision.recovery
    if recovery is None or not recovery.found or not recovery.steps:
        return False
    return all(step.kind == "ruling" and step.approver == "user" for step in recovery.steps)


def _tool_message(call: FunctionCall, content: str, error: str | None) -> ChatToolResultMessage:
    return ChatToolResultMessage(
        role="tool",
        content=[text_content_block_from_string(content)],
        tool_call_id=call.id,
        tool_call=call,
        error=error,
    )
