"""What the greedy bot's decisions are made of: a seat's card actions grouped one per target
(the payment that keeps the most useful cards), the bundles of cards a trade may move, and
the utility it weighs them by. The search uses the same groups for its tree."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from tyros_protocol.cards import WILD, CardCounts
from tyros_rules import (
    K_BANK_DRAW,
    K_CITY,
    K_MOVE,
    K_PASS,
    K_SHIP,
    PAY_AT,
    UNPAID_AT,
    Action,
    GameState,
    IllegalActionError,
    bank_draw,
    bank_pick,
    bank_trades,
    card_actions,
    check_action,
    fewest_wilds,
    submultisets,
)

OPPONENT_WEIGHT = 0.35
"""How much the best opponent's value counts against the bot's own."""
TRADE_CARDS = 2
"""The most cards each way in the trades it proposes and counters with."""


def bundles(hand: Sequence[int], most: int = TRADE_CARDS) -> list[CardCounts]:
    """Every choice of 1 to ``most`` cards from ``hand``.

    >>> bundles((1, 0, 0, 0, 2))
    [(1, 0, 0, 0, 0), (0, 0, 0, 0, 1), (1, 0, 0, 0, 1), (0, 0, 0, 0, 2)]
    """
    a, b, c, d, e = (min(n, most) for n in hand)
    return [cards for size in range(1, most + 1) for cards in submultisets((a, b, c, d, e), size)]


ASKS = bundles((TRADE_CARDS,) * 5)
"""Every choice of cards a trade offer may ask for."""


def check_problem(state: GameState, seat: int, action: Action) -> str | None:
    """Why the engine refuses ``action`` of ``seat`` now, or None: the one source of legality
    for the offers and counter-offers a bot builds itself."""
    try:
        check_action(state, seat, action)
    except IllegalActionError as error:
        return str(error)
    return None


def utility(values: Sequence[float], seat: int, weight: float = OPPONENT_WEIGHT) -> float:
    """The seat's value minus ``weight`` times the best other seat's.

    >>> utility([30.0, 40.0, 20.0], 0, 0.5)
    10.0
    """
    best = max(v for s, v in enumerate(values) if s != seat)
    return values[seat] - weight * best


def cheapest(
    hand: CardCounts, count: int, card_value: Sequence[float], exclude: int = -1
) -> CardCounts | None:
    """The ``count`` cards of ``hand`` worth least (by ``card_value``), never ``exclude``."""
    left = list(hand)
    if exclude >= 0:
        left[exclude] = 0
    pay = [0, 0, 0, 0, 0]
    order = sorted(range(5), key=lambda k: card_value[k])
    need = count
    for kind in order:
        take = min(need, left[kind])
        pay[kind] += take
        need -= take
        if not need:
            return tuple(pay)  # type: ignore[return-value]
    return None


def action_key(action: Action) -> tuple[int, ...]:
    """The group an action belongs to: its target, whatever it pays.

    >>> move, draw = (3, 0, 23, 0, 0, 3, 0, 1), (6, 1, 0, 1, 0, 0)  # K_MOVE, K_BANK_DRAW
    >>> action_key(move), action_key(draw)
    ((3, 0, 23), (6, 2))
    """
    kind = action[0]
    if kind == K_BANK_DRAW:
        return (kind, sum(action[PAY_AT[kind]]))
    unpaid = UNPAID_AT.get(kind)
    if unpaid is not None:  # moves, cities, ships and bank picks: all but the payment
        return action[unpaid]
    return action


_PAID: dict[int, tuple[slice, slice]] = {kind: (UNPAID_AT[kind], at) for kind, at in PAY_AT.items()}
"""(all but the payment, the payment) of each kind that pays, in one lookup."""


def group_actions(
    legal: Iterable[Action], card_value: Sequence[float]
) -> dict[tuple[int, ...], Action]:
    """One action per group (:func:`action_key`): the payment that costs the least value.

    The value of a payment is the sum of ``card_value`` over its cards, so the
    cheapest keeps the most useful hand; ties keep the first listed (for a
    colour payment, the one with the fewest wilds).
    """
    best: dict[tuple[int, ...], tuple[float, Action]] = {}
    for action in legal:
        kind = action[0]
        at = _PAID.get(kind)
        if at is None:  # action_key(action) is the action
            if action not in best:
                best[action] = (0.0, action)
            continue
        pay = action[at[1]]
        key = (kind, sum(pay)) if kind == K_BANK_DRAW else action[at[0]]  # action_key, inlined
        cost = (
            pay[0] * card_value[0]
            + pay[1] * card_value[1]
            + pay[2] * card_value[2]
            + pay[3] * card_value[3]
            + pay[4] * card_value[4]
        )
        found = best.get(key)
        if found is None or cost < found[0] - 1e-9:
            best[key] = (cost, action)
    return {key: action for key, (_, action) in best.items()}


def card_options(
    state: GameState,
    seat: int,
    card_value: Sequence[float],
    firsts: list[Action] | None = None,
) -> dict[tuple[int, ...], Action]:
    """The grouped card actions of the seat to act (no trade offers), built directly.

    Like ``group_actions(legal_actions(...), card_value)`` without the proposals, but
    without listing every payment of every bank trade first: the engine's
    :func:`~tyros_rules.bank_trades` gives one of each, and each is paid with the
    cards worth least (:func:`cheapest`). ``firsts``: the seat's
    :func:`~tyros_rules.fewest_wilds`, if the caller has them already.
    """
    hand = state.hands[seat]
    out: dict[tuple[int, ...], Action] = {(K_PASS,): (K_PASS,)}
    wild = card_value[WILD]
    if (
        card_value[0] <= wild
        and card_value[1] <= wild
        and card_value[2] <= wild
        and card_value[3] <= wild
    ):
        # A move or a city pays in its colour, wilds making up the rest: with no colour
        # dearer than a wild, the cheapest payment is the one with the fewest wilds.
        for action in fewest_wilds(state, seat) if firsts is None else firsts:
            out[action[:3]] = action  # action_key: the kind and the two places
        kinds: tuple[int, ...] = (K_SHIP,)
    else:
        kinds = (K_MOVE, K_CITY, K_SHIP)
    for kind in kinds:
        actions = card_actions(state, seat, kind)
        if actions:
            out.update(group_actions(actions, card_value))
    paid: dict[int, CardCounts | None] = {}  # the cheapest cards, by how many are paid
    for kind, what, price in bank_trades(state, seat):
        if price not in paid:
            paid[price] = cheapest(hand, price, card_value)
        pay = paid[price]
        if pay is not None:
            out[(kind, what)] = bank_draw(pay) if kind == K_BANK_DRAW else bank_pick(what, pay)
    return out
