"""The ``sklearn-bench`` command line: ``demo``, ``run CONFIG`` and ``report STORE``."""

import argparse
import sys

from ._version import __version__


def _build_parser():
    parser = argparse.ArgumentParser(
        prog="sklearn-bench",
        description="Benchmark experiments for scikit-learn, with honest statistics.",
    )
    parser.add_argument(
        "--version", action="version", version=f"%(prog)s {__version__}"
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    demo = sub.add_parser(
        "demo", help="run a small real benchmark and print what it shows"
    )
    demo.set_defaults(func=_cmd_demo)
    return parser


def _cmd_demo(args):
    from .model_selection._demo import run_demo

    return run_demo(out=sys.stdout)


def main(argv=None):
    """Entry point of the ``sklearn-bench`` console script; returns the exit code."""
    parser = _build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    return args.func(args) or 0
