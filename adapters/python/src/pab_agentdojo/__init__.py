"""pab for AgentDojo: a pipeline element that asks ``pab serve`` before every tool call, a live benchmark
(``python -m pab_agentdojo.run``) and a scripted chat-completions server for testing it without a model."""

from .executor import CallRecord, PabToolsExecutor, never_confirm

__all__ = ["CallRecord", "PabToolsExecutor", "never_confirm"]
