"""Arukone (Numberlink) puzzles with exactly one solution, written in BWINF format.

    puzzledsl generate arukone --size N --pairs K [--count M] [--seed S]
                               [--rules literal|touchfree|fill|fill+touchfree] [--fill] [--touchfree]
                               [--out DIR] [--jobs J] [--scheduler ADDRESS] [--verify rules|fast]

How a puzzle is made:

1. A layout, i.e. the intended solution: a random domino tiling whose dominoes (lines of two
   cells) are joined end to end until K lines are left. Two lines are joined only where they
   touch nowhere else, so every line stays touch-free (it never runs beside itself); when no
   such join is left, an end cell moves from one line to a neighbouring line's end to open new
   ones. Touch-free covers of the whole board are nearly always unique puzzles. (`--fill`
   alone also allows joins that touch, as a last resort.)
2. Uniqueness under the chosen notion (`--rules literal`, the default: the rules as printed,
   cells may stay empty and solutions differ by their edges; `fill`: every cell used;
   `touchfree`: a line never runs beside itself) is checked by a SAT model of its own in one incremental solver per
   process: a puzzle is a set of assumptions (its ends), its known solution is excluded by one
   clause, and cycles are cut lazily. For a full cover, strict uniqueness equals uniqueness
   among touch-free and tight solutions (see `Generator` and `Checker._tight`), which the solver
   decides much faster.
3. A second solution, when there is one, guides a repair instead of a fresh start: a line is
   cut at an edge the second solution does not use (the new ends rule that solution out), and
   two other lines are joined to get back to K. The result is checked again.
4. Labels are ordered so that a greedy router (pairs in label order, each along a shortest
   path, as BWINF's checker does) fails: pair 1 is, where possible, a line longer than the
   shortest way between its ends. On a strictly unique puzzle such a greedy run cannot succeed.
5. Before it is written, each puzzle is verified with the real rules (`puzzles/arukone.puz`,
   compiled and solved with `Mode(unique=True)` and the notion's options); should they find a
   second solution, it is repaired like in step 3. `--verify fast` skips this step.

Output: `DIR/arukone-N-K-SEED-I.txt` (I = 1..M): `N`, `K`, then N rows of N integers, 0 = empty.
The same command line (seed and --jobs included) writes the same files. With `--scheduler`
the J workers run on a Dask cluster (J = --jobs, else the cluster's threads, printed at the
end): the same seed and J write the same files as `--jobs J` on one machine.

The parts, in the order the data flows:

    board.py      the grid as numbers: cells, neighbours, edge ids
    layout.py     step 1: dominoes joined into K touch-free lines
    checker.py    steps 2 and 5: uniqueness by our SAT model, then by the rules
    puzzle.py     step 4: the label order, and the BWINF text
    generator.py  steps 1-5 as a loop, one puzzle after another (Settings, Stats)
    batch.py      many puzzles: in this process, in worker processes, on Dask
    command.py    the command line: options, files, summary
"""


from .command import add_arguments, run

__all__ = ["add_arguments", "run"]
