"""Lowering "collect everything, then reach the goal" plans to a tour over collection events.

Some plans split into a *mover* (atoms whose next values depend only on the mover and the
action, like where a piece stands) and *flags* (atoms that actions only ever set to true,
that no condition reads, and that the goal wants true: things collected, cells visited).
Then the moves possible never depend on the flags, and a shortest plan is a shortest walk
in the mover's state graph that passes, in some order, an edge setting each flag. Between
two such *collection events* the walk follows a shortest path, so the problem becomes a
generalised travelling-salesman tour over the events, with costs computed here by
breadth-first search; `backends/cpsat.py` solves it exactly (OR-tools CP-SAT, `AddCircuit`).

Detection is generic (it looks at the ground actions only) and gives up, returning None,
when the split does not exist or the mover has more than `limit` reachable states.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from ..model import AndNode
from .problem import GroundAction, PlanProblem


@dataclass
class MoverGraph:
    states: list[frozenset[int]]  # true mover atoms of each reachable state
    edges: list[list[tuple[int, int, frozenset[int]]]]  # state -> (action index, next state, flags set)
    start: int
    goal: set[int]  # states where the goal holds once every flag is set
    flags: list[int]  # the flags the goal needs


@dataclass
class TourProblem:
    """Visit a subset of events covering every flag, as one circuit through node 0 (the start
    and the end); `cost[i][j]` is the price of going from event i to event j (None: impossible)."""

    events: list[tuple[int, int, int]]  # node i >= 1: (from state, action index, to state)
    covers: dict[int, list[int]]  # flag -> the event nodes that set it
    cost: dict[tuple[int, int], int]  # (i, j) -> moves, node 0 = the start / the goal


def detect(p: PlanProblem, limit: int = 50_000) -> MoverGraph | None:
    m = p.model
    atoms = set(p.atom_of)
    if p.one_hot:
        return None
    goal_lits = {}
    node = m.nodes.get(p.goal) if isinstance(p.goal, int) and p.goal > 0 else None
    for lit in (node.children if isinstance(node, AndNode) else ((p.goal,) if isinstance(p.goal, int) else ())):
        goal_lits[abs(lit)] = lit > 0
    read: set[int] = set()
    for act in p.actions:
        read |= m.variables(act.pre)
        for v in act.effects.values():
            read |= m.variables(v)
    for f, _, _ in p.state_rules:
        read |= m.variables(f)
    if not read <= atoms:
        return None  # conditions over decision variables outside the state
    def flag_like(h: int) -> bool:
        return (h not in read and p.init_values.get(h) is not True
                and all(act.effects.get(h, True) is True for act in p.actions))

    # a whole state variable is flags or mover: the exit cell of a position grid is never read
    # either, but it is where the mover ends, not something collected on the way
    flag_set = {h for name in p.templates
                for cells in [[a.h for a in p.atoms if a.state == name]]
                if all(flag_like(h) for h in cells) for h in cells
                if any(h in act.effects for act in p.actions)}
    flags = sorted(flag_set)
    goal_vars = m.variables(p.goal)
    needed = [h for h in flags if goal_lits.get(h) is True]
    if not needed or any(h in goal_vars and goal_lits.get(h) is not True for h in flag_set):
        return None
    mover = atoms - flag_set
    if any(h not in p.init_values for h in mover):
        return None  # the start is not one explicit state
    return _explore(p, frozenset(h for h in mover if p.init_values[h]), mover, flag_set, needed, limit)


def _explore(p: PlanProblem, start: frozenset[int], mover: set[int], flag_set: set[int], needed: list[int],
             limit: int) -> MoverGraph | None:
    m = p.model
    by_atom: dict[int, list[GroundAction]] = {}
    general: list[GroundAction] = []
    for act in p.actions:
        pos = [h for h, v in act.pre_lits.items() if v]
        (by_atom.setdefault(pos[0], []) if pos else general).append(act)
    all_flags = {h: True for h in needed}
    index = {start: 0}
    states, edges, goal = [start], [], set()
    queue = deque([start])
    while queue:
        s = queue.popleft()
        value = dict.fromkeys(s, True)
        if not all(m.evaluate(f, value) for f, _, _ in p.state_rules):
            edges.append([])
            continue
        if m.evaluate(p.goal, {**value, **all_flags}):
            goal.add(index[s])
        out = []
        cands = [a for h in s for a in by_atom.get(h, ())] + general
        for act in cands:
            memo: dict[int, bool] = {}
            if not m.evaluate(act.pre, value, memo):
                continue
            nxt = set(s)
            got = []
            for h, f in act.effects.items():
                v = m.evaluate(f, value, memo)
                if h in flag_set:
                    if v:
                        got.append(h)
                elif v:
                    nxt.add(h)
                else:
                    nxt.discard(h)
            t = frozenset(nxt)
            if t not in index:
                if len(states) >= limit:
                    return None
                index[t] = len(states)
                states.append(t)
                queue.append(t)
            out.append((act.index, index[t], frozenset(got)))
        edges.append(out)
    return MoverGraph(states, edges, 0, goal, needed)


def _distances(g: MoverGraph, source: int) -> tuple[list[int | None], list[tuple[int, int] | None]]:
    """Moves from `source` to every state, and the last (state, action) of a shortest path."""
    dist: list[int | None] = [None] * len(g.states)
    back: list[tuple[int, int] | None] = [None] * len(g.states)
    dist[source] = 0
    queue = deque([source])
    while queue:
        u = queue.popleft()
        for act, v, _ in g.edges[u]:
            if dist[v] is None:
                dist[v] = dist[u] + 1  # type: ignore[operator]
                back[v] = (u, act)
                queue.append(v)
    return dist, back


def _path(back: list[tuple[int, int] | None], source: int, target: int) -> list[int]:
    acts: list[int] = []
    while target != source:
        u, act = back[target]  # type: ignore[misc]
        acts.append(act)
        target = u
    return acts[::-1]


class Lowered:
    """The tour problem of a mover graph, and the way back from a tour to actions."""

    def __init__(self, g: MoverGraph):
        self.g = g
        needed = set(g.flags)
        seen: dict[tuple[int, int, frozenset[int]], int] = {}
        events: list[tuple[int, int, int]] = [(-1, -1, -1)]
        covers: dict[int, list[int]] = {h: [] for h in g.flags}
        for u, out in enumerate(g.edges):
            for act, v, got in out:
                useful = got & needed
                if not useful or (u, v, useful) in seen:
                    continue
                seen[(u, v, useful)] = len(events)
                for h in useful:
                    covers[h].append(len(events))
                events.append((u, act, v))
        self.sources = {g.start} | {v for _, _, v in events[1:]}
        self.dist: dict[int, list[int | None]] = {}
        self.back: dict[int, list] = {}
        for s in self.sources:
            self.dist[s], self.back[s] = _distances(g, s)
        cost: dict[tuple[int, int], int] = {}
        n = len(events)
        for i in range(n):
            here = g.start if i == 0 else events[i][2]
            d = self.dist[here]
            for j in range(1, n):
                if j != i and d[events[j][0]] is not None:
                    cost[(i, j)] = d[events[j][0]] + 1  # type: ignore[operator]
            best = min((d[s] for s in g.goal if d[s] is not None), default=None)  # type: ignore[type-var]
            if i > 0 and best is not None:
                cost[(i, 0)] = best
        self.tour = TourProblem(events, covers, cost)

    def actions(self, order: list[int]) -> list[int]:
        """The action indices of the walk that visits the events in `order` and ends in the goal."""
        g, ev = self.g, self.tour.events
        out: list[int] = []
        here = g.start
        for i in order:
            u, act, v = ev[i]
            out += _path(self.back[here], here, u) + [act]
            here = v
        d = self.dist[here]
        end = min((s for s in g.goal if d[s] is not None), key=lambda s: d[s])  # type: ignore[arg-type,return-value]
        return out + _path(self.back[here], here, end)

    def greedy(self) -> list[int]:
        """A quick tour: always the cheapest event that sets a flag still missing (a first plan
        and a hint for the exact search)."""
        t = self.tour
        missing = set(self.g.flags)
        order: list[int] = []
        at = 0
        while missing:
            cands = [(t.cost[(at, j)], j) for h in missing for j in t.covers[h] if (at, j) in t.cost]
            if not cands:
                return []
            _, j = min(cands)
            order.append(j)
            missing -= {h for h in missing if j in t.covers[h]}
            at = j
        return order if (at, 0) in t.cost else []
