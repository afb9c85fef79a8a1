"""Hints in a live game: the review's weighing of options on the seat's own view.

:func:`hint` is what ``hint`` (or F8) in ``tyros-client`` runs, off the interface thread:
the seat's view, its legal actions and the events it was shown (a
:class:`~.bots.determinize.Memory` of them), nothing else; the same weighing as
``tyros-review`` (:func:`~.review.weigh_options`) with an explicit budget.

>>> import random
>>> from tyros_rules import Options, legal_actions, new_game, view
>>> state = new_game(Options(players=3, seed=2))
>>> seat = state.current
>>> top = hint(view(state, seat), seat, legal_actions(state, seat), [], iterations=4)
>>> 1 <= len(top) <= 3 and top[0].value >= top[-1].value
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from tyros_rules import Action

from .bots.determinize import Memory
from .review import OptionValue, ranked, weigh_options
from .words import command_line

HINT_ITERATIONS = 48
"""Determinizations a hint weighs each option over (about 0.2 s on this project's machine)."""
HINT_SECONDS = 2.0
"""A hint never thinks longer than this (a slower machine weighs fewer determinizations)."""


def hint(
    seen: dict[str, Any],
    seat: int,
    legal: list[Action],
    events: Sequence[dict[str, Any]],
    names: Sequence[str | None] = (),
    *,
    iterations: int = HINT_ITERATIONS,
    seconds: float = HINT_SECONDS,
    seed: int | None = None,
) -> list[OptionValue]:
    """The three best options found, best first, with their estimated values (the seat's
    expected final lead in points) and spreads."""
    memory = Memory(seat)
    for event in events:
        memory.observe(event)
    rng = random.Random(seen.get("version", 0) if seed is None else seed)
    weighed, _ = weigh_options(
        seen, seat, legal, memory, rng, iterations=iterations, move_time=seconds
    )
    return hold_rather_than_bank(ranked(weighed, names))[:3]


BANK_MARGIN = 0.25
"""Points by which a bank trade must beat passing to be advised: within that it only spends
cards (a wild, perhaps) on the estimate's noise."""


def hold_rather_than_bank(options: list[OptionValue]) -> list[OptionValue]:
    """``options`` (best first), with passing put first when the best is a bank trade that
    beats it by less than :data:`BANK_MARGIN` (or its spread).

    >>> from tyros_client.review import OptionValue
    >>> bank = OptionValue({"kind": "bank_pick"}, "bank 3:1 yellow", 2.1, 0.05)
    >>> hold = OptionValue({"kind": "pass"}, "pass", 2.0, 0.05)
    >>> [o.text for o in hold_rather_than_bank([bank, hold])]
    ['pass', 'bank 3:1 yellow']
    >>> clear = OptionValue({"kind": "bank_pick"}, "bank 3:1 yellow", 2.6, 0.05)
    >>> [o.text for o in hold_rather_than_bank([clear, hold])]
    ['bank 3:1 yellow', 'pass']
    """
    if not options or not str(options[0].action.get("kind", "")).startswith("bank"):
        return options
    best = options[0]
    for option in options[1:]:
        if option.action.get("kind") == "pass":
            if best.value - option.value < max(BANK_MARGIN, 2 * best.spread):
                return [option, *(o for o in options if o is not option)]
            break
    return options


def hint_line(options: list[OptionValue]) -> str:
    """One line for the message line and the log.

    >>> from tyros_client.review import OptionValue
    >>> hint_line([OptionValue({}, "pass", 3.0, 0.5), OptionValue({}, "ship in 23", 1.5, 0.4)])
    'hint: 1. pass (best)  2. ship in 23 (-1.5 points, +/- 0.4)'
    >>> hint_line([OptionValue({}, "pass", 3.0, 0.5), OptionValue({}, "ship", 2.98, 0.4)])
    'hint: 1. pass (best)  2. ship (about as good, +/- 0.4)'
    """
    if not options:
        return "hint: nothing to weigh"
    best = options[0].value
    parts = [f"1. {_typed(options[0])} (best)"]
    for at, option in enumerate(options[1:], 2):
        behind = best - option.value
        how = "about as good" if behind < 0.05 else f"-{behind:.1f} points"
        parts.append(f"{at}. {_typed(option)} ({how}, +/- {option.spread:.1f})")
    return "hint: " + "  ".join(parts)


def hint_headline(options: list[OptionValue]) -> str:
    """The hint in a few words, for the message line (the log has it whole).

    >>> from tyros_client.review import OptionValue
    >>> hint_headline([OptionValue({}, "pass", 3.0, 0.5), OptionValue({}, "ship", 1.5, 0.4)])
    'hint: pass is best (the log has 2 options)'
    """
    if not options:
        return "hint: nothing to weigh"
    return f"hint: {_typed(options[0])} is best (the log has {len(options)} options)"


def _typed(option: OptionValue) -> str:
    """The command that makes the option (what to type), else its words."""
    return command_line(option.action) if option.action else option.text


__all__ = ["HINT_ITERATIONS", "HINT_SECONDS", "hint", "hint_headline", "hint_line"]
