"""The review (``tyros-review``) and the weighing of options it shares with the hints."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from tyros_client.arena import play_game
from tyros_client.review import main, review_record, weigh_options
from tyros_rules import GameState, export_record, legal_actions, view

from tests.client.bot_games import twin_positions


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    return export_record(play_game(["greedy", "random", "random"], seed=8).state)


def test_a_seeded_review_with_an_iteration_budget_is_stable(record: dict[str, Any]) -> None:
    first = review_record(record, seat=0, iterations=3).to_json()
    second = review_record(record, seat=0, iterations=3).to_json()
    first.pop("seconds"), second.pop("seconds")
    assert first == second
    decisions = first["decisions"]
    assert decisions and first["phases"]
    seats = {e["seat"] for e in record["events"] if e.get("type") == "action"}
    assert seats == {0, 1, 2}
    actions = [e for e in record["events"] if e.get("type") == "action"]
    for d in decisions:  # each reviewed decision is one the seat made
        assert actions[d["decision"] - 1]["seat"] == 0
        assert d["spread"] >= 0  # (a cost below 0: the move played did best on the deals)
        assert 1 <= len(d["options"]) <= 3
        values = [o["value"] for o in d["options"]]
        assert values == sorted(values, reverse=True)
    assert len(decisions) + first["forced"] == sum(1 for e in actions if e["seat"] == 0)
    costliest = sorted(decisions, key=lambda d: -d["cost"])[:3]
    assert first["costliest"] == [d["decision"] for d in costliest]
    assert review_record(record, seat=0, iterations=3, seed=2).to_json()["decisions"] != decisions


def test_it_weighs_options_from_the_seats_view_alone() -> None:
    """Two games that differ only in what seat 0 cannot see are weighed alike."""
    first, second = twin_positions()
    assert view(first, 0) == view(second, 0)
    results = [
        weigh_options(view(s, 0), 0, legal_actions(s, 0), None, random.Random(4), iterations=4)
        for s in (first, second)
    ]
    assert results[0] == results[1]
    weighed, used = results[0]
    assert used == 4 and all(len(values) == 4 for _, values in weighed)


def test_the_command_line_writes_text_or_json(
    record: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    assert main([str(path), "--seat", "B", "--iterations", "2"]) == 0
    text = capsys.readouterr().out
    assert "The three costliest decisions:" in text and "By phase" in text
    assert main([str(path), "--seat", "B", "--iterations", "2", "--json"]) == 0
    review = json.loads(capsys.readouterr().out)
    assert review["seat"] == 1 and review["budget"]["iterations"] == 2
    assert main([str(path), "--seat", "D"]) == 1  # a 3-player game
    assert "seats A to C" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main([str(path), "--seat", "B", "--iterations", "1"])


def test_a_replay_takes_only_a_review_of_its_own_game(
    record: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tyros_client.review import check_review
    from tyros_client.tui.main import main as client_main

    review = review_record(record, seat=0, iterations=2).to_json()
    assert check_review(review, record) is review
    other = export_record(play_game(["random"] * 3, seed=9).state)
    with pytest.raises(ValueError, match="another game"):
        check_review(review, other)
    with pytest.raises(ValueError, match="not a review"):
        check_review({"seat": 0}, record)
    game, notes = tmp_path / "game.json", tmp_path / "notes.json"
    game.write_text(json.dumps(other))
    notes.write_text(json.dumps({"anything": 1}))
    assert client_main(["--replay", str(game), "--review", str(notes)]) == 1
    assert "cannot use the review" in capsys.readouterr().err
    notes.write_text("not json")
    assert client_main(["--replay", str(notes)]) == 1
    assert "is not JSON" in capsys.readouterr().err


def test_a_hint_uses_nothing_the_seat_could_not_see() -> None:
    """The same twin test the bots have: a hint on two games that differ only in what seat
    0 cannot see gives the same options and values."""
    from tyros_client.hints import hint

    first, second = twin_positions()
    hints = [
        hint(view(s, 0), 0, legal_actions(s, 0), [], iterations=6, seconds=60.0)
        for s in (first, second)
    ]
    assert hints[0] == hints[1] and 1 <= len(hints[0]) <= 3


def test_a_review_says_where_the_best_option_gains_and_who_decided(
    record: dict[str, Any],
) -> None:
    from tyros_client.replay import Replay
    from tyros_client.review import PARTS, _forced, report

    replay = Replay(record)
    mine = [
        n
        for n, at in enumerate(replay.action_at, 1)
        if replay.events[at]["seat"] == 1 and not _forced(replay, 1, n)  # (weighed ones)
    ]
    marked = {
        **record,
        "decided_by": [{"version": mine[3], "seat": 1, "by": "takeover"}],
        "hinted": [{"version": mine[5], "seat": 1}],
    }
    review = review_record(marked, seat=1, iterations=4)
    by = {d.decision: d.by for d in review.decisions}
    assert by[mine[3]] == "takeover" and by[mine[5]] == "hint"
    assert sum(1 for d in review.decisions if d.by) == 2
    costly = [d for d in review.decisions if d.cost > 0.5 and d.best != d.played]
    assert costly and all(d.why and set(d.why) <= set(PARTS) for d in costly)
    text = report(review)
    assert "decisions, " in text and "weighed (" in text
    assert any(f"{part} " in text for part in PARTS)
    # The parts add up to the value the bots' evaluation gives, at every stage of a game.
    from tyros_client.bots.evaluate import Analysis

    for state in replay.states[::25]:
        analysis = Analysis(state)
        for seat in range(state.players):
            assert sum(analysis.parts(seat)) == pytest.approx(analysis.value(seat))


def test_an_offer_is_weighed_by_the_answers_greedy_bots_would_give(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each asked seat of a determinization answers the seat's offer as a greedy bot would
    (yes or no: counter-offers are not weighed), not at random: a hint's offers are those
    the others are likely to take."""
    from tyros_client.bots.greedy import Greedy
    from tyros_rules import K_COUNTER, K_PROPOSE, P_ACTIONS, P_TRADE, TRADE_PROPOSER

    found: list[GameState] = []

    def offering(state: GameState) -> None:
        if (
            not found
            and state.phase == P_ACTIONS
            and any(a[0] == K_PROPOSE for a in legal_actions(state, state.current))
        ):
            found.append(state.copy())

    play_game(["greedy"] * 3, seed=8, before_decision=offering)
    state = found[0]
    seat = state.current
    offers = [a for a in legal_actions(state, seat) if a[0] == K_PROPOSE]
    asked: list[tuple[int, int]] = []
    answer = Greedy.answer

    def spy(bot: Greedy, legal: list[Any]) -> Any:
        trade = bot.state.trade
        assert trade is not None and bot.state.phase == P_TRADE
        assert not any(a[0] == K_COUNTER for a in legal)
        asked.append((bot.seat, trade[TRADE_PROPOSER]))
        return answer(bot, legal)

    monkeypatch.setattr(Greedy, "answer", spy)
    _, used = weigh_options(view(state, seat), seat, offers, None, random.Random(3), iterations=2)
    assert used == 2 and asked
    assert all(answerer != seat and proposer == seat for answerer, proposer in asked)
