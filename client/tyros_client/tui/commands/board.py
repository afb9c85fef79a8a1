"""Commands on the map: expand an empire (or put a tile back), move a ship, build a city
or a ship; and what the map shows while a move is typed."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ...words import cards_text, describe_action
from .. import why as why_not
from .lexicon import (
    Wanted,
    colour_of,
    join_names,
    label_of,
    order,
    payment_words,
    pick_payment,
    port_filter,
    port_matches,
    resolve_space,
    same_cards,
    space_words,
    split_pay,
    wilds,
)
from .spec import Act, Action, Choose, CommandError, Context, NotNow, Outcome, Problem, Words


def parse_expand(rest: str, ctx: Context) -> Outcome:
    options = ctx.of_kind("expand")
    if not options:
        if ctx.of_kind("return_tile"):
            return Problem(why_not.NO_TILE_TOUCHES)
        return NotNow("expand")
    words = join_names(rest.split())
    if not words:
        return Choose(
            "Expand an empire",
            "Play one of your tiles next to an empire.",
            tuple((describe_action(a), a) for a in options),
        )
    tile = resolve_space(words[0])
    fits = [a for a in options if a["tile"] == tile]
    if not fits:
        return Problem(str(why_not.expand_problem(tile, ctx.tiles, ctx.legal)))
    if len(words) > 1:
        colour = colour_of(words[1])
        chosen = [a for a in fits if a["colour"] == colour]
        if not chosen:
            colours = ", ".join(a["colour"] for a in fits)
            return Problem(f"tile {tile} touches no {colour} empire; it can be {colours}")
        return Act(chosen[0])
    if len(fits) == 1:
        return Act(fits[0])
    return Choose(
        f"Tile {tile} touches {len(fits)} empires",
        f"Which empire grows into {tile}?",
        tuple((f"{a['colour']} empire", a) for a in fits),
    )


def parse_return(rest: str, ctx: Context) -> Outcome:
    options = ctx.of_kind("return_tile")
    if not options:
        return NotNow("put a tile back")
    words = join_names(rest.split())
    if not words:
        return Choose(
            "You cannot expand",
            "None of your tiles touches an empire. Choose the "
            "tile to put under the pile; you draw the top tile instead.",
            tuple((f"put back tile {a['tile']}", a) for a in options),
        )
    tile = resolve_space(words[0])
    for action in options:
        if action["tile"] == tile:
            return Act(action)
    return Problem(
        f"you do not hold tile {tile}; you hold " + ", ".join(a["tile"] for a in options)
    )


def parse_move(rest: str, ctx: Context) -> Outcome:
    options = ctx.of_kind("move")
    words, pay = split_pay(rest)
    if not options:
        why = None
        if words and len(words) <= 2 and ctx.view and ctx.seat is not None:
            try:
                ends = [port_filter(word) for word in words]
            except CommandError as exc:
                why = str(exc)
            else:
                start_label = label_of(ends[0]) if len(ends) == 2 else None
                why = why_not.move_problem(
                    ctx.view, ctx.seat, start_label, label_of(ends[-1]), ctx.names
                )
        return NotNow("move a ship", why)
    if not words or len(words) > 2:
        return Problem("move [FROM] TO [pay CARDS], e.g. move 31 27")
    start = port_filter(words[0]) if len(words) == 2 else None
    end = port_filter(words[-1])
    fits = [
        a
        for a in options
        if port_matches(a["to"], end) and (start is None or port_matches(a["from"], start))
    ]
    if not fits:
        return _no_such_move(options, start, end, ctx)
    if pay is not None:
        fits = [a for a in fits if same_cards(a["pay"], pay)] or fits
    routes: dict[tuple[str, str], list[Action]] = {}
    for action in fits:
        routes.setdefault((action["from"], action["to"]), []).append(action)
    if len(routes) == 1:
        ((route, actions),) = routes.items()
        return pick_payment(actions, pay, f"move {route[0]} -> {route[1]}", ctx.hand)
    choices = []
    for (origin, target), actions in sorted(routes.items()):
        best = min(actions, key=wilds)
        choices.append((f"move {origin} -> {target} paying {cards_text(best['pay'])}", best))
    return Choose("Which move?", "Several ships or coasts fit; pick one.", tuple(choices))


def _no_such_move(
    options: Sequence[Action], start: Wanted | None, end: Wanted, ctx: Context
) -> Problem:
    """Why no legal move goes (from ``start``) to ``end``, and which moves there are."""
    why = ""
    if ctx.view and ctx.seat is not None:
        start_label = label_of(start) if start is not None else None
        why = ": " + why_not.move_problem(ctx.view, ctx.seat, start_label, label_of(end), ctx.names)
    target = space_words(label_of(end))
    if start is not None:
        origin = space_words(label_of(start))
        from_here = [a for a in options if port_matches(a["from"], start)]
        if not from_here:
            origins = sorted({a["from"] for a in options}, key=order)
            return Problem(
                f"no ship of yours can move from {origin}{why}; ships that "
                f"can move: {', '.join(origins)}"
            )
        return Problem(
            f"you cannot move from {origin} to {target}{why}; from {origin} you can reach: "
            + _destinations(from_here)
        )
    return Problem(
        f"no ship of yours can reach {target} now{why}; reachable: " + _destinations(options)
    )


def _destinations(actions: Sequence[Action]) -> str:
    costs: dict[str, int] = {}
    for action in actions:
        costs[action["to"]] = min(costs.get(action["to"], 99), len(action["pay"]))
    return ", ".join(f"{to} (${c})" for to, c in sorted(costs.items(), key=lambda i: order(i[0])))


_NONE_ANYWHERE = {
    "city": "a city needs your ships alone in an empire's space, and 5 cards of its colour "
    "(4 beside two of your ships), wild cards counted",
    "ship": "a ship is built in Tyros or in a space with your city, paying cards of its colour",
}


def _build_in_space(
    kind: str, what: str, example: str, rest: str, ctx: Context
) -> tuple[str, list[Action], list[str] | None] | Outcome:
    """Parse ``SPACE [pay CARDS]`` for building ``what``: (space, its actions, pay), or why not."""
    options = ctx.of_kind(kind)
    words, pay = split_pay(rest)
    explain = why_not.city_problem if kind == "city" else why_not.ship_problem
    if not options:
        why = None
        if len(words) == 1 and ctx.view and ctx.seat is not None:
            try:
                why = explain(ctx.view, ctx.seat, resolve_space(words[0]), ctx.names)
            except CommandError as exc:
                why = str(exc)
        return NotNow(f"build {what}", why or _NONE_ANYWHERE[kind])
    if len(words) != 1:
        return Problem(f"{kind} SPACE [pay CARDS], e.g. {example}")
    space = resolve_space(words[0])
    fits = [a for a in options if a["space"] == space]
    if not fits:
        where = sorted({a["space"] for a in options}, key=order)
        why = (
            explain(ctx.view, ctx.seat, space, ctx.names)
            if ctx.view and ctx.seat is not None
            else "not possible now"
        )
        return Problem(f"you cannot build {what} in {space}: {why}; you can in: {', '.join(where)}")
    return space, fits, pay


def parse_city(rest: str, ctx: Context) -> Outcome:
    parsed = _build_in_space("city", "a city", "city 27", rest, ctx)
    if not isinstance(parsed, tuple):
        return parsed
    space, fits, pay = parsed
    ships: dict[str, list[Action]] = {}
    for action in fits:
        ships.setdefault(action["ship"], []).append(action)
    if len(ships) == 1:
        return pick_payment(fits, pay, f"build a city in {space}", ctx.hand)
    choices = []
    for port, actions in sorted(ships.items()):
        picked = pick_payment(actions, pay, f"build a city in {space}", ctx.hand)
        best = picked.action if isinstance(picked, Act) else min(actions, key=wilds)
        choices.append((f"the ship on {port} goes home (pay {cards_text(best['pay'])})", best))
    return Choose(
        f"City in {space}", "You have ships on both coasts: which one goes home?", tuple(choices)
    )


def parse_ship(rest: str, ctx: Context) -> Outcome:
    parsed = _build_in_space("ship", "a ship", "ship tyros", rest, ctx)
    if not isinstance(parsed, tuple):
        return parsed
    space, fits, pay = parsed
    return pick_payment(fits, pay, f"build a ship in {space}", ctx.hand)


def move_costs(line: str, ctx: Context) -> tuple[str | None, dict[str, int]]:
    """While a ``move`` is being typed: (its origin if named, destination -> cheapest cost).

    >>> ctx = Context(legal=[{"kind": "move", "from": "TY", "to": "31", "pay": ["violet"]},
    ...                      {"kind": "move", "from": "27", "to": "31", "pay": ["v", "v"]}])
    >>> move_costs("move 27 ", ctx)
    ('27', {'31': 2})
    >>> move_costs("move", ctx)
    (None, {'31': 1})
    >>> move_costs("pass", ctx)
    (None, {})
    """
    words = line.split()
    if not words or words[0].lower() != "move":
        return None, {}
    moves = ctx.of_kind("move")
    origin: str | None = None
    if len(words) >= 3 or (len(words) == 2 and line.endswith(" ")):
        try:
            wanted = port_filter(words[1])
        except CommandError:
            wanted = None
        if wanted is not None:
            from_here = [a for a in moves if port_matches(a["from"], wanted)]
            if from_here:
                moves = from_here
                origin = from_here[0]["from"] if wanted[1] is None else wanted[1]
    costs: dict[str, int] = {}
    for action in moves:
        costs[action["to"]] = min(costs.get(action["to"], 99), len(action["pay"]))
    return origin, costs


def move_words(args: list[str], ctx: Context) -> Words:
    moves = ctx.of_kind("move")
    if not args:
        origins = {a["from"]: 0 for a in moves}
        return [(o, "ship here") for o in sorted(origins, key=order)]
    if len(args) == 1:
        try:
            wanted = port_filter(args[0])
        except CommandError:
            return []
        costs: dict[str, int] = {}
        for a in moves:
            if port_matches(a["from"], wanted):
                costs[a["to"]] = min(costs.get(a["to"], 99), len(a["pay"]))
        # Cheapest first: a menu with room for a few shows the likeliest.
        return [
            (t, f"cost {c}") for t, c in sorted(costs.items(), key=lambda i: (i[1], order(i[0])))
        ]
    if len(args) == 2:
        return payment_words(parse_move(f"{args[0]} {args[1]}", ctx))
    return []


def build_words(command: str) -> Callable[[list[str], Context], Words]:
    def words(args: list[str], ctx: Context) -> Words:
        if not args:
            spaces = {a["space"] for a in ctx.of_kind(command)}
            return [(space, "") for space in sorted(spaces, key=order)]
        if len(args) == 1:
            return payment_words((parse_city if command == "city" else parse_ship)(args[0], ctx))
        return []

    return words


def expand_words(args: list[str], ctx: Context) -> Words:
    acts = ctx.of_kind("expand")
    if not args:
        tiles: dict[str, list[str]] = {}
        for a in acts:
            tiles.setdefault(a["tile"], []).append(a["colour"])
        return [(t, "/".join(c)) for t, c in sorted(tiles.items(), key=lambda i: order(i[0]))]
    if len(args) == 1:
        try:
            tile = resolve_space(args[0])
        except CommandError:
            return []
        return [(a["colour"], "") for a in acts if a["tile"] == tile]
    return []
