"""Every command, described once (:data:`COMMANDS`), and what derives from the table:
parsing a line, the help, the legal lines, the refusals' "now you can", the completions."""

from __future__ import annotations

import difflib
import json
from collections.abc import Callable, Sequence

from tyros_protocol.words import phase_during

from ...words import LETTERS, cards_short, cards_text, name_of
from .. import why as why_not
from . import own
from .board import (
    build_words,
    expand_words,
    move_words,
    parse_city,
    parse_expand,
    parse_move,
    parse_return,
    parse_ship,
)
from .lexicon import card_of, port_filter, port_matches, resolve_space, wilds
from .spec import (
    Act,
    Action,
    Command,
    CommandError,
    Context,
    Handler,
    Host,
    Local,
    NotNow,
    Outcome,
    Problem,
    Result,
    Say,
    Words,
)
from .trading import (
    bank_words,
    parse_answer_with,
    parse_bank,
    parse_complete,
    parse_counter,
    parse_give,
    parse_keep,
    parse_offer,
    parse_trade,
    trade_words,
)


def parse(line: str, ctx: Context) -> Result:
    """The result of one command line (see the package's docstring)."""
    words = line.strip().split(None, 1)
    if not words:
        return Problem("type a command (help lists them)")
    head = words[0].lower()
    rest = words[1] if len(words) > 1 else ""
    command = COMMANDS.get(ALIASES.get(head, head))
    if command is None:
        near = difflib.get_close_matches(head, [*COMMANDS, *ALIASES], n=1, cutoff=0.7)
        guess = f" (did you mean {ALIASES.get(near[0], near[0])}?)" if near else ""
        return Problem(f"unknown command {words[0]!r}{guess}; " + _now_hint(ctx))
    try:
        outcome = command.parse(rest, ctx)
    except CommandError as exc:
        return Problem(str(exc))
    if isinstance(outcome, NotNow):
        return _not_now(outcome.what, ctx, outcome.why, command.phase)
    return outcome


def _now_hint(ctx: Context) -> str:
    if not ctx.legal:
        waiting = why_not.turn_problem(ctx.view, ctx.seat, ctx.names)
        return waiting or "nothing is asked of you now (type help for the commands)"
    commands = []
    for action in ctx.legal:
        name = KIND_COMMAND.get(str(action.get("kind")), "")
        if name == "accept" and not action.get("accept"):
            name = "decline"
        if name and name not in commands:
            commands.append(name)
    return "now you can: " + ", ".join(commands)


def _not_now(what: str, ctx: Context, why: str | None, needed: str | None) -> Problem:
    """``what`` is not among the legal actions: say why (whose turn, what is in the way, the
    phase ``needed`` for it), then what the player can do instead."""
    waiting = None if ctx.legal else why_not.turn_problem(ctx.view, ctx.seat, ctx.names)
    if waiting is not None:
        return Problem(f"you cannot {what} now: {waiting}")
    first = why_not.request_problem(ctx.legal)
    if first is not None:  # (whatever else is in the way, this comes first)
        return Problem(f"you cannot {what} now: {first}")
    phase = None if ctx.view is None else ctx.view.phase
    if why is None and what == "offer a trade" and ctx.view is not None and ctx.view.trade_tried:
        why = "your trade offer fell through this turn (one offer a turn)"
    if why is None and needed is not None and phase is not None and phase != needed:
        why = f"that is for {phase_during(needed)}, and this is {phase_during(phase)}"
    reason = f": {why}" if why else ""
    return Problem(f"you cannot {what} now{reason}; " + _now_hint(ctx))


def parse_pass(rest: str, ctx: Context) -> Outcome:
    found = ctx.of_kind("pass")
    return Act(found[0]) if found else NotNow("pass")


def parse_withdraw(rest: str, ctx: Context) -> Outcome:
    found = ctx.of_kind("withdraw")
    return Act(found[0]) if found else Problem("you have no trade offer to withdraw")


REQUESTS = (
    ("answer", "_offer"),
    ("keep", "keep"),
    ("give_card", "give"),
    ("return_tile", "return"),
    ("complete", "complete"),
    ("withdraw", "complete"),
)
"""Legal kinds that are a request from the table, and the command whose choice shows it."""


def parse_answer(rest: str, ctx: Context) -> Outcome:
    """The dialog for whatever is asked of the player now."""
    for kind, command in (*REQUESTS, ("expand", "expand")):
        if ctx.of_kind(kind):
            return parse(command, ctx)
    return Problem("nothing is asked of you now: " + _now_hint(ctx))


def parse_act(rest: str, ctx: Context) -> Outcome:
    try:
        action = json.loads(rest)
    except ValueError as exc:
        raise CommandError(f"not JSON: {exc}") from exc
    if not isinstance(action, dict) or "kind" not in action:
        raise CommandError('an action is a JSON object with a "kind"')
    return Act(action)


def parse_say(rest: str, ctx: Context) -> Outcome:
    text = rest.strip()
    if not text:
        return Problem("say what? e.g. say two green for your violet?")
    if len(text) > SAY_LIMIT:
        return Problem(f"that is {len(text)} characters; the table hears {SAY_LIMIT} at most")
    return Say(text)


SAY_LIMIT = 300
"""Characters in one line of talk (the protocol's limit)."""


def local(name: str) -> Handler:
    def handler(rest: str, ctx: Context) -> Outcome:
        return Local(name, rest.strip().lower())

    return handler


def run_local(host: Host, command: Local) -> bool:
    """Do a client's own command as its entry says (``Command.run``); True when refused."""
    run = COMMANDS[command.command].run
    assert run is not None, command  # (every command parsing into Local has one: tested)
    return run(host, command.argument)


def completions(text: str, ctx: Context) -> list[tuple[str, int, str]]:
    """Candidates for the word being typed: (text, start position (<= 0), meta)."""
    ends_with_space = text.endswith(" ") or not text
    words = text.split()
    current = "" if ends_with_space else words[-1]
    done = words if ends_with_space else words[:-1]
    lowered = current.lower()
    seen: set[str] = set()
    out = []
    for word, meta in _candidates(done, ctx):
        if word.lower().startswith(lowered) and word not in seen:
            seen.add(word)
            out.append((word, -len(current), meta))
    return out


def _candidates(done: list[str], ctx: Context) -> Words:
    """Every word that may come after the words ``done``."""
    if not done:
        return _command_words(ctx)
    command = ALIASES.get(done[0].lower(), done[0].lower())
    args = done[1:]
    if command == "help":
        if args:
            return []
        topics = [(name, "") for name, c in COMMANDS.items() if not c.hidden]
        return [*topics, ("rules", "how the game goes and is scored")]
    lowered_args = [a.lower() for a in args]
    if "pay" in lowered_args:
        at = lowered_args.index("pay")
        if len(args) > at + 1:
            return []
        variants = sorted(_variants(command, args[:at], ctx), key=wilds)
        return [(cards_short(a["pay"]), cards_text(a["pay"])) for a in variants]
    found = COMMANDS.get(command)
    return found.words(args, ctx) if found is not None and found.words is not None else []


def _command_words(ctx: Context) -> Words:
    now = []
    for action in ctx.legal:
        name = KIND_COMMAND.get(str(action.get("kind")), "")
        if name == "accept" and not action.get("accept"):
            name = "decline"
        if name:
            now.append((name, COMMANDS[name].about[:40]))
    if ctx.of_kind("answer", "keep", "give_card", "return_tile", "complete"):
        now.append(("answer", "open the dialog"))
    return now + [(name, "") for name in ALWAYS]


def _set_words(args: list[str], ctx: Context) -> Words:
    """``set``'s words: a setting's name, then on or off."""
    if not args:
        return [(name, "on|off") for name in ("decline", "autodecline", "confirm")]
    return [("on", ""), ("off", "")] if len(args) == 1 else []


def _first_word(words: Callable[[Context], Words]) -> Callable[[list[str], Context], Words]:
    """A command whose only argument is one word."""
    return lambda args, ctx: words(ctx) if not args else []


def _variants(command: str, args: Sequence[str], ctx: Context) -> list[Action]:
    """The legal actions a command's words before ``pay`` point at (for completing pay)."""
    try:
        if command == "move" and 1 <= len(args) <= 2:
            end = port_filter(args[-1])
            start = port_filter(args[0]) if len(args) == 2 else None
            return [
                a
                for a in ctx.of_kind("move")
                if port_matches(a["to"], end) and (start is None or port_matches(a["from"], start))
            ]
        if command in ("city", "ship") and len(args) == 1:
            space = resolve_space(args[0])
            return [a for a in ctx.of_kind(command) if a["space"] == space]
        if command == "bank" and len(args) == 2 and args[0].lower() in ("3:1", "take", "pick"):
            take = card_of(args[1].lower())
            return [a for a in ctx.of_kind("bank_pick") if a["take"] == take]
    except CommandError:
        return []
    return []


# The commands --------------------------------------------------------------------

COMMANDS: dict[str, Command] = {
    command.name: command
    for command in (
        Command(
            "expand",
            "expand TILE [COLOUR]",
            "play a map tile next to an empire; name the colour when the tile "
            "touches two empires (else a dialog asks)",
            parse_expand,
            ("expand 12", "expand 12 orange", "expand 12 o"),
            ("expand",),
            ("play",),
            phase="expand",
            words=expand_words,
        ),
        Command(
            "return",
            "return TILE",
            "you cannot expand: put this tile under the pile and draw the top one",
            parse_return,
            ("return 5",),
            ("return_tile",),
            phase="expand",
            words=_first_word(lambda ctx: [(a["tile"], "") for a in ctx.of_kind("return_tile")]),
        ),
        Command(
            "move",
            "move [FROM] TO [pay CARDS]",
            "move a ship; it costs one card of the destination's colour per step "
            "(wilds count as any colour). While you type, the map shows the "
            "destinations and their costs ($n)",
            parse_move,
            ("move 31 27", "move ty 23", "move 27", "move 12 16e pay g,w"),
            ("move",),
            phase="actions",
            words=move_words,
        ),
        Command(
            "city",
            "city SPACE [pay CARDS]",
            "build a city where only your ships are (5 cards, 4 with two ships)",
            parse_city,
            ("city 27", "city 27 pay 3g,w"),
            ("city",),
            phase="actions",
            words=build_words("city"),
        ),
        Command(
            "ship",
            "ship SPACE [pay CARDS]",
            "build a ship in one of your cities (1 card of its colour; 2 beside a ship there, "
            "one of them of its colour), or in Tyros while it has no city (as many cards of any "
            "colours as the ships there, plus one)",
            parse_ship,
            ("ship tyros", "ship 27 pay green"),
            ("ship",),
            phase="actions",
            words=build_words("ship"),
        ),
        Command(
            "bank",
            "bank CARDS | bank N | bank 3:1 COLOUR [pay CARDS]",
            "trade with the bank: discard 1-3 cards and draw as many; or discard 3 "
            "and take one card from the discard pile",
            parse_bank,
            ("bank o,y", "bank 2", "bank 3:1 violet", "bank 3:1 v pay o,o,y"),
            ("bank_draw", "bank_pick"),
            phase="actions",
            words=bank_words,
        ),
        Command(
            "trade",
            "trade GIVE for GET [to PLAYERS]",
            "offer a trade to other players (default: everyone); any number of "
            "cards, the server checks the offer",
            parse_trade,
            ("trade green for violet", "trade 2g for v,w to B", "trade give o get y to bob,c"),
            ("propose",),
            phase="actions",
            words=trade_words,
        ),
        Command(
            "accept",
            "accept",
            "accept the trade offered to you",
            parse_answer_with(True),
            ("accept",),
            ("answer",),
        ),
        Command(
            "decline",
            "decline",
            "decline the trade offered to you",
            parse_answer_with(False),
            ("decline",),
            ("answer",),
        ),
        Command(
            "complete",
            "complete PLAYER",
            "complete your offer with a player who accepted it (or on the terms of its counter)",
            parse_complete,
            ("complete B", "complete bob"),
            ("complete",),
            words=_first_word(
                lambda ctx: [
                    (LETTERS[a["with"]], name_of(a["with"], ctx.names))
                    for a in ctx.of_kind("complete")
                ]
            ),
        ),
        Command(
            "withdraw",
            "withdraw",
            "withdraw your trade offer",
            parse_withdraw,
            ("withdraw",),
            ("withdraw",),
        ),
        Command(
            "counter",
            "counter GIVE for GET",
            "answer an offer with other terms: you give GIVE for GET (the proposer may complete "
            "on them)",
            parse_counter,
            ("counter orange for green", "counter 2g for violet,wild"),
            ("counter",),
        ),
        Command(
            "give",
            "give CARD",
            "give a card to the owner of the city you moved into",
            parse_give,
            ("give green", "give w"),
            ("give_card",),
            phase="give_card",
            words=_first_word(lambda ctx: [(a["card"], "") for a in ctx.of_kind("give_card")]),
        ),
        Command(
            "keep",
            "keep CARDS",
            "end of round: the cards you keep, at most 3 (the rest are discarded)",
            parse_keep,
            ("keep g,g,w", "keep 2green wild", "keep none"),
            ("keep",),
            phase="keep",
            words=_first_word(
                lambda ctx: [
                    (cards_short(a["cards"]), cards_text(a["cards"])) for a in ctx.of_kind("keep")
                ]
            ),
        ),
        Command(
            "pass",
            "pass",
            "take no card action this turn",
            parse_pass,
            ("pass",),
            ("pass",),
            phase="actions",
        ),
        Command(
            "autopass",
            "autopass",
            "pass every card turn left in this round (typing anything or the key again stops "
            "it; an offer to you waits for your answer, and auto-pass goes on after it); a "
            "decision with one possible answer is always made for you",
            local("autopass"),
            ("autopass",),
            always=True,
            run=own.autopass,
            key="f6",
        ),
        Command(
            "set",
            "set [NAME on|off]",
            "your client's settings, kept for your next games ('set' alone lists them): "
            "'decline' declines at once the offers you lack the cards for, even when you could "
            "counter; 'autodecline' declines every offer to you while auto-pass is on (off: "
            "an offer waits for your answer, and auto-pass goes on after it); 'confirm' (on "
            "until you turn it off) asks once before a move, city or bank action that spends "
            "3 cards or more, or a move that owes a city owner a card",
            local("set"),
            ("set", "set decline on", "set autodecline on", "set confirm off"),
            always=True,
            run=own.settings,
            words=_set_words,
        ),
        Command(
            "answer",
            "answer",
            "open the dialog for what is asked of you now",
            parse_answer,
            ("answer",),
            key="f4",
        ),
        Command(
            "legal",
            "legal",
            "list what you may do now",
            local("legal"),
            ("legal",),
            always=True,
            run=own.panel("legal"),
            key="f2",
        ),
        Command(
            "log",
            "log",
            "show the game log again (PageUp/PageDown scroll it)",
            local("log"),
            ("log",),
            always=True,
            run=own.panel("log"),
            key="f3",
        ),
        Command(
            "score",
            "score",
            "show the score sheet: the final one, or what each player would score if the "
            "game ended now",
            local("score"),
            ("score",),
            always=True,
            run=own.score,
            key="f9",
        ),
        Command(
            "replay",
            "replay",
            "once the game is over: its replay, every hand open at the end (Right/Left step "
            "through it)",
            local("replay"),
            ("replay",),
            always=True,
            run=own.replay,
        ),
        Command(
            "review",
            "review",
            "once the game is over: its replay with a review of your decisions (a bot weighs "
            "each one against the others you had; a minute or two)",
            local("review"),
            ("review",),
            always=True,
            run=own.review,
        ),
        Command(
            "say",
            "say TEXT",
            "talk to the table: a player is heard by all, a spectator by the spectators",
            parse_say,
            ("say two green for your violet?", "say gg"),
            (),
            ("chat",),
            always=True,
            key="f5",
            key_types=True,
        ),
        Command(
            "hint",
            "hint",
            "the three best options for the decision in front of you, thought about by a bot in "
            "this program from what you can see; the record marks a decision made after a hint",
            local("hint"),
            ("hint",),
            always=True,
            run=own.ask_hint,
            key="f8",
        ),
        Command(
            "help",
            "help [COMMAND]",
            "this help, or one command's",
            local("help"),
            ("help", "help move"),
            always=True,
            run=own.show_help,
            key="f1",
        ),
        Command(
            "act",
            "act JSON",
            "send an action as the protocol's JSON (for experts)",
            parse_act,
            ('act {"kind": "pass"}',),
        ),
        Command(
            "quit",
            "quit",
            "leave (your seat waits for you: run the same command again to come back)",
            local("quit"),
            ("quit",),
            (),
            ("exit",),
            always=True,
            run=own.quit_table,
        ),
        Command("_offer", "_offer", "the offer's dialog", parse_offer, hidden=True),
    )
}
"""Every command, in the help's order."""

ALIASES: dict[str, str] = {alias: c.name for c in COMMANDS.values() for alias in c.aliases}
KIND_COMMAND: dict[str, str] = {}
"""A legal action's kind -> the command that makes it (the first that lists it)."""
for _command in COMMANDS.values():
    for _kind in _command.kinds:
        KIND_COMMAND.setdefault(_kind, _command.name)
ALWAYS = tuple(c.name for c in COMMANDS.values() if c.always)
"""The client's own commands, offered by Tab at any time."""
KEYED = sorted((c for c in COMMANDS.values() if c.key), key=lambda c: int(str(c.key)[1:]))
"""The commands with a function key, by key."""
