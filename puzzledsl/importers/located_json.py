"""JSON parsed with the source position of every value, for located error messages.

Kept rather than a library after measuring (issue 11, BENCHMARKS.md "Hand-written parts
replaced"): lark over a JSON grammar and json-source-map are 5-13x slower on the data files.
"""

from __future__ import annotations

import json
import json.decoder
import json.scanner

from puzzledsl.errors import DataError, Span, offset_span

from .base import (
    _at,
)

# --------------------------------------------------------------------------- JSON with positions


class _LStr(str):
    pos: int


class _LInt(int):
    pos: int


class _LFloat(float):
    pos: int


class _LList(list):
    pos: int


class _LDict(dict):
    pos: int


_LOCATED: dict[type, type] = {str: _LStr, int: _LInt, float: _LFloat, list: _LList, dict: _LDict}


def _located(value: object, pos: int) -> object:
    """Tag a decoded value with its offset (true/false/null stay untagged)."""
    if type(value) in (_LList, _LDict):  # made by the array/object hooks, with their items' spans
        value.pos = pos  # type: ignore[attr-defined]
        return value
    kind = _LOCATED.get(type(value))
    if kind is None:
        return value
    out = kind(value)
    out.pos = pos
    return out


def _json_error(err: json.JSONDecodeError, path: str) -> DataError:
    return DataError(f"invalid JSON: {err.msg}", _at(path, err.lineno, err.colno))


def parse_json_located(text: str, path: str) -> object:
    """Decode JSON so that every string, number, list and object knows its offset (`.pos`).

    Uses the pure-Python scanner, so it is slower than `json.loads`: use it on small files,
    or only after a fast parse found something to report.
    Lists and objects also carry `.spans`, the (start, end) offsets of their items (of the
    values, for an object, by key), so `true`, `false` and `null` can be located too.
    """
    decoder = json.JSONDecoder()
    frames: list[list[tuple[int, int]]] = []  # the item offsets of the arrays/objects being read

    def scan(s: str, idx: int) -> tuple[object, int]:
        value, end = inner(s, idx)
        if frames:
            frames[-1].append((idx, end))
        return _located(value, idx), end

    def parse_object(s_end, strict, _scan, hook, pairs_hook, memo):
        frames.append([])
        try:
            obj, end = json.decoder.JSONObject(s_end, strict, scan, hook, pairs_hook, memo)
        finally:
            spans = frames.pop()
        out = _LDict(obj)
        out.spans = dict(zip(obj, spans)) if len(obj) == len(spans) else {}
        return out, end

    def parse_array(s_end, _scan):
        frames.append([])
        try:
            arr, end = json.decoder.JSONArray(s_end, scan)
        finally:
            spans = frames.pop()
        out = _LList(arr)
        out.spans = spans
        return out, end

    decoder.parse_object = parse_object
    decoder.parse_array = parse_array
    inner = json.scanner.py_make_scanner(decoder)
    decoder.scan_once = scan
    try:
        return decoder.decode(text)
    except json.JSONDecodeError as err:
        raise _json_error(err, path) from None


def _json_span(text: str, path: str, node: object, fallback: object = None) -> Span:
    """The span of a located JSON value, or of its container when it carries no offset."""
    pos = getattr(node, "pos", getattr(fallback, "pos", 0))
    return offset_span(text, path, pos, pos + 1)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
