"""The argument checks of ``_validation`` and the metric knowledge of ``_metrics``
(the examples that stood in their docstrings)."""

import numpy as np
import pandas as pd
import pytest

from sklearn_bench._metrics import (
    known_direction,
    metric_bounds,
    out_of_bounds,
    wrong_direction,
)
from sklearn_bench._validation import (
    check_random_state,
    check_saved_metadata,
    first_non_numeric,
    named_items,
    real_array,
    real_number,
)


def test_first_non_numeric_finds_text_and_skips_missing_values():
    """H: the first text cell is named by column label and row; text that reads
    as a number and a missing value are not text."""
    frame = pd.DataFrame({"a": [1.0, 2.0], "b": ["3", "x"]})
    assert first_non_numeric(frame) == ("b", 1, "x")
    assert first_non_numeric([[1.0, None], [2.0, 3.0]]) is None


def test_real_number_and_real_array_name_the_argument():
    """H: a string is not a real number, and a ragged array not an array of
    reals; each message quotes the argument."""
    with pytest.raises(TypeError, match=r"`confidence_level` must be a real number; "
                       r"got '0.95' \(str\)\."):  # fmt: skip
        real_number("0.95", "confidence_level")
    with pytest.raises(ValueError, match="`x` must be an array of real numbers: "):
        real_array([[1, 2], [3]], "x")


def test_named_items_refuses_a_repeated_name():
    """H: a name given twice in a list of pairs is refused by name."""
    with pytest.raises(ValueError, match="Duplicate learner name 'a' in `learners`."):
        dict(named_items([("a", 1), ("a", 2)], "learners", noun="learner",
                         what="estimator"))  # fmt: skip


def test_check_random_state_gives_numpy_default_rng_draws():
    """H: an int seed gives the draws of numpy.random.default_rng(seed)."""
    assert check_random_state(0).random() == np.random.default_rng(0).random()


def test_check_saved_metadata_reads_fields_and_refuses_a_text_version():
    """H: valid metadata gives (metrics, datasets, learners, info); a format
    version of another type is refused, naming the file."""
    meta = {
        "format_version": 1,
        "file_format": "csv",
        "has_predictions": False,
        "metrics": [{"name": "e", "greater_is_better": False}],
        "datasets": [{"name": "d", "problem": "unknown"}],
        "learners": ["a"],
        "info": {},
    }
    assert check_saved_metadata(meta, "m.json", version=1) == (
        {"e": False}, {"d": "unknown"}, ["a"], {},
    )  # fmt: skip
    meta["format_version"] = "1"
    with pytest.raises(ValueError) as exc:
        check_saved_metadata(meta, "m.json", version=1)
    assert str(exc.value) == (
        "m.json: `format_version` says format version '1' (a str); this "
        "sklearn_bench reads 1 (an int)."
    )


def test_metric_bounds_and_out_of_bounds():
    """H: proportions lie in [0, 1], losses in [0, inf), a neg_ prefix negates the
    range; NaN (a recorded failure) is within bounds."""
    assert metric_bounds("error_rate") == (0.0, 1.0)
    assert metric_bounds("mean_squared_error") == (0.0, None)
    assert metric_bounds("neg_mean_squared_error") == (None, -0.0)
    mask = out_of_bounds("error_rate", [0.5, 7.5, -5.0, float("nan")])
    assert mask.tolist() == [False, True, True, False]


def test_known_and_wrong_direction():
    """H: the direction of a known name is inferred (any case, suffixes allowed),
    and a metric said to be better the wrong way round is named."""
    assert (known_direction("neg_log_loss"), known_direction("error_rate")) == (
        True,
        False,
    )
    assert wrong_direction({"error_rate": False, "F1_macro": True}) is None
    assert wrong_direction({"f1_macro": False}) == (
        "it says that a lower f1_macro is better, which is wrong for f1_macro "
        "(higher is better)"
    )
