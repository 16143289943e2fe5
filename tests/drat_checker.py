"""A DRAT proof checker written from the format's definition, sharing nothing with puzzledsl.

Forward checking: every lemma must be RUP (assuming its literals false, unit propagation over
the clauses so far finds a conflict) or, failing that, RAT on its first literal; deletions
drop a clause; the proof must derive the empty clause. Slow (occurrence lists, no watches),
meant for the small formulas of the tests; drat-trim does the same for big ones.
"""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path


def read_dimacs(path: Path) -> list[list[int]]:
    clauses, cur = [], []
    for line in path.read_text().splitlines():
        if not line.strip() or line[0] in "cp":
            continue
        for tok in line.split():
            x = int(tok)
            if x == 0:
                clauses.append(cur)
                cur = []
            else:
                cur.append(x)
    return clauses


class Checker:
    """The clauses so far, and the literals their units imply (kept, so that each lemma only
    propagates its own assumptions). As in drat-trim, deleting a clause that is a unit or the
    reason of an implied literal is ignored: keeping a clause never makes a wrong step pass."""

    def __init__(self, clauses: list[list[int]]):
        self.db: dict[int, tuple[int, ...]] = {}
        self.occ: dict[int, set[int]] = defaultdict(set)
        self.keys: dict[tuple[int, ...], list[int]] = defaultdict(list)
        self.base: set[int] = set()  # literals implied by the clauses so far
        self.inconsistent = False  # the clauses so far propagate to a conflict
        self.next_id = 0
        for cl in clauses:
            self.add(cl)

    def add(self, cl: list[int]) -> None:
        c = tuple(dict.fromkeys(cl))
        i = self.next_id = self.next_id + 1
        self.db[i] = c
        self.keys[tuple(sorted(c))].append(i)
        for x in c:
            self.occ[x].add(i)
        if self.inconsistent or any(x in self.base for x in c):
            return
        open_ = [x for x in c if -x not in self.base]
        if not open_ or len(open_) == 1 and self._propagate(self.base, [open_[0]]):
            self.inconsistent = True

    def delete(self, cl: list[int]) -> None:
        ids = self.keys.get(tuple(sorted(dict.fromkeys(cl))))
        if not ids:
            return
        c = self.db[ids[-1]]
        if sum(x in self.base for x in c) == 1 and all(x in self.base or -x in self.base for x in c):
            return  # a unit or a reason: kept
        i = ids.pop()
        for x in self.db.pop(i):
            self.occ[x].discard(i)

    def _propagate(self, true: set[int], start: list[int]) -> bool:
        """Make `start` true in `true` and propagate; True when a conflict is reached."""
        queue: list[int] = []
        for x in start:
            if -x in true:
                return True
            if x not in true:
                true.add(x)
                queue.append(x)
        while queue:
            t = queue.pop()
            for i in self.occ[-t]:
                c = self.db[i]
                unit = None
                for x in c:
                    if x in true:
                        break
                    if -x not in true:
                        if unit is not None:
                            break
                        unit = x
                else:
                    if unit is None:
                        return True
                    true.add(unit)
                    queue.append(unit)
        return False

    def conflict(self, assumed: list[int]) -> bool:
        return self.inconsistent or self._propagate(set(self.base), assumed)

    def implied(self, lemma: list[int]) -> bool:
        if self.conflict([-x for x in lemma]):
            return True  # RUP
        if not lemma:
            return False
        p = lemma[0]  # RAT on the first literal
        for i in list(self.occ[-p]):
            resolvent = list(dict.fromkeys(lemma + [x for x in self.db[i] if x != -p]))
            if any(-x in resolvent for x in resolvent):
                continue
            if not self.conflict([-x for x in resolvent]):
                return False
        return True


def check(formula: Path, proof: Path) -> tuple[bool, str]:
    """(True, "") when the proof refutes the formula; otherwise (False, the step that failed)."""
    chk = Checker(read_dimacs(formula))
    for n, line in enumerate(proof.read_text().splitlines(), 1):
        toks = line.split()
        if not toks:
            continue
        if toks[0] == "d":
            chk.delete([int(t) for t in toks[1:-1]])
            continue
        lemma = [int(t) for t in toks[:-1]]
        if not chk.implied(lemma):
            return False, f"line {n} ({line}) does not follow"
        if not lemma:
            return True, ""
        chk.add(lemma)
    return False, "the proof never derives the empty clause"


def main(argv: list[str]) -> int:
    """`python3 tests/drat_checker.py FORMULA.cnf PROOF`: exit 0 and `s VERIFIED` when the proof
    refutes the formula, else exit 1 and where it fails (as drat-trim reports)."""
    if len(argv) != 2:
        print("usage: python3 tests/drat_checker.py FORMULA.cnf PROOF", file=sys.stderr)
        return 2
    ok, why = check(Path(argv[0]), Path(argv[1]))
    print("s VERIFIED" if ok else f"s NOT VERIFIED: {why}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
