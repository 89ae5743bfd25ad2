"""The focus guard on each desktop, through fakes of its window API: focus lost or a window over the board is a problem; where focus cannot be known, play says so once and presses only move keys."""

import ast
import sys
import types
from pathlib import Path
from types import SimpleNamespace

import pytest
from Xlib import X

from screenbot.board_state import BoardState
from screenbot.control import focus, focus_mac, focus_windows, focus_x11
from screenbot.control.focus import FocusUnknownError, FocusWatch, WindowBackend, open_backend, sample_points
from screenbot.control.focus_mac import MacBackend
from screenbot.control.focus_windows import GA_ROOT, PROCESS_PER_MONITOR_DPI_AWARE, WindowsBackend
from screenbot.control.focus_x11 import X11Backend
from screenbot.control.keyboard import Dismiss, Press, RecordingKeyboard
from screenbot.control.screen import Frame
from screenbot.game.rules import Move
from screenbot.geometry import Point, Rect
from screenbot.play.context import PlayContext, StopPlaying
from screenbot.play.eyes import BoardGeometry, Sight
from screenbot.play.guard import Guard
from screenbot.play.loop import Player
from screenbot.play.settings import PlaySettings

from play_fakes import FirstLegalAgent, SimulatedScreen, VirtualClock, board_pixels
from test_win_message import START, message, win_message_at

BOARD = Rect(100, 100, 400, 400)  # mouse points
LOST = "the game's window lost the keyboard focus"
COVERED = "another window is over the board"


# ----------------------------------------------------------------- X11 (python-xlib)
class FakeXWindow:
    def __init__(self, wid, rect, viewable=True):
        self.id, self.rect, self.viewable = wid, rect, viewable

    def get_attributes(self):
        return SimpleNamespace(map_state=X.IsViewable if self.viewable else X.IsUnmapped, win_class=X.InputOutput)

    def get_geometry(self):
        return SimpleNamespace(x=self.rect.x, y=self.rect.y, width=self.rect.w, height=self.rect.h)


class FakeXDisplay:
    """The root's children bottom to top, and the input focus."""

    def __init__(self, children, focus):
        self.children, self.focus, self.synced = list(children), focus, 0
        root = SimpleNamespace(query_tree=lambda: SimpleNamespace(children=list(self.children)))
        self._screen = SimpleNamespace(root=root)

    def screen(self):
        return self._screen

    def get_input_focus(self):
        return SimpleNamespace(focus=SimpleNamespace(id=self.focus))

    def sync(self):
        self.synced += 1

    def close(self):
        pass


def x11_watch():
    display = FakeXDisplay([FakeXWindow(5, Rect(0, 0, 1600, 1000)), FakeXWindow(9, Rect(50, 50, 600, 600))], focus=9)
    watch = FocusWatch(BOARD, X11Backend(display))
    watch.remember()
    return watch, display


def test_x11_focus_taken_by_another_window_is_a_problem():
    watch, display = x11_watch()
    assert display.synced == 1 and watch.problem() is None  # the click was handled before focus was read
    display.focus = 12
    assert watch.problem() == LOST


def test_x11_a_window_mapped_over_the_board_is_a_problem_and_one_elsewhere_or_unmapped_is_not():
    watch, display = x11_watch()
    display.children.append(FakeXWindow(13, Rect(900, 100, 200, 200)))
    display.children.append(FakeXWindow(14, Rect(450, 450, 100, 100), viewable=False))
    assert watch.problem() is None
    display.children.append(FakeXWindow(15, Rect(450, 450, 100, 100)))  # over the board's corner
    assert watch.problem() == COVERED


# ----------------------------------------------------------------- Windows (user32)
class FakeUser32:
    """Top-level windows front to back, each (root hwnd, the child hwnd under the point, rect)."""

    def __init__(self, windows, foreground):
        self.windows, self.foreground = list(windows), foreground
        self.dpi_aware = []

    def GetForegroundWindow(self):  # noqa: N802 - user32's names
        return self.foreground

    def WindowFromPoint(self, point):  # noqa: N802
        return next((child for _, child, rect in self.windows if rect.contains(Point(point.x, point.y))), None)

    def GetAncestor(self, hwnd, flags):  # noqa: N802
        assert flags == GA_ROOT
        return next(root for root, child, _ in self.windows if child == hwnd)

    def SetProcessDPIAware(self):  # noqa: N802
        self.dpi_aware.append("system")


class FakeShcore:
    def __init__(self):
        self.modes = []

    def SetProcessDpiAwareness(self, mode):  # noqa: N802
        self.modes.append(mode)


def windows_watch():
    # the browser (top-level 0x100) shows the board in its render child 0x101; the desktop is behind
    user32 = FakeUser32([(0x100, 0x101, Rect(50, 50, 600, 600)), (0x10, 0x10, Rect(0, 0, 1920, 1080))], 0x100)
    watch = FocusWatch(BOARD, WindowsBackend(user32, FakeShcore()))
    watch.remember()
    return watch, user32


def test_windows_the_board_is_the_top_level_window_of_the_child_under_it():
    watch, _ = windows_watch()
    assert watch.snapshot.focus == 0x100 and watch.snapshot.board_windows == {0x100}
    assert watch.problem() is None


def test_windows_another_foreground_window_or_none_mid_switch_is_a_problem():
    watch, user32 = windows_watch()
    user32.foreground = 0x200
    assert watch.problem() == LOST
    user32.foreground = 0  # NULL while activation passes between windows
    assert watch.problem() == LOST


def test_windows_a_window_over_part_of_the_board_is_a_problem():
    watch, user32 = windows_watch()
    user32.windows.insert(0, (0x300, 0x300, Rect(400, 400, 300, 300)))  # a dialog over the lower right
    assert watch.problem() == COVERED


def test_windows_the_process_asks_for_per_monitor_dpi_awareness_as_mss_does():
    shcore = FakeShcore()
    WindowsBackend(FakeUser32([], 1), shcore)
    assert shcore.modes == [PROCESS_PER_MONITOR_DPI_AWARE] == [2]
    old_windows = FakeUser32([], 1)
    WindowsBackend(old_windows, None)  # before Windows 8.1: no shcore
    assert old_windows.dpi_aware == ["system"]


# ----------------------------------------------------------------- macOS (Quartz window list)
def mac_window(number, pid, rect, layer=0, alpha=1.0):
    return {"kCGWindowNumber": number, "kCGWindowOwnerPID": pid, "kCGWindowLayer": layer, "kCGWindowAlpha": alpha,
            "kCGWindowBounds": {"X": float(rect.x), "Y": float(rect.y), "Width": float(rect.w), "Height": float(rect.h)}}


@pytest.fixture
def quartz(monkeypatch):
    """A Quartz module whose window list is `quartz.windows` (front to back)."""
    fake = types.ModuleType("Quartz")
    fake.kCGWindowListOptionOnScreenOnly, fake.kCGWindowListExcludeDesktopElements, fake.kCGNullWindowID = 1, 16, 0
    fake.windows = []

    def copy_window_info(option, relative_to):
        assert option == 1 | 16 and relative_to == 0
        return None if fake.windows is None else list(fake.windows)

    fake.CGWindowListCopyWindowInfo = copy_window_info
    monkeypatch.setitem(sys.modules, "Quartz", fake)
    return fake


def mac_watch(quartz):
    front = {"pid": 50}
    quartz.windows = [
        mac_window(1, 0, Rect(0, 0, 1440, 25), layer=24),  # the menu bar
        mac_window(2, 40, Rect(0, 400, 1440, 500), layer=20),  # the Dock, over the board's lower part
        mac_window(3, 70, Rect(0, 0, 1440, 900), alpha=0.0),  # an invisible overlay
        mac_window(7, 50, Rect(80, 60, 700, 600)),  # the game's window
        mac_window(8, 60, Rect(0, 0, 1440, 900)),  # the terminal behind it
    ]
    watch = FocusWatch(BOARD, MacBackend(lambda: front["pid"]))
    watch.remember()
    return watch, front


def test_mac_the_board_is_the_frontmost_normal_window_over_it(quartz):
    watch, _ = mac_watch(quartz)
    assert watch.snapshot.focus == 50 and watch.snapshot.board_windows == {7}
    assert watch.problem() is None


def test_mac_another_application_with_the_focus_is_a_problem(quartz):
    watch, front = mac_watch(quartz)
    front["pid"] = 60  # the user clicked into the terminal
    assert watch.problem() == LOST


def test_mac_a_floating_window_over_the_board_is_a_problem(quartz):
    watch, _ = mac_watch(quartz)
    quartz.windows.insert(0, mac_window(11, 80, Rect(300, 300, 250, 200), layer=3))
    assert watch.problem() == COVERED


def test_mac_a_window_list_that_fails_after_the_click_is_a_problem(quartz):
    watch, _ = mac_watch(quartz)
    quartz.windows = None
    assert watch.problem().startswith("the window check failed (")


def test_mac_without_pyobjc_the_focus_is_unknown_and_the_reason_names_the_package(monkeypatch):
    monkeypatch.setitem(sys.modules, "Quartz", None)  # import Quartz raises ImportError
    watch = FocusWatch(BOARD, platform="darwin")
    assert not watch.available and "pip install pyobjc-framework-Quartz" in watch.reason
    watch.remember()
    assert watch.problem() is None


# ----------------------------------------------------------------- the watch over any backend
class ScriptedBackend(WindowBackend):
    def __init__(self, focus=1, over=frozenset({1}), fail=None):
        self.focus, self.over, self.fail, self.closed = focus, over, fail, False

    def focused(self):
        if self.fail:
            raise OSError(self.fail)
        return self.focus

    def top_windows(self, area):
        return self.over

    def close(self):
        self.closed = True


def test_a_window_api_that_fails_at_the_click_leaves_the_focus_unknown():
    backend = ScriptedBackend(fail="access denied")
    watch = FocusWatch(BOARD, backend)
    watch.remember()
    assert not watch.available and "access denied" in watch.reason and backend.closed
    assert watch.problem() is None


def test_a_moved_board_is_checked_only_after_the_next_focusing_click():
    backend = ScriptedBackend()
    watch = FocusWatch(BOARD, backend)
    watch.remember()
    watch.move_to(Rect(700, 100, 400, 400))
    backend.focus = 2
    assert watch.problem() is None
    watch.remember()
    assert watch.problem() is None and watch.snapshot.focus == 2


def test_no_backend_where_none_is_written():
    with pytest.raises(FocusUnknownError, match="no window check is written for sunos5"):
        open_backend("sunos5", {})
    with pytest.raises(FocusUnknownError, match="no window check is written for linux without an X display"):
        open_backend("linux", {})


@pytest.mark.parametrize("module", [focus, focus_mac, focus_windows, focus_x11])
def test_backends_import_nothing_of_their_desktop_until_one_is_opened(module):
    """Importing screenbot on Linux must not reach for user32, PyObjC or an X display."""
    tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
    imported = {alias.name for node in tree.body if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module for node in tree.body if isinstance(node, ast.ImportFrom)}
    assert {name for name in imported if not name.startswith("screenbot")} <= {"__future__", "abc", "os", "sys",
                                                                            "dataclasses", "typing"}


def test_the_sample_points_cover_the_board_inside_its_edges():
    points = sample_points(BOARD)
    assert len(points) == 9 and all(BOARD.contains(p) for p in points)
    assert {p.x for p in points} == {140, 300, 459} and {p.y for p in points} == {140, 300, 459}


# ----------------------------------------------------------------- the guard where focus is unknown
def unknown_watch():
    return FocusWatch(BOARD, platform="sunos5")


def guard_on(watch, keys="arrows", state=BoardState.PLAYING):
    clock = VirtualClock()
    screen = SimulatedScreen(clock)
    said = []
    ctx = PlayContext(screen, PlaySettings(), clock, said.append)
    keyboard = RecordingKeyboard(keys=keys)
    guard = Guard(ctx, keyboard, watch)
    playing = Sight(screen.game.grid, BoardState.PLAYING, Frame(board_pixels(), 0, 0), 0.0, 1.0)
    guard.learn(playing)
    ctx.last_sight = Sight(None if state == BoardState.WON else screen.game.grid, state, playing.frame, 0.0, 1.0)
    return guard, keyboard, said


def test_unknown_focus_is_said_once_and_move_keys_are_still_pressed():
    guard, keyboard, said = guard_on(unknown_watch())
    guard.focus()
    guard.focus()
    guard.press(Move.UP)
    assert said == ["screenbot: note: this desktop does not tell which window has the keyboard focus (no window "
                    "check is written for sunos5 without an X display): only arrow keys will be pressed, and only "
                    "while the board looks as calibrated"]
    assert keyboard.moves == [Move.UP]


def test_unknown_focus_with_letter_move_keys_names_them():
    guard, _, said = guard_on(unknown_watch(), keys="wasd")
    guard.focus()
    assert len(said) == 1 and "only the move keys (w a s d) will be pressed" in said[0]


def test_unknown_focus_refuses_a_win_message_key_but_not_a_move_key_for_any_key():
    guard, keyboard, _ = guard_on(unknown_watch(), state=BoardState.WON)
    with pytest.raises(StopPlaying, match="asks for Enter, but this desktop does not tell .* no key was pressed"):
        guard.dismiss("enter")
    with pytest.raises(StopPlaying, match="asks for C,"):
        guard.dismiss("c")
    assert not any(isinstance(e, Dismiss) for e in keyboard.events)
    guard.dismiss(Move.LEFT)  # "press any key": the move's own key
    assert keyboard.events[-1] == Press(Move.LEFT)


def test_a_known_focus_says_nothing_and_lets_the_win_message_key_through():
    guard, keyboard, said = guard_on(FocusWatch(BOARD, ScriptedBackend()), state=BoardState.WON)
    guard.focus()
    guard.dismiss("enter")
    assert said == [] and keyboard.events[-1] == Dismiss("enter")


def test_a_moved_board_is_watched_in_mouse_points():
    watch = FocusWatch(BOARD, ScriptedBackend())
    guard, _, _ = guard_on(watch)
    cells = tuple(Rect(200 + c * 100, 200 + r * 100, 90, 90) for r in range(4) for c in range(4))
    guard.board_moved(BoardGeometry(Rect(200, 200, 400, 400), cells, 2.0))
    assert watch.board_rect == Rect(100, 100, 200, 200)


def play_with(watch, monkeypatch, text, **where):
    clock = VirtualClock()
    screen = SimulatedScreen(clock, start=START)
    screen.win_delay_looks = 0
    win_message_at(screen, 2048, **where)
    message(monkeypatch, screen, text)
    said = []
    player = Player(screen, screen.keyboard, PlaySettings(max_moves=8), agent=FirstLegalAgent(), clock=clock,
                    focus_watch=watch, say=said.append)
    return player.play(), screen, said


def test_play_with_unknown_focus_stops_at_a_message_that_asks_for_enter_with_no_key_pressed(monkeypatch):
    summary, screen, said = play_with(unknown_watch(), monkeypatch, "Press Enter to keep going", dismiss_key="enter")
    assert not summary.ok and "asks for Enter" in summary.reason and "no key was pressed" in summary.reason
    assert screen.keyboard.dismissed == [] and screen.won_overlay
    assert len([line for line in said if "does not tell which window" in line]) == 1


def test_play_with_unknown_focus_goes_on_past_any_key_with_the_move_key(monkeypatch):
    summary, screen, said = play_with(unknown_watch(), monkeypatch, "Press any key to continue", any_key=True)
    assert summary.ok and summary.moves == 8, summary.reason
    assert screen.keyboard.dismissed == [] and screen.keep_going_clicks == 1


def test_play_with_a_focus_that_stays_dismisses_enter(monkeypatch):
    summary, screen, said = play_with(FocusWatch(BOARD, ScriptedBackend()), monkeypatch, "Press Enter to keep going",
                                      dismiss_key="enter")
    assert summary.ok and summary.moves == 8, summary.reason
    assert screen.keyboard.dismissed == ["enter"] and not any("does not tell" in line for line in said)
