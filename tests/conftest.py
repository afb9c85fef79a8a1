"""Fixtures shared by the packages' tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture(scope="session")
def dask_scheduler() -> Iterator[str]:
    """The address of a Dask LocalCluster on loopback with two worker processes (started
    once, for every test that plays games on a cluster)."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, host="127.0.0.1", dashboard_address=None
    ) as cluster:
        yield cluster.scheduler_address
