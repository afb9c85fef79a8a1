"""Table manners towards people: which offers a bot may put to a person, and when a
proposer goes on without a person's answer.

A person reads an offer, weighs it and answers; a program answers at once. So a bot
that trades at a table with people keeps three manners (programs are not waited for,
and a table of programs plays as if these three did not exist):

- **It waits for every person it asked** (:func:`waits_for_people`): while an asked
  person's answer is pending, the proposer neither completes nor withdraws. The table's
  time to answer bounds the wait: when it runs out the server declines for the person,
  and the proposer goes on at once.
- **It offers a person only a trade it believes both sides gain from** (the strategy
  weighs the person's gain: see :meth:`Manners.may_ask`), **and that the person can
  likely pay**: an offer asking cards one does not hold can only be declined.
- **It offers a person few trades**: at most :data:`OFFERS_TO_A_PERSON` a round, never
  the same terms twice in a round (declined or not).

The server's bots are told the offers their seat made this round from the game's record
(:meth:`Manners.recall`), in place of their own memory: so is the bot whose choice is shown
to a person as a hint, so the person's own offers count as its own. A hint never suggests
terms the person already put this round, nor, after one offer to a person, another offer to
that person (:data:`OFFERS_TO_A_PERSON`); and a bot that lost its memory (a restart, a table
brought back from disk) knows the round's offers all the same.

One manner holds towards programs too: **no seat is offered the same terms twice in a
round**. Two bots could otherwise trade the same cards back and forth for ever (a trade
ends the proposer's turn without a pass, so the round stays open): in a self-play game of
four searches, two seats traded an orange for a green back and forth 5,018 times in the
last round before chance broke the loop.

>>> manners = Manners(people=frozenset({0}))
>>> manners.may_ask(0, (1, 0, 0, 0, 0), (0, 1, 0, 0, 0), round_=1, their_gain=0.5, holds=0.9)
True
>>> manners.may_ask(0, (1, 0, 0, 0, 0), (0, 1, 0, 0, 0), round_=1, their_gain=-0.1, holds=0.9)
False
>>> manners.may_ask(0, (1, 0, 0, 0, 0), (0, 1, 0, 0, 0), round_=1, their_gain=0.5, holds=0.4)
False
>>> manners.remember(0b011, (1, 0, 0, 0, 0), (0, 1, 0, 0, 0), round_=1)
>>> manners.may_ask(0, (1, 0, 0, 0, 0), (0, 1, 0, 0, 0), round_=1, their_gain=0.5, holds=0.9)
False
>>> manners.may_ask(1, (1, 0, 0, 0, 0), (0, 1, 0, 0, 0), round_=1, their_gain=-1.0, holds=0.0)
False
>>> manners.may_ask(1, (2, 0, 0, 0, 0), (0, 1, 0, 0, 0), round_=1, their_gain=-1.0, holds=0.0)
True
>>> manners.may_ask(0, (1, 0, 0, 0, 0), (0, 1, 0, 0, 0), round_=2, their_gain=0.5, holds=0.9)
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

OFFERS_TO_A_PERSON = 1
"""The offers one bot may put to one person in a round. Measured (docs/benchmarks.md,
"Trading with people"): a greedy bot that may ask a person only trades both gain from
wants to ask the same person a second time in a round rarely, and each offer holds the
table for the person's time to answer; one keeps a bot's offers to a person to a few a
round at a table of three bots."""

PERSON_GAIN = 0.0
"""A person is asked only if the bot believes the trade gains them more than this (in the
evaluation's points): an offer the person should refuse only costs them time."""


PERSON_HOLDS = 0.6
"""A person is asked only for cards the bot believes they hold with at least this chance
(programs: the strategy's own bound, 0.3 for greedy). Measured with ``bench/people.py``
(docs/benchmarks.md, "Trading with people"): the share of offers a person could accept."""


@dataclass(slots=True)
class Manners:
    """What a bot knows of the people at its table and the offers it put to them."""

    people: frozenset[int] = frozenset()
    """The seats people play (not programs, not the server's bots): only they are waited
    for and spared offers. Empty: a table of programs, where only the rule against the same
    offer twice a round holds."""
    round: int = -1
    offered: list[tuple[int, tuple[int, ...], tuple[int, ...]]] = field(default_factory=list)
    """(person, cards offered, cards asked) of each offer put to a person this round."""
    made: set[tuple[int, tuple[int, ...], tuple[int, ...]]] = field(default_factory=set)
    """(seat, cards offered, cards asked) of each offer put to any seat this round."""

    def may_ask(
        self,
        seat: int,
        give: Sequence[int],
        get: Sequence[int],
        *,
        round_: int,
        their_gain: float,
        holds: float,
    ) -> bool:
        """Whether an offer of ``give`` for ``get`` may be put to ``seat`` (a program:
        always), given what the bot believes it gains them and the chance it gives that
        they hold ``get``."""
        self._at(round_)
        if (seat, tuple(give), tuple(get)) in self.made:
            return False  # (not twice a round: two bots could trade back and forth)
        if seat not in self.people:
            return True
        if their_gain <= PERSON_GAIN or holds < PERSON_HOLDS:
            return False
        asked = [entry for entry in self.offered if entry[0] == seat]
        return len(asked) < OFFERS_TO_A_PERSON and (seat, tuple(give), tuple(get)) not in asked

    def may_counter(
        self, proposer: int, give: Sequence[int], asked: Sequence[int], *, holds: float
    ) -> bool:
        """Whether a counter-offer asking ``proposer`` (a program: always) to give
        ``give`` may be made, their offer having asked for ``asked``: a person is never
        asked for a kind they asked for (they lack or want it), and only for cards the bot
        believes them likely to hold (``holds``: the chance; 1 for cards they offered).

        >>> yellow, orange = (0, 1, 0, 0, 0), (1, 0, 0, 0, 0)
        >>> Manners(people=frozenset({1})).may_counter(1, yellow, yellow, holds=1.0)
        False
        >>> Manners(people=frozenset({1})).may_counter(1, orange, yellow, holds=0.9)
        True
        >>> Manners(people=frozenset({1})).may_counter(1, orange, yellow, holds=0.4)
        False
        """
        if proposer not in self.people:
            return True
        wanted = any(g and a for g, a in zip(give, asked, strict=True))
        return not wanted and holds >= PERSON_HOLDS

    def remember(self, to: int, give: Sequence[int], get: Sequence[int], *, round_: int) -> None:
        """The bot offers ``give`` for ``get`` to the seats of the bit mask ``to``."""
        self._at(round_)
        terms = (tuple(give), tuple(get))
        for seat in range(to.bit_length()):
            if to >> seat & 1:
                self.made.add((seat, *terms))
                if seat in self.people:
                    self.offered.append((seat, *terms))

    def recall(
        self, offers: Sequence[tuple[int, Sequence[int], Sequence[int]]], *, round_: int
    ) -> None:
        """What the seat offered this round is ``offers`` (``to``, ``give``, ``get`` each, as
        the game's record has them, whoever chose them: the bot, or the seat's person), in
        place of what the bot remembers: a hint for a person does not suggest again the
        terms already put this round.

        >>> manners = Manners(people=frozenset({2}))
        >>> manners.recall([(0b100, (1, 0, 0, 0, 0), (0, 1, 0, 0, 0))], round_=3)
        >>> manners.may_ask(2, (1, 0, 0, 0, 0), (0, 1, 0, 0, 0), round_=3, their_gain=1, holds=1)
        False
        """
        self.round, self.offered, self.made = round_, [], set()
        for to, give, get in offers:
            self.remember(to, give, get, round_=round_)

    def _at(self, round_: int) -> None:
        if round_ != self.round:
            self.round, self.offered, self.made = round_, [], set()


def waits_for_people(
    view: Mapping[str, Any], seat: int, people: frozenset[int] | None, *, anyone: bool = False
) -> bool:
    """Whether ``seat`` has an offer out that an asked person (with ``anyone``: any asked
    seat) has not answered yet; ``people`` None: every other seat counts as a person.

    >>> offer = {"proposer": 2, "answers": [{"seat": 0, "answer": "pending"},
    ...                                     {"seat": 1, "answer": "accept"}]}
    >>> waits_for_people({"trade": offer}, 2, frozenset({0}))
    True
    >>> waits_for_people({"trade": offer}, 2, frozenset({1}))
    False
    >>> waits_for_people({"trade": offer}, 2, frozenset(), anyone=True)
    True
    >>> waits_for_people({"trade": None}, 2, None)
    False
    """
    trade = view.get("trade")
    if trade is None or trade["proposer"] != seat:
        return False
    return any(
        answer["answer"] == "pending" and (anyone or people is None or answer["seat"] in people)
        for answer in trade["answers"]
    )


__all__ = ["OFFERS_TO_A_PERSON", "PERSON_GAIN", "Manners", "waits_for_people"]
