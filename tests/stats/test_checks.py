"""The argument checks and the random-state resolver that stats takes from
sklearn_bench/_validation.py keep the behaviour of the copies they replaced."""

import numpy as np
import pytest

from sklearn_bench._validation import (
    check_axis,
    check_confidence_level,
    check_fraction,
    check_positive_int,
    check_random_state,
    real_number,
)


def test_random_state_shares_a_random_states_stream():
    """H: a RandomState gives a Generator on its own bit generator (the rule of
    stats' former _as_generator): the same seed gives the same draws, and
    drawing advances the RandomState."""
    a = check_random_state(np.random.RandomState(3)).random(4)
    b = np.random.Generator(np.random.RandomState(3)._bit_generator).random(4)
    np.testing.assert_array_equal(a, b)
    rs = np.random.RandomState(3)
    check_random_state(rs).random(4)
    assert rs.random_sample() != np.random.RandomState(3).random_sample()
    assert check_random_state(rs, keep_random_state=True) is rs
    gen = np.random.default_rng(0)
    assert check_random_state(gen) is gen


@pytest.mark.parametrize("bad", [True, "0", 1.5, [1]])
def test_random_state_refuses_what_cannot_seed(bad):
    """H: a bool, a string, a float or a list is a ValueError naming
    `random_state` (scikit-learn's exception type)."""
    with pytest.raises(ValueError, match="`random_state`"):
        check_random_state(bad)


def test_level_and_fraction_messages():
    """H: the checks keep the messages of stats' copies: the argument's name, the
    range, and the value as a float."""
    with pytest.raises(ValueError, match=r"`confidence_level` must lie strictly "
                       r"between 0 and 1; got 1\.0\."):  # fmt: skip
        check_confidence_level(1)
    with pytest.raises(ValueError, match=r"`alpha` must lie strictly between 0 and 1"):
        check_fraction(0, "alpha")
    with pytest.raises(TypeError, match=r"`alpha` must be a real number; got '0.05' "
                       r"\(str\)"):  # fmt: skip
        check_fraction("0.05", "alpha")
    assert check_fraction(np.float32(0.5), "alpha") == 0.5
    assert real_number(np.array(0.25), "x") == 0.25


def test_positive_int_and_axis():
    """H: a count below its minimum names the argument ("a positive integer" for
    minimum 1); an axis must be an int within the dimensions."""
    with pytest.raises(ValueError, match=r"`n_resamples` must be a positive integer"):
        check_positive_int(0, "n_resamples")
    with pytest.raises(ValueError, match=r"`n` must be an integer >= 2; got 1\."):
        check_positive_int(1, "n", minimum=2)
    assert check_axis(-1, 3) == 2
    with pytest.raises(ValueError, match="`axis`"):
        check_axis(3, 3)
    with pytest.raises(TypeError, match="`axis`"):
        check_axis(True, 3)
