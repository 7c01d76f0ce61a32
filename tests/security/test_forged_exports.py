"""Forged exports are refused by ``spieltisch verify`` (library and CLI) and by import (store
and HTTP), each naming the first mismatch; honest exports across several epochs pass.

A forger may edit anything in the file, and once an epoch is revealed can compute correct
draw values for it: so every field of every event, every draw, the order of the records,
surplus draws, the epochs' seeds and commitments and the automatic follow-ups are tampered
with here, one at a time.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Annotated, Any, Literal

import pytest
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter
from typer.testing import CliRunner

from asgi_client import TestClient
from legacy import log_format_table
from spieltisch.cli.app import app
from spieltisch.dice.fair import DiceSource, Epoch, FairDice, link_epochs
from spieltisch.engine.errors import RuleError
from spieltisch.engine.system import Access, Odds
from spieltisch.engine.visibility import Viewer
from spieltisch.errors import SpieltischError
from spieltisch.i18n import translate
from spieltisch.store import EventStore
from spieltisch.store.exchange import verify_document
from spieltisch.systems import registry as registry_module
from spieltisch.web.app import create_app

Export = dict[str, Any]

# -- a system with claims and an automatic follow-up ----------------------------------------


class Take(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: Literal["take"] = "take"
    piece: str


class Throw(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: Literal["throw"] = "throw"
    piece: str


class Answer(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: Literal["answer"] = "answer"


class Taken(BaseModel):
    kind: Literal["taken"] = "taken"
    piece: str


class Thrown(BaseModel):
    kind: Literal["thrown"] = "thrown"
    piece: str
    value: int


class Answered(BaseModel):
    kind: Literal["answered"] = "answered"
    value: int


class EchoState(BaseModel):
    model_config = ConfigDict(frozen=True)
    pieces: tuple[str, ...] = ()
    waiting: bool = False
    total: int = 0


class Echo:
    """Take a piece, throw a d6 for it; the table answers every throw with a d4 of its own."""

    id = "echo"
    commands: TypeAdapter[Any] = TypeAdapter(
        Annotated[Take | Throw | Answer, Field(discriminator="kind")]
    )
    events: TypeAdapter[Any] = TypeAdapter(
        Annotated[Taken | Thrown | Answered, Field(discriminator="kind")]
    )
    options: TypeAdapter[Any] = TypeAdapter(dict[str, int])

    def new_state(self, options: Mapping[str, Any]) -> EchoState:
        return EchoState()

    def decide(self, state: EchoState, command: Any, dice: DiceSource) -> list[Any]:
        if isinstance(command, Take):
            return [Taken(piece=command.piece)]
        if isinstance(command, Answer):
            if not state.waiting:
                raise RuleError("rule.bad_command", system="echo", detail="nothing to answer")
            return [Answered(value=dice.roll(4))]
        if command.piece not in state.pieces:
            raise RuleError("rule.bad_command", system="echo", detail=command.piece)
        return [Thrown(piece=command.piece, value=dice.roll(6))]

    def evolve(self, state: EchoState, event: Any) -> EchoState:
        if isinstance(event, Taken):
            return state.model_copy(update={"pieces": (*state.pieces, event.piece)})
        if isinstance(event, Thrown):
            return state.model_copy(update={"waiting": True, "total": state.total + event.value})
        return state.model_copy(update={"waiting": False, "total": state.total - event.value})

    def odds(self, state: EchoState, command: Any) -> Odds | None:
        return None

    def access(self, state: EchoState, command: Any) -> Access:
        if isinstance(command, Take):
            return Access(piece=command.piece, claims=True)
        if isinstance(command, Throw):
            return Access(piece=command.piece)
        return Access(gm_only=True)

    def automatic(self, state: EchoState) -> Any:
        return Answer() if state.waiting else None

    def view(self, state: EchoState, viewer: Viewer) -> dict[str, Any]:
        return state.model_dump(mode="json")


@pytest.fixture
def echo() -> Iterator[None]:
    registry_module.REGISTRY["echo"] = Echo
    try:
        yield
    finally:
        registry_module.REGISTRY.pop("echo", None)


# -- honest tables ---------------------------------------------------------------------------


class Played:
    """A free-dice table played over three epochs (two revealed), with hidden GM rolls.

    In format 3 (the default) every record draws 0, 1, … from its own stream and the epochs
    begin at records 1, 4 and 6; in format 2 (``log_format``) draws are numbered across the
    log (the comments) and the epochs begin at draws 0, 6 and 8.
    """

    def __init__(self, store: EventStore, *, log_format: bool = False) -> None:
        self.store = store
        created = (
            log_format_table(store, "free-dice")
            if log_format
            else store.create_table("free-dice", language="en")
        )
        self.id = created.table
        self.gm = store.authenticate(self.id, created.token)
        joined = store.join(self.id, created.invites["player"], "Paul")
        self.player = store.authenticate(self.id, joined.token)
        roll = self.roll
        roll(self.player, "2d6", "attack")  # 1: draws 0-1
        roll(self.gm, "1d20", None, hidden=True)  # 2: draw 2 (hidden)
        store.add_player_seed(self.id, self.player, "Mauz")
        roll(self.player, "3d6kh2", None)  # 3: draws 3-5
        store.reveal(self.id, self.gm)  # epoch 1: draws 0-5, records 1-3
        roll(self.player, "1d8", "second epoch")  # 4: draw 6
        roll(self.gm, "1d12", None, hidden=True)  # 5: draw 7 (hidden)
        store.reveal(self.id, self.gm)  # epoch 2: draws 6-7, records 4-5
        roll(self.player, "1d6", None)  # 6: draw 8, in the open third epoch
        roll(self.gm, "1d4", None, hidden=True)  # 7: draw 9 (hidden, not revealed yet)
        roll(self.player, "1d10", None)  # 8: draw 10

    def roll(self, who: Any, expression: str, label: str | None, hidden: bool = False) -> None:
        command = {"kind": "roll", "expression": expression, "label": label}
        self.store.execute(self.id, who, command, hidden=hidden)

    def export(self, who: Any = None) -> Export:
        return self.store.export(self.id, who or self.gm)


@pytest.fixture
def store(database_url: str) -> Iterator[EventStore]:
    store = EventStore(database_url)
    try:
        yield store
    finally:
        store.close()


@pytest.fixture
def sqlite_store(tmp_path: Path) -> Iterator[EventStore]:
    store = EventStore(f"sqlite:///{tmp_path / 'forged.sqlite3'}")
    try:
        yield store
    finally:
        store.close()


@pytest.fixture
def played(sqlite_store: EventStore) -> Played:
    return Played(sqlite_store)


def test_an_honest_export_across_three_epochs_verifies(played: Played) -> None:
    verdict = verify_document(played.export())
    assert verdict.ok, verdict.to_json()
    report = verdict.to_json()
    epochs = [
        (e["number"], e["start"], e["end"], e["status"], e["draws"]) for e in report["epochs"]
    ]
    assert epochs == [(1, 1, 4, "ok", 6), (2, 4, 6, "ok", 2), (3, 6, None, "pending", 3)]
    assert (report["draws"], report["pending_draws"], report["replayed"]) == (8, 3, 8)
    assert report["replay"] is None and report["mismatch"] is None


def test_a_players_export_verifies_visible_records_by_replay_and_hidden_by_draws(
    played: Played,
) -> None:
    mine = played.export(played.player)
    hidden = [r for r in mine["records"] if r["hidden"]]
    assert [(r["seq"], r["command"], r["events"]) for r in hidden] == [
        (2, None, []),
        (5, None, []),
        (7, None, []),
    ]
    # Hidden draws of revealed epochs are there (checked against the seed); the open epoch's
    # hidden draw is withheld, and nothing tells how many there were.
    assert [len(r["draws"]) for r in hidden] == [1, 1, 0]
    verdict = verify_document(mine)
    assert verdict.ok, verdict.to_json()
    assert (verdict.dice.draws, verdict.dice.pending, verdict.dice.withheld) == (8, 2, 0)
    assert verdict.replay.records == 8
    # A changed hidden draw in a revealed epoch shows, and so does a changed visible event.
    forged = copy.deepcopy(mine)
    _bump(forged["records"][1]["draws"][0])
    assert _code(verify_document(forged)) == "verify.mismatch_value"
    forged = copy.deepcopy(mine)
    forged["records"][7]["events"][0]["result"] = 999
    assert _code(verify_document(forged)) == "verify.replay_mismatch"


def test_the_table_rolls_on_after_each_reveal(played: Played) -> None:
    info = played.store.info(played.id)
    assert [e.start for e in info.epochs] == [1, 4, 6] and info.can_roll
    played.roll(played.player, "1d6", None)
    record = played.store.table(played.id).records[-1]
    assert (record.seq, [d.index for d in record.draws]) == (9, [0])


# -- forgeries -------------------------------------------------------------------------------


def _bump(draw: dict[str, Any]) -> None:
    draw["value"] = draw["value"] % draw["sides"] + 1


def _code(verdict: Any) -> str | None:
    error = verdict.error()
    return None if error is None else error.code


def _leaves(value: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from _leaves(inner, f"{path}.{key}" if path else key)
    elif isinstance(value, list):
        for position, inner in enumerate(value):
            yield from _leaves(inner, f"{path}.{position}")
    else:
        yield path, value


def _changed(value: Any) -> Any:
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, str):
        return value + "x"
    return "forged"  # None becomes text


def _set(target: Any, path: str, value: Any) -> None:
    keys = [int(k) if k.isdigit() else k for k in path.split(".")]
    for key in keys[:-1]:
        target = target[key]
    target[keys[-1]] = value


def test_every_changed_event_field_is_named_by_the_replay(played: Played) -> None:
    honest = played.export()
    tried = 0
    for record in honest["records"]:
        for path, value in _leaves(record["events"], "events"):
            forged = copy.deepcopy(honest)
            _set(forged["records"][record["seq"] - 1], path, _changed(value))
            mismatch = verify_document(forged).replay.mismatch
            assert mismatch is not None, path
            assert (mismatch.seq, mismatch.field) == (record["seq"], path)
            assert mismatch.found == _changed(value) and mismatch.expected == value
            assert mismatch.event == int(path.split(".")[1])
            tried += 1
    assert tried > 40  # results, every die's face, kept and exploded flags, labels


def _true_draw(data: Export, seq: int, index: int, sides: int) -> dict[str, int]:
    """Draw ``index`` of record ``seq``'s stream as the revealed first epoch gives it (what a
    forger can compute)."""
    fair = data["fair"]
    dice = FairDice.from_hex(fair["epochs"][0]["seed"], data["table"], fair["player_seeds"])
    return {"index": index, "sides": sides, "value": dice.stream_value(seq, index, sides)}


def _swap_records(data: Export) -> None:
    records = data["records"]
    records[2], records[3] = records[3], records[2]


def _swap_seeds(data: Export) -> None:
    epochs = data["fair"]["epochs"]
    epochs[0]["seed"], epochs[1]["seed"] = epochs[1]["seed"], epochs[0]["seed"]


def _swap_epochs(data: Export) -> None:
    epochs = data["fair"]["epochs"]
    for key in ("seed", "commitment"):
        epochs[0][key], epochs[1][key] = epochs[1][key], epochs[0][key]


FORGERIES: list[tuple[str, Callable[[Export], None], str, dict[str, Any]]] = [
    (
        "result 999",
        lambda d: d["records"][0]["events"][0].update(result=999),
        "verify.replay_mismatch",
        {"seq": 1, "event": 0, "field": "events.0.result", "found": 999},
    ),
    (
        "changed draw",
        lambda d: _bump(d["records"][2]["draws"][1]),
        "verify.mismatch_value",
        {"seq": 3, "index": 1},
    ),
    (
        "changed hidden draw",
        lambda d: _bump(d["records"][1]["draws"][0]),
        "verify.mismatch_value",
        {"seq": 2, "index": 0},
    ),
    (
        "renumbered draw",
        lambda d: d["records"][2]["draws"][1].update(index=3),
        "verify.mismatch_index",
        {"seq": 3, "expected": 1, "logged": 3},
    ),
    ("reordered", _swap_records, "verify.replay_mismatch", {"seq": 4, "field": "seq"}),
    ("dropped", lambda d: d["records"].pop(1), "verify.replay_mismatch", {"seq": 3}),
    (
        "duplicated",
        lambda d: d["records"].insert(1, copy.deepcopy(d["records"][0])),
        "verify.replay_mismatch",
        {"seq": 1, "field": "seq"},
    ),
    (
        "surplus draw",  # with the value the revealed seed gives: the replay takes two dice
        lambda d: d["records"][0]["draws"].append(_true_draw(d, 1, 2, 6)),
        "verify.replay_mismatch",
        {"seq": 1, "field": "draws.count"},
    ),
    (
        "changed command",
        lambda d: d["records"][2]["command"].update(expression="3d6kh1"),
        "verify.replay_mismatch",
        {"seq": 3, "field": "events.0.expression"},
    ),
    (
        "swapped seeds",
        _swap_seeds,
        "verify.commitment_mismatch",
        {"epoch": 1},
    ),
    # Each seed matches its commitment, but epoch 1's link was made over the other one.
    ("swapped epochs", _swap_epochs, "verify.chain_link", {"epoch": 1, "start": 1}),
    (
        "moved epoch start",
        lambda d: d["fair"]["epochs"][1].update(start=3),
        "verify.chain_link",
        {"epoch": 2, "start": 3},
    ),
]


@pytest.mark.parametrize(
    ("damage", "code", "params"), [f[1:] for f in FORGERIES], ids=[f[0] for f in FORGERIES]
)
def test_forgeries_are_refused_by_verify_and_by_import(
    played: Played, damage: Any, code: str, params: dict[str, Any]
) -> None:
    data = played.export()
    damage(data)
    verdict = verify_document(data)
    assert not verdict.ok
    error = verdict.error()
    assert error is not None and error.code == code
    for key, wanted in params.items():
        assert (
            error.params[key] in wanted
            if isinstance(wanted, range)
            else error.params[key] == wanted
        )
    tables = len(played.store.list_tables())
    with pytest.raises(SpieltischError) as caught:
        played.store.import_table(data)
    assert (caught.value.code, caught.value.params) == (error.code, error.params)
    assert len(played.store.list_tables()) == tables


def test_surplus_draws_with_correct_values_are_refused_by_the_replay(played: Played) -> None:
    """The ``1d6`` of record 6 (open epoch) gets 50,000 draws: the dice cannot tell (the epoch
    is not revealed), the replay can: a ``1d6`` takes one draw."""
    data = played.export()
    record = data["records"][5]
    extra = 50_000
    record["draws"] += [{"index": 1 + k, "sides": 6, "value": 1} for k in range(extra)]
    verdict = verify_document(data)
    assert verdict.dice.ok
    mismatch = verdict.replay.mismatch
    assert mismatch is not None
    assert (mismatch.seq, mismatch.field, mismatch.expected, mismatch.found) == (
        6,
        "draws.count",
        1,
        extra + 1,
    )
    with pytest.raises(SpieltischError) as caught:
        played.store.import_table(data)
    assert caught.value.code == "verify.replay_mismatch"
    assert caught.value.params["field"] == "draws.count"


def test_a_forged_export_is_refused_on_both_databases(store: EventStore) -> None:
    played = Played(store)
    data = played.export()
    data["records"][3]["events"][0]["result"] = 999
    with pytest.raises(SpieltischError) as caught:
        store.import_table(data)
    assert caught.value.code == "verify.replay_mismatch"
    assert caught.value.params["seq"] == 4
    honest = store.import_table(played.export())
    assert store.table(honest.table).records == store.table(played.id).records


# -- automatic follow-ups and claims ----------------------------------------------------------


def _echo_export(store: EventStore) -> Export:
    created = store.create_table("echo")
    gm = store.authenticate(created.table, created.token)
    player = store.authenticate(
        created.table, store.join(created.table, created.invites["player"], "Pia").token
    )
    store.execute(created.table, player, {"kind": "take", "piece": "cat"})
    store.execute(created.table, player, {"kind": "throw", "piece": "cat"})
    store.execute(created.table, player, {"kind": "throw", "piece": "cat"})
    store.reveal(created.table, gm)
    return store.export(created.table, gm)


def test_automatic_follow_ups_and_claims_must_be_as_recorded(
    sqlite_store: EventStore, echo: None
) -> None:
    honest = _echo_export(sqlite_store)
    assert [(r["actor"] == "auto", r["command"]["kind"]) for r in honest["records"]] == [
        (False, "take"),
        (False, "throw"),
        (True, "answer"),
        (False, "throw"),
        (True, "answer"),
    ]
    assert verify_document(honest).ok

    def refused(change: Callable[[Export], None]) -> Any:
        data = copy.deepcopy(honest)
        change(data)
        mismatch = verify_document(data).replay.mismatch
        assert mismatch is not None
        return mismatch.seq, mismatch.field, mismatch.expected, mismatch.found

    human = honest["records"][1]["actor"]
    assert refused(lambda d: d["records"][2].update(actor=human)) == (3, "actor", "auto", human)
    assert refused(lambda d: d["records"][1].update(actor="auto")) == (2, "actor", "—", "auto")
    assert refused(lambda d: d["records"][0].update(claims=None)) == (1, "claims", "cat", None)
    assert refused(lambda d: d["records"][0].update(claims="dog")) == (1, "claims", "cat", "dog")
    # Without its last automatic answer the log ends where the table had more to do.
    assert refused(lambda d: d["records"].pop()) == (5, "actor", "auto", "—")


# -- the command line and HTTP ----------------------------------------------------------------


def test_the_command_line_names_the_first_mismatch(played: Played, tmp_path: Path) -> None:
    data = played.export()
    path = tmp_path / "table.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    ok = CliRunner().invoke(app, ["--lang", "en", "verify", str(path), "--json"])
    assert ok.exit_code == 0, ok.output
    report = json.loads(ok.stdout)
    assert [e["status"] for e in report["epochs"]] == ["ok", "ok", "pending"]
    text = CliRunner().invoke(app, ["--lang", "en", "verify", str(path)]).stdout
    assert "Epoch 3 (entries from 6 on): not revealed yet" in text
    assert text.splitlines()[-1].startswith("✓ Table")

    data["records"][0]["events"][0]["result"] = 999
    path.write_text(json.dumps(data), encoding="utf-8")
    bad = CliRunner().invoke(app, ["--lang", "en", "verify", str(path), "--json"])
    assert bad.exit_code == 1
    report = json.loads(bad.stdout)
    assert report["ok"] is False and report["mismatch"] is None
    assert report["replay"]["seq"] == 1 and report["replay"]["field"] == "events.0.result"
    for lang in ("en", "de"):
        lines = CliRunner().invoke(app, ["--lang", lang, "verify", str(path)]).stdout
        expected = translate(
            "verify.replay_mismatch",
            lang,
            seq=1,
            event=0,
            field="events.0.result",
            expected=report["replay"]["expected"],
            found=999,
        )
        assert f"✗ {expected}" in lines


def test_http_import_refuses_forgeries_and_accepts_the_honest_export(
    played: Played, sqlite_store: EventStore
) -> None:
    with TestClient(create_app(sqlite_store)) as client:
        data = played.export()
        data["records"][0]["events"][0]["result"] = 999
        answer = client.post("/api/tables/import?lang=en", json=data)
        assert answer.status_code == 422
        error = answer.json()["error"]
        assert error["code"] == "verify.replay_mismatch"
        assert "Entry no. 1, events.0.result" in error["message"] and "999" in error["message"]

        data = played.export()
        _swap_seeds(data)
        answer = client.post("/api/tables/import?lang=de", json=data)
        assert answer.status_code == 422
        assert answer.json()["error"]["code"] == "verify.commitment_mismatch"
        assert answer.json()["error"]["message"].startswith("Epoche 1:")

        honest = client.post("/api/tables/import", json=played.export())
        assert honest.status_code == 201, honest.text


# -- the chain of epochs ------------------------------------------------------------------------


class _Highest:
    """Every die shows its highest face: what a forger would like the log to say."""

    def roll(self, sides: int) -> int:
        return sides


def _two_epochs(store: EventStore, *, log_format: bool = False) -> Export:
    """Two rolls revealed in epoch 1, two more (one hidden) in the open epoch 2."""
    created = (
        log_format_table(store, "free-dice")
        if log_format
        else store.create_table("free-dice", language="en")
    )
    gm = store.authenticate(created.table, created.token)
    player = store.authenticate(
        created.table, store.join(created.table, created.invites["player"], "Paul").token
    )
    roll = {"kind": "roll", "expression": "2d6", "label": None}
    store.execute(created.table, player, roll)
    store.execute(created.table, gm, {**roll, "expression": "1d20"})
    store.reveal(created.table, gm)
    store.execute(created.table, player, {**roll, "expression": "3d6"})
    store.execute(created.table, gm, roll, hidden=True)
    return store.export(created.table, gm)


def _redecided(data: Export) -> Export:
    """``data`` with every record decided again with every die at its highest face."""
    from spieltisch.engine.table import Table
    from spieltisch.engine.visibility import Actor, Role
    from spieltisch.systems.registry import get_system

    forged = copy.deepcopy(data)
    streams = forged["format"] == "spieltisch-table/3"
    table = Table(get_system(forged["system"]), forged["options"], streams=streams)
    for record in forged["records"]:
        actor = Actor(id=record["actor"], role=Role.GM)
        table.execute(record["command"], actor, lambda _key: _Highest(), hidden=record["hidden"])
    forged["records"] = [r.model_dump(mode="json") for r in table.records]
    return forged


def _epochs(change: Callable[[list[Any]], Any]) -> Callable[[Export], Export]:
    def forge(data: Export) -> Export:
        change(data["fair"]["epochs"])
        return data

    return forge


def _reordered(epochs: list[Any]) -> None:
    epochs[0], epochs[1] = epochs[1], epochs[0]


CHAIN_FORGERIES: list[tuple[str, Callable[[Export], Export], str, dict[str, Any]]] = [
    # The open epoch 3 (records 6-8) moved back over record 5 of the revealed epoch 2.
    (
        "boundary moved back",
        _epochs(lambda e: e[2].update(start=5)),
        "verify.chain_link",
        {"epoch": 3, "start": 5},
    ),
    # ... and forward, so that record 6 would be checked against epoch 2's seed.
    (
        "boundary moved forward",
        _epochs(lambda e: e[2].update(start=7)),
        "verify.chain_link",
        {"epoch": 3, "start": 7},
    ),
    ("dropped epoch", _epochs(lambda e: e.pop(1)), "verify.chain_link", {"epoch": 2, "start": 6}),
    (
        "duplicated epoch",
        _epochs(lambda e: e.insert(2, dict(e[1]))),
        "verify.chain_tiling",
        {"epoch": 3, "start": 4, "low": 5, "high": 9},
    ),
    (
        "reordered epochs",
        _epochs(_reordered),
        "verify.chain_tiling",
        {"epoch": 1, "start": 4, "low": 1, "high": 1},
    ),
]


def _refused_everywhere(
    store: EventStore, forged: Export, code: str, params: dict[str, Any], tmp_path: Path
) -> None:
    """``forged`` is failed by verify (library, CLI in both languages) and refused by import
    (store and HTTP, 422 with the localized reason naming the epoch), changing nothing."""
    verdict = verify_document(forged)
    error = verdict.error()
    assert not verdict.ok and error is not None and error.code == code
    assert {key: error.params[key] for key in params} == params
    assert verdict.to_json()["chain"]["kind"] == code.removeprefix("verify.chain_")

    tables = len(store.list_tables())
    with pytest.raises(SpieltischError) as caught:
        store.import_table(forged)
    assert (caught.value.code, caught.value.params) == (error.code, error.params)
    with TestClient(create_app(store)) as client:
        for lang in ("en", "de"):
            answer = client.post(f"/api/tables/import?lang={lang}", json=forged)
            assert answer.status_code == 422
            body = answer.json()["error"]
            assert body["code"] == code
            assert body["message"] == translate(code, lang, **error.params)
            assert f" {params['epoch']} " in body["message"]
    assert len(store.list_tables()) == tables

    path = tmp_path / "forged.json"
    path.write_text(json.dumps(forged), encoding="utf-8")
    for lang in ("en", "de"):
        result = CliRunner().invoke(app, ["--lang", lang, "verify", str(path)])
        assert result.exit_code == 1
        assert f"✗ {translate(code, lang, **error.params)}" in result.stdout
    report = json.loads(CliRunner().invoke(app, ["verify", str(path), "--json"]).stdout)
    assert report["ok"] is False and report["chain"]["epoch"] == params["epoch"]


@pytest.mark.parametrize(
    ("forge", "code", "params"),
    [f[1:] for f in CHAIN_FORGERIES],
    ids=[f[0] for f in CHAIN_FORGERIES],
)
def test_a_forged_chain_of_epochs_is_refused_everywhere(
    played: Played, tmp_path: Path, forge: Any, code: str, params: dict[str, Any]
) -> None:
    """Every boundary is committed by the link of its epoch when it is made: moving one,
    dropping, doubling or reordering an epoch breaks the chain."""
    _refused_everywhere(played.store, forge(played.export()), code, params, tmp_path)


def test_re_deciding_with_maximal_dice_behind_a_moved_boundary_is_refused(
    sqlite_store: EventStore, tmp_path: Path
) -> None:
    """The forgery of the hostile-file report in format 3: the open epoch moved back to
    record 1, so that the revealed epoch covers nothing, then every record decided again
    with every die at its maximum. The replay and the dice agree with the forgery (nothing
    revealed covers a record); the link of the moved epoch does not."""
    honest = _two_epochs(sqlite_store)
    assert [e["start"] for e in honest["fair"]["epochs"]] == [1, 3]
    assert verify_document(honest).ok
    forged = copy.deepcopy(honest)
    forged["fair"]["epochs"][1]["start"] = 1
    forged = _redecided(forged)
    assert {d["value"] for r in forged["records"] for d in r["draws"]} == {6, 20}
    verdict = verify_document(forged)
    assert verdict.replay.ok and verdict.dice.mismatch is None and verdict.dice.commitment_ok
    _refused_everywhere(
        sqlite_store, forged, "verify.chain_link", {"epoch": 2, "start": 1}, tmp_path
    )


def test_a_first_seed_revealed_before_any_record_verifies_at_once(
    sqlite_store: EventStore,
) -> None:
    """In format 3 the boundary of an empty first epoch is committed like any other: the
    table verifies without waiting for the next reveal."""
    created = sqlite_store.create_table("free-dice")
    gm = sqlite_store.authenticate(created.table, created.token)
    sqlite_store.reveal(created.table, gm)
    roll = {"kind": "roll", "expression": "1d6", "label": None}
    sqlite_store.execute(created.table, gm, roll)
    data = sqlite_store.export(created.table, gm)
    assert [e["start"] for e in data["fair"]["epochs"]] == [1, 1]
    assert verify_document(data).ok


# -- the chain of epochs of format 2 ------------------------------------------------------------


def test_moving_the_open_epoch_back_over_revealed_draws_is_refused(
    sqlite_store: EventStore, tmp_path: Path
) -> None:
    """The forgery of the hostile-file report on a table of format 2: the open epoch's start
    set to 0, so that the revealed epoch covers nothing and every draw is 'not checkable
    yet'; then every record decided again with every die at its maximum. The replay cannot
    tell (the draws and events agree), the dice check did not look (nothing revealed covered
    them): the chain of epochs must not close."""
    honest = _two_epochs(sqlite_store, log_format=True)
    assert [e["start"] for e in honest["fair"]["epochs"]] == [0, 3]
    assert verify_document(honest).ok
    forged = copy.deepcopy(honest)
    forged["fair"]["epochs"][1]["start"] = 0
    forged = _redecided(forged)
    assert {d["value"] for r in forged["records"] for d in r["draws"]} == {6, 20}
    verdict = verify_document(forged)
    assert verdict.replay.ok and verdict.dice.mismatch is None  # each half alone agrees
    assert not verdict.ok
    error = verdict.error()
    assert error is not None and error.code == "verify.chain_open"
    assert error.params == {"epoch": 1, "start": 0, "next": 2, "pending": 8}
    assert verdict.to_json()["chain"] == {
        "kind": "open",
        "epoch": 1,
        "start": 0,
        "pending": 8,
        "expected": None,
        "found": None,
    }

    tables = len(sqlite_store.list_tables())
    with pytest.raises(SpieltischError) as caught:
        sqlite_store.import_table(forged)
    assert caught.value.code == "verify.chain_open"
    assert len(sqlite_store.list_tables()) == tables

    path = tmp_path / "forged.json"
    path.write_text(json.dumps(forged), encoding="utf-8")
    result = CliRunner().invoke(app, ["--lang", "en", "verify", str(path)])
    assert result.exit_code == 1
    assert "✗ The chain of epochs does not close: epoch 1 is revealed" in result.stdout
    with TestClient(create_app(sqlite_store)) as client:
        answer = client.post("/api/tables/import?lang=de", json=forged)
        assert answer.status_code == 422
        assert answer.json()["error"]["code"] == "verify.chain_open"
        assert answer.json()["error"]["message"].startswith("Die Kette der Epochen schließt nicht")


def test_the_same_in_a_later_epoch(sqlite_store: EventStore) -> None:
    """Three epochs of format 2: the open one moved back to where the second starts."""
    forged = Played(sqlite_store, log_format=True).export()
    forged["fair"]["epochs"][2]["start"] = 6
    forged = _redecided(forged)
    verdict = verify_document(forged)
    error = verdict.error()
    assert error is not None and error.code == "verify.chain_open"
    assert error.params["epoch"] == 2


def test_a_first_seed_revealed_before_any_roll_verifies_after_the_next_reveal(
    sqlite_store: EventStore,
) -> None:
    """The one honest table of the forged shape in format 2, and its way out."""
    created = log_format_table(sqlite_store, "free-dice")
    gm = sqlite_store.authenticate(created.table, created.token)
    sqlite_store.reveal(created.table, gm)
    roll = {"kind": "roll", "expression": "1d6", "label": None}
    sqlite_store.execute(created.table, gm, roll)
    error = verify_document(sqlite_store.export(created.table, gm)).error()
    assert error is not None and error.code == "verify.chain_open"
    sqlite_store.reveal(created.table, gm)
    assert verify_document(sqlite_store.export(created.table, gm)).ok


def test_a_chain_made_again_is_found_by_the_link_the_table_announced(
    played: Played, tmp_path: Path
) -> None:
    """A forger who moves a boundary and makes every link after it again gets a file that
    holds together on its own (the moved record is merely 'not checkable yet'), but its last
    link is not the one the table announced: ``spieltisch verify --chain`` finds it."""
    announced = played.store.info(played.id).epochs[-1].chain
    assert announced is not None
    forged = played.export()
    epochs = forged["fair"]["epochs"]
    epochs[2]["start"] = 5
    relinked = link_epochs(
        forged["table"], [Epoch(e["start"], e["commitment"], e["seed"]) for e in epochs]
    )
    for epoch, linked in zip(epochs, relinked, strict=True):
        epoch["chain"] = linked.chain
    assert verify_document(forged).ok  # what the file alone can show
    path = tmp_path / "relinked.json"
    path.write_text(json.dumps(forged), encoding="utf-8")
    for lang in ("en", "de"):
        result = CliRunner().invoke(
            app, ["--lang", lang, "verify", str(path), "--chain", announced]
        )
        assert result.exit_code == 1
        missing = translate("verify.announced_missing", lang, chain=announced)
        assert f"✗ {missing}" in result.stdout
        # No "every check passed" after the replay's line.
        replayed = translate("verify.replay_ok", lang, records=8)
        assert result.stdout.splitlines()[-1] == f"✓ {replayed}"
    report = json.loads(
        CliRunner().invoke(app, ["verify", str(path), "--json", "--chain", announced]).stdout
    )
    assert report["announced"] == {"chain": announced, "epoch": None}
    # The epochs before the moved boundary are as announced; the honest file holds every link.
    second = played.store.info(played.id).epochs[1].chain
    assert second is not None
    ok = CliRunner().invoke(app, ["--lang", "en", "verify", str(path), "--chain", second])
    assert ok.exit_code == 0 and "is the link of epoch 2" in ok.stdout
    honest = tmp_path / "honest.json"
    honest.write_text(json.dumps(played.export()), encoding="utf-8")
    result = CliRunner().invoke(app, ["verify", str(honest), "--chain", announced.upper()])
    assert result.exit_code == 0, result.stdout
