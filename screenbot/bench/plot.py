"""The bench's picture: the share of games that reached each tile, beside the strongest published players."""

from __future__ import annotations

from screenbot.bench.games import BenchSettings


# The strongest published players' share of games reaching 16384 and 32768 (nneonneo/2048-ai's README;
# Jaskowski 2018; Guei et al. 2022; macroxue/2048-ai's README, whose depth-8 small-table row is the search
# research.macroxue.MacroxueAgent plays at fixed_depth=8, with tables like play's).
PUBLISHED = (
    ("nneonneo", {16384: 0.94, 32768: 0.36}),
    ("Jaśkowski 2018", {16384: 0.97, 32768: 0.69}),
    ("Guei et al. 2022", {16384: 0.988, 32768: 0.72}),
    ("macroxue, depth 6, small tables", {16384: 0.95, 32768: 0.68}),
    ("macroxue, depth 8, small tables", {16384: 0.968, 32768: 0.721}),  # its README, 1,000 games
    ("macroxue, depth 8, big tables", {16384: 0.987, 32768: 0.805}),
)


def plot_reach(summary: dict, path: str) -> None:
    """Bars of the share of games that reached each tile, with the published players' shares beside
    ours at the tiles they report (16384, 32768)."""
    import textwrap

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    tiles = [int(t) for t in summary["reached"]]
    ours = {int(t): 100 * v for t, v in summary["reached"].items()}
    compared = [t for t in tiles if any(t in shares for _, shares in PUBLISHED)]
    series = [("screenbot", ours)] + [(name, {t: 100 * v for t, v in shares.items()}) for name, shares in PUBLISHED]
    fig, ax = plt.subplots(figsize=(9, 4.8))
    width = 0.8 / (len(series) if compared else 1)
    colours = ["#edc22e", "#8f7a66", "#bbada0", "#f67c5f", "#f2b179", "#f59563", "#3c3a32"]
    for k, (name, shares) in enumerate(series):
        xs = [i + (k - (len(series) - 1) / 2) * width if t in compared else i
              for i, t in enumerate(tiles) if t in shares and (k == 0 or t in compared)]
        vals = [shares[t] for t in tiles if t in shares and (k == 0 or t in compared)]
        if not xs:
            continue
        bars = ax.bar(xs, vals, width if compared else 0.6, label=name, color=colours[k % len(colours)], edgecolor="#776e65")
        if k == 0:
            for bar, share in zip(bars, vals):
                ax.text(bar.get_x() + bar.get_width() / 2, share + 1, f"{share:.0f}%", ha="center", va="bottom", fontsize=8)
    ax.set_xticks(range(len(tiles)), [str(t) for t in tiles])
    ax.set_ylim(0, 135)
    ax.set_xlabel("tile")
    ax.set_ylabel("games that reached it (%)")
    if compared:
        ax.legend(fontsize=7, loc="upper center", ncol=3)
    settings = summary["settings"]
    how = BenchSettings.from_summary(settings).describe()
    title = (f"{summary['games']} games from seed {summary['seed']} ({how}); "
             f"median score {summary['median_score']:,.0f}")
    ax.set_title("\n".join(textwrap.wrap(title, 90)), fontsize=9)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
