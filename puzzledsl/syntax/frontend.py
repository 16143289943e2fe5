"""The lark side of parsing: the grammar, the tree-to-AST transformer, syntax errors in
the user's words. Imported only when a text is not in the parse cache (lark costs ~30 ms
to import)."""

from __future__ import annotations

import io
import re
from functools import lru_cache

import lark
from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError

from .. import limits
from ..errors import PuzzleError, Span, did_you_mean, offset_span
from ..limits import deep_recursion
from . import ast as A
from .cache import GRAMMAR, Store

# What a terminal is called in messages, in the user's words.
_TOKEN_WORDS = {
    "NAME": "a name", "INT": "a number", "SIGNED_INT": "a number", "STRING": "a quoted string",
    "TEXT_BLOCK": 'a """text block"""', "COLON": "`:`", "COMMA": "`,`", "LPAR": "`(`", "RPAR": "`)`",
    "LSQB": "`[`", "RSQB": "`]`", "LBRACE": "`{`", "RBRACE": "`}`", "EQUAL": "`=`", "CMP": "a comparison",
    "QUANT": "`forall`/`exists`", "AGG": "an aggregate like `sum(`", "$END": "the end of the file",
    "CARD": "`exactly`/`atmost`/`atleast`", "MINUS": "`-`", "NOT": "`not`", "IF": "`if`", "DOTDOT": "`..`",
    "BASE_TYPE": "a type (`bool`, `int`, `sym`)", "ADD_OP": "`+`/`-`", "MUL_OP": "`*`/`/`/`%`",
    "TRUE": "`true`", "FALSE": "`false`", "QMARK": "`?`", "WHERE": "`where`", "WHILE": "`while`", "THEN": "`then`",
    "ELSE": "`else`", "OPTIONAL": "`?`", "CYCLIC": "`cyclic`", "REACHABLE": "`reachable`",
}


# Characters that other languages use, and what this one writes instead.
_CHAR_HINTS = {
    "'": "strings use double quotes; comments start with `#`",
    "/": "strings use double quotes; comments start with `#`",
    "&": "write `and` (`a and b`)",
    "|": "write `or` (`a or b`)",
    "!": "write `not` for negation, `!=` for “different”",
}


@lru_cache(maxsize=1)
def _lark() -> Lark:
    """The parser, from the verified cache when it is there (building it costs ~200 ms, loading
    ~25 ms). Lark's own `cache=` is not used: it unpickles its file before checking anything."""
    text = GRAMMAR.read_text(encoding="utf-8")
    store = Store.open()
    entry = store.path("grammar", lark.__version__, text) if store is not None else None
    data = store.read(entry) if entry is not None else None
    if data is not None:
        try:
            return Lark.load(io.BytesIO(data))
        except Exception:  # a verified entry that does not load (cannot happen short of a bug): rebuild
            pass
    parser = Lark(text, parser="lalr", lexer="contextual", propagate_positions=True, maybe_placeholders=True)
    if entry is not None:
        buf = io.BytesIO()
        parser.save(buf)
        store.write(entry, buf.getvalue())
    return parser


def _span(path: str, meta_or_tok: object) -> Span:
    m = meta_or_tok
    if isinstance(m, Token):
        return Span(path, m.line or 1, m.column or 1, m.end_line or m.line or 1, m.end_column or m.column or 1)
    line = getattr(m, "line", 1)
    col = getattr(m, "column", 1)
    return Span(path, line, col, getattr(m, "end_line", line), getattr(m, "end_column", col))


_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}


def _unquote(s: str) -> str:
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), m.group(0)), s[1:-1])


class _ToAst(Transformer):
    """Turns lark's tree into AST nodes, keeping spans."""

    def __init__(self, path: str):
        super().__init__()
        self.path = path

    def sp(self, meta: object) -> Span:
        return _span(self.path, meta)

    # -- statements
    @v_args(meta=True)
    def start(self, meta, items):
        return [i for i in items if i is not None]

    @v_args(meta=True)
    def use_stmt(self, meta, c):
        return A.Use(self.sp(meta), _unquote(c[0]))

    @v_args(meta=True)
    def title_stmt(self, meta, c):
        return A.Title(self.sp(meta), _unquote(c[0]))

    @v_args(meta=True)
    def format_stmt(self, meta, c):
        return A.Format(self.sp(meta), tuple((str(t), self.sp(t)) for t in c))

    @v_args(meta=True)
    def given_stmt(self, meta, c):
        name, dims, typ, values, legend, boundary, default = c
        if default is not None:
            default = _as_value(default) or default  # a value as data has it, else an expression
        return A.Given(self.sp(meta), str(name), tuple(dims or ()), typ, legend, boundary, default, values=values)

    def clue_values(self, c):
        return (c[0], c[1])

    @v_args(meta=True)
    def option_stmt(self, meta, c):
        name, typ, default = c
        return A.Given(self.sp(meta), str(name), (), typ, None, None, default, option=True)

    @v_args(meta=True)
    def var_stmt(self, meta, c):
        name, dims, typ, encoding, boundary = c
        return A.Var(self.sp(meta), str(name), tuple(dims or ()), typ, boundary,
                     encoding=str(encoding.children[0]) if encoding is not None else None)

    @v_args(meta=True)
    def define_stmt(self, meta, c):
        name, params, body = c
        return A.Define(self.sp(meta), str(name), params, body)

    def params(self, c):
        return tuple(str(t) for t in c if t is not None)

    @v_args(meta=True)
    def rule_stmt(self, meta, c):
        implied, label, body = c
        return A.Rule(self.sp(meta), _unquote(label) if label is not None else None, body, implied is not None)

    @v_args(meta=True)
    def show_stmt(self, meta, c):
        name, over, glyphs, *opts = c
        opts = [o for o in opts if o is not None]
        clues = tuple(o[1:] for o in opts if o[0] == "clue")
        marked = tuple(o[1:] for o in opts if o[0] == "marked")
        lines = next((o[1:] for o in opts if o[0] == "lines"), None)
        between = tuple(o[1:] for o in opts if o[0] == "between")
        regions = [o[1:] for o in opts if o[0] == "regions"]
        if len(regions) > 1:
            raise PuzzleError("a `show` draws the walls of one region grid", regions[1][1],
                              "keep one `regions G`; walls of a second grid need a `show` of their own")
        return A.Show(self.sp(meta), str(name), tuple(glyphs or ()), clues, marked,
                      str(over) if over is not None else None, lines, between, regions[0] if regions else None)

    def glyphs(self, c):
        return [g for g in c if g is not None]

    def glyph(self, c):
        value, text, style = c
        return A.Glyph(value, _unquote(text), _unquote(style) if style is not None else None)

    @v_args(meta=True)
    def clue_opt(self, meta, c):
        return ("clue", str(c[0]), str(c[1]), self.sp(meta))

    @v_args(meta=True)
    def marked_opt(self, meta, c):
        return ("marked", str(c[0]), self.sp(meta))

    @v_args(meta=True)
    def lines_opt(self, meta, c):
        return ("lines", str(c[0]), self.sp(meta))

    @v_args(meta=True)
    def between_opt(self, meta, c):
        return ("between", str(c[0]), tuple(c[1] or ()), self.sp(meta))

    @v_args(meta=True)
    def regions_opt(self, meta, c):
        return ("regions", str(c[0]), self.sp(meta))

    @v_args(meta=True)
    def wlog_stmt(self, meta, c):
        *names, unless, keep, neutral = c
        return A.Wlog(self.sp(meta), tuple((str(t), self.sp(t)) for t in names), unless,
                      (str(keep), self.sp(keep)), neutral)

    @v_args(meta=True)
    def prefer_stmt(self, meta, c):
        *names, unless = c
        return A.Prefer(self.sp(meta), tuple((str(t), self.sp(t)) for t in names), unless)

    @v_args(meta=True)
    def symbol_stmt(self, meta, c):
        return A.SymbolDecl(self.sp(meta), tuple((str(t), self.sp(t)) for t in c))

    @v_args(meta=True)
    def answer_stmt(self, meta, c):
        return A.Answer(self.sp(meta), tuple((str(t), self.sp(t)) for t in c))

    @v_args(meta=True)
    def state_stmt(self, meta, c):
        name, dims, typ, boundary = c
        return A.Var(self.sp(meta), str(name), tuple(dims or ()), typ, boundary, state=True)

    @v_args(meta=True)
    def action_stmt(self, meta, c):
        name, bindings, where, cost, text, pre, effects = c
        bindings, last = _split_where(bindings or [])  # `action s:` (or `s()`): one move, no parameters
        if last is not None:
            where = last if where is None else A.Logic(last.span, "and", (last, where))
        return A.Action(self.sp(meta), str(name), tuple(bindings), where,
                        _unquote(text) if text is not None else None, pre, tuple(effects), cost,
                        self.sp(text) if text is not None else None)

    def effects(self, c):
        out = []
        for x in c:
            out.extend(x if isinstance(x, list) else [x])
        return out

    @v_args(meta=True)
    def assign_effect(self, meta, c):
        (name, name_span, indices), value = c
        return A.AssignEffect(self.sp(meta), name, name_span, indices, value)

    @v_args(meta=True)
    def forall_effect(self, meta, c):
        bindings, body = c
        bindings, where = _split_where(bindings)
        return A.ForallEffect(self.sp(meta), tuple(bindings), where, tuple(body if isinstance(body, list) else [body]))

    def target(self, c):
        return (str(c[0]), self.sp(c[0]), tuple(x for x in c[1:] if x is not None))

    @v_args(meta=True)
    def init_stmt(self, meta, c):
        return A.Init(self.sp(meta), c[0])

    @v_args(meta=True)
    def goal_stmt(self, meta, c):
        return A.Goal(self.sp(meta), c[0])

    @v_args(meta=True)
    def horizon_bound(self, meta, c):
        kind, measure, at_most = c
        return A.Horizon(self.sp(meta), kind is not None, None, at_most, measure is not None)

    @v_args(meta=True)
    def horizon_exact(self, meta, c):
        return A.Horizon(self.sp(meta), False, c[0], None, False)

    @v_args(meta=True)
    def assign_stmt(self, meta, c):
        return A.Assign(self.sp(meta), str(c[0]), c[1])

    def dims(self, c):
        return list(c)

    def dim(self, c):
        return c[0]

    @v_args(meta=True)
    def named_type(self, meta, c):
        return A.TypeRef(str(c[0]), c[1] is not None, self.sp(meta))

    @v_args(meta=True)
    def range_type(self, meta, c):
        return A.TypeRef("range", False, self.sp(meta), c[0], c[1])

    @v_args(meta=True)
    def list_type(self, meta, c):
        """`[int?]?`: cells that hold lists of `int?` values, or `?`."""
        item = A.TypeRef(str(c[0]), c[1] is not None, self.sp(c[0]))
        return A.TypeRef("list", c[2] is not None, self.sp(meta), item=item)

    def legend(self, c):
        return tuple(e for e in c if e is not None)

    def legend_entry(self, c):
        return (_unquote(c[0]), c[1])

    @v_args(meta=True)
    def outside(self, meta, c):
        return A.Boundary("outside", self.sp(meta), c[0])

    @v_args(meta=True)
    def wrap(self, meta, c):
        return A.Boundary("wrap", self.sp(meta))

    # -- values
    @v_args(meta=True)
    def signed_int(self, meta, c):
        return A.IntValue(self.sp(meta), int(c[0]))

    @v_args(meta=True)
    def unknown_value(self, meta, c):
        return A.UnknownValue(self.sp(meta))

    @v_args(meta=True)
    def true_value(self, meta, c):
        return A.BoolValue(self.sp(meta), True)

    @v_args(meta=True)
    def false_value(self, meta, c):
        return A.BoolValue(self.sp(meta), False)

    @v_args(meta=True)
    def sym_value(self, meta, c):
        return A.SymValue(self.sp(meta), str(c[0]))

    @v_args(meta=True)
    def string_value(self, meta, c):
        return A.StringValue(self.sp(meta), _unquote(c[0]))

    @v_args(meta=True)
    def list_value(self, meta, c):
        return A.ListValue(self.sp(meta), tuple(v for v in c if v is not None))

    @v_args(meta=True)
    def block_value(self, meta, c):
        tok = c[0]
        text = str(tok)[3:-3]
        return A.BlockValue(self.sp(meta), text, tok.line)

    # -- expressions
    @v_args(meta=True)
    def quantifier(self, meta, c):
        kind, bindings, body = c
        bindings, where = _split_where(bindings)
        return A.Aggregate(self.sp(meta), "all" if kind == "forall" else "any", tuple(bindings), where, body)

    @v_args(meta=True)
    def ite(self, meta, c):
        return A.Ite(self.sp(meta), *c)

    @v_args(meta=True)
    def iff(self, meta, c):
        return A.Logic(self.sp(meta), "iff", (c[0], c[2]))

    @v_args(meta=True)
    def implies(self, meta, c):
        return A.Logic(self.sp(meta), "implies", (c[0], c[2]))

    def _flat(self, meta, op, c):
        items: list[A.Expr] = []
        for x in c:
            if isinstance(x, A.Logic) and x.op == op:
                items.extend(x.items)
            else:
                items.append(x)
        return A.Logic(self.sp(meta), op, tuple(items))

    @v_args(meta=True)
    def or_(self, meta, c):
        return self._flat(meta, "or", c)

    @v_args(meta=True)
    def and_(self, meta, c):
        return self._flat(meta, "and", c)

    @v_args(meta=True)
    def not_(self, meta, c):
        return A.Not(self.sp(meta), c[0])

    @v_args(meta=True)
    def compare(self, meta, c):
        return A.Compare(self.sp(meta), str(c[1]), c[0], c[2])

    @v_args(meta=True)
    def range(self, meta, c):
        return A.Range(self.sp(meta), c[0], c[1])

    @v_args(meta=True)
    def binary(self, meta, c):
        return A.Binary(self.sp(meta), str(c[1]), c[0], c[2])

    @v_args(meta=True)
    def neg(self, meta, c):
        return A.Neg(self.sp(meta), c[0])

    @v_args(meta=True)
    def index(self, meta, c):
        return A.Index(self.sp(meta), c[0], tuple(c[1:]))

    @v_args(meta=True)
    def call(self, meta, c):
        args = tuple(a for a in c[1:] if a is not None)
        return A.Call(self.sp(meta), str(c[0]), self.sp(c[0]), args)

    @v_args(meta=True)
    def aggregate(self, meta, c):
        kind, bindings, body = c
        bindings, where = _split_where(bindings)
        kind = {"forall": "all", "exists": "any"}.get(str(kind), str(kind))
        return A.Aggregate(self.sp(meta), kind, tuple(bindings), where, body)

    @v_args(meta=True)
    def cyclic_aggregate(self, meta, c):
        """`cyclic runs(B: E)`: the lookahead of `cyclic` lets only `runs` follow it."""
        e = self.aggregate(meta, c[1:])
        e.cyclic = True
        return e

    @v_args(meta=True)
    def agg_values(self, meta, c):
        """`max(a, b)`, `alldiff(x, y, z)`: the aggregate over the listed values."""
        kind, *items = c
        span = self.sp(meta)
        values = A.ListLit(span, tuple(items))
        return A.Aggregate(span, str(kind), (A.Binding(("$v",), False, values, span),), None, A.Name(span, "$v"))

    @v_args(meta=True)
    def graph_call(self, meta, c):
        """`connected(link)`, `acyclic(link)`: a graph constraint over an edge grid."""
        return A.Call(self.sp(meta), str(c[0]), self.sp(c[0]), (c[1],))

    @v_args(meta=True)
    def cardinality(self, meta, c):
        kind, bound, bindings, body = c
        bindings, where = _split_where(bindings)
        return A.Aggregate(self.sp(meta), str(kind), tuple(bindings), where, body, bound)

    @v_args(meta=True)
    def reachable(self, meta, c):
        """`reachable(STARTS, p in S where F)`: the bound holds the starts, the body names the item."""
        _, starts, bindings = c
        if len(bindings) != 1:
            raise PuzzleError("`reachable` ranges over one binding: `reachable(starts, p in S where F)`",
                              bindings[1].span)
        b = bindings[0]
        body = (A.TupleLit(b.span, tuple(A.Name(b.span, n) for n in b.names)) if b.is_tuple
                else A.Name(b.span, b.names[0]))
        bindings, where = _split_where(bindings)
        return A.Aggregate(self.sp(meta), "reachable", tuple(bindings), where, body, starts)

    @v_args(meta=True)
    def int_lit(self, meta, c):
        return A.IntLit(self.sp(meta), int(c[0]))

    @v_args(meta=True)
    def true_lit(self, meta, c):
        return A.BoolLit(self.sp(meta), True)

    @v_args(meta=True)
    def false_lit(self, meta, c):
        return A.BoolLit(self.sp(meta), False)

    @v_args(meta=True)
    def name(self, meta, c):
        return A.Name(self.sp(meta), str(c[0]))

    @v_args(meta=True)
    def tuple_lit(self, meta, c):
        return A.TupleLit(self.sp(meta), tuple(x for x in c if x is not None))

    @v_args(meta=True)
    def list_lit(self, meta, c):
        return A.ListLit(self.sp(meta), tuple(x for x in c if x is not None))

    @v_args(meta=True)
    def set_lit(self, meta, c):
        return A.SetLit(self.sp(meta), tuple(x for x in c if x is not None))

    def bindings(self, c):
        return list(c)

    @v_args(meta=True)
    def binding(self, meta, c):
        names, is_tuple = c[0]
        return A.Binding(names, is_tuple, c[1], self.sp(meta), c[3], c[2])

    def name_pattern(self, c):
        return ((str(c[0]),), False)

    def tuple_pattern(self, c):
        return (tuple(str(t) for t in c), True)


def _as_value(e: object) -> A.Value | None:
    """A default written as a plain value (`3`, `-1`, `true`, `water`, `[1, ?]`, a string or
    text block) as the data value it is; None for anything computed (`N`, `R * C`)."""
    if isinstance(e, A.Value):
        return e
    if isinstance(e, A.IntLit):
        return A.IntValue(e.span, e.value)
    if isinstance(e, A.Neg) and isinstance(e.operand, A.IntLit):
        return A.IntValue(e.span, -e.operand.value)
    if isinstance(e, A.BoolLit):
        return A.BoolValue(e.span, e.value)
    if isinstance(e, A.Name):
        return A.SymValue(e.span, e.id)  # a given's name is read as an expression when binding
    if isinstance(e, A.ListLit):
        items = [_as_value(x) for x in e.items]
        return A.ListValue(e.span, tuple(items)) if all(x is not None for x in items) else None
    return None


def _split_where(bindings: list[A.Binding]) -> tuple[list[A.Binding], A.Expr | None]:
    """The last binding's `where` is the filter of the whole (`forall i in S where c: …`);
    earlier ones stay on their bindings (`forall i in S where c, j in T: …`)."""
    last = bindings[-1] if bindings else None
    if last is None or last.where is None:
        return bindings, None
    return bindings[:-1] + [A.Binding(last.names, last.is_tuple, last.source, last.span, None, last.while_)], last.where


def _expected_words(expected: set[str]) -> str:
    words = sorted({_TOKEN_WORDS.get(e) or _literal(e) or (f"`{e.lower()}`" if e.isalpha() else e) for e in expected})
    if len(words) > 6:
        words = words[:6] + ["…"]
    return ", ".join(words)


def _literal(name: str) -> str | None:
    """A punctuation token the grammar writes inline (lark names it `__ANON_0`…), as written."""
    if not name.startswith("__ANON"):
        return None
    pattern = next((t.pattern for t in _lark().terminals if t.name == name), None)
    return f"`{pattern.value}`" if pattern is not None and pattern.type == "str" else None


_OPERATORS = ("==", "!=", "<=", ">=", "<", ">", "+", "-", "*", "/", "%")  # longest first


def _syntax_error(err: UnexpectedInput, path: str, text: str) -> PuzzleError:
    line, col = getattr(err, "line", 1) or 1, getattr(err, "column", 1) or 1
    if isinstance(err, UnexpectedCharacters):
        ch = text[err.pos_in_stream] if err.pos_in_stream < len(text) else "?"
        if ch == '"':  # a string token that does not match is one that is never closed
            at = err.pos_in_stream
            start = next((at - k for k in (0, 2) if at >= k and text.startswith('"""', at - k)), None)
            if start is not None:  # lark reads an unclosed `"""` as `""` and a stray `"`
                col -= at - start
                return PuzzleError("this text block is never closed", Span(path, line, col, line, col + 3),
                                   'end it with `"""` after its last row')
            return PuzzleError("this string is not closed on its line", Span(path, line, col, line, col + 1),
                               'end it with `"` on the same line; a value of several lines is a text block '
                               '(`"""` … `"""`)')
        msg = f"unexpected character `{ch}`"
        help_ = _CHAR_HINTS.get(ch)
        return PuzzleError(msg, Span(path, line, col, line, col + 1), help_)
    if isinstance(err, UnexpectedEOF) or err.token.type == "$END":
        typo = _type_typo(text.rstrip(), text, path)
        if typo is not None:
            return typo
    if isinstance(err, UnexpectedEOF):
        lines = text.splitlines() or [""]
        return PuzzleError("unexpected end of file: a statement is not finished",
                           Span(path, len(lines), max(len(lines[-1]), 1)),
                           f"expected {_expected_words(set(err.expected))}")
    assert isinstance(err, UnexpectedToken)
    tok = err.token
    if tok.type == "$END":
        lines = text.splitlines() or [""]
        return PuzzleError("unexpected end of file: a statement is not finished",
                           Span(path, len(lines), max(len(lines[-1]), 1)),
                           f"expected {_expected_words(set(err.expected))}")
    shown = str(tok).split("\n")[0]
    span = Span(path, tok.line or line, tok.column or col, tok.line or line, (tok.column or col) + max(len(shown), 1))
    expected = set(err.expected)
    before = text[:tok.start_pos].rstrip() if tok.start_pos is not None else ""
    typo = _type_typo(before, text, path)
    if typo is not None:
        return typo
    # `a == not b`: `not` binds less tightly than a comparison or arithmetic
    if shown == "not" and before.endswith(_OPERATORS) and not before.endswith("->"):
        op = next(o for o in _OPERATORS if before.endswith(o))
        return PuzzleError(f"`not` cannot follow `{op}` without parentheses", span,
                           f"`not` applies to a whole comparison: write `a {op} (not b)`")
    if shown == "if" and _statement_word(before) == "action":  # `…, (if C then x := v)`: an effect that is an `if`
        return PuzzleError("an effect cannot be an `if`", span,
                           "an action has one condition, before all its effects: `action a: if PRE then x := v, "
                           "…`; for effects that differ by case, write one action per case, each with its own "
                           "`if` (a Boolean cell may also take `x := (if C then V else x)`)")
    if re.search(r"(?:^|\n)[ \t]*(?:given|option|var|state)\b[^\n]*:\s*\[\s*\[\s*$", before):  # `[[int]]`
        return PuzzleError("lists do not nest: each cell of a list given holds a list of single values", span,
                           "write a list of cells flat, `[r1, c1, r2, c2, …]`, and read its cell i as "
                           "`(a[2 * i], a[2 * i + 1])` (docs §5, \"Lists of cells\")")
    if shown.isidentifier() and tok.type != "NAME" and expected & {"NAME"} and not expected & {"RULE", "GIVEN"}:
        return PuzzleError(f"`{shown}` is a reserved word and cannot be used as a name", span,
                           f"choose another name, such as `{shown}_` or `my_{shown}`")
    if tok.type == "CMP" and "LPAR" not in expected:  # `a == b == c`: after a whole comparison
        return PuzzleError(f"unexpected `{shown}`: comparisons do not chain", span,
                           "compare two at a time and join them: `a == b and b == c`, `a < b and b < c`")
    if tok.type == "WHILE":  # valid only right after a binding's source
        return PuzzleError("unexpected `while`", span, "a `while` follows its binding's source, before any "
                           "`where`: `q in S while C where F`")
    if tok.type == "IN" and re.search(r"(?:^|\n)given\b[^\n=]*(?:\n[ \t][^\n=]*)*$", before):
        return PuzzleError("unexpected `in`", span, "a given's values `in LO..HI` come right after its "
                           "type, before `legend`, `outside` and `=`: "
                           "`given g[1..R, 1..C]: int? in 1..9 legend { \".\": ? }`")
    if tok.type == "IN" and before.rsplit("\n", 1)[-1].lstrip().startswith("var "):
        return PuzzleError("unexpected `in`", span, "a variable's values are its type: `var x[1..N]: 1..5`")
    from ..ground_common import AGGREGATES
    m = re.search(r"([A-Za-z_]\w*)\s*\(\s*(?:\w+|\([\w\s,]*\))\s*$", before) if tok.type == "IN" else None
    if m and m.group(1) not in AGGREGATES:  # `alldif(c in …)`: a binding, but after no aggregate's word
        close = did_you_mean(m.group(1), AGGREGATES)
        return PuzzleError(f"`{m.group(1)}` is not an aggregate, so it cannot bind a name with `in`",
                           offset_span(text, path, m.start(1), m.end(1)),
                           (f"{close} " if close else "") + "an aggregate is one of "
                           + ", ".join(f"`{a}`" for a in AGGREGATES))
    words = before.split()[-2:]
    if words and shown.isidentifier() and words[-1].isidentifier() and words[-1] + shown in AGGREGATES:
        return PuzzleError(f"unexpected `{shown}` after `{words[-1]}`",  # `for all`
                           offset_span(text, path, len(before) - len(words[-1]), len(before)),
                           f"`{words[-1] + shown}` is one word: write `{words[-1] + shown}`")
    if len(words) == 2 and all(w.isidentifier() for w in words) and "".join(words) in AGGREGATES:  # `at most(`
        return PuzzleError(f"`{' '.join(words)}` is one word", offset_span(text, path, before.rindex(words[0]),
                                                                        len(before)),
                           f"write `{''.join(words)}`")
    if tok.type == "IN":  # `x in S` is no condition: `in` only binds
        return PuzzleError("unexpected `in`", span,
                           "`in` introduces a binding (`forall p in S: …`, `count(q in S: …)`); to ask whether "
                           "a value is one of several, compare it with each (`x == 0 or x == 2`), or for a list "
                           "`any(v in L: v == x)`")
    if tok.type == "STRING" and expected & {"NAME", "INT"}:  # `s[i] == "<"`: a data token in a rule
        return PuzzleError(f"unexpected `{shown}`: text in quotes is no value in a rule", span,
                           "a token of the data stands for what its `legend` names (`legend { \"<\": lt }`): "
                           "compare with that symbol, `s[i] == lt`, or with the number it stands for")
    if tok.type in ("OPTIONAL", "QMARK") and expected & {"NAME", "INT"} and before.split()[-1:] == ["outside"]:
        return PuzzleError("unexpected `?`: `outside` takes a known value", span,
                           "a cell beyond the edge reads as that value (`outside 0`); to read no cell there, "
                           "leave `outside` out and guard the read with `inside(g, p + d)`")
    if tok.type in ("OPTIONAL", "QMARK") and expected & {"NAME", "INT"}:  # `g[p] == ?`
        return PuzzleError("unexpected `?`", span, "`?` is an unknown value in data, not an expression: to ask "
                           "whether a given cell is unknown, write `not known(g[p])`")
    if expected == {"EQUAL"} and before and (before.split() or [""])[-1].isidentifier():
        word = before.split()[-1]  # the statement before was complete: `word` began a data assignment
        statement = re.split(r"\n(?=\S)", before)[-1]
        if word in _SHOW_OPTIONS and statement.startswith("show") and not before[:-len(word)].rstrip().endswith(","):
            return PuzzleError(f"a comma is missing before `{word}`",
                               offset_span(text, path, len(before) - len(word), len(before)),
                               "a `show`'s options are separated by commas: "
                               "`show x marked m, clue r at right, clue c at bottom`")
        return PuzzleError(f"unexpected `{shown}` after `{word}`", span,
                           f"the statement before `{word}` is complete, so `{word}` begins a new one, a data "
                           f"assignment (`{word} = value`); if it belongs to the statement before, the language "
                           "has no such word there")
    if tok.type == "EQUAL":  # never valid where unexpected: a comparison meant
        declared = re.match(r"\s*(option|given)\s+([A-Za-z_]\w*)\s*$", before.rsplit("\n", 1)[-1])
        if declared:  # `option fill = true`: the type is missing, not a comparison meant
            kind, name = declared.groups()
            return PuzzleError("unexpected `=`", span, f"a{'n' if kind == 'option' else ''} {kind} is declared with "
                               f"its type before its default: `{kind} {name}: bool = true`, `{kind} {name}: int = 3`")
        return PuzzleError("unexpected `=`", span, "to compare, write `==`; a single `=` only assigns data, "
                           "as a statement of its own (`name = value`)")
    return PuzzleError(f"unexpected `{shown}`", span, f"expected {_expected_words(expected)}")



_SHOW_OPTIONS = ("clue", "marked", "lines", "between", "regions")
_DECLARED_TYPE = re.compile(r"(?:^|\n)(given|var|option|state)[ \t]+[A-Za-z_]\w*[ \t]*(?:\[[^\]\n]*\])?[ \t]*:[ \t]*"
                            r"([A-Za-z_]\w*)$")
_TYPE_WORDS = {"integer": "int", "number": "int", "boolean": "bool", "symbol": "sym", "string": "sym",
               "str": "sym", "edge": "edges", "float": "int"}


def _type_typo(before: str, text: str, path: str) -> PuzzleError | None:
    """`given g[1..R]: integer?`, `var b: boolean`: a word where a type goes that is no type (the
    parser would read it as the start of a range `LO..HI` and stop at what follows)."""
    m = _DECLARED_TYPE.search(before)
    if m is None:
        return None
    kind, word = m.groups()
    if word in ("bool", "int", "sym", "edges") or re.search(rf"(?:^|\n)(given|define|option)[ \t]+{word}\b", text):
        return None  # a name: a range's lower end that is not finished
    types = "`bool`, `edges` or a range like `1..9`" if kind in ("var", "state") else "`int`, `bool` or `sym`"
    what = {"var": "a decision variable", "state": "a state", "option": "an option", "given": "a given"}[kind]
    meant = _TYPE_WORDS.get(word.lower())
    return PuzzleError(f"unknown type `{word}`", offset_span(text, path, m.start(2), m.end(2)),
                       (f"did you mean `{meant}`? " if meant else "") + f"{what} is {types}"
                       + (" (add `?` to allow unknown values: `int?`)" if kind == "given" else ""))


DATA_HELP = ("a data file holds one assignment `name = value` per line: a number, `true`, a symbol, a list "
             "`[1, 2, 3]`, or a grid as a text block between `\"\"\"` lines")


def parse_tree(text: str, path: str, data: bool = False) -> list[A.Stmt]:
    """Parse with lark and transform to AST nodes; syntax errors become `PuzzleError`s. `data`:
    the text is a data file, where the rules' statements are no help to name."""
    try:
        tree = _lark().parse(text)
    except UnexpectedInput as err:
        error = _syntax_error(err, path, text)
        if data and "GIVEN" in getattr(err, "expected", ()):  # where a statement would begin
            error.help = DATA_HELP
        elif text.lstrip()[:1] in ("{", "["):  # JSON where rules go: `solve data.json`
            error.help = ("this looks like JSON data, not rules: name the rules first, "
                          "`puzzledsl solve RULES --data FILE` (a bundled genre's name will do)")
        raise error from None
    _check_nesting(tree, path)
    try:
        with deep_recursion():
            return _ToAst(path).transform(tree)
    except VisitError as err:  # a bug in the transformer, not the user's input
        raise err.orig_exc from None


def _check_nesting(tree: Tree, path: str) -> None:
    """Refuse, at its place, an expression nested deeper than the later stages can follow (they
    recurse once per level); measured without recursion, so any depth is reported cleanly."""
    bound = limits.current().nesting
    stack: list[tuple[Tree, int]] = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > bound:
            raise PuzzleError(f"this statement nests more than {bound:,} levels deep", _span(path, node.meta),
                              "write a long sum or chain with an aggregate (`sum(i in 1..N: …)`), "
                              "or raise the limit with `--limit nesting=N`")
        stack.extend((c, depth + 1) for c in node.children if isinstance(c, Tree))


def _statement_word(before: str) -> str | None:
    """The keyword that starts the statement the text `before` ends in (its last unindented line)."""
    for line in reversed(before.split("\n")):
        if line[:1].isalpha():
            return line.split()[0]
    return None
