"""What an explanation is made of: facts (answer cells at their values), reasons (rule
instances), steps, and the grade computed from them."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..compile import Compiled
from ..errors import Span
from ..values import EdgeGrid, IntVarCell, binding_text

HARD = 3  # a step that combines this many rule instances or more counts as hard in the grade


@dataclass(frozen=True)
class Fact:
    """One answer cell at its value in the solution."""

    name: str
    key: tuple[int, ...]
    value: object
    lits: tuple[int, ...]  # what holds when the cell has this value
    handles: tuple[int, ...] = ()  # every variable behind the cell (an integer's one-hot values)
    edge: bool = False  # a cell of an `edges` grid: its key is two cells, `p + q`

    def where(self) -> str:
        """As the rules name the cell: `x[2, 3]`, an edge `link[(1, 1), (1, 2)]`."""
        if self.edge:
            p, q = self.index()
            return f"{self.name}[({', '.join(map(str, p))}), ({', '.join(map(str, q))})]"
        return f"{self.name}[{', '.join(map(str, self.key))}]"

    def index(self) -> list:
        """The key as `solve --json` writes it: a list of numbers, an edge as its two cells."""
        if self.edge:
            half = len(self.key) // 2
            return [list(self.key[:half]), list(self.key[half:])]
        return list(self.key)


@dataclass(frozen=True)
class Reason:
    """One ground constraint: a rule at one binding, or a graph rule as a whole."""

    label: str | None
    rule: Span | None
    binding: tuple[tuple[str, object], ...]

    def where(self) -> str:
        name = f'rule "{self.label}"' if self.label else f"the rule at line {self.rule.line if self.rule else '?'}"
        if not self.binding:
            return name
        return name + " at " + binding_text(self.binding)

    def line(self) -> str:
        return f"{self.rule.path}:{self.rule.line}" if self.rule else ""


@dataclass
class Step:
    fixed: list[Fact]
    reasons: list[Reason]
    uses: list[Fact]  # cells fixed before, that the reasons need
    level: int

    @property
    def size(self) -> int:
        """How many rule instances the step combines."""
        return len(self.reasons)

    @property
    def alone(self) -> bool:
        """One cell fixed by one rule instance alone, using no earlier step (a given copied into
        its cell): such steps come first, shown as one block."""
        return self.size == 1 and not self.uses and len(self.fixed) == 1


@dataclass
class Explanation:
    status: str  # "unique" | "unsat" | "not unique" | "unknown" (time limit)
    steps: list[Step] = field(default_factory=list)
    given: list[Fact] = field(default_factory=list)  # cells the progress fixed, before the first step
    wrong: list[tuple[Fact, object]] = field(default_factory=list)  # progress cells that differ: (fact, value there)
    facts: list[Fact] = field(default_factory=list)  # every answer cell at its solved value
    timed_out: bool = False
    seconds: float = 0.0

    def grade(self) -> dict[str, int | float]:
        """The difficulty, from the steps (docs/explain.md): the largest step and how many steps
        need HARD or more rule instances, folded into one number."""
        sizes = [s.size for s in self.steps]
        hardest = max(sizes, default=0)
        hard = sum(1 for n in sizes if n >= HARD)
        return {"steps": len(sizes), "hardest": hardest, "hard_steps": hard,
                "mean": round(sum(sizes) / len(sizes), 2) if sizes else 0.0,
                "grade": round(hardest + min(hard, 99) / 100, 2)}


def answer_facts(compiled: Compiled, true: set[int]) -> list[Fact]:
    """Every cell of the answer's grids at its value in the model `true`; a cell that another
    key names too (an edge seen from both ends) is one fact, under its first key."""
    names = compiled.answer if compiled.answer is not None else list(compiled.grids)
    out = []
    seen: set[tuple[int, ...]] = set()
    for name in names:
        edge = isinstance(compiled.grids[name], EdgeGrid)
        for key, cell in sorted(compiled.grids[name].cells.items()):
            if isinstance(cell, bool):
                continue  # a constant cell: nothing to explain
            handles = tuple(cell.handles) if isinstance(cell, IntVarCell) else (cell.h,)  # type: ignore[attr-defined]
            if handles in seen:
                continue
            seen.add(handles)
            if isinstance(cell, IntVarCell):
                v = cell.value(true)
                if cell.binary:
                    lits = tuple(h if h in true else -h for h in cell.handles)
                else:
                    lits = (cell.handles[v - cell.lo],)
                out.append(Fact(name, key, v, lits, handles, edge))
            else:
                h = handles[0]
                out.append(Fact(name, key, h in true, (h if h in true else -h,), handles, edge))
    return out


def fill(compiled: Compiled, grid: str, facts: list[Fact]) -> dict[tuple[int, ...], object]:
    """The values of a decision grid's cells that `facts` fix, under every key that names them."""
    by_handles = {f.handles: f.value for f in facts if f.name == grid}
    out: dict[tuple[int, ...], object] = {}
    for key, cell in compiled.grids[grid].cells.items():
        if isinstance(cell, bool):
            continue
        handles = tuple(cell.handles) if isinstance(cell, IntVarCell) else (cell.h,)  # type: ignore[attr-defined]
        if handles in by_handles:
            out[key] = by_handles[handles]
    return out
