"""The page's hints (the server's advice: its takeover bot's choice for the seat) as a
person follows them at a table where every offer is declined, and now and then makes an
offer of their own: how many of the offers they suggest repeat terms the seat already put
to the same seats that round, when the advising bot goes by its own memory (the offers it
chose, followed or not: the server before ``d8666fc``) and when it is told the seat's
offers of the round from the game's record (:func:`tyros_server.deputies.offers_made`).

    python bench/advice_repeats.py --games 24

Seat 0 of a 3-player game (seeds 1 to N) is the person: at each of its card turns both
advisers (one bot each for the whole game, as the server keeps one a seat) are asked on the
same position; the person makes a random offer of their own one turn in four (if they may
offer), and otherwise plays the first adviser's choice. A third adviser, asked afresh each
time, stands for a bot that lost its memory. The other seats play the takeover
bot's choices and decline every offer made to them.
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
KINDS = ("its own memory", "nothing (its memory lost)", "the round's offers")
"""What the adviser knows of the seat's offers: what the server's bot went by before
``d8666fc``; what a bot that lost it (a restart, a table brought back from disk, a decision
process started again) knew; what it is told now."""


def greedy() -> SeatBots:
    """The server's takeover policy of greedy bots, seeded by seat (the same choices)."""
    return bot_takeover(lambda seat, _rng: make_bot("greedy", seat, random.Random(seat)))


def advice(state: GameState, seat: int, policy: SeatBots, offers: Offers | None = None) -> Action:
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
    rng = random.Random(seed)
    others, own_memory, told = greedy(), greedy(), greedy()
    while seats_to_act(state):
        seat = seats_to_act(state)[0]
        if seat == PERSON and state.phase == Phase.ACTIONS:
            made = offers_made(state, PERSON)
            before = {terms(a) for a in made[0]}
            chosen = []
            for kind, adviser, offers in (
                ("its own memory", own_memory, None),
                ("nothing (its memory lost)", greedy(), None),
                ("the round's offers", told, made),
            ):
                action = advice(state, PERSON, adviser, offers)
                if action[0] == Kind.PROPOSE:
                    counts[kind][0] += 1
                    counts[kind][1] += terms(action) in before
                chosen.append(action)
            counts["hints"][0] += 1
            action = chosen[0]
            own = [a for a in legal_actions(state, PERSON) if a[0] == Kind.PROPOSE]
            if own and rng.random() < 0.25:
                action = rng.choice(own)  # (one of the person's own)
        elif state.phase == Phase.TRADE and seat != state.current:
            action = (Kind.ANSWER, 0)  # every offer declined
        else:
            action = advice(state, seat, others)
        push(state, seat, action)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=24, help="seeds 1 to N (default 24)")
    args = parser.parse_args(argv)
    counts = {"hints": [0], **{kind: [0, 0] for kind in KINDS}}
    for seed in range(1, args.games + 1):
        play(seed, counts)
    print(f"{args.games} games, {counts['hints'][0]} card turns of the hinted seat")
    print("| the advising bot knows | offers suggested | repeating the round's terms |")
    print("| --- | ---: | ---: |")
    for kind in KINDS:
        offered, repeated = counts[kind]
        print(f"| {kind} | {offered} | {repeated} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
