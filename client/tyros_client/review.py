"""``tyros-review FILE --seat A``: what each of one seat's decisions cost, as it could see.

For every decision the seat made, the review rebuilds exactly what the seat knew then:
its :func:`~tyros_rules.view` of the game and the events its seat was shown (a
:class:`~.bots.determinize.Memory` of them), never the full state. From these it weighs
the options the ISMCTS bot would consider there (its root options, with the move played
added), each over the same determinizations: the hidden cards and tiles dealt at random
in agreement with the view, the option applied, a few moves of the bots' fast rollout
policy, then the bots' evaluation of every seat's expected final points. An option's
value is the seat's expected final lead over the best other seat, in points; a
decision's *cost* is the best option's value minus the played one's, with its *spread*:
the standard error of that difference over the determinizations, so a cost of 0.8 with
a spread of 1.1 says "no clear mistake".

The budget is explicit: ``--iterations N`` determinizations per decision (reproducible
exactly: each decision has its own seeded generator) or ``--move-time S`` seconds. The
same :func:`weigh_options` gives the client's hints on a live seat's view.

>>> from tyros_client.arena import play_game
>>> from tyros_rules import export_record
>>> record = export_record(play_game(["greedy", "random", "random"], seed=3).state)
>>> review = review_record(record, seat=1, iterations=2)
>>> review.decisions[0].decision >= 1 and all(d.spread >= 0 for d in review.decisions)
True
>>> sorted(review.phases()) == sorted({d.phase for d in review.decisions})
True
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import random
import statistics
import sys
import textwrap
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from tyros_protocol.board import BOARD
from tyros_rules import (
    CITY_POINTS,
    K_PROPOSE,
    P_ACTIONS,
    P_GIVE_CARD,
    P_OVER,
    P_TRADE,
    Action,
    GameState,
    Kind,
    RecordError,
    action_to_json,
    events_seen,
    legal_actions,
    parse_action,
    push_unchecked,
    seats_to_act,
    view,
)

from .bots.determinize import Memory
from .bots.evaluate import Analysis
from .bots.greedy import Greedy
from .bots.search import ROLLOUT_DEPTH, Search, rollout_action
from .replay import Replay
from .words import LETTERS, describe_action

REVIEW_FORMAT = "tyros-review/1"
DEFAULT_ITERATIONS = 48
"""Determinizations per decision when no budget is given."""
PHASE_NAMES = {
    "expand": "expansion",
    "actions": "card actions",
    "trade": "trades",
    "give_card": "city owner's cards",
    "keep": "keeping cards",
}

TURN_STEPS = 12
"""The most moves played to finish the reviewed seat's turn before the rollout."""
TRADE_KINDS = frozenset({Kind.PROPOSE, Kind.ANSWER, Kind.COUNTER, Kind.COMPLETE, Kind.WITHDRAW})
"""Decisions counted as trades (an offer is made as a card action)."""

Progress = Callable[[int, int], None]
"""Called with (decisions reviewed, decisions to review)."""


@dataclass(slots=True)
class OptionValue:
    action: dict[str, Any]
    text: str
    value: float
    """The seat's expected final lead over the best other seat, in points."""
    spread: float
    """The standard error of ``value`` over the determinizations."""


@dataclass(slots=True)
class DecisionReview:
    decision: int
    """The decision's number in the game (1 is the first; ``goto N`` in a replay)."""
    round: int
    phase: str
    played: str
    best: str
    cost: float
    """Points the played option is estimated to give away against the best one found (below
    zero when the played one did better on the deals that judged it: no mistake)."""
    spread: float
    """The standard error of ``cost`` (paired over the same determinizations)."""
    options: list[OptionValue] = field(default_factory=list)
    """The best three options found, best first."""
    why: dict[str, float] = field(default_factory=dict)
    """What the best option gains over the one played, in the evaluation's :data:`PARTS`
    (those over a fifth of a point)."""
    by: str | None = None
    """Who made the decision if not the player alone: ``takeover`` (a bot, for the absent
    player), ``clock`` (the server, as time ran out) or ``hint`` (after asking for one)."""


@dataclass(slots=True)
class Review:
    seat: int
    name: str
    budget: dict[str, Any]
    decisions: list[DecisionReview]
    forced: int
    """The seat's decisions with one option only (not reviewed)."""
    seconds: float
    game: str = ""
    """Which game: :func:`game_key` of the record (a replay checks a review is of its game)."""

    def costliest(self, count: int = 3) -> list[DecisionReview]:
        return sorted(self.decisions, key=lambda d: -d.cost)[:count]

    def phases(self) -> dict[str, dict[str, float]]:
        """Per phase: decisions reviewed, their total and mean cost, and how many cost
        more than twice their spread (clear mistakes)."""
        out: dict[str, dict[str, float]] = {}
        for d in self.decisions:
            row = out.setdefault(d.phase, {"decisions": 0, "cost": 0.0, "clear": 0})
            row["decisions"] += 1
            row["cost"] += d.cost
            row["clear"] += is_clear(d)
        for row in out.values():
            row["mean_cost"] = row["cost"] / row["decisions"]
            row["cost"] = round(row["cost"], 2)
            row["mean_cost"] = round(row["mean_cost"], 2)
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "format": REVIEW_FORMAT,
            "game": self.game,
            "seat": self.seat,
            "name": self.name,
            "budget": self.budget,
            "seconds": round(self.seconds, 2),
            "forced": self.forced,
            "total_cost": round(sum(d.cost for d in self.decisions), 2),
            "costliest": [d.decision for d in self.costliest()],
            "phases": self.phases(),
            "decisions": [asdict(d) for d in self.decisions],
        }


# Weighing the options of one decision -----------------------------------------------


def weigh_options(
    seen: dict[str, Any],
    seat: int,
    legal: list[Action],
    memory: Memory | None,
    rng: random.Random,
    *,
    iterations: int | None = DEFAULT_ITERATIONS,
    move_time: float | None = None,
    played: Action | None = None,
    rollout_depth: int = ROLLOUT_DEPTH,
    breakdown: dict[Action, list[float]] | None = None,
) -> tuple[list[tuple[Action, list[float]]], int]:
    """Each option's sampled values (the seat's lead in points, one per determinization,
    the same determinizations for every option) and how many determinizations were used;
    ``breakdown`` receives each option's mean value in its :data:`PARTS`.

    Only ``seen`` (the seat's view) and ``memory`` (its events) are used: the search
    bot's own determinizer deals the hidden cards and tiles.
    """
    search = Search(seen, seat, legal, rng, memory, rollout_depth=rollout_depth)
    options = list(search.root_options.values())
    if played is not None and played not in options:
        options.append(played)
    samples: list[list[float]] = [[] for _ in options]
    sums = [[0.0] * len(PARTS) for _ in options]
    deadline = None if move_time is None else time.perf_counter() + move_time
    done = 0
    while True:
        if iterations is not None and done >= iterations:
            break
        if deadline is not None and done >= 2 and time.perf_counter() >= deadline:
            break
        state = search.determinizer.sample(rng)
        seed = rng.getrandbits(62)
        for at, option in enumerate(options):
            parts = _value_after(state, seat, option, seed, rollout_depth)
            samples[at].append(sum(parts))
            sums[at] = [total + part for total, part in zip(sums[at], parts, strict=True)]
        done += 1
    if breakdown is not None and done:
        breakdown.update(
            (option, [total / done for total in totals])
            for option, totals in zip(options, sums, strict=True)
        )
    return list(zip(options, samples, strict=True)), done


PARTS = ("cities", "ships", "bonuses", "hand", "rivals")
"""What an option's value is made of, in the evaluation's terms: the seat's cities, the
spaces its ships hold, its bonuses (majorities, all four empires), what its hand can still
buy, and the best other seat's value (counted against it)."""


def _value_after(
    state: GameState, seat: int, option: Action, seed: int, rollout_depth: int
) -> tuple[float, ...]:
    """The seat's lead after ``option`` and a short rollout (seeded: the same for every
    option of one determinization), by the bots' evaluation (or the score, if over), in
    its :data:`PARTS` (they add up to the lead)."""
    after = state.copy(seed=seed)
    rng = random.Random(seed)
    push_unchecked(after, seat, option)
    # First to the end of the seat's turn: an offer (answered, then completed or
    # withdrawn, and the turn's card action after it) is judged as the turn it leads to,
    # like passing, which ends the turn at once; else an offer would be judged mid-turn.
    for _ in range(TURN_STEPS):
        if after.current != seat or after.phase not in (P_ACTIONS, P_TRADE, P_GIVE_CARD):
            break
        actor = seats_to_act(after)[0]
        if after.phase == P_TRADE and actor != seat:
            push_unchecked(after, actor, _answer(after, actor, rng))
        else:
            push_unchecked(after, actor, rollout_action(after, actor, rng))
    for _ in range(rollout_depth):
        if after.phase == P_OVER:
            break
        actor = seats_to_act(after)[0]
        push_unchecked(after, actor, rollout_action(after, actor, rng))
    if after.phase == P_OVER and after.score is not None:
        players = after.score["players"]
        mine = players[seat]
        rank = {e["colour"]: e["rank"] - 1 for e in after.score["empires"]}
        cities = float(sum(e["cities"] * CITY_POINTS[rank[e["colour"]]] for e in mine["empires"]))
        ships = float(sum(e["points"] for e in mine["empires"])) - cities
        bonuses = float(mine["majority_points"] + mine["all_four_bonus"])
        rival = max(float(p["total"]) for s, p in enumerate(players) if s != seat)
        return cities, ships, bonuses, 0.0, -rival
    analysis = Analysis(after)
    values = analysis.values()
    rival = max(v for s, v in enumerate(values) if s != seat)
    return (*analysis.parts(seat), -rival)


def _answer(state: GameState, seat: int, rng: random.Random) -> Action:
    """An asked seat's answer to the seat's offer as a greedy bot of the determinization
    would give it (yes or no: its counter-offers are not weighed), so that an offer is
    valued by how the others judge it rather than by chance."""
    legal = [action for action in legal_actions(state, seat) if action[0] != Kind.COUNTER]
    return Greedy(state, seat, rng).answer(legal)


def ranked(
    weighed: list[tuple[Action, list[float]]], names: Sequence[str | None] = ()
) -> list[OptionValue]:
    """The options, best value first."""
    out = [
        OptionValue(
            action=(wire := action_to_json(action, BOARD)),
            text=describe_action(wire, list(names)),
            value=statistics.fmean(values),
            spread=_stderr(values),
        )
        for action, values in weighed
    ]
    return sorted(out, key=lambda o: -o.value)


def _stderr(values: Sequence[float]) -> float:
    return statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0


# A whole record ---------------------------------------------------------------------


def review_record(
    record: dict[str, Any],
    seat: int,
    *,
    iterations: int | None = DEFAULT_ITERATIONS,
    move_time: float | None = None,
    seed: int = 1,
    progress: Progress | None = None,
) -> Review:
    """Review every decision ``seat`` made in ``record`` (see the module's docstring)."""
    started = time.perf_counter()
    replay = Replay(record)
    if replay.public:
        raise RecordError("a game not over (a spectator's replay) cannot be reviewed")
    if not 0 <= seat < replay.players:
        raise RecordError(f"the game has seats A to {chr(ord('A') + replay.players - 1)}")
    names: list[str | None] = list(replay.names)
    mine = [n for n, at in enumerate(replay.action_at, 1) if replay.events[at]["seat"] == seat]
    weighed_ones = [n for n in mine if not _forced(replay, seat, n)]
    forced = len(mine) - len(weighed_ones)
    memory = Memory(seat)
    seen = events_seen(replay.events, seat)
    fed = 0  # how many of ``seen`` the memory has observed
    reviews: list[DecisionReview] = []
    for count, number in enumerate(weighed_ones, 1):
        at = replay.action_at[number - 1]
        while fed < len(seen) and seen[fed][0] < at:  # what the seat had been shown by then
            memory.observe(seen[fed][1])
            fed += 1
        state = replay.states[number - 1]
        played = parse_action(replay.events[at]["action"], BOARD)
        rng = random.Random(seed * 1_000_003 + number)
        breakdown: dict[Action, list[float]] = {}
        weighed, _ = weigh_options(
            view(state, seat),
            seat,
            legal_actions(state, seat),
            memory.copy(),
            rng,
            iterations=iterations,
            move_time=move_time,
            played=played,
            breakdown=breakdown,
        )
        review = _decision_review(number, state, played, weighed, names, breakdown)
        review.by = replay.decided_by.get(number) or ("hint" if number in replay.hinted else None)
        reviews.append(review)
        if progress is not None:
            progress(count, len(weighed_ones))
    budget: dict[str, Any] = (
        {"iterations": iterations} if move_time is None else {"move_time": move_time}
    )
    budget["rollout_depth"] = ROLLOUT_DEPTH
    return Review(
        game=game_key(record),
        seat=seat,
        name=str(replay.names[seat]),
        budget=budget,
        decisions=reviews,
        forced=forced,
        seconds=time.perf_counter() - started,
    )


def _forced(replay: Replay, seat: int, number: int) -> bool:
    """Whether decision ``number`` had one option only (not weighed; an offer always is)."""
    played = parse_action(replay.events[replay.action_at[number - 1]]["action"], BOARD)
    return played[0] != K_PROPOSE and len(legal_actions(replay.states[number - 1], seat)) <= 1


def _decision_review(
    number: int,
    state: GameState,
    played: Action,
    weighed: list[tuple[Action, list[float]]],
    names: Sequence[str | None],
    breakdown: dict[Action, list[float]],
) -> DecisionReview:
    options = ranked(weighed, names)
    values = dict(weighed)
    diffs = _held_out_gains(weighed, values[played])
    played_text = describe_action(action_to_json(played, BOARD), list(names))
    best = max(weighed, key=lambda item: statistics.fmean(item[1]))[0]
    why = {
        part: round(gain, 1)
        for part, gain in zip(PARTS, _gains(breakdown, best, played), strict=True)
        if abs(gain) >= 0.2
    }
    return DecisionReview(
        decision=number,
        round=state.round,
        phase="trade" if played[0] in TRADE_KINDS else state.phase.name.lower(),
        played=played_text,
        best=options[0].text,
        cost=round(statistics.fmean(diffs), 2),  # unclipped: noise averages out in sums
        spread=round(_stderr(diffs), 2),
        options=options[:3],
        why=why if best != played else {},
    )


def _gains(breakdown: dict[Action, list[float]], best: Action, played: Action) -> list[float]:
    """Part by part, what ``best`` gives over ``played`` (nothing known: no gains)."""
    if best not in breakdown or played not in breakdown:
        return [0.0] * len(PARTS)
    return [b - p for b, p in zip(breakdown[best], breakdown[played], strict=True)]


def why_text(why: dict[str, float]) -> str:
    """What the best option gains over the one played, in words, largest first.

    >>> why_text({"ships": 2.14, "hand": -0.8, "rivals": 0.5})
    'ships +2.1, hand -0.8, rivals +0.5'
    """
    ordered = sorted(why.items(), key=lambda item: -abs(item[1]))
    return ", ".join(f"{part} {gain:+.1f}" for part, gain in ordered)


def _held_out_gains(weighed: list[tuple[Action, list[float]]], played: list[float]) -> list[float]:
    """Per determinization, what the best option beat the played one by, the best chosen
    on the *other* half of the determinizations: the best of many noisy means is lucky on
    the samples that chose it, so judging it on those would see mistakes everywhere."""
    count = len(played)
    halves = [range(0, count, 2), range(1, count, 2)]
    gains: list[float] = []
    for chosen, judged in (halves, halves[::-1]):
        if not chosen or not judged:
            continue
        best = max(weighed, key=lambda item: sum(item[1][i] for i in chosen))[1]
        gains.extend(best[i] - played[i] for i in judged)
    return gains


def game_key(record: dict[str, Any]) -> str:
    """A short digest naming one game's record (its options and events).

    >>> game_key({"options": {"seed": 1}, "events": []}) == game_key({"options": {"seed": 2}})
    False
    """
    text = json.dumps([record.get("options"), record.get("events")], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def check_review(review: Any, record: dict[str, Any]) -> dict[str, Any]:
    """``review`` if it is a review (``tyros-review --json``) of ``record``'s game; a
    ValueError says what is wrong."""
    if not isinstance(review, dict) or review.get("format") != REVIEW_FORMAT:
        raise ValueError("not a review (write one with tyros-review FILE --seat A --json)")
    if not isinstance(review.get("seat"), int) or not isinstance(review.get("decisions"), list):
        raise ValueError("a damaged review (no seat or no decisions)")
    if review.get("game") != game_key(record):
        raise ValueError("that review is of another game")
    return review


# The command line -------------------------------------------------------------------


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def report(review: Review) -> str:
    """The review as text: the three costliest decisions first, then a summary by phase."""
    letter = LETTERS[review.seat]
    budget = review.budget
    how = f"{budget['iterations']} deals" if "iterations" in budget else f"{budget['move_time']} s"
    clear = [d for d in review.decisions if is_clear(d)]
    made = len(review.decisions) + review.forced
    lines = [
        *textwrap.wrap(
            f"Review of seat {letter} ({review.name}): {_plural(made, 'decision')}, "
            f"{len(review.decisions)} weighed ({review.forced} with one option only), {how} "
            f"each, {review.seconds:.1f} s.",
            88,
        ),
        *textwrap.wrap(
            "Each option is played on random deals of the cards and tiles this seat could not "
            "see; a cost is the points the move played is estimated to give away against the "
            "best one found, +/- its spread, and where the best one gains, in the evaluation's "
            "terms: cities, ships (spaces held), bonuses (majorities, all four empires), hand "
            "(what the cards can still buy) and rivals (the best other player held back). A "
            "cost within twice its spread may be no mistake "
            f"at all; {_plural(len(clear), 'decision')} cost more (marked ! below). Decisions "
            "marked (bot), (clock) or (hint) were a bot's for an absent player, the server's "
            "as time ran out, or made after a hint.",
            88,
        ),
        "",
        "The three costliest decisions:",
    ]
    for d in review.costliest():
        why = f" ({why_text(d.why)})" if d.why else ""
        lines.append(
            f"  #{d.decision} (round {d.round}, {PHASE_NAMES.get(d.phase, d.phase)}){_by(d)}: "
            f"played {d.played}; best found {d.best}: costs {d.cost:.1f} +/- {d.spread:.1f}" + why
        )
    lines += ["", "By phase (estimated points given away, all decisions added up):"]
    for phase, row in review.phases().items():
        lines.append(
            f"  {PHASE_NAMES.get(phase, phase)}: {_plural(int(row['decisions']), 'decision')}, "
            f"{row['cost']:.1f} points ({row['mean_cost']:.2f} each), "
            f"{_plural(int(row['clear']), 'clear mistake')}"
        )
    lines += [
        "",
        "Every decision (! a clear mistake; tyros-client --replay FILE --review REVIEW.json "
        "shows the same marks):",
    ]
    for d in review.decisions:
        mark = "! " if is_clear(d) else "  "
        why = f"; {why_text(d.why)}" if d.why else ""
        lines.append(
            f"{mark}#{d.decision} r{d.round} {d.phase}{_by(d)}: {d.played}"
            + ("" if d.cost <= 0.05 else f" (best {d.best}: -{d.cost:.1f} +/- {d.spread:.1f}{why})")
        )
    return "\n".join(lines)


def _by(decision: DecisionReview) -> str:
    return {"takeover": " (bot)", "clock": " (clock)", "hint": " (hint)"}.get(decision.by or "", "")


def is_clear(decision: DecisionReview) -> bool:
    """A clear mistake: a cost over half a point and over twice its spread."""
    return decision.cost > 0.5 and decision.cost > 2 * decision.spread


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="tyros-review",
        description="Weigh each decision one seat made in a recorded game, from that "
        "seat's view at the time only.",
    )
    parser.add_argument("record", help="a game record (tyros-arena --record, tyros-server export)")
    parser.add_argument("--seat", required=True, help=f"the seat to review: {', '.join(LETTERS)}")
    parser.add_argument(
        "--iterations",
        type=int,
        default=None,
        help=f"determinizations per decision (default {DEFAULT_ITERATIONS}; reproducible)",
    )
    parser.add_argument(
        "--move-time", type=float, default=None, help="seconds per decision instead"
    )
    parser.add_argument("--seed", type=int, default=1, help="the review's own seed (1)")
    parser.add_argument("--json", action="store_true", help="one JSON document")
    args = parser.parse_args(argv)
    given = args.seat.strip().upper()
    seat = LETTERS.find(given) if len(given) == 1 else -1
    if seat < 0:
        parser.error(f"--seat takes a seat's letter ({', '.join(LETTERS)} at 4 players)")
    if args.iterations is not None and args.iterations < 2:
        parser.error("--iterations must be at least 2 (a spread needs two)")
    if args.move_time is not None and args.move_time <= 0:
        parser.error("--move-time must be positive")
    iterations = args.iterations
    if iterations is None and args.move_time is None:
        iterations = DEFAULT_ITERATIONS

    def show(done: int, total: int) -> None:
        print(f"\rreviewing: decision {done} of {total}", end="", file=sys.stderr, flush=True)

    try:
        record = read_record(args.record)
        review = review_record(
            record,
            seat,
            iterations=iterations,
            move_time=args.move_time,
            seed=args.seed,
            progress=show if sys.stderr.isatty() else None,
        )
    except (OSError, ValueError, RecordError, KeyError, TypeError) as exc:
        print(f"tyros-review: {exc}", file=sys.stderr)
        return 1
    if sys.stderr.isatty():
        print(file=sys.stderr)
    try:
        print(json.dumps(review.to_json()) if args.json else report(review))
    except BrokenPipeError:  # (``| head``): the reader has what it wanted
        sys.stderr.close()
    return 0


def read_record(path: str, what: str = "game record") -> dict[str, Any]:
    """A record file's JSON (or a review's); a ValueError in words for a file that is not."""
    with open(path, encoding="utf-8") as file:
        try:
            data = json.load(file)
        except json.JSONDecodeError as exc:
            raise ValueError(f"{path} is not JSON (a {what} is): {exc}") from exc
    if not isinstance(data, dict):
        raise ValueError(f"{path} is not a {what}")
    return data


__all__ = [
    "Review",
    "check_review",
    "game_key",
    "main",
    "ranked",
    "read_record",
    "review_record",
    "weigh_options",
]


if __name__ == "__main__":
    raise SystemExit(main())
