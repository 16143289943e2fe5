"""Small foreign formats read with a lark grammar (`puzzledsl/importers/grammars/NAME.lark`), their
syntax errors said as located `DataError`s: "expected ']' or ',', found '2'" at the token."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from lark import Lark, Token, Transformer, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from puzzledsl.errors import DataError, Span, offset_span

GRAMMARS = Path(__file__).resolve().parent / "grammars"  # the importers' own, beside them


@cache
def grammar(name: str, transformer: Transformer | None = None) -> Lark:
    """The LALR parser of `grammars/NAME.lark` (built once a process, ~10 ms for these); with a
    transformer, its callbacks build the result during the parse (no recursion on deep input)."""
    text = (GRAMMARS / f"{name}.lark").read_text(encoding="utf-8")
    return Lark(text, parser="lalr", lexer="contextual", maybe_placeholders=False, transformer=transformer)


def token_span(path: str, tok: Token) -> Span:
    """The span of a token (on its first line)."""
    width = max(len(str(tok).split("\n", 1)[0]), 1)
    return Span(path, tok.line or 1, tok.column or 1, tok.line or 1, (tok.column or 1) + width)


def parse(name: str, text: str, path: str, words: dict[str, str]) -> Tree:
    """Parse `text` with the grammar `name`; `words` names the regex terminals in messages
    (`{"INT": "a number"}`); string terminals are shown quoted."""
    parser = grammar(name)
    try:
        return parser.parse(text)
    except UnexpectedInput as err:
        raise _syntax_error(parser, err, text, path, words) from None


def _expected(parser: Lark, names: set[str], words: dict[str, str]) -> str:
    shown = set()
    for name in names:
        if name in words:
            shown.add(words[name])
        elif name != "$END":
            pattern = parser.get_terminal(name).pattern
            shown.add(repr(pattern.value) if pattern.type == "str" else name.lower())
    items = sorted(shown, key=lambda s: (not s.startswith("'"), s))  # punctuation first, then words
    return " or ".join(items) if len(items) < 3 else ", ".join(items[:-1]) + " or " + items[-1]


def _syntax_error(parser: Lark, err: UnexpectedInput, text: str, path: str, words: dict[str, str]) -> DataError:
    if isinstance(err, UnexpectedCharacters):
        return DataError(f"unexpected character {text[err.pos_in_stream]!r}", Span(path, err.line, err.column))
    if isinstance(err, UnexpectedToken) and err.token.type != "$END":
        tok = err.token
        return DataError(f"expected {_expected(parser, err.expected, words)}, found {str(tok)!r}",
                         token_span(path, tok))
    expected = err.expected if isinstance(err, (UnexpectedToken, UnexpectedEOF)) else set()
    return DataError(f"expected {_expected(parser, set(expected), words)} before the end of the file",
                     _end_span(err, text, path))


def _end_span(err: UnexpectedInput, text: str, path: str) -> Span:
    """Just after the last token (lark's end token borrows its position), else after the text."""
    tok = getattr(err, "token", None)
    if isinstance(tok, Token) and tok.end_line is not None and tok.end_column is not None:
        return Span(path, tok.end_line, tok.end_column, tok.end_line, tok.end_column + 1)
    end = len(text.rstrip())
    return offset_span(text, path, end, end + 1)
