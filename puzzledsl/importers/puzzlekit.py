"""puzzlekit-dataset JSON: many janko texts in one file, keyed by instance id."""

from __future__ import annotations

import json
import json.decoder
import json.scanner
import re

from puzzledsl.errors import DataError, Span, offset_span

from .base import (
    Broken,
    Importer,
    Instances,
)
from .located_json import _json_error, _json_span, parse_json_located

# --------------------------------------------------------------------------- puzzlekit datasets


def _raw_offset(text: str, quote: int, index: int) -> int:
    """Offset in the file of character `index` of the JSON string literal opening at `quote`."""
    pos = quote + 1
    for _ in range(index):
        if text[pos] == "\\":
            if text[pos + 1] != "u":
                pos += 2
            elif 0xD800 <= int(text[pos + 2 : pos + 6], 16) < 0xDC00 and text[pos + 6 : pos + 8] == "\\u":
                pos += 12
            else:
                pos += 6
        elif text[pos] == '"':
            break
        else:
            pos += 1
    return pos


def _inner_index(inner: str, line: int, column: int) -> int:
    """Offset in a decoded multi-line string of a 1-based line and column."""
    lines = inner.split("\n")
    line = min(max(line, 1), len(lines))
    return min(sum(len(x) + 1 for x in lines[: line - 1]) + column - 1, len(inner))


def _relocate(err: DataError, text: str, path: str, literal: object, entry: str, inner: str) -> DataError:
    """Re-point an error found in an embedded problem text at the same spot inside the JSON file."""
    span = err.span or Span(path, 1, 1)
    start = _raw_offset(text, literal.pos, _inner_index(inner, span.line, span.column))
    width = max(span.end_column - span.column, 1) if span.end_line == span.line else 1
    where = f"line {span.line}, column {span.column} of its problem text"
    return DataError(
        f"entry {entry!r} ({where}): {err.message}", offset_span(text, path, start, start + width), err.help
    )


def _puzzlekit_problem(root: object) -> tuple[str, tuple[str, ...]] | None:
    """What is wrong with a decoded dataset's structure, and the keys leading to it, if anything."""
    data = root.get("data") if isinstance(root, dict) else None
    if not isinstance(data, dict):
        return 'a puzzlekit dataset needs a top-level "data" object', ()
    if not data:
        return "the dataset has no entries", ("data",)
    for key, entry in data.items():
        if not isinstance(entry, dict) or not isinstance(entry.get("problem"), str):
            return f'entry {key!r} needs a string "problem"', ("data", key)
    return None


def _puzzlekit_entries(text: str, path: str) -> dict[str, dict]:
    """The `data` mapping; the slower located parse runs only to place an error."""
    try:
        root = json.loads(text)
    except json.JSONDecodeError as err:
        raise _json_error(err, path) from None
    problem = _puzzlekit_problem(root)
    if problem is not None:
        node = parent = parse_json_located(text, path)
        for key in problem[1]:
            parent, node = node, node[key]
        raise DataError(problem[0], _json_span(text, path, node, parent))
    return root["data"]


def load_puzzlekit(text: str, path: str, inner: Importer) -> Instances:
    """Apply a janko text importer to every entry's `problem`; instance ids are the entry keys."""
    out: Instances = []
    entries = _puzzlekit_entries(text, path)
    for key, entry in entries.items():
        problem = entry["problem"]
        try:
            loaded = inner.load(problem, path)
        except DataError as err:
            literal = parse_json_located(text, path)["data"][key]["problem"]
            located = _relocate(err, text, path, literal, key, problem)
            out.append((key, Broken(located)))  # raised if this entry is chosen
            continue
        solution = entry.get("solution")
        if inner.solution is not None and isinstance(solution, str) and len(loaded) == 1:
            known = inner.solution(solution, loaded[0][1])  # a known solution speeds up uniqueness
            if known:
                loaded = [(loaded[0][0], {**loaded[0][1], **known})]
        out.extend((key if len(loaded) == 1 else f"{key}/{sub}", givens) for sub, givens in loaded)
    if out and all(isinstance(g, Broken) for _, g in out):
        raise out[0][1].error  # type: ignore[union-attr]
    return out


_FIRST_PROBLEM = re.compile(r'"problem"\s*:\s*("(?:[^"\\]|\\.)*")')


def detect_puzzlekit(text: str, inner: Importer) -> bool:
    """A JSON object with a `data` mapping whose first `problem` the inner importer recognises."""
    head = text[:65536]
    match = _FIRST_PROBLEM.search(head)
    if not head.lstrip().startswith("{") or '"data"' not in head or match is None:
        return False
    try:
        problem = json.loads(match.group(1))
    except json.JSONDecodeError:
        return False
    return inner.detect(problem)


def _puzzlekit(name: str, inner: Importer) -> Importer:
    return Importer(
        name=name,
        description=f'puzzlekit-dataset JSON ({{"data": {{id: {{"problem": ...}}}}}}) of {inner.name} texts',
        detect=lambda text: detect_puzzlekit(text, inner),
        load=lambda text, path: load_puzzlekit(text, path, inner),
    )
