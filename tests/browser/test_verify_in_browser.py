"""The browser's dice check (``static/js/verify.js``, WebCrypto) against the Python reference."""

from __future__ import annotations

import json
from typing import Any

import pytest
from browser_helpers import new_context
from hypothesis import given, settings
from hypothesis import strategies as st

from spieltisch.dice.fair import Epoch, FairDice, link_epochs

pytestmark = pytest.mark.browser

SEED = bytes(range(32))


def _export(dice: FairDice, draws: list[tuple[int, int]], *, revealed: bool = True) -> Any:
    records = [
        {
            "seq": index + 1,
            "draws": [{"index": index, "sides": sides, "value": dice.value(index, sides)}],
        }
        for index, sides in draws
    ]
    return {
        "table": dice.table,
        "fair": {
            "commitment": dice.commitment,
            "seed": dice.server_seed.hex() if revealed else None,
            "player_seeds": [{"start": p.start, "seed": p.seed} for p in dice.player_seeds],
        },
        "records": records,
    }


@pytest.fixture(scope="module")
def page(browser: Any, server: Any) -> Any:
    context = new_context(browser)
    opened = context.new_page()
    opened.goto(server.url + "/")
    yield opened
    context.close()


def _verify(page: Any, data: Any) -> Any:
    return page.evaluate(
        "async data => (await import('/static/js/verify.js')).verifyExport(data)",
        json.loads(json.dumps(data)),
    )


def test_the_browser_agrees_with_the_reference(page: Any) -> None:
    dice = FairDice(SEED, "tisch-42").with_player_seed(3, "Schnurrhaar").with_player_seed(5, "ä")
    draws = [(i, sides) for i, sides in enumerate((6, 20, 100, 6, 2**63 + 1, 10, 4, 1, 12))]
    result = _verify(page, _export(dice, draws))
    assert (result["ok"], result["draws"], result["commitmentOk"]) == (True, 9, True)
    assert [(e["number"], e["status"], e["draws"]) for e in result["epochs"]] == [(1, "ok", 9)]


def test_a_changed_face_is_found_and_named(page: Any) -> None:
    dice = FairDice(SEED, "t")
    data = _export(dice, [(0, 6), (1, 6), (2, 20)])
    logged = data["records"][1]["draws"][0]
    expected = logged["value"]
    logged["value"] = expected % 6 + 1
    result = _verify(page, data)
    assert result["ok"] is False
    assert result["mismatch"] == {
        "seq": 2,
        "index": 1,
        "sides": 6,
        "expected": expected,
        "logged": logged["value"],
        "kind": "value",
        "epoch": 1,
    }


def test_a_wrong_seed_fails_the_commitment(page: Any) -> None:
    data = _export(FairDice(SEED, "t"), [(0, 6)])
    data["fair"]["seed"] = bytes(32).hex()
    assert _verify(page, data)["commitmentOk"] is False


@settings(max_examples=15, deadline=None)
@given(
    seed=st.binary(min_size=1, max_size=40),
    table=st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=12),
    player=st.text(
        st.characters(blacklist_categories=("Cs",), blacklist_characters="\x1e\x1f"), max_size=8
    ),
    sides=st.lists(st.integers(min_value=1, max_value=1000), min_size=1, max_size=6),
)
def test_any_seed_table_and_player_seed(
    page: Any, seed: bytes, table: str, player: str, sides: list[int]
) -> None:
    dice = FairDice(seed, table)
    if player:
        dice = dice.with_player_seed(1, player)
    result = _verify(page, _export(dice, list(enumerate(sides))))
    assert result["ok"] is True, result


def test_a_chain_of_epochs_is_checked_epoch_by_epoch(page: Any) -> None:
    first = FairDice(SEED, "kette").with_player_seed(1, "Mauz")
    second = FairDice(bytes(32), "kette").with_player_seed(1, "Mauz")
    third = FairDice(bytes([7]) * 32, "kette").with_player_seed(1, "Mauz")
    chain = [(first, 0), (second, 2), (third, 4)]

    def record(seq: int, index: int, sides: int) -> Any:
        dice = [d for d, start in chain if start <= index][-1]
        return {
            "seq": seq,
            "draws": [{"index": index, "sides": sides, "value": dice.value(index, sides)}],
        }

    data = {
        "format": "spieltisch-table/2",
        "table": "kette",
        "fair": {
            "epochs": [
                {"start": 0, "commitment": first.commitment, "seed": first.seed_hex},
                {"start": 2, "commitment": second.commitment, "seed": second.seed_hex},
                {"start": 4, "commitment": third.commitment, "seed": None},
            ],
            "player_seeds": [{"start": 1, "seed": "Mauz"}],
        },
        "records": [record(k + 1, k, 6) for k in range(6)],
    }
    result = _verify(page, data)
    assert (result["ok"], result["draws"], result["pending"]) == (True, 4, 2)
    assert [(e["status"], e["draws"], e["firstSeq"]) for e in result["epochs"]] == [
        ("ok", 2, 1),
        ("ok", 2, 3),
        ("pending", 2, 5),
    ]
    epochs = data["fair"]["epochs"]
    epochs[0]["seed"], epochs[1]["seed"] = epochs[1]["seed"], epochs[0]["seed"]
    swapped = _verify(page, data)
    assert swapped["commitmentOk"] is False
    assert [e["status"] for e in swapped["epochs"]] == [
        "bad_commitment",
        "bad_commitment",
        "pending",
    ]


def _streams_export(epochs: list[tuple[FairDice, int, bool]], rolls: list[list[int]]) -> Any:
    """A format-3 export: record ``k + 1`` rolls dice with the sides in ``rolls[k]`` from its
    own stream, with the seed of the epoch (dice, first record, revealed) it falls in."""
    records = []
    for seq, sides in enumerate(rolls, start=1):
        dice = [d for d, start, _ in epochs if start <= seq][-1]
        draws = [
            {"index": k, "sides": n, "value": dice.stream_value(seq, k, n)}
            for k, n in enumerate(sides)
        ]
        records.append({"seq": seq, "draws": draws})
    chain = link_epochs(
        epochs[0][0].table,
        [Epoch(start, d.commitment, d.seed_hex if shown else None) for d, start, shown in epochs],
    )
    return {
        "format": "spieltisch-table/3",
        "table": epochs[0][0].table,
        "fair": {
            "epochs": [epoch.to_json() for epoch in chain],
            "player_seeds": [{"start": 2, "seed": "Mauz"}],
        },
        "records": records,
    }


def test_streams_and_the_chain_of_format_3_agree_with_the_reference(page: Any) -> None:
    first = FairDice(SEED, "strom").with_player_seed(2, "Mauz")
    second = FairDice(bytes(32), "strom").with_player_seed(2, "Mauz")
    third = FairDice(bytes([7]) * 32, "strom").with_player_seed(2, "Mauz")
    epochs = [(first, 1, True), (second, 3, True), (third, 5, False)]
    data = _streams_export(epochs, [[6, 6], [20], [2**63 + 1, 4, 4], [], [6], [8, 8]])
    result = _verify(page, data)
    assert (result["ok"], result["draws"], result["pending"], result["chain"]) == (
        True,
        6,
        3,
        None,
    )
    assert [(e["status"], e["draws"], e["firstSeq"]) for e in result["epochs"]] == [
        ("ok", 3, 1),
        ("ok", 3, 3),
        ("pending", 3, 5),
    ]
    # A draw numbered across the log instead of in its record's stream is found.
    moved_draw = json.loads(json.dumps(data))
    moved_draw["records"][2]["draws"][1]["index"] = 4
    assert _verify(page, moved_draw)["mismatch"]["kind"] == "index"
    # A boundary moved back, and an epoch doubled, break the chain.
    moved = json.loads(json.dumps(data))
    moved["fair"]["epochs"][2]["start"] = 4
    broken = _verify(page, moved)
    assert broken["ok"] is False
    assert broken["chain"] == {
        "kind": "link",
        "epoch": 3,
        "start": 4,
        "computed": link_epochs(
            "strom",
            [Epoch(1, first.commitment), Epoch(3, second.commitment), Epoch(4, third.commitment)],
        )[-1].chain,
        "chain": data["fair"]["epochs"][2]["chain"],
    }
    doubled = json.loads(json.dumps(data))
    doubled["fair"]["epochs"].insert(2, doubled["fair"]["epochs"][1])
    assert _verify(page, doubled)["chain"] == {
        "kind": "tiling",
        "epoch": 3,
        "start": 3,
        "low": 4,
        "high": 7,
    }
