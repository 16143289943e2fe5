"""Writes docs/cli.md, the reference of every command and flag, from the argparse parsers
themselves, so the reference cannot drift from the tool (a test compares the committed file).

    python3 -m puzzledsl.cli_doc > docs/cli.md
"""

from __future__ import annotations

import argparse
import os
from unittest import mock

WIDTH = "100"  # argparse wraps help to $COLUMNS; a fixed width keeps the file stable


def subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def reference() -> str:
    from .cli import _parser

    with mock.patch.dict(os.environ, {"COLUMNS": WIDTH}):
        main = _parser()
        parts = ["# Command-line reference",
                 "",
                 "Generated from the parser by `python3 -m puzzledsl.cli_doc > docs/cli.md`; do not edit by hand",
                 "(`tests/test_packaging.py` checks that it is current). The README has a tour; `docs/api.md` the",
                 "same features from Python.",
                 "", "## puzzledsl", "", _block(main.format_help())]
        for name, sub in subparsers(main).items():
            parts += [f"## puzzledsl {name}", "", _block(sub.format_help())]
            for genre, gen in subparsers(sub).items():  # `generate GENRE`
                parts += [f"### puzzledsl {name} {genre}", "", _block(gen.format_help())]
    return "\n".join(parts).rstrip("\n") + "\n"


def _block(text: str) -> str:
    lines = [line.rstrip() for line in text.rstrip("\n").splitlines()]
    return "```text\n" + "\n".join(lines) + "\n```\n"


if __name__ == "__main__":
    print(reference(), end="")
