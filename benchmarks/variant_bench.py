"""Whole seeded games of a research variant (research/), played as `screenbot bench` plays a player.

    python -m benchmarks.variant_bench --seeds 60001-60040 --corner-depth 8 --out runs/d8.jsonl [--part 1/2]
    python -m benchmarks.variant_bench --seeds 60001-60040 --corner-loss tile --out runs/loss_tile.jsonl
    python -m benchmarks.variant_bench --seeds 60001-60020 --endgame-tables --stop-at 16384 --out runs/tables.jsonl
    python -m benchmarks.merge_bench runs/d8.jsonl [--json d8.json --plot d8.png]

The variants: research.macroxue's knobs on play's corner player (`corner-v4`; `--no-tables`: `corner-eval`):
--corner-depth D (macroxue's search at depth D, without its pruning by pass score: --pass-score says so and
stops), --corner-loss tile, --big-min P; or --endgame-tables, the endgame tables' say over the plain
player's search (research.tables_agent). Each game ends as one line in `screenbot bench --json`'s shape,
its settings naming the player and, in words, the variant (BenchSettings' `variant`), so merge_bench
merges a run and never mixes in other games; a stopped run resumes (the seeds --out holds are skipped);
--part K/N plays every N-th seed only (one process per core). One search thread per game unless --threads.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from benchmarks.late_game import _mine, _seeds, append_line, command_line, read_lines

from research.macroxue import LOSS_RULES, PASS_SCORE, MacroxueAgent
from screenbot.bench.games import BenchSettings, play_game
from screenbot.bench.summary import summarize


def variant_agent(args) -> tuple[object, BenchSettings]:
    """The variant's agent and the settings its games are summed up under."""
    if args.endgame_tables:
        from research.tables_agent import TablesAgent
        from screenbot.agent.endgame import EndgameTables

        agent = TablesAgent(EndgameTables.load_or_build()[0], threads=args.threads)
        return agent, BenchSettings(stop_at=args.stop_at, player="plain",
                                    variant="the endgame tables' say over the search's move (research.tables_agent)")
    from screenbot.agent.corner import load_or_build
    from screenbot.agent.players import PLAY_SOLVE_BUDGET
    from screenbot.agent.search import DEFAULT_BUDGET_MS

    tables = None if args.no_tables else load_or_build()[0]  # play's, built first when missing (as bench does)
    agent = MacroxueAgent(tables, threads=args.threads, solve_budget=PLAY_SOLVE_BUDGET, fixed_depth=args.corner_depth,
                          loss=args.corner_loss, big_min=args.big_min)
    player = "corner-eval" if args.no_tables else "corner-v4"
    # macroxue's search is depth D within the default budget (what the agent searches when asked for D)
    how = {} if args.corner_depth is None else {"depth": args.corner_depth, "budget_ms": DEFAULT_BUDGET_MS}
    return agent, BenchSettings(stop_at=args.stop_at, player=player, variant=agent.variant, **how)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", required=True, help='seeds as ranges and single seeds, e.g. "60001-60040,60045"')
    parser.add_argument("--out", required=True, help="one bench summary per game is appended here")
    parser.add_argument("--part", default="1/1")
    parser.add_argument("--stop-at", type=int, default=32768)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--corner-depth", type=int, help="macroxue's search at this depth (research.macroxue)")
    parser.add_argument("--corner-loss", choices=LOSS_RULES, default="fixed",
                        help="where a lost board lies below the evaluation's 0 (research.macroxue.lost_value)")
    parser.add_argument("--big-min", type=float, help="play the big table only from this chance")
    parser.add_argument("--no-tables", action="store_true", help="the corner evaluation alone (corner-eval)")
    parser.add_argument("--endgame-tables", action="store_true",
                        help="the endgame tables' say over the plain player's search (research.tables_agent)")
    parser.add_argument("--pass-score", action="store_true",
                        help="macroxue's pruning by pass score: not reproduced (the script says so and stops)")
    args = parser.parse_args(argv)
    if args.pass_score:
        sys.exit(f"variant_bench: {PASS_SCORE}")
    corner_knobs = args.corner_depth is not None or args.corner_loss != "fixed" or args.big_min is not None
    if args.endgame_tables and (corner_knobs or args.no_tables):
        parser.error("--endgame-tables plays the plain player's search: no corner option goes with it")
    if args.no_tables and args.big_min is not None:
        parser.error("--big-min is a threshold of the tables: not with --no-tables")
    if not args.endgame_tables and not corner_knobs:
        parser.error("no variant given: `screenbot bench --player NAME` plays the players themselves")
    out = Path(args.out)
    done = {line["seed"] for line in read_lines(out)}
    agent, settings = variant_agent(args)
    agent.warm_up()
    try:
        for seed in _mine(_seeds(args.seeds), args.part):
            if seed in done:
                continue
            result = play_game(seed, settings, agent=agent)
            summary = summarize([result], settings, seed, 1, result.seconds, agent.threads)
            append_line(out, {**summary, "command": command_line()})
            print(f"seed {seed}: {result.max_tile} (score {result.score:,}, {result.moves:,} moves, "
                  f"{result.seconds:.0f} s)", flush=True)
    finally:
        agent.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
