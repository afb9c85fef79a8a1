"""Abuse: hostile clients against a server that hosts 10 games of bots.

Each attack gets a fresh ``tyros-server`` subprocess (a fresh database, so every peak is
that attack's). The server hosts ``--tables`` tables of 4 random bots that play all the
time (in this process, each through a ``ClientSession``, each table from its own address
127.0.1.N, as at a club): when a game ends its table loop opens a new table. Once every
table has started, the bots' round trip is measured for ``--baseline-seconds``; then an
attacker process runs one attack for ``--seconds`` (each attack also has its own
``--<attack>-seconds``):

  create-flood   ``--create-workers`` connections in a loop: connect, ``hello`` with a new
                 table name, wait for the answer, close (as fast as the server answers)
  list-flood     one websocket with a 4 KiB receive buffer that sends ``list_tables`` as
                 fast as it can and never reads a byte after the handshake; when the server
                 cuts it, it connects again (``--list-extra-tables N`` first creates N idle
                 tables, so that each reply is larger)
  spectators     ``--spectators`` connections watching the running tables, reading every
                 frame; one that sees its game end (or is refused) watches another
  half-open      ``--half-open`` TCP sockets that connect and send nothing (half of them)
                 or half an HTTP request, and hold; one the server closes is opened again
  message-flood  ``--flood-connections`` websockets from one address, each sending
                 ``list_tables``, bad JSON, unknown messages and binary frames as fast as the
                 server takes them, while reading every reply

The attackers connect from ``--addresses`` (127.0.0.2-5 by default: loopback takes all of
127/8), spread round-robin (list-flood and message-flood use the first one only). While an
attack runs, a probe (a normal client, from 127.0.2.N) connects and joins a new table every
``--probe-interval`` s. After it, a health check asks for the table list and joins a table;
then no new games start and the bench waits up to ``--drain-seconds`` for every started
game to end.

Reported per attack: the server's peak resident memory (``VmRSS`` sampled every 50 ms;
``VmHWM`` at the end as a cross-check), the bots' action round trip (an ``action`` sent to
its ``accepted``: p50, p99, max, only for actions sent during the attack; the baseline's
p50/p99 beside it), games started / finished / stalled, whether the server process died,
its CPU use during the attack, the probe's joins and connect times, the health check, and
the attack's own counters. Goals (issue 12): peak under 200 MiB, p99 under 100 ms, every
started game finished, no crash. The exit status is 1 if an attack missed one.

    python bench/abuse.py                                  # every attack, 20 s each
    python bench/abuse.py --attack spectators --attack half-open --json
    python bench/abuse.py --attack list-flood --list-extra-tables 2000
    python bench/abuse.py --server-arg=--max-connections=2048     # options for the server

CPU: the server, the bots and the attacker share the machine (2 cores on the project's).
The bots think 25-75 ms (``--think-ms``), so 10 tables cost this process a fraction of a
core; the attacker runs in its own process at ``--attacker-nice`` (10), speaks raw
websocket frames (no client library, never a JSON parse of what it only counts) and so
floods with what CPU the server and the bots leave. A flood's rate is therefore bounded by
this machine, not only by the server: compare attacks on one machine. Each attack reports
the CPU the server, the bots, the attacker and everything else used meanwhile (a machine
busy with other work slows every figure), and the bench's own event-loop lag (a round trip
is only as good as it). Only the attacker raises its open-files limit (to the hard
limit); the server keeps the limit it inherits.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import json
import multiprocessing
import os
import sys
import tempfile
import threading
import time
from collections import deque
from pathlib import Path
from typing import IO, Any

sys.path.insert(0, str(Path(__file__).parent))
from _common import (
    RssSampler,
    ServerProcess,
    cpu_note,
    machine_busy_seconds,
    process_cpu_seconds,
    process_status_kib,
    summary_ms,
)
from abuse_attacks import ATTACKS, AttackPlan, attacker_main
from abuse_lan import finished_games
from abuse_load import BackgroundLoad, BenchOptions, health_check, loop_lag, probe_joins
from raw_websocket import (
    STEP_TIMEOUT,
)

GOAL_PEAK_MIB = 200.0
GOAL_P99_MS = 100.0


# Settings ---------------------------------------------------------------------------------


# One attack, start to end -----------------------------------------------------------------


class StderrTail:
    """Drains the server's stderr (a full pipe would stall it), keeping the last lines."""

    def __init__(self, stream: IO[bytes]) -> None:
        self.lines: deque[str] = deque(maxlen=12)
        self.count = 0
        self.tracebacks = 0
        self._thread = threading.Thread(target=self._run, args=(stream,), daemon=True)
        self._thread.start()

    def _run(self, stream: IO[bytes]) -> None:
        for raw in stream:
            line = raw.decode(errors="replace").rstrip()
            self.count += 1
            self.tracebacks += line.startswith("Traceback")
            self.lines.append(line[:300])

    def join(self, timeout: float) -> None:
        self._thread.join(timeout)


class Attacker:
    """The attacker process, seen from here."""

    def __init__(self, plan: AttackPlan) -> None:
        context = multiprocessing.get_context("spawn")
        self.pipe, child_end = context.Pipe(duplex=False)
        self.process = context.Process(target=attacker_main, args=(plan, child_end), daemon=True)
        self.process.start()
        child_end.close()

    async def message(self, timeout: float) -> tuple[str, Any] | None:
        ready = await asyncio.to_thread(self.pipe.poll, max(0.0, timeout))
        if not ready:
            return None
        try:
            kind, value = self.pipe.recv()
        except (EOFError, OSError):
            return None
        return str(kind), value

    def end(self) -> bool:
        """Make sure it is gone; True if it had to be killed."""
        self.process.join(5)
        if self.process.is_alive():
            self.process.kill()
            self.process.join(5)
            return True
        return False


Reading = tuple[float | None, float | None]


def cpu_shares(
    seconds: float, *, server: Reading, bots: Reading, machine: Reading, attacker: float
) -> dict[str, int | None]:
    """Percent of one core each used over ``seconds``: the server, this process (the bots),
    the attacker, and the rest of the machine's busy time (other processes, and kernel
    work no process is charged for, such as some loopback traffic; approximate, as the
    attacker's figure includes its start-up). A busy machine slows every figure here."""

    def share(reading: Reading) -> float | None:
        before, after = reading
        return None if before is None or after is None else (after - before) / seconds

    shares = {"server": share(server), "bots": share(bots), "attacker": attacker / seconds}
    total = share(machine)
    known = [v for v in shares.values() if v is not None]
    shares["others"] = None if total is None else max(0.0, total - sum(known))
    return {who: None if v is None else round(100 * v) for who, v in shares.items()}


async def exercise(
    plan: AttackPlan, options: BenchOptions, server: ServerProcess, pid: int
) -> dict[str, Any]:
    """Bots, baseline, the attack with its probe, the health check, the drain."""
    prefix = plan.attack.replace("-", "")
    load = BackgroundLoad(server.url, options, f"bg{prefix}")
    lag: list[tuple[float, float]] = []
    lag_stop = asyncio.Event()
    lagging = asyncio.create_task(loop_lag(lag, lag_stop))
    load.start()
    all_started = await load.wait_all_started(options.warmup_limit)
    baseline_start = time.monotonic()
    await asyncio.sleep(options.baseline_seconds)
    baseline_end = time.monotonic()

    attacker = Attacker(plan)
    first = await attacker.message(60.0)
    attack_start = float(first[1]) if first and first[0] == "started" else time.monotonic()
    cpu_before = process_cpu_seconds(pid)
    own_before = process_cpu_seconds(os.getpid())
    machine_before = machine_busy_seconds()
    probe_stop = asyncio.Event()
    probing = asyncio.create_task(
        probe_joins(server.url, prefix, options.probe_interval, probe_stop)
    )
    attack: dict[str, Any] = {}
    if first is None or first[0] != "started":
        attack = {"attacker failed": "it never started"}
    else:
        # A bound on the attacker itself: its attack, the slowest last step, a margin.
        reply = await attacker.message(plan.seconds + 2 * STEP_TIMEOUT + 20)
        attack = reply[1] if reply and reply[0] == "result" else {"attacker failed": "no result"}
    attack_end = time.monotonic()
    cpu_after = process_cpu_seconds(pid)
    own_after = process_cpu_seconds(os.getpid())
    machine_after = machine_busy_seconds()
    probe_stop.set()
    probe = await probing
    if await asyncio.to_thread(attacker.end):
        attack["attacker killed"] = True

    crashed_during_attack = server.proc is not None and server.proc.poll() is not None
    health = (
        await health_check(server.url, prefix)
        if not crashed_during_attack
        else {"skipped": "the server is gone"}
    )
    load.stop_new_games()
    await load.drain(options.drain_seconds)
    lag_stop.set()
    await lagging

    runs = load.stats.runs
    started = [r for r in runs if r.started_at is not None]
    finished = [r for r in started if r.finished_at is not None]
    attack_lag = [value for at, value in lag if attack_start <= at < attack_end]
    answered = load.stats.round_trips_between(attack_start, attack_end)
    unanswered = load.stats.unanswered_between(attack_start, attack_end)
    cpu = cpu_shares(
        attack_end - attack_start,
        server=(cpu_before, cpu_after),
        bots=(own_before, own_after),
        machine=(machine_before, machine_after),
        attacker=float(attack.get("attacker_cpu_seconds", 0.0)),
    )
    return {
        "all_tables_started_before_the_attack": all_started,
        "attack_seconds": round(attack_end - attack_start, 1),
        # An action never answered counts with the time it waited: a lower bound.
        "round_trip_ms": summary_ms(answered + unanswered),
        "round_trips": len(answered),
        # When the slowest came (seconds into the attack): a burst, or spread out?
        "slowest_round_trips": [
            {"at_s": round(sent - attack_start, 2), "ms": round(rtt * 1000, 1)}
            for sent, rtt in sorted(
                load.stats.timed_round_trips_between(attack_start, attack_end),
                key=lambda pair: -pair[1],
            )[:10]
        ],
        "actions_never_answered": len(unanswered),
        "baseline_round_trip_ms": summary_ms(
            load.stats.round_trips_between(baseline_start, baseline_end)
        ),
        "games_started": len(started),
        "games_finished": len(finished),
        "games_stalled": len(started) - len(finished),
        "tables_never_started": len(runs) - len(started),
        "bot_errors": dict(load.stats.errors),
        "bot_connection_trouble": dict(load.stats.connection_trouble),
        "bench_loop_lag_ms": summary_ms(attack_lag),
        "cpu_percent_during_attack": cpu,
        "probe_during_attack": probe.report(),
        "after_attack": health,
        "attack_counters": attack,
        "crashed_during_attack": crashed_during_attack,
    }


def run_attack(plan: AttackPlan, options: BenchOptions) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "abuse.db"
        if plan.attack == "record-flood":
            finished_games(db, plan.record_games, options.seed)
        server = ServerProcess(db, None, *options.server_args)
        server.start()
        plan = dataclasses.replace(plan, port=server.port)
        assert server.proc is not None and server.proc.stderr is not None
        pid = server.proc.pid
        open_files = process_open_files_limit(pid)
        stderr = StderrTail(server.proc.stderr)
        sampler = RssSampler(pid).start()
        started = time.monotonic()
        try:
            outcome = asyncio.run(exercise(plan, options, server, pid))
            exit_code = server.proc.poll()
            high_water = process_status_kib(pid, "VmHWM")
        finally:
            sampler.stop()
            server.stop()
            stderr.join(2)
    return {
        "attack": plan.attack,
        "peak_rss_mib": round(sampler.peak_kib / 1024, 1),
        "vm_hwm_mib": round(high_water / 1024, 1) if high_water else None,
        "rss_at_end_mib": round(sampler.last_kib / 1024, 1),
        "server_crashed": exit_code is not None,
        "server_exit_code": exit_code,
        "server_open_files_limit": open_files,
        "server_stderr_lines": stderr.count,
        "server_tracebacks": stderr.tracebacks,
        "server_stderr_tail": list(stderr.lines),
        **outcome,
        "seconds_in_all": round(time.monotonic() - started, 1),
    }


def process_open_files_limit(pid: int) -> str | None:
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/limits").read_text().splitlines():
            if line.startswith("Max open files"):
                return "/".join(line.split()[3:5])
    return None


# Output -------------------------------------------------------------------------------


def goals_missed(result: dict[str, Any]) -> list[str]:
    missed = []
    if result["peak_rss_mib"] >= GOAL_PEAK_MIB:
        missed.append(f"peak {result['peak_rss_mib']} MiB >= {GOAL_PEAK_MIB:g}")
    p99 = result["round_trip_ms"]["p99"]
    if p99 is None or p99 >= GOAL_P99_MS:
        missed.append(f"p99 {p99} ms >= {GOAL_P99_MS:g}" if p99 is not None else "no round trips")
    if result["games_stalled"] or result["tables_never_started"]:
        missed.append(
            f"{result['games_stalled']} games stalled, "
            f"{result['tables_never_started']} tables never started"
        )
    if result["server_crashed"]:
        missed.append(f"the server died (exit {result['server_exit_code']})")
    return missed


def print_table(results: list[dict[str, Any]], options: BenchOptions) -> None:
    print(
        f"abuse bench ({cpu_note()}; {options.tables} tables of 4 random bots, think "
        f"{options.think_ms:g} ms; server and attacker on loopback)"
    )
    print(
        f"{'attack':<14} {'peak MiB':>8} {'HWM MiB':>7} {'p50 ms':>7} {'p99 ms':>7} "
        f"{'max ms':>7} {'unanswered':>10} {'base p99':>8} {'games':>7} {'crashed':>7} "
        f"{'after':>6} {'probe joins':>11} {'server/other CPU%':>17}"
    )
    for r in results:
        rtt, probe, after = r["round_trip_ms"], r["probe_during_attack"], r["after_attack"]
        healthy = "tables_listed" in after and after.get("join_after") == "ok"
        print(
            f"{r['attack']:<14} {r['peak_rss_mib']:>8} {r['vm_hwm_mib']!s:>7} "
            f"{rtt['p50']!s:>7} {rtt['p99']!s:>7} {rtt['max']!s:>7} "
            f"{r['actions_never_answered']:>10} {r['baseline_round_trip_ms']['p99']!s:>8} "
            f"{r['games_finished']:>3}/{r['games_started']:<3} "
            f"{'yes' if r['server_crashed'] else 'no':>7} {'ok' if healthy else 'FAILED':>6} "
            f"{probe['joined']:>5}/{probe['attempts']:<5} "
            f"{r['cpu_percent_during_attack']['server']!s:>11}/"
            f"{r['cpu_percent_during_attack']['others']!s:<5}"
        )
    print(
        "(round trip: action sent -> accepted, for actions sent during the attack; one never "
        "answered counts with the time it waited. games: finished/started. after: the table "
        "list and a join once the attack is over. other CPU: the rest of the machine's.)"
    )
    for r in results:
        print(f"\n{r['attack']}: ")
        missed = goals_missed(r)
        print(f"  goals: {'met' if not missed else 'MISSED: ' + '; '.join(missed)}")
        for key in (
            "attack_counters",
            "after_attack",
            "probe_during_attack",
            "cpu_percent_during_attack",
            "bench_loop_lag_ms",
            "round_trips",
            "slowest_round_trips",
            "actions_never_answered",
            "games_stalled",
            "tables_never_started",
            "bot_errors",
            "bot_connection_trouble",
            "server_stderr_lines",
            "server_tracebacks",
            "server_open_files_limit",
            "seconds_in_all",
        ):
            print(f"  {key}: {json.dumps(r[key])}")
        if r["server_stderr_tail"]:
            print("  server stderr (last lines):")
            for line in r["server_stderr_tail"]:
                print(f"    {line}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--attack", action="append", choices=ATTACKS, help="run only this attack (repeatable)"
    )
    parser.add_argument("--seconds", type=float, default=20.0, help="each attack's length")
    for name in ATTACKS:
        parser.add_argument(f"--{name}-seconds", type=float, default=None, metavar="S")
    parser.add_argument("--tables", type=int, default=10, help="tables of bots playing")
    parser.add_argument("--think-ms", type=float, default=50.0)
    parser.add_argument("--baseline-seconds", type=float, default=5.0)
    parser.add_argument(
        "--drain-seconds", type=float, default=60.0, help="wait this long for started games"
    )
    parser.add_argument("--probe-interval", type=float, default=2.0)
    parser.add_argument("--create-workers", type=int, default=50)
    parser.add_argument("--list-receive-buffer", type=int, default=4096, metavar="BYTES")
    parser.add_argument("--list-extra-tables", type=int, default=0, metavar="N")
    parser.add_argument("--spectators", type=int, default=1000)
    parser.add_argument("--half-open", type=int, default=1000)
    parser.add_argument("--flood-connections", type=int, default=50)
    parser.add_argument("--record-games", type=int, default=30)
    parser.add_argument("--record-connections", type=int, default=100)
    parser.add_argument(
        "--handshakes-at-once", type=int, default=100, help="attacker connects in flight"
    )
    parser.add_argument("--addresses", default="127.0.0.2,127.0.0.3,127.0.0.4,127.0.0.5")
    parser.add_argument("--attacker-nice", type=int, default=10)
    parser.add_argument(
        "--server-arg",
        action="append",
        default=[],
        metavar="ARG",
        help="passed to tyros-server (repeatable; write --server-arg=--max-connections=64)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print JSON instead of the table")
    parser.add_argument("--json-out", metavar="FILE", help="also write the JSON to FILE")
    args = parser.parse_args(argv)
    options = BenchOptions(
        tables=args.tables,
        think_ms=args.think_ms,
        baseline_seconds=args.baseline_seconds,
        warmup_limit=20.0,
        drain_seconds=args.drain_seconds,
        probe_interval=args.probe_interval,
        server_args=tuple(args.server_arg),
        seed=args.seed,
    )
    results = []
    for attack in args.attack or ATTACKS:
        seconds = getattr(args, f"{attack.replace('-', '_')}_seconds") or args.seconds
        plan = AttackPlan(
            attack=attack,
            port=0,
            seconds=seconds,
            addresses=tuple(a.strip() for a in args.addresses.split(",") if a.strip()),
            create_workers=args.create_workers,
            list_receive_buffer=args.list_receive_buffer,
            list_extra_tables=args.list_extra_tables,
            spectators=args.spectators,
            half_open=args.half_open,
            flood_connections=args.flood_connections,
            handshakes_at_once=args.handshakes_at_once,
            nice=args.attacker_nice,
            record_games=args.record_games,
            record_connections=args.record_connections,
        )
        if not args.json:
            print(f"running {attack} for {seconds:g} s ...", file=sys.stderr, flush=True)
        results.append(run_attack(plan, options))
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(results, indent=1) + "\n")
    if args.json:
        print(json.dumps(results, indent=1))
    else:
        print_table(results, options)
    return 1 if any(goals_missed(r) for r in results) else 0


if __name__ == "__main__":
    raise SystemExit(main())
