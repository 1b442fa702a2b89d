"""The exporter's frozen clock: every `datetime.now()` the AgentDojo tools reach returns FROZEN_NOW.

Imported by export_traces.py; kept apart so each file stays short.
"""

import datetime
import types

from agentdojo.default_suites.v1.tools import cloud_drive_client, email_client
from agentdojo.default_suites.v1.tools.types import Email

# The environments' own "today" (workspace calendar and travel `current_day`), at noon.
FROZEN_NOW = datetime.datetime(2024, 5, 15, 12, 0, 0)


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
