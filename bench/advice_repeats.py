"""The page's hints (the server's advice: its takeover bot's choice for the seat) as a
person follows them at a table where every offer is declined: how many of the offers
they suggest repeat terms the seat already put to the same seats that round, when the
advising bot knows only its own past offers (as before) and when it is told the seat's
offers of the round from the game's record (:func:`tyros_server.deputies.offers_made`).

    python bench/advice_repeats.py --games 24

Seat 0 of a 3-player game (seeds 1 to N) follows the advice of a bot that saw nothing
before (each hint asked afresh, as a person's seat's first hint is); the other seats play
the takeover bot's choices and decline every offer made to them. Both kinds of advice are
asked at each of seat 0's card turns; the seat plays the first kind's, so both are read
on the same positions.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence

from tyros_client.bots import make_bot
from tyros_rules import (
    PROPOSE_GET,
    PROPOSE_GIVE,
    PROPOSE_TO,
    Action,
    GameState,
    Kind,
    Options,
    Phase,
    legal_actions,
    new_game,
    push,
    seats_to_act,
    view,
)
from tyros_server.deputies import Advice, Offers, SeatBots, offers_made
from tyros_server.strategies import bot_takeover

PERSON = 0


def greedy() -> SeatBots:
    """The server's takeover policy of greedy bots, seeded by seat (the same choices)."""
    return bot_takeover(lambda seat, _rng: make_bot("greedy", seat, random.Random(seat)))


def advice(state: GameState, seat: int, policy: SeatBots, offers: Offers = ((), 0)) -> Action:
    seen, legal = view(state, seat), legal_actions(state, seat)
    people = frozenset({PERSON})
    action = Advice(0, None, "t", seat, state.version, seen, legal, policy, people, offers).run()
    assert action is not None
    return action


def terms(action: Action) -> tuple[object, ...]:
    return action[PROPOSE_TO], action[PROPOSE_GIVE], action[PROPOSE_GET]


def play(seed: int, counts: dict[str, list[int]]) -> None:
    """One game; adds to ``counts`` (per kind of advice: offers, repeats) and ``hints``."""
    state = new_game(Options(players=3, seed=seed))
    others = greedy()
    while seats_to_act(state):
        seat = seats_to_act(state)[0]
        if seat == PERSON and state.phase == Phase.ACTIONS:
            made = offers_made(state, PERSON)
            before = {terms(a) for a in made[0]}
            chosen = []
            for kind, offers in (("own offers only", ((), 0)), ("the round's offers", made)):
                action = advice(state, PERSON, greedy(), offers)
                if action[0] == Kind.PROPOSE:
                    counts[kind][0] += 1
                    counts[kind][1] += terms(action) in before
                chosen.append(action)
            counts["hints"][0] += 1
            action = chosen[0]
        elif state.phase == Phase.TRADE and seat != state.current:
            action = (Kind.ANSWER, 0)  # every offer declined
        else:
            action = advice(state, seat, others)
        push(state, seat, action)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=24, help="seeds 1 to N (default 24)")
    args = parser.parse_args(argv)
    counts = {"hints": [0], "own offers only": [0, 0], "the round's offers": [0, 0]}
    for seed in range(1, args.games + 1):
        play(seed, counts)
    print(f"{args.games} games, {counts['hints'][0]} card turns of the hinted seat")
    print("| the advising bot knows | offers suggested | repeating the round's terms |")
    print("| --- | ---: | ---: |")
    for kind in ("own offers only", "the round's offers"):
        offered, repeated = counts[kind]
        print(f"| {kind} | {offered} | {repeated} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
