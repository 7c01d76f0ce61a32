"""GroupCommit on a real SQLite file: every work committed once, errors alone, time bounded."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from sqlalchemy import Connection, text

from spieltisch.store.db import GroupCommit, connect


def test_concurrent_works_are_each_committed_once_and_a_failing_one_alone(tmp_path: Path) -> None:
    engine = connect(f"sqlite:///{tmp_path / 'g.sqlite3'}")
    writer = engine.execution_options(spieltisch_write=True)
    with writer.begin() as conn:
        conn.execute(text("CREATE TABLE t (n INTEGER PRIMARY KEY)"))
    commits = GroupCommit()
    results: dict[int, object] = {}
    start = threading.Barrier(24)

    def one(n: int) -> None:
        def work(conn: Connection) -> int:
            conn.execute(text("INSERT INTO t (n) VALUES (:n)"), {"n": n})
            if n == 7:
                raise ValueError("seven")
            return n * 10

        start.wait()
        try:
            results[n] = commits.run(work, writer.begin, timeout=30)
        except ValueError as error:
            results[n] = error

    threads = [threading.Thread(target=one, args=(n,)) for n in range(24)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    with engine.connect() as conn:
        stored = sorted(conn.execute(text("SELECT n FROM t")).scalars())
    engine.dispose()
    assert stored == [n for n in range(24) if n != 7]
    assert isinstance(results.pop(7), ValueError)
    assert results == {n: n * 10 for n in range(24) if n != 7}


def test_a_writer_that_gets_no_turn_in_time_runs_nothing(tmp_path: Path) -> None:
    engine = connect(f"sqlite:///{tmp_path / 'g.sqlite3'}")
    writer = engine.execution_options(spieltisch_write=True)
    commits = GroupCommit()
    ran = []
    commits.turn.acquire()  # a single transaction holds the turn
    try:
        with pytest.raises(TimeoutError):
            commits.run(lambda conn: ran.append(1), writer.begin, timeout=0.2)
    finally:
        commits.turn.release()
    assert commits.run(lambda conn: "after", writer.begin, timeout=5) == "after"
    engine.dispose()
    assert ran == []


def test_a_lone_work_that_fails_half_way_leaves_nothing_written(tmp_path: Path) -> None:
    engine = connect(f"sqlite:///{tmp_path / 'g.sqlite3'}")
    writer = engine.execution_options(spieltisch_write=True)
    with writer.begin() as conn:
        conn.execute(text("CREATE TABLE t (n INTEGER PRIMARY KEY)"))
    commits = GroupCommit()

    def half(conn: Connection) -> None:
        conn.execute(text("INSERT INTO t (n) VALUES (1)"))
        raise ValueError("half way")

    with pytest.raises(ValueError, match="half way"):
        commits.run(half, writer.begin, timeout=5)
    assert (
        commits.run(
            lambda conn: conn.execute(text("INSERT INTO t VALUES (2)")).rowcount,
            writer.begin,
            timeout=5,
        )
        == 1
    )
    with engine.connect() as conn:
        stored = list(conn.execute(text("SELECT n FROM t")).scalars())
    engine.dispose()
    assert stored == [2]
