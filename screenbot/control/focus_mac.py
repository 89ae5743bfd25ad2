"""The focus guard's backend on macOS: the application that has the keyboard focus (accessibility API), and the windows on top over the board (Quartz's window list, through PyObjC)."""

from __future__ import annotations

from typing import Callable

from screenbot.control.focus import FocusUnknownError, WindowBackend, windows_at
from screenbot.geometry import Rect

# Window levels (CGWindowLevel.h): normal windows are 0, floating panels 3, modal panels 8; the
# Dock is 20, and the menu bar, menus, the cursor and the like sit higher. Those come and go over
# any window and are left out; so are the desktop's own levels below 0.
NORMAL_LEVEL = 0
DOCK_LEVEL = 20
AX_ERROR_NO_VALUE = -25212  # kAXErrorNoValue: no application has the focus (the login window, a switch)
AX_TIMEOUT_S = 1.0  # how long the accessibility API may wait for an answer (its own default is 6 s)


def _ax_focused_pid() -> Callable[[], int | None]:  # pragma: no cover - macOS only
    """The pid of the application with the keyboard focus, asked live of the accessibility API
    (the system-wide element's AXFocusedApplication). NSWorkspace's frontmostApplication is not
    used: it is updated by notifications on the main run loop, which a command-line process does
    not run, so it keeps answering the application that was in front when it was first asked."""
    import ctypes
    import ctypes.util

    ax = ctypes.cdll.LoadLibrary(ctypes.util.find_library("ApplicationServices") or "")
    cf = ctypes.cdll.LoadLibrary(ctypes.util.find_library("CoreFoundation") or "")
    ax.AXUIElementCreateSystemWide.restype = ctypes.c_void_p
    ax.AXUIElementSetMessagingTimeout.argtypes = [ctypes.c_void_p, ctypes.c_float]
    ax.AXUIElementCopyAttributeValue.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p)]
    ax.AXUIElementCopyAttributeValue.restype = ctypes.c_int32
    ax.AXUIElementGetPid.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_int32)]
    ax.AXUIElementGetPid.restype = ctypes.c_int32
    cf.CFStringCreateWithCString.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_uint32]
    cf.CFStringCreateWithCString.restype = ctypes.c_void_p
    cf.CFRelease.argtypes = [ctypes.c_void_p]
    system = ax.AXUIElementCreateSystemWide()
    ax.AXUIElementSetMessagingTimeout(system, AX_TIMEOUT_S)
    attribute = cf.CFStringCreateWithCString(None, b"AXFocusedApplication", 0x08000100)  # UTF-8

    def focused_pid() -> int | None:
        app = ctypes.c_void_p()
        error = ax.AXUIElementCopyAttributeValue(system, attribute, ctypes.byref(app))
        if error == AX_ERROR_NO_VALUE:
            return None
        if error:
            raise FocusUnknownError(f"the accessibility API answered error {error} (is Accessibility allowed "
                                    "for this terminal?)")
        pid = ctypes.c_int32()
        try:
            error = ax.AXUIElementGetPid(app, ctypes.byref(pid))
        finally:
            cf.CFRelease(app)
        if error:
            raise FocusUnknownError(f"the accessibility API answered error {error} for the focused application")
        return int(pid.value)

    return focused_pid


def _bounds(window) -> Rect:
    b = window["kCGWindowBounds"]
    return Rect(round(b["X"]), round(b["Y"]), round(b["Width"]), round(b["Height"]))


class MacBackend(WindowBackend):
    """The focus is an application (its pid): keys go to its key window. What shows over the board
    is, at each of nine points, the frontmost on-screen window there (CGWindowListCopyWindowInfo
    lists them front to back, bounds in points from the main display's top left), counting normal
    to modal-panel levels with some opacity.

    PyObjC's Quartz is imported here (pyobjc-framework-Quartz); `focused_pid` is for tests."""

    def __init__(self, focused_pid: Callable[[], int | None] | None = None) -> None:
        try:
            import Quartz
        except ImportError as exc:
            raise FocusUnknownError("PyObjC's Quartz is not installed (pip install pyobjc-framework-Quartz)") from exc
        self._quartz = Quartz
        if focused_pid is None:  # pragma: no cover - macOS only
            try:
                focused_pid = _ax_focused_pid()
            except (OSError, AttributeError) as exc:
                raise FocusUnknownError(f"the accessibility API cannot be loaded ({exc})") from exc
        self._focused_pid = focused_pid

    def focused(self) -> int | None:
        return self._focused_pid()

    def _windows(self) -> list[tuple[int, Rect]]:
        """On-screen windows that can cover the board, front to back: (window number, bounds)."""
        q = self._quartz
        listed = q.CGWindowListCopyWindowInfo(
            q.kCGWindowListOptionOnScreenOnly | q.kCGWindowListExcludeDesktopElements, q.kCGNullWindowID)
        if listed is None:
            raise FocusUnknownError("the window server gave no window list")
        found = []
        for window in listed:
            level = int(window.get("kCGWindowLayer", NORMAL_LEVEL))
            if not NORMAL_LEVEL <= level < DOCK_LEVEL or float(window.get("kCGWindowAlpha", 1.0)) <= 0:
                continue
            found.append((int(window["kCGWindowNumber"]), _bounds(window)))
        return found

    def top_windows(self, area: Rect) -> frozenset[int]:
        windows = self._windows()  # front to back: the first one holding a point shows there
        return windows_at(area, lambda p: next((number for number, bounds in windows if bounds.contains(p)), None))
