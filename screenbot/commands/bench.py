"""`screenbot bench`: the agent plays seeded simulated games; prints tile-reach shares, scores and speed."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from screenbot.agent.limits import DEEPEN_GAP_HELP, check_budget, check_deepen_gap, check_depth, check_depth_cap
from screenbot.agent.players import player_for, player_spec
from screenbot.commands.player_args import add_player_argument
from screenbot.errors import MissingExtraError, UsageError
from screenbot.game.sizes import CLASSIC, parse_size, tile_limit

if TYPE_CHECKING:
    from screenbot.bench.games import BenchSettings, Progress

PLOT_SUFFIXES = (".png", ".svg", ".pdf")


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "bench",
        help="play seeded simulated games with a player and report how far they get",
        description="Play N simulated games (game i with seed S+i) on the rules engine with a player "
                    "(play's unless --player says otherwise); report the share of games that reached each "
                    "tile from 2048 up, scores, moves and time per move.",
    )
    p.add_argument("--games", type=int, default=10, metavar="N", help="how many games (default 10)")
    p.add_argument("--seed", type=int, default=1, metavar="S", help="seed of the first game (default 1)")
    how = p.add_mutually_exclusive_group()
    how.add_argument("--budget-ms", type=float, metavar="B", help="thinking time per move (default: what `play` uses)")
    how.add_argument("--depth", metavar="D", help="fixed search depth per move, or 'adaptive' (nneonneo's rule)")
    p.add_argument("--depth-cap", metavar="D", help="cap the adaptive depth at D (default 6, what `play` uses; 40: nneonneo's rule uncapped; "
                   "'endgame': 6 until a 16384 is on the board, no cap after: stronger, too slow for live play)")
    p.add_argument("--deepen-gap", metavar="G", help=DEEPEN_GAP_HELP)
    add_player_argument(p)
    p.set_defaults(player=None)  # none named: the size's own (play's on 4x4)
    p.add_argument("--size", metavar="RxC", help="the board: rows x columns, 3x3 to 8x8 (default 4x4); other sizes "
                                                 "than 4x4 are played by their own player unless --player names one")
    p.add_argument("--workers", type=int, default=1, metavar="K", help="processes playing games at once (default 1)")
    p.add_argument("--threads", type=int, metavar="T",
                   help="search threads per game (default: the machine's search threads shared out among the "
                        "workers; play searches on all of them, and a search bounded by time goes deeper on more)")
    p.add_argument("--keep-games", metavar="DIR",
                   help="keep each game's result in DIR (seed_S.json) as soon as it ends, and play only the seeds "
                        "not kept there yet: a run stopped half-way goes on where it stopped; the summary is over "
                        "all the run's seeds")
    p.add_argument("--stop-at", type=int, metavar="TILE", help="end a game once this tile appears (a power of two)")
    p.add_argument("--json", metavar="FILE", help="also write the results as one JSON object")
    p.add_argument("--plot", metavar="FILE.png", help="draw the tile-reach bars into this picture")
    p.set_defaults(func=run)


def _check_output(path: str | None, flag: str) -> None:
    if path is None:
        return
    parent = Path(path).expanduser().resolve().parent
    if not parent.is_dir():
        raise UsageError(f"{flag} {path}: the folder {parent} does not exist")


def _check_plotting(path: str | None) -> None:
    """--plot draws with matplotlib, an optional part: say how to install it before any game is played."""
    if path is None:
        return
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise MissingExtraError("--plot needs matplotlib, which is not installed: "
                                "pip install 'screenbot[plot]'") from None


def settings_from_args(args: argparse.Namespace) -> BenchSettings:
    from screenbot.bench.games import BenchSettings

    if args.games < 1:
        raise UsageError(f"--games must be at least 1, got {args.games}")
    if args.workers < 1:
        raise UsageError(f"--workers must be at least 1, got {args.workers}")
    if args.threads is not None and args.threads < 1:
        raise UsageError(f"--threads must be at least 1, got {args.threads}")
    if args.budget_ms is not None and args.depth is not None:
        raise UsageError("give --budget-ms or --depth, not both")
    shape = CLASSIC if args.size is None else parse_size(args.size)
    if args.stop_at is not None:
        tile, most = args.stop_at, tile_limit(shape)
        if not (4 <= tile <= most and tile & (tile - 1) == 0):
            raise UsageError(f"--stop-at must be a power of two from 4 to {most}, got {tile}")
    if args.plot is not None and not args.plot.lower().endswith(PLOT_SUFFIXES):
        raise UsageError(f"--plot {args.plot}: the picture must end in {', '.join(PLOT_SUFFIXES)}")
    _check_output(args.json, "--json")
    _check_output(args.plot, "--plot")
    _check_plotting(args.plot)
    player = player_for(args.player, shape)  # none named: the size's own
    return BenchSettings(check_budget(args.budget_ms, "--budget-ms"), check_depth(args.depth, "--depth"), args.stop_at,
                         check_depth_cap(args.depth_cap, "--depth-cap"),
                         deepen_gap=check_deepen_gap(args.deepen_gap, "--deepen-gap"), player=player, shape=shape)


class _ProgressView:
    """A rich progress bar on a terminal; one line per finished game otherwise (logs, or rich not installed)."""

    def __init__(self, games: int, describe: str) -> None:
        try:
            from rich.console import Console
        except ImportError:  # rich comes with the optional `progress` extra
            Console = None

        self.console = Console(stderr=True) if Console is not None else None
        self.games = games
        self.done = 0
        self.moves: dict[int, int] = {}
        self.tiles: dict[int, int] = {}
        self.started = time.perf_counter()
        self.bar = None
        self.describe = describe
        if self.console is not None and self.console.is_terminal:
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

            self.bar = Progress(
                TextColumn("games"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                TextColumn("{task.fields[status]}"), console=self.console,
            )
            self.task = self.bar.add_task("bench", total=games, status="")
        else:
            print(f"bench: {games} games, {describe}", file=sys.stderr, flush=True)

    def __enter__(self) -> "_ProgressView":
        if self.bar:
            self.bar.start()
        return self

    def __exit__(self, *exc) -> None:
        if self.bar:
            self.bar.stop()

    def __call__(self, event: Progress) -> None:
        self.moves[event.index] = event.moves
        self.tiles[event.index] = event.max_tile
        if event.done:
            self.done += 1
            if not self.bar:
                print(f"game {event.index + 1}/{self.games}: max tile {event.max_tile}, score {event.score:,}, "
                      f"{event.moves} moves", file=sys.stderr, flush=True)
        if self.bar:
            seconds = max(time.perf_counter() - self.started, 1e-9)
            total = sum(self.moves.values())
            status = f"{total:,} moves, {total / seconds:.0f} moves/s, best tile {max(self.tiles.values())}"
            self.bar.update(self.task, completed=self.done, status=status)


def format_summary(summary: dict) -> str:
    s = summary["settings"]
    lines = [f"{summary['games']} games from seed {summary['seed']}, {_how(s)}"]
    lines.append("reached: " + "  ".join(f"{tile} {100 * share:.0f}%" for tile, share in summary["reached"].items()))
    lines.append(f"score: mean {summary['mean_score']:,.0f}, median {summary['median_score']:,.0f}")
    lines.append(f"moves: mean {summary['moves_mean']:,.0f}, median {summary['moves_median']:,.0f}, "
                 f"total {summary['moves_total']:,}")
    lines.append(f"time per move: median {summary['ms_per_move_median']:.1f} ms, p95 {summary['ms_per_move_p95']:.1f} ms; "
                 f"{summary['moves_per_s']:.1f} moves/s per process "
                 f"({summary['moves_per_s_all_workers']:.1f} with all workers, {summary['elapsed_s']:.0f} s)")
    lines += _depth_line(summary.get("depths"))
    return "\n".join(lines)


def _depth_line(depths: dict | None) -> list[str]:
    """How deep the moves were searched, as one line (none for results that did not keep it)."""
    if not depths:
        return []
    total = sum(depths.values())
    return ["search depth of the moves: " + ", ".join(f"{d}: {100 * n / total:.1f}%" for d, n in depths.items())]


def _how(settings: dict) -> str:
    """How the games were played, as the summaries' first line says it."""
    from screenbot.bench.games import BenchSettings

    threads = settings.get("threads")
    each = f", {threads} search thread(s) each" if threads is not None else ""
    return f"{BenchSettings.from_summary(settings).describe()}, {settings['workers']} worker(s){each}"


def format_merged(merged: dict) -> str:
    """A merged summary (`merge_summaries`): games per tile, scores, and the games' time per move."""
    counts = "  ".join(f"{t} {merged['reached_games'][t]}/{merged['games']}" for t in merged["reached"])
    lines = [f"{merged['games']} games ({_how(merged['settings'])})", f"reached: {counts}",
             f"score: mean {merged['mean_score']:,.0f}, median {merged['median_score']:,.0f}; "
             f"moves: mean {merged['moves_mean']:,.0f}, total {merged['moves_total']:,}"]
    if merged["ms_per_move_median_of_games"] is not None:
        lo, hi = merged["ms_per_move_median_range"]
        plo, phi = merged["ms_per_move_p95_range"]
        lines.append(f"time per move: median {merged['ms_per_move_median_of_games']:.1f} ms (games {lo:.1f}-{hi:.1f}), "
                     f"p95 {merged['ms_per_move_p95_median_of_games']:.1f} ms (games {plo:.1f}-{phi:.1f}), "
                     "the median of the games' own figures")
    lines += _depth_line(merged.get("depths"))
    return "\n".join(lines)


def _kept(folder: Path, seeds: list[int], settings: dict) -> dict[int, dict]:
    """The games already kept in `folder` for these seeds (seed -> its one-game summary); a file that is
    not one, or that was played another way, is an error rather than a game played twice or mixed in."""
    from screenbot.bench.summary import same_settings

    kept = {}
    for seed in seeds:
        path = folder / f"seed_{seed}.json"
        if not path.exists():
            continue
        try:
            summary = json.loads(path.read_text())
            games = [g["seed"] for g in summary["per_game"]]
            theirs = summary["settings"]
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise UsageError(f"--keep-games: {path} is not a kept bench game ({exc}); move it away to play that seed again") from None
        if games != [seed]:
            raise UsageError(f"--keep-games: {path} holds the games of seeds {games}, not seed {seed} alone")
        if not same_settings(theirs, settings):
            raise UsageError(f"--keep-games: {path} was played another way ({_how(theirs)}); "
                             "keep this run's games in another folder")
        kept[seed] = summary
    return kept


def _write_json(path: Path, data: dict) -> None:
    """Write whole or not at all (a run stopped while writing leaves no half file to trip over)."""
    part = path.with_name(path.name + ".part")
    part.write_text(json.dumps(data, indent=1) + "\n")
    part.replace(path)


def run(args: argparse.Namespace) -> int:
    from screenbot.bench.games import bench_threads, run_games
    from screenbot.bench.summary import merge_summaries, summarize, summary_settings
    from screenbot.bench.plot import plot_reach

    settings = settings_from_args(args)
    seeds = list(range(args.seed, args.seed + args.games))
    threads = args.threads or bench_threads(args.workers, args.games)
    folder = kept = None
    if args.keep_games:
        folder = Path(args.keep_games).expanduser()
        if folder.exists() and not folder.is_dir():
            raise UsageError(f"--keep-games {args.keep_games}: not a folder")
        # what each kept game's settings must be: as this run writes them
        kept = _kept(folder, seeds, summary_settings(settings, args.workers, threads))
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise UsageError(f"--keep-games {args.keep_games}: cannot make the folder ({exc.strerror})") from None
    todo = [seed for seed in seeds if not kept or seed not in kept]
    tables = None
    if todo and player_spec(settings.player).tables:  # built here once, with a progress bar
        from screenbot.commands.corner_tables import ensure_corner_tables

        # one process: its games play on these; several: each worker loads the file
        tables = ensure_corner_tables(load=args.workers <= 1 or len(todo) == 1)
    if kept:
        print(f"bench: {len(kept)} of the {len(seeds)} games are kept in {folder} already; "
              f"playing the other {len(todo)}", file=sys.stderr, flush=True)

    def keep(result) -> None:
        _write_json(folder / f"seed_{result.seed}.json",
                    summarize([result], settings, result.seed, args.workers, result.seconds, threads))

    started = time.perf_counter()
    results = []
    if todo:
        with _ProgressView(len(todo), settings.describe()) as view:
            results = run_games(todo, settings, args.workers, view, on_result=keep if folder else None, threads=threads,
                                tables=tables)
    if folder is None:
        summary = summarize(results, settings, args.seed, args.workers, time.perf_counter() - started, threads)
        print(format_summary(summary))
    else:
        summary = merge_summaries([json.loads((folder / f"seed_{seed}.json").read_text()) for seed in seeds])
        print(format_merged(summary))
    if args.json:
        Path(args.json).expanduser().write_text(json.dumps(summary, indent=1) + "\n")
    if args.plot:
        plot_reach(summary, str(Path(args.plot).expanduser()))
    return 0
