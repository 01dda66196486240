"""Scaled-down reproduction of Yousefi et al. (2011): bias grows with m."""

import sys
from pathlib import Path

import numpy as np
from sklearn.model_selection import StratifiedKFold

from sklearn_bench.experiment import collect_rule_errors

sys.path.insert(
    0, str(Path(__file__).resolve().parents[2] / "benchmarks" / "reproduce")
)

import yousefi_bias  # noqa: E402


def test_bias_grows_with_m_on_synthetic_model():
    """H: on the synthetic model the bias grows with m (scaled down)."""
    # Details: on the synthetic microarray model (reduced: 200 features, n = 30,
    # 12 samples, 3 rules x 2 CV estimators) the mean minimum estimate falls with
    # m (exactly, all collections averaged) and Bias(m_max) < Bias(m = 2), the
    # paper's first claim; the script's claim checker reads the curves.
    rules = yousefi_bias.rules()
    sampler = yousefi_bias.models(n_features=200, n_high_variance=20)["equal var"]
    errors = collect_rule_errors(
        {k: rules[k] for k in ["3NN", "DLDA", "NMC"]},
        {"equal var": sampler, "equal var 2": sampler},
        n_train=30,
        n_samples=8,
        n_test=500,
        error_estimators={
            "cv5": StratifiedKFold(5, shuffle=True),
            "cv10": StratifiedKFold(10, shuffle=True),
        },
        random_state=0,
    )
    res = errors.multiple_rule_bias()
    frame = res.to_frame()
    for name in ["equal var", "equal var 2", "average"]:
        part = frame[frame["dataset"] == name]
        assert np.all(np.diff(part["estimated_minimum"]) <= 1e-12)
        # est_min falls on every sample from m = 2 to m = 6 by ~0.03 while the
        # expected true error of the chosen rule moves by ~0.003
        assert part["bias"].iloc[-1] < part["bias"].iloc[0]
    text, _ = yousefi_bias.claims(res, res)
    assert "bias grows (more negative) with m" in text
