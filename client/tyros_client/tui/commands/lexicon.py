"""The command line's vocabulary: cards, spaces, ports and players in the player's words,
and the payment to make when several are legal."""

from __future__ import annotations

import re
from collections.abc import Sequence

from tyros_protocol.board import BOARD, BoardError
from tyros_protocol.cards import counts_from_names
from tyros_rules import covers
from tyros_rules.legal import short_of

from ...words import CARDS, COLOURS, LETTERS, cards_short, cards_text, either, name_of, who
from .spec import Act, Action, Choose, CommandError, Context, Outcome, Problem, Result, Words


def order(label: str) -> tuple[int, str]:
    digits = "".join(ch for ch in label if ch.isdigit())
    return (int(digits) if digits else 0, label)


_CARD_TOKEN = re.compile(r"^(\d*)\s*([a-z]+)(?:\s*[x*](\d+))?$")


def parse_cards(text: str) -> list[str]:
    """Card names from the player's words.

    >>> parse_cards("green,wild"), parse_cards("2g w"), parse_cards("violet x2")
    (['green', 'wild'], ['green', 'green', 'wild'], ['violet', 'violet'])
    >>> parse_cards("-")
    []
    """
    text = text.strip().lower()
    if text in ("", "-", "none", "nothing"):
        return []
    text = re.sub(r"\s*[x*]\s*(\d+)", r"x\1", text)
    text = re.sub(r"(^|[\s,+])(\d+)\s+(?=[a-z])", r"\1\2", text)
    out: list[str] = []
    for token in re.split(r"[\s,+]+", text):
        if not token:
            continue
        found = _CARD_TOKEN.match(token)
        if not found:
            raise CommandError(f"not a card: {token!r}")
        before, word, after = found.groups()
        card = card_of(word)
        count = int(before or 1) * int(after or 1)
        if count > 20:
            raise CommandError(f"too many cards: {token!r}")
        out.extend([card] * count)
    return out


def card_of(word: str) -> str:
    for card in CARDS:
        if word in (card, card[0]) or (len(word) >= 3 and card.startswith(word)):
            return card
    raise CommandError(f"not a card: {word!r} ({either(CARDS)})")


def colour_of(word: str) -> str:
    card = card_of(word.lower())
    if card not in COLOURS:
        raise CommandError(f"a colour is {either(COLOURS)}")
    return card


def resolve_space(token: str) -> str:
    """A space label from a number, ``ty``, a name or the start of one.

    >>> resolve_space("tyros"), resolve_space("creta"), resolve_space("16e"), resolve_space("7")
    ('TY', '23', '16', '7')
    """
    word = token.strip()
    upper = word.upper()
    if upper in BOARD.port_labels:
        return BOARD.space_labels[BOARD.port_space[BOARD.port_labels.index(upper)]]
    try:
        return BOARD.space_label(BOARD.parse_space(word))
    except BoardError:
        pass
    lowered = word.lower()
    exact = [i for i, name in enumerate(BOARD.names) if name.lower() == lowered]
    if lowered == "tyros":
        exact = [0]
    starts = [i for i, name in enumerate(BOARD.names) if name.lower().startswith(lowered)]
    found = exact or (starts if len(lowered) >= 3 else [])
    if len(found) == 1:
        return BOARD.space_labels[found[0]]
    if len(found) > 1:
        names = ", ".join(f"{BOARD.space_labels[i]} {BOARD.names[i]}" for i in found)
        raise CommandError(f"{token!r} could be {names}")
    raise CommandError(f"{token!r} is not a space of the map (numbers 1-32, TY, or a name)")


_NAMES = {name.lower() for name in BOARD.names}


def join_names(words: Sequence[str]) -> list[str]:
    """The words with a space's name of several words (Carthago Nova) as one.

    >>> join_names(["carthago", "nova", "orange"]), join_names(["carthago", "27"])
    (['carthago nova', 'orange'], ['carthago', '27'])
    """
    out: list[str] = []
    for word in words:
        if out and f"{out[-1]} {word}".lower() in _NAMES:
            out[-1] = f"{out[-1]} {word}"
        else:
            out.append(word)
    return out


Wanted = tuple[str, str | None]
"""A place a player named: (its space's label, the exact port if a coast was named)."""


def port_filter(token: str) -> Wanted:
    """(space label, exact port or None) for a word naming a port or a space.

    >>> port_filter("creta"), port_filter("16e"), port_filter("Tyros")
    (('23', None), ('16', '16E'), ('TY', None))
    """
    upper = token.strip().upper()
    if upper in BOARD.port_labels and upper[-1:] in ("W", "E"):
        return resolve_space(token), upper
    return resolve_space(token), None


def label_of(wanted: Wanted) -> str:
    """The label of a named place: its port if a coast was named, else its space."""
    return wanted[1] or wanted[0]


def space_words(label: str) -> str:
    """A space or port label with the space's name, as messages say it.

    >>> space_words("23"), space_words("16W"), space_words("16"), space_words("TY")
    ('23 Creta', '16W Italia', '16 Italia', 'Tyros')
    """
    if label in BOARD.port_labels:
        name = BOARD.names[BOARD.port_space[BOARD.port_labels.index(label)]]
    else:
        name = BOARD.names[BOARD.parse_space(label)]
    return name if label == "TY" else f"{label} {name}"


def port_matches(port: str, wanted: Wanted) -> bool:
    space, exact = wanted
    if exact is not None:
        return port == exact
    return space_of_port(port) == space


def space_of_port(port: str) -> str:
    return BOARD.space_labels[BOARD.port_space[BOARD.port_labels.index(port)]]


def resolve_player(token: str, ctx: Context) -> int:
    """A seat from a letter or a name (or the start of one)."""
    word = token.strip().lower()
    players = range(ctx.players)
    if len(word) == 1 and word.upper() in LETTERS[: ctx.players]:
        return LETTERS.index(word.upper())
    exact = [s for s in players if name_of(s, ctx.names).lower() == word]
    starts = [s for s in players if name_of(s, ctx.names).lower().startswith(word)]
    found = exact or starts
    if len(found) == 1:
        return found[0]
    if found:
        raise CommandError(f"{token!r} could be " + ", ".join(who(s, ctx.names) for s in found))
    raise CommandError(f"no player {token!r}")


def wilds(action: Action) -> tuple[int, int, list[int]]:
    pay = action.get("pay") or []
    order = {card: i for i, card in enumerate(CARDS)}
    return (pay.count("wild"), len(pay), sorted(order[c] for c in pay))


def same_cards(a: Sequence[str], b: Sequence[str]) -> bool:
    return sorted(a) == sorted(b)


def split_pay(rest: str) -> tuple[list[str], list[str] | None]:
    """Positional words and the payment after ``pay`` (None if not given)."""
    words = rest.split()
    lowered = [w.lower() for w in words]
    if "pay" in lowered:
        at = lowered.index("pay")
        return join_names(words[:at]), parse_cards(" ".join(words[at + 1 :]))
    return join_names(words), None


def pick_payment(
    candidates: list[Action], pay: list[str] | None, what: str, hand: Sequence[str]
) -> Result:
    """One action among variants that differ only in payment (``hand``: the seat's cards,
    to say why a payment asked for is not among them)."""
    ordered = sorted(candidates, key=wilds)
    if pay is not None:
        for action in ordered:
            if same_cards(action.get("pay", []), pay):
                return Act(action)
        options = "; ".join(cards_short(a["pay"]) for a in ordered[:8])
        more = " ..." if len(ordered) > 8 else ""
        held, wanted = counts_from_names(hand), counts_from_names(pay)
        why = "not what it costs" if covers(held, wanted) else short_of(held, wanted)
        return Problem(
            f"cannot pay {cards_text(pay)} to {what} ({why}); you may pay: {options}{more}"
        )
    fewest = [a for a in ordered if wilds(a)[0] == wilds(ordered[0])[0]]
    if len(fewest) == 1:
        return Act(fewest[0])
    return Choose(
        f"How do you pay to {what}?",
        "Several payments are legal; pick one (or type the command again with pay CARDS).",
        tuple((f"pay {cards_text(a['pay'])}", a) for a in ordered),
    )


def payment_words(result: Outcome) -> Words:
    if isinstance(result, Act) and "pay" in result.action:
        return [("pay", f"default: {cards_text(result.action['pay'])}")]
    if isinstance(result, Choose):
        return [("pay", "several payments: name one")]
    return []
