"""The examples of the docs run as printed.

`<!-- file: NAME -->` before a fenced block makes that block a file; `<!-- run: ARGS => CODE -->`
before one runs `puzzledsl ARGS` in a folder holding the page's files so far and expects exit
code CODE and the block's lines in the output (the block may show a part of it; trailing
spaces aside; of a JSON block, the fields it shows). A page that a reader copies from must
not drift from what the tool does.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

from puzzledsl.cli import main

DOCS = Path(__file__).resolve().parents[1] / "docs"
MARK = re.compile(r"<!-- (file|run): (.+?) -->\s*\n```[^\n]*\n(.*?)```", re.S)


def _examples() -> list:
    out = []
    for page in sorted(DOCS.glob("*.md")):
        files: dict[str, str] = {}
        for m in MARK.finditer(page.read_text(encoding="utf-8")):
            kind, what, block = m.groups()
            if kind == "file":
                files[what.strip()] = block
            else:
                args, code = what.rsplit("=>", 1)
                line = page.read_text(encoding="utf-8")[: m.start()].count("\n") + 1
                out.append(pytest.param(dict(files), args.strip(), int(code), block,
                                        id=f"{page.name}:{line}:{args.strip()}"))
    return out


def _lines(text: str) -> list[str]:
    return [ln.rstrip() for ln in text.strip("\n").splitlines()]


@pytest.mark.parametrize("files, args, code, expected", _examples())
def test_doc_example(tmp_path, monkeypatch, capsys, files, args, code, expected):
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("NO_COLOR", "1")
    rc = main(shlex.split(args))
    out, err = capsys.readouterr()
    assert rc == code, out + err
    if expected.lstrip().startswith("{"):  # JSON: the fields shown, with these values
        shown, printed = json.loads(expected), json.loads(out)
        assert {k: printed.get(k) for k in shown} == shown
        return
    got, want = _lines(out + "\n" + err), _lines(expected)
    assert any(got[i:i + len(want)] == want for i in range(len(got) - len(want) + 1)), \
        "\n".join(["expected:", *want, "got:", *got])


def test_every_page_has_examples():
    assert len(_examples()) >= 20


def test_the_reserved_words_listed_in_section_2_are_the_reserved_ones() -> None:
    """§2 lists every word that cannot be a name, and no other (a grammar change must update it)."""
    import re

    from puzzledsl.errors import PuzzleError
    from puzzledsl.syntax.frontend import parse_tree

    text = (DOCS / "language.md").read_text()
    listed = set(re.search(r"except the reserved words\n  `([^`]+)`", text).group(1).split())
    grammar = (DOCS.parent / "puzzledsl" / "grammars" / "puzzledsl.lark").read_text()
    words = set(re.findall(r'"([a-z_]+)"', grammar)) | {"one", "hot"}
    reserved = set()
    for w in words:
        try:
            parse_tree(f"var {w}[1..2]: bool\nrule {w}[1]\n", "x.puz")
        except PuzzleError:
            reserved.add(w)
    assert listed == reserved
