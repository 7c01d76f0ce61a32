"""The table fold, driven by a tiny counter game defined here.

Pieces are counters a player creates (and thereby owns); players add, spend and roll d6 onto
their counters; the GM may take notes; seats are claimed without any rule of the game stopping
a second claim; a counter that reaches 20 gets one automatic d4 bonus, and a counter at 100 or
more triggers an automatic command that never fits.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Annotated, Any, Literal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, Field, TypeAdapter

from spieltisch.dice.fair import DiceSource, FairDice, SeededSource, export_fair
from spieltisch.dice.verify import verify_export
from spieltisch.engine.errors import EngineError, RuleError
from spieltisch.engine.system import Access, Odds, OddsOutcome
from spieltisch.engine.table import AUTO_ACTOR, Actor, Record, Role, Table, draws_of
from spieltisch.engine.visibility import Viewer

# -- the toy game -----------------------------------------------------------------------------


class Create(BaseModel):
    kind: Literal["create"] = "create"
    piece: str


class Add(BaseModel):
    kind: Literal["add"] = "add"
    piece: str
    amount: int


class Spend(BaseModel):
    kind: Literal["spend"] = "spend"
    piece: str
    amount: int


class Roll(BaseModel):
    kind: Literal["roll"] = "roll"
    piece: str
    dice: int = 1


class Note(BaseModel):
    kind: Literal["note"] = "note"
    text: str


class Sit(BaseModel):
    kind: Literal["sit"] = "sit"
    seat: str


class Bonus(BaseModel):
    kind: Literal["bonus"] = "bonus"
    piece: str


Command = Annotated[Create | Add | Spend | Roll | Note | Sit | Bonus, Field(discriminator="kind")]


class Created(BaseModel):
    kind: Literal["created"] = "created"
    piece: str


class Added(BaseModel):
    kind: Literal["added"] = "added"
    piece: str
    amount: int


class Rolled(BaseModel):
    kind: Literal["rolled"] = "rolled"
    piece: str
    faces: list[int]


class Noted(BaseModel):
    kind: Literal["noted"] = "noted"
    text: str


class Sat(BaseModel):
    kind: Literal["sat"] = "sat"
    seat: str


class Bonused(BaseModel):
    kind: Literal["bonused"] = "bonused"
    piece: str
    face: int


Event = Annotated[Created | Added | Rolled | Noted | Sat | Bonused, Field(discriminator="kind")]


@dataclass(frozen=True)
class Counters:
    values: Mapping[str, int] = field(default_factory=dict)
    bonused: frozenset[str] = frozenset()
    notes: tuple[str, ...] = ()
    seats: frozenset[str] = frozenset()


def _change(state: Counters, piece: str, amount: int) -> Counters:
    if piece not in state.values:
        raise RuleError("toy.unknown_piece", piece=piece)
    total = state.values[piece] + amount
    if total < 0:
        raise RuleError("toy.negative", piece=piece, value=total)
    return replace(state, values={**state.values, piece: total})


class CounterGame:
    id = "toy-counter"
    commands: TypeAdapter[Any] = TypeAdapter(Command)
    events: TypeAdapter[Any] = TypeAdapter(Event)
    options: TypeAdapter[Any] = TypeAdapter(dict[str, int])

    def new_state(self, options: Mapping[str, Any]) -> Counters:
        return Counters()

    def decide(self, state: Counters, command: Any, dice: DiceSource) -> list[Any]:
        match command:
            case Create(piece=piece):
                return [Created(piece=piece)]
            case Add(piece=piece, amount=amount) | Spend(piece=piece, amount=amount) if amount < 1:
                raise RuleError("toy.bad_amount", value=amount)
            case Add(piece=piece, amount=amount):
                return [Added(piece=piece, amount=amount)]
            case Spend(piece=piece, amount=amount):
                return [Added(piece=piece, amount=-amount)]
            case Roll(piece=piece, dice=count):
                return [Rolled(piece=piece, faces=[dice.roll(6) for _ in range(count)])]
            case Note(text=text):
                return [Noted(text=text)]
            case Sit(seat=seat):
                return [Sat(seat=seat)]
            case Bonus(piece=piece):
                return [Bonused(piece=piece, face=dice.roll(4))]
        raise AssertionError(command)

    def evolve(self, state: Counters, event: Any) -> Counters:
        match event:
            case Created(piece=piece):
                if piece in state.values:
                    raise RuleError("toy.exists", piece=piece)
                return replace(state, values={**state.values, piece: 0})
            case Added(piece=piece, amount=amount):
                return _change(state, piece, amount)
            case Rolled(piece=piece, faces=faces):
                return _change(state, piece, sum(faces))
            case Noted(text=text):
                return replace(state, notes=(*state.notes, text))
            case Sat(seat=seat):
                return replace(state, seats=state.seats | {seat})
            case Bonused(piece=piece, face=face):
                changed = _change(state, piece, face)
                return replace(changed, bonused=state.bonused | {piece})
        raise AssertionError(event)

    def odds(self, state: Counters, command: Any) -> Odds | None:
        if isinstance(command, Roll) and command.dice == 1:
            return Odds(outcomes=[OddsOutcome(value=v, probability=1 / 6) for v in range(1, 7)])
        return None

    def access(self, state: Counters, command: Any) -> Access:
        match command:
            case Create(piece=piece):
                return Access(piece=piece, claims=True)
            case Sit(seat=seat):
                return Access(piece=seat, claims=True)
            case Note():
                return Access(gm_only=True)
            case Bonus():
                return Access()
            case _:
                return Access(piece=command.piece)

    def automatic(self, state: Counters) -> Any:
        for piece, value in sorted(state.values.items()):
            if value >= 100:
                return Spend(piece=piece, amount=1000)  # never fits: the table gives up on it
            if value >= 20 and piece not in state.bonused:
                return Bonus(piece=piece)
        return None

    def view(self, state: Counters, viewer: Viewer) -> dict[str, Any]:
        return {"values": dict(state.values), "notes": list(state.notes)}


# -- helpers ----------------------------------------------------------------------------------

GM = Actor(id="gm", role=Role.GM)
ANNA = Actor(id="anna", role=Role.PLAYER)
BEN = Actor(id="ben", role=Role.PLAYER)
WATCHER = Actor(id="watcher", role=Role.SPECTATOR)
DICE = FairDice(b"table fold tests", "toy-table")


def new_table() -> Table:
    return Table(CounterGame())


def play(table: Table, command: dict[str, Any], actor: Actor = ANNA, **kw: Any) -> list[Record]:
    return table.execute(command, actor, DICE.source_at, **kw)


def snapshot(table: Table) -> tuple[list[Record], Any, dict[str, str], int]:
    return list(table.records), table.state, table.owners(), table.next_draw


def refused(table: Table, code: str, action: Any, *args: Any, **kw: Any) -> RuleError:
    before = snapshot(table)
    with pytest.raises(RuleError) as caught:
        action(*args, **kw)
    assert caught.value.code == code
    assert snapshot(table) == before
    return caught.value


def fold_by_hand(records: list[Record]) -> Counters:
    """The state as the fold of every event of every record that is not undone."""
    game = CounterGame()
    undone = {r.undoes for r in records if r.undoes is not None}
    state = game.new_state({})
    for record in records:
        if record.undoes is None and record.seq not in undone:
            for data in record.events:
                state = game.evolve(state, game.events.validate_python(data))
    return state


# -- executing --------------------------------------------------------------------------------


def test_execute_appends_a_record_and_folds_its_events() -> None:
    table = new_table()
    [record] = play(table, {"kind": "create", "piece": "mauz"})
    assert record.seq == 1
    assert record.actor == "anna"
    assert record.command == {"kind": "create", "piece": "mauz"}
    assert record.events == [{"kind": "created", "piece": "mauz"}]
    assert record.draws == []
    assert record.claims == "mauz"
    assert table.state.values == {"mauz": 0}

    [second] = play(table, {"kind": "add", "piece": "mauz", "amount": 3})
    assert (second.seq, second.claims, table.seq) == (2, None, 2)
    assert table.state.values == {"mauz": 3}


def test_draws_come_from_the_source_numbered_across_records() -> None:
    table = new_table()
    play(table, {"kind": "create", "piece": "mauz"})
    first = play(table, {"kind": "roll", "piece": "mauz", "dice": 1})[0]
    second = play(table, {"kind": "roll", "piece": "mauz", "dice": 2})[0]  # at most 18: no bonus
    assert [d.index for d in first.draws] == [0]
    assert [d.index for d in second.draws] == [1, 2]
    for draw in [*first.draws, *second.draws]:
        assert draw.sides == 6
        assert draw.value == DICE.value(draw.index, 6)
    assert first.events[0]["faces"] == [d.value for d in first.draws]
    assert table.next_draw == 3
    assert [d.index for d in draws_of(table.records)] == list(range(3))
    assert table.state.values["mauz"] == sum(d.value for d in draws_of(table.records))


def test_a_refused_command_changes_nothing_and_burns_no_draw() -> None:
    table = new_table()
    play(table, {"kind": "create", "piece": "mauz"})
    refused(table, "toy.bad_amount", play, table, {"kind": "add", "piece": "mauz", "amount": 0})
    # decide rolls here, then evolve refuses the event: the draws are dropped with it.
    refused(table, "toy.unknown_piece", play, table, {"kind": "roll", "piece": "nobody"}, GM)
    refused(table, "rule.bad_command", play, table, {"kind": "fly", "piece": "mauz"})
    [record] = play(table, {"kind": "roll", "piece": "mauz"})
    assert record.draws[0].index == 0


def test_automatic_commands_are_appended_as_their_own_records() -> None:
    table = new_table()
    play(table, {"kind": "create", "piece": "mauz"})
    play(table, {"kind": "roll", "piece": "mauz", "dice": 2})
    records = play(table, {"kind": "add", "piece": "mauz", "amount": 20})
    assert [r.actor for r in records] == ["anna", AUTO_ACTOR]
    bonus = records[1]
    assert bonus.command == {"kind": "bonus", "piece": "mauz"}
    assert [(d.index, d.sides) for d in bonus.draws] == [(2, 4)]
    assert bonus.events == [{"kind": "bonused", "piece": "mauz", "face": DICE.value(2, 4)}]
    assert bonus.claims is None
    assert table.state.bonused == {"mauz"}
    # Only once: the next command issues no further bonus.
    assert len(play(table, {"kind": "add", "piece": "mauz", "amount": 1})) == 1


def test_automatic_commands_after_a_hidden_command_stay_hidden() -> None:
    table = new_table()
    play(table, {"kind": "create", "piece": "mauz"})
    records = play(table, {"kind": "add", "piece": "mauz", "amount": 20}, GM, hidden=True)
    assert [(r.actor, r.hidden) for r in records] == [("gm", True), (AUTO_ACTOR, True)]
    assert table.visible(Role.PLAYER)[-1].seq == 1


def test_an_automatic_command_that_fails_leaves_the_human_record_standing() -> None:
    table = new_table()
    play(table, {"kind": "create", "piece": "mauz"})
    play(table, {"kind": "add", "piece": "mauz", "amount": 20})  # with its bonus
    records = play(table, {"kind": "add", "piece": "mauz", "amount": 100})
    assert [r.actor for r in records] == ["anna"]
    assert table.records[-1] == records[0]
    assert table.state.values["mauz"] >= 120


# -- permissions and ownership ----------------------------------------------------------------


def test_a_spectator_may_do_nothing() -> None:
    table = new_table()
    error = refused(table, "rule.forbidden", play, table, {"kind": "create", "piece": "x"}, WATCHER)
    assert error.params == {"action": "create"}
    refused(table, "rule.forbidden", table.undo, 1, WATCHER)


def test_pieces_belong_to_whoever_created_them() -> None:
    table = new_table()
    play(table, {"kind": "create", "piece": "mauz"}, ANNA)
    play(table, {"kind": "create", "piece": "tiger"}, BEN)
    assert table.owners() == {"mauz": "anna", "tiger": "ben"}
    error = refused(
        table, "rule.forbidden", play, table, {"kind": "add", "piece": "mauz", "amount": 1}, BEN
    )
    assert error.params == {"action": "add"}
    play(table, {"kind": "add", "piece": "mauz", "amount": 1}, ANNA)
    play(table, {"kind": "add", "piece": "tiger", "amount": 2}, GM)  # the GM may act for anyone
    assert table.state.values == {"mauz": 1, "tiger": 2}


def test_a_player_cannot_claim_a_piece_someone_else_owns() -> None:
    table = new_table()
    play(table, {"kind": "sit", "seat": "north"}, ANNA)
    refused(table, "rule.forbidden", play, table, {"kind": "sit", "seat": "north"}, BEN)
    assert table.owners() == {"north": "anna"}
    play(table, {"kind": "sit", "seat": "north"}, ANNA)  # claiming one's own piece again is fine
    play(table, {"kind": "sit", "seat": "south"}, BEN)
    assert table.owners() == {"north": "anna", "south": "ben"}


def test_hidden_records_are_for_the_gm_only() -> None:
    table = new_table()
    play(table, {"kind": "create", "piece": "mauz"})
    [secret] = play(table, {"kind": "note", "text": "the cat is a spy"}, GM, hidden=True)
    play(table, {"kind": "add", "piece": "mauz", "amount": 1})
    assert secret.hidden
    assert [r.seq for r in table.visible(Role.GM)] == [1, 2, 3]
    assert [r.seq for r in table.visible(Role.PLAYER)] == [1, 3]
    assert [r.seq for r in table.visible(Role.SPECTATOR)] == [1, 3]
    refused(
        table,
        "rule.forbidden",
        play,
        table,
        {"kind": "add", "piece": "mauz", "amount": 1},
        ANNA,
        hidden=True,
    )


def test_gm_only_commands_are_refused_to_players() -> None:
    table = new_table()
    refused(table, "rule.forbidden", play, table, {"kind": "note", "text": "hi"}, ANNA)
    play(table, {"kind": "note", "text": "hi"}, GM)
    assert table.state.notes == ("hi",)


# -- undo -------------------------------------------------------------------------------------


def test_undo_refolds_without_the_reverted_record() -> None:
    table = new_table()
    play(table, {"kind": "create", "piece": "mauz"})
    play(table, {"kind": "add", "piece": "mauz", "amount": 4})
    play(table, {"kind": "roll", "piece": "mauz"})
    rolled = table.records[2].draws[0].value
    undo = table.undo(2, GM)
    assert (undo.seq, undo.undoes, undo.actor, undo.events, undo.draws) == (4, 2, "gm", [], [])
    assert table.undone() == {2}
    assert table.state.values == {"mauz": rolled}
    assert table.state == fold_by_hand(table.records)
    table.undo(3, GM)
    assert table.state.values == {"mauz": 0}
    assert table.next_draw == 1  # an undo keeps the draws in the log


def test_undo_is_refused_when_a_later_record_depends_on_it() -> None:
    table = new_table()
    play(table, {"kind": "create", "piece": "mauz"})
    play(table, {"kind": "add", "piece": "mauz", "amount": 5})
    play(table, {"kind": "spend", "piece": "mauz", "amount": 5})
    error = refused(table, "table.undo_dependent", table.undo, 2, GM)
    assert (error.params["seq"], error.params["dependent"]) == (2, 3)
    assert "toy.negative" in str(error.params["reason"])
    # Undoing from the end backwards works.
    table.undo(3, GM)
    table.undo(2, GM)
    assert table.state.values == {"mauz": 0}


def test_undo_refusals() -> None:
    table = new_table()
    play(table, {"kind": "create", "piece": "mauz"})
    play(table, {"kind": "add", "piece": "mauz", "amount": 5})
    refused(table, "rule.forbidden", table.undo, 2, ANNA)
    refused(table, "table.unknown_record", table.undo, 0, GM)
    refused(table, "table.unknown_record", table.undo, 3, GM)
    table.undo(2, GM)
    refused(table, "table.already_undone", table.undo, 2, GM)
    error = refused(table, "table.not_undoable", table.undo, 3, GM)
    assert error.params == {"seq": 3}


def test_undoing_a_claim_releases_the_piece() -> None:
    table = new_table()
    play(table, {"kind": "create", "piece": "mauz"}, ANNA)
    table.undo(1, GM)
    assert table.owners() == {}
    assert table.state.values == {}
    play(table, {"kind": "create", "piece": "mauz"}, BEN)
    assert table.owners() == {"mauz": "ben"}


# -- replay and import ------------------------------------------------------------------------


def _played() -> Table:
    table = new_table()
    play(table, {"kind": "create", "piece": "mauz"}, ANNA)  # 1
    play(table, {"kind": "create", "piece": "tiger"}, BEN)  # 2
    play(table, {"kind": "roll", "piece": "mauz", "dice": 3}, ANNA)  # 3: draws 0-2
    play(table, {"kind": "note", "text": "psst"}, GM, hidden=True)  # 4
    play(table, {"kind": "add", "piece": "tiger", "amount": 5}, BEN)  # 5
    play(table, {"kind": "roll", "piece": "tiger", "dice": 2}, BEN)  # 6: draws 3-4
    table.undo(3, GM)  # 7
    play(table, {"kind": "add", "piece": "mauz", "amount": 25}, ANNA)  # 8, 9: bonus, draw 5
    assert table.seq == 9
    return table


def test_replaying_the_records_gives_the_same_table() -> None:
    table = _played()
    assert any(r.actor == AUTO_ACTOR for r in table.records)
    copy = Table(CounterGame(), table.options, table.records)
    assert copy.state == table.state
    assert copy.owners() == table.owners()
    assert copy.next_draw == table.next_draw
    via_json = [Record.model_validate_json(r.model_dump_json()) for r in table.records]
    assert Table(CounterGame(), {}, via_json).state == table.state
    assert table.state == fold_by_hand(table.records)


def test_an_exported_table_verifies() -> None:
    table = _played()
    export = {
        "format": "spieltisch-table/1",
        "table": DICE.table,
        "system": CounterGame.id,
        "options": table.options,
        "language": "en",
        "fair": export_fair(DICE, revealed=True),
        "records": [r.model_dump(mode="json") for r in table.records],
    }
    verdict = verify_export(export)
    assert verdict.ok
    assert verdict.draws == table.next_draw > 0


def _records_of(table: Table) -> list[dict[str, Any]]:
    return [r.model_dump(mode="json") for r in table.records]


@pytest.mark.parametrize(
    ("change", "detail"),
    [
        (lambda rs: rs.pop(1), "seq"),
        (lambda rs: rs[4]["events"].append({"kind": "created", "piece": "mauz"}), "record 5"),
        (lambda rs: rs[4]["events"].append({"kind": "warp"}), "record 5"),
        (lambda rs: rs[8]["events"][0].update(piece="lion"), "record 9"),
        (lambda rs: rs[6].update(undoes=8), "undo"),
        (lambda rs: rs[6].update(undoes=7), "undo"),
        (lambda rs: rs[8].update(undoes=7), "undo"),
        (lambda rs: rs[5]["draws"].pop(0), "draw"),
        (lambda rs: rs[2]["draws"][0].update(index=7), "draw"),
    ],
)
def test_importing_a_broken_log_is_refused(change: Any, detail: str) -> None:
    records = _records_of(_played())
    change(records)
    with pytest.raises(EngineError) as caught:
        Table(CounterGame(), {}, [Record.model_validate(r) for r in records])
    assert caught.value.code == "table.bad_export"
    assert detail in caught.value.params["detail"]


# -- invariants under any sequence of actions -------------------------------------------------

_pieces = st.sampled_from(["mauz", "tiger"])
_actors = st.sampled_from([GM, ANNA, BEN, WATCHER])
_commands = st.one_of(
    st.builds(lambda p: {"kind": "create", "piece": p}, _pieces),
    st.builds(lambda p, a: {"kind": "add", "piece": p, "amount": a}, _pieces, st.integers(-1, 8)),
    st.builds(lambda p, a: {"kind": "spend", "piece": p, "amount": a}, _pieces, st.integers(1, 8)),
    st.builds(lambda p, n: {"kind": "roll", "piece": p, "dice": n}, _pieces, st.integers(1, 3)),
    st.builds(lambda s: {"kind": "sit", "seat": s}, st.sampled_from(["north", "south"])),
    st.just({"kind": "note", "text": "n"}),
)
_steps = st.lists(
    st.one_of(
        st.tuples(st.just("do"), _actors, _commands, st.booleans()),
        st.tuples(st.just("undo"), _actors, st.integers(0, 12), st.just(False)),
    ),
    max_size=25,
)


@settings(max_examples=80, deadline=None)
@given(steps=_steps, seed=st.integers(0, 2**32))
def test_the_fold_is_consistent_after_any_actions(steps: list[Any], seed: int) -> None:
    table = new_table()
    source = SeededSource(seed)
    for step, actor, arg, hidden in steps:
        before = snapshot(table)
        try:
            if step == "do":
                table.execute(arg, actor, lambda _index: source, hidden=hidden)
            else:
                table.undo(arg, actor)
        except RuleError:
            assert snapshot(table) == before
            continue
        assert actor.role is not Role.SPECTATOR
        assert step == "do" or actor.role is Role.GM
        # The state is always the fold of the records that are not undone …
        assert table.state == fold_by_hand(table.records)
        # … and replaying the log reproduces it, with draws numbered without gaps.
        assert Table(CounterGame(), {}, table.records).state == table.state
        assert [d.index for d in draws_of(table.records)] == list(range(table.next_draw))
        assert [r.seq for r in table.records] == list(range(1, table.seq + 1))
        for piece, owner in table.owners().items():
            assert owner in {"gm", "anna", "ben"}
            assert piece in table.state.values or piece in table.state.seats
