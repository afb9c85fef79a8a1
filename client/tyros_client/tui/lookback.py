"""Looking back at a game: ``replay`` and ``review`` at a finished live table (the game's
full record fetched from the server, the screen turned into the replay's, seen as the
player's seat), and ``review`` in a replay (a worker thread, its progress on the message
line, then its marks beside the decisions).
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from prompt_toolkit.application import Application
from tyros_rules import RecordError

from ..replay import Replay
from ..review import review_record
from .autopilot import Autopilot
from .drivers import Driver
from .replaying import ReplayDriver
from .screen import ScreenState
from .state import ClientState, Note


class TyrosApp(Protocol):
    """What looking back needs of the screen (:class:`~.app.TyrosApp` is the one)."""

    state: ClientState
    screen: ScreenState
    driver: Driver
    autopilot: Autopilot
    fetcher: Callable[[], Awaitable[dict[str, Any]]] | None
    review_iterations: int

    @property
    def application(self) -> Application[None]: ...
    @property
    def replay(self) -> ReplayDriver | None: ...
    def invalidate(self) -> None: ...
    def on_state_change(self) -> None: ...


def look_back(ui: TyrosApp, review: bool) -> bool:
    """``replay`` / ``review`` at a live table: once its game is over, fetch its record and
    show it as a replay seen as this seat (and review this seat's decisions); True if
    refused."""
    state = ui.state
    word = "review" if review else "replay"
    refusal = None
    if not state.over:
        refusal = f"{word} looks back at a finished game: this one is still on"
    elif ui.fetcher is None:
        refusal = f"no server to ask for the game's record: {word} a record with --replay FILE"
    if refusal is not None:
        ui.screen.local = Note(refusal, state.clock())
        return True
    fetcher = ui.fetcher
    assert fetcher is not None
    ui.screen.local = Note("fetching the game's record from the server...", state.clock(), False)

    async def run() -> None:
        try:
            replay = Replay(await fetcher())
        except (ValueError, RecordError) as exc:
            ui.state.note(f"cannot {word} the game: {exc}")
            ui.invalidate()
            return
        show_replay(ui, replay, state.seat, title=f"{state.table} (finished)")
        if review:
            review_here(ui)

    ui.application.create_background_task(run())
    return False


def show_replay(ui: TyrosApp, replay: Replay, viewer: int | None, title: str) -> None:
    """Turn the screen into the replay of ``replay``, seen as ``viewer``: the table's state
    is left behind (its connection has nothing more to say of a finished game)."""
    state = ClientState("replay", title, ui.state.name, spectate=viewer is None)
    ui.state = state
    ui.autopilot.cancel()
    driver = ReplayDriver(replay, state, viewer, None)
    ui.driver = driver
    ui.screen = ScreenState(score_dismissed=True)
    driver.go(replay.end)  # where the table was: the end, every hand open
    ui.screen.local = Note(
        "the game's replay, at its end: Left steps back, F1 says more",
        state.clock(),
        False,
    )
    ui.on_state_change()


def review_here(ui: TyrosApp) -> bool:
    """``review`` in a replay: review the seat the game is seen as (as ``tyros-review``
    does, at its default budget) in a worker thread, its progress on the message line;
    then its marks show. True if refused."""
    driver = ui.replay
    assert driver is not None
    if driver.viewer is None:
        ui.screen.local = Note("see the game as a seat first (F6, or seat B)", ui.state.clock())
        return True
    if driver.reviewing is not None:
        ui.screen.local = Note("a review is running already", ui.state.clock())
        return True
    seat = driver.viewer
    driver.reviewing = "reviewing..."

    def progress(done: int, total: int) -> None:  # (in the worker thread)
        driver.reviewing = f"reviewing {chr(ord('A') + seat)}: {done}/{total}"
        ui.application.invalidate()

    async def run() -> None:
        try:
            review = await asyncio.to_thread(
                functools.partial(
                    review_record,
                    driver.replay.record,
                    seat,
                    iterations=ui.review_iterations,
                    progress=progress,
                )
            )
        except Exception as exc:  # say so, and let the next 'review' run
            driver.reviewing = None
            ui.state.note(f"the review failed: {exc!r}")
            ui.invalidate()
            return
        driver.load_review(review.to_json())
        ui.state.note(driver.marks_line(), error=False)
        ui.on_state_change()

    ui.application.create_background_task(run())
    return False
