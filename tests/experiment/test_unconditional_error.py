"""Tests of the unconditional error by simulation (Boulesteix et al. 2013, Sec. 2)."""

from functools import partial

import numpy as np
import pytest
from numpy.testing import assert_allclose
from scipy.stats import norm
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.dummy import DummyClassifier

from sklearn_bench.datasets import make_angle_classification
from sklearn_bench.experiment import unconditional_error

ANGLE = 45


def _lda_true_error(lda, angle):
    """Closed-form error of a fitted linear rule on the angle problem.

    Class 0 ~ N((0, 0), 0.2 I); class 1 = equal mixture of N((0, 1), 0.2 I) and
    N((cos g, sin g), 0.2 I); priors 1/2 (Hothorn et al. 2005, Section 5.2).
    The rule predicts 1 iff w.x + c > 0, so a component N(mu, 0.2 I) is on the
    positive side with probability Phi((w.mu + c) / (sqrt(0.2) |w|)).
    """
    w, c = lda.coef_[0], lda.intercept_[0]
    s = np.sqrt(0.2) * np.linalg.norm(w)
    g = np.deg2rad(angle)

    def positive(mu):
        return norm.cdf((w @ np.asarray(mu) + c) / s)

    return 0.5 * positive((0, 0)) + 0.25 * (
        1 - positive((0, 1)) + 1 - positive((np.cos(g), np.sin(g)))
    )


def test_lda_matches_closed_form_unconditional_error():
    """H: LDA's estimate equals an average of closed-form conditional errors."""
    # Details: the estimate for LDA on the angle problem equals an independent
    # Monte Carlo average of closed-form conditional errors, and its standard
    # error the closed-form spread over sqrt(B).
    sampler = partial(make_angle_classification, angle=ANGLE)
    n, b = 40, 150
    res = unconditional_error(
        LinearDiscriminantAnalysis(),
        sampler,
        n_train=n,
        n_replicates=b,
        n_test=20000,
        random_state=0,
    )
    # Reference: 2000 independent training samples, exact conditional errors.
    rng = np.random.RandomState(123)
    exact = np.array(
        [
            _lda_true_error(
                LinearDiscriminantAnalysis().fit(*sampler(n, random_state=rng)), ANGLE
            )
            for _ in range(2000)
        ]
    )
    reference = exact.mean()  # SE exact.std()/sqrt(2000), about 0.0002
    # tolerance: MC error of the estimate (~0.001), of the reference (~0.0002),
    # and of the shared test sample, sqrt(0.2 * 0.8 / 20000) = 0.0028; 3 SE ~ 0.01
    tol = 3 * np.sqrt(res.standard_error[0] ** 2 + 0.0002**2 + 0.2 * 0.8 / 20000)
    assert abs(res.estimate[0] - reference) < tol
    assert_allclose(res.standard_error[0], exact.std(ddof=1) / np.sqrt(b), rtol=0.3)
    assert res.n_replicates == b and res.errors.shape == (b, 1)


def test_constant_classifier_error_is_prior():
    """H: a constant classifier's error is the prior 1/2 with zero MC SE."""
    # Details: always predicting class 0 has conditional error P(y = 1) = 1/2 on
    # every training sample: zero Monte Carlo SE, estimate within 3 binomial SE of
    # 0.5.
    res = unconditional_error(
        {"const": DummyClassifier(strategy="constant", constant=0)},
        partial(make_angle_classification, angle=0),
        n_train=20,
        n_replicates=5,
        n_test=4000,
        random_state=1,
    )
    assert res.standard_error[0] == 0
    assert abs(res.estimate[0] - 0.5) < 3 * np.sqrt(0.25 / 4000)
    frame = res.to_frame()
    assert list(frame.columns[:3]) == ["learner", "estimate", "standard_error"]
    ci = res.confidence_interval(0.9)
    assert ci.low[0] == ci.high[0] == res.estimate[0]


def test_invalid_replicates_and_level():
    """H: fewer than two training samples, a level outside (0, 1) and a level that
    is not a number raise, naming the argument (the package's one level check)."""
    sampler = partial(make_angle_classification, angle=0)
    with pytest.raises(ValueError, match="`n_replicates`"):
        unconditional_error(DummyClassifier(), sampler, n_train=10, n_replicates=1)
    res = unconditional_error(  # seeded: an unseeded draw of 10 may hold one class
        DummyClassifier(),
        sampler,
        n_train=10,
        n_replicates=2,
        n_test=10,
        random_state=0,
    )
    with pytest.raises(ValueError, match="`confidence_level` must lie strictly"):
        res.confidence_interval(1.5)
    # the package's one level check: a string is refused by name, not with an
    # arithmetic TypeError from inside the method
    with pytest.raises((TypeError, ValueError), match="`confidence_level`"):
        res.confidence_interval("0.9")
