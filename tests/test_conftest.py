"""The suite's own hooks (conftest.py): every test starts with no matplotlib
figure open (issue 37 item 12)."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402


def test_a_test_may_leave_a_figure_open():
    """H (the setup of the next test): a test opens a figure and does not close
    it, as many plotting tests do."""
    plt.figure()
    assert plt.get_fignums()


def test_the_next_test_starts_with_no_figure_open():
    """H: the autouse fixture of conftest.py closed the figure the previous test
    left open (on 17a1a60 it stayed open, and the suite passed 20 open figures
    with matplotlib's warning)."""
    assert plt.get_fignums() == []
