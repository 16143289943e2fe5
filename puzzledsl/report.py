"""What `solve` prints: a human report with boards, or one JSON object."""

from __future__ import annotations

import json
import sys

from .compile import Compiled, ShowSpec
from .false_rule import false_rule_text
from .solve import Mode, Outcome
from .values import EdgeGrid, plain, written
from .words import count


def _verdict(out: Outcome, mode: Mode, how: str = "highlighted") -> str | None:
    """`how`: how the second solution's differences are shown ("highlighted", "marked *")."""
    if mode.count is not None:
        if out.count is None:
            return None
        more = "" if out.count_complete else (" (stopped at the limit)" if not out.timed_out else
                                               " or more (time limit)")
        return f"{count(out.count, 'solution')}{more}"
    if mode.unique:
        if out.unique is True:
            return "unique"
        if out.unique is False:
            return f"not unique: a second solution follows, differences {how}"
        return "uniqueness unknown (time limit)"
    return None


def print_human(compiled: Compiled, out: Outcome, mode: Mode, color: bool = True) -> None:
    from rich.console import Console

    from .render import boards

    console = Console(no_color=not color, highlight=False, soft_wrap=True)
    title = compiled.title or "puzzle"
    if out.status == "unsat":
        console.print(f"[bold red]no solution[/] — {title}")
        options_line(console, compiled)
        print_clash(console, compiled, out.conflict)
        return
    if out.status == "unknown":
        console.print(f"[bold yellow]time limit reached[/] before any solution — {title}")
        _sizes(console, out)
        return
    first = out.solutions[0]
    shown = out.determined if out.determined is not None else first
    # drawn before any output: a view's error is reported alone
    drawn = boards(compiled, shown, partial=out.determined is not None)
    second = (mode.unique or mode.count is not None) and len(out.solutions) > 1 and out.unique is False
    if second and out.determined is None:
        for b in drawn:  # no cell marked, but the column for the marks kept: the two boards line up
            b.differs = set()
    console.print(f"[bold green]solved[/] — {title}")
    if out.determined is not None:
        console.print("cells equal in every solution (? = not determined):")
    for b in drawn:
        console.print(b)
        console.print()
    how = "marked *" if console.no_color or console.color_system is None else "highlighted"
    verdict = _verdict(out, mode, how)
    if verdict:
        if compiled.options and (mode.unique or mode.count is not None):
            head, colon, tail = verdict.partition(":")  # say what "unique" was checked under
            verdict = f"{head} under {options_text(compiled.options)}{colon}{tail}"
        console.print(f"[bold]{verdict}[/]", highlight=False)
        if out.route:
            console.print(f"[dim]decided by {out.route}[/]", highlight=False)
        elif out.established and out.unique is None:
            from rich.markup import escape
            console.print(f"[dim]established before the time limit: {escape('; '.join(out.established))}[/]",
                          highlight=False)
        hidden = hidden_difference(compiled, out)
        if hidden:
            console.print(hidden, highlight=False)
    if second:
        console.print()
        if out.determined is not None:  # the board above is what the solutions share: show the first too
            console.print("[bold]a first solution[/]:")
            for b in boards(compiled, first):
                console.print(b)
                console.print()
            console.print(f"[bold]a second solution[/], the cells that differ from the first {how}:")
        elif mode.count is not None:  # --unique's verdict already says what follows
            console.print(f"[bold]a second solution[/], the cells that differ from the first {how}:")
        for b in boards(compiled, out.solutions[1], other=first):
            console.print(b)
            console.print()
    _sizes(console, out)


def options_line(console, compiled: Compiled) -> None:
    """Under a "no solution": every option's value, those set for this run (command line, data)
    marked, when some were set: the bound a user set may be why, not the rules."""
    if compiled.options_set:
        text = ", ".join(f"{k}={option_word(v)}" + (" (set for this run)" if k in compiled.options_set else "")
                         for k, v in compiled.options.items())
        console.print(f"options in effect: {text}", highlight=False)


MANY_ROUNDS = 1000  # graph rounds worth a word on how to need fewer


def _sizes(console, out: Outcome) -> None:
    """The closing line (the model's sizes and times), and a hint when graph cuts took the time."""
    t = out.timings
    stats = stats_text(out.stats)
    stages = ", ".join(f"{k} {t[k] * 1000:.0f} ms" for k in ("compile", "encode", "solve", "recheck")
                       if k in t and (k != "encode" or t[k] >= 0.0005))  # encoding left out under 0.5 ms
    console.print(f"[dim]{out.backend}: {stats}; {stages}, total {t.get('total', 0) * 1000:.0f} ms[/]")
    rounds = out.stats.get("graph_rounds", 0)
    # counting many solutions takes a round or so for each: only more rounds than answers say
    # that the cuts, not the answers, took the time (a count of 318,890 took 2,008 rounds)
    if rounds >= max(MANY_ROUNDS, 2 * (out.count or 0)):
        console.print(f"[dim]{rounds} rounds of `connected`/`acyclic` cuts: the solver keeps proposing answers "
                      "that break a graph rule. Implied rules that say locally what the graph rule means "
                      "usually cut this to a few rounds (docs/language.md §18, “When the cuts take many "
                      "rounds”).[/]")


def hidden_difference(compiled: Compiled, out: Outcome) -> str | None:
    """When two solutions are drawn the same (they differ only in helper variables), say
    where they differ, and how to compare solutions on what makes up the answer."""
    if len(out.solutions) < 2 or compiled.answer is not None:
        return None
    a, b = out.solutions[:2]
    for spec in compiled.shows:
        if compiled.values_of(spec, a).cells != compiled.values_of(spec, b).cells:
            return None
        if spec.lines is not None and a[spec.lines].cells != b[spec.lines].cells:
            return None
        if spec.regions is not None and _regions(compiled, spec, a) != _regions(compiled, spec, b):
            return None  # the walls differ
    differ = ", ".join(f"`{n}`" for n in a if a[n].cells != b[n].cells)
    drawn = sorted({n for s in compiled.shows for n in (s.name if s.over is None else s.over, s.lines)
                    if n in compiled.grids})  # `answer` names variables, not the givens a view is drawn over
    if drawn:
        return (f"the two solutions are drawn the same: they differ only in {differ}; if that is a helper, "
                f"declare `answer {', '.join(drawn)}` to compare solutions on what makes up the answer")
    views = ", ".join(f"`{s.name}`" for s in compiled.shows if s.over is not None)
    return (f"the two solutions are drawn the same: they differ only in {differ}, which the drawing ({views}, "
            f"a view) does not show. `answer` names variables only: make the drawn cells a variable of their "
            f"own (`var` with a rule that it equals the view) and `answer` it, or tie {differ} down so that "
            f"one drawing has one value of it (docs/language.md §14)")


def _regions(compiled: Compiled, spec: ShowSpec, sol: dict) -> dict:
    from .render import regions_of  # rich is imported only to draw
    g = regions_of(compiled, spec, sol)
    return g.cells if g is not None else {}


def stats_text(stats: dict[str, int], search: bool = False) -> str:
    """`69 variables, 155 clauses`: the sizes (or, with `search`, the solver's search counters)."""
    from .backends.base import SEARCH_STATS
    return ", ".join(_stat(v, k) for k, v in stats.items() if (k in SEARCH_STATS) == search)


def _stat(n: int, key: str) -> str:
    """`1 clause`, `2 clauses`: the keys are regular plurals (`variables`, `steps`) or verbs (`rechecked`)."""
    return count(n, key[:-1], many=key) if key.endswith("s") else f"{n} {key}"


def print_search_stats(stats: dict[str, int], color: bool = True) -> None:
    """`--stats`: the solver's search counters, summed over every solver call of the run."""
    from rich.console import Console
    text = stats_text(stats, search=True) or "none kept by this solver"
    Console(no_color=not color, highlight=False, soft_wrap=True).print(f"[dim]solver statistics: {text}[/]")


def options_text(options: dict[str, object]) -> str:
    """`fill=false, touchfree=false`: the rule options a verdict holds under."""
    return ", ".join(f"{k}={option_word(v)}" for k, v in options.items())


def option_word(v: object) -> str:
    """An option's value as `--option NAME=VALUE` writes it: true, false, ?, 3, square."""
    return "?" if v is None else str(v).lower() if isinstance(v, bool) else str(v)


def solution_json(sol: dict, compiled: Compiled) -> dict:
    """Every decision variable, then every view that `show` draws, as nested lists. An edge grid
    is its list of edges that are on; on a `--determined` board, those not determined are listed
    apart, under `NAME?` (a list of edges has no place for a `null`)."""
    out: dict = {}
    for n, g in sol.items():
        out[n] = g.nested(plain)
        if isinstance(g, EdgeGrid) and any(v is None for v in g.cells.values()):
            out[n + "?"] = [[list(p), list(q)] for p, q in g.edges if g.cells.get(p + q) is None]
    for spec in compiled.shows:
        if spec.over is not None:
            out[spec.name] = compiled.values_of(spec, sol).nested(plain)
    return out


def listed_keys(compiled: Compiled) -> dict[str, list]:
    """The indices of each decision variable indexed by a list (`var take[choices]`), in the
    order of its values in `solutions`: a bare list of Booleans says nothing of which candidate
    each one is (friction log 17)."""
    return {n: [plain(k[0] if len(k) == 1 else k) for k in g.keys()]
            for n, g in compiled.grids.items() if g.keyed}


def print_json(compiled: Compiled, out: Outcome, mode: Mode) -> None:
    json.dump(json_object(compiled, out, mode), sys.stdout)
    sys.stdout.write("\n")


def json_object(compiled: Compiled, out: Outcome, mode: Mode) -> dict:
    """The object `solve --json` prints (docs/language.md §15), of plain values only."""
    obj = {
        "status": out.status,
        "title": compiled.title,
        "unique": out.unique,
        "options": {k: plain(v) for k, v in compiled.options.items()},
        "options_set": list(compiled.options_set),
        "answer": list(compiled.answer) if compiled.answer is not None else None,
        "count": out.count,
        "route": out.route,
        "established": list(out.established),
        "count_complete": (out.count_complete if mode.count is not None or mode.unique or out.status == "unsat"
                           else None),
        "timed_out": out.timed_out,
        "solutions": [solution_json(s, compiled) for s in out.solutions],
        "determined": solution_json(out.determined, compiled) if out.determined is not None else None,
        "backend": out.backend,
        "stats": out.stats,
        "timings": {k: round(v, 6) for k, v in out.timings.items()},
        "interrupted": out.interrupted,
    }
    keys = listed_keys(compiled)
    if keys:
        obj["keys"] = keys
    if out.certificate is not None:
        c = out.certificate
        obj["proof"] = {"file": str(c.proof), "formula": str(c.formula), "variables": c.variables,
                        "clauses": c.clauses, "lemmas": c.lemmas}
    clash = clash_json(compiled, out.conflict)
    if clash:
        obj["conflict"] = clash
    return obj


def print_clash(console, compiled: Compiled, conflict: list[tuple[str | None, str]] | None) -> None:  # noqa: ANN001
    """Why there is no solution: the rule the givens alone break, or the rules that clash."""
    false = false_rule_text(compiled)
    if false is not None:
        console.print(false)
    elif conflict:
        console.print("these rules cannot all hold:")
        for label, at in conflict:
            console.print(f"  {'“' + label + '”' if label else 'a rule'} at {at}")


def clash_json(compiled: Compiled, conflict: list[tuple[str | None, str]] | None) -> list[dict] | None:
    """`print_clash` as JSON: `[{"label", "at", "where"?}]`, or None when nothing is known."""
    fr = compiled.model.false_rule
    if fr is not None:
        one: dict = {"label": fr.label, "at": str(fr.place)}
        if fr.binding:  # the loop variables' values where it fails, as the rules write them
            one["where"] = {k: written(v) for k, v in fr.binding}
        return [one]
    return [{"label": label, "at": at} for label, at in conflict] if conflict else None
