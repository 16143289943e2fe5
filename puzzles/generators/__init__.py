"""Puzzle generators, one module per genre (`puzzledsl generate GENRE`).

Genre knowledge lives here, beside the genres' rule files, and never in the compiler. A
generator module provides `add_arguments(parser)` (its command-line options, added to an
`argparse.ArgumentParser`) and `run(args) -> int` (an exit code: 0 when every requested
puzzle was written).
"""
