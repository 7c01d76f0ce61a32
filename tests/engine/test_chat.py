"""Chat in the engine: say, whisper, inline rolls, the audience rule, folds and replay."""

from __future__ import annotations

from typing import Any

import pytest

from spieltisch.dice.fair import ReplayExhausted
from spieltisch.engine import chat
from spieltisch.engine.errors import EngineError, RuleError
from spieltisch.engine.replay import replay_log
from spieltisch.engine.table import Actor, Record, Role, Table, Viewer
from spieltisch.engine.visibility import sees
from spieltisch.systems.registry import REGISTRY, get_system

GM = Actor(id="gm", role=Role.GM)
ANNA = Actor(id="anna", role=Role.PLAYER)
BEN = Actor(id="ben", role=Role.PLAYER)
SUE = Actor(id="sue", role=Role.SPECTATOR)
PEOPLE = {"gm": Role.GM, "anna": Role.PLAYER, "ben": Role.PLAYER, "sue": Role.SPECTATOR}


class Fixed:
    """A dice source that yields fixed values in order, whatever the sides."""

    def __init__(self, values: list[int]) -> None:
        self.values = values

    def roll(self, sides: int) -> int:
        return self.values.pop(0)


def fixed(*values: int) -> Any:
    """``source_at`` for a table: at every index, :class:`Fixed` over ``values``."""
    return lambda _index: Fixed(list(values))


def free_dice() -> Table:
    return Table(get_system("free-dice"))


def test_say_is_seen_by_everyone_and_changes_no_state() -> None:
    table = free_dice()
    before = (table.state, table.shared_state)
    [record] = table.execute({"kind": "say", "text": "Hallo!"}, ANNA, fixed(), participants=PEOPLE)
    assert record.events == [{"kind": "said", "text": "Hallo!", "to": None, "roll": None}]
    assert record.audience is None and record.draws == []
    assert (table.state, table.shared_state) == before
    for viewer in (Viewer(Role.GM), Viewer(Role.PLAYER, "ben"), Viewer(Role.SPECTATOR, "sue")):
        assert table.visible(viewer) == [record]


def test_inline_roll_in_german_and_english_notation_is_drawn_and_logged() -> None:
    table = free_dice()
    german = table.execute({"kind": "say", "text": "/r 2W6+3 # Schaden"}, ANNA, fixed(4, 2))[0]
    english = table.execute({"kind": "say", "text": "/roll 1d20"}, BEN, fixed(17))[0]
    assert german.events[0]["roll"] == {
        "expression": "2d6 + 3",
        "result": 9,  # 4 + 2 + 3
        "dice": [
            {"die": "d6", "face": 4, "kept": True, "exploded": False},
            {"die": "d6", "face": 2, "kept": True, "exploded": False},
        ],
        "comment": "Schaden",
    }
    assert [(d.index, d.sides, d.value) for d in german.draws] == [(0, 6, 4), (1, 6, 2)]
    assert english.events[0]["roll"]["result"] == 17
    assert [(d.index, d.sides, d.value) for d in english.draws] == [(2, 20, 17)]
    assert table.next_draw == 3


def test_text_that_only_mentions_r_is_no_roll() -> None:
    table = free_dice()
    for text in ("/rest is good", "say /r 2W6", "/R2W6"):
        [record] = table.execute({"kind": "say", "text": text}, ANNA, fixed())
        assert record.events[0]["roll"] is None and record.draws == []


@pytest.mark.parametrize(
    ("text", "code"),
    [("/r", "chat.no_expression"), ("/r # nix", "chat.no_expression"), ("   ", "chat.empty")],
)
def test_bad_messages_are_refused_and_change_nothing(text: str, code: str) -> None:
    table = free_dice()
    with pytest.raises(RuleError) as refused:
        table.execute({"kind": "say", "text": text}, ANNA, fixed())
    assert refused.value.code == code
    assert table.records == []


def test_bad_notation_gets_the_dice_error() -> None:
    table = free_dice()
    with pytest.raises(RuleError) as refused:
        table.execute({"kind": "say", "text": "/r 3 W 6"}, ANNA, fixed())
    assert refused.value.code.startswith("dice.")
    assert table.records == []


def test_text_rule_and_length_limit() -> None:
    table = free_dice()
    with pytest.raises(RuleError) as refused:
        table.execute({"kind": "say", "text": "a\x00b"}, ANNA, fixed())
    assert refused.value.code == "rule.bad_command"
    assert refused.value.params["detail"].code == "text.control_character"
    with pytest.raises(RuleError) as long:
        table.execute({"kind": "say", "text": "x" * (chat.MAX_CHAT + 1)}, ANNA, fixed())
    assert long.value.params["detail"].code == "text.too_long"
    [ok] = table.execute({"kind": "say", "text": "line one\nline two"}, ANNA, fixed())
    assert ok.events[0]["text"] == "line one\nline two"


def test_whisper_reaches_sender_recipient_and_gm_only() -> None:
    table = free_dice()
    whisper = {"kind": "whisper", "to": "ben", "text": "psst"}
    [record] = table.execute(whisper, ANNA, fixed(), participants=PEOPLE)
    assert record.audience == ["anna", "ben"]
    assert record.events[0]["to"] == "ben"
    seen = {
        name: sees(viewer, record)
        for name, viewer in {
            "gm": Viewer(Role.GM, "gm"),
            "anna": Viewer(Role.PLAYER, "anna"),
            "ben": Viewer(Role.PLAYER, "ben"),
            "carl": Viewer(Role.PLAYER, "carl"),
            "sue": Viewer(Role.SPECTATOR, "sue"),
            "role only": Viewer(Role.PLAYER),
        }.items()
    }
    assert seen == {
        "gm": True,
        "anna": True,
        "ben": True,
        "carl": False,
        "sue": False,
        "role only": False,
    }
    assert sees(Role.PLAYER, record) is False and sees(Role.GM, record) is True


@pytest.mark.parametrize(
    ("actor", "to", "code"),
    [
        (ANNA, "nobody", "chat.unknown_recipient"),
        (ANNA, "anna", "chat.whisper_self"),
        (ANNA, "sue", "chat.whisper_spectator"),
        (GM, "gm", "chat.whisper_self"),
    ],
)
def test_whisper_refusals_name_the_value(actor: Actor, to: str, code: str) -> None:
    table = free_dice()
    with pytest.raises(RuleError) as refused:
        table.execute(
            {"kind": "whisper", "to": to, "text": "x"}, actor, fixed(), participants=PEOPLE
        )
    assert (refused.value.code, refused.value.params) == (code, {"to": to})
    assert table.records == []


def test_who_may_whisper_to_whom() -> None:
    table = free_dice()
    allowed = [(GM, "sue"), (GM, "anna"), (ANNA, "gm"), (ANNA, "ben"), (BEN, "anna")]
    for actor, to in allowed:
        table.execute(
            {"kind": "whisper", "to": to, "text": "hi"}, actor, fixed(), participants=PEOPLE
        )
    assert [r.audience for r in table.records] == [[a.id, to] for a, to in allowed]


def test_spectators_read_but_do_not_write_and_only_the_gm_writes_hidden() -> None:
    table = free_dice()
    for command in ({"kind": "say", "text": "hi"}, {"kind": "whisper", "to": "gm", "text": "x"}):
        with pytest.raises(RuleError) as refused:
            table.execute(command, SUE, fixed(), participants=PEOPLE)
        assert (refused.value.code, refused.value.params) == (
            "rule.forbidden",
            {"action": command["kind"]},
        )
    with pytest.raises(RuleError):
        table.execute({"kind": "say", "text": "x"}, ANNA, fixed(), hidden=True)
    [note] = table.execute({"kind": "say", "text": "note to self"}, GM, fixed(), hidden=True)
    assert table.visible(Viewer(Role.PLAYER, "anna")) == []
    assert table.visible(Viewer(Role.GM)) == [note]


def test_undo_of_a_whisper_is_seen_by_its_audience_only() -> None:
    table = free_dice()
    table.execute({"kind": "whisper", "to": "ben", "text": "x"}, ANNA, fixed(), participants=PEOPLE)
    undo = table.undo(1, GM)
    assert undo.audience == ["anna", "ben"]
    assert table.visible(Viewer(Role.PLAYER, "carl")) == []
    assert [r.seq for r in table.visible(Viewer(Role.PLAYER, "ben"))] == [1, 2]


def test_chat_between_game_records_keeps_both_folds_and_undo() -> None:
    table = free_dice()
    table.execute({"kind": "roll", "expression": "1d6"}, ANNA, fixed(3))
    table.execute({"kind": "say", "text": "/r 1W6"}, ANNA, fixed(5))
    table.execute({"kind": "roll", "expression": "1d6"}, GM, fixed(6), hidden=True)
    table.execute({"kind": "whisper", "to": "anna", "text": "ha"}, GM, fixed(), participants=PEOPLE)
    assert [r.result for r in table.state.rolls] == [3, 6]
    assert [r.result for r in table.shared_state.rolls] == [3]
    table.undo(2, GM)  # undoing a chat record takes nothing else away
    assert [r.result for r in table.state.rolls] == [3, 6]
    # Loading the log again folds the same states.
    again = Table(table.system, {}, table.records)
    assert (again.state, again.shared_state) == (table.state, table.shared_state)


def test_replay_decides_chat_again_and_finds_a_forged_roll_or_audience() -> None:
    table = free_dice()
    table.execute({"kind": "say", "text": "/r 2W6+3"}, ANNA, fixed(4, 2))
    table.execute({"kind": "whisper", "to": "ben", "text": "x"}, ANNA, fixed(), participants=PEOPLE)
    table.execute({"kind": "roll", "expression": "1d6"}, BEN, fixed(1))
    assert replay_log(table.system, {}, table.records).ok
    forged_roll = _edit(table.records, 0, lambda r: r["events"][0]["roll"].update(result=12))
    mismatch = replay_log(table.system, {}, forged_roll).mismatch
    assert mismatch is not None and (mismatch.seq, mismatch.field) == (1, "events.0.roll.result")
    forged_audience = _edit(table.records, 1, lambda r: r.update(audience=None))
    mismatch = replay_log(table.system, {}, forged_audience).mismatch
    assert mismatch is not None and (mismatch.seq, mismatch.field) == (2, "audience")
    forged_state = _edit(
        table.records,
        0,
        lambda r: r.update(events=[{"kind": "rolled", "expression": "1d6", "result": 6}]),
    )
    mismatch = replay_log(table.system, {}, forged_state).mismatch
    assert mismatch is not None and mismatch.seq == 1


def test_replay_takes_a_redacted_whisper_as_it_is() -> None:
    table = free_dice()
    table.execute({"kind": "whisper", "to": "ben", "text": "/r 1W6"}, ANNA, fixed(2))
    table.execute({"kind": "roll", "expression": "1d6"}, BEN, fixed(1))
    redacted = [
        table.records[0].model_copy(
            update={"command": None, "events": [], "audience": [], "actor": ""}
        ),
        table.records[1],
    ]
    assert replay_log(table.system, {}, redacted).ok


def test_no_system_uses_a_reserved_chat_kind() -> None:
    for system_id in REGISTRY:
        schema = get_system(system_id).commands.json_schema()
        assert not set(_kinds(schema)) & chat.CHAT_KINDS, system_id


def test_chat_draws_use_the_table_source_position() -> None:
    table = free_dice()
    table.execute({"kind": "roll", "expression": "2d6"}, ANNA, fixed(1, 1))
    starts: list[int] = []

    def source_at(index: int) -> Any:
        starts.append(index)
        return Fixed([6])

    table.execute({"kind": "say", "text": "/r W6"}, ANNA, source_at)
    assert starts == [2]
    assert table.records[-1].draws[0].index == 2


def test_only_a_string_kind_is_a_chat_kind() -> None:
    for data in ({"kind": {}}, {"kind": ["say"]}, {"kind": None}, ["say"], "say", None):
        assert not chat.is_chat_command(data)
    assert chat.is_chat_command({"kind": "whisper"})


def test_unknown_chat_fields_are_refused() -> None:
    table = free_dice()
    with pytest.raises(RuleError) as refused:
        table.execute({"kind": "say", "text": "x", "audience": ["anna"]}, ANNA, fixed())
    assert refused.value.code == "rule.bad_command"
    with pytest.raises(EngineError):
        Table(table.system, {}, [Record(seq=2, actor="x")])


def test_replay_source_from_record_draws() -> None:
    """Replaying a chat roll reads exactly the record's draws (no more)."""
    table = free_dice()
    [record] = table.execute({"kind": "say", "text": "/r 3W6"}, ANNA, fixed(1, 2, 3))
    fresh = free_dice()
    again = fresh.replay(record, Actor(id="anna", role=Role.GM))
    assert again == record
    short = record.model_copy(update={"draws": record.draws[:2]})
    with pytest.raises(ReplayExhausted) as exhausted:
        free_dice().replay(short, Actor(id="anna", role=Role.GM))
    assert isinstance(exhausted.value, ReplayExhausted)


def _edit(records: list[Record], index: int, change: Any) -> list[Record]:
    data = [r.model_dump(mode="json") for r in records]
    change(data[index])
    return [Record.model_validate(r) for r in data]


def _kinds(schema: Any) -> list[str]:
    found: list[str] = []
    if isinstance(schema, dict):
        kind = schema.get("properties", {}).get("kind", {})
        if "const" in kind:
            found.append(kind["const"])
        for value in schema.values():
            found.extend(_kinds(value))
    elif isinstance(schema, list):
        for value in schema:
            found.extend(_kinds(value))
    return found
