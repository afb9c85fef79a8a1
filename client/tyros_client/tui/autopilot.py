"""The answers the screen gives for the player (:mod:`~tyros_client.courtesy` says which):
after a short pause, or at once; and the player's standing orders, with what ends them.

``autopass`` (F6) passes every card turn of the round; anything typed (but an answer to
an offer) or the end of the round's card turns stops it. An offer made meanwhile waits for
the player's answer and auto-pass goes on once it closes, however soon: one settled before
the player looked must not cost them their order. ``set decline on`` declines at once the offers the
player lacks the cards for, ``set autodecline on`` every offer while auto-pass is on.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any

from tyros_protocol.messages import Prompt

from ..courtesy import COURTESY_SECONDS, courtesy
from .settings import SettingsFile
from .state import ClientState

SETTINGS = {
    "decline": "decline at once the offers you lack the cards for, even when you could "
    "counter (off: only those you could not counter either)",
    "autodecline": "while auto-pass is on, decline every offer to you at once (off: an "
    "offer waits for your answer, and auto-pass goes on after it)",
    "confirm": "ask once before a move, city or bank action that spends 3 cards or more, "
    "or a move that owes a city owner a card",
}
"""What ``set NAME on|off`` changes, and what each means."""


class Autopilot:
    """Gives the courtesy answer due for each prompt, once, and carries out the player's
    orders (:attr:`.ClientState.orders`)."""

    def __init__(self, state: ClientState, send: Callable[[dict[str, Any]], None]) -> None:
        self.state = state
        self.send = send
        self.settings: SettingsFile | None = None
        """Where the settings are kept for the next game (None: this game only)."""
        self._answered: Prompt | None = None
        """The prompt an answer was given (or scheduled) for."""
        self.timers: list[asyncio.TimerHandle] = []

    def update(self) -> None:
        """After each message: end the orders that no longer hold, and answer what the
        client answers for the player (at once, or after a pause)."""
        state, orders = self.state, self.state.orders
        if orders.pass_round is not None:
            if state.over:
                orders.pass_round = None  # (the message line says the game is over)
            elif state.game is None or state.game.round != orders.pass_round:
                orders.pass_round = None
                state.note("auto-pass ended with the round", error=False)
            elif state.game.phase == "keep":  # (no card turn is left in the round)
                orders.pass_round = None
                state.note("auto-pass ended with the round's card turns", error=False)
        prompt = state.prompt
        if prompt is None or self._answered is prompt:
            return
        due = courtesy(state.view or {}, state.legal, state.seat, orders)
        if due is None:
            return
        self._answered = prompt
        if due.at_once:
            self._answer(prompt)
            return
        delay = random.uniform(*COURTESY_SECONDS)
        self.timers.append(asyncio.get_running_loop().call_later(delay, self._answer, prompt))

    def _answer(self, prompt: Prompt | None) -> None:
        if self.state.prompt is not prompt or prompt is None:
            return  # the question changed (withdrawn, answered by hand, timed out)
        due = courtesy(self.state.view or {}, self.state.legal, self.state.seat, self.state.orders)
        if due is not None:
            if due.note:
                self.state.note(due.note, error=False, lasting=True)
            if due.only_move:
                self.state.sent_for_you(due.action)  # (the player chose nothing)
            self.send(due.action)

    def waits_for_offer(self) -> bool:
        """Whether auto-pass is on and waits while the player answers an offer."""
        return self.state.orders.pass_round is not None and any(
            action.kind == "answer" for action in self.state.legal_actions
        )

    def typed(self) -> None:
        """The player typed: an ``autopass`` order ends (they mean to play), unless an
        offer waits for their answer (they are answering it)."""
        if self.state.orders.pass_round is not None and not self.waits_for_offer():
            self.state.orders.pass_round = None
            self.state.note("auto-pass stopped: you are typing", error=False)

    def toggle_pass(self) -> str:
        """``autopass``: on for the rest of the round, or off again; what to say."""
        orders, game = self.state.orders, self.state.game
        if orders.pass_round is not None:
            orders.pass_round = None
            return "auto-pass off"
        if self.state.seat is None or game is None or game.phase == "over":
            return "auto-pass is for a seat in a game being played"
        if game.phase == "keep":
            return "auto-pass is for card turns: this round has none left"
        orders.pass_round = game.round
        self._answered = None  # (the prompt now may be a turn to pass)
        self.update()
        return (
            f"auto-pass on: you pass every card turn left in round {orders.pass_round} "
            "(typing anything or F6 stops it)"
        )

    def setting(self, words: str) -> str:
        """``set [NAME on|off]``: change a setting; what to say (the settings, without
        words)."""
        parts = words.split()
        if len(parts) == 2 and parts[0] in SETTINGS and parts[1] in ("on", "off"):
            setattr(self.state.orders, parts[0], parts[1] == "on")
            if self.settings is not None:
                self.settings.save(self.state.orders)
            self._answered = None
            self.update()
            return f"{parts[0]} is {parts[1]}"
        now = "; ".join(
            f"set {name} on|off ({'on' if getattr(self.state.orders, name) else 'off'})"
            for name in SETTINGS
        )
        return f"{now}; 'help set' says what each does"

    def cancel(self) -> None:
        for timer in self.timers:
            timer.cancel()
        self.timers.clear()
