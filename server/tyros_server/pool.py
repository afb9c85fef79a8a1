"""The server's decisions in worker processes, so that a search uses both cores and never
shares the event loop's interpreter lock (a search in a thread beside the loop made every
wake-up of the loop about 5 ms late: docs/benchmarks.md, "Decisions in processes").

Each process holds a takeover policy of its own, made from the strategy's name, the
policies of the server's own bots at each level a job asked for (made from the level's
name when first asked), and the tables it serves: a table's jobs always go to the same
process (its bots keep memory from one decision to the next), the table given at its first
job to the process serving the fewest. In front of each process, a
:class:`~.worker.DecisionWorker` keeps its order: people's lane first, tables in turn.
"""

from __future__ import annotations

import copy
import functools
import logging
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from tyros_rules import Action

from .children import outlive_not
from .deputies import Decision, Farewell, Job, LevelPolicies, TakeoverPolicy
from .strategies import bot_takeover
from .worker import DecisionWorker

log = logging.getLogger("tyros.server")

_POLICY: TakeoverPolicy | None = None
"""(In a worker process: its policy.)"""
_LEVELS: LevelPolicies | None = None
"""(In a worker process: its policies of the server's own bots, by level.)"""


def strategy_policy(strategy: str) -> TakeoverPolicy:
    """The takeover policy of ``strategy`` (a name ``tyros-server --takeover-strategy``
    takes), made in a worker process."""
    return bot_takeover(strategy)


def _start(make: Callable[[], TakeoverPolicy], parent: int) -> None:
    global _POLICY, _LEVELS
    _POLICY = make()
    _LEVELS = LevelPolicies(strategy_policy)
    outlive_not(parent)


def _in_the_worker(table: str, seat: int, view: dict[str, Any], legal: list[Action]) -> Action:
    """What a job's policy is on its way to a process (the process puts its own)."""
    raise RuntimeError("a job sent to a decision process ran without its policy")


def _run(job: Job) -> Any:
    assert _POLICY is not None and _LEVELS is not None, "the process was not started"
    if isinstance(job, Decision) and job.level is not None:
        job.policy = _LEVELS.of(job.level)
    else:
        job.policy = _POLICY
    if isinstance(job, Farewell):
        job.levels = tuple(_LEVELS.made.values())
    return job.run()


class _Process:
    """One worker process and the thread that feeds it its jobs in order."""

    def __init__(self, make: Callable[[], TakeoverPolicy], number: int) -> None:
        self.make = make
        self.worker = DecisionWorker(name=f"tyros-deputy-{number}")
        self.executor = self._executor()
        self.tables = 0

    def _executor(self) -> ProcessPoolExecutor:
        executor = ProcessPoolExecutor(
            1,
            # Spawned: a fork of the server would copy its threads' locks mid-use.
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_start,
            initargs=(self.make, os.getpid()),
        )
        executor.submit(int)  # (started now, not at the first decision)
        return executor

    def run(self, job: Job) -> Any:
        """Run ``job`` in the process and wait for it (in the worker's thread)."""
        try:
            return self.executor.submit(_run, job).result()
        except BrokenProcessPool:
            log.error("a decision process died: starting another")
            self.executor = self._executor()
            raise


class DecisionPool:
    """Decisions in ``processes`` worker processes (see the module)."""

    def __init__(self, make: Callable[[], TakeoverPolicy], processes: int = 2) -> None:
        self.processes = [_Process(make, number) for number in range(max(1, processes))]
        self.served: dict[str, _Process] = {}
        """Which process serves each table (until its farewell)."""

    @classmethod
    def of_strategy(cls, strategy: str, processes: int = 2) -> DecisionPool:
        return cls(functools.partial(strategy_policy, strategy), processes)

    def submit(self, job: Job) -> Future[Any]:
        """Queue ``job`` with the process serving its table; its future holds what the
        policy chose (or what it raised)."""
        process = self.served.get(job.table)
        if process is None:
            process = min(self.processes, key=lambda p: p.tables)
            process.tables += 1
            self.served[job.table] = process
        if isinstance(job, Farewell):  # (after the table's jobs queued before it)
            del self.served[job.table]
            process.tables -= 1
        sent = copy.copy(job)  # the policies stay here: the process has its own
        sent.policy = _in_the_worker
        if isinstance(sent, Farewell):
            sent.levels = ()
        return process.worker.submit(functools.partial(process.run, sent), job.table, job.lane)

    def shutdown(self) -> None:
        """Stop after the jobs under way; those still queued are cancelled."""
        for process in self.processes:
            process.worker.shutdown()
            process.executor.shutdown(wait=False, cancel_futures=True)

    def join(self) -> None:
        """Wait for the processes to end (after :meth:`shutdown`; blocking: call it off the
        loop). An executor left running at the interpreter's exit may have its wake-up pipe
        closed under it there, and Python 3.11 then prints a traceback ("Bad file
        descriptor") from its exit hook."""
        for process in self.processes:
            process.executor.shutdown(wait=True)
