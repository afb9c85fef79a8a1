"""A rating ladder for the bots: a pool plays rotated, seeded 4-player games, and a
Plackett-Luce model of the placements rates each entrant, with bootstrap intervals.

    python bench/ladder.py --games 300 --jobs 2             # the pool: play (or go on), fit
    python bench/ladder.py --table hard,normal,normal,normal --games 200 --jobs 2
                                                            # a match: one line-up, rotated
    python bench/ladder.py --fit                            # one fit of every game played
    python bench/ladder.py --pool random,easy,normal,hard --games 60 --results small.jsonl
    python bench/ladder.py --fit --results a.jsonl --results b.jsonl   # of these files only
    python bench/ladder.py --rename hard=ismcts-150 --results a.jsonl  # a level's old games

Game ``g`` seats four entrants of the pool, drawn and ordered by a generator seeded with
``--seed`` and ``g``, on the arena's game ``g`` (the same deal and bots' seeds as
``tyros-arena``), so it is the same game whenever and wherever it is played. Each game is
one line of ``--results`` (JSON, with the settings it was played with: its seed, line-up
and the definitions of the entrants it seats; a file of other settings is refused); games
already there are not played again, so a long ladder is made in as many runs as convenient,
split over ``--jobs`` processes (``--cluster tcp://HOST:8786``: over a Dask cluster's
workers, see :mod:`tyros_client.games`). ``--table`` plays a match instead: the same
line-up every game (an entrant may take several seats), rotated one seat a game so that
every entrant plays from every seat. The games played are kept in ``bench/ladder/`` (the
pool's in ``pool.jsonl``, a match's in ``hard-vs-normal.jsonl`` and the like), and
``--fit`` alone fits them all together: the README's table.

The pool (search budgets in iterations, so that every game reproduces exactly):

- ``random``: uniform among the legal actions;
- ``greedy-plain``: the one-step greedy bot that never offers a trade;
- ``easy``, ``normal``, ``hard``, ``expert``: ``tyros-play``'s levels as
  :mod:`tyros_client.bots.levels` defines them (the greedy bot that slips, the greedy bot,
  ISMCTS at two budgets), a search at its iterations without the cap in seconds (``hard``'s:
  ``--hard``); ``expert`` plays in matches (``--table expert,hard,hard,hard``), not in the
  pool's games;
- ``deep``: ISMCTS at ``--deep`` iterations (1,800 by default, what one second makes):
  what twelve times the search buys;
- ``seer``: ISMCTS at ``hard``'s budget that searches the true game (every hand, and the
  piles in their order: the draws to come too): an upper bound of what the hidden
  information costs the search.

The fit: a Plackett-Luce model of each game's placements (by score, the winners first;
equal scores and shared wins in seat order), strengths found by Hunter's MM algorithm
with one win and one loss against a fixed
average entrant (a weak prior, so that an entrant that never wins still has a finite
rating), reported on the Elo scale (400 log10) with ``easy`` at 0. Intervals: 95% from
refits on games resampled with replacement. An entrant in several seats of a game is
ranked once for each seat. Beside them: each entrant's wins a seat (a shared win counts),
with a 95% Wilson interval, its mean score, and for each pair of entrants, how often a seat
of the first placed above a seat of the second.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from tyros_client import arena
from tyros_client.bots.levels import LEVELS, reproducible
from tyros_client.games import ClusterUnavailable, Game, play_all

HARD_ITERATIONS = int(reproducible("hard")["iterations"])
DEEP_ITERATIONS = 1_800
POOL = ("random", "greedy-plain", "easy", "normal", "hard", "expert", "deep", "seer")
"""Every entrant (``deep`` and ``seer`` are yardsticks, not levels)."""
DEFAULT_POOL = tuple(name for name in POOL if name not in ("expert", "deep"))
"""The pool's games: ``expert`` and ``deep``, the costliest by far, are measured in matches."""
ANCHOR = "easy"
RESULTS = Path(__file__).resolve().parent / "ladder"


def results_path(table: Sequence[str] | None) -> Path:
    """Where a run's games are kept by default.

    >>> results_path(["hard", "normal", "normal", "normal"]).relative_to(RESULTS).as_posix()
    'hard-vs-normal.jsonl'
    >>> results_path(None).name
    'pool.jsonl'
    """
    return RESULTS / ("-vs-".join(dict.fromkeys(table)) + ".jsonl" if table else "pool.jsonl")


def entrants(hard: int, deep: int) -> dict[str, tuple[str, dict[str, Any]]]:
    """name -> (the arena's strategy, its options)."""
    levels = {name: (LEVELS[name].strategy, reproducible(name)) for name in ("easy", "normal")}
    expert = {"expert": (LEVELS["expert"].strategy, reproducible("expert"))}
    search = {**reproducible("hard"), "iterations": hard}  # seer and learned vary hard's search
    return {
        "random": ("random", {}),
        "greedy-plain": ("greedy-plain", {}),
        **levels,
        "hard": ("ismcts", search),
        **expert,
        "deep": ("ismcts", {"iterations": deep}),  # (as its kept games were played)
        "seer": ("ismcts", {**search, "omniscient": True}),
        "learned": ("ismcts", {**search, "value": "learned"}),
    }


def seating(pool: Sequence[str], seed: int, game: int, players: int = 4) -> list[str]:
    """The entrants of game ``game`` in seat order (the same for every run)."""
    rng = random.Random(arena.derive_seed(seed, "ladder", game))
    return rng.sample(list(pool), players)


def rotated(table: Sequence[str], game: int) -> list[str]:
    """A match's line-up in game ``game``: moved one seat on each game.

    >>> [rotated(["hard", "normal", "normal"], g) for g in range(3)]
    [['hard', 'normal', 'normal'], ['normal', 'hard', 'normal'], ['normal', 'normal', 'hard']]
    """
    shift = game % len(table)
    return list(table[len(table) - shift :]) + list(table[: len(table) - shift])


def game_of(
    seats: list[str], known: dict[str, tuple[str, dict[str, Any]]], seed: int, game: int
) -> Game:
    """Game ``game`` with ``seats`` (entrants) in seat order, as the arena plays it."""
    return Game(
        seats=tuple(known[name][0] for name in seats),
        setup=arena.game_setup("first", game, len(seats)),
        seed=seed,
        game=game,
        seat_options=tuple(known[name][1] for name in seats),
    )


def placements(line: dict[str, Any]) -> list[str]:
    """A game's entrants from first to last: the winners first, then by score."""
    seats, scores, winners = line["seats"], line["scores"], set(line["winners"])
    order = sorted(range(len(seats)), key=lambda s: (s not in winners, -scores[s]))
    return [seats[s] for s in order]


def fit(
    rankings: Sequence[Sequence[str]],
    names: Sequence[str],
    rounds: int = 500,
    anchor: str = ANCHOR,
) -> dict[str, float]:
    """Plackett-Luce strengths by Hunter's MM algorithm, as Elo-scale ratings (``anchor``, or
    the first name, at 0).

    >>> r = fit([["a", "b"]] * 30 + [["b", "a"]] * 10, ["a", "b"])
    >>> round(r["a"] - r["b"])  # about 3 to 1 (with the prior's pull towards even)
    185
    """
    gamma = dict.fromkeys(names, 1.0)
    for _ in range(rounds):
        wins = dict.fromkeys(names, 1.0)  # the prior: one win against the average ...
        denominators = {name: 2.0 / (gamma[name] + 1.0) for name in names}  # ... and one loss
        for ranking in rankings:
            for stage in range(len(ranking) - 1):
                left = ranking[stage:]
                wins[ranking[stage]] += 1.0
                share = 1.0 / sum(gamma[name] for name in left)
                for name in left:
                    denominators[name] += share
        updated = {name: wins[name] / denominators[name] for name in names}
        change = max(abs(math.log(updated[n] / gamma[n])) for n in names)
        gamma = updated
        if change < 1e-9:
            break
    anchor = anchor if anchor in names else names[0]
    return {name: 400.0 * math.log10(gamma[name] / gamma[anchor]) for name in names}


def intervals(
    rankings: Sequence[Sequence[str]],
    names: Sequence[str],
    resamples: int,
    seed: int,
    anchor: str = ANCHOR,
) -> dict[str, tuple[float, float]]:
    """95% bootstrap intervals of the ratings (games resampled with replacement)."""
    rng = random.Random(seed)
    fits = [
        fit([rankings[rng.randrange(len(rankings))] for _ in rankings], names, 200, anchor)
        for _ in range(resamples)
    ]
    out = {}
    for name in names:
        values = sorted(f[name] for f in fits)
        out[name] = (values[int(0.025 * len(values))], values[int(0.975 * len(values)) - 1])
    return out


def meetings(rankings: Sequence[Sequence[str]], a: str, b: str) -> tuple[int, int]:
    """How often a seat of ``a`` placed above a seat of ``b``, of the pairs of such seats.

    >>> meetings([["a", "b", "b"], ["b", "a", "b"]], "a", "b")
    (3, 4)
    """
    pairs = [
        i < j
        for ranking in rankings
        for i, first in enumerate(ranking)
        for j, second in enumerate(ranking)
        if first == a and second == b
    ]
    return sum(pairs), len(pairs)


def report(lines: Sequence[dict[str, Any]], resamples: int, seed: int, anchor: str = ANCHOR) -> str:
    """The ladder as a Markdown table: ratings with intervals, wins, games, and the
    pairwise record. Entrants not in :data:`POOL` (another version's, from
    ``bench/versus.py``) come after the pool's, as first seated."""
    rankings = [placements(line) for line in lines]
    seated = dict.fromkeys(name for line in lines for name in line["seats"])
    names = [name for name in POOL if name in seated]
    names += [name for name in seated if name not in POOL]
    ratings = fit(rankings, names, anchor=anchor)
    bounds = intervals(rankings, names, resamples, seed, anchor)
    seats = {n: sum(line["seats"].count(n) for line in lines) for n in names}
    won = {n: sum(line["seats"][s] == n for line in lines for s in line["winners"]) for n in names}
    points = {
        n: sum(line["scores"][s] for line in lines for s, e in enumerate(line["seats"]) if e == n)
        for n in names
    }
    order = sorted(names, key=lambda n: -ratings[n])
    rows = [
        "| entrant | rating | 95% interval | seats played | wins a seat | 95% interval "
        "| mean score |",
        "| --- | ---: | --- | ---: | --- | --- | ---: |",
    ]
    for n in order:
        low, high = bounds[n]
        rate = won[n] / seats[n] if seats[n] else 0.0
        w_low, w_high = arena.wilson_interval(won[n], seats[n])
        rows.append(
            f"| {n} | {ratings[n]:+.0f} | [{low:+.0f}, {high:+.0f}] | {seats[n]} "
            f"| {won[n]} ({rate:.1%}) | [{w_low:.1%}, {w_high:.1%}] "
            f"| {points[n] / max(1, seats[n]):.1f} |"
        )
    rows += ["", "A seat of the row placed above a seat of the column, of their meetings:", ""]
    rows.append("| | " + " | ".join(order) + " |")
    rows.append("| --- |" + " ---: |" * len(order))
    for a in order:
        cells = []
        for b in order:
            above, met = meetings(rankings, a, b)
            cells.append("-" if a == b or not met else f"{above}/{met}")
        rows.append(f"| {a} | " + " | ".join(cells) + " |")
    return "\n".join(rows)


def definitions_disagree(lines: Sequence[dict[str, Any]]) -> str | None:
    """The first entrant that games of one fit played under two definitions (the fit
    merges entrants by name), or None.

    >>> hard = lambda n: {"seats": ["hard"], "settings": {"entrants": {"hard": ["ismcts", n]}}}
    >>> definitions_disagree([hard(150), hard(150)]), definitions_disagree([hard(150), hard(450)])
    (None, 'hard')
    """
    seen: dict[str, Any] = {}
    for line in lines:
        known = (line.get("settings") or {}).get("entrants", {})
        for name in line["seats"]:
            if seen.setdefault(name, known.get(name)) != known.get(name):
                return str(name)
    return None


def renamed(line: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    """A game's line with its entrants renamed (all at once: names may swap), wherever a
    name appears: the seats, the line-up and the definitions it was played with. Used when
    a level changes, so that its earlier games keep their meaning beside the new ones.

    >>> line = {"seats": ["it600", "hard"], "settings": {"table": ["it600", "hard"],
    ...     "entrants": {"it600": ["ismcts", {"iterations": 600}],
    ...                  "hard": ["ismcts", {"iterations": 150}]}}}
    >>> renamed(line, {"hard": "ismcts-150", "it600": "hard"})["settings"]["entrants"]
    {'hard': ['ismcts', {'iterations': 600}], 'ismcts-150': ['ismcts', {'iterations': 150}]}
    """
    settings = dict(line.get("settings") or {})
    for key in ("pool", "table"):
        if key in settings:
            settings[key] = [names.get(name, name) for name in settings[key]]
    if "entrants" in settings:
        settings["entrants"] = {names.get(n, n): d for n, d in settings["entrants"].items()}
    seats = [names.get(name, name) for name in line["seats"]]
    return {**line, "seats": seats, **({"settings": settings} if "settings" in line else {})}


def rewrite_names(pairs: Sequence[str], paths: Sequence[Path]) -> None:
    """``--rename``: every file's entrants renamed by ``OLD=NEW`` pairs, each file written
    whole or not at all. Raises ValueError, before writing anything, where a name would be
    lost: no file, no NEW, an OLD named twice, a NEW that names an entrant already there
    (two entrants would merge), an OLD that no file has."""
    names: dict[str, str] = {}
    for pair in pairs:
        old, _, new = (part.strip() for part in pair.partition("="))
        if not old or not new or old in names:
            raise ValueError(f"--rename {pair!r}: OLD=NEW, each OLD once, expected")
        names[old] = new
    if not paths or not all(path.exists() for path in paths):
        raise ValueError("--rename needs the --results files to rewrite, and they must exist")
    found: dict[Path, list[dict[str, Any]]] = {path: read_results(path) for path in paths}
    present = {
        name
        for lines in found.values()
        for line in lines
        for name in [*line["seats"], *((line.get("settings") or {}).get("entrants") or {})]
    }
    kept, targets = present - set(names), list(names.values())
    clash = next((new for new in targets if new in kept or targets.count(new) > 1), None)
    if clash is not None:
        raise ValueError(f"--rename would merge two entrants into {clash!r}")
    missing = sorted(set(names) - present)
    if missing:
        raise ValueError(f"--rename: no game has an entrant {missing[0]!r}")
    for path, lines in found.items():
        temporary = path.with_name(path.name + ".renaming")
        text = "".join(json.dumps(renamed(line, names)) + "\n" for line in lines)
        temporary.write_text(text)
        os.replace(temporary, path)
        print(f"{path}: {len(lines)} games renamed")


def read_results(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def played_with(settings: dict[str, Any]) -> dict[str, Any]:
    """What a game's ``settings`` say of how it was played: the definitions of the entrants
    its line-up seats, not of others known then (a level changed since, say, that none of
    its games seated), so that such a change leaves a match free to resume.

    >>> played_with({"table": ["a", "b", "b"], "entrants": {"a": [1], "b": [2], "c": [3]}})
    {'table': ['a', 'b', 'b'], 'entrants': {'a': [1], 'b': [2]}}
    """
    if "entrants" not in settings:
        return settings
    seated = {*settings.get("table", ()), *settings.get("pool", ())}
    entrants = {name: known for name, known in settings["entrants"].items() if name in seated}
    return {**settings, "entrants": entrants}


def games_to_play(
    path: Path, settings: dict[str, Any], games: int
) -> tuple[list[dict[str, Any]], list[int]]:
    """The games kept in ``path``, and those of ``range(games)`` still to play: a run
    resumes where it stopped. Raises ValueError if ``path`` holds games of other
    ``settings`` (as a line of the file holds them)."""
    lines = read_results(path)
    wanted = played_with(settings)
    other = next(
        (line for line in lines if played_with(line.get("settings") or {}) != wanted), None
    )
    if other is not None:
        raise ValueError(
            f"{path} holds games played with other settings (game {other['game']}: "
            f"{other.get('settings')}); give another --results"
        )
    done = {line["game"] for line in lines}
    return lines, [g for g in range(games) if g not in done]


def run(
    pool: Sequence[str],
    games: int,
    jobs: int,
    seed: int,
    path: Path,
    known: dict[str, tuple[str, dict[str, Any]]],
    table: Sequence[str] | None = None,
    cluster: str | None = None,
) -> list[dict[str, Any]]:
    """Play the games of ``range(games)`` not in ``path`` yet, appending each in turn:
    seated from ``pool``, or by ``table`` rotated; in ``jobs`` processes, or on the Dask
    scheduler at ``cluster``.
    Raises ValueError if ``path`` holds games played with other settings."""
    lineup = {"table": list(table)} if table else {"pool": list(pool)}
    # (as a line of the file holds them: JSON's lists for tuples)
    settings = played_with(json.loads(json.dumps({"seed": seed, **lineup, "entrants": known})))
    lines, todo = games_to_play(path, settings, games)
    seated = {g: rotated(table, g) if table else seating(pool, seed, g) for g in todo}
    if not seated:
        return lines
    path.parent.mkdir(parents=True, exist_ok=True)
    work = [game_of(seats, known, seed, g) for g, seats in seated.items()]
    with path.open("a") as out:
        for played in play_all(arena.play, work, processes=jobs, cluster=cluster):
            line = {
                "game": played.game,
                "seats": seated[played.game],
                "scores": list(played.scores),
                "winners": list(played.winners),
                "settings": settings,
            }
            out.write(json.dumps(line) + "\n")
            out.flush()  # a run stopped half-way keeps every game it finished
            lines.append(line)
            print(f"game {line['game']}: {' > '.join(placements(line))}", file=sys.stderr)
    return sorted(lines, key=lambda line: line["game"])


def main(argv: Iterable[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=240, help="games 0 to N-1 (default 240)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument(
        "--cluster",
        metavar="tcp://HOST:8786",
        help="play on the workers of this Dask scheduler instead (pip install 'tyros[cluster]')",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pool", default=",".join(DEFAULT_POOL), help="entrants, comma-separated")
    parser.add_argument("--hard", type=int, default=HARD_ITERATIONS, help="its iterations")
    parser.add_argument("--deep", type=int, default=DEEP_ITERATIONS, help="its iterations")
    parser.add_argument(
        "--table", help="a match: this line-up every game (comma-separated), rotated"
    )
    parser.add_argument(
        "--results",
        type=Path,
        action="append",
        help=f"one JSON line a game (default: a file of {RESULTS}/ named after the pool or "
        f"the match); with --fit, as many as wanted (default: every file there)",
    )
    parser.add_argument(
        "--entrant",
        action="append",
        default=[],
        metavar="NAME=JSON",
        help="one more entrant: ismcts with these options (a variant to measure), e.g. "
        'x03=\'{"iterations": 150, "exploration": 0.3}\'',
    )
    parser.add_argument("--fit", action="store_true", help="fit the games played, play none")
    parser.add_argument(
        "--rename",
        action="append",
        default=[],
        metavar="OLD=NEW",
        help="rename an entrant in the games of --results (rewritten in place), play none: "
        "a level's earlier games keep their meaning when the level changes",
    )
    parser.add_argument("--resamples", type=int, default=200, help="bootstrap refits")
    parser.add_argument("--anchor", default=ANCHOR, help=f"the entrant rated 0 (default {ANCHOR})")
    args = parser.parse_args(None if argv is None else list(argv))
    known = entrants(args.hard, args.deep)
    for text in args.entrant:
        name, _, options = text.partition("=")
        try:
            known[name.strip()] = ("ismcts", dict(json.loads(options)))
        except (ValueError, TypeError):
            parser.error(f"--entrant {text!r}: NAME={{JSON options}} expected")
    if args.rename:
        try:
            rewrite_names(args.rename, args.results or [])
        except ValueError as exc:
            parser.error(str(exc))
        return 0
    pool = [name.strip() for name in args.pool.split(",") if name.strip()]
    unknown = [name for name in pool if name not in known]
    if unknown or len(pool) < 4:
        parser.error(f"--pool needs 4 or more of {', '.join(POOL)}")
    table = [name.strip() for name in (args.table or "").split(",") if name.strip()]
    if args.table is not None and (len(table) not in (3, 4) or set(table) - set(known)):
        parser.error(f"--table needs 3 or 4 of {', '.join(known)} (repeats allowed)")
    if args.resamples < 1:
        parser.error("--resamples needs 1 or more")
    paths = args.results or (
        sorted(RESULTS.glob("*.jsonl")) if args.fit else [results_path(table or None)]
    )
    if args.fit:
        lines = [line for path in paths for line in read_results(path)]
    elif len(paths) > 1:
        parser.error("several --results only with --fit")
    else:
        try:
            lines = run(
                pool, args.games, args.jobs, args.seed, paths[0], known, table, args.cluster
            )
        except (ValueError, ClusterUnavailable) as exc:
            parser.error(str(exc))
    if not lines:
        parser.error(f"no games in {', '.join(map(str, paths)) or RESULTS}")
    clash = definitions_disagree(lines)
    if clash is not None:
        parser.error(f"{clash!r} was played under two definitions: fit those files apart")
    for path in paths:
        played = next(iter(read_results(path)), {}).get("settings") or {}
        print(f"{path}: {len(read_results(path))} games, played with", end=" ")
        print(json.dumps(played_with(played)))
    print()
    print(report(lines, args.resamples, args.seed, args.anchor))
    return 0


if __name__ == "__main__":
    sys.exit(main())
