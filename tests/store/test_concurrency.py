"""Concurrent writers: two stores (as two server workers) and many threads on one table.

Every acknowledged command must be in the log exactly once, the log must have no gaps, and
the folded state must count every acknowledged command — on SQLite and on PostgreSQL.
"""

from __future__ import annotations

import threading
from typing import Any

from spieltisch.engine.table import Role
from spieltisch.errors import SpieltischError
from spieltisch.store import EventStore


def test_concurrent_commands_are_never_lost_or_doubled(database_url: str, toy: Any) -> None:
    workers = [EventStore(database_url, snapshot_every=7), EventStore(database_url)]
    try:
        created = workers[0].create_table("toy")
        gm = workers[0].authenticate(created.table, created.token)
        acknowledged: list[tuple[str, int]] = []
        refused: list[str] = []
        lock = threading.Lock()

        def write(thread: int) -> None:
            store = workers[thread % 2]
            for n in range(12):
                label = f"t{thread}-{n}"
                try:
                    done = store.execute(created.table, gm, {"kind": "note", "text": label})
                except SpieltischError as error:
                    assert error.code == "table.busy"
                    with lock:
                        refused.append(label)
                    continue
                with lock:
                    acknowledged.append((label, done.records[0].seq))

        threads = [threading.Thread(target=write, args=(i,)) for i in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()

        for store in workers:
            records = store.records_since(created.table, 0, Role.GM)
            assert [r.seq for r in records] == list(range(1, len(records) + 1))
            labels = [r.command["text"] for r in records if r.command]
            assert sorted(labels) == sorted(label for label, _ in acknowledged)
            assert {r.seq: r.command["text"] for r in records if r.command} == {
                seq: label for label, seq in acknowledged
            }
            assert store.table(created.table).state.notes == tuple(labels)
        assert len(acknowledged) + len(refused) == 72
        assert len(acknowledged) >= 60  # retries resolve nearly every race
    finally:
        for store in workers:
            store.close()


class _Racing(EventStore):
    """A store whose first commit is overtaken by another writer (a worker in between)."""

    rival: EventStore
    rival_table: str
    rival_token: str
    raced = False

    def _commit(self, cached: Any, work: Any, records: Any) -> Any:
        if not self.raced:
            self.raced = True
            rival_gm = self.rival.authenticate(self.rival_table, self.rival_token)
            self.rival.execute(self.rival_table, rival_gm, {"kind": "count"})
        return super()._commit(cached, work, records)


def test_a_command_decided_on_a_stale_state_is_decided_again(database_url: str, toy: Any) -> None:
    rival = EventStore(database_url)
    racing = _Racing(database_url)
    try:
        created = rival.create_table("toy")
        racing.rival, racing.rival_table, racing.rival_token = rival, created.table, created.token
        gm = racing.authenticate(created.table, created.token)
        racing.execute(created.table, gm, {"kind": "join", "piece": "cat"})
        assert racing.conflicts == 1
        records = racing.records_since(created.table, 0, Role.GM)
        assert [r.command["kind"] for r in records if r.command] == ["count", "join"]
        assert racing.table(created.table).state.counted == 1

        racing.raced = False
        before = racing.table(created.table).seq
        try:
            racing.execute(created.table, gm, {"kind": "count"}, expected_seq=before)
        except SpieltischError as error:
            assert error.code == "table.stale"
        else:
            raise AssertionError("a command bound to a stale seq went through")
        later = racing.records_since(created.table, before, Role.GM)
        assert [r.command["kind"] for r in later if r.command] == ["count"]  # the rival's only
    finally:
        rival.close()
        racing.close()
