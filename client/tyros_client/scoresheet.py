"""Score sheets: the running one (what each seat would score if the game ended now, from
public information), what moved points between two of them, and the final one as text."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tyros_protocol.cards import COLOUR_NAMES
from tyros_rules import score_game, state_from_view

from .words import letter

ORDINAL = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th"}


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
    ordinal = ORDINAL
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


_SHEETS: dict[int, tuple[dict[str, Any], dict[str, Any]]] = {}


def running_sheet(view: dict[str, Any]) -> dict[str, Any] | None:
    """The score sheet if the game ended now, from public information only (the engine's
    own scoring, on a state rebuilt from the view; the final sheet once the game is over);
    None if it cannot be told."""
    cached = _SHEETS.get(id(view))
    if cached is not None and cached[0] is view:
        return cached[1]
    try:
        sheet: dict[str, Any] = view.get("score") or score_game(state_from_view(view))
    except (KeyError, TypeError, ValueError, IndexError):
        return None
    _SHEETS.clear()  # one view at a time is on screen
    _SHEETS[id(view)] = (view, sheet)
    return sheet


def point_changes(
    before: dict[str, Any], after: dict[str, Any], actors: set[int], names: Sequence[str | None]
) -> str | None:
    """Why the points of seats that did not act moved between two running sheets, and by
    how much: a majority taken or tied, an empire's rank, ship spaces lost (None: they did
    not move).

    >>> def sheet(totals, green, ranks=(1, 2, 3, 4), ships=0):
    ...     return {
    ...         "empires": [{"colour": c, "rank": r} for c, r in
    ...                     zip(("orange", "yellow", "green", "violet"), ranks)],
    ...         "players": [{"seat": s, "total": t, "majority_bonus": ["green"] * (s in green),
    ...                      "empires": [{"colour": "orange", "ship_spaces": ships}]}
    ...                     for s, t in enumerate(totals)]}
    >>> point_changes(sheet([30, 20, 10], {0}), sheet([23, 20, 14], set()), {2}, ["A", "B", "C"])
    'C ties the green majority: A -7'
    >>> point_changes(sheet([30, 20, 10], set()), sheet([32, 18, 10], set(), (1, 3, 2, 4)),
    ...               {2}, ["A", "B", "C"])
    'green is 2nd now, yellow 3rd: A +2, B -2'
    >>> point_changes(sheet([30, 20, 10], set()), sheet([31, 20, 10], set()), {0}, "ABC") is None
    True
    """

    def who(seat: int) -> str:
        name = names[seat] if seat < len(names) else None
        said = letter(seat)
        return f"{said} {name}" if name and name != said else said

    moved = [
        (p["seat"], p["total"] - q["total"])
        for p, q in zip(after["players"], before["players"], strict=True)
        if p["total"] != q["total"] and p["seat"] not in actors
    ]
    if not moved:
        return None
    reasons = []
    holders = [
        {c: p["seat"] for p in sheet["players"] for c in p["majority_bonus"]}
        for sheet in (before, after)
    ]
    for colour in COLOUR_NAMES:
        was, now = holders[0].get(colour), holders[1].get(colour)
        if was == now:
            continue
        if now is None:
            tier = " and ".join(who(s) for s in sorted(actors)) or "a city"
            reasons.append(f"{tier} ties the {colour} majority")
        elif was is None:
            reasons.append(f"{who(now)} takes the {colour} majority")
        else:
            reasons.append(f"{who(now)} takes the {colour} majority from {who(was)}")
    ranks = [
        f"{e['colour']} {ORDINAL[e['rank']]}"
        for e, old in sorted(
            zip(after["empires"], before["empires"], strict=True), key=lambda pair: pair[0]["rank"]
        )
        if e["rank"] != old["rank"]
    ]
    if ranks:
        ranks[0] = ranks[0].replace(" ", " is ", 1) + " now"
        reasons.append(", ".join(ranks))
    for p, q in zip(after["players"], before["players"], strict=True):
        change = sum(e["ship_spaces"] for e in p["empires"]) - sum(
            e["ship_spaces"] for e in q["empires"]
        )
        if change and p["seat"] not in actors:
            how = "gains" if change > 0 else "loses"
            spaces = f"{abs(change)} ship space{'s' * (abs(change) > 1)}"
            reasons.append(f"{who(p['seat'])} {how} {spaces}")
    deltas = ", ".join(f"{who(seat)} {delta:+d}" for seat, delta in moved)
    return f"{'; '.join(reasons) or 'points move'}: {deltas}"
