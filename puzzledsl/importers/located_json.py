"""JSON parsed with the source position of every value, for located error messages."""

from __future__ import annotations

import json
import json.decoder
import json.scanner

from puzzledsl.errors import DataError, Span

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
    """
    decoder = json.JSONDecoder()

    def scan(s: str, idx: int) -> tuple[object, int]:
        value, end = inner(s, idx)
        return _located(value, idx), end

    decoder.parse_object = lambda s_end, strict, _scan, hook, pairs_hook, memo: json.decoder.JSONObject(
        s_end, strict, scan, hook, pairs_hook, memo
    )
    decoder.parse_array = lambda s_end, _scan: json.decoder.JSONArray(s_end, scan)
    inner = json.scanner.py_make_scanner(decoder)
    decoder.scan_once = scan
    try:
        return decoder.decode(text)
    except json.JSONDecodeError as err:
        raise _json_error(err, path) from None


def _json_span(text: str, path: str, node: object, fallback: object = None) -> Span:
    """The span of a located JSON value, or of its container when it carries no offset."""
    pos = getattr(node, "pos", getattr(fallback, "pos", 0))
    line = text.count("\n", 0, pos) + 1
    column = pos - (text.rfind("\n", 0, pos) + 1) + 1
    return Span(path, line, column, line, column + 1)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
