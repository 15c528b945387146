"""Fixtures shared by the whole suite: a throwaway PostgreSQL server for the store's tests, and Discord's
OpenAPI spec as the fake Discord reads it (`discord_spec`).

The store's tests run on SQLite and on PostgreSQL (the `db_target` fixture is parametrised over both).
The server starts once per test session, in a temporary folder, the first time a test needs it. On a
developer's machine without PostgreSQL those tests are skipped; in CI (CI=true) that is a failure instead.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from devkit.pgcluster import ClusterUnavailable, ThrowawayCluster

if TYPE_CHECKING:
    from fakediscord.spec import Spec

BACKENDS = ("sqlite", "postgresql")

# Bots started by the tests draw pictures in a thread: worker processes would warm up every edition at each
# start. tests/test_bot_units.py covers the workers.
os.environ.setdefault("TURISTA_RENDER_WORKERS", "0")


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[ThrowawayCluster]:
    try:
        cluster = ThrowawayCluster().start()
    except ClusterUnavailable as exc:
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the PostgreSQL tests, but the server cannot start: {exc}")
        pytest.skip(f"PostgreSQL is not available here: {exc}")
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture
def pg_url(pg_cluster: ThrowawayCluster) -> str:
    """A PostgreSQL database of the test's own (an empty schema on the session's server)."""
    return pg_cluster.new_schema()


@pytest.fixture(params=BACKENDS)
def db_target(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where a test's store lives: a SQLite file, or a PostgreSQL database (both, by parametrisation)."""
    if request.param == "postgresql":
        return request.getfixturevalue("pg_url")
    return str(tmp_path / "t.db")


@pytest.fixture(scope="session")
def discord_spec() -> Spec:
    """Discord's OpenAPI spec, compiled once (`fakediscord.spec.load_spec`): skipped where it is missing, and
    with CI=true its absence fails instead."""
    from fakediscord.spec import load_spec

    found = load_spec()
    if found is None:
        pytest.skip("Discord's OpenAPI spec is not here (see fakediscord/README.md)")
    return found
