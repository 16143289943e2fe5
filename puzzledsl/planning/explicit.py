"""Plans by a search over explicit states, tried first while the reachable states stay few.

Time-indexed SAT proves a plan shortest one horizon at a time; a puzzle whose plans are long
but whose states are few pays for that: a new user's 7x7 box-pushing level (2 boxes, 35
moves) had not passed horizon 34 after 200 s, and it has about 4,000 states. And where no goal
state is reachable but relaxed reachability cannot tell (discs to move between two pegs: 16
states), the horizons grow for ever; visiting every reachable state proves that no plan
exists. States are visited in order of (cost, moves), so a cheapest plan is also the
shortest of the cheapest ones (no wandering between the moves that cost). The search stops
after a budget of states or seconds and leaves the puzzle to SAT.
"""

from __future__ import annotations

import heapq
import time
from dataclasses import dataclass

from .problem import GroundAction, PlanProblem

MAX_STATES = 200_000
MAX_SECONDS = 2.0


@dataclass
class Explored:
    """The outcome of a finished search: a best plan, or none (`actions is None`): none at all,
    or, when `cut`, none within the horizon's bound."""

    actions: list[GroundAction] | None
    cost: int | None
    visited: int
    cut: bool = False


def explore(p: PlanProblem, unit: int | None, deadline: float | None,
            max_states: int = MAX_STATES, max_seconds: float = MAX_SECONDS) -> Explored | None:
    """The best plan (fewest moves, or under `horizon minimize cost` the cheapest and then the
    fewest moves) or the proof that none exists; None when the initial state is not one state,
    the horizon asks for an exact length, or the budget runs out first."""
    if p.horizon.kind == "exact" or any(a.h not in p.init_values for a in p.atoms):
        return None
    stop = time.perf_counter() + max_seconds
    if deadline is not None:
        stop = min(stop, deadline)
    m = p.model
    start = frozenset(h for h, v in p.init_values.items() if v)
    rules = _checked_rules(p)
    if not m.evaluate(p.init, dict.fromkeys(start, True)) or not _allowed(p, start, rules):
        return None  # the time-indexed search says why
    keyed = _index(p.actions)
    groups = {h: group for group in p.one_hot for h in group}
    bound = p.horizon.bound
    sequential_cost = p.horizon.cost and unit is None
    best: dict[frozenset, tuple[int, int]] = {start: (0, 0)}
    parent: dict[frozenset, tuple[frozenset, GroundAction] | None] = {start: None}
    queue: list[tuple[int, int, int, frozenset]] = [(0, 0, 0, start)]
    tick = 0
    cut = False
    while queue:
        cost, moves, _, s = heapq.heappop(queue)
        if best[s] < (cost, moves):
            continue  # a better way here was found after this entry was queued
        here = dict.fromkeys(s, True)
        if m.evaluate(p.goal, here):
            if sequential_cost and bound is not None and moves > bound:
                return None  # the cheapest plan is too long; a dearer short one may exist
            return Explored(_plan(parent, s), cost if sequential_cost else None, len(best))
        if bound is not None and not sequential_cost and moves >= bound:
            cut = True
            continue
        if len(best) > max_states or time.perf_counter() > stop:
            return None
        for act in _candidates(keyed, s):
            if not m.evaluate(act.pre, here):
                continue
            memo: dict[int, bool] = {}
            on = {h for h, v in act.effects.items() if m.evaluate(v, here, memo)}
            t = s.difference(act.effects).union(on)
            if not _allowed(p, t, rules, {groups[h] for h in act.effects if h in groups}):
                continue
            step = act.cost_in(m, here) if sequential_cost else 1
            key = (cost + step, moves + 1)
            if key < best.get(t, (key[0] + 1, 0)):
                best[t], parent[t] = key, (s, act)
                tick += 1
                heapq.heappush(queue, (key[0], key[1], tick, t))
    return Explored(None, None, len(best), cut)


def _checked_rules(p: PlanProblem) -> list:
    """The state rules a state must satisfy here. `implied rule`s are left out: they follow from
    the others, and states reached by the moves keep them (a sliding puzzle's "each tile once"
    was three quarters of the search's time)."""
    return [f for i, (f, _, _) in enumerate(p.state_rules) if i not in p.implied]


def _allowed(p: PlanProblem, s: frozenset, rules: list, changed: set[tuple[int, ...]] | None = None) -> bool:
    """`rules` hold and every integer cell has one value, as at every step of SAT's plans
    (`changed`: the cells a move wrote, the others having one value already)."""
    here = dict.fromkeys(s, True)
    if any(sum(1 for h in group if h in s) != 1 for group in (p.one_hot if changed is None else changed)):
        return False
    return all(p.model.evaluate(f, here) for f in rules)


def _index(actions: list[GroundAction]) -> tuple[list[GroundAction], dict[int, list[GroundAction]]]:
    """Actions keyed by one atom their condition needs true (the rarest such), so a state asks
    only the actions whose key it holds: a keeper's moves from his own cell, not from all."""
    need = {}
    for act in actions:
        for h, v in act.pre_lits.items():
            if v:
                need[h] = need.get(h, 0) + 1
    free: list[GroundAction] = []
    keyed: dict[int, list[GroundAction]] = {}
    for act in actions:
        pos = [h for h, v in act.pre_lits.items() if v]
        if pos:
            keyed.setdefault(min(pos, key=lambda h: (need[h], h)), []).append(act)
        else:
            free.append(act)
    return free, keyed


def _candidates(index: tuple[list[GroundAction], dict[int, list[GroundAction]]], s: frozenset) -> list[GroundAction]:
    free, keyed = index
    out = list(free)
    for h in s:
        out += keyed.get(h, ())
    out.sort(key=lambda a: a.index)  # the same plan on every run, whatever the set's order
    return out


def _plan(parent: dict, s: frozenset) -> list[GroundAction]:
    actions: list[GroundAction] = []
    while parent[s] is not None:
        s, act = parent[s]
        actions.append(act)
    actions.reverse()
    return actions
