"""Commands with cards: the bank, trade offers and their answers, counter-offers,
completing or withdrawing an offer, a card for a city owner, the cards kept at the end of
a round."""

from __future__ import annotations

import re
from typing import Any

from ...words import (
    CARDS,
    LETTERS,
    answer_words,
    cards_short,
    cards_text,
    completing_words,
    name_of,
    who,
)
from .lexicon import card_of, parse_cards, pick_payment, resolve_player, same_cards
from .spec import (
    Act,
    Action,
    Choose,
    Context,
    Handler,
    NotNow,
    Outcome,
    Prefill,
    Problem,
    Words,
)


def parse_bank(rest: str, ctx: Context) -> Outcome:
    draws, picks = ctx.of_kind("bank_draw"), ctx.of_kind("bank_pick")
    if not draws and not picks:
        return NotNow("trade with the bank")
    words = rest.split()
    if not words:
        return Problem(
            "bank CARDS (discard them, draw as many), bank N, or bank 3:1 COLOUR [pay CARDS]"
        )
    first = words[0].lower()
    if first in ("3:1", "take", "pick"):
        if len(words) < 2:
            return Problem("bank 3:1 COLOUR: which card do you take from the discard pile?")
        take = card_of(words[1].lower())
        fits = [a for a in picks if a["take"] == take]
        if not fits:
            there = sorted({a["take"] for a in picks}, key=CARDS.index)
            if not picks:
                return Problem("you cannot take from the discard pile now (3 cards needed)")
            return Problem(
                f"there is no {take} card in the discard pile; there are: {', '.join(there)}"
            )
        tail = [w for w in words[2:] if w.lower() != "pay"]
        pay = parse_cards(" ".join(tail)) if tail else None
        return pick_payment(fits, pay, f"take a {take} card", ctx.hand)
    if first == "draw":
        words = words[1:]
    if not draws:
        return Problem("you cannot draw from the bank now (the draw pile is empty)")
    if len(words) == 1 and words[0].isdigit():
        count = int(words[0])
        fits = [a for a in draws if len(a["pay"]) == count]
        if not fits:
            return Problem("discard 1, 2 or 3 cards (as many as the draw pile holds)")
        return pick_payment(fits, None, f"draw {count}", ctx.hand)
    cards = parse_cards(" ".join(words))
    for action in draws:
        if same_cards(action["pay"], cards):
            return Act(action)
    return Problem(
        f"you cannot discard {cards_text(cards)} to draw: discard 1 to 3 cards "
        f"you hold ({cards_text(ctx.hand)})"
    )


def parse_trade(rest: str, ctx: Context) -> Outcome:
    if not ctx.of_kind("propose"):
        if ctx.trade is not None and ctx.seat == ctx.trade.proposer:
            return Problem("your offer is out: complete PLAYER or withdraw")
        return NotNow("offer a trade")
    words = rest.split()
    lowered = [w.lower() for w in words]
    seats = [s for s in range(ctx.players) if s != ctx.seat]
    if "to" in lowered:
        at = lowered.index("to")
        names = " ".join(words[at + 1 :])
        if names.strip().lower() in ("all", "everyone", "everybody"):
            asked = seats
        else:
            asked = sorted({resolve_player(t, ctx) for t in re.split(r"[\s,]+", names) if t})
        words, lowered = words[:at], lowered[:at]
        if not asked or ctx.seat in asked:
            return Problem("ask one or more other players")
    else:
        asked = seats
    if lowered[:1] == ["give"] and "get" in lowered:
        at = lowered.index("get")
        give, get = " ".join(words[1:at]), " ".join(words[at + 1 :])
    elif "for" in lowered:
        at = lowered.index("for")
        give, get = " ".join(words[:at]), " ".join(words[at + 1 :])
    else:
        return Problem("trade GIVE for GET [to PLAYERS], e.g. trade green for violet to B")
    terms = _terms(give, get, "trade")
    if isinstance(terms, Problem):
        return terms
    given, wanted = terms
    lacking = _lacking(given, ctx)
    if lacking:  # said here, in words: the server would only say "cannot afford"
        return Problem(lacking + " to offer")
    return Act({"kind": "propose", "to": asked, "give": given, "get": wanted})


def _terms(give: str, get: str, command: str) -> tuple[list[str], list[str]] | Problem:
    """A trade's or counter-offer's two sides as typed (the player's: what it gives, what it
    gets), as card names in the game's order, or why they cannot be sent."""
    half = _half_typed(give, get, command)
    if half is not None:
        return half
    given = sorted(parse_cards(give), key=CARDS.index)
    wanted = sorted(parse_cards(get), key=CARDS.index)
    if not given and not wanted:
        return Problem("a trade must move at least one card")
    return _both_sides(given, wanted) or (given, wanted)


def _half_typed(give: str, get: str, command: str) -> Problem | None:
    """A side left blank is a line sent too soon far more often than a gift: giving or
    asking for nothing must be said (``nothing``, ``none`` or ``-``)."""
    give, get = give.strip(), get.strip()
    if not give:
        return Problem(
            f"say what you give for {get}: e.g. {command} green for {get}, "
            f"or {command} nothing for {get}"
        )
    if not get:
        return Problem(
            f"say what you want for {give}: e.g. {command} {give} for violet, "
            f"or {command} {give} for nothing"
        )
    return None


def _both_sides(give: list[str], get: list[str]) -> Problem | None:
    """A kind given and asked for at once, which the rules refuse (RULES.md A6): said here
    with the kinds named."""
    both = sorted(set(give) & set(get), key=CARDS.index)
    if not both:
        return None
    return Problem(f"{' and '.join(both)} on both sides changes nothing: leave it out of both")


def _lacking(cards: list[str], ctx: Context) -> str | None:
    """What the player would give but does not hold, in words (None: it holds them all)."""
    hand = list(ctx.hand)
    short = sorted(card for card in set(cards) if cards.count(card) > hand.count(card))
    if not short:
        return None
    return f"you hold {cards_text(ctx.hand)}: not enough {', '.join(short)}"


def parse_counter(rest: str, ctx: Context) -> Outcome:
    """``counter GIVE for GET``: answer an offer with other terms, from the player's own side
    (it gives GIVE and gets GET); the protocol's counter is from the proposer's side."""
    if not ctx.of_kind("answer"):
        return Problem("nobody is asking you for a trade now: a counter-offer answers one")
    words = rest.split()
    lowered = [w.lower() for w in words]
    if "for" not in lowered:
        return Problem("counter GIVE for GET, e.g. counter orange for 2 green (you give orange)")
    at = lowered.index("for")
    terms = _terms(" ".join(words[:at]), " ".join(words[at + 1 :]), "counter")
    if isinstance(terms, Problem):
        return terms
    mine, wanted = terms
    lacking = _lacking(mine, ctx)
    if lacking:
        return Problem(lacking)
    trade = ctx.trade
    if (
        trade is not None
        and sorted(wanted) == sorted(trade.give)
        and sorted(mine) == sorted(trade.get)
    ):
        return Problem("those are the offer's own terms: type accept")
    return Act({"kind": "counter", "give": wanted, "get": mine})  # (the proposer's side)


def parse_answer_with(accept: bool) -> Handler:
    def handler(rest: str, ctx: Context) -> Outcome:
        answers = ctx.of_kind("answer")
        if not answers:
            if ctx.of_kind("withdraw"):  # the player's own offer is open
                return Problem(
                    "this offer is yours: withdraw it, or complete it with a player who accepted"
                )
            return Problem("nobody is asking you for a trade now")
        for action in answers:
            if action["accept"] is accept:
                return Act(action)
        return Problem("you do not hold the cards asked for: decline, or counter GIVE for GET")

    return handler


def parse_offer(rest: str, ctx: Context) -> Outcome:
    answers = ctx.of_kind("answer")
    trade = ctx.trade
    if not answers or trade is None:
        return Problem("nobody is asking you for a trade now")
    proposer = who(trade.proposer, ctx.names)
    give, get = trade.give, trade.get
    text = (
        f"{proposer} offers you {cards_text(give)} for your {cards_text(get)}.\n"
        f"You give {cards_text(get)} and get {cards_text(give)}."
    )
    options: list[tuple[str, Action | Prefill]] = []
    for action in sorted(answers, key=lambda a: not a["accept"]):
        if action["accept"]:
            options.append((f"Accept: give {cards_text(get)}, get {cards_text(give)}", action))
        else:
            options.append(("Decline", action))
    if ctx.of_kind("counter"):
        options.append(("Counter-offer... (you type: counter GIVE for GET)", Prefill("counter ")))
    if not any(action["accept"] for action in answers):
        text += "\nYou do not hold the cards asked for: decline, or counter-offer."
    return Choose(f"Trade offer from {proposer}", text, tuple(options))


def parse_complete(rest: str, ctx: Context) -> Outcome:
    completes, withdraws = ctx.of_kind("complete"), ctx.of_kind("withdraw")
    if not completes and not withdraws:
        return Problem("you have no trade offer out")
    trade = ctx.trade
    answers = [] if trade is None else trade.answers
    words = rest.split()
    if words:
        seat = resolve_player(words[0], ctx)
        for action in completes:
            if action["with"] == seat:
                return Act(action)
        answer = next((a for a in answers if a.seat == seat), None)
        if answer is not None and answer.answer == "counter":  # (asking for cards one lacks)
            lacking = _lacking(list(answer.give or []), ctx)
            return Problem(
                f"{who(seat, ctx.names)}'s counter-offer asks you for "
                f"{cards_text(answer.give or [])}: {lacking or 'you cannot pay it'}"
            )
        reply = None if answer is None else answer.answer
        if reply == "decline":
            return Problem(f"{who(seat, ctx.names)} declined your offer")
        if reply == "pending":
            return Problem(f"{who(seat, ctx.names)} has not answered your offer yet")
        return Problem(f"{who(seat, ctx.names)} has not accepted your offer (nor countered it)")
    # Every answer in one run, acceptances first, then the counters' terms: at 80 x 24 the
    # request panel has room for two or three lines, and these are what the player reads.
    first = {"accept": 0, "counter": 1}
    by_weight = sorted(answers, key=lambda a: first.get(a.answer, 2))
    said = " | ".join(f"{who(a.seat, ctx.names)} {answer_words(a.wire())}" for a in by_weight)
    lines = [said] if said else []
    countered = {a.seat: a for a in answers if a.answer == "counter"}

    def complete_text(action: dict[str, Any]) -> str:
        partner = action["with"]
        if partner in countered:
            terms = countered[partner]
            on = completing_words(terms.wire(), terms.give or [], terms.get or [])
            return f"Complete the trade with {who(partner, ctx.names)}: {on}"
        return f"Complete the trade with {who(partner, ctx.names)}"

    options: list[tuple[str, Action | Prefill]] = [(complete_text(a), a) for a in completes]
    options += [("Withdraw the offer", a) for a in withdraws]
    completable = {a["with"] for a in completes}
    unpaid = [a for a in countered.values() if a.seat not in completable]
    for answer in unpaid:
        lines.append(
            f"You cannot pay {who(answer.seat, ctx.names)}'s counter-offer: "
            f"{_lacking(list(answer.give or []), ctx) or 'its cards are not yours'}."
        )
    if not completes and all(a.answer == "decline" for a in answers):
        lines.append("Everybody declined: your client takes the offer back in a moment.")
    elif not completes and any(a.answer == "pending" for a in answers):
        lines.append("Waiting for the answers.")
    elif not completes:
        lines.append("No answer can be completed: withdraw the offer.")
    give, get = ([], []) if trade is None else (trade.give, trade.get)
    terms = f"{cards_text(give)} for {cards_text(get)}"
    return Choose(f"Your offer: {terms}", "\n".join(lines), tuple(options))


def parse_give(rest: str, ctx: Context) -> Outcome:
    options = ctx.of_kind("give_card")
    if not options:
        return NotNow("give a card")
    words = rest.split()
    if not words:
        return Choose(
            "A card for the city owner",
            "You moved into another player's city: give its owner one card.",
            tuple((f"give {a['card']}", a) for a in options),
        )
    if len(words) > 1 or "," in words[0]:
        return Problem("give exactly one card, e.g. give " + options[0]["card"])
    card = card_of(words[0].lower())
    for action in options:
        if action["card"] == card:
            return Act(action)
    return Problem(
        f"you hold no {card} card; you can give: " + ", ".join(a["card"] for a in options)
    )


def parse_keep(rest: str, ctx: Context) -> Outcome:
    options = ctx.of_kind("keep")
    if not options:
        return NotNow("keep cards")
    if not rest.strip():
        return Choose(
            "End of round: keep up to 3 cards",
            f"You hold {cards_text(ctx.hand)}: choose the cards to keep; the others are discarded.",
            tuple(
                (f"keep {cards_text(a['cards'])}" if a["cards"] else "keep none", a)
                for a in options
            ),
        )
    cards = parse_cards(rest)
    for action in options:
        if same_cards(action["cards"], cards):
            return Act(action)
    example = "e.g. keep " + cards_short(options[0]["cards"])
    if len(cards) > 3:
        return Problem(f"keep at most 3 cards (you named {len(cards)}), {example}")
    lacking = _lacking(cards, ctx)
    if lacking:
        return Problem(f"{lacking} to keep; {example}")
    return Problem(f"keep up to 3 of the cards you hold ({cards_text(ctx.hand)}), {example}")


def bank_words(args: list[str], ctx: Context) -> Words:
    picking = bool(args) and args[0].lower() in ("3:1", "take", "pick")
    if not args:
        forms: Words = []
        if ctx.of_kind("bank_pick"):
            forms.append(("3:1", "discard 3, take one from the discards"))
        if ctx.of_kind("bank_draw"):
            forms += [
                ("1", "discard 1, draw 1"),
                ("2", "discard 2, draw 2"),
                ("3", "discard 3, draw 3"),
            ]
        return forms
    if len(args) == 1 and picking:
        takes = sorted({a["take"] for a in ctx.of_kind("bank_pick")}, key=CARDS.index)
        return [(t, "in the discard pile") for t in takes]
    if len(args) == 2 and picking:
        return [("pay", "name the 3 cards")]
    return []


def trade_words(args: list[str], ctx: Context) -> Words:
    lowered = [a.lower() for a in args]
    if "to" in lowered:
        return [(LETTERS[s], name_of(s, ctx.names)) for s in range(ctx.players) if s != ctx.seat]
    if "for" in lowered or "get" in lowered:
        return [(c, "") for c in CARDS] + [("to", "which players")]
    if args:
        return [(c, "") for c in CARDS] + [("for", "what you want")]
    return [(c, "you give") for c in CARDS]
