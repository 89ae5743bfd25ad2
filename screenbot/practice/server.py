"""The practice server: serves the 2048 page on 127.0.0.1 and keeps the history the page reports."""

from __future__ import annotations

import copy
import errno
import json
import threading
import time
import urllib.parse
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Callable

from screenbot.errors import ScreenbotError
from screenbot.game.sizes import MAX_SIDE, MIN_SIDE

STATIC_DIR = Path(__file__).with_name("static")
STATIC_FILES = {
    "/index.html": ("index.html", "text/html; charset=utf-8"),
    "/style.css": ("style.css", "text/css; charset=utf-8"),
    "/game.js": ("game.js", "text/javascript; charset=utf-8"),
}
MAX_REPORT_BYTES = 1_000_000
CONTROL_WAIT_S = 20.0


class PortInUseError(ScreenbotError):
    """The port asked for is taken."""


class PracticeState:
    """What the page last reported, plus the boards of the current game, one per move.

    Thread-safe; `wait_for` blocks until a predicate on the state holds.
    """

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._page: str | None = None
        self._last_seq = 0
        self._seq = 0  # every accepted report, over the server's life
        self._current: dict[str, Any] | None = None
        self._start: list[list[int]] | None = None
        self._history: list[list[list[int]]] = []
        self._history_moves: list[str] = []
        self._history_scores: list[int] = []
        self._key_times: list[float | None] = []
        self._layout: dict[str, Any] | None = None
        self._events: list[str] = []
        self._pages = 0
        self._games = 0
        self._commands: list[dict[str, Any]] = []

    # ---- reports from the page ---------------------------------------------------------
    def report(self, data: dict[str, Any]) -> None:
        """Take one report. A new page or a new game starts a new history."""
        page = str(data.get("page", ""))
        seq = int(data.get("seq", 0))
        event = str(data.get("event", ""))
        with self._cond:
            if page != self._page:
                self._page = page
                self._last_seq = 0
                self._pages += 1
            elif seq <= self._last_seq:
                return  # stale or repeated
            self._last_seq = seq
            self._seq += 1
            if "layout" in data and isinstance(data["layout"], dict):
                self._layout = data["layout"]
            if event != "layout":
                if event == "start" or self._current is None or data.get("game") != self._current.get("game"):
                    self._start = data["board"]
                    self._history = []
                    self._history_moves = []
                    self._history_scores = []
                    self._key_times = []
                    self._games += 1
                elif event == "move":
                    self._history.append(data["board"])
                    self._history_moves.append(str(data.get("move")))
                    self._history_scores.append(int(data.get("score", 0)))
                    self._key_times.append(data.get("t_key"))
                self._current = {k: v for k, v in data.items() if k != "layout"}
                self._events.append(event)
                del self._events[:-50]
            self._cond.notify_all()

    def reset(self) -> None:
        """Forget the history (the next report from the page starts a new one)."""
        with self._cond:
            self._page = None
            self._current = None
            self._start = None
            self._history = []
            self._history_moves = []
            self._history_scores = []
            self._key_times = []
            self._layout = None
            self._cond.notify_all()

    # ---- reading ------------------------------------------------------------------------
    def snapshot(self, history: bool = True) -> dict[str, Any]:
        """The state as `GET /state` returns it (without the per-move lists if not `history`)."""
        with self._cond:
            return self._snapshot_locked(history)

    def layout(self) -> dict[str, Any] | None:
        """The page's last reported layout (CSS px rects, devicePixelRatio, window metrics)."""
        with self._cond:
            return copy.deepcopy(self._layout)

    def _snapshot_locked(self, history: bool = True) -> dict[str, Any]:
        cur = self._current or {}
        snap = {
            "ready": self._current is not None,
            "board": cur.get("board"),
            "score": cur.get("score", 0),
            "won": bool(cur.get("won", False)),
            "over": bool(cur.get("over", False)),
            "keep_going": bool(cur.get("keep_going", False)),
            "moves": cur.get("moves", 0),
            "keys": cur.get("keys", 0),
            "seed": cur.get("seed"),
            "game": cur.get("game"),
            "event": cur.get("event"),
            "last_move": cur.get("move"),
            "t_key": cur.get("t_key"),
            "t_report": cur.get("t_report"),
            "theme": cur.get("theme"),
            "anim": cur.get("anim"),
            "size": cur.get("size"),
            "shape": cur.get("shape") or ([len(cur["board"]), len(cur["board"][0])] if cur.get("board") else None),
            "marks": bool(cur.get("marks", False)),
            "overhang": bool(cur.get("overhang", False)),
            "key_set": cur.get("key_set"),
            "win": cur.get("win"),  # the tile that brings the win message (None: never, keep=1)
            "dismiss": cur.get("dismiss"),  # how the win message is dismissed: "click" or "key"
            "seq": self._seq,
            "page": self._page,
            "pages": self._pages,
            "games": self._games,
            "start": self._start,
            "history": self._history,
            "history_moves": self._history_moves,
            "history_scores": self._history_scores,
            "key_times": self._key_times,
            "layout": self._layout,
            "events": self._events[-20:],
        }
        if not history:
            for name in ("history", "history_moves", "history_scores", "key_times"):
                snap[name] = None
        return copy.deepcopy(snap)

    def wait_for(self, predicate: Callable[[dict[str, Any]], bool], timeout: float) -> dict[str, Any] | None:
        """Block until predicate(snapshot) holds; the full snapshot, or None after `timeout` seconds.

        The predicate sees a snapshot without the per-move lists (cheap on long games)."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                if predicate(self._snapshot_locked(history=False)):
                    return self._snapshot_locked()
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self._cond.wait(left)

    # ---- commands to the page (long poll) -------------------------------------------------
    def command(self, command: dict[str, Any]) -> None:
        """Queue a command for the page: {"navigate": "?query"}, {"restart": true}, {"report": true}."""
        with self._cond:
            self._commands.append(command)
            self._cond.notify_all()

    def next_command(self, timeout: float) -> dict[str, Any] | None:
        deadline = time.monotonic() + timeout
        with self._cond:
            while not self._commands:
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self._cond.wait(left)
            return self._commands.pop(0)


class _Handler(BaseHTTPRequestHandler):
    server: "PracticeServer"
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - http.server API
        pass  # quiet: the page reports after every key

    def _send(self, status: int, body: bytes = b"", content_type: str = "application/json") -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if body and self.command != "HEAD":
            self.wfile.write(body)

    def _send_json(self, obj: Any, status: int = HTTPStatus.OK) -> None:
        self._send(status, json.dumps(obj).encode())

    def do_GET(self) -> None:  # noqa: N802 - http.server API
        url = urllib.parse.urlsplit(self.path)
        path = "/index.html" if url.path == "/" else url.path
        if path in STATIC_FILES:
            name, ctype = STATIC_FILES[path]
            self._send(HTTPStatus.OK, (STATIC_DIR / name).read_bytes(), ctype)
        elif path == "/state":
            self._send_json(self.server.state.snapshot())
        elif path == "/control":
            command = self.server.state.next_command(self.server.control_wait_s)
            if command is None:
                self._send(HTTPStatus.NO_CONTENT)
            else:
                self._send_json(command)
        else:
            self._send_json({"error": f"no such path: {url.path}"}, HTTPStatus.NOT_FOUND)

    do_HEAD = do_GET

    def do_POST(self) -> None:  # noqa: N802 - http.server API
        path = urllib.parse.urlsplit(self.path).path
        length = int(self.headers.get("Content-Length") or 0)
        if length > MAX_REPORT_BYTES:
            self._send_json({"error": "report too large"}, HTTPStatus.REQUEST_ENTITY_TOO_LARGE)
            return
        raw = self.rfile.read(length) if length else b""
        if path == "/report":
            try:
                data = json.loads(raw or b"{}")
                if not isinstance(data, dict):
                    raise ValueError("a report is a JSON object")
                if data.get("event") != "layout":
                    _check_board(data.get("board"))
                self.server.state.report(data)
            except (ValueError, TypeError, KeyError) as exc:
                self._send_json({"error": f"bad report: {exc}"}, HTTPStatus.BAD_REQUEST)
                return
            self._send(HTTPStatus.NO_CONTENT)
        elif path == "/reset":
            self.server.state.reset()
            self._send(HTTPStatus.NO_CONTENT)
        else:
            self._send_json({"error": f"no such path: {path}"}, HTTPStatus.NOT_FOUND)


def _check_board(board: Any) -> None:
    """A reported board: 3 to 8 rows of the same number (3 to 8) of integers."""
    if not (isinstance(board, list) and MIN_SIDE <= len(board) <= MAX_SIDE and isinstance(board[0], list)
            and MIN_SIDE <= len(board[0]) <= MAX_SIDE
            and all(isinstance(row, list) and len(row) == len(board[0]) and all(isinstance(v, int) for v in row)
                    for row in board)):
        raise ValueError(f"board must be {MIN_SIDE} to {MAX_SIDE} rows of {MIN_SIDE} to {MAX_SIDE} integers each")


class PracticeServer(ThreadingHTTPServer):
    """A threaded HTTP server on 127.0.0.1 serving the page; `.state` holds what it reported."""

    daemon_threads = True
    allow_reuse_address = True  # rebinding past TIME_WAIT; a live listener still makes the port "taken"

    def __init__(self, port: int = 0, host: str = "127.0.0.1", control_wait_s: float = CONTROL_WAIT_S) -> None:
        self.state = PracticeState()
        self.control_wait_s = control_wait_s
        self._thread: threading.Thread | None = None
        try:
            super().__init__((host, port), _Handler)
        except OSError as exc:
            if exc.errno in (errno.EADDRINUSE, errno.EACCES):
                raise PortInUseError(
                    f"port {port} on {host} is taken ({exc.strerror}); choose another with --port or omit it"
                ) from None
            raise ScreenbotError(f"cannot serve on {host}:{port}: {exc.strerror or exc}") from None

    @property
    def port(self) -> int:
        return int(self.server_address[1])

    def url(self, **options: Any) -> str:
        """The page's URL with URL options (None values left out)."""
        query = urllib.parse.urlencode({k: _option_text(v) for k, v in options.items() if v is not None})
        return f"http://127.0.0.1:{self.port}/" + (f"?{query}" if query else "")

    def start(self) -> "PracticeServer":
        """Serve in a background thread."""
        self._thread = threading.Thread(target=self.serve_forever, kwargs={"poll_interval": 0.05},
                                        name="practice-server", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._thread is not None:
            self.shutdown()
            self._thread.join(timeout=5)
            self._thread = None
        self.server_close()

    def __enter__(self) -> "PracticeServer":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _option_text(value: Any) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, (list, tuple)):  # a board: rows or rows x columns values
        flat = [v for row in value for v in (row if isinstance(row, (list, tuple)) else [row])]
        return ",".join(str(int(v)) for v in flat)
    return str(value)
