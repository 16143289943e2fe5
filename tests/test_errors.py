"""Malformed inputs: every one exits 2 with `file:line:col: error: ...`, the source line,
a caret under the culprit, and never a Python traceback.

Each case writes its files to tmp_path and runs the CLI (`puzzledsl.cli.main`, and a few
through a real subprocess).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from puzzledsl.cli import main

ROOT = Path(__file__).resolve().parents[1]

HEAD = re.compile(r"^(?P<path>.+?):(?P<line>\d+):(?P<col>\d+): error: (?P<msg>.+)$")

SMALL = """given N: int
var x[1..N]: bool
rule "one": count(i in 1..N: x[i]) == 1
N = 3
"""

SYMS = """given N: int
given h[1..N]: sym legend {"a": foo, "b": bar}
var x[1..N]: bool
h = ["a", "b", "a"]
N = 3
"""

GRID = """given N: int
given h[1..N, 1..N]: sym? legend {"-": ?, "a": foo}
var x[1..N]: bool
rule "r": x[1]
N = 3
"""


@dataclass
class Case:
    id: str
    files: dict[str, str]
    args: list[str]  # `{name}` is replaced by the path of that file in tmp_path
    file: str  # the file the error must point into
    line: int | str  # a line number, or a fragment of the line (for files this test does not write)
    col: int | None = None
    message: str = ""  # a fragment of the message (case-insensitive)
    help: str | None = None  # a fragment of the help line
    extra: dict[str, str] = field(default_factory=dict)


def solve(main_file: str = "p.puz", *more: str) -> list[str]:
    return ["solve", "{" + main_file + "}", *more]


CASES = [
    # ---------------------------------------------------------------- syntax
    Case("missing-colon-in-rule",
         {"p.puz": 'given N: int\nvar x[1..N]: bool\nrule "r" count(i in 1..N: x[i]) == 1\nN = 3\n'},
         solve(), "p.puz", 3, 10, "unexpected", "`:`"),
    Case("a-type-written-out-integer",  # friction log 12: was "unexpected `?`" about something else
         {"p.puz": 'given N: int\ngiven r[1..N]: integer?\nN = 3\n'},
         solve(), "p.puz", 2, 16, "unknown type `integer`", "did you mean `int`?"),
    Case("a-type-written-out-at-the-end-of-a-line",  # was located at the next statement
         {"p.puz": 'given N: int\ngiven r[1..N]: integer\nvar b[1..N]: bool\nN = 3\n'},
         solve(), "p.puz", 2, 16, "unknown type `integer`", "`int`, `bool` or `sym`"),
    Case("a-variable-of-type-boolean",
         {"p.puz": 'given N: int\nvar b[1..N]: boolean outside false\nN = 3\n'},
         solve(), "p.puz", 2, 14, "unknown type `boolean`", "`bool`, `edges` or a range"),
    Case("show-options-without-a-comma",
         {"p.puz": 'given N: int\ngiven r[1..N]: int\nvar b[1..N]: bool\nshow b marked r clue r at right\n'
                   'N = 3\nr = [1, 2, 3]\n'},
         solve(), "p.puz", 4, 17, "a comma is missing before `clue`", "separated by commas"),
    Case("a-size-read-off-another-grid-says-which",  # friction log 12: the other grid may be the wrong one
         {"p.puz": 'given R: int\ngiven C: int\ngiven g[1..R, 1..C]: int\ngiven r[1..R]: int\n'
                   'g = """\n1 2\n3 4\n"""\nr = [1, 2, 3]\n'},
         solve(), "p.puz", 9, 12, "`r` should have 2 entries", "`R` = 2 was read off the 2 rows of `g`"),
    Case("unclosed-bracket",
         {"p.puz": 'given N: int\nvar x[1..N: bool\nrule "r": x[1]\nN = 3\n'},
         solve(), "p.puz", 2, 11, "unexpected", "`]`"),
    Case("bad-character",
         {"p.puz": 'given N: int\nvar x[1..N]: bool\nrule "r": x[1] $ x[2]\nN = 3\n'},
         solve(), "p.puz", 3, 16, "`$`"),
    Case("unterminated-string",
         {"p.puz": 'given N: int\ntitle "hello\nvar x[1..N]: bool\nN = 3\n'},
         solve(), "p.puz", 2, 7, "string is not closed on its line", "text block"),
    Case("unclosed-text-block",
         {"p.puz": 'given g[1..2]: int?\ng = """\n1 2\n'},
         solve(), "p.puz", 2, 5, "text block is never closed", 'end it with `"""`'),
    Case("end-of-file-in-statement",
         {"p.puz": 'given N: int\nvar x[1..N]: bool\nN = 3\nrule "r": x[1] and\n'},
         solve(), "p.puz", 4, None, "end of file"),
    Case("end-of-file-in-list",
         {"p.puz": 'given N: int\nvar x[1..N]: bool\nrule "r": x[1]\nN = [3\n'},
         solve(), "p.puz", 4, None, "end of file"),
    # a new user's slips (issue 10's friction log): each with a hint, no grammar-internal names
    Case("if-with-a-decision-number-branch",
         {"p.puz": 'var x[1..3]: 1..3\nvar b[1..3]: bool\nrule sum(i in 1..3: if b[i] then x[i] else 0) == 4\n'},
         solve(), "p.puz", 3, 21, "`if` on a decision needs branches", "v * (x[p] == v and cond)"),
    Case("in-as-membership-test",
         {"p.puz": 'var x[1..3]: 1..5\nrule x[1] in 1..3\n'},
         solve(), "p.puz", 2, 11, "unexpected `in`", "`x == 0 or x == 2`"),
    # friction log 7: a conditional effect; a `format` line naming no importer
    Case("if-as-an-effect",
         {"p.puz": 'state x[2]: bool\naction t(i in 0..1): if x[i] then x[i] := false, (if i == 0 then x[1] := true)\n'
                   'init x[0]\ngoal not x[0]\n'},
         ["check", "{p.puz}"], "p.puz", 2, 51, "an effect cannot be an `if`", "one action per case"),
    Case("action-text-with-an-expression",  # was printed as written, `{k + 1}`, in every move
         {"p.puz": 'state n: 0..9\naction add(k in 1..2) "{k}+{k + 1}": if n < 8 then n := n + k\n'
                   'init n == 0\ngoal n == 5\n'},
         ["check", "{p.puz}"], "p.puz", 2, 28, "`{k + 1}` in the text of `add` is not one of its bindings",
         "`n in [b - a]`"),
    Case("a-condition-compared-with-a-symbol-at-a-cell-variable",  # `check` said ok; only `solve` found it
         {"p.puz": 'given g[1..2, 1..2]: sym legend { ".": e, "x": x }\nvar b[1..2, 1..2]: bool\n'
                   'rule forall p in cells(g): b[p] == x\n'},
         ["check", "{p.puz}"], "p.puz", 3, 28, "cannot compare a condition on decisions with a symbol",
         "`black[p] == (g[p] == x)`"),
    Case("a-condition-compared-with-a-symbol-at-a-moved-neighbour",
         {"p.puz": 'given g[1..2, 1..2]: sym legend { ".": e, "x": x }\nvar b[1..2, 1..2]: bool\n'
                   'rule forall (p, q) in adjacent(g): b[q + (0, 0)] != x\n'},
         ["check", "{p.puz}"], "p.puz", 3, 36, "cannot compare a condition on decisions with a symbol"),
    Case("an-index-error-after-a-rule-the-data-already-breaks",  # friction log 14: that rule was meant to catch it
         {"p.puz": 'given g[1..2]: [int]\nvar x[1..2]: bool\n'
                   'rule "two numbers each": forall i in 1..2: len(g[i]) == 2\n'
                   'rule "sums": forall i in 1..2, j in 0..1 where g[i][j] > 1: x[i]\ng = [[1, 2], [3]]\n'},
         solve(), "p.puz", 4, 48, "index 1 is outside 0..0",
         "“two numbers each” at "),
    Case("an-empty-rule-file",  # friction log 14: was "solved", unique (a failed `generate > FILE` left it)
         {"p.puz": "# nothing here yet\n"}, solve("p.puz", "--unique"), "p.puz", 1, 1, "holds no statements",
         "often the output"),
    Case("a-list-of-lists-type",  # friction log 15: was "`int` is a reserved word and cannot be used as a name"
         {"p.puz": 'given K: int\ngiven arrows[1..K]: [[int]]\n'},
         solve(), "p.puz", 2, 23, "lists do not nest", "[r1, c1, r2, c2, …]"),
    Case("generate-on-a-region-size-rule-that-reads-a-clue",  # friction log 15: the error had no place
         {"p.puz": 'given R: int\ngiven C: int\ngiven num[1..R, 1..C]: int? in 1..4\nvar black[1..R, 1..C]: bool\n'
                   'rule forall p in cells(num) where known(num[p]): size(region(black, p)) == num[p]\n'},
         ["generate", "{p.puz}", "--size", "3x3"], "p.puz", 5, 1, "this rule on the size of regions reads a clue",
         "Say the size by labels and counts"),
    Case("unknown-format-line",
         {"p.puz": 'format sokoban_text\nvar x: bool\n'},
         ["check", "{p.puz}"], "p.puz", 1, 8, "unknown format `sokoban_text`", "`puzzledsl formats`"),
    Case("misspelt-format-line",
         {"p.puz": 'format janko_sudok\nvar x: bool\n'},
         ["check", "{p.puz}"], "p.puz", 1, 8, "unknown format `janko_sudok`", "`janko_sudoku`"),
    Case("in-for-a-variable-domain",
         {"p.puz": 'var x[1..3]: int in 1..5\n'},
         solve(), "p.puz", 1, 18, "unexpected `in`", "`var x[1..N]: 1..5`"),
    # friction log 5: the clue range written after the legend
    Case("in-after-a-givens-legend",
         {"p.puz": 'given R: int\ngiven clue[1..R]: int? legend { ".": ? } in 1..5\nvar x[1..R]: bool\n'},
         solve(), "p.puz", 2, 42, "unexpected `in`", "come right after its type, before `legend`"),
    Case("in-after-a-givens-legend-on-its-own-line",
         {"p.puz": 'given R: int\ngiven clue[1..R]: int?\n  legend { ".": ? }\n  in 1..5\nvar x[1..R]: bool\n'},
         solve(), "p.puz", 4, 3, "unexpected `in`", "come right after its type, before `legend`"),
    Case("question-mark-as-an-expression",
         {"p.puz": 'given g[1..3]: int?\nvar x[1..3]: bool\nrule forall i in 1..3 where g[i] == ?: x[i]\n'
                   'g = [1, ?, 2]\n'},
         solve(), "p.puz", 3, 37, "unexpected `?`", "`not known(g[p])`"),
    Case("stray-word-after-a-rule",
         {"p.puz": 'var x[1..3]: 1..5\nrule count(i in 1..3: x[i] == 2) between 1 and 2\n'},
         solve(), "p.puz", 2, 42, "unexpected `1` after `between`", "data assignment"),
    Case("graph-rule-after-a-decision",  # `check` said ok where `solve` refused it
         {"p.puz": 'var black[1..2, 1..2]: bool\nrule black[1, 1] -> connected(p in cells(black): black[p])\n'},
         ["check", "{p.puz}"], "p.puz", 2, 21, "`connected` cannot depend on a decision", "option ->"),
    Case("empty-min-names-the-rule-instance",
         {"p.puz": 'given g[1..3]: int = [1, 2, 3]\ndefine m(i) = min(k in i + 1..3: g[k])\nvar x[1..3]: bool\n'
                   'rule "r": forall i in 1..3: x[i] == (m(i) > 1)\n'},
         solve(), "p.puz", 2, 15, "`min` over an empty set (where i = 3)", "guard"),
    Case("list-index-names-the-rule-instance",
         {"p.puz": 'given g[1..2]: [int] = "1/2 3"\nvar x[1..2]: bool\n'
                   'rule "r": forall i in 1..2: x[i] == (g[i][1] > 1)\n'},
         solve(), "p.puz", 3, 38, "index 1 is outside 0..0 (where i = 2)", "the indexed value is [3] here"),
    Case("legend-value-of-another-kind",  # check said ok; solve blamed the first data cell using it
         {"p.puz": 'given g[1..2]: bool? legend { ".": ?, "x": dark }\nvar b[1..2]: bool\nrule b[1]\n'},
         ["check", "{p.puz}"], "p.puz", 1, 44, 'the legend gives `"x"` the symbol `dark`', "`sym?`"),
    Case("decision-compared-with-a-symbol",  # said "expected a number"
         {"p.puz": 'given g[1..2, 1..2]: sym? legend { ".": ?, "x": dark } = """\nx.\n.x\n"""\n'
                   'var b[1..2, 1..2]: bool\nrule forall p in cells(g) where known(g[p]): b[p] == g[p]\n'},
         solve(), "p.puz", 6, 46, "cannot compare a condition on decisions with a symbol",
         "(g[p] == dark)"),
    Case("legend-token-in-the-other-case",  # the help said to add `"X": X` to the legend
         {"p.puz": 'given g[1..2]: sym? legend { ".": ?, "x": dark } = "X."\nvar b[1..2]: bool\nrule b[1]\n'},
         solve(), "p.puz", 1, 53, "`X` is not a valid value for `g`", "did you mean `x`?"),
    Case("decision-in-a-connected-where",  # the help showed a `forall` rewrite that does not apply
         {"p.puz": 'var b[1..2, 1..2]: bool\nrule connected(p in cells(b) where b[p]: true)\n'},
         ["check", "{p.puz}"], "p.puz", 2, 36, "`where` filter", "`connected(p in S: cond)`"),
    Case("misspelt-use",  # no hint, where every other misspelt name gets one
         {"p.puz": 'use "kakurasuu"\n'},
         solve(), "p.puz", 1, 1, "cannot find `kakurasuu` to use", "did you mean `kakurasu`?"),
    Case("misspelt-given-in-an-instance-points-at-the-name",  # the caret was under the value
         {"p.puz": 'use "kakurasu"\nrowsumm = [1, 2]\ncolsum = [1, 2]\n'},
         solve(), "p.puz", 2, 1, "`rowsumm` is not a given of these rules", "did you mean `rowsum`"),
    Case("bad-item-of-a-list-given",  # the help said a cell holds a whole number
         {"p.puz": 'given g[1..2]: [int?]? legend { ".": ? } = "1/2 x"\nvar x[1..2]: bool\nrule x[1]\n'},
         solve(), "p.puz", 1, 49, "`x` is not a valid value for `g`", "a cell of `g` is a list"),
    Case("unknown-mark-in-a-list-given",
         {"p.puz": 'given g[1..2]: [int] = "1/2 #"\nvar x[1..2]: bool\nrule x[1]\n'},
         solve(), "p.puz", 1, 29, "`#` is not a valid value for `g`", '`"#": [?, ?]`'),
    Case("list-index-in-a-filter-names-the-rule-instance",  # the filter's error said no more than its place
         {"p.puz": 'given g[1..2]: [int] = "1/2 3"\nvar x[1..2]: bool\n'
                   'rule "r": forall i in 1..2, k in 0..1 where g[i][k] > 1: x[i]\n'},
         solve(), "p.puz", 3, 45, "index 1 is outside 0..0 (where i = 2, k = 1)", "(1 item)"),
    Case("legend-symbol-named-like-a-variable",
         {"p.puz": 'given circle[1..2]: sym? legend { ".": ?, "x": black } = "x."\nvar black[1..2]: bool\n'
                   'rule black[1]\n'},
         solve(), "p.puz", 2, 1, "both a declared name and a legend symbol", "`var is_black`"),
    Case("bare-name-beside-a-legend",
         {"p.puz": 'given bank[1..2]: sym? legend { ".": ? } = "L ."\nvar x: bool\nrule x\n'},
         solve(), "p.puz", 1, None, "`L` is not a valid value for `bank`", '`"L": L`'),
    Case("edges-over-a-list-refused-by-check",  # `check` said ok where `solve` refused it
         {"p.puz": 'define corners = list(i in 0..2, j in 0..2: (i, j))\nvar d[corners]: edges\nrule acyclic(d)\n'},
         ["check", "{p.puz}"], "p.puz", 2, 1, "has no edges", "acyclic((p, q) in EDGES"),
    Case("data-given-twice",  # the last one won, silently
         {"p.puz": 'use "kakurasu"\n', "d.txt": "rowsum = [1, 2]\ncolsum = [1, 2]\nrowsum = [2, 1]\n"},
         solve("p.puz", "--data", "{d.txt}"), "d.txt", 3, 1, "`rowsum` is given twice", "first at"),
    Case("instance-assigns-twice",
         {"p.puz": 'use "kakurasu"\nrowsum = [1, 2]\ncolsum = [1, 2]\nrowsum = [2, 1]\n'},
         solve(), "p.puz", 4, 1, "`rowsum` is given twice", "first at"),
    Case("inline-punctuation-named-as-written",
         {"p.puz": 'var y[1 3]: bool\n'},
         solve(), "p.puz", 1, 9, "unexpected `3`", "`..`"),
    # ---------------------------------------------------------------- names
    Case("unknown-name-did-you-mean",
         {"p.puz": SMALL.replace("x[i])", "xs[i])")},
         solve(), "p.puz", 3, 30, "unknown name `xs`", "did you mean `x`"),
    Case("unknown-symbol-did-you-mean",
         {"p.puz": SYMS + 'rule "r": forall i in 1..N: h[i] == baz -> x[i]\n'},
         solve(), "p.puz", 6, 37, "unknown name `baz`", "did you mean `bar`"),
    Case("undeclared-symbol-in-comparison",
         {"p.puz": SYMS + 'rule "r": forall i in 1..N: h[i] == water -> x[i]\n'},
         solve(), "p.puz", 6, 37, "unknown name `water`", "declare it in a legend"),
    Case("unknown-function",
         {"p.puz": SMALL + 'rule "f": frobnicate(1)\n'},
         solve(), "p.puz", 5, 11, "frobnicate"),
    Case("wrong-arity-define",
         {"p.puz": SMALL + "define both(a, b) = x[a] and x[b]\nrule \"d\": both(1)\n"},
         solve(), "p.puz", 6, 11, "2 argument", "`both(p[0], p[1])`"),
    Case("define-arguments-are-not-spread",  # friction log 17: `white(r, c)` for `define white(p)`
         {"p.puz": 'var b[1..2, 1..2]: bool\ndefine white(p) = not b[p]\n'
                   'rule "w": forall r in 1..2, c in 1..2: white(r, c)\n'},
         solve(), "p.puz", 3, 40, "`white` takes 1 argument(s), 2 given", "`white((r, c))`"),
    Case("wrong-arity-builtin",
         {"p.puz": SMALL + 'rule "k": known(1, 2)\n'},
         solve(), "p.puz", 5, 11, "`known` takes 1 argument"),
    Case("too-many-indices",
         {"p.puz": SMALL + 'rule "t": x[1, 2]\n'},
         solve(), "p.puz", 5, 11, "2 were given"),
    Case("too-few-indices",
         {"p.puz": 'given N: int\nvar x[1..N, 1..N]: bool\nrule "r": x[1]\nN = 3\n'},
         solve(), "p.puz", 3, 11, "2 index"),
    Case("declared-twice",
         {"p.puz": "given N: int\n" + SMALL},
         solve(), "p.puz", 2, 1, "declared twice", "first declared"),
    # ---------------------------------------------------------------- types
    Case("rule-is-a-number",
         {"p.puz": SMALL + 'rule "n": 3\n'},
         solve(), "p.puz", 5, 11, "must be a condition"),
    Case("and-on-a-number",
         {"p.puz": SMALL + 'rule "a": x[1] and 2\n'},
         solve(), "p.puz", 5, 20, "`and` needs a condition"),
    Case("compare-symbol-with-number",
         {"p.puz": SYMS + 'rule "r": forall i in 1..N: h[i] == 1 -> x[i]\n'},
         solve(), "p.puz", 6, 29, "symbol with a number"),
    Case("ordering-symbols",
         {"p.puz": SYMS + 'rule "r": forall i in 1..N: h[i] < foo -> x[i]\n'},
         solve(), "p.puz", 6, 29, "symbol"),
    Case("index-is-a-condition",
         {"p.puz": SMALL + 'rule "i": x[true]\n'},
         solve(), "p.puz", 5, 13, "index"),
    Case("where-depends-on-variable",
         {"p.puz": SMALL + 'rule "w": forall i in 1..N where x[i]: x[i]\n'},
         solve(), "p.puz", 5, 34, "`where`", "move the condition"),
    Case("where-in-aggregate-depends-on-variable",
         {"p.puz": SMALL + 'rule "w": count(i in 1..N where x[i]: x[i]) == 1\n'},
         solve(), "p.puz", 5, 33, "`where`"),
    # ---------------------------------------------------------------- grounding
    Case("index-outside-grid",
         {"p.puz": SMALL + 'rule "o": forall i in 1..N: x[i] -> x[i + 1]\n'},
         solve(), "p.puz", 5, 37, "outside", "outside VALUE"),
    Case("index-outside-grid-from-data",
         {"p.puz": 'given N: int\ngiven h[1..N]: int\nvar x[1..N]: bool\nrule "r": forall i in 1..N: x[h[i]]\n'
                   'N = 3\nh = [1, 2, 7]\n'},
         solve(), "p.puz", 4, 29, "index 7"),
    Case("two-indices-into-a-list",
         {"p.puz": SMALL + 'rule "l": x[[1, 2][0, 1]]\n'},
         solve(), "p.puz", 5, 13, "a list takes one index, but 2 were given", "`L[i][j]`"),
    Case("string-for-a-2d-grid",
         {"p.puz": 'given g[1..2, 1..2]: int?\nvar x: bool\ng = "1 2"\n'},
         solve(), "p.puz", 3, 5, "should have 2 entries along dimension 1", "text block"),
    Case("clue-beside-a-board-is-a-variable",
         {"p.puz": SMALL + 'show x clue x at right\n'},
         solve(), "p.puz", 5, 8, "`clue x` draws a given, but `x` is a decision variable", "draw givens"),
    Case("glyph-key-a-variable-never-holds",
         {"p.puz": SMALL + 'show x { yes: "#" }\n'},
         solve(), "p.puz", 5, 10, "never holds this value", "keyed by `true` and `false`"),
    Case("index-into-a-1d-cell",
         {"p.puz": SMALL + 'rule "c": forall p in cells(x): x[p[0]]\n'},
         solve(), "p.puz", 5, 35, "cannot index a number", "are numbers, not tuples"),
    Case("division-by-zero",
         {"p.puz": SMALL + 'rule "z": x[1] or N / (N - 3) == 1\n'},
         solve(), "p.puz", 5, 19, "division by zero"),
    # ---------------------------------------------------------------- data in the puzzle file
    Case("ragged-grid-block",
         {"p.puz": GRID + 'h = """\n- - -\n- a\n- - -\n"""\n'},
         solve(), "p.puz", 8, 1, "ragged"),
    Case("ragged-row-without-spaces",  # friction log 17: `...12` is five entries, not four
         {"p.puz": 'given g[1..2, 1..4]: int? legend { ".": ? }\ng = """\n3..4\n...12\n"""\n'},
         solve(), "p.puz", 4, 5, "row 2 has 5 entries", "each character is one entry"),
    # a text block's size errors point at the row (and the entry too many), not at the opening `"""`
    Case("grid-block-first-row-too-wide",  # the odd row is the one unlike most, though it comes first
         {"p.puz": GRID + 'h = """\n- - - a\n- a -\n- - -\n"""\n'},
         solve(), "p.puz", 7, 7, "row 1 has 4 entries, the other rows have 3", "one too many"),
    Case("grid-block-every-row-too-wide",
         {"p.puz": 'given N: int\n' + GRID.split("\n", 1)[1].replace("N = 3\n", "")
                   + 'h = """\n- - - -\n- a - -\n- - - -\n"""\n'},
         solve(), "p.puz", 6, 7, "3 entries along dimension 2 (1..3), but the data has 4",
         "`N` = 3 was read off this data's 3 rows"),
    Case("grid-block-too-many-rows",
         {"p.puz": GRID + 'h = """\n- - -\n- a -\n- - -\n- - -\n"""\n'},
         solve(), "p.puz", 10, 1, "3 entries along dimension 1 (1..3), but the data has 4"),
    Case("grid-block-too-few-rows",
         {"p.puz": GRID + 'h = """\n- - -\n- a -\n"""\n'},
         solve(), "p.puz", 8, 1, "3 entries along dimension 1 (1..3), but the data has 2"),
    Case("grid-block-too-wide-in-a-data-file",
         {"p.puz": GRID.replace("N = 3\n", ""), "d.puz": 'N = 3\nh = """\n- - -\n- a - a\n- - -\n"""\n'},
         solve("p.puz", "--data", "{d.puz}"), "d.puz", 4, 7, "row 2 has 4 entries", "one too many"),
    Case("grid-block-too-wide-in-a-given-s-default",
         {"p.puz": 'given N: int\ngiven h[1..N, 1..N]: sym? legend {"-": ?, "a": foo} = """\n- - -\n'
                   '- a - - -\n- - -\n"""\nvar x: bool\nrule "r": x\n'},
         solve(), "p.puz", 4, 7, "row 2 has 5 entries, the first has 3", "the 2 entries from here on"),
    Case("list-length-vs-declared-size",
         {"p.puz": 'given N: int\ngiven h[1..N]: int\nvar x[1..N]: bool\nrule "r": x[1]\nN = 3\nh = [1, 2]\n'},
         solve(), "p.puz", 6, 5, "3 entries"),
    Case("grid-token-not-in-legend",
         {"p.puz": GRID + 'h = """\n- - -\n- a z\n- - -\n"""\n'},
         solve(), "p.puz", 8, 5, "`z`", "legend"),
    Case("grid-number-with-two-minus-signs",  # fuzzing found `--1` read as a number, then int() failing
         {"p.puz": 'given N: int\ngiven h[1..N, 1..N]: int? legend {"-": ?}\nvar x[1..N]: bool\nrule "r": x[1]\n'
                   'N = 3\nh = """\n- - -\n- --1 2\n- - -\n"""\n'},
         solve(), "p.puz", 8, 3, "`--1`", "whole number"),
    Case("grid-number-in-other-digits",  # `²`.isdigit() is true, int("²") fails
         {"p.puz": 'given N: int\ngiven h[1..N, 1..N]: int? legend {"-": ?}\nvar x[1..N]: bool\nrule "r": x[1]\n'
                   'N = 3\nh = """\n- - -\n- \u00b2 2\n- - -\n"""\n'},
         solve(), "p.puz", 8, 3, "`\u00b2`", "legend's `-`"),
    Case("unknown-value-for-non-optional-given",
         {"p.puz": 'given N: int\ngiven h[1..N]: int\nvar x[1..N]: bool\nrule "r": x[1]\nN = 3\nh = [1, ?, 2]\n'},
         solve(), "p.puz", 6, 9, "unknown", "int?"),
    Case("symbol-for-an-int-given",
         {"p.puz": 'given N: int\ngiven h[1..N]: int\nvar x[1..N]: bool\nrule "r": x[1]\nN = 3\nh = [1, foo, 2]\n'},
         solve(), "p.puz", 6, 9, "`foo`"),
    Case("missing-given-value",
         {"p.puz": 'given N: int\ngiven h[1..N]: int\nvar x[1..N]: bool\nrule "r": x[1]\nN = 3\n'},
         solve(), "p.puz", 2, 1, "no value for the given `h`", "--data"),
    Case("assignment-to-a-non-given",
         {"p.puz": SMALL + "M = 4\n"},
         solve(), "p.puz", 5, None, "`M`"),
    Case("missing-given-of-a-used-file",
         {"p.puz": 'use "kakurasu"\nrowsum = [1, 2]\n'},
         solve(), "kakurasu.puz", "given colsum", None, "no value for the given `colsum` (nor for `C`)",
         extra={"kakurasu.puz": "stdlib"}),
    # ---------------------------------------------------------------- data files
    Case("data-file-in-unknown-format",
         {"p.puz": 'use "kakurasu"\n', "d.txt": "hello world\nthis is no puzzle\n"},
         solve("p.puz", "--data", "{d.txt}"), "d.txt", 1, 1, "format", "--format"),
    Case("janko-kakurasu-non-number",
         {"p.puz": 'use "kakurasu"\n', "d.txt": "4 4\n1 2 3 4\n1 2 x 4\n"},
         solve("p.puz", "--data", "{d.txt}", "--format", "janko_kakurasu"), "d.txt", 3, 5, "'x'"),
    Case("janko-battleship-bad-grid-token",
         {"p.puz": 'use "battleship"\n', "d.txt": "3 3 1\n1 0 0\n1 0 0\no - -\n- q -\n- - -\n"},
         solve("p.puz", "--data", "{d.txt}", "--format", "janko_battleship"), "d.txt", 5, 3, "'q'"),
    Case("puzzlekit-entry-non-number",
         {"p.puz": 'use "kakurasu"\n',
          "d.json": json.dumps({"data": {"a": {"problem": "4 4\n1 2 3 4\n1 2 y 4"}}})},
         solve("p.puz", "--data", "{d.json}", "--format", "puzzlekit_kakurasu"), "d.json", 1, 47, "'y'"),
    Case("json-data-bad-value",
         {"p.puz": SMALL.replace("N = 3\n", ""), "d.json": '{\n  "N": "abc"\n}\n'},
         solve("p.puz", "--data", "{d.json}"), "d.json", 2, 3, "`abc`"),
    Case("data-file-holds-a-rule",
         {"p.puz": SMALL.replace("N = 3\n", ""), "d.txt": 'N = 3\nrule "r": x[1]\n'},
         solve("p.puz", "--data", "{d.txt}"), "d.txt", 2, 1, "only assignments"),
    Case("data-file-syntax-error",
         {"p.puz": SMALL.replace("N = 3\n", ""), "d.txt": "# data\nN = [3\n"},
         solve("p.puz", "--data", "{d.txt}"), "d.txt", 2, None, "end of file"),
    Case("format-json-on-a-text-file",  # the format was named: no "cannot tell this file's format"
         {"p.puz": SMALL.replace("N = 3\n", ""), "d.txt": "N = 3\n"},
         solve("p.puz", "--data", "{d.txt}", "--format", "json"), "d.txt", 1, 1,
         "not valid JSON: Expecting value at 1:1", "--format json reads a JSON object"),
    Case("format-json-broken-inside",
         {"p.puz": SMALL.replace("N = 3\n", ""), "d.json": '{\n  "N": 3,,\n}\n'},
         solve("p.puz", "--data", "{d.json}", "--format", "json"), "d.json", 2, 10,
         "not valid JSON: Expecting property name enclosed in double quotes at 2:10"),
    # A JSON file with a trailing comma was "cannot tell this file's format", help "name the format"
    # (friction log 19): a file that opens as JSON is told what is wrong with its JSON.
    Case("json-trailing-comma-in-object",
         {"p.puz": SMALL.replace("N = 3\n", ""), "d.json": '{\n  "N": 3,\n}\n'},
         solve("p.puz", "--data", "{d.json}"), "d.json", 2, 9, "a comma after the last item",
         "no comma before `}`"),
    Case("json-trailing-comma-in-list",
         {"p.puz": 'given h[1..2]: int\nvar x: bool\n', "d.json": '{"h": [1, 2,]}\n'},
         solve("p.puz", "--data", "{d.json}"), "d.json", 1, 12, "a comma after the last item",
         "no comma before `]`"),
    Case("letters-in-an-int-grid",  # regions by letter in an `int` given: the help now names `sym`
         {"p.puz": 'given room[1..2, 1..2]: int\nvar x: bool\nroom = """\naa\nab\n"""\n'},
         ["solve", "{p.puz}"], "p.puz", 4, 1, "`a` is not a valid value", "declare it `sym`"),
    Case("ranging-over-a-list-of-decisions",  # had no help line (friction log 19)
         {"p.puz": 'var s[1..2]: bool\nrule "r": count(a in [s[1], not s[2]]: a) == 1\n'},
         ["check", "{p.puz}"], "p.puz", 2, 22, "must be known before solving", "`count(a, b, not c)`"),
    # `(a, b, p, s)` takes `a` for the edge: two corners a, b meant as its ends gave a graph over
    # the corners' coordinates, or "an edge from 0 to itself" (friction log 19)
    Case("acyclic-edge-ends-named-apart",
         {"p.puz": 'var x[1..2]: bool\ndefine L = [((0, 1), (1, 0), 1), ((1, 0), (1, 1), 2), ((1, 1), (0, 1), 1)]\n'
                   'rule "r": acyclic((a, b, i) in L: x[i])\n'},
         ["solve", "{p.puz}"], "p.puz", 3, 32, "takes `a` = (0, 1) for the edge", "the first is the whole edge"),
    # two clue strings of one length N: the second, too long, was told "a string is one row of
    # cells", the help for a 2-D grid, not where N came from (friction log 19)
    Case("one-d-string-longer-than-the-size-read-before",
         {"p.puz": 'given N: int\ngiven top[1..N]: int?\ngiven bottom[1..N]: int?\nvar x: bool\n',
          "d.json": '{"top": "1-2-", "bottom": "--1-2"}\n'},
         solve("p.puz", "--data", "{d.json}"), "d.json", 1, 17, "`bottom` should have 4 entries",
         "`N` = 4 was read off"),
    Case("an-edge-read-with-one-cell",  # had no help line (friction log 19)
         {"p.puz": 'var link[1..2, 1..2]: edges outside false\n'
                   'rule "r": forall p in cells(link): count(q in neighbours(link, p): link[q]) == 1\n'},
         ["solve", "{p.puz}"], "p.puz", 2, 68, "but 2 were given", "name both ends: `link[p, q]`"),
    # a data file's syntax error listed the rules' keywords (`action`, `answer`, `define`, …), and
    # `name: value` was "cannot tell this file's format"
    Case("data-file-trailing-comma",
         {"p.puz": SMALL.replace("N = 3\n", ""), "d.txt": "N = 3,\n"},
         solve("p.puz", "--data", "{d.txt}"), "d.txt", 1, 6, "unexpected `,`", "one assignment `name = value`"),
    Case("data-file-with-colons",
         {"p.puz": SMALL.replace("N = 3\n", ""), "d.txt": "# my data\nN: 3\n"},
         solve("p.puz", "--data", "{d.txt}"), "d.txt", 2, 1, "`N:` is no assignment", "write `N = …`"),
    Case("json-single-quotes",
         {"p.puz": SMALL.replace("N = 3\n", ""), "d.json": "{'N': 3}\n"},
         solve("p.puz", "--data", "{d.json}"), "d.json", 1, 2, "not valid JSON", "double quotes"),
    Case("data-file-wrong-list-length",
         {"p.puz": 'use "kakurasu"\n', "d.txt": "rowsum = [1, 2]\ncolsum = [1, 2, 3]\nR = 2\nC = 2\n"},
         solve("p.puz", "--data", "{d.txt}"), "d.txt", 2, 17, "2 entries"),  # at the entry too many
    # ---------------------------------------------------------------- use
    Case("use-of-a-missing-file",
         {"p.puz": 'use "nonexistent"\nN = 3\n'},
         solve(), "p.puz", 1, 1, "nonexistent", "looked in"),
    Case("use-cycle",
         {"p.puz": 'use "q"\n', "q.puz": '# the other half\nuse "p"\n'},
         solve(), "q.puz", 2, 1, "cycle"),
    Case("error-inside-a-used-file",
         {"p.puz": 'use "lib"\nN = 3\n', "lib.puz": 'given N: int\nvar x[1..N]: bool\nrule "r": x[0 + ]\n'},
         solve(), "lib.puz", 3, None, "unexpected"),
    Case("check-command-reports-too",
         {"p.puz": SMALL + 'rule "a": x[1] and 2\n'},
         ["check", "{p.puz}"], "p.puz", 5, 20, "`and` needs a condition"),
    # ---------------------------------------------------------------- met by new users (2026-11-26)
    Case("abs-of-a-decision",
         {"p.puz": "var x[1..3]: 1..3\nrule forall i in 1..3: abs(x[i]) <= 1\n"},
         ["check", "{p.puz}"], "p.puz", 2, 28, "`abs` takes a number known before solving", "both signs"),
    Case("abs-of-a-decision-through-a-define",
         {"p.puz": "var x[1..3]: 1..3\ndefine f(k) = abs(k)\nrule forall i in 1..3: f(x[i]) <= 1\n"},
         solve(), "p.puz", 2, 19, "`abs` takes a number known before solving", "both signs"),
    Case("chained-comparison",
         {"p.puz": "var x[1..3]: bool\nrule x[1] == x[2] == x[3]\n"},
         ["check", "{p.puz}"], "p.puz", 2, 19, "comparisons do not chain", "`a == b and b == c`"),
    Case("misspelt-aggregate",
         {"p.puz": "var x[1..3]: 1..3\nrule alldif(i in 1..3: x[i])\n"},
         ["check", "{p.puz}"], "p.puz", 2, 6, "`alldif` is not an aggregate", "did you mean `alldiff`?"),
    Case("misspelt-aggregate-of-values",
         {"p.puz": "var x[1..3]: 1..3\nrule alldif(x[1], x[2], x[3])\n"},
         ["check", "{p.puz}"], "p.puz", 2, 6, "unknown name `alldif`", "did you mean `alldiff`?"),
    Case("for-all-as-two-words",
         {"p.puz": "var x[1..3]: bool\nrule for all i in 1..3: x[i]\n"},
         ["check", "{p.puz}"], "p.puz", 2, 6, "unexpected `all` after `for`", "write `forall`"),
    Case("at-most-as-two-words",
         {"p.puz": "var x[1..3]: bool\nrule at most(1, i in 1..3: x[i])\n"},
         ["check", "{p.puz}"], "p.puz", 2, 6, "`at most` is one word", "write `atmost`"),
    Case("a-legend-token-in-a-rule",
         {"p.puz": 'given s[1..2]: sym legend { "<": lt } = "<<"\nrule forall i in 1..2: s[i] == "<"\n'},
         ["check", "{p.puz}"], "p.puz", 2, 32, "text in quotes is no value in a rule", "`s[i] == lt`"),
    Case("not-after-a-comparison",
         {"p.puz": "var x[1..3]: bool\nrule x[1] == not x[2]\n"},
         ["check", "{p.puz}"], "p.puz", 2, 14, "`not` cannot follow `==` without parentheses", "`a == (not b)`"),
    Case("loop-variable-inside-a-define",
         {"p.puz": "var x[1..3]: bool\ndefine f = x[i]\nrule forall i in 1..3: f\n"},
         ["check", "{p.puz}"], "p.puz", 2, 14, "unknown name `i`", "`define f(i) = …`"),
    Case("ordering-an-unknown-clue",
         {"p.puz": "given g[1..2]: int?\ng = [?, 3]\nvar x[1..2]: bool\nrule forall i in 1..2: g[i] > 1 -> x[i]\n"},
         solve(), "p.puz", 4, 24, "cannot order an unknown value", "known(g[p])"),
    Case("numbers-in-a-sym-given",
         {"p.puz": "given N: int\ngiven region[1..N]: sym\nvar x[1..N]: bool\nrule x[1]\nN = 2\n",
          "d.txt": "region = [0, 1]\n"},
         solve("p.puz", "--data", "{d.txt}"), "d.txt", 1, None, "holds sym values, not", "declare it `int`"),
    Case("dot-in-an-optional-grid-without-legend",
         {"p.puz": 'given g[1..2, 1..3]: int?\nvar x: bool\ng = """\n1..\n..3\n"""\n'},
         solve(), "p.puz", 4, 2, "`.` is not a valid value for `g`", 'declare `legend { ".": ? }`'),
    Case("dot-in-a-grid-that-may-not-be-empty",
         {"p.puz": 'given g[1..2, 1..3]: int\nvar x: bool\ng = """\n1..\n..3\n"""\n'},
         solve(), "p.puz", 4, 2, "`.` is not a valid value for `g`",
         'to allow empty cells, declare `int?` (and a legend such as `legend { ".": ? }`)'),
    Case("dash-in-a-sym-grid-that-may-not-be-empty",  # `sym?` without a legend reads `-` as unknown
         {"p.puz": 'given g[1..2, 1..2]: sym\nvar x: bool\ng = """\na-\naa\n"""\n'},
         solve(), "p.puz", 4, 2, "`-` is not a valid value for `g`", "to allow empty cells, declare `sym?`;"),
    Case("unknown-token-in-an-int-grid-with-a-legend",  # friction log 11: the help offered only `int?`
         {"p.puz": 'given piece[1..1, 1..3]: int legend { "|": 5, "=": 10 } = """\n|+=\n"""\nvar x: bool\n'},
         solve(), "p.puz", 2, 2, "`+` is not a valid value for `piece`", 'add it to the legend (`"+": 7`)'),
    Case("region-of-a-decision-grid-as-a-range",  # friction log 11: said only "must be known"
         {"p.puz": "var s[1..2, 1..2]: bool\nrule forall p in cells(s): count(q in region(s, p): true) == 1\n"},
         ["check", "{p.puz}"], "p.puz", 2, 39, "the set to range over must be known before solving",
         "compare its size at a rule's top"),
    Case("a-legend-symbol-indexed-like-a-grid",  # friction log 11: `check` said ok without data
         {"p.puz": 'given N: int\ngiven col[1..N]: sym legend { "o": light, "x": dark }\nvar s[1..N]: bool\n'
                   "rule forall i in 1..N: s[i] == dark[i]\n"},
         ["check", "{p.puz}"], "p.puz", 4, 32, "cannot index the symbol `dark`", "write `g[i] == dark`"),
    Case("a-2d-given-as-a-clue-beside-the-board",  # friction log 11: silently drew nothing
         {"p.puz": 'given s[1..2, 1..2]: int? = """\n1 2\n3 4\n"""\nvar x[1..2, 1..2]: bool\nshow x clue s at right\n'},
         ["check", "{p.puz}"], "p.puz", 6, 8, "a clue beside the board is a 1-D given", "`marked`"),
    Case("a-clue-indexed-unlike-the-rows",  # friction log 11: drawn shifted, the extra one dropped
         {"p.puz": "given rowsum[1..4]: int = [1, 2, 3, 4]\nvar w[1..3, 1..3]: bool\n"
                   "show w clue rowsum at right\n"},
         solve(), "p.puz", 3, 8, "`rowsum` is indexed 1..4 and the rows of `w` 1..3", "declare `rowsum[1..3]`"),
    Case("an-option-without-its-type",  # friction log 11: the help said "to compare, write `==`"
         {"p.puz": "option all_dots = true\nvar x: bool\n"},
         ["check", "{p.puz}"], "p.puz", 1, 17, "unexpected `=`", "`option all_dots: bool = true`"),
    Case("a-grid-indexed-one-bracket-at-a-time",  # friction log 11: `water[1][2]`, as in Python
         {"p.puz": "var water[1..3, 1..3]: bool\nrule water[1][2]\n"},
         ["check", "{p.puz}"], "p.puz", 2, 6, "`water` has 2 index(es), but 1 were given", "`water[i, j]`"),
    Case("json-data-given-as-the-rules",  # friction log 11: said only "unexpected `{`"
         {"d.json": '{"rowsum": [1, 2], "colsum": [2, 1]}\n'},
         solve("d.json"), "d.json", 1, 1, "unexpected", "this looks like JSON data, not rules"),
    Case("a-decision-in-the-where-of-alldiff",  # friction log 11: the help offered `forall … cond -> body`
         {"p.puz": "var x[1..3]: 0..2\nrule alldiff(c in 1..3 where x[c] != 0: x[c])\n"},
         ["check", "{p.puz}"], "p.puz", 2, 30, "a `where` filter must be known before solving",
         "`forall v in LO..HI: count(x in S: y[x] == v and cond) <= 1`"),
    Case("a-view-named-as-the-answer",  # friction log 11: no help
         {"p.puz": "var x[1..2]: bool\ndefine wet(i) = x[i]\nanswer wet\n"},
         ["check", "{p.puz}"], "p.puz", 3, 8, "`wet` is not one", "make it a variable"),
    Case("a-bad-token-inside-a-one-line-string",  # friction log 11: the caret spanned the string
         {"p.puz": 'given rowsum[1..3]: int?\nvar x: bool\nrowsum = "0 . 3"\n'},
         solve(), "p.puz", 3, 13, "`.` is not a valid value for `rowsum`"),
    Case("a-bad-token-inside-a-json-row-string",  # friction log 11: pointed at the string's start
         {"p.puz": 'given b[1..2, 1..3]: sym? legend { ".": ?, "w": white }\nvar x: bool\n',
          "d.json": '{"b": ["w.w", "w.x"]}\n'},
         solve("p.puz", "--data", "{d.json}"), "d.json", 1, 18, "`x` is not a valid value for `b`"),
    Case("an-empty-domain-from-the-data",  # friction log 11: blamed on the rules only
         {"p.puz": "given N: int\nvar x[1..N]: 0..N - 2\nN = 1\n"},
         solve(), "p.puz", 2, 14, "empty domain 0..-1 for `x`", "its bounds read N = 1"),
    Case("a-sum-of-decisions-under-a-while-on-decisions",  # friction log 11: `check` said ok
         {"p.puz": "var y[1..4]: 0..3\nrule sum(q in 1..4 while y[q] != 0: y[q]) == 3\n"},
         ["check", "{p.puz}"], "p.puz", 2, 37, "a `sum` with a `while` on decisions",
         "`count(q in … while …, k in 1..MAX: y[q] >= k)`"),
    Case("neighbour-past-the-edge",
         {"p.puz": "var n[1..3, 1..3]: 1..9\nrule forall p in cells(n), d in king: n[p] != n[p + d]\n"},
         solve(), "p.puz", 2, 47, "index (0, 0) is outside `n[1..3, 1..3]`", "`where inside(n, …)`"),
    Case("between-glyph-key-the-given-never-holds",
         {"p.puz": 'given right[1..2, 1..1]: sym? legend {".": ?, "<": less, ">": more} = """\n<\n.\n"""\n'
                   'var x[1..2, 1..2]: 1..2\nshow x between right { lt: "<", more: ">" }\n'},
         ["check", "{p.puz}"], "p.puz", 6, 24, "`right` never holds this value", "its legend gives `less`, `more`"),
    Case("view-reads-past-the-edge",  # was drawn as `?` (and as one region under `regions`)
         {"p.puz": "var link[1..2, 1..2]: edges\nrule forall p in cells(link): degree(link, p) == 1\n"
                   "define w(r, c) = if link[(r, c), (r, c + 1)] then 1 else 0\nshow w over link\n"},
         solve(), "p.puz", 3, 21, "the edge (1, 2)-(1, 3) is outside `link[1..2, 1..2]`", "outside false"),
    Case("grid-of-unknowns-without-a-size",
         {"p.puz": "given N: int\ngiven num[1..N, 1..N]: int?\nvar x[1..N]: bool\nnum = ?\n"},
         solve(), "p.puz", 4, 7, "`num = ?` takes its size from other data, but nothing gives `N`", "give `N` a value"),
    Case("grid-of-unknowns-not-optional",
         {"p.puz": "given h[1..2]: int = ?\nvar x: bool\n"},
         solve(), "p.puz", 1, 22, "`h` may not hold unknown values", "`int?`"),
    Case("symbol-name-for-a-legend-token",
         {"p.puz": 'given h[1..2]: sym? legend {"-": ?, "<": less, ">": more}\nvar x: bool\n',
          "d.json": '{"h": ["more", "-"]}\n'},
         solve("p.puz", "--data", "{d.json}"), "d.json", 1, 8, "`more` is not a valid value", "write `>`"),
    Case("json-object-as-a-value",  # was the object's whole Python repr (a janko entry: kilobytes)
         {"p.puz": SMALL, "d.json": '{"N": {"a": "' + "x" * 80 + '"}}'},
         ["check", "{p.puz}", "--data", "{d.json}"], "d.json", 1, 2,
         "an object is no data value: `{'a': '" + "x" * 30 + "…`", "a whole number, a string"),
    Case("empty-data-file",  # was "cannot tell this file's format (not puzzledsl, not JSON: Expecting value)"
         {"p.puz": SMALL, "d.txt": "\n  \n"},
         ["check", "{p.puz}", "--data", "{d.txt}"], "d.txt", 1, 1, "the data file is empty", "a data file holds"),
    Case("another-rule-file-as-data",  # was "cannot tell this file's format", or an importer's complaint
         {"p.puz": SMALL, "q.puz": "# other rules\n\ngiven M: int\nvar y: bool\n"},
         ["check", "{p.puz}", "--data", "{q.puz}"], "q.puz", 3, 1, "this is a rule file, not a data file",
         "rules are named first"),
    # A file in the rules' first format broken on its first line was "cannot tell this file's format
    # (not puzzledsl, not JSON: Extra data)" at line 2: the header a student's generator wrote.
    Case("header-on-one-line-in-the-rules-format",
         {"p.puz": 'use "arukone"\n', "d.txt": "4 2\n1 0 0 0\n0 0 0 0\n0 0 2 0\n1 0 0 2\n"},
         solve("p.puz", "--data", "{d.txt}"), "d.txt", 1, 3, "unexpected text after the grid size",
         "the rules' first format"),
    Case("size-not-a-whole-number-in-the-rules-format",
         {"p.puz": 'use "arukone"\n', "d.txt": "4.5\n2\n1 0 0 0\n0 0 0 0\n0 0 2 0\n1 0 0 2\n"},
         solve("p.puz", "--data", "{d.txt}"), "d.txt", 1, 1, "must be a whole number, not '4.5'"),
    Case("size-over-the-limit-in-the-rules-format",
         {"p.puz": 'use "arukone"\n', "d.txt": "100000\n2\n1 0\n"},
         solve("p.puz", "--data", "{d.txt}"), "d.txt", 1, 1, "too many cells", "--limit import_cells"),
    Case("size-zero-is-not-read-as-a-board-of-colours",  # was solved: Flow Free's reader took `0`, `0`
         {"p.puz": 'use "arukone"\n', "d.txt": "0\n0\n"},
         solve("p.puz", "--data", "{d.txt}"), "d.txt", 1, 1, "the grid size must be at least 1, not 0"),
    Case("digits-alone-are-no-flowfree-board",
         {"p.puz": 'use "arukone"\n', "d.txt": "0\n0\n"},
         solve("p.puz", "--data", "{d.txt}", "--format", "flowfree"), "d.txt", 1, 1, "not digits alone"),
    Case("broken-json-is-still-reported-as-json",
         {"p.puz": 'use "arukone"\n', "d.json": '{"num": [[1, 1]],,}\n'},
         solve("p.puz", "--data", "{d.json}"), "d.json", 1, 18, "not valid JSON"),
]


def _args(case: Case, tmp_path: Path) -> list[str]:
    for name, text in case.files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    return [re.sub(r"\{([^}]+)\}", lambda m: str(tmp_path / m.group(1)), a) for a in case.args]


def _expected_path(case: Case, tmp_path: Path) -> Path:
    if case.extra.get(case.file) == "stdlib":
        return ROOT / "puzzles" / case.file
    return tmp_path / case.file


def _check_report(case: Case, tmp_path: Path, err: str, cwd: Path | None = None) -> None:
    assert "Traceback" not in err and "internal error" not in err, err
    lines = err.splitlines()
    head = next((m for line in lines if (m := HEAD.match(line))), None)
    assert head is not None, f"no `file:line:col: error:` line in:\n{err}"
    expected = _expected_path(case, tmp_path)
    text = expected.read_text(encoding="utf-8").splitlines()
    line_no = case.line if isinstance(case.line, int) else next(
        i for i, line in enumerate(text, 1) if case.line in line)
    assert ((cwd or Path.cwd()) / head["path"]).resolve() == expected.resolve(), err
    assert int(head["line"]) == line_no, err
    if case.col is not None:
        assert int(head["col"]) == case.col, err
    assert case.message.lower() in head["msg"].lower(), err
    # the quoted source line and the caret under the reported column
    source = text[line_no - 1]
    quoted = [line for line in lines if re.match(rf"^\s*{line_no} \| ", line)]
    assert quoted and quoted[0].split(" | ", 1)[1] == source.expandtabs(1), err
    gutter = quoted[0].index("|")
    carets = [line for line in lines if re.match(r"^\s*\|\s*\^+\s*$", line)]
    assert carets, f"no caret line in:\n{err}"
    assert carets[0].index("^") - (gutter + 2) == int(head["col"]) - 1, err
    if case.help is not None:
        helps = [line for line in lines if line.startswith("help:")]
        assert helps and case.help.lower() in helps[0].lower(), err


KNOWN_BUGS: dict[str, str] = {}  # case id -> reason, for bugs pinned by a strict xfail


def _param(c: Case):
    marks = [pytest.mark.xfail(strict=True, reason=KNOWN_BUGS[c.id])] if c.id in KNOWN_BUGS else []
    return pytest.param(c, id=c.id, marks=marks)


@pytest.mark.parametrize("case", [_param(c) for c in CASES])
def test_located_error(case: Case, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = _args(case, tmp_path)
    capsys.readouterr()
    rc = main(args)
    out, err = capsys.readouterr()
    assert rc == 2, out + err
    _check_report(case, tmp_path, err)


def test_a_failing_view_prints_no_board_before_its_error(tmp_path: Path, capsys) -> None:
    """The boards are drawn before anything is printed: the error is the whole report, with no
    `solved` header above it."""
    case = next(c for c in CASES if c.id == "view-reads-past-the-edge")
    capsys.readouterr()
    assert main(_args(case, tmp_path)) == 2
    out, err = capsys.readouterr()
    assert out == "" and "outside `link[1..2, 1..2]`" in err


SUBPROCESS = ["unknown-name-did-you-mean", "janko-kakurasu-non-number", "use-cycle", "ragged-grid-block"]


@pytest.mark.parametrize("case", [c for c in CASES if c.id in SUBPROCESS], ids=lambda c: c.id)
def test_located_error_subprocess(case: Case, tmp_path: Path) -> None:
    args = _args(case, tmp_path)
    env = dict(os.environ, NO_COLOR="1", PYTHONPATH=str(ROOT))
    env.pop("PUZZLEDSL_DEBUG", None)
    proc = subprocess.run([sys.executable, "-m", "puzzledsl", *args], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    _check_report(case, tmp_path, proc.stderr, cwd=tmp_path)


# ------------------------------------------------------------------ errors without a source location


def _unlocated(tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str]) -> str:
    capsys.readouterr()
    rc = main(args)
    out, err = capsys.readouterr()
    assert rc == 2, out + err
    assert "Traceback" not in err and "internal error" not in err
    assert "error:" in err
    return err


def test_data_file_that_does_not_exist(tmp_path: Path, capsys) -> None:
    (tmp_path / "p.puz").write_text('use "kakurasu"\n', encoding="utf-8")
    missing = tmp_path / "no-such-data.txt"
    err = _unlocated(tmp_path, capsys, ["solve", str(tmp_path / "p.puz"), "--data", str(missing)])
    assert "no-such-data.txt" in err


def test_puzzle_file_that_does_not_exist(tmp_path: Path, capsys) -> None:
    err = _unlocated(tmp_path, capsys, ["solve", str(tmp_path / "nothing.puz")])
    assert "nothing.puz" in err


def test_unknown_format_name(tmp_path: Path, capsys) -> None:
    (tmp_path / "p.puz").write_text('use "kakurasu"\n', encoding="utf-8")
    (tmp_path / "d.txt").write_text("2 2\n1 2\n2 1\n", encoding="utf-8")
    err = _unlocated(tmp_path, capsys, ["solve", str(tmp_path / "p.puz"), "--data", str(tmp_path / "d.txt"),
                                        "--format", "nosuchformat"])
    assert "nosuchformat" in err and "janko_kakurasu" in err


def test_an_option_that_is_a_given_says_how_to_set_it(tmp_path: Path, capsys) -> None:
    """Friction log 7: `--option N=5` for `given N: int = 4` said only "not an option"."""
    (tmp_path / "p.puz").write_text("given N: int = 4\noption k: int = 1\nvar x[1..N]: bool\n", encoding="utf-8")
    err = _unlocated(tmp_path, capsys, ["solve", str(tmp_path / "p.puz"), "--option", "N=5"])
    assert "`N` is a given, not an option" in err and "`N = 5` in a data file" in err and "options: k" in err


def test_a_bool_option_with_another_word_says_how_to_write_it(tmp_path: Path, capsys) -> None:
    """Friction log 9: `--option fill=yes` said only "`yes` is not a valid value for `fill`"."""
    (tmp_path / "p.puz").write_text("option fill: bool = false\nvar x: bool\n", encoding="utf-8")
    err = _unlocated(tmp_path, capsys, ["solve", str(tmp_path / "p.puz"), "--option", "fill=yes"])
    assert "`yes` is not a valid value for `fill`" in err and "help: a `bool` is written `true` or `false`" in err


def test_an_int_option_with_a_word_says_how_to_write_it(tmp_path: Path, capsys) -> None:
    """Friction log 19: `--option maxfill=abc` got the help for grid cells ("a cell holds …")."""
    (tmp_path / "p.puz").write_text("option most: int = 9\nvar x: bool\n", encoding="utf-8")
    err = _unlocated(tmp_path, capsys, ["solve", str(tmp_path / "p.puz"), "--option", "most=abc"])
    assert "`abc` is not a valid value for `most`" in err and "`--option most=3`" in err and "cell" not in err


def test_unbounded_recursion_in_define(tmp_path: Path, capsys) -> None:
    text = SMALL + "define f(k) = f(k + 1)\nrule \"f\": f(1)\n"
    (tmp_path / "p.puz").write_text(text, encoding="utf-8")
    _unlocated(tmp_path, capsys, ["solve", str(tmp_path / "p.puz")])


def test_unknown_instance(tmp_path: Path, capsys) -> None:
    (tmp_path / "p.puz").write_text('use "kakurasu"\n', encoding="utf-8")
    (tmp_path / "d.txt").write_text("2 2\n1 2\n2 1\n", encoding="utf-8")
    capsys.readouterr()
    rc = main(["solve", str(tmp_path / "p.puz"), "--data", str(tmp_path / "d.txt"), "--instance", "zzz"])
    out, err = capsys.readouterr()
    assert rc == 2, out + err
    assert "Traceback" not in err and "error:" in err


# ------------------------------------------------------------------ colour (rich) and plain text

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def test_coloured_error_is_the_plain_text_styled(tmp_path: Path) -> None:
    """rich styles the report; without the escapes it is exactly the plain report."""
    from puzzledsl.errors import PuzzleError, Span, format_error
    src = tmp_path / "p.puz"
    src.write_text("given N: int\n\tvar [x]: bool\n", encoding="utf-8")
    err = PuzzleError("unexpected `[bold]`", Span(str(src), 2, 6, 2, 9), "a :name: goes here")
    plain = format_error(err)
    assert plain == (f"{src}:2:6: error: unexpected `[bold]`\n  |\n2 |  var [x]: bool\n  |      ^^^\n"
                     "help: a :name: goes here")
    coloured = format_error(err, color=True)
    assert coloured != plain and ANSI.sub("", coloured) == plain


def test_no_color_flag_and_env_give_plain_errors(tmp_path: Path, capsys, monkeypatch) -> None:
    p = tmp_path / "p.puz"
    p.write_text(SMALL.replace("== 1", "== "), encoding="utf-8")
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert main(["solve", str(p)]) == 2
    assert "\x1b[" in capsys.readouterr().err  # a terminal: coloured
    assert main(["solve", str(p), "--no-color"]) == 2
    err = capsys.readouterr().err
    assert "\x1b[" not in err and HEAD.match(err.splitlines()[0])
    monkeypatch.setenv("NO_COLOR", "1")
    assert main(["solve", str(p)]) == 2
    assert "\x1b[" not in capsys.readouterr().err


def test_a_long_line_is_quoted_as_a_window_around_the_column(tmp_path: Path, capsys) -> None:
    """A one-line JSON file of a megabyte: the error quotes ~120 characters around the place,
    `…` where it is cut, and the caret still sits under the offending character."""
    (tmp_path / "p.puz").write_text('use "kakurasu"\n', encoding="utf-8")
    entries = [f'"k{i}": {{"problem": "2 2\\n1 2\\n2 1"}}' for i in range(30000)]
    entries[15000] = entries[15000].replace(": {", ": ;{")
    (tmp_path / "d.json").write_text('{"data": {' + ", ".join(entries) + "}}", encoding="utf-8")
    err = _unlocated(tmp_path, capsys, ["check", str(tmp_path / "p.puz"), "--data", str(tmp_path / "d.json")])
    assert len(err) < 1000, err[:2000]
    quoted = next(line for line in err.splitlines() if line.startswith("1 | "))
    caret = next(line for line in err.splitlines() if line.strip().startswith("|") and "^" in line)
    assert quoted.startswith("1 | …") and quoted.endswith("…"), quoted
    assert quoted[caret.index("^")] == ";", (quoted, caret)


@pytest.mark.parametrize("col, head, tail", [(0, "", "…"), (150, "…", "…"), (299, "…", "")])
def test_a_window_is_cut_only_where_the_line_goes_on(col: int, head: str, tail: str) -> None:
    from puzzledsl.errors import QUOTE_WIDTH, quoted_window
    line = "".join(chr(ord("a") + i % 26) for i in range(300))
    text, at = quoted_window(line, col)
    assert text[at] == line[col] and text.startswith(head or "a") and text.endswith(tail or line[-1])
    assert len(text) <= QUOTE_WIDTH + 2


def test_a_self_contained_rule_file_is_its_own_data(tmp_path: Path, capsys) -> None:
    """`check X.puz --data X.puz`: the data is already in the rules (was "cannot tell the format")."""
    p = tmp_path / "p.puz"
    p.write_text("# comment\n" + SMALL, encoding="utf-8")
    assert main(["check", str(p), "--data", str(p)]) == 0, capsys.readouterr().err
    capsys.readouterr()
    assert main(["solve", str(p), "--data", str(p), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["status"] == "sat"


def test_control_characters_are_quoted_harmlessly(tmp_path: Path, capsys) -> None:
    """A binary file or a terminal escape in the source: the quoted line shows `�` for each (one
    column: the caret stays put), the message names it as `\\x1b`; nothing reaches the terminal raw."""
    p = tmp_path / "p.puz"
    p.write_bytes(b"given N: int\nN = 3\x1b[2J\x00\n")
    err = _unlocated(tmp_path, capsys, ["solve", str(p), "--no-color"])
    assert "\x1b" not in err and "\x00" not in err, repr(err)
    assert "unexpected character `\\x1b`" in err and "2 | N = 3\ufffd[2J\ufffd" in err
    assert "\n  |      ^" in err


def test_an_instance_of_other_rules_names_the_rule_file_given(tmp_path: Path, capsys) -> None:
    """The rules named are the ones on the command line, not a file they `use` (was battleship-base.puz)."""
    battleship = ROOT / "puzzles" / "battleship.puz"
    fleetless = ROOT / "puzzles" / "battleship" / "seed-9x9-fleetless.puz"
    err = _unlocated(tmp_path, capsys, ["check", str(battleship), "--data", str(fleetless)])
    assert 'uses the rules "battleship-fleetless", not battleship.puz' in err
    # friction log 11: the help suggested `verify` also to `solve`; now both ways, with the file
    assert f"`puzzledsl solve {fleetless}`" in err and f"`puzzledsl verify battleship-fleetless {fleetless}`" in err


def test_a_negative_count_says_what_count_takes(tmp_path: Path, capsys) -> None:
    """`--count -1` said "a positive number", but `--count 0` (count them all) is valid."""
    err = _unlocated(tmp_path, capsys, ["solve", "kakurasu/seed-5x5.puz", "--count", "-1"])
    assert "--count takes a number of solutions from 0 (0: count them all)" in err


def test_a_missing_use_never_suggests_the_using_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Friction log 14: `chocona-1.puz` with `use "chocona"` (its rules elsewhere) was told "did you
    mean `chocona-1`?", the instance file itself."""
    f = tmp_path / "chocona-1.puz"
    f.write_text('use "chocona"\nregion = "ab"\n', encoding="utf-8")
    assert main(["solve", str(f)]) == 2
    err = capsys.readouterr().err
    assert "cannot find `chocona` to use" in err and "chocona-1`?" not in err and "PUZZLEDSL_PATH" in err


def test_an_empty_rule_file_is_an_input_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Zero bytes, as a failed `generate … > FILE` leaves: not a puzzle with one (empty) solution."""
    f = tmp_path / "empty.puz"
    f.write_bytes(b"")
    assert main(["solve", str(f), "--unique"]) == 2
    assert "holds no statements" in capsys.readouterr().err


@pytest.mark.parametrize("rule, message, where", [
    # friction log 18: `check` said ok to each of these, which only `solve` caught
    ("rule forall (r, c) in cells(g): not x[r]", "`x` has 2 index(es), but 1 were given", "x[r]"),
    ("rule forall p in cells(g): degree(g, p) == 0", "`degree` takes an edge grid (`var NAME[..]: edges`), "
     "not the grid `g`", "g, p"),
    ("rule connected(x)", "`connected` takes an edge grid (`var NAME[..]: edges`), not the grid `x`", "x)"),
])
def test_check_finds_without_data_what_solve_would(tmp_path: Path, capsys, rule: str, message: str,
                                                    where: str) -> None:
    f = tmp_path / "r.puz"
    head = "given R: int\ngiven g[1..R, 1..R]: int?\nvar x[1..R, 1..R]: bool\n"
    f.write_text(head + rule + "\nshow x\n", encoding="utf-8")
    assert main(["check", str(f)]) == 2
    err = capsys.readouterr().err
    assert f"r.puz:4:{rule.index(where) + 1}: error: {message}" in err


def test_a_list_indexed_variable_takes_its_keys_whole(tmp_path: Path, capsys) -> None:
    """Keys of a list-indexed variable may be tuples: `pick[(p, d)]` is one index, not two."""
    f = tmp_path / "r.puz"
    f.write_text("given g[1..2, 1..2]: int?\ndefine keys = [(p, d) for p in cells(g), d in [1, 2]]\n"
                 "var pick[keys]: bool\nrule forall (p, d) in keys: pick[(p, d)] or not pick[(p, d)]\nshow pick\n",
                 encoding="utf-8")
    main(["check", str(f)])
    assert "index(es)" not in capsys.readouterr().err


def test_symbols_have_no_order_and_the_help_says_what_to_compare(tmp_path: Path, capsys) -> None:
    f = tmp_path / "r.puz"
    f.write_text('given g[1..1, 1..2]: sym\ng = "a b"\nvar x: bool\n'
                 "rule forall a in values(g), b in values(g) where a < b: x\nshow x\n", encoding="utf-8")
    assert main(["solve", str(f)]) == 2
    err = capsys.readouterr().err
    assert "cannot order the symbol `a` and the symbol `a`" in err and "symbols have no order" in err


def test_outside_takes_a_known_value(tmp_path: Path, capsys) -> None:
    f = tmp_path / "r.puz"
    f.write_text("given g[1..2, 1..2]: int? outside ?\nvar x: bool\nrule x\nshow x\n", encoding="utf-8")
    assert main(["check", str(f)]) == 2
    err = capsys.readouterr().err
    assert "r.puz:1:35: error: unexpected `?`: `outside` takes a known value" in err and "inside(g, p + d)" in err


@pytest.mark.parametrize("text, message, help_", [
    # friction log 18: located errors that said what was wrong but not what to write
    ('given g[1..2]: sym legend { "o": white, "x": black }\ng = "o x"\nvar v[1..2]: bool\n'
     "rule forall i in 1..2: v[i] == (g[i] == 2)\n",
     "comparing a symbol with a number is never true", "compare with a symbol (`== white`)"),
    ("var v[1..2]: int\nrule v[1] == 1\n", "not `int`", "`var d[1..R, 1..C]: 0..9`"),
    ("var e[1..2, 1..2]: edges\nrule degree((1, 1)) == 0\n", "`degree` takes 2 argument(s), 1 given",
     "write `degree(e, p)` (docs/language.md §11)"),
    ("var g[1..2, 1..2]: bool\nrule forall p in cells(g): size(region(g, p)) != size(region(g, (1, 1)))\n",
     "not with another region's size", "size(region(g, p)) == sz[p]"),
])
def test_errors_say_what_to_write(tmp_path: Path, capsys, text: str, message: str, help_: str) -> None:
    f = tmp_path / "r.puz"
    f.write_text(text, encoding="utf-8")
    assert main(["check", str(f)]) == 2
    err = capsys.readouterr().err
    assert message in err and "help: " in err and help_ in err.split("help: ", 1)[1]


def test_a_misspelled_option_is_suggested(tmp_path: Path, capsys) -> None:
    assert main(["solve", "kakurasu/seed-5x5.puz", "--option", "x=1"]) == 2
    assert "options: none" in capsys.readouterr().err
    (tmp_path / "b.txt").write_text("4 4\n1 0 0 1\n0 2 2 0\n0 0 0 0\n0 0 0 0\n")
    assert main(["solve", "arukone", "--data", str(tmp_path / "b.txt"), "--option", "fil=true"]) == 2
    assert "did you mean `fill`? options: fill, " in capsys.readouterr().err
