"""What every command shares: the context a line is parsed against, what a line parses
into, and the description of one command (:class:`Command`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from tyros_protocol.views import GameView, TradeInfo

Action = dict[str, Any]
"""A legal action in the frame's form: what the words read and what is sent."""


@dataclass(frozen=True)
class Context:
    """What a command is parsed against: the prompt's legal actions and the seat's view."""

    legal: Sequence[Action] = ()
    seat: int | None = None
    players: int = 4
    names: Sequence[str | None] = ()
    hand: Sequence[str] = ()
    tiles: Sequence[str] = ()
    trade: TradeInfo | None = None
    view: GameView | None = None
    """The seat's view, for explaining refusals (never for deciding what is legal)."""

    @classmethod
    def from_view(
        cls,
        game: GameView | None,
        legal: Sequence[Action],
        names: Sequence[str | None],
        seat: int | None,
    ) -> Context:
        """The context of the seat's ``game`` (the view as the protocol's model)."""
        if game is None:
            return cls(legal=list(legal), seat=seat, players=len(names) or 4, names=list(names))
        return cls(
            legal=list(legal),
            seat=seat,
            players=game.players,
            names=list(names),
            hand=list(game.hand or []),
            tiles=list(game.tiles or []),
            trade=game.trade,
            view=game,
        )

    def of_kind(self, *kinds: str) -> list[Action]:
        return [a for a in self.legal if a["kind"] in kinds]


@dataclass(frozen=True)
class Act:
    action: Action


@dataclass(frozen=True)
class Prefill:
    """A choice that sends nothing: it types ``text`` into the command line, for the
    player to finish (a counter-offer's cards are too many to list as choices)."""

    text: str


@dataclass(frozen=True)
class Choose:
    title: str
    text: str
    options: tuple[tuple[str, Action | Prefill], ...]


@dataclass(frozen=True)
class Local:
    command: str
    argument: str = ""


@dataclass(frozen=True)
class Say:
    """A line of table talk to send (the words as typed)."""

    text: str


@dataclass(frozen=True)
class Problem:
    message: str


Result = Act | Choose | Local | Say | Problem


class CommandError(ValueError):
    """Words that cannot be understood (the message says what was expected)."""


@dataclass(frozen=True)
class NotNow:
    """A handler's refusal of a command that is not among the legal actions now: the
    command line says why, with the command's phase and what the player can do instead."""

    what: str
    """What the player tried, as in "you cannot {what} now"."""
    why: str | None = None


Outcome = Result | NotNow
"""What a command's handler gives."""
Handler = Callable[[str, "Context"], Outcome]
"""(the words after the command, the context) -> its outcome."""
Words = list[tuple[str, str]]
"""Completion candidates: (word, what it means)."""
WordsFor = Callable[[list[str], "Context"], Words]
"""(the words typed after a command, the context) -> the words that may come next."""


class Pilot(Protocol):
    """The player's standing orders (the autopilot)."""

    def toggle_pass(self) -> str: ...
    def setting(self, words: str) -> str: ...


class Host(Protocol):
    """What the client's own commands act on: the application."""

    @property
    def autopilot(self) -> Pilot: ...

    def quit(self) -> None: ...
    def tell(self, text: str) -> None:
        """Say ``text`` on the message line (a note, not an error)."""

    def open_help(self, topic: str) -> None: ...
    def show_panel(self, name: str) -> None: ...
    def open_score(self) -> bool:
        """Open the score sheet; True when there is none to open (and the line says so)."""

    def ask_hint(self) -> bool: ...
    def look_back(self, review: bool) -> bool: ...


Run = Callable[[Host, str], bool]
"""A client's own command done: (the application, the command's argument) -> whether it
was refused (the command line keeps a refused line)."""


@dataclass(frozen=True)
class Command:
    """One command of the command line, described once: its help, what it parses into, the
    action kinds it makes, its phase, and the words its arguments may be. The help, the
    legal lines, the refusals and the completion all derive from these."""

    name: str
    usage: str
    about: str
    parse: Handler
    examples: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()
    """The legal actions' kinds it makes: it is offered (Tab, "now you can") when one is."""
    aliases: tuple[str, ...] = ()
    phase: str | None = None
    """The phase it belongs to: refused outside it, the refusal says so."""
    words: WordsFor | None = None
    """The words its arguments may be (Tab)."""
    always: bool = False
    """Offered by Tab at any time (the client's own commands)."""
    key: str | None = None
    """Its function key (``f2``): pressed, the command runs as if typed alone..."""
    key_types: bool = False
    """...or, for a command that needs words (``say``), is typed into the command line."""
    hidden: bool = False
    """Not in the help (a dialog's own command)."""
    run: Run | None = None
    """What a client's own command does (it parses into :class:`Local`): see ``own.py``."""
