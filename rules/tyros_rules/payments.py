"""Card-count arithmetic and the ways to pay, cached: hands repeat endlessly in play."""

from __future__ import annotations

from functools import lru_cache

from tyros_protocol.cards import WILD, CardCounts


def minus(a: CardCounts, b: tuple[int, ...]) -> CardCounts:
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2], a[3] - b[3], a[4] - b[4])


def plus(a: CardCounts, b: tuple[int, ...]) -> CardCounts:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3], a[4] + b[4])


def covers(hand: tuple[int, ...], cards: tuple[int, ...]) -> bool:
    """Whether ``hand`` holds at least ``cards``.

    >>> covers((2, 0, 0, 0, 1), (1, 0, 0, 0, 1)), covers((2, 0, 0, 0, 1), (0, 1, 0, 0, 0))
    (True, False)
    """
    return (
        hand[0] >= cards[0]
        and hand[1] >= cards[1]
        and hand[2] >= cards[2]
        and hand[3] >= cards[3]
        and hand[4] >= cards[4]
    )


ONE: tuple[CardCounts, ...] = tuple(
    tuple(1 if kind == card else 0 for kind in range(5))  # type: ignore[misc]
    for card in range(5)
)
"""``ONE[card]`` is the card counts of a single card."""


@lru_cache(maxsize=1 << 16)
def submultisets(hand: CardCounts, size: int) -> tuple[CardCounts, ...]:
    """Every distinct choice of ``size`` cards from ``hand``.

    >>> submultisets((2, 0, 0, 0, 1), 2)
    ((2, 0, 0, 0, 0), (1, 0, 0, 0, 1))
    """
    a, b, c, d, e = hand
    out: list[CardCounts] = []
    for i in range(min(a, size), -1, -1):
        left_i = size - i
        for j in range(min(b, left_i), -1, -1):
            left_j = left_i - j
            for k in range(min(c, left_j), -1, -1):
                left_k = left_j - k
                for m in range(min(d, left_k), -1, -1):
                    if left_k - m <= e:
                        out.append((i, j, k, m, left_k - m))
    return tuple(out)


@lru_cache(maxsize=1 << 12)
def colour_payments(colour: int, count: int, have: int, wilds: int) -> tuple[CardCounts, ...]:
    """Every way to pay ``count`` cards of ``colour`` (each may be a wild), fewest wilds first.

    >>> colour_payments(2, 3, 2, 4)
    ((0, 0, 2, 0, 1), (0, 0, 1, 0, 2), (0, 0, 0, 0, 3))
    """
    out = []
    for wild in range(max(0, count - have), min(wilds, count) + 1):
        pay = [0, 0, 0, 0, 0]
        pay[colour] = count - wild
        pay[WILD] += wild
        out.append(tuple(pay))
    return tuple(out)  # type: ignore[arg-type]


def capped(hand: CardCounts, most: int) -> CardCounts:
    """``hand`` with no more than ``most`` cards of a kind: all that choosing ``most`` can use.

    Keying the caches below on it keeps them small and always hit.

    >>> capped((5, 0, 2, 3, 1), 3)
    (3, 0, 2, 3, 1)
    """
    a, b, c, d, e = hand
    return (
        a if a < most else most,
        b if b < most else most,
        c if c < most else most,
        d if d < most else most,
        e if e < most else most,
    )
