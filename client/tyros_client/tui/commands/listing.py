"""What the command table says to the player: the help (F1), every command with its key,
and the legal lines (F2), what may be done now with long families summed up."""

from __future__ import annotations

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


def help_lines(command: str = "") -> list[str]:
    """The help text: every command with its examples, or one command's."""
    name = ALIASES.get(command, command)
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
    lines = ["Commands (Tab completes; only what is legal now is offered; 'help move' shows one):"]
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
