"""The search's decisions, pinned: a change meant only to make ISMCTS faster leaves every
seeded search as it was (``bench/bots.py searches``; the file says how it was made)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from tyros_client.bots.levels import reproducible

from .scripts import BENCH, load

bots = load("bots")
PINNED = json.loads((Path(__file__).with_name("searches.json")).read_text())
ROOT = BENCH.parent


def test_seeded_searches_choose_and_count_as_the_pinned_ones() -> None:
    found = bots.pinned_searches(PINNED["iterations"], PINNED["positions"], PINNED["seed"])
    assert len(found) == len(PINNED["searches"]) == PINNED["positions"]
    for number, (now, then) in enumerate(zip(found, PINNED["searches"], strict=True)):
        assert now == then, f"search {number} changed"


@pytest.fixture(scope="module")
def compiled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The project built as a wheel (mypyc compiling the search, ``setup.py``) and unpacked
    into a folder of its own, to be put before the editable sources on ``PYTHONPATH``."""
    if shutil.which("cc") is None and shutil.which("gcc") is None:
        pytest.skip("no C compiler: the wheel would be plain Python")
    folder = tmp_path_factory.mktemp("compiled")
    wheels, target = folder / "wheels", folder / "site"
    pip = [sys.executable, "-m", "pip", "-q", "--disable-pip-version-check"]
    subprocess.run([*pip, "wheel", "--no-deps", "-w", str(wheels), str(ROOT)], check=True)
    (wheel,) = wheels.glob("tyros-*.whl")
    subprocess.run([*pip, "install", "--no-deps", "--target", str(target), str(wheel)], check=True)
    return target


def test_the_compiled_search_decides_as_the_pinned_ones(compiled: Path) -> None:
    script = (
        "import json, sys; sys.path.insert(0, sys.argv[1]); import bots, timing; "
        "print(json.dumps([timing.compiled(), bots.pinned_searches(*map(int, sys.argv[2:]))]))"
    )
    arguments = [PINNED["iterations"], PINNED["positions"], PINNED["seed"]]
    done = subprocess.run(
        [sys.executable, "-c", script, str(BENCH), *map(str, arguments)],
        check=True,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(compiled)},
        cwd=compiled,
    )
    was_compiled, found = json.loads(done.stdout)
    assert was_compiled, "the wheel's search is plain Python: mypyc did not compile it"
    for number, (now, then) in enumerate(zip(found, PINNED["searches"], strict=True)):
        assert now == then, f"search {number} changed when compiled"


def test_speed_times_the_same_positions_under_each_interpreter() -> None:
    out = bots.speed(20, 2, 1, beside=[sys.executable], runs=2)
    assert [reading["python"] for reading in out["readings"]] == [sys.executable] * 2
    runs = [run for reading in out["readings"] for run in reading["runs"]]
    assert len(runs) == 4
    assert all(run["positions"] == 2 and run["iterations"] == 2 * 20 for run in runs)
    assert all(run["iterations_per_cpu_second"] > 0 for run in runs)


def test_speed_times_a_levels_search_with_its_options() -> None:
    out = bots.speed(20, 2, 1, options=reproducible("hard") | {"iterations": 20})
    (run,) = out["readings"][0]["runs"]
    assert run["iterations"] == 2 * 20 and run["cpu_seconds_a_decision"] > 0
    with pytest.raises(subprocess.CalledProcessError):  # (the options do reach the bot)
        bots.speed(20, 1, 1, options={"value": "no such evaluation"})


def test_convergence_of_a_levels_answers_alone() -> None:
    """``convergence --level hard --answers``: the level's search, on the answers to an
    offer among the positions drawn."""
    drawn = bots.sample_positions(30, 3)
    answers = [p for p in drawn if any(a[0] == bots.Kind.ANSWER for a in p[1])]
    assert 0 < len(answers) < len(drawn)
    _, bot = bots.searched(answers[0], 20, 0, reproducible("hard"))
    assert bot.stats["iterations"] == 20  # (the budget compared, not the level's answers')
    out = bots.convergence([5, 20], 30, 3, reproducible("hard"), answers=True)
    assert out["positions"] == len(answers)
    assert set(out["agreement_with_reference"]) == {"5", "20"}
    assert all(0 <= share <= 1 for share in out["agreement_with_reference"].values())
