"""The Ratings page (``results/ratings.md``), made at build time from the ladder files zerosum ships.

Per game: a plot of Elo against cost (nodes or simulations a move, and the time a move measured
where the ladder was built), one line per agent family; the rungs with their intervals; the pair
table; how the ladder was built and the command that rebuilds it. Then the placements of
``docs/results/placements.json`` (each with the command that measured it), as a method x game table.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import mkdocs_gen_files
from matplotlib.ticker import FuncFormatter, NullFormatter

from zerosum.evaluation.scale import Ladder, families, ladder, shipped

PLACEMENTS = Path(__file__).resolve().parents[1] / "results" / "placements.json"


def plot(lad: Ladder) -> bytes:
    """Elo against nodes a move and against seconds a move (log scales). Each family keeps one colour
    in both panels and one legend names them all; a family without a node count (random, noisy
    agents) is only on the right. Against nodes the rungs of a family are joined in ladder order;
    against seconds they are points, as a family's time a move need not grow with its strength."""
    fig, axes = plt.subplots(1, 2, figsize=(9.5, 3.6), sharey=True, layout="constrained")
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for i, (family, rungs) in enumerate(families(lad.rungs).items()):
        style = {"marker": "o", "capsize": 3, "color": colours[i % len(colours)]}
        for ax, key in zip(axes, ("nodes_per_move", "seconds_per_move")):
            pts = [(getattr(r, key), r) for r in rungs if getattr(r, key)]
            if not pts:
                continue
            ax.errorbar([x for x, _ in pts], [r.elo for _, r in pts],
                        yerr=[[r.elo - r.low for _, r in pts], [r.high - r.elo for _, r in pts]],
                        linestyle="-" if key == "nodes_per_move" else "none",
                        label=family if key == "seconds_per_move" else None, **style)
    axes[0].set_xlabel("nodes (or simulations) a move")
    axes[1].set_xlabel(f"seconds a move ({lad.built.get('machine', 'the build machine')})")
    axes[0].set_ylabel("Elo above random")
    for ax in axes:
        ax.set_xscale("log")
        ax.grid(alpha=0.3)
    axes[0].xaxis.set_major_formatter(FuncFormatter(lambda x, _: f"{x:,.0f}"))  # 1,000 rather than 10^3
    low, high = axes[0].get_xlim()
    axes[0].xaxis.set_minor_formatter(  # 20 and 50 too where the rungs span under two decades
        FuncFormatter(lambda x, _: f"{x:,.0f}" if f"{x:.0e}"[0] in "25" else "") if high < 100 * low
        else NullFormatter())
    axes[1].xaxis.set_minor_formatter(NullFormatter())  # decades only: 2x10^-3, 3x10^-3 ... crowd the axis
    handles, labels = axes[1].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside right center", fontsize=8, title="family", title_fontsize=8)
    fig.suptitle(f"{lad.game}: the ladder's rungs with 95% intervals (random is 0)", fontsize=10)
    out = io.BytesIO()
    fig.savefig(out, format="png", dpi=90)
    plt.close(fig)
    return out.getvalue()


def game_section(lad: Ladder) -> list[str]:
    """One game's part of the page."""
    b = lad.built
    with mkdocs_gen_files.open(f"results/img/ratings_{lad.game}.png", "wb") as f:
        f.write(plot(lad))
    # play_seconds (every game's time added up) is kept across a resumed or refitted build; seconds is
    # the last run's wall time, which for a refit is the fit alone
    took = (f"{b['play_seconds']:,.0f} s of play, the games' times added up" if b.get("play_seconds") is not None
            else f"in {b.get('seconds')} s")
    lines = [f"## {lad.game}", "", f"![{lad.game}: Elo against cost](img/ratings_{lad.game}.png)", "",
             f"`{lad.env}`, {len(lad.rungs)} rungs, top {lad.top.elo:.0f} Elo above random. Built {b.get('date')} "
             f"by zerosum {b.get('zerosum')} on {b.get('machine')} ({took}): "
             f"{lad.games_a_pair}; each rung against its {b.get('reach')} nearest neighbours "
             f"on each side, {b.get('opening_plies')}-ply paired openings, seats alternating, seed {b.get('seed')}. "
             f"Rebuild: `{b.get('command')}`.", "",
             "| rung | Elo | 95% interval | nodes a move | ms a move |", "|---|--:|--:|--:|--:|"]
    for r in lad.rungs:
        nodes = f"{r.nodes_per_move:,.0f}" if r.nodes_per_move is not None else "-"
        interval = "fixed" if r.low == r.high == r.elo else f"{r.low:.0f} to {r.high:.0f}"
        lines.append(f"| `{r.spec}` | {r.elo:.0f} | {interval} | {nodes} | {1000 * r.seconds_per_move:#.3g} |")
    # a folded block (pymdownx.details): Markdown inside a raw <details> tag is not rendered, its table showed as text
    lines += ["", '??? note "The pairs (a\'s wins, draws, losses against b)"', "",
              "    | a | b | games | W-D-L | a's score |", "    |---|---|--:|--:|--:|"]
    lines += [f"    | `{p.a}` | `{p.b}` | {p.games} | {p.wins}-{p.draws}-{p.losses} | {p.score:.3f} |"
              for p in lad.pairs]
    return [*lines, ""]


METHODS = ("default opponent", "PPO recipe", "AlphaZero zoo network, alone", "AlphaZero zoo network, 64 simulations")
"""The table's rows in this order; any other method after them, in the order of the file."""


def cell(text: str) -> str:
    """Text for a table cell: a pipe escaped, which would otherwise end the cell (in code spans too)."""
    return text.replace("|", "\\|")


def elo_cell(r: dict[str, Any]) -> str:
    """An Elo with its 95% interval, or where the placement ran off the ladder, which end."""
    if r.get("beyond") == "above":
        return f"above the top rung ({r['elo']:.0f})"
    if r.get("beyond") == "below":
        return "below random"
    low = "open" if r["low"] is None else f"{r['low']:.0f}"
    high = "open" if r["high"] is None else f"{r['high']:.0f}"
    return f"{r['elo']:.0f} ({low} to {high})"


def method_table(rows: list[dict[str, Any]]) -> list[str]:
    """Method x game: each cell the Elo (95% interval) of the rows of that method on that game. A row
    placed before rows carried a method stands for its agent spec."""
    games = list(dict.fromkeys(r["game"] for r in rows))
    method = [r.get("method") or f"`{r['agent']}`" for r in rows]
    methods = [m for m in METHODS if m in method] + [m for m in dict.fromkeys(method) if m not in METHODS]
    tops = {g: f"{ladder(g).top.elo:.0f}" if g in shipped() else "-" for g in games}
    lines = ["| method | " + " | ".join(games) + " |", "|---|" + "--:|" * len(games),
             "| *the ladder's top rung* | " + " | ".join(tops[g] for g in games) + " |"]
    for m in methods:
        cells = ["<br>".join(elo_cell(r) for r, rm in zip(rows, method) if rm == m and r["game"] == g) or "-"
                 for g in games]
        lines.append(f"| {m} | " + " | ".join(cells) + " |")
    return lines


def placements_section() -> list[str]:
    """The placements measured on the shipped ladders: a method x game table of Elo, then every
    placement with the command that measured it and, for a trained agent, the one that trained it."""
    if not PLACEMENTS.exists():
        return []
    rows = json.loads(PLACEMENTS.read_text())
    lines = ["## Placed on the ladders", "",
             "Agents placed with `zerosum evaluate SPEC --game GAME --ladder` (the rungs fixed, only the agent's "
             "Elo fitted, rounds against the rungs nearest a 0.5 score): each game's default opponent, the model "
             "zoo's AlphaZero networks, and the agents of the training recipes after the recipe's budget. "
             "Elo above random with its 95% interval; a method's cell is blank where it was not placed "
             "(or has no agent) on that game. *PPO recipe* is the recipe named after the game "
             "(`zerosum train --recipe GAME`); a row naming a recipe is that recipe's agent. The AlphaZero rows "
             "are the zoo's networks: each one's training "
             "command, in the table after this one, names the `az_*` recipe it came from, and its note says where "
             "the run departed from the recipe:", "", *method_table(rows), "",
             "Every placement, with the command that measured it and, for a trained agent, the command that "
             "trained it. The interval places the agent against the rungs as rated; the ladder's own +- where "
             "it landed is added by a comparison with another ladder. A time a move is this machine's "
             "(a time budget is not a fixed cost):", "",
             "| game | method | agent | Elo | 95% interval | the ladder's own +- there | s a move | games "
             "| placed by | trained by |",
             "|---|---|---|--:|--:|--:|--:|--:|---|---|"]
    for r in rows:
        high = "open" if r["high"] is None else f"{r['high']:.0f}"
        low = "open" if r["low"] is None else f"{r['low']:.0f}"
        trained = f"`{cell(r['trained'])}`" if r.get("trained") else "-"
        if r.get("trained_note"):
            trained += f" ({cell(r['trained_note'])})"
        lines.append(f"| {r['game']} | {r.get('method') or '-'} | `{cell(r['agent'])}` | {r['elo']:.0f} | "
                     f"{low} to {high} | {r.get('scale_half_width', 0):.0f} | {r['cost']['seconds']:.4f} | "
                     f"{r['games']} | `{cell(r['command'])}` | {trained} |")
    return [*lines, ""]


def ratings_page() -> None:
    """Write results/ratings.md and its plots."""
    games = shipped()
    page = ["# Ratings: one Elo scale per game", "",
            "Each game has a ladder of agents of fixed cost, from `random` (0 on every game) up, rated by a "
            "tournament between neighbouring rungs with a Bradley-Terry fit and 95% bootstrap intervals "
            "(`zerosum ladder show GAME` prints one). Place any policy on it with "
            "`zerosum evaluate SPEC --game GAME --ladder` or `zerosum.rate(policy, game)`; "
            "[Evaluate your own policy](../tutorials/evaluate-a-policy.md) shows how. "
            "`python bench/ladders.py` reports each ladder's calibration (the score predicted for rungs two or "
            "more apart against the score observed) and how long a placement takes.", "",
            f"Ladders in this release: {', '.join(games)}.", ""]
    page += placements_section()
    for name in games:
        page += game_section(ladder(name))
    with mkdocs_gen_files.open("results/ratings.md", "w") as f:
        f.write("\n".join(page))
