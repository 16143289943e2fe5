"""Variants grounded on top of a compiled puzzle (`puzzledsl/variants.py`) have the solutions of
the same puzzle compiled afresh with those options, and leave the puzzle they start from as it was."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from puzzledsl.compile import Compiled, compile_file, compile_givens, compile_rules, load_rules
from puzzledsl.enumeration import Enumeration
from puzzledsl.variants import _regrounded, variant
from tests.test_arukone import random_puzzle

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "puzzles" / "arukone.puz"
VARIANTS = [{"touchfree": "true", "tight": "true"}, {"tight": "true"}, {"fill": "true"}, {"near": "true"},
            {"touchfree": "true", "fill": "true"}]


def solutions(compiled: Compiled) -> set[str]:
    """Every solution, written out (the count of `solve` keeps only the first two)."""
    found = Enumeration(compiled)
    out = {repr(sorted((n, sorted(g.cells.items())) for n, g in grids.items())) for grids in found}
    assert found.complete
    return out


def fresh(compiled: Compiled, options: dict[str, str]) -> Compiled:
    o = compiled.origin
    assert o is not None
    return compile_rules(o.rules, o.raw, o.strict, {**o.options, **options}, o.implied)


@pytest.mark.parametrize("seed0", [0, pytest.param(20, marks=pytest.mark.slow)])  # the default suite: < 5 min
def test_variants_have_the_solutions_of_a_fresh_compile(seed0):
    rules = load_rules(RULES)
    for seed in range(seed0, seed0 + 20):
        rng = random.Random(seed)
        n = rng.choice([3, 4, 4, 5])
        clues = random_puzzle(rng, n, rng.randint(1, 3))
        for start in ({}, {"touchfree": "true"}):
            base = compile_givens(rules, {"num": clues}, start)
            before = (len(base.model.assertions), dict(base.model.units), solutions(base))
            for options in VARIANTS:
                grounded = _regrounded(base, base.origin.grounder, options, {**start, **options})
                assert grounded is not None, options  # no option here reaches past the rules
                assert solutions(grounded) == solutions(fresh(base, options)), (seed, start, options)
                again = variant(grounded, {"fill": "true"})  # a variant of a variant (`prefer` on `wlog`)
                assert solutions(again) == solutions(fresh(base, {**options, "fill": "true"}))
            assert (len(base.model.assertions), dict(base.model.units), solutions(base)) == before


def test_an_option_that_drops_a_rule_drops_its_instances(tmp_path):
    f = tmp_path / "p.puz"
    f.write_text("option a: bool = false\nvar x[1..2]: bool\nrule a or x[1] or x[2]\nwlog a: keep x or false\n")
    base = compile_file(f)
    grounded = _regrounded(base, base.origin.grounder, {"a": "true"}, {"a": "true"})
    assert grounded is not None and len(solutions(grounded)) == 4 and len(solutions(base)) == 3


@pytest.mark.parametrize("text", [
    # the dropped instance forced x: later rules may have read it as a constant
    "option a: bool = false\nvar x: bool\nrule a or x\nrule x or not x\nprefer a\n",
    # the option sets a given's default, or a variable's domain
    "option a: bool = false\ngiven n: int = if a then 2 else 3\nvar x: 0..n\nrule x >= 0\nprefer a\n",
    "option a: bool = false\nvar x: 0..(if a then 2 else 3)\nrule x >= 0\nprefer a\n",
    # the givens alone break a rule that reads the option: it may hold with the new value
    "option a: bool = false\nvar x: bool\nrule a\nprefer a\n",
])
def test_where_an_option_reaches_further_the_variant_is_compiled_afresh(tmp_path, text):
    f = tmp_path / "p.puz"
    f.write_text(text)
    base = compile_file(f)
    assert _regrounded(base, base.origin.grounder, {"a": "true"}, {"a": "true"}) is None
    assert solutions(variant(base, {"a": "true"})) == solutions(fresh(base, {"a": "true"}))


def test_rules_without_variants_keep_no_grounder(tmp_path):
    f = tmp_path / "p.puz"
    f.write_text("option a: bool = false\nvar x: bool\nrule a or x\n")
    assert compile_file(f).origin.grounder is None
