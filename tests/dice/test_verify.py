"""Verifying the fair dice of a table export: intact logs pass, every kind of tampering shows."""

from __future__ import annotations

import copy
import hashlib
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spieltisch.dice.fair import FairDice, export_fair
from spieltisch.dice.verify import (
    EXPORT_FORMAT,
    LOG_FORMAT,
    MismatchKind,
    VerifyError,
    parse_export,
    verify_export,
)

SEED = hashlib.sha256(b"verify tests").digest()


def make_export(dice: FairDice, rolls: list[list[int]], *, revealed: bool = True) -> dict[str, Any]:
    """An export whose record ``k`` (seq k + 1) rolled dice with the sides in ``rolls[k]``."""
    records: list[dict[str, Any]] = []
    index = 0
    for number, sides_list in enumerate(rolls):
        draws = []
        for sides in sides_list:
            draws.append({"index": index, "sides": sides, "value": dice.value(index, sides)})
            index += 1
        records.append(
            {
                "seq": number + 1,
                "actor": "p1",
                "command": {"kind": "roll", "expression": f"{len(sides_list)}d6"},
                "events": [],
                "draws": draws,
                "hidden": False,
                "undoes": None,
                "claims": None,
            }
        )
    return {
        "format": "spieltisch-table/1",
        "table": dice.table,
        "system": "free-dice",
        "options": {},
        "language": "de",
        "fair": export_fair(dice, revealed),
        "records": records,
    }


def dice_with_seeds() -> FairDice:
    return FairDice(SEED, "tisch-7").with_player_seed(4, "Schnurrhaar")


ROLLS = [[6, 6, 6], [], [20], [10, 10, 100, 4], [6, 8]]


def test_an_untouched_log_checks_out() -> None:
    verdict = verify_export(make_export(dice_with_seeds(), ROLLS))
    assert verdict.ok
    assert verdict.commitment_ok
    assert verdict.draws == sum(len(r) for r in ROLLS)
    assert verdict.mismatch is None
    assert verdict.mismatches == 0
    assert verdict.to_json()["ok"] is True
    assert verdict.to_json()["mismatch"] is None


def test_an_empty_log_checks_out_with_zero_draws() -> None:
    verdict = verify_export(make_export(dice_with_seeds(), []))
    assert verdict.ok
    assert verdict.draws == 0


def test_a_single_altered_face_is_found_with_all_its_values() -> None:
    data = make_export(dice_with_seeds(), ROLLS)
    draw = data["records"][3]["draws"][2]  # the d100, draw index 6
    true_value = draw["value"]
    draw["value"] = true_value % 100 + 1
    verdict = verify_export(data)
    assert not verdict.ok
    assert verdict.commitment_ok
    assert verdict.mismatches == 1
    assert verdict.mismatch is not None
    assert verdict.mismatch.to_json() == {
        "kind": "value",
        "seq": 4,
        "index": 6,
        "sides": 100,
        "expected": true_value,
        "logged": true_value % 100 + 1,
        "epoch": 1,
    }


def test_a_changed_number_of_sides_is_found() -> None:
    data = make_export(dice_with_seeds(), ROLLS)
    draw = data["records"][0]["draws"][1]
    dice = dice_with_seeds()
    # A die size for which the same logged value is not what the seed gives.
    sides = next(s for s in range(max(2, draw["value"]), 100) if dice.value(1, s) != draw["value"])
    draw["sides"] = sides
    verdict = verify_export(data)
    assert verdict.mismatch is not None
    assert (verdict.mismatch.index, verdict.mismatch.sides) == (1, sides)
    assert verdict.mismatch.expected == dice.value(1, sides)


def test_the_first_of_several_mismatches_is_reported() -> None:
    data = make_export(dice_with_seeds(), ROLLS)
    for record, position in ((4, 1), (0, 2)):
        draw = data["records"][record]["draws"][position]
        draw["value"] = draw["value"] % draw["sides"] + 1
    verdict = verify_export(data)
    assert verdict.mismatches == 2
    assert verdict.mismatch is not None
    assert (verdict.mismatch.seq, verdict.mismatch.index) == (1, 2)


def test_a_swapped_seed_breaks_the_commitment_and_the_draws() -> None:
    data = make_export(dice_with_seeds(), ROLLS)
    other = hashlib.sha256(b"another seed").digest()
    data["fair"]["seed"] = other.hex()
    verdict = verify_export(data)
    assert not verdict.ok
    assert not verdict.commitment_ok
    assert verdict.epochs[0].computed_commitment == hashlib.sha256(other).hexdigest()
    assert verdict.mismatch is not None
    assert verdict.mismatch.kind is MismatchKind.VALUE


def test_a_swapped_seed_with_a_matching_forged_commitment_still_fails_on_the_draws() -> None:
    data = make_export(dice_with_seeds(), ROLLS)
    forged = hashlib.sha256(b"forged").digest()
    data["fair"]["seed"] = forged.hex()
    data["fair"]["commitment"] = hashlib.sha256(forged).hexdigest()
    verdict = verify_export(data)
    assert verdict.commitment_ok
    assert not verdict.ok
    # 12 draws of mostly d6…d100 all agreeing by chance is far below 1e-9.
    assert verdict.mismatches >= 6


def test_a_bad_commitment_is_reported_even_when_every_draw_matches() -> None:
    data = make_export(dice_with_seeds(), ROLLS)
    data["fair"]["commitment"] = "0" * 64
    verdict = verify_export(data)
    assert not verdict.ok
    assert not verdict.commitment_ok
    assert verdict.mismatch is None
    assert verdict.to_json()["commitment_ok"] is False


def test_commitment_comparison_ignores_hex_case() -> None:
    data = make_export(dice_with_seeds(), ROLLS)
    data["fair"]["commitment"] = data["fair"]["commitment"].upper()
    data["fair"]["seed"] = data["fair"]["seed"].upper()
    assert verify_export(data).ok


def test_a_removed_record_shows_as_a_gap_in_the_draw_indexes() -> None:
    data = make_export(dice_with_seeds(), ROLLS)
    del data["records"][2]  # the d20, draw index 3
    verdict = verify_export(data)
    assert not verdict.ok
    assert verdict.mismatch is not None
    assert verdict.mismatch.kind is MismatchKind.INDEX
    assert (verdict.mismatch.seq, verdict.mismatch.expected, verdict.mismatch.logged) == (4, 3, 4)


def test_swapped_records_show_as_misnumbered_draws() -> None:
    data = make_export(dice_with_seeds(), ROLLS)
    data["records"][0], data["records"][3] = data["records"][3], data["records"][0]
    verdict = verify_export(data)
    assert verdict.mismatch is not None
    assert verdict.mismatch.kind is MismatchKind.INDEX
    assert (verdict.mismatch.expected, verdict.mismatch.logged) == (0, 4)


def test_a_dropped_player_seed_changes_the_draws_from_its_start() -> None:
    data = make_export(dice_with_seeds(), ROLLS)
    data["fair"]["player_seeds"] = []
    verdict = verify_export(data)
    assert verdict.commitment_ok
    assert verdict.mismatch is not None
    assert verdict.mismatch.index >= 4  # draws before the seed's start are unaffected


def test_not_revealed_yet_is_an_error_naming_the_table() -> None:
    data = make_export(dice_with_seeds(), ROLLS, revealed=False)
    with pytest.raises(VerifyError) as caught:
        verify_export(data)
    assert caught.value.code == "verify.not_revealed"
    assert caught.value.params["table"] == "tisch-7"
    assert isinstance(caught.value, ValueError)


def _broken(path: list[Any], value: Any) -> dict[str, Any]:
    data = make_export(dice_with_seeds(), ROLLS)
    target: Any = data
    for key in path[:-1]:
        target = target[key]
    if value is _DELETE:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return data


_DELETE = object()


@pytest.mark.parametrize(
    ("path", "value", "field"),
    [
        (["table"], 7, "table"),
        (["table"], _DELETE, "table"),
        (["fair"], "secret", "fair"),
        (["fair", "commitment"], None, "fair.commitment"),
        (["fair", "seed"], "not hex", "fair.seed"),
        (["fair", "seed"], 12, "fair.seed"),
        (["fair", "player_seeds"], "Mauz", "fair.player_seeds"),
        (["fair", "player_seeds", 0], {"start": -1, "seed": "x"}, "fair.player_seeds[0]"),
        (["records"], {"seq": 1}, "records"),
        (["records", 1], [1, 2], "records[1]"),
        (["records", 1, "seq"], "2", "records[1].seq"),
        (["records", 0, "draws"], "1d6", "records[0].draws"),
        (["records", 0, "draws", 1], 5, "records[0].draws[1]"),
        (["records", 0, "draws", 1, "value"], True, "records[0].draws[1].value"),
        (["records", 0, "draws", 1, "value"], 2.0, "records[0].draws[1].value"),
        (["records", 0, "draws", 1, "sides"], 0, "records[0].draws[1].sides"),
        (["records", 0, "draws", 1, "sides"], 2**65, "records[0].draws[1].sides"),
        (["records", 0, "draws", 1, "index"], None, "records[0].draws[1].index"),
    ],
)
def test_malformed_exports_name_the_field_and_value(
    path: list[Any], value: Any, field: str
) -> None:
    data = _broken(path, value)
    with pytest.raises(VerifyError) as caught:
        verify_export(data)
    assert caught.value.code == "verify.bad_format"
    assert caught.value.params["field"] == field
    assert caught.value.params["value"] == (None if value is _DELETE else value)


def test_another_format_is_refused_by_name() -> None:
    data = make_export(dice_with_seeds(), ROLLS)
    data["format"] = "spieltisch-table/4"
    with pytest.raises(VerifyError) as caught:
        verify_export(data)
    assert caught.value.code == "verify.wrong_format"
    assert caught.value.params == {"value": "spieltisch-table/4", "expected": EXPORT_FORMAT}


def test_parse_export_reads_text_and_bytes() -> None:
    data = make_export(dice_with_seeds(), ROLLS)
    text = json.dumps(data)
    assert parse_export(text) == data
    assert parse_export(text.encode()) == data
    assert parse_export(b"\xef\xbb\xbf" + text.encode()) == data  # a BOM is tolerated


@pytest.mark.parametrize(
    ("content", "code", "params"),
    [
        ('{"format": ', "verify.not_json", {"line": 1, "column": 12}),
        ("{\n  'x': 1}", "verify.not_json", {"line": 2, "column": 3}),
        (b"\xff\xfe{}", "verify.not_text", {"position": 0}),
        ("[1, 2]", "verify.bad_format", {"field": "$", "value": [1, 2]}),
        ("[" * 100_000, "json.too_deep", {"field": "$", "limit": 64}),
    ],
)
def test_parse_export_names_where_the_file_breaks(
    content: str | bytes, code: str, params: dict[str, Any]
) -> None:
    with pytest.raises(VerifyError) as caught:
        parse_export(content)
    assert caught.value.code == code
    assert caught.value.params == params


def test_verify_does_not_change_its_input() -> None:
    data = make_export(dice_with_seeds(), ROLLS)
    before = copy.deepcopy(data)
    verify_export(data)
    assert data == before


_side_lists = st.lists(st.lists(st.integers(min_value=1, max_value=1000), max_size=5), max_size=8)


@given(
    seed=st.binary(min_size=1, max_size=48),
    table=st.text(st.characters(codec="utf-8"), min_size=1, max_size=20),
    rolls=_side_lists,
    player=st.tuples(st.integers(min_value=0, max_value=30), st.text("abcxyzäö", min_size=1)),
)
def test_any_untouched_log_checks_out(
    seed: bytes, table: str, rolls: list[list[int]], player: tuple[int, str]
) -> None:
    dice = FairDice(seed, table).with_player_seed(*player)
    verdict = verify_export(make_export(dice, rolls))
    assert verdict.ok
    assert verdict.draws == sum(len(r) for r in rolls)


@given(rolls=_side_lists.filter(lambda r: any(s > 1 for sides in r for s in sides)), data=st.data())
def test_any_single_altered_value_is_the_first_mismatch(
    rolls: list[list[int]], data: st.DataObject
) -> None:
    export = make_export(FairDice(SEED, "prop"), rolls)
    spots = [
        (r, d)
        for r, record in enumerate(export["records"])
        for d, draw in enumerate(record["draws"])
        if draw["sides"] > 1
    ]
    r, d = data.draw(st.sampled_from(spots))
    draw = export["records"][r]["draws"][d]
    original = draw["value"]
    draw["value"] = data.draw(
        st.integers(min_value=1, max_value=draw["sides"]).filter(lambda v: v != original)
    )
    verdict = verify_export(export)
    assert verdict.mismatch is not None
    assert verdict.mismatches == 1
    assert (verdict.mismatch.seq, verdict.mismatch.index) == (r + 1, draw["index"])
    assert (verdict.mismatch.expected, verdict.mismatch.logged) == (original, draw["value"])


# -- epochs: a chain of seeds ----------------------------------------------------------------

SEEDS = [hashlib.sha256(f"epoch {n}".encode()).digest() for n in range(3)]


def epochs_export(
    starts: list[int], rolls: list[list[int]], *, revealed: int | None = None
) -> dict[str, Any]:
    """A ``/2`` export whose epoch ``n`` (seed ``SEEDS[n]``) begins at draw ``starts[n]``;
    the first ``revealed`` epochs carry their seed (all of them by default)."""
    revealed = len(starts) if revealed is None else revealed
    seeds = [{"start": 1, "seed": "Mauz"}]
    dice = [FairDice(seed, "kette").with_player_seed(1, "Mauz") for seed in SEEDS]
    records: list[dict[str, Any]] = []
    index = 0
    for number, sides_list in enumerate(rolls):
        draws = []
        for sides in sides_list:
            epoch = max(n for n, start in enumerate(starts) if start <= index)
            draws.append({"index": index, "sides": sides, "value": dice[epoch].value(index, sides)})
            index += 1
        records.append({"seq": number + 1, "draws": draws, "hidden": False, "command": {}})
    epochs = [
        {
            "start": start,
            "commitment": dice[n].commitment,
            "seed": dice[n].seed_hex if n < revealed else None,
        }
        for n, start in enumerate(starts)
    ]
    return {
        "format": LOG_FORMAT,
        "table": "kette",
        "fair": {"epochs": epochs, "player_seeds": seeds},
        "records": records,
    }


CHAIN_ROLLS = [[6, 6], [20], [10, 10], [], [6], [100, 8]]  # draws 0-1, 2, 3-4, -, 5, 6-7


def test_an_honest_chain_of_epochs_checks_out_epoch_by_epoch() -> None:
    verdict = verify_export(epochs_export([0, 3, 5], CHAIN_ROLLS))
    assert verdict.ok
    assert verdict.draws == 8
    assert verdict.pending == 0
    covered = [(e.number, e.start, e.end, e.draws, e.first_seq, e.last_seq) for e in verdict.epochs]
    assert covered == [(1, 0, 3, 3, 1, 2), (2, 3, 5, 2, 3, 3), (3, 5, None, 3, 5, 6)]
    assert [e.to_json()["status"] for e in verdict.epochs] == ["ok", "ok", "ok"]


def test_the_open_epoch_is_pending_and_the_others_are_checked() -> None:
    data = epochs_export([0, 3, 5], CHAIN_ROLLS, revealed=2)
    verdict = verify_export(data)
    assert verdict.ok
    assert (verdict.draws, verdict.pending, verdict.revealed) == (5, 3, 2)
    assert verdict.epochs[2].status.value == "pending"
    assert verdict.epochs[2].computed_commitment is None
    # A changed value in the pending epoch cannot be seen yet; in a revealed one it is.
    data["records"][5]["draws"][0]["value"] = 1
    assert verify_export(data).ok
    data["records"][2]["draws"][1]["value"] = data["records"][2]["draws"][1]["value"] % 10 + 1
    mismatch = verify_export(data).mismatch
    assert mismatch is not None and (mismatch.seq, mismatch.index, mismatch.epoch) == (3, 4, 2)


def test_nothing_revealed_is_refused_unless_asked_for_the_order_only() -> None:
    data = epochs_export([0], CHAIN_ROLLS, revealed=0)
    with pytest.raises(VerifyError) as caught:
        verify_export(data)
    assert caught.value.code == "verify.not_revealed"
    verdict = verify_export(data, require_revealed=False)
    assert (verdict.ok, verdict.draws, verdict.pending) == (True, 0, 8)


def test_swapped_seeds_of_two_epochs_break_both_commitments() -> None:
    data = epochs_export([0, 3, 5], CHAIN_ROLLS)
    epochs = data["fair"]["epochs"]
    epochs[0]["seed"], epochs[1]["seed"] = epochs[1]["seed"], epochs[0]["seed"]
    verdict = verify_export(data)
    assert not verdict.ok
    assert [e.status.value for e in verdict.epochs] == ["bad_commitment", "bad_commitment", "ok"]
    error = verdict.error()
    assert error is not None and error.code == "verify.commitment_mismatch"
    assert error.params["epoch"] == 1
    assert error.params["commitment"] == epochs[0]["commitment"]


def test_swapped_epochs_with_their_commitments_fail_on_the_draws() -> None:
    data = epochs_export([0, 3, 5], CHAIN_ROLLS)
    epochs = data["fair"]["epochs"]
    for key in ("seed", "commitment"):
        epochs[0][key], epochs[1][key] = epochs[1][key], epochs[0][key]
    verdict = verify_export(data)
    assert verdict.commitment_ok
    assert verdict.mismatch is not None
    assert (verdict.mismatch.seq, verdict.mismatch.index, verdict.mismatch.epoch) == (1, 0, 1)
    error = verdict.error()
    assert error is not None and error.code == "verify.mismatch_value"


def test_moving_an_epoch_boundary_fails_on_the_draws() -> None:
    data = epochs_export([0, 3, 5], CHAIN_ROLLS)
    data["fair"]["epochs"][1]["start"] = 2
    mismatch = verify_export(data).mismatch
    assert mismatch is not None and (mismatch.index, mismatch.epoch) == (2, 2)


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda e: e[0].update(start=1), "fair.epochs[0].start"),
        (lambda e: e[2].update(start=2), "fair.epochs[2].start"),
        (lambda e: e[1].update(seed=None), "fair.epochs[1].seed"),
        (lambda e: e[1].update(seed="zz"), "fair.epochs[1].seed"),
        (lambda e: e[1].update(commitment=5), "fair.epochs[1].commitment"),
        (lambda e: e.clear(), "fair.epochs"),
    ],
)
def test_a_malformed_chain_names_the_field(change: Any, field: str) -> None:
    data = epochs_export([0, 3, 5], CHAIN_ROLLS)
    change(data["fair"]["epochs"])
    with pytest.raises(VerifyError) as caught:
        verify_export(data)
    assert (caught.value.code, caught.value.params["field"]) == ("verify.bad_format", field)


def _withhold(data: dict[str, Any], position: int) -> None:
    """Make record ``position`` a hidden record of a player's export without its draws."""
    data["records"][position].update(command=None, hidden=True, draws=[], events=[])


def test_a_players_export_may_withhold_hidden_draws_of_the_pending_epoch_only() -> None:
    pending = epochs_export([0, 3, 5], CHAIN_ROLLS, revealed=2)
    _withhold(pending, 4)  # draw 5, in the pending third epoch
    verdict = verify_export(pending)
    assert verdict.ok
    assert (verdict.withheld, verdict.pending) == (1, 2)

    revealed = epochs_export([0, 3, 5], CHAIN_ROLLS, revealed=2)
    _withhold(revealed, 1)  # draw 2, in the revealed first epoch
    mismatch = verify_export(revealed).mismatch
    assert mismatch is not None
    assert (mismatch.kind, mismatch.seq, mismatch.expected, mismatch.logged) == (
        MismatchKind.INDEX,
        3,
        2,
        3,
    )


def test_a_gap_without_a_withheld_record_is_a_missing_draw_even_when_pending() -> None:
    data = epochs_export([0, 3, 5], CHAIN_ROLLS, revealed=2)
    del data["records"][4]["draws"][0]  # record 5 kept visible, its draw gone
    mismatch = verify_export(data).mismatch
    assert mismatch is not None and mismatch.kind is MismatchKind.INDEX
