"""`screenbot practice`: serve the built-in 2048 practice board on 127.0.0.1 and open it in the browser."""

from __future__ import annotations

import argparse
import signal
import threading
import webbrowser

from screenbot.errors import UsageError
from screenbot.game.sizes import CLASSIC, SUPPORTED, format_size, parse_size

THEMES = ("classic", "dark", "lines", "lines-light", "terminal")
KEY_SETS = ("arrows", "wasd", "hjkl")
DISMISS_STYLES = ("click", "key")


def win_option(text: str | None) -> tuple[int | None, bool]:
    """--win as page options: (win tile, keep). "never" is keep=1 (no win message)."""
    if text is None:
        return None, False
    if text.strip().lower() == "never":
        return None, True
    try:
        tile = int(text)
    except ValueError:
        tile = 0
    if tile < 4 or tile > 131072 or tile & (tile - 1):
        raise UsageError(f"--win must be a tile (4, 8, ... 131072) or 'never', got {text!r}")
    return tile, False


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "practice",
        help="serve the practice 2048 board (127.0.0.1 only) and open it in your browser",
        description="Serve the built-in 2048 practice board on 127.0.0.1, print its URL and open it in "
                    "your browser. The page reports every move; GET /state on the same server shows it.",
    )
    p.add_argument("--theme", choices=THEMES, default="classic", help="look of the board (default: classic)")
    p.add_argument("--seed", type=int, help="seed for the tiles (same games as screenbot's engine)")
    p.add_argument("--size", metavar="RxC",
                   help=f"the board's rows and columns, rows first: 4x6 is 4 rows of 6 (default 4x4; {SUPPORTED}). "
                        "The classic and lines looks keep the board's outer size and scale the cells; the "
                        "terminal keeps its characters and grows")
    p.add_argument("--px", type=int, help="the 4x4 board's width in CSS px (default 500): the scale of the whole "
                                          "page (any size's longer side is as long)")
    p.add_argument("--anim", type=float, help="animation duration multiplier (1 = classic, 0 = none)")
    p.add_argument("--marks", action="store_true", help="draw help text and a logo over the board")
    p.add_argument("--overhang", action="store_true", help="draw the tiles a little larger than their cells")
    p.add_argument("--keys", choices=KEY_SETS, help="only this key set moves the tiles (default: all)")
    p.add_argument("--win", metavar="TILE|never",
                   help="the tile that brings the win message (default 2048; 'never': no win message)")
    p.add_argument("--dismiss", choices=DISMISS_STYLES,
                   help="how the win message is dismissed: click (its buttons, the default) or key "
                        "(no buttons; it says 'Press Enter to keep going')")
    p.add_argument("--port", type=int, default=0, help="port to serve on (default: a free one)")
    p.add_argument("--no-open", action="store_true", help="do not open the browser; just serve")
    p.set_defaults(func=run)


def run(args: argparse.Namespace, stop: threading.Event | None = None) -> int:
    """Serve until Ctrl-C (or until `stop` is set, for tests)."""
    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port must be 0..65535, got {args.port}")
    if args.seed is not None and not 0 <= args.seed < 2**32:
        raise UsageError(f"--seed must be 0..4294967295, got {args.seed}")
    size = parse_size(args.size) if getattr(args, "size", None) is not None else CLASSIC
    px = getattr(args, "px", None)
    if px is not None and not 150 <= px <= 3000:
        raise UsageError(f"--px must be 150..3000 px, got {px}")
    if args.anim is not None and not 0 <= args.anim <= 20:
        raise UsageError(f"--anim must be 0..20, got {args.anim}")
    win, keep = win_option(getattr(args, "win", None))
    from screenbot.practice.server import PracticeServer

    if stop is None:
        stop = threading.Event()
        if threading.current_thread() is threading.main_thread():
            # `kill` stops it like Ctrl-C; set before the URL is printed (a caller may signal at once)
            signal.signal(signal.SIGTERM, lambda *_: stop.set())
    server = PracticeServer(args.port)
    server.start()
    try:
        url = server.url(theme=args.theme if args.theme != "classic" else None, seed=args.seed, size=px,
                         shape=None if size == CLASSIC else format_size(size), anim=args.anim,
                         marks=getattr(args, "marks", False) or None,
                         overhang=getattr(args, "overhang", False) or None, keys=getattr(args, "keys", None),
                         win=win, keep=keep or None, dismiss=getattr(args, "dismiss", None))
        print(f"practice board: {url}", flush=True)
        print(f"its state:      http://127.0.0.1:{server.port}/state   (Ctrl-C to stop)", flush=True)
        if not args.no_open:
            webbrowser.open(url)
        while not stop.wait(0.5):
            pass
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
    print("practice board stopped", flush=True)
    return 0
