"""What the screen's text controls show, computed from the client state at each redraw."""

from __future__ import annotations

from typing import TYPE_CHECKING

from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.formatted_text.utils import split_lines
from tyros_protocol.actions import AnswerAction
from tyros_protocol.views import GameView
from tyros_protocol.words import phase_name

from ..words import CARDS, cards_text, letter, who
from . import commands
from .text import score_sheet

if TYPE_CHECKING:
    from .screen import Screen


def hand_text(ui: Screen) -> StyleAndTextTuples:
    state = ui.state
    view = state.game
    out: StyleAndTextTuples = []
    if state.seat is not None:
        out += [
            (f"class:player.{state.seat}", f" {letter(state.seat)} "),
            ("class:bar", f" {state.name} "),
        ]
    elif state.spectate:
        out.append(("class:bar", f" watching table {state.table} "))
    if view is None and state.table_info is None and state.fatal:
        out.append(("", f" table {state.table}: not joined"))
        return out
    if view is None:
        info = state.table_info
        seated = 0 if info is None else sum(1 for s in info.seats if s.name)
        players = "?" if info is None else info.players
        missing = None if info is None else info.players - seated
        more = f", waiting for {missing} more player{'s' if missing != 1 else ''}"
        # (80 columns: "the game starts when every seat is taken" was cut off)
        out.append(
            (
                "",
                f" table {state.table}: {seated} of {players} seats taken{more if missing else ''}",
            )
        )
        return out
    if view.hand is not None:
        hand: list[str] = list(view.hand)  # (counted by the client's card names)
        tiles = view.tiles or []
        # Every card and tile must show: if the line is too long (a long name), the cards
        # get their short words (g5, not green 5).
        for short in (False, True):
            line: StyleAndTextTuples = [("", " Hand ")]
            for card in CARDS:
                n = hand.count(card)
                words = f"{card[0]}{n}" if short else f"{card} {n}"
                line.append((f"class:card.{card}" if n else "class:dim", words))
                line.append(("", " "))
            line.append(("", f"({len(hand)})  Tiles "))
            line.append(("class:tile" if tiles else "class:dim", " ".join(tiles) or "none"))
            width = sum(len(text) for _, text, *_ in [*out, *line])
            if width <= ui.size()[1]:
                break
        out += line
    if not state.connected:
        out.append(("class:message.error", f"  [{state.connection}]"))
    return out


def table_width(compact: bool) -> int:
    """The table panel's columns: a row's numbers take 31 (compact) or 40, and its flags
    ("0:28 you 1st": the clock, whose seat, who started) get the rest."""
    return 39 if compact else 52


def table_text(ui: Screen) -> StyleAndTextTuples:
    state = ui.state
    view = state.game
    names = state.names
    out: StyleAndTextTuples = []
    if view is None and state.table_info is None and state.fatal:  # refused: no seats to draw
        return [("class:title", f" Table {state.table} "), ("", " not joined (see the log)")]
    if view is None:
        out.append(("class:title", f" Table {state.table} "))
        clock = None if state.table_info is None else state.table_info.clock
        timed = f", clock {clock.decision:g}+{clock.reserve:g}" if clock else ""
        out.append(("", f" waiting for players{timed}\n"))
        for seat in range(len(names)):
            status = state.seat_status(seat)
            name = status.name or "(free seat)"
            out += [(f"class:player.{seat}", f" {letter(seat)} "), ("", f" {name}\n")]
        return out
    compact = ui.compact()
    # The header is built like the rows: its words stand over their columns. When the panel
    # is too short for it and four players, the round's line goes over the log instead.
    if not round_over_log(ui):
        out += status_line(ui, table_width(compact))
        out.append(("", "\n"))
    out.append(
        (
            "class:dim",
            f"    {' player':<8} {'crd':>3} {'til':>3} {'s/c':>5} {'pts':>3}\n"
            if compact
            else f"    {' player':<10} {'cards':>5} {'tiles':>5} {'supply':>6} {'pts':>4}\n",
        )
    )
    to_act = set(view.to_act)
    sheet = state.sheet
    points = None if sheet is None else [player.total for player in sheet.players]
    for info in view.seats:
        seat = info.seat
        status = state.seat_status(seat)
        # The most telling first: the row has room for a few words only (80 x 24).
        flags = []
        if status.bot or status.program or status.name in state.bot_names:
            flags.append("bot")  # a takeover bot, a program's seat, or one this program started
        elif not status.connected:
            wait = state.bot_in(seat)  # "off 12s": a bot plays for them in 12 s (the log says)
            flags.append("off" if not wait else f"off {wait:.0f}s")
        time = state.time_of(seat) if view.phase != "over" else None
        if time is not None and not time.startswith("+"):
            flags.append(time)  # the decision being made: telling
        if seat == state.seat:
            flags.append("you")
        if seat == view.starting_seat:
            flags.append("1st")
        if time is not None and time.startswith("+"):
            flags.append(time)  # a waiting seat's reserve: last, cut first
        out.append(("class:turn", " > " if seat in to_act else "   "))
        out.append((f"class:player.{seat}", letter(seat)))
        name = (names[seat] if seat < len(names) else None) or f"player {letter(seat)}"
        tiles = str(info.tiles)
        if info.revealed_tiles:
            tiles += "!"
        supply = f"{info.ships_in_supply}/{info.cities_in_supply}"
        score = str(points[seat]) if points is not None else "?"
        if compact:
            row = f" {name[:7]:<7} {info.cards:>3} {tiles:>3} {supply:>5} {score:>3} "
        else:
            row = f" {name[:9]:<9} {info.cards:>5} {tiles:>5} {supply:>6} {score:>4} "
        out.append(("", row))
        room = table_width(compact) - 4 - len(row)  # (" > A" before the row)
        while flags and len(" ".join(flags)) > room:
            flags.pop()  # the least telling go: the row stays inside the panel
        out.append(("class:dim", " ".join(flags)))
        out.append(("", "\n"))
    out.append(("", " Empires "))
    for empire in view.empires:
        colour = empire.colour
        space = "" if compact else " "
        out.append((f"class:card.{colour}", f"{colour[0].upper()}{space}{empire.size}"))
        out.append(("class:dim", f"{space}#{empire.rank} {space}"))
    out.append(("", "\n Discard " if not compact else "\n Disc "))
    discard: dict[str, int] = dict(view.discard.items())  # (by the client's card names)
    for card in CARDS:
        out.append((f"class:card.{card}", f"{card[0]}{discard.get(card, 0)}"))
        out.append(("", " "))
    space = "" if compact else " "
    out.append(("", f"{space}draw{space}{view.draw_pile} {space}tiles{space}{view.tile_pile}"))
    return out


def round_over_log(ui: Screen) -> bool:
    """Whether the table panel is too short for the round's line, the column header and
    every seat (80 x 24, four players): the round's line then heads the log."""
    seats = 0 if ui.state.game is None else len(ui.state.game.seats)
    return ui.panel_rows() < 4 + seats


def status_line(ui: Screen, width: int, notices: tuple[str, ...] = ()) -> StyleAndTextTuples:
    """Round, phase and whose turn, in as many words as ``width`` has room for; with
    ``notices`` (one thing said ever shorter, e.g. that log lines are hidden) the round and
    a notice always: the notice shortens first (all but its shortest form), then whose turn
    goes, then the notice takes its shortest form, and only then the phase goes."""
    view = ui.state.game
    if view is None:  # (drawn only once the game is on)
        return []
    names = ui.state.names
    head: StyleAndTextTuples = [("class:title", f" Round {view.round} ")]
    if view.last_round:
        head.append(("class:request.title", " LAST ROUND "))
    phase = phase_name(view.phase)
    turns = (_whose_turn(ui, view, names), _whose_turn(ui, view, names, short=True))
    phased = [[*head, ("", f" {phase}: "), *turn] for turn in turns]
    phased.append([*head, ("", f" {phase}")])
    if notices:
        for tried in (notices[:-1], notices[-1:]):
            for line in phased:
                for notice in tried:
                    if _columns(line) + len(notice) <= width:
                        return [*line, ("class:request.title", notice)]
        return [*head, ("class:request.title", notices[-1])]
    unphased = [[*head, ("", " "), *turn] for turn in turns]
    for line in (phased[0], unphased[0], phased[1], unphased[1], phased[2]):
        if _columns(line) <= width:
            return line
    return head


def _columns(line: StyleAndTextTuples) -> int:
    return sum(len(text) for _, text, *_ in line)


def _whose_turn(
    ui: Screen, view: GameView, names: list[str | None], short: bool = False
) -> StyleAndTextTuples:
    if short:
        names = [None] * len(names)  # letters only
    phase = view.phase
    if phase == "over":
        winners = " and ".join(who(s, names) for s in view.score.winners) if view.score else ""
        return [("class:turn", f"{winners} won")]
    trade = view.trade
    if phase == "trade" and trade:
        if short:
            return [("", f"{letter(trade.proposer)}'s offer")]  # (the phase says "a trade")
        return [
            (
                "",
                f"{letter(trade.proposer)} offers {cards_text(trade.give)} "
                f"for {cards_text(trade.get)}",
            )
        ]
    if phase == "keep":
        return [("", "waiting for " + ", ".join(letter(s) for s in view.to_act))]
    current = view.current
    if current == ui.state.seat:
        return [("class:turn", "your turn")]
    return [("", f"{letter(current) if short else who(current, names)} to act")]


def message_text(ui: Screen) -> StyleAndTextTuples:
    state = ui.state
    if state.fatal:
        return [("class:message.error", f" {state.fatal} (Ctrl-C quits)")]
    # Errors stay until the next command; other notices until the next update; notices
    # about the connection until it is back.
    now = state.clock()
    notices = [
        n
        for n in (state.error, ui.screen.local)
        if n is not None
        and n.at > ui.screen.cleared_at
        # an error stays until the next command, unless something new is asked of you,
        # or the game has moved on since it was read (ERROR_READ seconds)
        and (
            n.at >= state.prompt_at
            or ((n.error or n.lasting) and not state.prompt and now - n.at < ERROR_READ)
        )
        and not (n.connection and state.connected and n.at <= state.connected_at)
    ]
    if notices:
        newest = max(notices, key=lambda n: n.at)
        style = "class:message.error" if newest.error else "class:message.info"
        return [(style, f" {newest.text}")]
    said = ui.driver.status(ui.size()[1] - 1)
    if said is not None:
        return [("class:message.info", " " + said)]
    if not state.connected:
        return [("class:message.error", f" {state.connection}")]
    if state.prompt:
        left = state.clock_left(state.seat) if state.seat is not None else None
        if left is not None and left <= CLOCK_WARNING:
            hurry = f" {left:.0f} s left, then the server decides for you"
            asked = _asked(ui).split(" (")[0]  # without its hints, to stay on one line
            if len(hurry) + 2 + len(asked) > ui.size()[1] - 1:
                return [("class:message.error", hurry + "!")]
            return [("class:message.error", hurry + ": "), ("class:message.turn", asked)]
        return [("class:message.turn", " " + _asked(ui))]
    view = state.game
    if view is None:
        return [("class:dim", " waiting for the game to start (F1 help)")]
    if view.phase == "over":
        return [("class:message.turn", " " + game_over_words(ui))]
    if ui.state.seat is None:  # a spectator has nothing to play: no F2, no Tab for it
        return [("class:dim", " watching (F1 help, F3 log, F5 say to the spectators)")]
    if ui.state.orders.pass_round is not None:
        return [("class:message.info", " auto-pass on: waiting for your turn to pass (F6 stops)")]
    return [("class:dim", " waiting for the others (F1 help, F2 legal, Tab completes)")]


def game_over_words(ui: Screen) -> str:
    """The message line at the end: how to look back at the game (as short as the width
    asks)."""
    if not ui.driver.plays:
        return "the end of the game: F9 shows the score sheet, Left steps back"
    words = (
        "the game is over: F9 the score sheet, 'replay' or 'review' looks back at it, Ctrl-C quits"
    )
    if len(words) + 1 > ui.size()[1]:
        words = "game over: F9 score, 'replay' or 'review' looks back, Ctrl-C quits"
    return words


ERROR_READ = 10.0
"""Seconds a refusal stays on the message line while the game moves on without you: then
the next update clears it (it was about a position that has gone)."""
CLOCK_WARNING = 15.0
"""Seconds left on the player's clock from which the message line says so."""


def _asked(ui: Screen) -> str:
    asked = _asked_now(ui)
    if ui.autopilot.waits_for_offer():
        asked += "; auto-pass goes on after it"
    return asked


def _may_accept(ui: Screen) -> bool:
    """Whether accepting the trade offered to the seat is among its legal actions."""
    return any(isinstance(a, AnswerAction) and a.accept for a in ui.state.legal_actions)


def _asked_now(ui: Screen) -> str:
    kinds = [a.kind for a in ui.state.legal_actions]
    left = ui.state.seconds_left()
    time_left = f" ({left:.0f} s left)" if left is not None else ""
    if "answer" in kinds and not _may_accept(ui):
        if "counter" not in kinds:
            return (
                "a trade is offered to you, but you do not hold the cards asked for: "
                "declining it in a moment"
            )
        return (
            f"a trade is offered to you; you lack the cards asked for: decline, or "
            f"counter GIVE for GET{time_left}"
        )
    if "answer" in kinds:
        return f"a trade is offered to you: accept, decline or counter{time_left} (F4 opens it)"
    if "keep" in kinds:
        return "end of round: keep up to 3 cards (keep CARDS, keep none, or F4)"
    if "give_card" in kinds:
        return "give a card to the city owner (give CARD, or F4)"
    if "return_tile" in kinds:
        return "you cannot expand: put a tile back (return TILE, or F4)"
    if "expand" in kinds:
        return "expand an empire: expand TILE [COLOUR] (your tiles are marked *)"
    if "complete" in kinds:
        return "an answer to your offer: complete PLAYER (F4 shows the terms) or withdraw"
    if "withdraw" in kinds:
        return _offer_standing(ui)
    return "your turn: move, city, ship, bank, trade or pass (Tab completes, F2 lists)"


def _offer_standing(ui: Screen) -> str:
    """The player's own offer with nothing to complete: answers still to come, or every
    answer in and none that can be completed (declined, or counters asking for cards the
    player lacks: the engine lists no completion then)."""
    game = ui.state.game
    trade = None if game is None else game.trade
    if trade is None or any(a.answer == "pending" for a in trade.answers):
        return "waiting for answers to your offer (withdraw to take it back)"
    if any(a.answer == "counter" for a in trade.answers):
        return "every answer is in: the counter-offers ask for cards you lack; withdraw"
    return "every player asked declined your offer: withdraw, then act or pass"


def score_text(ui: Screen) -> StyleAndTextTuples:
    """The score sheet, from the line it is scrolled to (Down, PageDown)."""
    lines = list(split_lines(_score_sheet(ui)))
    ui.screen.score_top = max(0, min(ui.screen.score_top, len(lines) - 1))
    out: StyleAndTextTuples = []
    for at, line in enumerate(lines[ui.screen.score_top :]):
        if at:
            out.append(("", "\n"))
        out += line
    return out


def _score_sheet(ui: Screen) -> StyleAndTextTuples:
    """The score sheet: the final one, or before the end what each seat would score if the
    game ended now (the reckoning of the table's ``pts``, from public information)."""
    sheet = ui.state.sheet
    if sheet is None:
        return [("", "no score yet")]
    width = ui.size()[1] - 2  # (the frame's sides)
    if ui.state.game is not None and ui.state.game.score is not None:
        return score_sheet(sheet, ui.state.names, width)
    head = ("class:sheet.head", "If the game ended now (from what everybody can see):\n\n")
    return [head, *score_sheet(sheet, ui.state.names, width, final=False)]


REQUESTS = commands.REQUESTS

_HOW = {
    "_offer": "accept/decline/counter (F4)",  # short: the panel has 4 lines at 80 x 24
    "keep": "type keep CARDS, e.g. keep o,g,w (F4 to choose)",
    "give": "type give CARD (F4 to choose)",
    "return": "type return TILE (F4 to choose)",
    "complete": "complete PLAYER or withdraw (F4)",  # (one line at 80 x 24)
}


def request_command(ui: Screen) -> str | None:
    """The command for what the table asks of the player now (None: nothing)."""
    kinds = {a.kind for a in ui.state.legal_actions}
    return next((command for kind, command in REQUESTS if kind in kinds), None)


def request_lines(ui: Screen) -> list[tuple[str, str]]:
    """The request panel: what is asked, and how to answer it by typing (never focused)."""
    command = request_command(ui)
    if command is None:
        return []
    choice = commands.parse(command, ui.context())
    if not isinstance(choice, commands.Choose):
        return []
    lines = [("class:request.title", f" {choice.title} ")]
    kinds = [a.kind for a in ui.state.legal_actions]
    how = _HOW.get(command, "")
    if command == "_offer":
        left = ui.state.seconds_left()
        if not _may_accept(ui):
            how = (
                "you cannot accept: decline, or counter GIVE for GET"
                if "counter" in kinds
                else "you cannot accept: your client declines in a moment"
            )
        elif left is not None:
            how += f", {left:.0f} s"
    elif command == "complete" and "complete" not in kinds:
        how = "waiting for the answers (type withdraw to take the offer back)"
        trade = None if ui.state.game is None else ui.state.game.trade
        answers = [] if trade is None else trade.answers
        if answers and all(a.answer == "decline" for a in answers):
            how = "everybody declined: the offer is taken back in a moment"
        elif answers and all(a.answer != "pending" for a in answers):
            how = "no answer you can complete: type withdraw"
    if how:  # how to answer comes first: the panel may not have room for everything
        lines.append(("class:request.how", how))
    lines += [("class:request", line) for line in choice.text.split("\n") if line]
    return lines
