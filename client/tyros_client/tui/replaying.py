"""``tyros-client --replay``: a recorded game in the same screen as a live one.

A :class:`ReplayDriver` moves through a :class:`~tyros_client.replay.Replay` and shows
each position to the screen's :class:`~.state.ClientState` exactly as the server would
have: the seat's view and the events as that seat saw them, so the map, the hand line,
the table and the log are the live game's. Nothing is sent anywhere.

Keys (with an empty command line): Right / Left one decision, ``.`` / ``,`` one event,
Down / Up one turn (to the next seat's decisions), ``]`` / ``[`` one round, Home / End the
start and the end, F6 the next seat to see the game as (then a spectator), F7 every hand
open (a finished game only). Commands: ``next``, ``back``, ``turn``, ``round``, ``start``,
``end``, ``goto N`` (decision N), ``seat B`` (or ``seat spectator``), ``open``, ``review``
(review the seat the game is seen as, in a worker thread, its progress on the message
line) and ``marks`` (the review's costliest decisions). A review's marks (``review``, or
``tyros-review --json`` given with ``--review``) show beside its seat's decisions: after
each one's log line (``[-2.5 +/-0.8]``: points given away, and the estimate's spread) and
on the message line when that decision is the one just shown.

>>> from tyros_client.arena import play_game
>>> from tyros_rules import export_record
>>> from tyros_client.replay import Replay
>>> from .state import ClientState, LineKind
>>> state = ClientState("replay", "game", "you")
>>> driver = ReplayDriver(Replay(export_record(play_game(["random"] * 3, seed=4).state)), state)
>>> driver.command("end"), driver.position == driver.replay.end, state.over
(None, True, True)
>>> driver.command("seat C"), state.seat, state.game.viewer
(None, 2, 2)
>>> driver.command("goto x")
'goto takes a decision number, 0 (the deal) to 440'
>>> driver.command("pass") is Handoff.NOT_MINE
True
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from prompt_toolkit.application import get_app
from prompt_toolkit.filters import Condition
from prompt_toolkit.key_binding import KeyBindings, KeyBindingsBase, KeyPressEvent
from tyros_protocol.cards import CARD_NAMES
from tyros_protocol.events import ActionTaken, Event
from tyros_protocol.messages import ChatLine, SeatStatus, TableInfo, Update

from ..notices import Heard, TableChanged, Updated
from ..replay import Replay, Viewer
from ..review import why_text
from ..words import command_line, letter
from .drivers import Handoff
from .state import ClientState, LineKind

USAGE = (
    "replay commands: next, back, turn, round, start, end, goto N, seat X, open, review, "
    "marks, quit"
)
KEYS = (
    "replay keys: Right/Left a decision, . and , an event, Down/Up a turn, ] and [ a round, "
    "Home/End the start and the end, F6 the next seat's view, F7 every hand (once over); "
    "or type: " + USAGE.split(": ", 1)[1]
)
PUBLIC_ONLY = "a game not over is replayed only as a spectator saw it"


class ReplayDriver:
    """Where a replay stands, as whom it is seen, and the screen's state it feeds."""

    def __init__(
        self,
        replay: Replay,
        state: ClientState,
        viewer: Viewer = 0,
        review: dict[str, Any] | None = None,
    ) -> None:
        self.replay = replay
        self.state = state
        self.viewer = None if replay.public else viewer
        self.open = False
        self.marks: dict[int, dict[str, Any]] = {}
        """Review marks by decision number (1 is the first decision)."""
        self.review_seat: int | None = None
        if review is not None:
            self.review_seat = int(review["seat"])
            self.marks = {int(d["decision"]): d for d in review.get("decisions", [])}
        self._keys: KeyBindingsBase | None = None
        self.reviewing: str | None = None
        """Progress of a review running in a worker thread (``review``), for the status."""
        self.deciders = [int(replay.events[at]["seat"]) for at in replay.action_at]
        """The seat that made each decision, in order (read once from the record)."""
        self._previous: dict[int, int | None] | None = None
        """Each decision's version -> the version of its seat's decision before it."""
        self.position = replay.at_decision(0)  # the deal shown, before the first decision
        state.annotate = self.annotation
        state.connected = True
        state.connection = "replay"
        state.note(KEYS, error=False)  # in the log, above the game's events
        if replay.public and viewer is not None:  # (--as is for a finished game's record)
            state.note(PUBLIC_ONLY + ": no hands, no seat's view (--as, F6)", error=False)
        self.show()

    plays = False
    """A replay shows the game, it never plays (see :class:`.drivers.Driver`)."""

    def panel_tail(self) -> list[str]:
        """Every hand, under the log's newest line, while they are open (F7)."""
        return self.hand_lines() if self.open else []

    def help_lines(self, topic: str) -> list[str]:
        return help_lines()

    def key_bindings(
        self, run_line: Callable[[str], bool], moved: Callable[[], None]
    ) -> KeyBindingsBase:
        """Right/Left, . and ,, Down/Up, ] and [, Home/End (with an empty command line),
        F6 and F7: moving through the game, whose view, every hand; ``run_line`` runs a
        line as typed, ``moved`` shows the new position."""
        if self._keys is None:
            self._keys = _replay_keys(self, run_line, moved)
        return self._keys

    # Moving ----------------------------------------------------------------------

    def go(self, position: int) -> None:
        self.position = self.replay.clamp(position)
        self.show()

    def step(self, how: str, forward: bool) -> None:
        """One decision, event, turn or round forward or back."""
        replay, at = self.replay, self.position
        moves = {
            "decision": (replay.next_decision, replay.previous_decision),
            "turn": (replay.next_turn, replay.previous_turn),
            "round": (replay.next_round, replay.previous_round),
        }
        if how == "event":
            self.go(at + (1 if forward else -1))
        else:
            ahead, back = moves[how]
            self.go(ahead(at) if forward else back(at))

    def next_viewer(self) -> None:
        """F6: the next seat, then a spectator, then the first seat again."""
        if self.replay.public:
            self.state.note(PUBLIC_ONLY, error=False)
            return
        order: list[Viewer] = [*range(self.replay.players), None]
        self.viewer = order[(order.index(self.viewer) + 1) % len(order)]
        self.show()

    def toggle_open(self) -> str | None:
        """F7: every hand open (a finished game only); a refusal's reason otherwise."""
        if not self.replay.finished:
            return "hands are shown open only in a finished game's replay"
        if not self.replay.may_open:
            return "this record is a spectator's (fetched before the game ended): no hands"
        self.open = not self.open
        self.show()
        return None

    def command(self, line: str) -> str | Handoff | None:
        """Act on a replay command: None when done, a reason when refused, or
        :attr:`Handoff.NOT_MINE` for a line that is not a replay command (help, quit, score...)."""
        words = line.strip().split()
        if not words:
            return USAGE
        head, rest = words[0].lower(), words[1:]
        simple = {
            "next": ("decision", True),
            "n": ("decision", True),
            "back": ("decision", False),
            "b": ("decision", False),
            "turn": ("turn", True),
            "round": ("round", True),
        }
        if head in simple:
            how, forward = simple[head]
            if rest and rest[0] in ("back", "-"):
                forward = False
            self.step(how, forward)
        elif head == "start":
            self.go(self.replay.at_decision(0))
        elif head == "end":
            self.go(self.replay.end)
        elif head == "goto":
            if len(rest) != 1 or not rest[0].isdigit():
                return f"goto takes a decision number, 0 (the deal) to {self.replay.decisions}"
            self.go(self.replay.at_decision(int(rest[0])))
        elif head == "seat":
            return self._seat(rest)
        elif head == "open":
            return self.toggle_open()
        elif head == "review":
            if self.replay.public:
                return "a game not over cannot be reviewed yet"
            return Handoff.REVIEW
        elif head == "marks":
            self.state.note(self.marks_line(), error=False)
        else:
            return Handoff.NOT_MINE  # help, quit, score...; or a play command (the screen's)
        return None

    def _seat(self, rest: list[str]) -> str | None:
        if self.replay.public:
            return PUBLIC_ONLY
        try:
            self.viewer = parse_viewer(" ".join(rest), self.replay.players)
        except ValueError as exc:
            return str(exc)
        self.show()
        return None

    # Showing ---------------------------------------------------------------------

    def show(self) -> None:
        """Feed the screen's state the position as the viewer saw it."""
        replay, state, at = self.replay, self.state, self.position
        finished = replay.finished and at >= replay.end
        state.seat = self.viewer
        state.spectate = self.viewer is None
        state.name = "spectator" if self.viewer is None else replay.names[self.viewer]
        view = replay.view(at, self.viewer)
        # (read as frames would be: the record's views, events and talk are the wire's)
        update = Update.model_validate_json(
            json.dumps(
                {
                    "type": "update",
                    "version": view.get("version", 0),
                    "view": view,
                    "events": replay.events_seen(at, self.viewer),
                }
            )
        )
        seats = [
            SeatStatus(seat=seat, name=name, connected=True)
            for seat, name in enumerate(replay.names)
        ]
        info = TableInfo(
            name=state.table,
            players=update.view.players,
            setup=update.view.setup,
            started=True,
            finished=finished,
            seats=seats,
        )
        state.apply(TableChanged(info))
        # Each position is shown afresh: its events as the viewer saw them, all of them,
        # and the talk they heard by then.
        state.apply(Updated(update, update.events, resync=True, restart=True))
        state.log = [line for line in state.log if line.kind is not LineKind.CHAT]
        for said in replay.chat:
            try:
                heard = ChatLine.model_validate_json(json.dumps({"type": "chat", **said}))
            except ValueError:
                continue  # (a damaged line of a record: the game shows without it)
            if heard.version <= update.version and (
                self.viewer is None or heard.audience == "table"
            ):
                state.apply(Heard(heard))

    def _last_seat_reviewed(self, done: int) -> bool:
        if not done or self.review_seat is None:
            return False
        return self.deciders[done - 1] == self.review_seat

    def hand_lines(self) -> list[str]:
        """Every hand, for the open replay's panel."""
        lines = []
        for row in self.replay.hands(self.position):
            seat = row["seat"]
            cards = " ".join(_short(name) for name in row["hand"]) or "no cards"
            tiles = " ".join(row["tiles"]) or "none"
            lines.append(f"{letter(seat)} {self.replay.names[seat]}: {cards} | tiles {tiles}")
        return lines

    def status(self, width: int = 200) -> str | None:
        """The message line: where the replay stands, as whom, and the review's mark, in
        ``width`` characters if it can be said shorter (a second line would push the
        table's last row off an 80 x 24 screen)."""
        replay = self.replay
        done = replay.decisions_before(self.position)
        who = "a spectator" if self.viewer is None else f"{letter(self.viewer)}"
        game_round = "?" if self.state.game is None else self.state.game.round
        where = f"round {game_round}"
        text = f"replay {done}/{replay.decisions}, {where}, as {who}"
        if self.reviewing is not None:
            text += f" | {self.reviewing}"
        mark = self.marks.get(done) if self._last_seat_reviewed(done) else None
        if mark is not None and self.review_seat is not None:
            said = mark_text(mark, self.review_seat)
            if len(text) + 3 + len(said) > width:
                said = mark_text(mark, self.review_seat, why=False)
            if len(text) + 3 + len(said) > width:
                text = f"{done}/{replay.decisions} r{game_round} as {who}"
                said = mark_text(mark, self.review_seat, short=True)
            text += " | " + said
        elif self.open:
            text += ", hands open"
        elif done == 0:
            text += " (Right: next; F1: the keys)"
        return text

    def annotation(self, event: Event) -> str:
        """What the record says of a decision beside its log line: who made it (a bot for
        an absent player, the clock; and when the player was away or back), whether after a
        hint, and the review's mark (`` [-2.5 +/-0.8]``)."""
        if not isinstance(event, ActionTaken):
            return ""
        version, seat = event.version, event.seat
        replay = self.replay
        words = ""
        by = replay.decided_by.get(version)
        if by == "takeover":
            words += " (a bot, for them"
            words += ": away)" if self._first_of_run(version, seat, by) else ")"
        elif by == "clock":
            words += " (their clock ran out)"
        elif self._back_from_takeover(version, seat):
            words += " (back)"
        if version in replay.hinted:
            words += " (after a hint)"
        mark = self.marks.get(version) if seat == self.review_seat else None
        if mark is not None and float(mark.get("cost", 0.0)) > 0.05:
            words += f" [-{float(mark['cost']):.1f} +/-{float(mark.get('spread', 0.0)):.1f}]"
        return words

    def _previous_of_seat(self, version: int, seat: int) -> int | None:
        """The version of the seat's decision before ``version`` (None: its first)."""
        if self._previous is None:
            self._previous = {}
            last: dict[int, int] = {}
            for done, acting in enumerate(self.deciders, 1):
                self._previous[done] = last.get(acting)
                last[acting] = done
        return self._previous.get(version)

    def _first_of_run(self, version: int, seat: int, by: str) -> bool:
        before = self._previous_of_seat(version, seat)
        return before is None or self.replay.decided_by.get(before) != by

    def _back_from_takeover(self, version: int, seat: int) -> bool:
        before = self._previous_of_seat(version, seat)
        return before is not None and self.replay.decided_by.get(before) == "takeover"

    def load_review(self, review: dict[str, Any]) -> None:
        """Show a review's marks (``tyros-review --json``, or one made here)."""
        self.review_seat = int(review["seat"])
        self.marks = {int(d["decision"]): d for d in review.get("decisions", [])}
        self.reviewing = None
        self.show()

    def marks_line(self) -> str:
        if not self.marks or self.review_seat is None:
            return "no review yet: type review (or start with --review REVIEW.json)"
        costly = sorted(self.marks.values(), key=lambda d: -float(d.get("cost", 0.0)))[:3]
        parts = [f"#{d['decision']} -{float(d['cost']):.1f}" for d in costly]
        return (
            f"{letter(self.review_seat)}'s costliest decisions: "
            + ", ".join(parts)
            + " (goto N shows one)"
        )


def parse_viewer(text: str, players: int) -> Viewer:
    """``A``-``D`` as a seat, ``spectator`` as None; a ValueError says what is allowed.

    >>> parse_viewer("b", 4), parse_viewer("spectator", 3)
    (1, None)
    """
    word = text.strip().lower()
    if word in ("spectator", "none", "-"):
        return None
    if len(word) == 1 and 0 <= ord(word) - ord("a") < players:
        return ord(word) - ord("a")
    raise ValueError(f"a seat is a letter, A to {letter(players - 1)}, or 'spectator'")


def help_lines() -> list[str]:
    """The help of the replay screen (F1)."""
    return [
        "Watching a recorded game: nothing you type is played or said.",
        "Keys (with an empty command line):",
        "    Right / Left: one decision forward / back (it and what followed from it)",
        "    . / , : one event forward / back",
        "    Down / Up: to where the next / this (or the last) player's turn begins",
        "    ] / [ : to the next / this (or the previous) round",
        "    Home / End: the deal / the end",
        "    F6: the game as the next seat sees it (then as a spectator)",
        "    F7: every hand open, at any moment of a finished game",
        "Commands:",
        "    next, back, turn, round (add 'back': turn back), start, end",
        "    goto N: after decision N (0: the deal)",
        "    seat B, seat spectator: whose view",
        "    open: every hand (a finished game only)",
        "    review: weigh each decision of the seat you see the game as, in the",
        "        background (its progress on the message line); then [-2.5 +/-0.8]",
        "        after a decision's log line: the points it gave away, +/- its spread",
        "    marks: that review's three costliest decisions",
        "    score: the score sheet (at the end); log, legal: the panel; quit: leave",
        "Esc or F1 closes this help.",
    ]


def mark_text(mark: dict[str, Any], seat: int = 0, *, short: bool = False, why: bool = True) -> str:
    """The review's word on one decision of ``seat`` (``short``: for a narrow screen;
    ``why``: with what the best option gains, if the review says).

    >>> mark_text({"cost": 0.0, "spread": 0.4, "played": "pass", "best": "pass"})
    "A's move: no better one found"
    >>> mark_text({"cost": 2.5, "spread": 0.8, "played": "pass", "best": "ship in 23"}, 1)
    "B's move: -2.5 (+/-0.8); best: ship in 23"
    >>> ship = {"kind": "ship", "space": "23", "pay": ["green"]}
    >>> mark_text({"cost": 2.5, "spread": 0.8, "best": "...", "options": [{"action": ship}]}, 1)
    "B's move: -2.5 (+/-0.8); best: ship 23 pay g"
    >>> mark_text({"cost": 2.5, "spread": 0.8, "best": "...", "options": [{"action": ship}]}, 1,
    ...           short=True)
    'B: -2.5 +/-0.8, best: ship 23 pay g'
    >>> mark_text({"cost": 2.5, "spread": 0.8, "best": "pass", "why": {"hand": 2.6}}, 1)
    "B's move: -2.5 (+/-0.8); best: pass (hand +2.6)"
    """
    cost = float(mark.get("cost", 0.0))
    spread = float(mark.get("spread", 0.0))
    who = letter(seat) if short else f"{letter(seat)}'s move"
    if cost <= 0.05:
        return f"{who}: no better one found"
    options = mark.get("options") or []
    best = mark.get("best")
    if options and isinstance(options[0], dict) and isinstance(options[0].get("action"), dict):
        best = command_line(options[0]["action"])  # shorter, and what to type
    if short:
        return f"{who}: -{cost:.1f} +/-{spread:.1f}, best: {best}"
    parts = mark.get("why") if why else None
    gains = f" ({why_text(parts)})" if isinstance(parts, dict) and parts else ""
    return f"{who}: -{cost:.1f} (+/-{spread:.1f}); best: {best}{gains}"


def _short(name: str) -> str:
    return name[0] if name in CARD_NAMES else name


__all__ = [
    "Handoff",
    "ReplayDriver",
    "help_lines",
    "mark_text",
    "parse_viewer",
]


def _replay_keys(
    driver: ReplayDriver, run_line: Callable[[str], bool], moved: Callable[[], None]
) -> KeyBindings:
    keys = KeyBindings()
    # Only with an empty command line: the arrows edit a line being typed.
    moving = Condition(lambda: not get_app().current_buffer.text)
    steps = {
        "right": ("decision", True),
        "left": ("decision", False),
        ".": ("event", True),
        ",": ("event", False),
        "down": ("turn", True),
        "up": ("turn", False),
        "]": ("round", True),
        "[": ("round", False),
    }
    for key, (how, forward) in steps.items():

        @keys.add(key, filter=moving)
        def _step(event: KeyPressEvent, how: str = how, forward: bool = forward) -> None:
            driver.step(how, forward)
            moved()

    @keys.add("home", filter=moving)
    def _start(event: KeyPressEvent) -> None:
        run_line("start")

    @keys.add("end", filter=moving)
    def _end(event: KeyPressEvent) -> None:
        run_line("end")

    @keys.add("f6")
    def _next_seat(event: KeyPressEvent) -> None:
        driver.next_viewer()
        moved()

    @keys.add("f7")
    def _open(event: KeyPressEvent) -> None:
        run_line("open")

    return keys
