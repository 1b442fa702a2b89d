"""End to end: scripted model server + pab serve + AgentDojo's pipeline, through `python -m pab_agentdojo.run`.

2 banking user tasks x 2 injection tasks, both defences, both personalities. When this checkout has `pab serve`,
the run command starts the real one itself (no --pab-url), exactly as a user's run would.
"""

import io
import json

import pytest

from pab_agentdojo import run

SUBSET = ["--suite", "banking", "--defense", "none", "pab", "--user-tasks", "user_task_0", "user_task_1",
          "--injection-tasks", "injection_task_0", "injection_task_1"]


def live_run(model, pab, real_serve, tmp_path):
    out, log = io.StringIO(), io.StringIO()
    reach_pab = [] if real_serve else ["--pab-url", pab.client.base_url]
    results = run.main([*SUBSET, "--model", model, "--json", str(tmp_path / "results.json"), *reach_pab], out, log)
    by_defense = {result.defense: result for result in results}
    assert not by_defense["none"].errors and not by_defense["pab"].errors, log.getvalue()
    saved = {entry["defense"]: entry for entry in json.loads((tmp_path / "results.json").read_text())}
    return by_defense, out.getvalue(), saved


def test_run_main_hijacked_model_pab_stops_every_attack_the_undefended_agent_falls_for(pab, real_serve, tmp_path):
    results, table, saved = live_run("scripted-hijacked", pab, real_serve, tmp_path)
    none, guarded = results["none"], results["pab"]
    assert none.attack_successes == 4 and len(none.attacks) == 4  # the hijacked model really follows the injection
    assert guarded.attack_successes == 0 and len(guarded.attacks) == 4
    assert none.utility == {"user_task_0": True, "user_task_1": True}
    # user_task_0 pays an IBAN that only the bill file supplies: it needs the user's word, which the run declines.
    assert guarded.utility == {"user_task_0": False, "user_task_1": True}
    assert guarded.utility_under_attack == 2 and guarded.denied_calls > 0
    assert "| Attack success | 4 / 4 (100%) | 0 / 4 (0%) |" in table
    assert "| Utility, no attack | 2 / 2 | 1 / 2 |" in table
    assert "one-sided 95% upper bound on its attack success rate is 52.7% (exact binomial" in table
    assert saved["pab"]["attackSuccesses"] == 0 and saved["none"]["attackSuccesses"] == 4


def test_run_main_well_behaved_model_is_never_attacked_successfully(pab, real_serve, tmp_path):
    results, table, _ = live_run("scripted-well-behaved", pab, real_serve, tmp_path)
    assert results["none"].attack_successes == 0 and results["pab"].attack_successes == 0
    assert results["none"].utility_under_attack == 4
    assert results["pab"].utility == {"user_task_0": False, "user_task_1": True}
    assert "| Attack success | 0 / 4 (0%) | 0 / 4 (0%) |" in table


def test_run_main_needs_an_endpoint_for_a_real_model():
    with pytest.raises(SystemExit, match="--base-url is required"):
        run.main(["--model", "qwen3:8b", "--defense", "none"], io.StringIO(), io.StringIO())
