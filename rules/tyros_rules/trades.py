"""Trades in the legal enumeration: the proposals listed (one card for one, to every other
seat), the checks of a proposal or counter-offer (too many to list: checked instead), and
the replies to a pending offer (its answers, counters, completions). Part of the one source
of legality (:mod:`.legal`), apart for its length."""

from __future__ import annotations

from functools import lru_cache

from tyros_protocol.cards import DECK, CardCounts

from .actions import (
    COUNTER_GET,
    COUNTER_GIVE,
    K_ANSWER,
    K_COMPLETE,
    K_COUNTER,
    K_PROPOSE,
    PROPOSE_GET,
    PROPOSE_GIVE,
    PROPOSE_TO,
    TRADE_GET,
    TRADE_GIVE,
    WITHDRAW,
    Action,
    Seat,
)
from .errors import Reason
from .payments import ONE, capped, covers
from .state import ACCEPTED, COUNTERED, P_ACTIONS, P_TRADE, PENDING, GameState

_DECLINE: Action = (K_ANSWER, 0)
_ACCEPT: Action = (K_ANSWER, 1)


def may_propose(state: GameState, seat: Seat) -> str | None:
    if state.phase != P_ACTIONS or seat != state.current:
        return "a trade can be proposed only as your card action"
    if state.trade_tried:
        return "your trade fell through this turn: take another action or pass"
    return None


_PROPOSALS: dict[int, tuple[Action, ...]] = {}
""":func:`_proposals` by the kinds held, the seat and the players, in one int."""


def listed_proposals(hand: CardCounts, seat: Seat, players: int) -> tuple[Action, ...]:
    a, b, c, d, e = hand
    key = ((a > 0) | (b > 0) << 1 | (c > 0) << 2 | (d > 0) << 3 | (e > 0) << 4) << 5 | (
        seat << 3 | players
    )
    found = _PROPOSALS.get(key)
    if found is None:  # at most 32 x 4 x 4 keys
        found = _PROPOSALS[key] = _proposals(capped(hand, 1), seat, players)
    return found


def _proposals(hand: CardCounts, seat: Seat, players: int) -> tuple[Action, ...]:
    """The canonical family: one card for one card of another kind, asked of every other
    seat. Only which kinds the hand holds matters (call it with a capped hand)."""
    others = ((1 << players) - 1) & ~(1 << seat)
    return tuple(
        (K_PROPOSE, others, *ONE[give], *ONE[get])
        for give in range(5)
        if hand[give]
        for get in range(5)
        if get != give
    )


BOTH_WAYS = "a kind on both sides of a trade changes nothing: leave it out of both"


def _both_ways(give: tuple[int, ...], get: tuple[int, ...]) -> bool:
    """Whether some kind is both given and got (RULES.md A6): an orange for an orange moves
    nothing, yet completing it would end the turn without a pass.

    >>> _both_ways((1, 1, 0, 0, 0), (1, 0, 0, 0, 0)), _both_ways((1, 0, 0, 0, 0), (0, 0, 0, 0, 2))
    (True, False)
    """
    return any(a and b for a, b in zip(give, get, strict=True))


def proposal_problem(state: GameState, seat: Seat, action: Action) -> tuple[Reason, str] | None:
    """Why a trade proposal is not allowed, or None if it is."""
    problem = may_propose(state, seat)
    if problem is not None:
        reason = Reason.TRADE_ALREADY_TRIED if state.trade_tried else Reason.WRONG_PHASE
        return reason, problem
    mask = action[PROPOSE_TO]
    give, get = action[PROPOSE_GIVE], action[PROPOSE_GET]
    if mask <= 0 or mask >> state.players or mask >> seat & 1:
        return Reason.ILLEGAL, "ask one or more other seats of this table"
    if min(give) < 0 or min(get) < 0 or (not any(give) and not any(get)):
        return Reason.ILLEGAL, "a trade must move at least one card"
    if _both_ways(give, get):
        return Reason.ILLEGAL, BOTH_WAYS
    if any(n > limit for n, limit in zip(get, DECK, strict=True)):
        return Reason.ILLEGAL, "you ask for more cards of a kind than the game has"
    if not covers(state.hands[seat], give):
        return Reason.CANNOT_AFFORD, "you do not hold the cards you offer"
    return None


def counter_problem(state: GameState, seat: Seat, action: Action) -> tuple[Reason, str] | None:
    """Why a counter-offer is not allowed, or None if it is (RULES.md A8)."""
    trade = state.trade
    if state.phase != P_TRADE or trade is None or seat == state.current:
        return Reason.WRONG_PHASE, "a counter-offer answers a trade offer made to you"
    if state.answers[seat] != PENDING:
        return Reason.ILLEGAL, "you have answered this offer already"
    give, get = action[COUNTER_GIVE], action[COUNTER_GET]
    if min(give) < 0 or min(get) < 0 or (not any(give) and not any(get)):
        return Reason.ILLEGAL, "a trade must move at least one card"
    if _both_ways(give, get):
        return Reason.ILLEGAL, BOTH_WAYS
    if give == trade[TRADE_GIVE] and get == trade[TRADE_GET]:
        return Reason.ILLEGAL, "those are the offer's own terms: accept it"
    if any(n > limit for n, limit in zip(give, DECK, strict=True)):
        return Reason.ILLEGAL, "you ask for more cards of a kind than the game has"
    if not covers(state.hands[seat], get):
        return Reason.CANNOT_AFFORD, "you do not hold the cards you would give"
    return None


@lru_cache(maxsize=1 << 10)
def _counters(held: int, own: tuple[int, int] | None) -> tuple[Action, ...]:
    """The counter-offers listed (others are allowed): one card of the asked seat's (a kind
    in the bit mask ``held``) for one card of another kind, whatever the proposer holds
    (that stays hidden), except the offer's own terms ``own`` (wanted, offered) when it is
    one card for one card."""
    return tuple(
        (K_COUNTER, *ONE[wanted], *ONE[offered])
        for offered in range(5)
        if held >> offered & 1
        for wanted in range(5)
        if wanted != offered and (wanted, offered) != own
    )


@lru_cache(maxsize=1 << 12)
def _one_for_one(trade: tuple[int, ...]) -> tuple[int, int] | None:
    """(the kind the proposer gives, the kind it gets) if the trade is one card for one."""
    give, get = trade[TRADE_GIVE], trade[TRADE_GET]
    if sum(give) != 1 or sum(get) != 1:
        return None
    return give.index(1), get.index(1)


_G0, _G1, _G2, _G3, _G4 = range(TRADE_GET.start, TRADE_GET.stop)
"""Where a pending trade holds the cards it asks for, one by one."""


def trade_replies(state: GameState, seat: Seat) -> list[Action]:
    trade = state.trade
    assert trade is not None
    if seat == state.current:
        hand = state.hands[seat]
        completes = []
        for other, answer in enumerate(state.answers):
            if answer == ACCEPTED:
                completes.append((K_COMPLETE, other))
            elif answer == COUNTERED:
                terms = state.counters[other]
                if terms is not None and covers(hand, terms[:5]):  # the proposer's own hand
                    completes.append((K_COMPLETE, other))
        return [WITHDRAW, *completes]
    if state.answers[seat] != PENDING:
        return []
    hand = state.hands[seat]  # covers(hand, trade[TRADE_GET]), inlined: every answer asks it
    a, b, c, d, e = hand
    accept = (
        a >= trade[_G0]
        and b >= trade[_G1]
        and c >= trade[_G2]
        and d >= trade[_G3]
        and e >= trade[_G4]
    )
    held = (a > 0) | (b > 0) << 1 | (c > 0) << 2 | (d > 0) << 3 | (e > 0) << 4
    return list(_answers(trade, accept, held))


@lru_cache(maxsize=1 << 14)
def _answers(trade: tuple[int, ...], accept: bool, held: int) -> tuple[Action, ...]:
    """An asked seat's answers: decline, accept if it holds what is asked, the counters."""
    counters = _counters(held, _one_for_one(trade))
    return (_DECLINE, _ACCEPT, *counters) if accept else (_DECLINE, *counters)
