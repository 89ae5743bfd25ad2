"""screenbot plays real 2048 programs of the corpus (tests/targets/CORPUS.md) it was not written for,
each a different family of looks: calibrated with no options on the screen, played with real X keys,
every believed board checked against the game's own record. (benchmarks/targets.py plays longer.)"""

from __future__ import annotations

import pytest

from corpus import TARGETS
from test_play_targets import check_played_by_record, play_target

pytestmark = pytest.mark.live

MOVES = 150
# program -> the kind of profile its look makes
LOOKS = {
    "npm2048html": "tiles",  # the classic web game's fork, in Chromium
    "tui2048": "tiles",  # curses: tiles inset in ruled boxes, non-square cells
    "vis2048": "tiles",  # Tk: flat labels on a frame
    "npm2048term": "text",  # node: numbers on paper in a box-drawing grid
    "npm2048terminal": "text",  # node: big block-font numbers right-aligned with no grid, a grey 0 for empty,
    # its own rules (a merged tile merges again)
    "curses2048": "tiles",  # curses: coloured tiles, numbers in a block font (segment digits)
    "tuinty2048": "text",  # Textual: seven-segment line-art numbers; a 2 shares the empty cells' colour
    "pycui2048": "text",  # py_cui: an ASCII box per cell, rows of unequal height, 0 for empty, a logo and a
    # menu beside it; w a s d only (learned from the first move); its own rules (merges that go on)
    "py2048cli": "text",  # print and input(): an ASCII grid; a move is a letter, then Enter
}


@pytest.mark.parametrize("name", sorted(LOOKS))
def test_a_corpus_program_is_calibrated_and_played_without_a_misread(name, tmp_path):
    check_played_by_record(TARGETS[name], LOOKS[name], MOVES, tmp_path)


# Debian's C and C++ programs -> the kind of profile their look makes. They have no object to read: the
# play loop itself stops on any board that does not follow from the one before by the move and one new tile
NO_RECORD = {
    "debian2048": "blocks",  # C, in xterm: blocks that touch
    "gnome2048": "tiles",  # GTK: rounded tiles, white digits, white empty cells
    "qt2048": "tiles",  # Qt Quick: the classic look, drawn in software
}


@pytest.mark.parametrize("name", sorted(NO_RECORD))
def test_a_program_with_no_record_is_played_by_the_rules(name, tmp_path):
    summary, player, profile, truth = play_target(TARGETS[name], MOVES, tmp_path)
    assert profile.kind == NO_RECORD[name]
    assert truth == []
    assert summary.moves >= MOVES or summary.reason == "game over", summary.reason
    assert summary.ok, summary.reason
    assert len(player.tracker.history) == summary.moves + 1
