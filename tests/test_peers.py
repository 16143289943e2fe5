"""The clingo peer encodings of `bench/peers/` (benchmark material, not puzzledsl code).

Each janko genre's encoding, on three puzzles from the smallest board to a middle one, finds
exactly one model, and that model equals the published solution and passes the independent
checker. Skips without clingo (`pip install -e ".[bench]"`) or without the shared data.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.datasets import requires_data

pytest.importorskip("clingo")
PEERS_DIR = Path(__file__).resolve().parents[1] / "bench" / "peers"
sys.path.insert(0, str(PEERS_DIR))

import run_clingo  # noqa: E402
from janko_genres import PEERS  # noqa: E402

from tests.genre_specs import by_size  # noqa: E402


@requires_data
@pytest.mark.parametrize("key", sorted(PEERS))
def test_peer_encoding_finds_the_published_solution(key: str) -> None:
    peer = PEERS[key]
    puzzles = by_size(peer.genre)
    program = peer.program.read_text()
    for iid, givens, entry in (puzzles[0], puzzles[len(puzzles) // 4], puzzles[len(puzzles) // 2]):
        instance = run_clingo.janko_instance(peer, iid, givens, entry)
        outcome = run_clingo.solve(instance, program, 60.0, peer.options)
        assert (outcome.status, outcome.valid, outcome.mismatch) == ("unique", True, False), (key, iid, outcome)


def test_tent_pairing_is_projected_away() -> None:
    """Tents pair with trees through an auxiliary atom; two pairings of one tent layout are one
    answer (`--project=show`). Four trees round the centre of a 3×3 board, tents in the corners:
    the layout is unique, the pairing is not (clockwise or counter-clockwise)."""
    facts = ("size(3,3). tree(1,2). tree(2,1). tree(2,3). tree(3,2). "
             "rowsum(1,2). rowsum(2,0). rowsum(3,2). colsum(1,2). colsum(2,0). colsum(3,2).")
    ring = run_clingo.Instance("tent", "ring", facts, lambda atoms: True, decode=run_clingo.shown_cells)
    program = PEERS["tent"].program.read_text()
    assert run_clingo.solve(ring, program, 10.0, PEERS["tent"].options).status == "unique"
    assert run_clingo.solve(ring, program, 10.0).status == "multiple"
