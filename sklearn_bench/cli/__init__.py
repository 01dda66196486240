"""The command line, ``sklearn-bench``: run, report, demo, store, merge and
leaderboard, and the TOML configuration of a run."""

from ._main import main

__all__ = ["main"]
