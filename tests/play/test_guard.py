"""Every key and click goes through the guard: nothing else in screenbot reaches the keyboard."""

import ast
from pathlib import Path

import pytest

import screenbot
from screenbot.control.keyboard import Press
from screenbot.game.rules import parse_board
from screenbot.play.guard import Guard

from play_fakes import SimulatedScreen, VirtualClock
from test_loop import make_player, win_overlay_after_2048

PACKAGE = Path(screenbot.__file__).parent
INPUT_CALLS = {"press", "click", "_press_key", "_click", "keyDown", "keyUp", "hotkey", "typewrite",
               "mouseDown", "mouseUp", "press_dismiss", "_press_dismiss_key", "fake_input"}
# Where input may be sent: the keyboard implementations themselves, the guard, and the practice rig
# (it drives its own browser for the tests and the demo with xdotool, never the user's game).
ALLOWED = {"control/keyboard.py", "play/guard.py", "practice/rig.py"}


def input_calls(path: Path) -> list[str]:
    """`x.press(...)`-like calls in a module: "line: text" for each."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in INPUT_CALLS:
            receiver = ast.unparse(node.func.value)
            if receiver in {"self", "super()"} or receiver.startswith(("self.guard", "guard")):
                continue  # a method of the class itself, or the guard's own press/click
            found.append(f"{node.lineno}: {ast.unparse(node)}")
    return found


def test_no_module_but_the_guard_presses_or_clicks():
    offenders = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE).as_posix()
        if relative in ALLOWED:
            continue
        calls = input_calls(path)
        if calls:
            offenders[relative] = calls
    assert not offenders, f"input sent around the guard: {offenders}"


def test_the_check_finds_a_press_that_goes_around_the_guard(tmp_path):
    sneaky = tmp_path / "sneaky.py"
    sneaky.write_text("def go(player, move):\n    player.keyboard.press(move)\n", encoding="utf-8")
    assert input_calls(sneaky) == ["2: player.keyboard.press(move)"]


def test_the_check_finds_a_dismiss_key_pressed_around_the_guard(tmp_path):
    sneaky = tmp_path / "sneaky.py"
    sneaky.write_text("def go(keyboard):\n    keyboard.press_dismiss('enter')\n", encoding="utf-8")
    assert input_calls(sneaky) == ["2: keyboard.press_dismiss('enter')"]


def test_only_the_guard_holds_the_keyboard():
    clock = VirtualClock()
    screen = SimulatedScreen(clock, seed=3)
    player = make_player(screen, clock, max_moves=5)
    player.play()
    holders = []
    seen = set()

    def walk(obj, path, depth=0):
        if id(obj) in seen or depth > 4:
            return
        seen.add(id(obj))
        for name, value in vars(obj).items() if hasattr(obj, "__dict__") else ():
            if value is screen.keyboard:
                holders.append(f"{path}.{name}")
            elif hasattr(value, "__dict__") and type(value).__module__.startswith("screenbot.play"):
                walk(value, f"{path}.{name}", depth + 1)

    walk(player, "player")
    assert holders == ["player.guard._keyboard"]


@pytest.mark.parametrize("overlay_after_looks", [0, 8])
def test_every_key_is_pressed_right_after_the_guard_checked_the_board(monkeypatch, overlay_after_looks):
    """Including the key pressed again after the win overlay swallowed it."""
    from screenbot.geometry import Rect
    from screenbot.play import overlay
    from screenbot.play.overlay import Button

    events = []
    real_problem = Guard.problem

    def checked(self, skip=()):
        events.append("check")
        return real_problem(self, skip)

    monkeypatch.setattr(Guard, "problem", checked)
    clock = VirtualClock()
    screen = SimulatedScreen(clock, start=parse_board("1024 1024 . . / . . . . / . . . . / . . . 2"))
    screen.win_delay_looks = overlay_after_looks
    button = Button(Rect(10, 60, 30, 10))
    monkeypatch.setattr(overlay, "find_keep_going", lambda frame, board: button if screen.won_overlay else None)
    win_overlay_after_2048(screen)
    original = screen.keyboard.on_press
    screen.keyboard.on_press = lambda move: (events.append("press"), original(move))
    summary = make_player(screen, clock, max_moves=8).play()
    assert summary.ok and summary.moves == 8, summary.reason
    presses = [i for i, e in enumerate(events) if e == "press"]
    assert len(presses) == len([e for e in screen.keyboard.events if isinstance(e, Press)]) >= 8
    assert all(events[i - 1] == "check" for i in presses)


def test_a_board_of_blocks_apart_one_way_is_checked_by_its_cells_rings_not_by_gaps_past_its_edge():
    import numpy as np

    from screenbot.control.screen import Frame
    from screenbot.geometry import Rect
    from screenbot.play.safety import BlocksLook, BoardLook, learn_look

    # columns 60 px wide, 20 px apart; rows 40 px tall, touching (a terminal printing its rows back to back)
    cells = [Rect(10 + 80 * c, 10 + 40 * r, 60, 40) for r in range(4) for c in range(4)]
    board = Rect(10, 10, 300, 160)
    pixels = np.zeros((200, 340, 3), np.uint8)
    for i, cell in enumerate(cells):
        pixels[cell.y:cell.bottom, cell.x:cell.right] = (40 * (i % 5), 90, 200)
    frame = Frame(pixels, 0, 0)
    look = learn_look(frame, board, cells, blocks=True)
    assert isinstance(look, BlocksLook) and look.problem(frame) is None
    gapped = [Rect(10 + 80 * c, 10 + 50 * r, 60, 40) for r in range(4) for c in range(4)]
    assert isinstance(learn_look(frame, Rect(0, 0, 330, 190), gapped), BoardLook)  # tiles with gaps: as before


def test_a_text_board_whose_blocks_fill_their_step_is_checked_by_the_paper_round_it_not_by_gaps_they_cover():
    import numpy as np

    from screenbot.control.screen import Frame
    from screenbot.geometry import Rect
    from screenbot.play.safety import learn_look

    # text cells 2 px apart (each its column's whole band); tiles drawn as blocks a whole step each way
    cells = [Rect(13 + 62 * c, 13 + 42 * r, 60, 40) for r in range(4) for c in range(4)]
    board = Rect(10, 10, 252, 170)
    start = np.full((200, 280, 3), 255, np.uint8)
    start[cells[8].y - 1:cells[8].bottom + 1, cells[8].x - 1:cells[8].right + 1] = (200, 120, 240)  # one tile
    look = learn_look(Frame(start, 0, 0), board, cells, text=True)
    full = start.copy()
    for cell in cells[:12]:  # three rows of tiles, each covering the gaps beside it
        full[cell.y - 1:cell.bottom + 1, cell.x - 1:cell.right + 1] = (200, 120, 240)
    assert look.problem(Frame(full, 0, 0)) is None
    assert learn_look(Frame(start, 0, 0), board, cells).problem(Frame(full, 0, 0)) is not None  # the gaps between them: covered
    covered = full.copy()
    covered[0:120, :] = (60, 60, 60)  # a window over the board and the paper round it
    assert look.problem(Frame(covered, 0, 0)) is not None


def test_a_board_whose_cells_stand_flush_with_its_edge_is_checked_by_its_inner_gaps_alone():
    import numpy as np

    from screenbot.control.screen import Frame
    from screenbot.geometry import Rect
    from screenbot.play.safety import BoardLook, learn_look

    # 50 px cells 10 px apart, the outer ones at the board's very edge (the window's colour right outside)
    cells = [Rect(20 + 60 * c, 20 + 60 * r, 50, 50) for r in range(4) for c in range(4)]
    board = Rect(20, 20, 230, 230)
    pixels = np.full((270, 270, 3), 240, np.uint8)
    pixels[20:250, 20:250] = (90, 80, 70)
    for cell in cells:
        pixels[cell.y:cell.bottom, cell.x:cell.right] = (180, 170, 160)
    grabbed = Frame(pixels[20:250, 20:250].copy(), 20, 20)  # what play grabs: the board's rectangle alone
    look = learn_look(grabbed, board, cells)
    assert isinstance(look, BoardLook) and look.problem(grabbed) is None
    assert all(board.x < p.x < board.right - 1 and board.y < p.y < board.bottom - 1 for p in look.points)
    covered = grabbed.pixels.copy()
    covered[:150] = (30, 30, 30)
    assert look.problem(Frame(covered, 20, 20)) is not None
