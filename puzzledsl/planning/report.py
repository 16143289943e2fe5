"""What `solve` prints for a puzzle played over time: the plan, the boards along the way,
and the proof status of its length (human or JSON)."""

from __future__ import annotations

import json
import sys

from ..compile import Compiled
from ..values import Grid, IntVarCell
from ..words import count
from .problem import PlanProblem, json_value
from .search import PlanResult, uniform_cost


def state_grids(p: PlanProblem, state: dict[int, bool]) -> dict[str, Grid]:
    """One explicit state as grids of values, the shape `show` and JSON use."""
    out: dict[str, Grid] = {}
    for name, t in p.templates.items():
        g = t.empty_like()
        for key, cell in t.cells.items():
            if isinstance(cell, IntVarCell):
                g.cells[key] = next((cell.lo + i for i, h in enumerate(cell.handles) if state.get(h)), None)
            else:
                g.cells[key] = bool(state.get(cell.h))
        out[name] = g
    return out


def step_costs(p: PlanProblem, res: PlanResult) -> list[int] | None:
    """Each action's cost where the plan minimises costs that vary (else None)."""
    if not p.horizon.cost or uniform_cost(p) is not None:
        return None
    return [a.cost_in(p.model, s) for a, s in zip(res.actions, res.states)]


def plan_text(res: PlanResult, costs: list[int] | None = None) -> str:
    """The actions' texts; where costs vary, an action that costs nothing joins the one before
    with a comma (a peg's chain of jumps reads as one move)."""
    texts = [a.text for a in res.actions]
    sep = "" if all(len(t) == 1 for t in texts) else " "
    if not costs:
        return sep.join(texts)
    out = ""
    for k, (t, c) in enumerate(zip(texts, costs)):
        out += t if k == 0 else ("," if c == 0 else sep or " ") + t
    return out


def length_words(res: PlanResult, p: PlanProblem | None = None) -> str:
    n = len(res.actions)
    names = {a.name for a in res.actions}
    noun = names.pop() if len(names) == 1 else "action"
    word = count(n, noun)
    costed = p is not None and p.horizon.cost and uniform_cost(p) != 1
    if costed:
        word += f", cost {res.cost}"
        n = res.cost or 0
    if res.optimal:
        return f"{word}, optimal"
    least = "cheapest" if costed else "shortest"
    if 0 < res.lower_bound < n:
        word += f", {least} possible is at least {res.lower_bound}"
    why = "interrupted" if res.interrupted else "time limit"
    return word + (f", not proven optimal: {why}" if res.timed_out else "")


def print_plan_human(compiled: Compiled, res: PlanResult, timings: dict[str, float], show_steps: bool,
                     color: bool = True) -> None:
    from rich.console import Console

    from ..render import boards

    p = compiled.plan
    assert p is not None
    console = Console(no_color=not color, highlight=False, soft_wrap=True)
    title = compiled.title or "puzzle"
    if res.status == "unsat":
        console.print(f"[bold red]no solution[/] — {title}")
        from ..report import options_line
        options_line(console, compiled)
        if res.reason:
            console.print(res.reason)
    elif res.status == "unknown":
        console.print(f"[bold yellow]time limit reached[/] before any plan — {title}")
        if res.lower_bound > 0:
            what = "costs less than" if p.horizon.cost else "has fewer actions than"
            console.print(f"no plan {what} {res.lower_bound} (proven)")
    else:
        console.print(f"[bold green]solved[/] — {title}")
        console.print(f"[bold]plan[/] ({length_words(res, p)}): {plan_text(res, step_costs(p, res))}")
        console.print()
        grids = [state_grids(p, s) for s in res.states]
        if show_steps:
            for k, g in enumerate(grids):
                head = "start" if k == 0 else f"after step {k}: {res.actions[k - 1].text}"
                console.print(f"[bold]{head}[/]")
                for b in boards(compiled, g, other=grids[k - 1] if k else None):
                    console.print(b)
                console.print()
        else:
            for b in boards(compiled, grids[-1]):
                console.print(b)
                console.print()
    for note in res.notes:
        console.print(f"[dim]{note}[/]")
    if not res.method:
        return
    from ..report import stats_text
    stats = stats_text(res.stats)
    console.print(f"[dim]{res.method}: {stats}; compile {timings.get('compile', 0) * 1000:.0f} ms, "
                  f"total {timings.get('total', 0) * 1000:.0f} ms[/]")


def print_plan_json(compiled: Compiled, res: PlanResult, timings: dict[str, float], show_steps: bool) -> None:
    from ..report import solution_json

    p = compiled.plan
    assert p is not None
    grids = [state_grids(p, s) for s in res.states]
    costs = step_costs(p, res)
    obj = {
        "status": res.status,
        "title": compiled.title,
        "options": {k: json_value(v) for k, v in compiled.options.items()},
        "options_set": list(compiled.options_set),
        "plan": [{"action": a.name, "args": [json_value(x) for x in a.args]} for a in res.actions],
        "plan_text": plan_text(res, costs) if res.status == "sat" else None,
        "moves": len(res.actions) if res.status == "sat" else None,
        "cost": res.cost if res.status == "sat" else None,
        "step_costs": costs,
        "optimal": res.optimal if res.status == "sat" else res.status == "unsat",
        "lower_bound": res.lower_bound,
        "reason": res.reason,
        "timed_out": res.timed_out,
        "interrupted": res.interrupted,
        "final": solution_json(grids[-1], compiled) if grids else None,
        "steps": [solution_json(g, compiled) for g in grids] if show_steps else None,
        "method": res.method,
        "horizons": [{"steps": t, "result": r, "seconds": round(s, 4)} for t, r, s in res.horizons],
        "notes": res.notes,
        "stats": res.stats,
        "timings": {k: round(v, 6) for k, v in timings.items()},
    }
    json.dump(obj, sys.stdout)
    sys.stdout.write("\n")
