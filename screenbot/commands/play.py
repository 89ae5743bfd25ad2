"""`screenbot play`: plays the game on the screen until it is over (or --max-moves, Ctrl-C, the fail-safe)."""

from __future__ import annotations

import sys
from pathlib import Path

from screenbot.agent.limits import DEEPEN_GAP_HELP, check_budget, check_deepen_gap, check_depth_cap
from screenbot.commands.ocr_args import add_tesseract_argument, need_tesseract
from screenbot.commands.player_args import add_player_argument, say
from screenbot.errors import UsageError


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "play",
        help="play the 2048 game on the screen",
        description="Focus the game with one click on the board, then look, think and press the move keys "
        "until the game is over. Move the mouse into a screen corner or press Ctrl-C to stop.",
    )
    p.add_argument("--profile", metavar="PATH", help="calibration profile (default: the saved one, or calibrate now)")
    p.add_argument("--max-moves", type=int, metavar="N", help="stop after N moves")
    p.add_argument("--budget-ms", type=float, metavar="B", help="thinking time per move (the agent's default if unset)")
    p.add_argument("--depth-cap", metavar="D",
                   help="search at most D layers deep (the agent's default if unset; lower is faster and weaker; 'endgame': "
                        "the default until a 16384 is on the board, no cap after: stronger, ~5.5 moves/s in the endgame)")
    p.add_argument("--deepen-gap", metavar="G", help=DEEPEN_GAP_HELP)
    add_player_argument(p)
    p.set_defaults(player=None)  # none named: the board's size's own (play's default on 4x4)
    add_tesseract_argument(p)
    p.add_argument("--log", metavar="FILE.jsonl", help="write one JSON line per move, then a summary line")
    p.add_argument("--record", metavar="DIR", help="keep the board frames, the log and the profile in DIR (for replay)")
    p.add_argument("--dry-run", action="store_true", help="read the board and say the move, press nothing")
    p.add_argument("--keys", choices=("auto", "arrows", "wasd", "hjkl", "wasd+enter"), default="auto",
                   help="the keys the game takes for up/left/down/right; wasd+enter: a letter, then Enter "
                        "(default auto: the arrow keys, and when the first move's arrow moves nothing, "
                        "w a s d, h j k l, then a letter and Enter on a terminal's text board)")
    p.set_defaults(func=run)


class TeeLog:
    """Writes each line to two logs (the --log file and the recording's own)."""

    def __init__(self, *logs) -> None:
        self.logs = logs

    def write(self, entry: dict) -> None:
        for log in self.logs:
            log.write(entry)

    def close(self) -> None:
        for log in self.logs:
            log.close()


def check_args(args) -> None:
    if args.max_moves is not None and args.max_moves < 0:
        raise UsageError("--max-moves must be 0 or more")
    check_budget(args.budget_ms, "--budget-ms")
    args.depth_cap = check_depth_cap(args.depth_cap, "--depth-cap")
    args.deepen_gap = check_deepen_gap(args.deepen_gap, "--deepen-gap")


def _open_or_probe(args, open_live):
    """The live parts; where there is no profile yet and the screen shows tiles with no board drawn round
    them, the board found first by arrow keys (as `calibrate --probe` does: play presses keys anyway)."""
    from screenbot.calibration import NoBoardError
    from screenbot.paths import default_profile_path

    try:
        return open_live(args.profile, dry_run=args.dry_run, keys=args.keys)
    except NoBoardError as exc:
        path = default_profile_path()
        if args.profile is not None or args.dry_run or path.is_file() or "--probe" not in str(exc):
            raise
    from screenbot.commands.calibrate import probe_live

    print("screenbot: no profile yet, and tiles with no board drawn round them: finding the board by arrow keys, "
          "as `screenbot calibrate --probe` does", file=sys.stderr)
    probe_live(path)
    print(f"screenbot: calibrated by keys, saved {path}", file=sys.stderr)
    return open_live(None, dry_run=args.dry_run, keys=args.keys)


def run(args) -> int:
    check_args(args)
    need_tesseract(args)  # before the board is searched: no game stops at its first big tile
    from screenbot.play.loop import PlaySettings, Player
    from screenbot.play.record import LOG_NAME, PROFILE_NAME, FrameRecorder, MoveLog, Recording
    from screenbot.play.live_parts import open_live
    from screenbot.play.status_line import StatusLine
    from screenbot.play.warm import QuickCorner

    parts = _open_or_probe(args, open_live)
    try:  # once the board is found: no board should fail at once while a build of the tables starts
        from screenbot.agent.players import make_player, player_for
        from screenbot.commands.player_args import player_from_args

        shape = parts.profile.shape
        if shape == (4, 4):
            args.player = player_for(args.player)
            agent = player_from_args(args, background=True, depth_cap=args.depth_cap, deepen_gap=args.deepen_gap)
        else:  # a board of another size: its own player (the 4x4 search's options do not apply)
            agent = make_player(player_for(args.player, shape), shape=shape)
    except BaseException:
        parts.close()
        raise
    log = recorder = None
    try:
        record_dir = Path(args.record) if args.record else None
        if record_dir is not None and not args.dry_run:
            recorder = FrameRecorder(record_dir)
            parts.profile.save(record_dir / PROFILE_NAME)
        log_path = args.log or (record_dir / LOG_NAME if record_dir is not None else None)
        if log_path is not None and not args.dry_run:
            log = MoveLog(log_path)
            if record_dir is not None and args.log:
                log = TeeLog(log, MoveLog(record_dir / LOG_NAME))  # the recording keeps its own copy
        status = StatusLine()
        settings = PlaySettings(max_moves=args.max_moves, budget_ms=args.budget_ms, depth_cap=args.depth_cap,
                                deepen_gap=args.deepen_gap, dry_run=args.dry_run)
        record = Recording(log, recorder, (record_dir / "stop") if record_dir is not None else None)
        # the search is made ready in a thread while the quick player moves (a first start compiles it)
        player = Player(parts.eyes, parts.keyboard, settings, agent, focus_watch=parts.focus_watch, record=record,
                        status=status, first_moves=QuickCorner() if parts.profile.shape == (4, 4) else None,
                        learn_keys=args.keys == "auto")
        summary = player.play()
        status.end()
    finally:
        if log is not None:
            log.close()
        if recorder is not None:
            recorder.close()
        parts.close()
    if args.dry_run and summary.ok and summary.advice:
        from screenbot.game.rules import format_board

        print(format_board(player.tracker.board))
        values = ", ".join(f"{k} {v:.4g}" for k, v in summary.advice["values"].items())
        print(f"move: {summary.advice['move']}" + (f"   ({values})" if values else ""))
        return 0
    print(summary.text())
    supply = getattr(agent, "later", None)  # a corner player's tables, taken or still to come
    if supply is not None:
        for note in supply.end_notes():
            say(note)
    if log_path is not None:
        print(f"log: {log_path}")
    if record_dir is not None:
        print(f"recording: {record_dir} (screenbot replay {record_dir})")
    try:
        parts.save_learned()
    except Exception as exc:  # the game is played: a profile that cannot be updated is only a warning
        print(f"screenbot: warning: {exc}", file=sys.stderr)
    return 0 if summary.ok else 1
