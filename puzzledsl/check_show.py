"""Static checks of `show` statements: what a board draws exists and has the shape its options
need (clues beside it, marks, marks between cells, walls, lines), and every glyph is keyed by a
value the drawn grid holds (else it would silently never be drawn). Part of `check.py`'s pass.
"""

from __future__ import annotations

from .errors import PuzzleError
from .ground_common import unknown_name
from .kinds import Declared
from .syntax import ast as A

SIDES = ("right", "left", "top", "bottom")


def check_show(st: A.Show, names: Declared) -> None:
    """A `show`: what it draws exists and has the shape its options need; glyphs are keyed by values
    the drawn grid holds."""
    givens, vars_, defines = names.givens, names.vars, names.defines
    if st.over is not None:
        shape = vars_.get(st.over) or givens.get(st.over)
        if shape is None or not shape.dims:
            raise unknown_name(st.over, st.span, [n for n, x in {**givens, **vars_}.items() if x.dims])
        d = defines.get(st.name)
        if d is None:
            raise PuzzleError(f"`show {st.name} over {st.over}` needs a `define {st.name}(...)`", st.span)
        dims = len(shape.dims)
        if len(d.params or ()) != dims:
            raise PuzzleError(f"`{st.name}` must take {dims} parameter(s), one per index of `{st.over}`",
                              st.span)
    elif st.name not in vars_:
        if st.name in givens or st.name in defines:
            raise PuzzleError(f"`show` draws decision variables; `{st.name}` is not one", st.span)
        raise unknown_name(st.name, st.span, list(vars_))
    else:
        _glyph_keys(st.name, vars_[st.name].type.kind, st.glyphs)
    for given, side, sp in st.clues:
        if side not in SIDES:
            raise PuzzleError(f"a clue goes at {', '.join(SIDES)}, not `{side}`", sp)
        if given not in givens:
            raise _not_a_given(names, "clue", given, sp, list(givens))
        if len(givens[given].dims) != 1:
            raise PuzzleError(f"a clue beside the board is a 1-D given, one entry per row or column; "
                              f"`{given}` has {len(givens[given].dims)} index(es)", sp,
                              "draw a 2-D given on the board's cells with `marked`, or in a view "
                              "(`show V over X`, docs §14)" if givens[given].dims else None)
    for given, sp in st.marked:
        if given not in givens:
            raise _not_a_given(names, "marked", given, sp, list(givens))
    for given, glyphs, sp in st.between:
        decl = givens.get(given)
        if decl is None:
            raise _not_a_given(names, "between", given, sp, [n for n, g in givens.items() if len(g.dims) == 2])
        if len(decl.dims) != 2:
            raise PuzzleError(f"`between` draws a 2-D given between the cells of a board; `{given}` has "
                              f"{len(decl.dims)} index(es)", sp)
        _between_keys(given, decl, glyphs)
    if st.regions is not None:
        _regions(st, names)
    if st.lines is not None:
        name, sp = st.lines
        decl = vars_.get(name)
        if decl is None or decl.type.kind != "edges":
            raise PuzzleError(f"`lines` draws an edge grid (`var {name}[..]: edges`); `{name}` is not one", sp)


def _regions(st: A.Show, names: Declared) -> None:
    """`regions G`: G is a 2-D given or variable, or a define of a cell's two indices, on a
    2-D board (the shapes are compared once the sizes are known, in `compile`)."""
    givens, vars_, defines = names.givens, names.vars, names.defines
    name, sp = st.regions
    board = vars_.get(st.over or st.name) or givens.get(st.over or st.name)
    if board is not None and len(board.dims) != 2:
        raise PuzzleError(f"`regions` draws walls on a 2-D board; `{st.over or st.name}` has "
                          f"{len(board.dims)} index(es)", sp,
                          "draw the walls on a 2-D variable, or on a view over a 2-D grid (`show V over X`)")
    decl = givens.get(name) or vars_.get(name)
    if decl is not None and len(decl.dims) == 2:
        return
    d = defines.get(name)
    if d is not None and len(d.params or ()) == 2:
        return
    if decl is None and d is None:
        raise unknown_name(name, sp, [n for n, g in {**givens, **vars_}.items() if len(g.dims) == 2])
    what = f"has {len(decl.dims)} index(es)" if decl is not None else f"takes {len(d.params or ())} parameter(s)"
    raise PuzzleError(f"`regions {name}`: `{name}` {what}", sp,
                      "the walls come from a grid with one value per cell of the board: a 2-D given or "
                      "variable (`given room[1..R, 1..C]: int`), or a `define box(r, c) = …`")


def _not_a_given(names: Declared, option: str, name: str, sp, known: list[str]) -> PuzzleError:
    """`clue x at right` with `x` declared, but not as a given: say what it is."""
    what = "a decision variable" if name in names.vars else "a define" if name in names.defines else None
    if what is None:
        return unknown_name(name, sp, known)
    return PuzzleError(f"`{option} {name}` draws a given, but `{name}` is {what}", sp,
                       "`clue`, `marked` and `between` draw givens (known before solving); draw a "
                       "decision with a `show` of its own, or inside a view (`show V over …`)")


def _glyph_keys(name: str, kind: str, glyphs: tuple[A.Glyph, ...]) -> None:
    """A glyph keyed by a value the variable never holds would be silently unused."""
    holds = {"bool": (A.BoolValue, "`true` and `false`"), "range": (A.IntValue, "its numbers")}.get(kind)
    for g in glyphs if holds else ():
        if not isinstance(g.value, holds[0] | A.UnknownValue):
            raise PuzzleError(f"`{name}` never holds this value, so its glyph would never be drawn", g.value.span,
                              f"the glyphs of `{name}` are keyed by {holds[1]}; a symbol is drawn by a view "
                              "(`show V over …`)")


def _between_keys(name: str, decl: A.Given, glyphs: tuple[A.Glyph, ...]) -> None:
    """A `between G {…}` glyph keyed by a value G never holds would be silently unused, and
    G's value drawn as written instead (as wide as its name, out of line with the cells)."""
    def key(v: A.Value) -> tuple:
        return (type(v).__name__, getattr(v, "name", getattr(v, "value", None)))
    any_of = {"int": "IntValue", "bool": "BoolValue"}.get(decl.type.kind)
    if decl.type.kind == "sym" and decl.legend is None:
        return  # the symbols come from the data
    legend = [v for _, v in decl.legend or ()]
    held = {key(v) for v in legend}
    for g in glyphs:
        if isinstance(g.value, A.UnknownValue) or type(g.value).__name__ == any_of or key(g.value) in held:
            continue
        shown = ", ".join(dict.fromkeys(f"`{v.name}`" for v in legend if isinstance(v, A.SymValue)))
        holds = (f"its legend gives {shown}" if shown else
                 {"int": "numbers", "bool": "`true` and `false`"}.get(decl.type.kind, "its legend's values"))
        raise PuzzleError(f"`{name}` never holds this value, so its glyph would never be drawn", g.value.span,
                          f"the glyphs of `between {name}` are keyed by the values of `{name}`: {holds}")
