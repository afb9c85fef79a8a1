"""``tyros-review FILE --seat A``: what each of one seat's decisions cost, as it could see.

For every decision the seat made, the review rebuilds exactly what the seat knew then:
its :func:`~tyros_server.engine.view` of the game and the events its seat was shown (a
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
>>> from tyros_server.engine import export_record
>>> record = export_record(play_game(["greedy", "random", "random"], seed=3).state)
>>> review = review_record(record, seat=1, iterations=2)
>>> review.decisions[0].decision >= 1 and all(d.cost >= 0 for d in review.decisions)
True
>>> sorted(review.phases()) == sorted({d.phase for d in review.decisions})
True
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from tyros_protocol.board import BOARD
from tyros_server.engine import (
    K_PROPOSE,
    P_OVER,
    Action,
    GameState,
    Kind,
    RecordError,
    action_to_json,
    event_view,
    legal_actions,
    parse_action,
    push_unchecked,
    seats_to_act,
    view,
)

from .bots.determinize import Memory
from .bots.evaluate import Analysis
from .bots.ismcts import ROLLOUT_DEPTH, Search, rollout_action
from .replay import Replay
from .tui.text import describe_action

DEFAULT_ITERATIONS = 12
"""Determinizations per decision when no budget is given."""
PHASE_NAMES = {
    "expand": "expansion",
    "actions": "card actions",
    "trade": "trades",
    "give_card": "city owner's cards",
    "keep": "keeping cards",
}

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
    """Points the played option is estimated to give away against the best one found."""
    spread: float
    """The standard error of ``cost`` (paired over the same determinizations)."""
    options: list[OptionValue] = field(default_factory=list)
    """The best three options found, best first."""


@dataclass(slots=True)
class Review:
    seat: int
    name: str
    budget: dict[str, Any]
    decisions: list[DecisionReview]
    forced: int
    """The seat's decisions with one option only (not reviewed)."""
    seconds: float

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
            row["clear"] += d.cost > 2 * d.spread and d.cost > 0.5
        for row in out.values():
            row["mean_cost"] = row["cost"] / row["decisions"]
            row["cost"] = round(row["cost"], 2)
            row["mean_cost"] = round(row["mean_cost"], 2)
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "format": "tyros-review/1",
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
) -> tuple[list[tuple[Action, list[float]]], int]:
    """Each option's sampled values (the seat's lead in points, one per determinization,
    the same determinizations for every option) and how many determinizations were used.

    Only ``seen`` (the seat's view) and ``memory`` (its events) are used: the search
    bot's own determinizer deals the hidden cards and tiles.
    """
    search = Search(seen, seat, legal, rng, memory, rollout_depth=rollout_depth)
    options = list(search.root_options.values())
    if played is not None and played not in options:
        options.append(played)
    samples: list[list[float]] = [[] for _ in options]
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
            samples[at].append(_value_after(state, seat, option, seed, rollout_depth))
        done += 1
    return list(zip(options, samples, strict=True)), done


def _value_after(
    state: GameState, seat: int, option: Action, seed: int, rollout_depth: int
) -> float:
    """The seat's lead after ``option`` and a short rollout (seeded: the same for every
    option of one determinization), by the bots' evaluation (or the score, if over)."""
    after = state.copy(seed=seed)
    rng = random.Random(seed)
    push_unchecked(after, seat, option)
    for _ in range(rollout_depth):
        if after.phase == P_OVER:
            break
        actor = seats_to_act(after)[0]
        push_unchecked(after, actor, rollout_action(after, actor, rng))
    if after.phase == P_OVER and after.score is not None:
        values = [float(p["total"]) for p in after.score["players"]]
    else:
        values = Analysis(after).values()
    return values[seat] - max(v for s, v in enumerate(values) if s != seat)


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
    if not 0 <= seat < replay.players:
        raise RecordError(f"the game has seats A to {chr(ord('A') + replay.players - 1)}")
    names: list[str | None] = list(replay.names)
    mine = [n for n, at in enumerate(replay.action_at, 1) if replay.events[at]["seat"] == seat]
    memory = Memory(seat)
    fed = 0
    version = 0
    reviews: list[DecisionReview] = []
    forced = 0
    for count, number in enumerate(mine, 1):
        at = replay.action_at[number - 1]
        for event in replay.events[fed:at]:  # what the seat had been shown by then
            version += event.get("type") == "action"
            shown = event_view(event, seat, version)
            if shown is not None:
                memory.observe(shown)
        fed = at
        state = replay.states[number - 1]
        legal = legal_actions(state, seat)
        played = parse_action(replay.events[at]["action"], BOARD)
        if len(legal) <= 1 and played[0] != K_PROPOSE:
            forced += 1
            continue
        rng = random.Random(seed * 1_000_003 + number)
        weighed, _ = weigh_options(
            view(state, seat),
            seat,
            legal,
            _copy_memory(memory),
            rng,
            iterations=iterations,
            move_time=move_time,
            played=played,
        )
        reviews.append(_decision_review(number, state, played, weighed, names))
        if progress is not None:
            progress(count, len(mine))
    budget: dict[str, Any] = (
        {"iterations": iterations} if move_time is None else {"move_time": move_time}
    )
    budget["rollout_depth"] = ROLLOUT_DEPTH
    return Review(
        seat=seat,
        name=str(replay.names[seat]),
        budget=budget,
        decisions=reviews,
        forced=forced,
        seconds=time.perf_counter() - started,
    )


def _decision_review(
    number: int,
    state: GameState,
    played: Action,
    weighed: list[tuple[Action, list[float]]],
    names: Sequence[str | None],
) -> DecisionReview:
    options = ranked(weighed, names)
    values = dict(weighed)
    diffs = _held_out_gains(weighed, values[played])
    played_text = describe_action(action_to_json(played, BOARD), list(names))
    return DecisionReview(
        decision=number,
        round=state.round,
        phase="trade" if played[0] in TRADE_KINDS else state.phase.name.lower(),
        played=played_text,
        best=options[0].text,
        cost=round(max(0.0, statistics.fmean(diffs)), 2),
        spread=round(_stderr(diffs), 2),
        options=options[:3],
    )


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


def _copy_memory(memory: Memory) -> Memory:
    copy = Memory(memory.seat, memory.board)
    copy.cards = [list(row) for row in memory.cards]
    copy.tile_bottom = list(memory.tile_bottom)
    return copy


# The command line -------------------------------------------------------------------


def report(review: Review) -> str:
    """The review as text: the three costliest decisions first, then a summary by phase."""
    letter = chr(ord("A") + review.seat)
    budget = review.budget
    how = (
        f"{budget['iterations']} determinizations"
        if "iterations" in budget
        else f"{budget['move_time']} s"
    )
    total = sum(d.cost for d in review.decisions)
    lines = [
        f"Review of seat {letter} ({review.name}): {len(review.decisions)} decisions weighed "
        f"({review.forced} forced), {how} each, {review.seconds:.1f} s.",
        f"Estimated points given away in all: {total:.1f} (each estimate +/- its spread: "
        "a cost within twice its spread may be no mistake).",
        "",
        "The three costliest decisions:",
    ]
    for d in review.costliest():
        lines.append(
            f"  #{d.decision} (round {d.round}, {PHASE_NAMES.get(d.phase, d.phase)}): "
            f"played {d.played}; best found {d.best}: costs {d.cost:.1f} +/- {d.spread:.1f}"
        )
    lines += ["", "By phase:"]
    for phase, row in review.phases().items():
        lines.append(
            f"  {PHASE_NAMES.get(phase, phase)}: {int(row['decisions'])} decisions, "
            f"{row['cost']:.1f} points ({row['mean_cost']:.2f} each), "
            f"{int(row['clear'])} clear mistakes"
        )
    lines += ["", "Every decision (tyros-client --replay FILE --review REVIEW.json shows them):"]
    for d in review.decisions:
        mark = "  " if d.cost <= 2 * d.spread or d.cost <= 0.5 else "! "
        lines.append(
            f"{mark}#{d.decision} r{d.round} {d.phase}: {d.played}"
            + ("" if d.cost <= 0.05 else f" (best {d.best}: -{d.cost:.1f} +/- {d.spread:.1f})")
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="tyros-review",
        description="Weigh each decision one seat made in a recorded game, from that "
        "seat's view at the time only.",
    )
    parser.add_argument("record", help="a game record (tyros-arena --record, tyros-server export)")
    parser.add_argument("--seat", required=True, help="the seat to review: A, B, C or D")
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
    seat = ord(args.seat.strip().upper()[:1] or "?") - ord("A")
    if len(args.seat.strip()) != 1 or not 0 <= seat < 4:
        parser.error("--seat takes a letter, A to D")
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
        with open(args.record, encoding="utf-8") as file:
            record = json.load(file)
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
    print(json.dumps(review.to_json()) if args.json else report(review))
    return 0


__all__ = ["Review", "main", "ranked", "review_record", "weigh_options"]


if __name__ == "__main__":
    raise SystemExit(main())
