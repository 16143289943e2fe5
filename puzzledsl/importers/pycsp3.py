"""PyCSP3 SolitaireBattleship JSON files."""

from __future__ import annotations

from puzzledsl.errors import DataError

from .base import (
    CSPLIB_TO_JANKO,
    Givens,
    Instances,
    _instance_id,
)
from .located_json import _is_int, _json_span, parse_json_located

# --------------------------------------------------------------------------- PyCSP3 JSON


_PYCSP3_KEYS = ("fleet", "hints", "rowSums", "colSums")


class _Json:
    """A located JSON document plus helpers that raise errors at a value's position."""

    def __init__(self, text: str, path: str) -> None:
        self.text, self.path = text, path
        self.root = parse_json_located(text, path)

    def fail(self, message: str, node: object, parent: object = None, help: str | None = None) -> DataError:
        return DataError(message, _json_span(self.text, self.path, node, parent), help)

    def obj(
        self, node: object, keys: tuple[str, ...], required: tuple[str, ...], what: str, parent: object = None
    ) -> dict:
        if not isinstance(node, dict):
            raise self.fail(f"{what} must be a JSON object", node, parent)
        for key in node:
            if key not in keys:
                raise self.fail(
                    f"unknown key {key!r} in {what}", node[key], node, f"expected {', '.join(keys)}"
                )
        for key in required:
            if key not in node:
                raise self.fail(f"{what} has no {key!r}", node, parent)
        return node

    def ints(self, node: object, what: str, limit: int | None, parent: object) -> list[int]:
        if not isinstance(node, list) or not node:
            raise self.fail(f"{what} must be a non-empty list of numbers", node, parent)
        for item in node:
            if not _is_int(item) or item < 0 or (limit is not None and item > limit):
                bound = f"from 0 to {limit}" if limit is not None else "of at least 0"
                raise self.fail(f"each of {what} must be a whole number {bound}", item, node)
        return [int(item) for item in node]

    def natural(self, node: dict, key: str, minimum: int, maximum: int) -> int:
        value = node.get(key)
        if not _is_int(value) or not minimum <= value <= maximum:
            raise self.fail(f"{key!r} must be a whole number from {minimum} to {maximum}", value, node)
        return int(value)


def _pycsp3_fleet(doc: _Json, node: object, parent: object, size: int) -> list[int]:
    if not isinstance(node, list):
        raise doc.fail('\'fleet\' must be a list of {"size", "cnt"} objects', node, parent)
    by_length: dict[int, int] = {}
    for item in node:
        doc.obj(item, ("size", "cnt"), ("size", "cnt"), "a fleet entry", node)
        length = doc.natural(item, "size", 1, size)
        if length in by_length:
            raise doc.fail(f"ship size {length} is listed twice", item.get("size"), item)
        by_length[length] = doc.natural(item, "cnt", 0, size * size)
    return [by_length.get(n, 0) for n in range(1, max(by_length, default=0) + 1)]


def _pycsp3_hints(doc: _Json, node: object, parent: object, rows: int, cols: int) -> list[list[str]]:
    grid = [["-"] * cols for _ in range(rows)]
    if node is None:
        return grid
    if not isinstance(node, list):
        raise doc.fail('\'hints\' must be null or a list of {"type", "row", "col"} objects', node, parent)
    for item in node:
        doc.obj(item, ("type", "row", "col"), ("type", "row", "col"), "a hint", node)
        kind = item["type"]
        if kind not in CSPLIB_TO_JANKO:
            raise doc.fail(
                f"unknown hint type {kind!r}", kind, item, f"expected one of {', '.join(CSPLIB_TO_JANKO)}"
            )
        row, col = doc.natural(item, "row", 1, rows), doc.natural(item, "col", 1, cols)
        if grid[row - 1][col - 1] not in ("-", CSPLIB_TO_JANKO[kind]):
            raise doc.fail(f"conflicting hints for row {row}, col {col}", item, node)
        grid[row - 1][col - 1] = CSPLIB_TO_JANKO[kind]
    return grid


def load_pycsp3_battleship(text: str, path: str) -> Instances:
    """PyCSP3 SolitaireBattleship data: `fleet` [{size,cnt}], `hints` (1-based) or null, sums."""
    doc = _Json(text, path)
    root = doc.obj(doc.root, _PYCSP3_KEYS, ("fleet", "rowSums", "colSums"), "the battleship data")
    rows = len(doc.ints(root["rowSums"], "'rowSums'", None, root))
    cols = len(doc.ints(root["colSums"], "'colSums'", None, root))
    rowsum = doc.ints(root["rowSums"], "'rowSums'", cols, root)
    colsum = doc.ints(root["colSums"], "'colSums'", rows, root)
    givens: Givens = {
        "R": rows,
        "C": cols,
        "rowsum": list(rowsum),
        "colsum": list(colsum),
        "hint": _pycsp3_hints(doc, root.get("hints"), root, rows, cols),
        "fleet": _pycsp3_fleet(doc, root["fleet"], root, max(rows, cols)),
    }
    return [(_instance_id(path), givens)]


def detect_pycsp3_battleship(text: str) -> bool:
    """A JSON object with PyCSP3's battleship keys and `{size, cnt}` fleet entries."""
    head = text[:16384]
    return head.lstrip().startswith("{") and all(
        f'"{k}"' in head for k in ("fleet", "rowSums", "colSums", "cnt")
    )
