"""``tyros-server --takeover``: the server plays absent seats without knowing any bot.

The strategy is loaded by name (``random`` is built in) or from an importable
``MODULE:NAME`` factory, so ``tyros_server`` never imports ``tyros_client``.
"""

from __future__ import annotations

import random
import subprocess
import sys
from typing import Any

import pytest
from tyros_rules import (
    K_COUNTER,
    K_PROPOSE,
    Options,
    legal_actions,
    new_game,
    push,
    seats_to_act,
    view,
)
from tyros_server import cli, deputies


def _play(policy: deputies.TakeoverPolicy, steps: int = 60, seed: int = 3) -> None:
    """Let ``policy`` play every seat of a game for ``steps`` actions (each legal)."""
    state = new_game(Options(players=3, seed=seed))
    for _ in range(steps):
        seat = seats_to_act(state)[0]
        legal = legal_actions(state, seat)
        action = policy("t", seat, view(state, seat), legal)
        # An offer or a counter-offer a bot built itself is checked on push.
        assert action in legal or action[0] in (K_PROPOSE, K_COUNTER)
        push(state, seat, action)


def test_the_built_in_random_strategy_plays_legal_actions() -> None:
    _play(cli.bot_takeover("random"))


def test_a_strategy_loads_from_module_and_name() -> None:
    _play(cli.bot_takeover("tyros_client.bots.greedy:GreedyBot"), steps=25)
    _play(cli.bot_takeover("tyros_client.bots.random_bot:RandomBot"))


def test_one_player_per_table_and_seat() -> None:
    made: list[tuple[int, deputies.RandomPlayer]] = []

    def factory(seat: int, rng: random.Random) -> deputies.SeatPlayer:
        player = deputies.RandomPlayer(seat, rng)
        made.append((seat, player))
        return player

    policy = cli.bot_takeover(factory)
    state = new_game(Options(players=3, seed=1))
    seat = seats_to_act(state)[0]
    for table in ("a", "a", "b"):
        policy(table, seat, view(state, seat), legal_actions(state, seat))
    assert [s for s, _ in made] == [seat, seat]


def test_the_bots_strategies_load_by_name_through_their_entry_points() -> None:
    """pyproject.toml registers greedy and ismcts in the tyros.strategies group."""
    from tyros_client.bots.greedy import GreedyBot
    from tyros_client.bots.ismcts import ISMCTSBot

    assert cli.load_strategy("greedy") is GreedyBot
    assert cli.load_strategy("ismcts") is ISMCTSBot


@pytest.mark.parametrize(
    "name",
    [
        "grumpy",
        "nowhere:Bot",
        "tyros_client.bots:Nobody",
        "tyros_client.bots.base:strategies.x",
        ":x",
        "x:",
    ],
)
def test_unknown_strategies_are_refused_at_start(name: str) -> None:
    with pytest.raises(ValueError, match="takeover strategy"):
        cli.load_strategy(name)
    with pytest.raises(SystemExit):
        cli.serve_main(["--takeover", "5", "--takeover-strategy", name])


def test_the_server_takes_over_without_importing_the_client() -> None:
    code = (
        "import sys; from tyros_server import cli; from tyros_rules import *; "
        "s = new_game(Options(players=3, seed=2)); p = cli.bot_takeover('random'); "
        "seat = seats_to_act(s)[0]; p('t', seat, view(s, seat), legal_actions(s, seat)); "
        "assert not [m for m in sys.modules if m.startswith('tyros_client')], 'imported'"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def served_with(monkeypatch: pytest.MonkeyPatch, argv: list[str]) -> tuple[Any, Any]:
    """(config, takeover policy) that ``tyros-server ARGV`` would run with."""
    seen: list[tuple[Any, Any]] = []

    async def capture(config: Any, takeover: Any = None, **more: Any) -> None:
        seen.append((config, takeover))

    monkeypatch.setattr(cli, "run_server", capture)
    monkeypatch.setattr(cli, "configure_logging", lambda *args: None)
    assert cli.serve_main(argv) == 0
    return seen[0]


def test_absent_players_are_played_by_greedy_after_90_seconds_unless_switched_off(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    config, policy = served_with(monkeypatch, [])
    assert config.limits.takeover_seconds == 90.0 and policy is not None
    state = new_game(Options(players=3, seed=2))
    seat = seats_to_act(state)[0]
    legal = legal_actions(state, seat)
    assert policy("t", seat, view(state, seat), legal) in legal
    for off in ("off", "0"):
        config, policy = served_with(monkeypatch, ["--takeover", off])
        assert config.limits.takeover_seconds is None  # the bot only decides for the clock
    config, _ = served_with(monkeypatch, ["--takeover", "30", "--takeover-strategy", "random"])
    assert config.limits.takeover_seconds == 30.0
    with pytest.raises(SystemExit):
        cli.serve_main(["--takeover", "-5"])


def test_the_servers_bots_play_at_the_level_chosen_for_tables_created_without_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    config, _ = served_with(monkeypatch, [])
    assert config.limits.default_bot_level == "normal"
    config, _ = served_with(monkeypatch, ["--bot-level", "hard"])
    assert config.limits.default_bot_level == "hard"
    with pytest.raises(SystemExit):
        cli.serve_main(["--bot-level", "grandmaster"])
