"""puzz.link (pzprjs) URLs: read a puzzle's givens from its URL, and write the URL of givens.

A URL such as `https://puzz.link/p?numlin/5/5/1j2h3m1h2j3` (or `http://pzv.jp/p.html?…`,
or the bare `numlin/5/5/1j2h3m1h2j3`) names its genre, so unlike the other importers this
one knows which bundled rule file it is for: `GENRES` maps each pzprjs genre name to the
rule file and to a decoder and an encoder of its givens. The givens are the same values the
janko readers give, so each rule file's legend reads them unchanged. The decoders stay close
to pzprjs's formats (see `puzzlink_codec.py`); whatever a URL can say that a bundled rule
file cannot (a `?` clue, an unnumbered island, a pzprjs variant flag) is a located error,
never a silently different puzzle.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from puzzledsl import limits
from puzzledsl.errors import DataError, PuzzleError, Span
from puzzledsl.words import count

from . import penpa
from . import puzzlink_codec as K
from .base import Importer, Instances
from .puzzlink_genres import ALIASES, GENRES, Url

_URL = re.compile(r"https?://[^?\s]*\?(?P<query>\S*)")
_PREFIX = re.compile(r"(?:\w+=\w+&)+")  # `type=editor&` before the genre name
SITE = "https://puzz.link/p?"


# ----------------------------------------------------------------- reading the URL


def _query(text: str, path: str) -> tuple[str, int]:
    """The part after `?` (or the whole bare form) and its 1-based column."""
    line = text.strip()
    lead = len(text) - len(text.lstrip())
    if "\n" in line:
        extra = line.index("\n")
        raise DataError("a puzz.link file holds one URL on one line", Span(path, 2, 1),
                        f"found more after {line[:extra]!r}")
    m = _URL.fullmatch(line)
    if m is None:
        if line.startswith(("http://", "https://")):
            raise DataError("a puzz.link URL has its puzzle after `?`",
                            Span(path, 1, lead + 1, 1, lead + len(line) + 1),
                            "e.g. https://puzz.link/p?numlin/5/5/1j2h3m1h2j3")
        return line, lead + 1
    query, col = m.group("query"), lead + m.start("query") + 1
    prefix = _PREFIX.match(query)
    if prefix:
        query, col = query[prefix.end():], col + prefix.end()
    return query, col


def parse_url(text: str, path: str) -> Url:
    query, col = _query(text, path)
    parts = query.split("/")
    pid_text = parts[0]
    pid_span = Span(path, 1, col, 1, col + max(len(pid_text), 1))
    if pid_text.startswith("v:") or re.fullmatch(r"pzprv[0-9.]*", pid_text):
        raise DataError("pzprjs file URLs (`pzprv3/…`) and variant URLs are not read", pid_span,
                        "give the puzzle's plain URL, `genre/COLS/ROWS/…` after the `?`")
    pid = ALIASES.get(re.sub(r"_(edit|play)$", "", pid_text), re.sub(r"_(edit|play)$", "", pid_text))
    if pid not in GENRES:
        known = ", ".join(sorted(GENRES))
        raise DataError(f"puzz.link genre `{pid_text}` has no bundled rule file", pid_span,
                        f"genres read from URLs: {known}")
    at = col + len(pid_text) + 1
    index = 1
    if len(parts) > 1 and parts[1].startswith("v:"):
        raise DataError("this URL marks its puzzle as a rule variant (`v:`), which the bundled rules do not follow",
                        Span(path, 1, at, 1, at + len(parts[1])))
    pflag = ""
    if len(parts) > index + 2 and not parts[index].isdigit() and parts[index + 1].isdigit() \
            and parts[index + 2].isdigit():  # a flag comes before the size, never instead of it
        pflag = parts[index]
        at += len(pflag) + 1
        index += 1
    size: list[int] = []
    for what in ("columns", "rows"):
        tok = parts[index] if index < len(parts) else ""
        if not (tok.isascii() and tok.isdigit() and int(tok) > 0):
            raise DataError(f"expected the number of {what} here, found {tok!r}",
                            Span(path, 1, at, 1, at + max(len(tok), 1)), f"a {pid} URL reads {parts[0]}/COLS/ROWS/…")
        size.append(int(tok))
        at += len(tok) + 1
        index += 1
    limits.check("import_cells", size[0] * size[1], "the grid has too many cells", pid_span)
    body = "/".join(parts[index:]).rstrip("/")
    return Url(pid, pflag, size[0], size[1], K.Body(body, path, at), pid_span)


def is_url(text: str) -> bool:
    """A puzz.link URL, or the bare `genre/cols/rows/…` form of a genre we read."""
    line = text.strip()
    if not line or "\n" in line or " " in line:
        return False
    if penpa.is_url(line):
        return False  # a Penpa+ URL (`…/penpa-edit/#m=solve&p=…`): penpa.py reads it
    m = _URL.fullmatch(line)
    if m is not None:
        return "/" in m.group("query")
    head = line.split("/", 1)[0]
    return ALIASES.get(head, head) in GENRES and bool(re.fullmatch(r"[^/]+(/[^/]+)?/[0-9]+/[0-9]+(/.*)?", line))


def genre_rules(text: str) -> str:
    """The bundled rule file a URL's genre is read with (a located error for one we do not read)."""
    return GENRES[parse_url(text, "<command line>").pid].rules


def load_url(text: str, path: str) -> Instances:
    url = parse_url(text, path)
    givens = GENRES[url.pid].decode(url)
    url.body.finish()
    if url.body.unread:  # read as pzprjs reads it, but a URL cut short when copied should not pass unseen
        unread = " and ".join(count(n, noun) for noun, n in url.body.unread.items())
        print(f"warning: the puzz.link URL ends early: the last {unread} of the {url.cols}x{url.rows} board "
              "are read as empty (as puzz.link does); check that the whole URL was copied", file=sys.stderr)
    return [(f"{url.pid}-{url.cols}x{url.rows}", {**givens, "__rules__": GENRES[url.pid].rules})]


PUZZLINK = Importer("puzzlink",
                    "a puzz.link / pzv.jp URL (or its bare `genre/cols/rows/…` form, or a file holding one)",
                    is_url, load_url)


# ----------------------------------------------------------------- writing the URL


def rules_with_url(files: list[str]) -> str | None:
    """The stem of the first rule file (of a program's files) that has a puzz.link genre."""
    stems = {g.rules for g in GENRES.values()}
    return next((Path(f).stem for f in files if Path(f).stem in stems), None)


def url_of(rules: str, givens: dict[str, object]) -> str:
    """The puzz.link URL of bound givens for the bundled rule file `rules`."""
    genre = next((g for g in GENRES.values() if g.rules == rules), None)
    if genre is None:
        raise PuzzleError(f"puzz.link has no genre for {rules}.puz")
    try:
        pid, pflag, cols, rows, body = genre.encode(givens)
    except (ValueError, IndexError, KeyError) as err:  # a value beyond what the URL's codes can write
        raise PuzzleError(f"this {rules} puzzle cannot be written as a puzz.link URL: {err}") from None
    return f"{SITE}{pid}/{pflag + '/' if pflag else ''}{cols}/{rows}/{body}"


