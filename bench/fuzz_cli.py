"""Fuzz the command line end to end: mutated rule files, mutated data files and misused flags,
run through `check`, `solve --time-limit` and `verify`; report every run that prints a
traceback or "internal error", exits 70 or with a code outside {0, 1, 2, 3}, overruns its
time limit, prints invalid `--json`, or reports an error without a place.

Each run is a fork of this process (puzzledsl already imported: ~20 ms instead of ~400 ms
of start-up) with its own process group, killed when it overruns. Findings are written to
OUT/found/NNN/ (the inputs and `cmd.txt`) and summarised by kind and first line.

    python3 bench/fuzz_cli.py --runs 2000 --seed 1 --out /tmp/fuzz

Needs ../shared/data for the janko and Arukone samples (skipped without it). `--skip N`
replays a seed from its N-th case on (a finding far into a run). An "unlocated" flag is a
hint to read, not always a bug: some input errors have no place (a flag that does not fit the
puzzle). Not part of the test suite: its runs take minutes (RELIABILITY.md §5 has its results).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import signal
import sys
import time
import traceback
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
DATA = ROOT.parent / "shared" / "data"
if not DATA.is_dir():
    DATA = Path("/work/shared/data")

import puzzledsl.cli as cli  # noqa: E402  (imported before forking: each run starts warm)
import puzzledsl.compile  # noqa: E402, F401
import puzzledsl.importers  # noqa: E402, F401

LOCATED = re.compile(r"^\s*\S.*:\d+:\d+: error: ", re.M)
JANKO_RULES = {"Akari": "akari", "Binairo": "binairo", "Galaxies": "galaxies", "Hashi": "hashi",
               "Hidoku": "hidoku", "Hitori": "hitori", "KenKen": "kenken", "KillerSudoku": "killer-sudoku",
               "Kuromasu": "kuromasu", "LITS": "lits", "Magnetic": "magnetic", "Masyu": "masyu",
               "Mosaic": "mosaic", "Nonogram": "nonogram", "Norinori": "norinori", "Nurikabe": "nurikabe",
               "Shakashaka": "shakashaka", "SimpleLoop": "simple-loop", "Skyscraper": "skyscraper",
               "Slitherlink": "slitherlink", "Starbattle": "star-battle", "Str8t": "str8t", "Sudoku": "sudoku",
               "Tatamibari": "tatamibari", "Tent": "tent", "Thermometer": "thermometer"}


# ------------------------------------------------------------------ running one command

def run(argv: list[str], cwd: Path, timeout: float) -> tuple[int, str, str, float, bool]:
    """rc, stdout, stderr, seconds, overran: `puzzledsl ARGV` in a forked child."""
    out_f, err_f = cwd / ".out", cwd / ".err"
    t = time.perf_counter()
    pid = os.fork()
    if pid == 0:  # the child: a fresh process group, stdout/stderr to files, argv as given
        try:
            os.setsid()
            os.chdir(cwd)
            fo, fe = os.open(out_f, os.O_WRONLY | os.O_CREAT | os.O_TRUNC), os.open(err_f, os.O_WRONLY |
                                                                                     os.O_CREAT | os.O_TRUNC)
            os.dup2(fo, 1)
            os.dup2(fe, 2)
            sys.stdin = open(os.devnull)  # noqa: SIM115
            os.environ["PUZZLEDSL_DEBUG"] = "1"  # a bug raises: its traceback names the place
            os.environ["NO_COLOR"] = "1"
            sys.argv = ["puzzledsl", *argv]
            cli.run()
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)
        except BaseException:  # noqa: BLE001
            traceback.print_exc()
            sys.stderr.flush()
            os._exit(70)
        os._exit(0)
    overran = False
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.perf_counter() - t > timeout:
            overran = True
            os.killpg(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            status = 0
            break
        time.sleep(0.01)
    rc = os.waitstatus_to_exitcode(status) if not overran else -9
    try:
        os.killpg(pid, signal.SIGKILL)  # workers a run left behind
    except ProcessLookupError:
        pass
    return (rc, out_f.read_text(errors="replace"), err_f.read_text(errors="replace"), time.perf_counter() - t,
            overran)


def problems(argv: list[str], rc: int, out: str, err: str, overran: bool, located: bool) -> list[str]:
    """What is wrong with a run. `located`: an input error here is in a file, so it has a place."""
    found = []
    text = out + err
    if overran:
        found.append("overran")
    if "Traceback" in text or "internal error" in text:
        found.append("traceback")
    if rc == 70:
        found.append("exit70")
    elif rc not in (0, 1, 2, 3) and not overran:
        found.append(f"exit{rc}")
    if "--json" in argv and rc in (0, 1, 2, 3) and argv[0] != "export":
        try:
            if "--json-stream" in argv:
                [json.loads(line) for line in out.splitlines()]
            else:
                json.loads(out)
        except ValueError:
            found.append("badjson")
    if located and rc == 2 and "error:" in err and not LOCATED.search(err) and "usage:" not in err:
        found.append("unlocated")
    return found


def signature(kinds: list[str], err: str) -> str:
    """One line per root cause: the innermost puzzledsl frame and the exception, or the error's
    first line with its numbers and names blurred."""
    if "traceback" in kinds:
        frames = re.findall(r'File "([^"]*puzzledsl[^"]*)", line (\d+), in (\w+)', err)
        last = err.strip().splitlines()[-1] if err.strip() else ""
        where = f"{Path(frames[-1][0]).name}:{frames[-1][2]}" if frames else "?"
        return f"{where}: {last.split(':')[0]}"
    first = next((ln for ln in err.splitlines() if "error" in ln), err.strip().splitlines()[0] if err.strip() else "")
    first = re.sub(r"^.*?error: ", "", first)
    return re.sub(r"`[^`]*`|\d+", "#", first)[:120]


# ------------------------------------------------------------------ mutations

TOKEN = re.compile(r"\w+|\"[^\"\n]*\"|[^\w\s]|\s+")


ODD = ["99999999999999999999", "-7", "0", "?", "-", '"""', '"', "é", "\u00a0", "\t", "\r\n", "[", "]", "{", "}",
       ",", ":", "..", "(", ")", "#", "\\", "null", "true", "1e9", "0x10", "١"]



def _edit(items: list[str], op: str, rng: random.Random) -> list[str]:
    """One edit of a list of tokens or lines: delete one (`del`), copy one elsewhere (`dup`), or
    swap two (anything else)."""
    i, j = rng.randrange(len(items)), rng.randrange(len(items))
    if op == "del":
        del items[i]
    elif op == "dup":
        items.insert(j, items[i])
    else:
        items[i], items[j] = items[j], items[i]
    return items

def mutate(text: str, rng: random.Random) -> str:
    """1-3 edits: delete, duplicate or swap tokens or lines; truncate."""
    for _ in range(rng.randint(1, 3)):
        kind = rng.choice(["tdel", "tdup", "tswap", "ldel", "ldup", "lswap", "trunc", "digit", "odd"])
        if kind == "odd":  # a token no input has: a big or negative number, a unicode letter, a quote
            i = rng.randrange(len(text) + 1)
            text = text[:i] + rng.choice(ODD) + text[i:]
            continue
        if kind.startswith("t") and kind != "trunc":
            toks = TOKEN.findall(text)
            if len(toks) < 2:
                continue
            text = "".join(_edit(toks, kind[1:], rng))
        elif kind.startswith("l"):
            text = "\n".join(_edit(text.split("\n"), kind[1:], rng))
        elif kind == "trunc":
            text = text[:rng.randrange(len(text) + 1)]
        else:
            nums = list(re.finditer(r"\d+", text))
            if nums:
                m = rng.choice(nums)
                text = text[:m.start()] + rng.choice(["0", "1", "99", "100000", "-1", "2147483648"]) + text[m.end():]
    return text


# ------------------------------------------------------------------ inputs

def genre_rules() -> list[Path]:
    return sorted(p for p in (ROOT / "puzzles").glob("*.puz"))


def instances() -> list[tuple[str, Path]]:
    """(genre, instance file) bundled with the project."""
    out = []
    for d in sorted((ROOT / "puzzles").iterdir()):
        if d.is_dir() and (ROOT / "puzzles" / f"{d.name}.puz").exists():
            out += [(d.name, p) for p in sorted(d.iterdir()) if p.suffix in (".puz", ".txt")]
    return out


def janko_samples(per_genre: int = 2) -> list[tuple[str, str, str]]:
    """(genre, file name, text): the smallest entries of each janko JSON, as a one-entry
    puzzlekit JSON file and as the bare problem text."""
    out: list[tuple[str, str, str]] = []
    if not (DATA / "genres").is_dir():
        return out
    for name, genre in JANKO_RULES.items():
        f = DATA / "genres" / f"{name}.json"
        if not f.exists():
            continue
        entries = json.loads(f.read_text())["data"]
        small = sorted(entries, key=lambda k: len(entries[k]["problem"]))[:per_genre]
        for k in small:
            out.append((genre, f"{genre}-{k}.json", json.dumps({"data": {k: entries[k]}})))
            out.append((genre, f"{genre}-{k}.txt", entries[k]["problem"] + "\n"))
    for sub, genre in (("kakurasu/Kakurasu_dataset.json", "kakurasu"), ("battleship/Battleship_dataset.json",
                                                                          "battleship")):
        f = DATA / sub
        if f.exists():
            entries = json.loads(f.read_text())["data"]
            for k in sorted(entries, key=lambda k: len(entries[k]["problem"]))[:per_genre]:
                out.append((genre, f"{genre}-{k}.json", json.dumps({"data": {k: entries[k]}})))
                out.append((genre, f"{genre}-{k}.txt", entries[k]["problem"] + "\n"))
    return out


def arukone_samples() -> list[tuple[str, str, str]]:
    out = []
    for f in sorted((DATA / "arukone" / "bwinf").glob("*.txt"))[:12] if (DATA / "arukone").is_dir() else []:
        if f.stat().st_size < 4000:
            out.append(("arukone", f.name, f.read_text()))
    for f in sorted((DATA / "arukone" / "flowfree").glob("*"))[:3] if (DATA / "arukone").is_dir() else []:
        out.append(("arukone", f.name, f.read_text()))
    return out


# ------------------------------------------------------------------ the campaign

class Campaign:
    def __init__(self, out: Path, limit: float):
        self.out = out
        self.work = out / "work"
        self.limit = limit
        self.runs = 0
        self.skip = 0
        self.kinds: Counter[str] = Counter()
        self.rcs: Counter[int] = Counter()
        self.messages: Counter[str] = Counter()  # input errors' first lines, blurred: to read through
        self.groups: dict[str, list[Path]] = defaultdict(list)
        shutil.rmtree(self.work, ignore_errors=True)
        self.work.mkdir(parents=True)
        for p in genre_rules():  # `use "battleship-base"` finds its neighbour
            shutil.copy(p, self.work / p.name)

    def fresh(self) -> None:
        for p in genre_rules():
            shutil.copy(p, self.work / p.name)

    def check(self, argv: list[str], files: dict[str, str], located: bool = True, timeout: float | None = None) -> None:
        if self.skip > 0:  # replaying a seed from a later run on: draw the case, do not run it
            self.skip -= 1
            return
        for name, text in files.items():
            (self.work / name).write_text(text, encoding="utf-8", errors="surrogateescape")
        to = timeout or (self.limit + 15 if "--time-limit" in argv else 60)
        rc, out, err, secs, overran = run(argv, self.work, to)
        if argv[0] == "verify" and not err.strip():
            err = out  # its errors are in its report
        self.runs += 1
        self.rcs[rc] += 1
        if rc == 2:
            self.messages[signature([], err)] += 1
        kinds = problems(argv, rc, out, err, overran, located)
        if not kinds:
            return
        sig = " ".join(kinds) + " | " + signature(kinds, err)
        self.kinds.update(kinds)
        d = self.out / "found" / f"{sum(len(v) for v in self.groups.values()):04d}"
        d.mkdir(parents=True)
        for name, text in files.items():
            (d / name).parent.mkdir(parents=True, exist_ok=True)
            (d / name).write_text(text, encoding="utf-8", errors="surrogateescape")
        (d / "cmd.txt").write_text(f"{' '.join(argv)}\nrc={rc} secs={secs:.1f} kinds={kinds}\n--- out\n{out[-3000:]}\n"
                                   f"--- err\n{err[-6000:]}\n")
        self.groups[sig].append(d)
        print(f"[{self.runs}] {sig}  ({d.name})", flush=True)

    def report(self) -> None:
        print(f"\n{self.runs} runs, exit codes {dict(sorted(self.rcs.items()))}")
        for msg, n in self.messages.most_common(60):
            print(f"{n:5d}  {msg}")
        print(f"{sum(len(v) for v in self.groups.values())} findings in {len(self.groups)} groups")
        for sig, ds in sorted(self.groups.items(), key=lambda kv: -len(kv[1])):
            print(f"{len(ds):5d}  {sig}  e.g. {ds[0]}")


def misuse(c: Campaign) -> None:
    """Fixed cases: wrong flags and flag values, missing, empty, binary and directory files."""
    rules = "kakurasu.puz"
    inst = str(ROOT / "puzzles" / "kakurasu" / "seed-5x5.puz")
    files = {"empty.puz": "", "empty.txt": "", "bin.puz": "\x00\x01\x02\xff\xfe", "bin.txt": "\x00\x9f\x80 1 2\n",
             "bom.puz": "\ufeff", "ws.puz": "\n\n   \n"}
    c.check(["--bogus"], {}, located=False)
    for cmd in ("solve", "check", "export", "explain", "verify"):
        for extra in (["--bogus"], ["--time-limit", "abc"], ["--time-limit", "-1"], ["--time-limit", "nan"],
                      ["--limit", "x"], ["--limit", "cells=abc"], ["--limit", "nosuch=3"], ["--jobs", "zero"],
                      ["--jobs", "0"], ["--jobs", "-2"], ["--count", "-1"], ["--count", "x"], ["--format", "nope"],
                      ["--instance", "999"], ["--instance", ""], ["--data"], ["--solver", "nope"], ["--backend", "x"],
                      ["--option", "x"], ["--option", "nosuch=1"], ["--option", "fill=maybe"], ["--seed", "x"],
                      ["--proof", "/nonexistent/dir/p.drat"], ["--proof", "."], ["--json"], ["--pb", "x"],
                      ["--card", "x"], ["--svg", "/nonexistent/x.svg"], ["--png", "."], ["--solution", "nosuch"],
                      ["--solution", "bin.txt"], ["--solution", "."], ["--progress", "nosuch"],
                      ["--progress", "bin.txt"], ["--dimacs", "/nonexistent/x"], ["--smt2", "."],
                      ["--scheduler", "bogus:1"], ["--url", "bogus"], ["--json-stream"], ["--all", "--count", "2"],
                      ["--count", "0"], ["--count", "99999999999999999999"], ["--determined", "--unique"],
                      ["--backend", "z3", "--solver", "minisat22"], ["--backend", "cpsat", "--unique"],
                      ["--show-steps"], ["--next"], ["--stats"], ["--limit", "cells=1"], ["--limit", "cells=-5"],
                      ["--time-limit", "1e-9"], ["--time-limit", "1e300"]):
            head = [cmd, rules, inst] if cmd == "verify" else [cmd, inst]
            c.check([*head, *extra], files, located=False, timeout=40)
            c.check([*head, *extra, "--json"], files, located=False, timeout=40)
        for target in ("nosuch.puz", ".", "/dev/null", "empty.puz", "bin.puz", "bom.puz", "ws.puz", "/etc",
                       "empty.txt"):
            c.check([cmd, target], files, located=False, timeout=40)
            c.check([cmd, target, "--json"], files, located=False, timeout=40)
            c.check([cmd, rules, "--data", target], files, located=False, timeout=40)
            c.check([cmd, rules, "--data", target, "--json"], files, located=False, timeout=40)
        c.check([cmd, rules, "--data", "bin.txt"], files, timeout=40)
        c.check([cmd, "arukone.puz", "--data", str(DATA / "arukone" / "ahle" / "janko"), "--instance", "100000"], {},
                located=False, timeout=40)
        c.check([cmd, "arukone.puz", "--data", str(DATA / "arukone" / "ahle" / "janko"), "--instance", "-1"], {},
                located=False, timeout=40)
    for cmd in (["generate", "kakurasu"], ["generate", "kakurasu", "--size", "x"], ["generate", "kakurasu", "--size",
                "0x0"], ["generate", "kakurasu", "--size", "3x3", "--count", "-1"], ["generate"], ["list", "--json"],
                ["formats", "--json"], ["solvers", "--json"], ["list", "x"], ["generate", "nosuch", "--size", "3x3"],
                ["generate", "rules", "empty.puz", "--size", "3x3"], ["generate", "arukone", "--size", "99999x3"],
                ["explain", inst, "--json"], ["export", inst, "--json"], ["export", inst, "--to", "smt2"]):
        c.check([*cmd, "--time-limit", "5"] if cmd[0] == "generate" else cmd, files, located=False, timeout=40)


def fuzz(c: Campaign, n: int, rng: random.Random) -> None:
    rules = genre_rules()
    insts = instances()
    datas = janko_samples() + arukone_samples() + [(g, p.name, p.read_text()) for g, p in insts]
    t = c.limit
    for i in range(n):
        c.fresh()
        what = rng.random()
        if what < 0.35:  # a mutated rule file, alone and with one of its instances
            r = rng.choice(rules)
            text = mutate(r.read_text(), rng)
            mine = [p for g, p in insts if g == r.stem]
            cmd = rng.choice(["check", "solve", "verify"] if mine else ["check", "solve"])
            if cmd == "check":
                c.check(["check", r.name], {r.name: text})
            elif cmd == "solve" and mine:
                c.check(["solve", r.name, "--data", str(rng.choice(mine)), "--time-limit", str(t)], {r.name: text})
            elif cmd == "solve":
                c.check(["solve", r.name, "--time-limit", str(t)], {r.name: text})
            else:
                c.check(["verify", r.name, *map(str, mine[:2]), "--time-limit", str(t), "--jobs", "1"],
                        {r.name: text})
        elif what < 0.5:  # a mutated instance file (`use "genre"` + data)
            g, p = rng.choice([x for x in insts if x[1].suffix == ".puz"])
            text = mutate(p.read_text(), rng)
            d = c.work / g
            d.mkdir(exist_ok=True)
            name = f"{g}/{p.name}"
            cmd = rng.choice([["check", name], ["solve", name, "--time-limit", str(t)],
                              ["solve", name, "--time-limit", str(t), "--unique", "--json"],
                              ["explain", name, "--time-limit", str(t)], ["export", name, "--dimacs", "out.cnf"],
                              ["verify", f"{g}.puz", name, "--time-limit", str(t), "--jobs", "1"]])
            c.check(cmd, {name: text})
        else:  # a mutated data file for its genre's rules
            g, name, text = rng.choice(datas)
            text = mutate(text, rng)
            name = "data-" + name.replace("/", "_")
            cmd = rng.choice([["check", f"{g}.puz", "--data", name],
                              ["solve", f"{g}.puz", "--data", name, "--time-limit", str(t)],
                              ["verify", f"{g}.puz", name, "--time-limit", str(t), "--jobs", "1"]])
            if rng.random() < 0.15:
                cmd.append("--json")
            c.check(cmd, {name: text})
        if i % 100 == 99:
            print(f"... {i + 1} mutated runs, {c.runs} in all", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=500, help="mutated runs")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, default=Path("/tmp/puzzledsl-fuzz"))
    ap.add_argument("--time-limit", type=float, default=5)
    ap.add_argument("--no-misuse", action="store_true")
    ap.add_argument("--skip", type=int, default=0, help="draw but do not run the first N mutated cases")
    a = ap.parse_args()
    shutil.rmtree(a.out / "found", ignore_errors=True)
    c = Campaign(a.out, a.time_limit)
    if not a.no_misuse:
        misuse(c)
        print(f"misuse: {c.runs} runs", flush=True)
    c.skip = a.skip
    fuzz(c, a.runs, random.Random(a.seed))
    c.report()


if __name__ == "__main__":
    main()
