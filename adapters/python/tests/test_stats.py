import math

import pytest

from pab_agentdojo.stats import format_rate, upper_bound_zero


def test_upper_bound_zero_is_the_exact_binomial_bound():
    for trials in (1, 4, 16, 48, 1000):
        bound = upper_bound_zero(trials)
        assert math.isclose((1 - bound) ** trials, 0.05)  # P(0 successes | p = bound) is exactly 5%
        assert bound < 3 / trials or trials < 3  # just under the rule of three
    assert round(upper_bound_zero(48), 4) == 0.0605  # the seed's "about 6%" for 0 of 48


def test_upper_bound_zero_rejects_no_trials_and_bad_confidence():
    with pytest.raises(ValueError, match="Cannot bound a rate over 0 trials: need at least one"):
        upper_bound_zero(0)
    with pytest.raises(ValueError, match="Cannot use confidence 1.5"):
        upper_bound_zero(10, 1.5)


def test_format_rate_prints_count_total_and_percent():
    assert format_rate(16, 48) == "16 / 48 (33%)"
    assert format_rate(0, 48) == "0 / 48 (0%)"
    assert format_rate(0, 0) == "0 / 0"
