"""What the command table says to the player: the help (F1), every command with its key,
and the legal lines (F2), what may be done now with long families summed up."""

from __future__ import annotations

from tyros_rules.constants import (
    BANK_DRAW_MAX,
    BANK_PICK_COST,
    BONUS,
    CARDS_DEALT,
    CITY_COST,
    CITY_POINTS,
    EXPANSION_PASSES,
    HAND_TILES,
    KEEP_CARDS,
    MAX_SEATS,
    SHIP_COST,
    SHIP_LIMIT,
    SHIP_POINTS,
    START_SHIPS_IN_TYROS,
)

from ...words import CARDS, cards_text, command_line, describe_action
from .lexicon import order, wilds
from .registry import ALIASES, COMMANDS, KEYED
from .spec import Action, Command, Context

CARDS_HELP = (
    "CARDS: card names or first letters, with counts, separated by commas or "
    f"spaces: 'green,wild', 'g w', '2g,w', 'green x2'. Colours: {', '.join(CARDS[:-1])}; "
    f"{CARDS[-1]}."
)


PLAYERS_HELP = "PLAYERS: letters or names, separated by commas: 'B', 'b,c', 'bob'."


RULES_TOPIC = "rules"
"""``help rules``: the game in a screen, for a player who has not read the rulebook."""


def rules_lines() -> list[str]:
    """How a game goes and how it is scored, in brief, with the rulebook's numbers."""
    dealt = ", ".join(f"{n} each with {p} players" for p, n in sorted(CARDS_DEALT.items()))
    first, later = EXPANSION_PASSES[MAX_SEATS]
    return [
        "How Tyros goes (in brief; the rulebook has it all):",
        f"Each player starts with {START_SHIPS_IN_TYROS} ships in Tyros (TY) and "
        f"{HAND_TILES} map tiles.",
        f"A round: cards are dealt ({dealt}). Each player plays a map tile on a space next "
        "to an empire, which grows by that space, and draws another tile (with 4 players "
        f"{first} tiles each in the first round, {later} later; with 3 always "
        f"{EXPANSION_PASSES[3][1]}). Then card actions in turn until everyone passes in a "
        f"row, and each keeps at most {KEEP_CARDS} cards. The game ends after the round in "
        "which someone plays their last tile.",
        "Card actions, one a turn (or pass); wilds count as any colour:",
        "  move: a ship along the sea links (~ on the map) to a space of an empire, one card "
        f"of that empire's colour a step; at most {SHIP_LIMIT} ships end in a space. Ending "
        "in another player's city costs you a card to them.",
        f"  city: where your ships stand alone, {CITY_COST[0]} cards of the space's colour "
        f"({CITY_COST[1]} with two of your ships there); one of the ships goes back.",
        f"  ship: a new one in a space of your city, {SHIP_COST[0]} card of its colour "
        f"({SHIP_COST[1]}, one of its colour, if a ship is there already); in Tyros "
        "until someone builds a city there, the ships there plus one, any colours.",
        f"  bank: discard 1-{BANK_DRAW_MAX} cards and draw as many, or {BANK_PICK_COST} for "
        "one card of your choice from the discards.",
        "  trade: offer cards to other players for theirs (one offer a turn); they accept, "
        "decline or counter; a trade done ends your turn.",
        "Scoring at the end: a space scores by its empire's size, largest first: a city "
        f"{' / '.join(map(str, CITY_POINTS))}, a space your ships alone hold (no city) "
        f"{' / '.join(map(str, SHIP_POINTS))}. Empires of one size rank "
        f"{', '.join(CARDS[:-1])}. Ships in a space with a city, or of two players, score nothing.",
        f"Bonuses: {BONUS} to the first with cities in all four empires, and {BONUS} for "
        "each empire where you alone have the most cities. A tie for the most points goes "
        "to the most points in the largest empire.",
    ]


def help_lines(command: str = "") -> list[str]:
    """The help text: every command with its examples, or one command's, or the rules
    (``help rules``)."""
    name = ALIASES.get(command, command)
    if name == RULES_TOPIC:
        return rules_lines()
    if name:
        info = COMMANDS.get(name)
        if info is None or info.hidden:
            return [f"no command {command!r}; type help for the list"]
        lines = [_usage(info), f"  {info.about}"]
        lines += [f"  e.g. {example}" for example in info.examples]
        if "CARDS" in info.usage:
            lines.append(CARDS_HELP)
        if "PLAYERS" in info.usage:
            lines.append(PLAYERS_HELP)
        return lines
    lines = [
        "Commands (Tab completes; only what is legal now is offered; 'help move' shows one; "
        "'help rules': how the game goes and is scored):"
    ]
    for info in (info for info in COMMANDS.values() if not info.hidden):
        lines.append(_usage(info))
        lines.append(f"    {info.about}")
        if info.examples:
            lines.append("    e.g. " + " | ".join(info.examples))
    lines += [
        CARDS_HELP,
        PLAYERS_HELP,
        "Spaces: numbers, TY or a name (tyros, creta); Italy's coasts are 16W and 16E.",
        "Map: * your tiles, ~ sea links, letters are players' ships (A: the first player ...), "
        "[A] / city A a city, $n the cost of a move, W/E Italy's two coasts.",
        "Table: cards and tiles in hand (! when the tiles were shown), supply: ships/cities "
        "left to build, pts: the score if the game ended now; Empires: size and #rank.",
        "Keys: Enter sends, Tab completes, "
        + ", ".join(f"{str(c.key).upper()} {c.name}" for c in KEYED)
        + ", PageUp/PageDown scroll (End: the newest lines), Esc closes a dialog, "
        "Ctrl-C quits.",
    ]
    return lines


def _usage(command: Command) -> str:
    """``legal   (F2)``: a command's usage, with its function key."""
    return f"{command.usage}   ({command.key.upper()})" if command.key else command.usage


def legal_lines(ctx: Context) -> list[str]:
    """What the player may do now, one line per action (long families summarised)."""
    if not ctx.legal:
        if ctx.seat is None:
            return [
                "you are watching: a spectator has nothing to play "
                "(say TEXT talks to the other spectators)"
            ]
        return ["nothing to do now: wait for your turn"]
    groups: dict[str, list[Action]] = {}
    for action in ctx.legal:
        groups.setdefault(str(action.get("kind")), []).append(action)
    lines: list[str] = []
    for kind, actions in groups.items():
        if kind == "move":
            pairs: dict[tuple[str, str], int] = {}
            for a in actions:
                key = (a["from"], a["to"])
                pairs[key] = min(pairs.get(key, 99), len(a["pay"]))
            lines.append(f"move ({len(pairs)} destination{'s' if len(pairs) != 1 else ''}):")
            lines += [
                f"  move {f} {t}   cost {c}"
                for (f, t), c in sorted(
                    pairs.items(), key=lambda item: (order(item[0][0]), order(item[0][1]))
                )
            ]
        elif kind in ("city", "ship"):
            spaces: dict[str, Action] = {}
            for a in sorted(actions, key=wilds):
                spaces.setdefault(a["space"], a)
            for space, a in spaces.items():
                lines.append(f"{kind} {space}   e.g. paying {cards_text(a['pay'])}")
        elif kind == "bank_draw":
            lines.append("bank CARDS   discard 1-3 cards, draw as many (bank 2, bank o,y)")
        elif kind == "bank_pick":
            takes = sorted({a["take"] for a in actions}, key=CARDS.index)
            lines.append(f"bank 3:1 COLOUR   discard 3, take one of: {', '.join(takes)}")
        elif kind == "propose":
            lines.append("trade GIVE for GET [to PLAYERS]   offer a trade (any cards)")
        elif kind == "keep":
            lines.append(
                f"keep CARDS   keep up to 3 of {cards_text(ctx.hand)} "
                f"({len(actions)} ways; 'keep' opens the dialog)"
            )
        else:
            lines += [f"{command_line(a)}   {describe_action(a, ctx.names)}" for a in actions]
    return lines
