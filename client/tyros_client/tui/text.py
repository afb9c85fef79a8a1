"""The score sheet as the terminal shows it: styled fragments for prompt-toolkit."""

from __future__ import annotations

from prompt_toolkit.formatted_text import StyleAndTextTuples
from tyros_protocol.views import ScoreSheet

from ..words import ORDINALS, Names, who


def score_sheet(
    score: ScoreSheet, names: Names, width: int = 78, *, final: bool = True
) -> StyleAndTextTuples:
    """The final score sheet as formatted text: per player and empire the cities (c), the
    ship-controlled spaces (s) and the points; the majority and all-four bonuses; the
    tie-break (points from the largest empire); the totals and the winner(s)."""
    empires = score.empires
    out: StyleAndTextTuples = [("class:sheet.head", "Empires   size  rank  a city  a ship\n")]
    for empire in sorted(empires, key=lambda e: e.rank):
        out.append((f"class:card.{empire.colour}", f"{empire.colour:<8}"))
        out.append(
            (
                "",
                f"  {empire.size:>4}  {ORDINALS.get(empire.rank, '?'):>4}"
                f"  {empire.city_points:>6}  {empire.ship_points:>6}\n",
            )
        )
    out.append(("", "\n"))
    # The total second: on a narrow screen the columns at the right are the ones cut.
    head = ["player", "total", *(e.colour for e in empires), "majority", "all 4", "tie-break"]
    rows = _sheet_rows(score, names, 12)
    if _sheet_width(head, rows) > width:  # every column must show (the tie-break decides ties)
        head = ["player", "total", *(e.colour[:6] for e in empires), "maj", "all4", "tie"]
        rows = _sheet_rows(score, names, 8)
    widths = [max(len(row[i]) for row in [head, *rows]) for i in range(len(head))]

    def line(row: list[str]) -> str:
        cells = [
            cell.ljust(width) if i == 0 else cell.rjust(width)
            for i, (cell, width) in enumerate(zip(row, widths, strict=True))
        ]
        return "  ".join(cells).rstrip() + "\n"

    out.append(("class:sheet.head", line(head)))
    winners = score.winners
    for player, row in zip(score.players, rows, strict=True):
        out.append(("class:sheet.winner" if player.seat in winners else "", line(row)))
    out.append(("", "\n"))
    label = "Winner" if len(winners) == 1 else "Shared win"
    if not final:
        label = "Leading" if len(winners) == 1 else "Leading together"
    text = " and ".join(who(s, names) for s in winners) or "nobody"
    out.append(("class:sheet.winner", f"{label}: {text}\n\n"))
    out.append(("class:dim", SHEET_LEGEND))
    return out


def _sheet_width(head: list[str], rows: list[list[str]]) -> int:
    widths = [max(len(row[i]) for row in [head, *rows]) for i in range(len(head))]
    return sum(widths) + 2 * (len(widths) - 1)


def _sheet_rows(score: ScoreSheet, names: Names, name_width: int) -> list[list[str]]:
    rows: list[list[str]] = []
    for player in score.players:
        row = [who(player.seat, names)[:name_width], str(player.total)]
        for empire in player.empires:
            row.append(f"{empire.cities}c {empire.ship_spaces}s {empire.points:>2}")
        majority = ",".join(c[0] for c in player.majority_bonus)
        row.append(f"{player.majority_points}" + (f" ({majority})" if majority else ""))
        row.append(str(player.all_four_bonus))
        row.append(str(player.largest_empire_points))
        rows.append(row)
    return rows


SHEET_LEGEND = (
    "Each empire column: the player's cities (c) and the spaces its ships hold\n"
    "alone (s) in it, then the points they score at its rank (see above).\n"
    "majority (or maj): points for the most cities in an empire (its letter).\n"
    "all 4 (or all4): the bonus of the first to have a city in all four empires.\n"
    "tie-break (or tie): points from the largest empire's spaces; it decides a tied\n"
    "total, and is not added to it. (Narrow screens show the short headings.)"
)
"""What every column of the score sheet means, printed under it."""
