"""The event store against SQLite and a real PostgreSQL server (``database_url`` fixture)."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import select, text

from legacy import log_format_table
from spieltisch.dice.fair import FairDice, chain_link
from spieltisch.dice.verify import verify_export
from spieltisch.engine.errors import EngineError, RuleError
from spieltisch.engine.table import Role, Table
from spieltisch.engine.visibility import GM_VIEWER, Viewer
from spieltisch.errors import InputError, SpieltischError
from spieltisch.store import EventStore, Participant
from spieltisch.store.models import ParticipantRow, SnapshotRow


@pytest.fixture
def store(database_url: str, toy: Any) -> Iterator[EventStore]:
    store = EventStore(database_url, snapshot_every=4, spread_snapshots=False)
    try:
        yield store
    finally:
        store.close()


class Game:
    """A table with a GM, a player and a spectator."""

    def __init__(self, store: EventStore, *, log_format: bool = False) -> None:
        self.store = store
        self.created = (
            log_format_table(store, "toy")
            if log_format
            else store.create_table("toy", language="en", title="Test", name="Gina")
        )
        self.id = self.created.table
        self.gm = store.authenticate(self.id, self.created.token)
        joined = store.join(self.id, self.created.invites["player"], "Paul")
        self.player = store.authenticate(self.id, joined.token)
        watcher = store.join(self.id, self.created.invites["spectator"], "Sue")
        self.spectator = store.authenticate(self.id, watcher.token)

    def do(self, who: Participant, command: dict[str, Any], **kwargs: Any) -> Any:
        return self.store.execute(self.id, who, command, **kwargs)

    def frozen(self) -> tuple[int, Any, int]:
        info, table = self.store.snapshot(self.id)
        return table.seq, table.state, info.version


@pytest.fixture
def game(store: EventStore) -> Game:
    return Game(store)


def _error(code: str) -> Any:
    return pytest.raises(SpieltischError, match="^" + re.escape(code) + "(:|$)")


# -- participants and tokens ---------------------------------------------------------------


def test_roles_come_from_the_invite_and_tokens_are_stored_hashed(game: Game) -> None:
    assert (game.gm.role, game.player.role, game.spectator.role) == (
        Role.GM,
        Role.PLAYER,
        Role.SPECTATOR,
    )
    assert [p.name for p in game.store.participants(game.id)] == ["Gina", "Paul", "Sue"]
    with game.store.engine.connect() as conn:
        hashes = set(conn.execute(select(ParticipantRow.token_hash)).scalars())
        dump = " ".join(str(row) for row in conn.execute(text("SELECT * FROM participants")))
    assert hashlib.sha256(game.created.token.encode()).hexdigest() in hashes
    assert game.created.token not in dump
    assert len(game.created.token) >= 40  # 32 random bytes, URL-safe


def test_bad_tokens_invites_and_tables_are_refused(game: Game) -> None:
    with _error("table.bad_token"):
        game.store.authenticate(game.id, game.created.token[:-1] + "x")
    with _error("table.bad_token"):
        game.store.authenticate(game.id, "")
    with _error("table.unknown"):
        game.store.authenticate("no-such-table", game.created.token)
    with _error("table.bad_invite"):
        game.store.join(game.id, "guess", "Mallory")
    with _error("table.bad_name"):
        game.store.join(game.id, game.created.invites["player"], "   ")
    assert len(game.store.participants(game.id)) == 3


def test_a_token_works_only_at_its_own_table(game: Game) -> None:
    other = game.store.create_table("toy")
    with _error("table.bad_token"):
        game.store.authenticate(other.table, game.created.token)


def test_renewed_invites_replace_the_old_ones(game: Game) -> None:
    with _error("rule.forbidden"):
        game.store.new_invites(game.id, game.player)
    fresh = game.store.new_invites(game.id, game.gm)
    with _error("table.bad_invite"):
        game.store.join(game.id, game.created.invites["player"], "Late")
    assert game.store.join(game.id, fresh["player"], "Late").participant.role is Role.PLAYER


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"language": "fr"}, "table.bad_language"),
        ({"title": "x" * 201}, "table.bad_title"),
        ({"options": {"counted": "many"}}, "table.bad_options"),
    ],
)
def test_bad_table_settings_name_the_value(store: EventStore, kwargs: Any, code: str) -> None:
    with pytest.raises(InputError) as caught:
        store.create_table("toy", **kwargs)
    assert caught.value.code == code
    assert store.list_tables() == []


def test_unknown_system_is_refused(store: EventStore) -> None:
    with _error("rule.unknown_system"):
        store.create_table("no-such-game")


# -- commands, permissions -----------------------------------------------------------------


def test_commands_append_records_with_fair_draws(game: Game) -> None:
    game.do(game.player, {"kind": "join", "piece": "cat"})
    rolled = game.do(game.player, {"kind": "roll", "piece": "cat", "sides": 20})
    record = rolled.records[0]
    assert record.seq == 2 and record.actor == game.player.id
    assert [d.index for d in record.draws] == [0]
    seed = game.store.reveal(game.id, game.gm).seed
    dice = FairDice(bytes.fromhex(seed), game.id)
    assert record.draws[0].value == dice.stream_value(2, 0, 20)  # record 2's own stream
    assert rolled.table.state.pieces == {"cat": record.draws[0].value}
    assert hashlib.sha256(bytes.fromhex(seed)).hexdigest() == game.created.commitment


def test_players_act_only_for_their_own_pieces(game: Game) -> None:
    game.do(game.player, {"kind": "join", "piece": "cat"})
    other = game.store.join(game.id, game.created.invites["player"], "Olga").participant
    before = game.frozen()
    for who, command in [
        (other, {"kind": "roll", "piece": "cat"}),
        (other, {"kind": "join", "piece": "cat"}),  # someone else's piece cannot be claimed
        (game.player, {"kind": "damage", "piece": "cat", "amount": 1}),  # GM only
        (game.player, {"kind": "count"}),  # allowed, but not hidden:
        (game.spectator, {"kind": "count"}),
    ]:
        hidden = who is game.player and command["kind"] == "count"
        with _error("rule.forbidden"):
            game.do(who, command, hidden=hidden)
    assert game.frozen() == before
    game.do(game.gm, {"kind": "roll", "piece": "cat"})  # the GM may act for every piece
    game.do(game.gm, {"kind": "damage", "piece": "cat", "amount": 1})


def test_rule_errors_and_bad_commands_change_nothing(game: Game) -> None:
    game.do(game.player, {"kind": "join", "piece": "cat"})
    before = game.frozen()
    for command, code in [
        ({"kind": "join", "piece": "cat"}, "toy.taken"),
        ({"kind": "roll", "piece": "cat", "sides": 0}, "rule.bad_command"),
        ({"kind": "fly"}, "rule.bad_command"),
        ({"kind": "damage", "piece": "dog", "amount": 1}, "toy.no_piece"),
    ]:
        who = game.gm if command["kind"] == "damage" else game.player
        with _error(code):
            game.do(who, command)
    assert game.frozen() == before


def test_hidden_records_reach_only_the_gm(game: Game) -> None:
    game.do(game.gm, {"kind": "note", "text": "the butler did it"}, hidden=True)
    game.do(game.player, {"kind": "count"})
    assert [r.seq for r in game.store.records_since(game.id, 0, Role.GM)] == [1, 2]
    assert [r.seq for r in game.store.records_since(game.id, 0, Role.PLAYER)] == [2]
    assert [r.seq for r in game.store.records_since(game.id, 0, Role.SPECTATOR)] == [2]
    assert game.store.records_since(game.id, 2, Role.GM) == []


def test_hidden_records_leave_no_trace_in_what_players_see(game: Game) -> None:
    game.do(game.gm, {"kind": "join", "piece": "rat"}, hidden=True)
    game.do(game.gm, {"kind": "roll", "piece": "rat", "sides": 20}, hidden=True)
    game.do(game.gm, {"kind": "note", "text": "the butler did it"}, hidden=True)
    game.do(game.player, {"kind": "join", "piece": "cat"})
    game.do(game.player, {"kind": "count"})
    table = game.store.table(game.id)
    everything = table.view(GM_VIEWER)
    assert everything["pieces"] == {"rat": everything["pieces"]["rat"], "cat": 0}
    assert everything["notes"] == ["the butler did it"]
    for role in (Role.PLAYER, Role.SPECTATOR):
        shared = table.view(Viewer(role))
        assert shared == {"pieces": {"cat": 0}, "counted": 1, "notes": []}
    undo = game.store.undo(game.id, game.gm, 3)
    assert undo.records[0].hidden  # undoing a secret names it, so it stays secret too
    assert [r.seq for r in game.store.records_since(game.id, 0, Role.PLAYER)] == [4, 5]
    assert undo.table.view(GM_VIEWER)["notes"] == []
    assert undo.table.view(Viewer(Role.PLAYER))["pieces"] == {"cat": 0}
    # A visible record may not build on a hidden one: it is refused (for the GM too), and
    # players never get the GM's state.
    before = game.frozen()
    with _error("table.hidden_conflict"):
        game.do(game.gm, {"kind": "damage", "piece": "rat", "amount": 1})
    assert game.frozen() == before
    done = game.do(game.gm, {"kind": "damage", "piece": "rat", "amount": 1}, hidden=True)
    assert done.table.view(Viewer(Role.PLAYER)) == {"pieces": {"cat": 0}, "counted": 1, "notes": []}


def test_expected_seq_refuses_a_stale_command(game: Game) -> None:
    game.do(game.player, {"kind": "count"}, expected_seq=0)
    before = game.frozen()
    with _error("table.stale"):
        game.do(game.player, {"kind": "count"}, expected_seq=0)
    assert game.frozen() == before


# -- undo, snapshots, reloading ------------------------------------------------------------


def test_undo_refolds_and_refuses_dependents(game: Game) -> None:
    game.do(game.player, {"kind": "join", "piece": "cat"})
    game.do(game.player, {"kind": "roll", "piece": "cat"})
    with _error("rule.forbidden"):
        game.store.undo(game.id, game.player, 2)
    before = game.frozen()
    with _error("table.undo_dependent"):
        game.store.undo(game.id, game.gm, 1)  # the roll needs the joined cat
    assert game.frozen() == before
    done = game.store.undo(game.id, game.gm, 2)
    assert done.records[0].undoes == 2
    assert done.table.state.pieces == {"cat": 0}
    with _error("table.already_undone"):
        game.store.undo(game.id, game.gm, 2)
    with _error("table.unknown_record"):
        game.store.undo(game.id, game.gm, 99)
    assert game.store.undo(game.id, game.gm, 1).table.state.pieces == {}
    assert game.store.table(game.id).owners() == {}


def _snapshots(game: Game) -> list[int]:
    with game.store.engine.connect() as conn:
        return list(conn.execute(select(SnapshotRow.seq)).scalars())


def test_a_fresh_store_loads_the_same_table_via_snapshots(game: Game, database_url: str) -> None:
    game.do(game.player, {"kind": "join", "piece": "cat"})
    for _ in range(9):
        game.do(game.player, {"kind": "roll", "piece": "cat"})
    assert _snapshots(game) == [8]  # every 4 records; older ones are pruned
    game.store.undo(game.id, game.gm, 3)
    assert _snapshots(game) == [11]  # an undo re-folds anyway, so it writes one
    game.do(game.player, {"kind": "count"})
    expected = game.store.table(game.id)
    fresh = EventStore(database_url, snapshot_every=4)
    try:
        loaded = fresh.table(game.id)
        assert loaded.records == expected.records
        assert loaded.state == expected.state
        assert loaded.state == Table(expected.system, {}, expected.records, streams=True).state
    finally:
        fresh.close()


def test_a_broken_snapshot_falls_back_to_the_full_fold(game: Game, database_url: str) -> None:
    game.do(game.player, {"kind": "join", "piece": "cat"})
    for _ in range(4):
        game.do(game.player, {"kind": "roll", "piece": "cat"})
    # A readable snapshot is trusted (this proves loading starts from it) ...
    planted = '{"gm": {"pieces": {"cat": 1000}, "counted": 0, "notes": []}, "shared": null}'
    with game.store._writer.begin() as conn:
        assert conn.execute(text("UPDATE snapshots SET state = :s"), {"s": planted}).rowcount
    fresh = EventStore(database_url)
    try:
        last = game.store.table(game.id).records[4]  # after the snapshot at 4
        assert fresh.table(game.id).state.pieces == {"cat": 1000 + last.events[0]["value"]}
    finally:
        fresh.close()
    # ... an unreadable one is ignored and the log folded from the start.
    with game.store._writer.begin() as conn:
        assert conn.execute(text("UPDATE snapshots SET state = '{\"nonsense\": 1'")).rowcount
    fresh = EventStore(database_url)
    try:
        assert fresh.table(game.id).state == game.store.table(game.id).state
    finally:
        fresh.close()


def test_two_stores_see_each_others_commits(game: Game, database_url: str) -> None:
    other = EventStore(database_url)
    try:
        game.do(game.player, {"kind": "join", "piece": "cat"})
        assert other.table(game.id).seq == 1  # loaded and cached
        game.do(game.player, {"kind": "roll", "piece": "cat"})
        assert other.table(game.id).state == game.store.table(game.id).state  # caught up
        joined = other.join(game.id, game.created.invites["player"], "Late")
        assert game.store.authenticate(game.id, joined.token).name == "Late"
        other.execute(game.id, game.gm, {"kind": "count"})
        assert game.store.table(game.id).seq == 3
        game.store.undo(game.id, game.gm, 3)
        assert other.table(game.id).state.counted == 0
    finally:
        other.close()


# -- fair dice: player seeds, reveal -------------------------------------------------------


def test_player_seeds_take_part_from_the_next_record(game: Game) -> None:
    game.do(game.player, {"kind": "join", "piece": "cat"})
    game.do(game.player, {"kind": "roll", "piece": "cat", "sides": 100})
    with _error("rule.forbidden"):
        game.store.add_player_seed(game.id, game.spectator, "mine")
    with _error("table.bad_seed"):
        game.store.add_player_seed(game.id, game.player, "")
    added = game.store.add_player_seed(game.id, game.player, "lucky 7")
    assert added.start == 3  # the next record's seq
    last = game.do(game.player, {"kind": "roll", "piece": "cat", "sides": 100}).records[0]
    seed = game.store.reveal(game.id, game.gm).seed
    plain = FairDice(bytes.fromhex(seed), game.id)
    mixed = plain.with_player_seed(3, "lucky 7")
    assert last.draws[0].value == mixed.stream_value(3, 0, 100)
    verdict = verify_export(game.store.export(game.id, game.player))
    assert verdict.ok and verdict.draws == 2
    # The seed stays in effect in the next epoch, and more can be added there.
    game.store.add_player_seed(game.id, game.player, "after")
    again = game.do(game.player, {"kind": "roll", "piece": "cat", "sides": 100}).records[0]
    second = game.store.reveal(game.id, game.gm).seed
    assert again.draws[0].value == FairDice(bytes.fromhex(second), game.id).with_player_seed(
        3, "lucky 7"
    ).with_player_seed(4, "after").stream_value(4, 0, 100)


def test_a_table_of_format_2_keeps_numbering_draws_across_its_log(store: EventStore) -> None:
    """Tables made before streams keep their derivation: a seed and an epoch begin at a
    draw, every draw is numbered across the log, the export is format 2 and verifies."""
    game = Game(store, log_format=True)
    game.do(game.player, {"kind": "join", "piece": "cat"})
    game.do(game.gm, {"kind": "roll", "piece": "cat", "sides": 8}, hidden=True)
    assert game.store.add_player_seed(game.id, game.player, "alt").start == 1
    rolled = game.do(game.player, {"kind": "roll", "piece": "cat"}).records[0]
    assert [d.index for d in rolled.draws] == [1]
    done = game.store.reveal(game.id, game.gm)
    assert (done.epoch.start, done.current.start, done.current.chain) == (0, 2, None)
    dice = FairDice(bytes.fromhex(done.seed), "vor-den-stroemen").with_player_seed(1, "alt")
    assert rolled.draws[0].value == dice.value(1, 6)
    data = game.store.export(game.id, game.gm)
    assert data["format"] == "spieltisch-table/2"
    assert all("chain" not in epoch for epoch in data["fair"]["epochs"])
    assert verify_export(data).ok and verify_export(data).draws == 2


def test_reveal_is_gm_only_and_the_table_rolls_on_with_a_fresh_seed(game: Game) -> None:
    game.do(game.player, {"kind": "join", "piece": "cat"})
    first = game.do(game.player, {"kind": "roll", "piece": "cat"}).records[0]
    with _error("rule.forbidden"):
        game.store.reveal(game.id, game.player)
    assert game.store.info(game.id).seed is None
    done = game.store.reveal(game.id, game.gm)
    assert (done.number, done.epoch.start, done.epoch.commitment) == (1, 1, game.created.commitment)
    assert hashlib.sha256(bytes.fromhex(done.seed)).hexdigest() == game.created.commitment
    assert (done.current.start, done.current.seed) == (3, None)  # from the next record on
    assert done.current.chain == chain_link(
        game.id, 2, 3, done.current.commitment, str(done.epoch.chain)
    )
    assert done.current.commitment != game.created.commitment
    assert game.store.reveal(game.id, game.gm) == done  # nothing drawn since: the same answer
    info = game.store.info(game.id)
    assert info.seed == done.seed and info.commitment == done.current.commitment
    assert [(e.start, e.seed) for e in info.epochs] == [(1, done.seed), (3, None)]

    later = game.do(game.player, {"kind": "roll", "piece": "cat"}).records[0]
    assert [d.index for d in later.draws] == [0]
    first_dice = FairDice(bytes.fromhex(done.seed), game.id)
    assert first.draws[0].value == first_dice.stream_value(2, 0, 6)
    second = game.store.reveal(game.id, game.gm)
    assert (second.number, second.epoch.start, second.current.start) == (2, 3, 4)
    assert second.epoch.commitment == done.current.commitment
    second_dice = FairDice(bytes.fromhex(second.seed), game.id)
    assert later.draws[0].value == second_dice.stream_value(3, 0, 6)
    epochs = game.store.info(game.id).epochs
    assert [(e.start, e.revealed) for e in epochs] == [(1, True), (3, True), (4, False)]


# -- export and import ---------------------------------------------------------------------


def _played(game: Game) -> None:
    game.do(game.player, {"kind": "join", "piece": "cat"})
    game.do(game.player, {"kind": "roll", "piece": "cat"})
    game.do(game.gm, {"kind": "roll", "piece": "cat", "sides": 8}, hidden=True)
    game.store.add_player_seed(game.id, game.player, "p-seed")
    game.do(game.player, {"kind": "roll", "piece": "cat", "sides": 12})


def test_export_format_and_visibility(game: Game) -> None:
    _played(game)
    data = game.store.export(game.id, game.gm)
    assert data["format"] == "spieltisch-table/3"
    assert (data["table"], data["system"], data["language"]) == (game.id, "toy", "en")
    link = chain_link(game.id, 1, 1, game.created.commitment, "")
    assert data["fair"] == {
        "epochs": [
            {"start": 1, "commitment": game.created.commitment, "seed": None, "chain": link}
        ],
        "player_seeds": [{"start": 4, "seed": "p-seed"}],
    }
    assert [r["seq"] for r in data["records"]] == [1, 2, 3, 4]
    before = game.store.export(game.id, game.player)["records"]
    # Before the reveal a player sees that record 3 is hidden, but not its command or draws.
    assert [r["seq"] for r in before] == [1, 2, 3, 4]
    assert (before[2]["command"], before[2]["events"], before[2]["draws"]) == (None, [], [])
    game.store.reveal(game.id, game.gm)
    after = game.store.export(game.id, game.spectator)
    assert [r["seq"] for r in after["records"]] == [1, 2, 3, 4]
    assert verify_export(after).ok
    # The hidden record keeps its secrets: only its raw draws are there, for verifying.
    full = game.store.export(game.id, game.gm)["records"][2]
    redacted = after["records"][2]
    assert full["hidden"] and (full["command"], full["events"]) != (None, [])
    assert (redacted["command"], redacted["events"]) == (None, [])
    assert redacted["draws"] == full["draws"]


def test_import_makes_a_new_verifiable_table(game: Game) -> None:
    _played(game)
    game.store.reveal(game.id, game.gm)
    data = game.store.export(game.id, game.gm)
    created = game.store.import_table(data, name="Ida")
    assert created.table != game.id
    info, table = game.store.snapshot(created.table)
    assert table.records == game.store.table(game.id).records
    assert table.state == game.store.table(game.id).state
    assert info.dice_table == game.id and info.seed == data["fair"]["epochs"][0]["seed"]
    gm = game.store.authenticate(created.table, created.token)
    again = game.store.export(created.table, gm)
    assert {k: v for k, v in again.items() if k not in ("participants", "fair")} == {
        k: v for k, v in data.items() if k not in ("participants", "fair")
    }
    # The revealed epoch comes along; the new table commits to a fresh seed and rolls on.
    assert again["fair"]["epochs"][0] == data["fair"]["epochs"][0]
    assert again["fair"]["epochs"][1]["start"] == 5 and again["fair"]["epochs"][1]["seed"] is None
    assert verify_export(again).ok
    rolled = game.store.execute(created.table, gm, {"kind": "roll", "piece": "cat"}).records[0]
    assert (rolled.seq, [d.index for d in rolled.draws]) == (5, [0])
    paul = next(p for p in created.participants if p["name"] == "Paul")
    assert game.store.authenticate(created.table, paul["token"]).id == game.player.id
    assert game.store.table(created.table).owners() == {"cat": game.player.id}


def test_import_of_an_unrevealed_export_cannot_roll(game: Game) -> None:
    _played(game)
    created = game.store.import_table(game.store.export(game.id, game.gm))
    gm = game.store.authenticate(created.table, created.token)
    with _error("table.dice_closed"):
        game.store.execute(created.table, gm, {"kind": "roll", "piece": "cat"})
    with _error("table.seed_unknown"):
        game.store.reveal(created.table, gm)


def _bump_first_draw(record: dict[str, Any]) -> None:
    draw = record["draws"][0]
    draw["value"] = draw["value"] % draw["sides"] + 1


@pytest.mark.parametrize(
    ("damage", "code"),
    [
        (lambda d: d.update(format="other/1"), "table.bad_format"),
        (lambda d: _bump_first_draw(d["records"][1]), "verify.mismatch_value"),
        (
            lambda d: d["fair"]["epochs"][0].update(commitment="00" * 32),
            "verify.commitment_mismatch",
        ),
        (lambda d: d["records"].pop(0), "verify.replay_mismatch"),
        (lambda d: d["records"][0].update(seq="one"), "verify.bad_format"),
        (lambda d: d.pop("fair"), "verify.bad_format"),
        (lambda d: d.update(system="nope"), "rule.unknown_system"),
        (lambda d: d["participants"].append(d["participants"][1]), "table.bad_export"),
        (lambda d: d["participants"][1].update(id=7), "table.bad_export"),
        (lambda d: d["participants"][1].update(name="x" * 500), "table.bad_name"),
    ],
)
def test_damaged_imports_are_refused(game: Game, damage: Any, code: str) -> None:
    _played(game)
    game.store.reveal(game.id, game.gm)
    data = game.store.export(game.id, game.gm)
    damage(data)
    count = len(game.store.list_tables())
    with pytest.raises((EngineError, InputError, RuleError)) as caught:
        game.store.import_table(data)
    assert caught.value.code == code
    assert len(game.store.list_tables()) == count


def test_an_export_of_the_first_format_is_still_imported(store: EventStore) -> None:
    game = Game(store, log_format=True)
    _played(game)
    game.store.reveal(game.id, game.gm)
    data = game.store.export(game.id, game.gm)
    first = data["fair"]["epochs"][0]
    old = {
        **data,
        "format": "spieltisch-table/1",
        "fair": {"commitment": first["commitment"], "seed": first["seed"]}
        | {"player_seeds": data["fair"]["player_seeds"]},
    }
    created = game.store.import_table(old)
    info = game.store.info(created.table)
    assert [(e.start, e.seed) for e in info.epochs] == [(0, first["seed"]), (3, None)]
    assert info.can_roll
    old["records"][1]["events"][0]["value"] += 1
    with _error("verify.replay_mismatch"):
        game.store.import_table(old)
