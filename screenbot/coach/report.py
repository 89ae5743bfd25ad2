"""What a review writes: the JSON object, report.html (the worst moves drawn as boards) and loss.png."""

from __future__ import annotations

import html
import json
from pathlib import Path

from screenbot.coach.errors import ReviewError
from screenbot.coach.evaluate import BANDS, Judged
from screenbot.coach.review import Review
from screenbot.errors import MissingExtraError
from screenbot.game.rules import Grid, apply_move

REPORT_NAME, PLOT_NAME = "report.html", "loss.png"
WORST = 10

# The classic look (gabrielecirulli/2048 style/main.scss): background, digit colour
TILE_STYLE = {
    0: ("#cdc1b4", "#cdc1b4"), 2: ("#eee4da", "#776e65"), 4: ("#ede0c8", "#776e65"), 8: ("#f2b179", "#f9f6f2"),
    16: ("#f59563", "#f9f6f2"), 32: ("#f67c5f", "#f9f6f2"), 64: ("#f65e3b", "#f9f6f2"), 128: ("#edcf72", "#f9f6f2"),
    256: ("#edcc61", "#f9f6f2"), 512: ("#edc850", "#f9f6f2"), 1024: ("#edc53f", "#f9f6f2"),
    2048: ("#edc22e", "#f9f6f2"),
}
BIG_TILE_STYLE = ("#3c3a32", "#f9f6f2")
BAND_COLOUR = {"good": "#4caf50", "inaccuracy": "#f2c12e", "mistake": "#f08a24", "blunder": "#d0312d"}
ARROW = {"up": "↑", "down": "↓", "left": "←", "right": "→"}


def write_json(review: Review, path: str | Path) -> Path:
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(review.as_json(), indent=1) + "\n", encoding="utf-8")
    except OSError as exc:
        raise ReviewError(f"cannot write {path}: {exc.strerror or exc}") from None
    return path


def check_plotting() -> None:
    """--out draws loss.png with matplotlib, an optional part: say so before any work is done."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise MissingExtraError("--out draws loss.png with matplotlib, which is not installed: "
                                "pip install 'screenbot[plot]'") from None


def board_html(board: Grid, caption: str = "") -> str:
    cells = []
    for row in board:
        tds = []
        for v in row:
            bg, fg = TILE_STYLE.get(v, BIG_TILE_STYLE)
            size = "22px" if v < 128 else "18px" if v < 1024 else "14px" if v < 16384 else "11px"
            tds.append(f'<td style="background:{bg};color:{fg};font-size:{size}">{v if v else ""}</td>')
        cells.append("<tr>" + "".join(tds) + "</tr>")
    cap = f"<caption>{html.escape(caption)}</caption>" if caption else ""
    return f'<table class="board">{cap}{"".join(cells)}</table>'


def _percent(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.1f} %"


def worst_html(j: Judged) -> str:
    played, _ = apply_move(j.board, j.move)
    parts = [board_html(j.board, "the board"), board_html(played, f"after {ARROW[j.move.key]} {j.move.key} (played)")]
    if j.best is not None:
        better, _ = apply_move(j.board, j.best)
        parts.append(board_html(better, f"after {ARROW[j.best.key]} {j.best.key} (best)"))
    values = ", ".join(f"{m.key} {v:,.0f}" for m, v in sorted(j.values.items(), key=lambda mv: -mv[1]))
    return (
        f'<div class="move"><h3>move {j.i + 1}: {j.move.key}, best {j.best.key if j.best is not None else "–"} '
        f'<span class="band" style="background:{BAND_COLOUR[j.band]}">{j.band}</span> '
        f"loss {_percent(j.loss)}</h3>"
        f'<p class="where">{html.escape(j.at)} · expected values: {html.escape(values)}</p>'
        f'<div class="boards">{"".join(parts)}</div></div>'
    )


STYLE = """
body { font-family: sans-serif; margin: 2em; color: #333; max-width: 60em; }
table.summary td, table.summary th { padding: 2px 12px; text-align: left; }
table.board { border-collapse: separate; border-spacing: 4px; background: #bbada0; border-radius: 4px;
  display: inline-table; margin-right: 1.5em; }
table.board caption { caption-side: bottom; font-size: 12px; padding-top: 4px; }
table.board td { width: 44px; height: 44px; text-align: center; font-weight: bold; border-radius: 3px; }
.band { color: white; padding: 1px 8px; border-radius: 8px; font-size: 13px; }
.where { font-size: 12px; color: #777; }
.move { margin-bottom: 2em; }
"""


def report_html(review: Review, plot_name: str | None = PLOT_NAME) -> str:
    src = review.source
    bands = review.bands
    rows = [
        ("source", f"{src.get('kind', '')}: {src.get('path', '')}"),
        ("moves rebuilt", str(len(review.moves))),
        ("gaps", str(len(review.game.gaps))),
        ("accuracy (the agent's move played)", _percent(review.accuracy)),
    ]
    rows += [(f"{band}", str(bands[band])) for band in BANDS]
    summary = "".join(f"<tr><th>{html.escape(k)}</th><td>{html.escape(v)}</td></tr>" for k, v in rows)
    gaps = ""
    if review.game.gaps:
        items = "".join(
            f"<li>after move {g.moves_before}: {html.escape(g.before_at)} → {html.escape(g.after_at)}: "
            f"{html.escape(g.reason)}</li>" for g in review.game.gaps)
        gaps = f"<h2>Gaps</h2><p>Where the game could not be followed (no move is made up there):</p><ul>{items}</ul>"
    worst = review.worst(WORST)
    worst_part = "".join(worst_html(j) for j in worst) or "<p>No move lost anything against the agent.</p>"
    plot = f'<p><img src="{plot_name}" alt="loss along the game" width="800"></p>' if plot_name else ""
    bands = review.thresholds
    bands_text = (f"inaccuracy: loss ≥ {percent_band(bands.inaccuracy)}, mistake: ≥ {percent_band(bands.mistake)}, "
                  f"blunder: ≥ {percent_band(bands.blunder)} of the best move's expected value")
    return (
        "<!doctype html><html><head><meta charset='utf-8'><title>screenbot review</title>"
        f"<style>{STYLE}</style></head><body><h1>Game review</h1>"
        f'<table class="summary">{summary}</table><p class="where">{html.escape(bands_text)}</p>{plot}{gaps}'
        f"<h2>The {len(worst)} worst moves</h2>{worst_part}</body></html>\n"
    )


def percent_band(x: float) -> str:
    """A band's threshold as a percentage, to two decimals at most and no trailing zeros (4%, 0.5%, 0.75%)."""
    return f"{100 * x:.2f}".rstrip("0").rstrip(".") + "%"


def plot_loss(review: Review, path: str | Path) -> Path:
    """The loss of every move along the game, coloured by band, the thresholds and the gaps marked."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    path = Path(path)
    fig, ax = plt.subplots(figsize=(10, 3.6), dpi=100)
    try:
        xs = [j.i + 1 for j in review.moves]
        ys = [100 * j.loss for j in review.moves]
        colours = [BAND_COLOUR[j.band] for j in review.moves]
        if xs:
            ax.vlines(xs, 0, ys, colors=colours, linewidth=1.2)
            ax.scatter(xs, ys, c=colours, s=12, zorder=3)
        bands = review.thresholds
        for threshold, band in ((bands.inaccuracy, "inaccuracy"), (bands.mistake, "mistake"), (bands.blunder, "blunder")):
            ax.axhline(100 * threshold, color=BAND_COLOUR[band], linestyle=":", linewidth=1, label=band)
        for k, gap in enumerate(review.game.gaps):
            ax.axvline(gap.moves_before + 0.5, color="#888", linestyle="--", linewidth=1,
                       label="gap" if k == 0 else None)
        ax.set_xlabel("move")
        ax.set_ylabel("loss (% of the best move's value)")
        ax.set_xlim(0, max(xs, default=0) + 1)
        # most losses are a fraction of a percent and a lost game is 100 %: linear up to 1 %, then log
        ax.set_yscale("symlog", linthresh=1.0, linscale=1.5)
        ax.set_ylim(0, 100)
        ticks = [0, 0.25, 0.5, 0.75, 1, 2, 5, 15, 50, 100]
        ax.set_yticks(ticks)
        ax.set_yticklabels([f"{t:g}" for t in ticks])
        gaps = len(review.game.gaps)
        ax.set_title(f"{len(xs)} moves, accuracy {_percent(review.accuracy)}, {gaps} gap{'s' if gaps != 1 else ''}")
        ax.legend(loc="upper right", fontsize=8)
        fig.tight_layout()
        path.parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(path)
    except OSError as exc:
        raise ReviewError(f"cannot write {path}: {exc.strerror or exc}") from None
    finally:
        plt.close(fig)
    return path


def write_report(review: Review, folder: str | Path) -> tuple[Path, Path]:
    """report.html and loss.png in `folder`."""
    folder = Path(folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        plot = plot_loss(review, folder / PLOT_NAME)
        page = folder / REPORT_NAME
        page.write_text(report_html(review, PLOT_NAME), encoding="utf-8")
    except OSError as exc:
        raise ReviewError(f"cannot write the report to {folder}: {exc.strerror or exc}") from None
    return page, plot
