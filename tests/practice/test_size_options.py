"""The practice board's size without a browser: `screenbot practice --size RxC`, the rig's `shape`, the
server's boards of any size, and where the gaps of a board of any size lie."""

from __future__ import annotations

import io
import json
import threading
import urllib.error
import urllib.request
from argparse import Namespace
from contextlib import redirect_stdout

import pytest

from screenbot.cli import main as cli_main
from screenbot.commands import practice as practice_command
from screenbot.practice.measure import Box, gap_middles
from screenbot.practice.rig import Rig, RigError
from screenbot.practice.server import PracticeServer

SUPPORTED = "boards are 3x3 to 8x8"


@pytest.mark.parametrize("text", ["2x9", "1x4", "9x9", "abc", "4x", "0x0"])
def test_cli_refuses_an_unsupported_size_in_one_line_with_exit_code_2(text, capsys):
    assert cli_main(["practice", "--no-open", "--size", text]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("screenbot: error:") and SUPPORTED in err
    assert "Traceback" not in err


def test_cli_refuses_a_board_width_out_of_range(capsys):
    assert cli_main(["practice", "--no-open", "--px", "5"]) == 2
    assert capsys.readouterr().err.startswith("screenbot: error: --px must be 150..3000")


def _served_url(**options) -> str:
    """The URL `screenbot practice` prints for these options (it serves until stopped)."""
    args = Namespace(**{**dict(theme="classic", seed=None, size=None, px=None, anim=None, port=0, no_open=True),
                        **options})
    stop, out, result = threading.Event(), io.StringIO(), {}

    def serve() -> None:
        with redirect_stdout(out):
            result["code"] = practice_command.run(args, stop=stop)

    thread = threading.Thread(target=serve)
    thread.start()
    for _ in range(100):
        if "practice board:" in out.getvalue():
            break
        threading.Event().wait(0.05)
    stop.set()
    thread.join(5)
    assert result["code"] == 0
    return out.getvalue().splitlines()[0].split(": ", 1)[1].strip()


def test_cli_size_goes_to_the_page_as_its_shape_rows_first():
    url = _served_url(size="4x6", px=400)
    assert "shape=4x6" in url and "size=400" in url
    assert "shape=" not in _served_url(size="4x4") and "shape=" not in _served_url()  # the 4x4 page as it is


def test_rig_takes_a_shape_and_checks_it_before_anything_starts():
    assert Rig(shape=(4, 6)).page_options["shape"] == "4x6" and Rig(shape="4x6").shape == (4, 6)
    assert Rig().page_options["shape"] is None and Rig().shape == (4, 4)
    assert Rig(shape=(4, 4)).page_options["shape"] is None  # the 4x4 page's URL stays as it is
    for bad in ("2x9", "1x4", "9x9", "abc", (3, 9)):
        with pytest.raises(RigError, match=SUPPORTED):
            Rig(shape=bad)
    with pytest.raises(RigError, match="the start board is 4x4 but the page is 5x5"):
        Rig(shape=(5, 5), board=[[0] * 4] * 4)
    with pytest.raises(RigError, match="16 values but the page is 3x3"):
        Rig(shape="3x3", board=[0] * 16)
    assert Rig(shape=(3, 4), board=[[2, 0, 0, 0]] * 3).page_options["board"] == [[2, 0, 0, 0]] * 3


def _post(srv: PracticeServer, payload: dict) -> int:
    req = urllib.request.Request(f"http://127.0.0.1:{srv.port}/report", data=json.dumps(payload).encode(),
                                 method="POST", headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=5) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code


def _report(seq: int, event: str, board: list[list[int]], **extra) -> dict:
    return {"page": "p", "seq": seq, "event": event, "board": board, "score": 0, "won": False, "over": False,
            "keep_going": False, "moves": seq - 1, "keys": seq - 1, "game": 1, "seed": 3,
            "move": "left" if event == "move" else None, **extra}


def test_server_keeps_boards_of_any_size_and_refuses_others():
    start = [[2, 0, 0, 0, 0, 0]] + [[0] * 6] * 3
    moved = [[0, 0, 0, 0, 0, 2]] + [[0] * 6] * 2 + [[0, 2, 0, 0, 0, 0]]
    with PracticeServer(control_wait_s=0.3) as srv:
        assert _post(srv, _report(1, "start", start, shape=[4, 6])) == 204
        assert _post(srv, _report(2, "move", moved, shape=[4, 6])) == 204
        snap = srv.state.snapshot()
        assert snap["shape"] == [4, 6] and snap["start"] == start and snap["history"] == [moved]
        for bad in ([[0] * 6] * 2, [[0] * 9] * 4, [[0] * 6, [0] * 5, [0] * 6], [[0] * 3] * 9):
            assert _post(srv, _report(3, "move", bad)) == 400
        assert srv.state.snapshot()["history"] == [moved]


def test_gap_middles_lie_between_the_cells_and_in_the_outer_padding():
    # a 2 px padding and 2 px gaps round 10 x 20 px cells: 3 rows of 4 columns at (100, 50)
    board = Box(100, 50, 2 + 4 * 12, 2 + 3 * 22)
    cells = [Box(102 + 12 * c, 52 + 22 * r, 10, 20) for r in range(3) for c in range(4)]
    across, down = gap_middles(board, cells, (3, 4))
    assert across == [101, 113, 125, 137, 149] and down == [51, 73, 95, 117]
