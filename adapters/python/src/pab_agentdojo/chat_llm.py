"""AgentDojo's ``OpenAILLM`` for any OpenAI-compatible endpoint (Ollama, vLLM, llama.cpp).

Two differences, both for local servers: the system prompt goes out with the ``system`` role (AgentDojo sends
``developer``, which OpenAI's newer models expect but many local chat templates do not know), and the temperature
is sent as given (AgentDojo drops a temperature of 0, which leaves the server's own default in force).
"""

from __future__ import annotations

from collections.abc import Sequence

from agentdojo.agent_pipeline.llms.openai_llm import (
    OpenAILLM,
    _function_to_openai,
    _message_to_openai,
    _openai_to_assistant_message,
)
from agentdojo.functions_runtime import EmptyEnv, Env, FunctionsRuntime
from agentdojo.types import ChatMessage
from openai._types import NOT_GIVEN

__all__ = ["ChatCompletionsLLM"]


class ChatCompletionsLLM(OpenAILLM):
    """An ``OpenAILLM`` that speaks plain chat completions (see the module doc)."""

    def query(
        self,
        query: str,
        runtime: FunctionsRuntime,
        env: Env = EmptyEnv(),
        messages: Sequence[ChatMessage] = [],
        extra_args: dict = {},
    ) -> tuple[str, FunctionsRuntime, Env, Sequence[ChatMessage], dict]:
        wire = [_message_to_openai(message, self.model) for message in messages]
        wire = [{**message, "role": "system"} if message["role"] == "developer" else message for message in wire]
        tools = [_function_to_openai(tool) for tool in runtime.functions.values()]
        completion = self.client.chat.completions.create(
            model=self.model,
            messages=wire,  # type: ignore[arg-type]
            tools=tools or NOT_GIVEN,
            tool_choice="auto" if tools else NOT_GIVEN,
            temperature=NOT_GIVEN if self.temperature is None else self.temperature,
        )
        output = _openai_to_assistant_message(completion.choices[0].message)
        return query, runtime, env, [*messages, output], extra_args
