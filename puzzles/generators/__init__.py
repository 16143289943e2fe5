"""Puzzle generators, one module or package per genre (`puzzledsl generate GENRE`).

Genre knowledge lives here, beside the genres' rule files, and never in the compiler. A
generator module provides `add_arguments(parser)` (its command-line options, added to an
`argparse.ArgumentParser`) and `run(args) -> int` (an exit code: 0 when every requested
puzzle was written). A generator too large for one module is a package whose `__init__.py`
provides these two.
"""
