"""`screenbot calibrate`: find the 2048 board on screen (or in a screenshot), save a profile and a preview."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from screenbot.commands.ocr_args import add_tesseract_argument, need_tesseract
from screenbot.errors import UsageError
from screenbot.paths import default_profile_path


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "calibrate",
        help="find the 2048 board on screen and save a profile (+ a preview picture)",
        description="Find the 4x4 board on the live screen (every monitor) or in a screenshot by its "
                    "structure, save where it is and how to read it as a profile, and draw the found "
                    "grid over the screenshot as a preview PNG.",
    )
    p.add_argument("--image", metavar="PNG", help="calibrate on a saved screenshot instead of the live screen")
    p.add_argument("--monitor", type=int, metavar="N", help="look only at monitor N (1, 2, ...; 0 = all)")
    p.add_argument("--profile", metavar="PATH", help=f"where to save the profile (default: {default_profile_path()})")
    p.add_argument("--pick", type=int, metavar="N", help="when several boards are found, use number N (see the preview)")
    p.add_argument("--scale", type=float, metavar="F",
                   help="captured pixels per mouse point (default: measured on the live screen, 1.0 for --image)")
    p.add_argument("--preview", metavar="PNG", help="where to write the preview (default: beside the profile)")
    p.add_argument("--probe", action="store_true",
                   help="when the screen leaves a doubt (several boards, a look-alike): press ONE arrow key into "
                        "the board under the mouse pointer and keep it only if its tiles move as in 2048")
    add_tesseract_argument(p)
    p.set_defaults(func=run)


def preview_path_for(profile_path: Path) -> Path:
    return profile_path.with_name(profile_path.stem + "-preview.png")


def run(args: argparse.Namespace) -> int:
    from screenbot.board_source import still_grab
    from screenbot.calibration import ManyBoardsError, NoBoardError, Profile, calibrate, find_lattices, save_preview
    from screenbot.control.screen import Frame, MssScreen
    from screenbot.play.probe import ProbeError

    if args.probe and (args.image or args.pick is not None):
        raise UsageError("--probe presses a key on the live screen: it goes with neither --image nor --pick")
    if args.pick is not None and args.pick < 1:
        raise UsageError(f"--pick counts from 1, got {args.pick}")
    if args.scale is not None and not 0.25 <= args.scale <= 8:
        raise UsageError(f"--scale must be between 0.25 and 8, got {args.scale}")
    need_tesseract(args)  # the profile is for reading boards, whose big tiles need OCR: said now, not in a game
    profile_path = Path(args.profile) if args.profile else default_profile_path()
    preview = Path(args.preview) if args.preview else preview_path_for(profile_path)
    if args.image:
        if args.monitor not in (None, 0):
            raise UsageError("--monitor applies to the live screen, not to --image")
        frame = Frame.load(args.image)
        monitors = [frame.rect]
        scale = args.scale or 1.0
        source = f"image {args.image}"
    else:
        screen = MssScreen()
        try:
            monitors = screen.monitors()  # in captured pixels, as play grabs them (screenbot.control.monitors)
            index = 0 if args.monitor is None else args.monitor
            if not 0 <= index < len(monitors):
                raise UsageError(f"--monitor {index}: this screen has monitors 1..{len(monitors) - 1} (0 = all)")
            frame = still_grab(screen, monitors[index])
            scale = args.scale or screen.scale
            if screen.map.mixed and not args.scale:
                print(f"screenbot: warning: the monitors are captured at different scales {screen.map.scales[1:]}: "
                      f"a board off the primary monitor may be clicked in the wrong place (--scale F sets it)",
                      file=sys.stderr)
        finally:
            screen.close()
        source = f"screen monitor {args.monitor or 0}"
    search = find_lattices(frame.pixels)
    search.unscreened = True  # as calibrate() searching on its own: a board of another size must read
    try:
        if args.probe:
            try:
                profile: Profile = _probe(frame, monitors, scale, source, search)
            except ProbeError as exc:
                save_preview(preview, frame, search)
                raise ProbeError(f"{exc} (the screen before any key: {preview})") from None
        else:
            profile = calibrate(frame, pick=args.pick, monitors=monitors, scale=scale, source=source, search=search)
    except (NoBoardError, ManyBoardsError) as exc:
        save_preview(preview, frame, search)
        raise type(exc)(f"{exc} (preview: {preview})", *( [exc.candidates] if isinstance(exc, ManyBoardsError) else [])) from None
    from screenbot.vision.marks import learn_marks

    learn_marks(frame, profile)  # text or icons drawn over the board are part of its look
    saved = profile.save(profile_path)
    save_preview(preview, frame, search, chosen=args.pick or 1, profile=profile)
    b = profile.board_rect
    print(f"board: {b.w}x{b.h} px at ({b.x}, {b.y}) on monitor {profile.monitor}, theme {profile.theme}, "
          f"scale {profile.scale:g} px/pt")
    if profile.overlay_at_calibration:
        print(f"note: the board was under the '{profile.overlay_at_calibration}' overlay; the profile is still right")
    print(f"profile: {saved}")
    print(f"preview: {preview}")
    return 0


def probe_live(profile_path: Path) -> "Profile":
    """Tiles drawn alone on the live screen (no board round them), found by arrow keys as `calibrate
    --probe` finds them (every monitor); the profile saved at `profile_path`. Play does this where it has
    no profile yet and finds no board but such tiles: it is about to press keys into the game anyway."""
    from screenbot.board_source import still_grab
    from screenbot.calibration import find_lattices
    from screenbot.control.screen import MssScreen
    from screenbot.vision.marks import learn_marks

    screen = MssScreen()
    try:
        monitors = screen.monitors()
        frame = still_grab(screen, monitors[0])
        scale = screen.scale
    finally:
        screen.close()
    search = find_lattices(frame.pixels)
    search.unscreened = True
    profile = _probe(frame, monitors, scale, "screen monitor 0", search)
    learn_marks(frame, profile)
    profile.save(profile_path)
    return profile


def _probe(frame, monitors, scale: float, source: str, search):
    """Every board found (a doubt), then one key into the one under the pointer (see screenbot.play.probe)."""
    from functools import partial

    from screenbot.calibration import ManyBoardsError, calibrate
    from screenbot.control.desktop import check_desktop
    from screenbot.control.focus import FocusWatch
    from screenbot.control.keyboard import live_keyboard
    from screenbot.control.screen import MssScreen
    from screenbot.calibration import NoBoardError, calibrate_lattice
    from screenbot.calibration.bare import find_tiles
    from screenbot.play.probe import probe, probe_bare

    check_desktop()
    bare = False
    try:
        candidates = [calibrate(frame, monitors=monitors, scale=scale, source=source, search=search)]
    except ManyBoardsError as exc:
        candidates = [calibrate(frame, pick=i, monitors=monitors, scale=scale, source=source, search=search)
                      for i in range(1, len(exc.candidates) + 1)]
    except NoBoardError:
        if find_tiles(frame.pixels) is None:
            raise
        bare = True  # tiles with no board drawn round them: keys show where its cells are
    keyboard = live_keyboard()
    screen = MssScreen()
    watches = []

    def focus_watch_for(rect):
        watch = FocusWatch(rect.scaled(1.0 / scale))  # the watch takes mouse points
        watches.append(watch)
        return watch

    say = lambda line: print(line, file=sys.stderr)  # noqa: E731
    try:
        if bare:
            return probe_bare(frame, screen, keyboard, partial(calibrate_lattice, monitors=monitors, scale=scale, source=source),
                              scale, focus_watch_for, say=say)
        return probe(candidates, screen, keyboard, focus_watch_for, say=say)
    finally:
        keyboard.close()
        screen.close()
        for watch in watches:
            watch.close()
