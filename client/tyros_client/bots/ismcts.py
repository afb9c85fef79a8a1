"""The ``ismcts`` strategy: information-set Monte Carlo tree search (:mod:`.search`) from
the seat's own view and the events it was shown.

Budget: ``iterations`` (a fixed count: reproducible with the seeded RNG) or
``move_time`` seconds per decision (default 1 s); with both, whichever comes
first; ``answer_iterations`` for an answer to an offer, where given.
:attr:`ISMCTSBot.stats` keeps the iterations and seconds spent.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any

from tyros_rules import K_ANSWER, Action, GameState

from .base import Bot, BotOptions
from .determinize import Memory
from .evaluate import HAND_WEIGHT
from .features import LearnedValue
from .search import (
    EXPLORATION,
    LACK_WEIGHT,
    ROLLOUT_DEPTH,
    ROOT_PRIOR,
    ROOT_WIDTH,
    SCORE_SHARE,
    TEMPERATURE,
    Search,
)

DEFAULT_MOVE_TIME = 1.0
VALUES = ("hand-set", "learned")
"""How a leaf is valued: :mod:`.evaluate` as set by hand, or :mod:`.features`' fitted weights."""


@dataclass(frozen=True)
class ISMCTSOptions(BotOptions):
    """``ismcts``'s settings. Its budget: ``iterations`` (a fixed count: with no
    ``move_time``, however long they take) or ``move_time`` seconds a decision, whichever
    comes first; neither: :data:`DEFAULT_MOVE_TIME`."""

    iterations: int | None = None
    move_time: float | None = None
    exploration: float = EXPLORATION
    temperature: float = TEMPERATURE
    rollout_depth: int = ROLLOUT_DEPTH
    root_width: int = ROOT_WIDTH
    score_share: float = SCORE_SHARE
    hand_weight: float = HAND_WEIGHT
    root_prior: float = ROOT_PRIOR
    """Weight of greedy's preference at the root (PUCT; 0: plain UCB1)."""
    prior_every_phase: bool = False
    """With a ``root_prior``: greedy's preference leads the expansions, the answers to an
    offer and the cards to keep too, not only the card actions."""
    lack_weight: float = LACK_WEIGHT
    """Each card of a kind a seat is believed to lack is dealt it with this weight, in
    [0, 1] (1: dealt as if nothing were known)."""
    answer_iterations: int | None = None
    """The budget of an answer to an offer (None: ``iterations``). Among programs the
    proposer goes on with the first seats to accept: a seat that answers later than the
    others is left out of the trade."""
    value: str = "hand-set"
    """``hand-set`` (:mod:`.evaluate`) or ``learned`` (:mod:`.features`)."""
    omniscient: bool = False
    """Search the true game (the arena shows it with :meth:`ISMCTSBot.reveal`): for the
    ladder's upper bound only; a bot at a table never sees more than its view."""

    def __post_init__(self) -> None:
        if self.value not in VALUES:
            raise ValueError(f"value must be one of {', '.join(VALUES)}")
        for name in ("iterations", "answer_iterations"):
            if getattr(self, name) is not None and getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1")
        if self.move_time is not None and not self.move_time > 0.0:
            raise ValueError("move_time must be more than 0 seconds")
        if not 0.0 <= self.lack_weight <= 1.0:
            raise ValueError("lack_weight must be between 0 and 1")
        if self.iterations is None and self.move_time is None:
            object.__setattr__(self, "move_time", DEFAULT_MOVE_TIME)


class ISMCTSBot(Bot):
    """ISMCTS on determinizations built from the seat's own view and events (its settings:
    :class:`ISMCTSOptions`)."""

    name = "ismcts"

    def __init__(self, seat: int, rng: random.Random, **options: Any) -> None:
        super().__init__(seat, rng, **options)
        self.memory = Memory(seat)
        self.settings = settings = ISMCTSOptions.parse(options)
        self.iterations, self.move_time = settings.iterations, settings.move_time
        self.learned = LearnedValue.shipped() if settings.value == "learned" else None
        self.omniscient = settings.omniscient
        self.truth: GameState | None = None
        self.stats = {"decisions": 0, "searches": 0, "iterations": 0, "seconds": 0.0}

    def observe(self, event: dict[str, Any]) -> None:
        self.memory.observe(event)

    def reveal(self, state: GameState) -> None:
        """The true game, before a decision (only if ``omniscient``: the arena's ladder)."""
        self.truth = state if self.omniscient else None

    def forget(self) -> None:
        self.memory = Memory(self.seat)

    def choose(self, view: dict[str, Any], legal: list[Action]) -> Action:
        self.stats["decisions"] += 1
        if len(legal) == 1:
            return legal[0]
        start = time.perf_counter()
        search = Search(
            view,
            self.seat,
            legal,
            self.rng,
            self.memory,
            exploration=self.settings.exploration,
            temperature=self.settings.temperature,
            rollout_depth=self.settings.rollout_depth,
            root_width=self.settings.root_width,
            score_share=self.settings.score_share,
            truth=self.truth,
            hand_weight=self.settings.hand_weight,
            manners=self.manners,
            learned=self.learned,
            root_prior=self.settings.root_prior,
            prior_every_phase=self.settings.prior_every_phase,
            lack_weight=self.settings.lack_weight,
        )
        if len(search.root_options) == 1:  # nothing to search (a tile to put back)
            action = next(iter(search.root_options.values()))
            self.remember_offer(view, action)
            return action
        budget = (
            None
            if self.move_time is None
            else max(0.0, self.move_time - (time.perf_counter() - start))
        )
        answering = self.settings.answer_iterations is not None and any(
            action[0] == K_ANSWER for action in legal
        )
        iterations = self.settings.answer_iterations if answering else self.iterations
        action = search.run(iterations, budget)
        self.remember_offer(view, action)
        self.stats["searches"] += 1
        self.stats["iterations"] += search.iterations
        self.stats["seconds"] += time.perf_counter() - start
        return action


__all__ = ["DEFAULT_MOVE_TIME", "ISMCTSBot", "ISMCTSOptions"]
