"""The final score sheet as text: per player and empire, bonuses, totals, winners."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def format_score_sheet(score: dict[str, Any], names: Sequence[str | None]) -> str:
    """A plain-text score sheet.

    >>> sheet = {
    ...     "empires": [{"colour": c, "size": s, "rank": r, "city_points": 0, "ship_points": 0}
    ...                 for c, s, r in (("orange", 5, 2), ("yellow", 7, 1),
    ...                                 ("green", 3, 3), ("violet", 1, 4))],
    ...     "players": [{"seat": 0, "total": 22, "majority_points": 7, "all_four_bonus": 0,
    ...                  "majority_bonus": ["yellow"], "largest_empire_points": 12,
    ...                  "empires": [{"colour": c, "cities": int(c == "yellow"),
    ...                               "ship_spaces": 0, "points": 12 if c == "yellow" else 0}
    ...                              for c in ("orange", "yellow", "green", "violet")]}],
    ...     "winners": [0]}
    >>> print(format_score_sheet(sheet, ["Ann"]))  # doctest: +NORMALIZE_WHITESPACE
    Empires: yellow 7 (1st), orange 5 (2nd), green 3 (3rd), violet 1 (4th)
    player  orange  yellow  green  violet  majority  all-four  total
    Ann     -       1c 12   -      -       7         -         22
    Winner: Ann
    """
    ordinal = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th"}
    empires = sorted(score["empires"], key=lambda e: e["rank"])
    lines = [
        "Empires: "
        + ", ".join(f"{e['colour']} {e['size']} ({ordinal[e['rank']]})" for e in empires)
    ]
    colours = [e["colour"] for e in score["empires"]]

    def who(seat: int) -> str:
        name = names[seat] if seat < len(names) else None
        return name or f"seat {seat}"

    rows = [["player", *colours, "majority", "all-four", "total"]]
    for player in score["players"]:
        cells = [who(player["seat"])]
        for empire in player["empires"]:
            parts = []
            if empire["cities"]:
                parts.append(f"{empire['cities']}c")
            if empire["ship_spaces"]:
                parts.append(f"{empire['ship_spaces']}s")
            cells.append(f"{'+'.join(parts)} {empire['points']}" if parts else "-")
        cells.append(str(player["majority_points"]) if player["majority_points"] else "-")
        cells.append(str(player["all_four_bonus"]) if player["all_four_bonus"] else "-")
        cells.append(str(player["total"]))
        rows.append(cells)
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        lines.append(
            "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
        )
    winners = [who(seat) for seat in score["winners"]]
    label = "Winner" if len(winners) == 1 else "Shared win"
    lines.append(f"{label}: {', '.join(winners)}")
    return "\n".join(lines)
