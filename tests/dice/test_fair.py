"""Fair dice: the commit–reveal derivation, rejection sampling, uniformity, player seeds.

The reference derivation below is written from the published description (docs/fair-dice.md)
with ``hmac.digest`` and literal byte strings, independently of ``FairDice``.
"""

from __future__ import annotations

import hashlib
import hmac
import math
from collections import Counter
from itertools import count

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spieltisch.dice.fair import (
    MAX_SIDES,
    DiceSource,
    Epoch,
    FairDice,
    FairDiceError,
    PlayerSeed,
    RecordingSource,
    SeededSource,
    chain_link,
    export_fair,
    link_epochs,
    mac_message,
    stream_message,
)

SEED = bytes(range(32))


def reference(
    seed: bytes, table: str, index: int, sides: int, players: tuple[tuple[int, str], ...] = ()
) -> tuple[int, int]:
    """(value, accepted attempt) of draw ``index``, straight from the description."""
    mixed = b"\x1e".join(text.encode("utf-8") for start, text in players if start <= index)
    space = 2**64
    limit = space - space % sides
    for attempt in count():
        message = b"\x1f".join(
            [table.encode("utf-8"), str(index).encode(), str(attempt).encode(), mixed]
        )
        number = int.from_bytes(hmac.digest(seed, message, "sha256")[:8], "big")
        if number < limit:
            return number % sides + 1, attempt
    raise AssertionError("unreachable")


# -- the derivation ---------------------------------------------------------------------------


def test_message_layout_is_byte_exact() -> None:
    assert mac_message("t-1", 12, 3, "") == b"t-1\x1f12\x1f3\x1f"
    assert mac_message("Tisch", 0, 0, "a\x1eb") == b"Tisch\x1f0\x1f0\x1fa\x1eb"
    assert mac_message("Würfel", 1, 0, "ß") == "Würfel".encode() + b"\x1f1\x1f0\x1f\xc3\x9f"


@pytest.mark.parametrize("sides", [1, 2, 4, 6, 10, 20, 100, 3**30, 2**64])
def test_known_answers_match_the_reference(sides: int) -> None:
    dice = FairDice(SEED, "table-kat")
    for index in range(40):
        value, attempt = reference(SEED, "table-kat", index, sides)
        drawn = dice.draw(index, sides)
        assert (drawn.value, drawn.attempt) == (value, attempt)
        assert dice.value(index, sides) == value


def test_same_seed_table_index_give_the_same_value() -> None:
    first = FairDice(SEED, "t")
    second = FairDice(bytes(SEED), "t")
    assert [first.value(i, 20) for i in range(200)] == [second.value(i, 20) for i in range(200)]
    other_table = FairDice(SEED, "u")
    # 200 d20 draws of two tables agree everywhere only with chance 20**-200.
    assert [first.value(i, 20) for i in range(200)] != [
        other_table.value(i, 20) for i in range(200)
    ]


def test_the_largest_die_uses_the_whole_64_bits() -> None:
    dice = FairDice(SEED, "t")
    for index in range(20):
        mac = hmac.digest(SEED, mac_message("t", index, 0, ""), "sha256")
        assert dice.value(index, MAX_SIDES) == int.from_bytes(mac[:8], "big") + 1
        assert dice.draw(index, MAX_SIDES).attempt == 0


def test_a_one_sided_die_is_always_one() -> None:
    dice = FairDice(SEED, "t")
    assert {dice.value(i, 1) for i in range(50)} == {1}


def test_rejection_sampling_discards_the_band_above_the_last_full_multiple() -> None:
    # For sides = 2**63 + 1 only numbers below 2**63 + 1 are usable: about half are rejected.
    sides = 2**63 + 1
    dice = FairDice(SEED, "reject")
    draws = [dice.draw(index, sides) for index in range(400)]
    rejected = [d for d in draws if d.attempt > 0]
    assert 120 < len(rejected) < 280
    assert max(d.attempt for d in draws) >= 3
    for drawn in rejected:
        first = hmac.digest(SEED, mac_message("reject", drawn.index, 0, ""), "sha256")
        assert int.from_bytes(first[:8], "big") >= sides  # attempt 0 really was unusable
        accepted = hmac.digest(
            SEED, mac_message("reject", drawn.index, drawn.attempt, ""), "sha256"
        )
        number = int.from_bytes(accepted[:8], "big")
        assert number < sides
        assert drawn.value == number % sides + 1
        assert 1 <= drawn.value <= sides
    for drawn in draws:
        assert (drawn.value, drawn.attempt) == reference(SEED, "reject", drawn.index, sides)


def test_source_at_rolls_consecutive_draws() -> None:
    dice = FairDice(SEED, "t")
    source = dice.source_at(7)
    assert isinstance(source, DiceSource)
    rolled = [source.roll(sides) for sides in (6, 6, 20, 4, 100)]
    assert rolled == [dice.value(7 + k, s) for k, s in enumerate((6, 6, 20, 4, 100))]


def test_recording_source_numbers_draws_from_its_start() -> None:
    dice = FairDice(SEED, "t")
    recorder = RecordingSource(dice.source_at(10), start=10)
    values = [recorder.roll(8) for _ in range(3)]
    assert [(d.index, d.sides, d.value) for d in recorder.draws] == [
        (10 + k, 8, v) for k, v in enumerate(values)
    ]
    assert values == [dice.value(10 + k, 8) for k in range(3)]


def test_seeded_source_is_reproducible() -> None:
    assert [SeededSource(5).roll(6) for _ in range(3)] == [
        SeededSource(5).roll(6) for _ in range(3)
    ]
    first, second = SeededSource("x"), SeededSource("x")
    assert [first.roll(12) for _ in range(30)] == [second.roll(12) for _ in range(30)]


@pytest.mark.parametrize(
    ("index", "sides", "code"),
    [
        (0, 0, "fair.bad_sides"),
        (0, -6, "fair.bad_sides"),
        (0, MAX_SIDES + 1, "fair.bad_sides"),
        (0, True, "fair.bad_sides"),
        (-1, 6, "fair.bad_index"),
    ],
)
def test_bad_draw_requests_name_the_value(index: int, sides: int, code: str) -> None:
    with pytest.raises(FairDiceError) as caught:
        FairDice(SEED, "t").value(index, sides)
    assert caught.value.code == code
    assert caught.value.params["value"] in (index, sides)
    assert isinstance(caught.value, ValueError)


# -- commitment, reveal, hex helpers ----------------------------------------------------------


def test_commitment_is_the_sha256_of_the_seed() -> None:
    dice = FairDice.new("t")
    assert len(dice.server_seed) == 32
    assert dice.commitment == hashlib.sha256(dice.server_seed).hexdigest()
    assert FairDice.new("t").server_seed != dice.server_seed


def test_hex_round_trip_and_export_block() -> None:
    dice = FairDice(SEED, "t").with_player_seed(3, "Mauz").with_player_seed(9, "Schnurr")
    assert dice.seed_hex == SEED.hex()
    again = FairDice.from_hex(dice.seed_hex.upper(), "t", export_fair(dice, True)["player_seeds"])
    assert again == dice
    hidden = export_fair(dice, revealed=False)
    assert hidden == {
        "commitment": hashlib.sha256(SEED).hexdigest(),
        "seed": None,
        "player_seeds": [{"start": 3, "seed": "Mauz"}, {"start": 9, "seed": "Schnurr"}],
    }
    assert export_fair(dice, revealed=True)["seed"] == SEED.hex()


@pytest.mark.parametrize("bad", ["", "abc", "zz", "0x00", "ab cd", " ab", 17])
def test_from_hex_refuses_what_is_not_hex(bad: object) -> None:
    with pytest.raises(FairDiceError) as caught:
        FairDice.from_hex(bad, "t")  # type: ignore[arg-type]
    assert caught.value.code == "fair.bad_seed"
    assert caught.value.params == {"value": bad}


@pytest.mark.parametrize(
    "bad", [{"start": -1, "seed": "x"}, {"start": "0", "seed": "x"}, {"start": 0}, ["x"]]
)
def test_player_seed_json_is_checked(bad: object) -> None:
    with pytest.raises(FairDiceError) as caught:
        PlayerSeed.parse(bad)  # type: ignore[arg-type]
    assert caught.value.code == "fair.bad_player_seed"


@pytest.mark.parametrize("bad", ["", "a\x1eb", "a\x1fb", "\ud800"])
def test_player_seeds_that_could_collide_are_refused(bad: str) -> None:
    dice = FairDice(SEED, "t")
    with pytest.raises(FairDiceError) as caught:
        dice.with_player_seed(0, bad)
    assert caught.value.code == "fair.bad_player_seed"
    assert caught.value.params == {"value": bad}
    with pytest.raises(FairDiceError) as caught:
        dice.with_player_seed(-2, "ok")
    assert caught.value.code == "fair.bad_index"


def test_a_player_seed_changes_draws_only_from_its_start() -> None:
    base = FairDice(SEED, "t")
    mixed = base.with_player_seed(25, "Glückskatze")
    # With 2**64 sides there is no rejection: values differ unless two MACs collide.
    for index in range(60):
        before, after = base.value(index, MAX_SIDES), mixed.value(index, MAX_SIDES)
        assert (before == after) == (index < 25)
        expected = reference(SEED, "t", index, 6, ((25, "Glückskatze"),))[0]
        assert mixed.value(index, 6) == expected


def test_player_seeds_combine_in_the_order_added() -> None:
    one = FairDice(SEED, "t").with_player_seed(0, "a").with_player_seed(0, "b")
    other = FairDice(SEED, "t").with_player_seed(0, "b").with_player_seed(0, "a")
    assert one.mixed_seeds(0) == "a\x1eb"
    assert one.value(0, MAX_SIDES) != other.value(0, MAX_SIDES)
    assert one.value(4, 10) == reference(SEED, "t", 4, 10, ((0, "a"), (0, "b")))[0]


# -- uniformity -------------------------------------------------------------------------------

# Critical values of the chi-square distribution at significance 0.001, from the standard
# table (e.g. NIST/SEMATECH e-Handbook, table 1.3.6.7.4); cross-checked below against an
# independent evaluation of the survival function.
CRITICAL_0_001 = {5: 20.515, 9: 27.877, 19: 43.820}


def chi_square_survival(x: float, df: int) -> float:
    """P(X > x) for X ~ chi-square with integer ``df`` (closed forms for even and odd df)."""
    half = x / 2
    if df % 2 == 0:
        term, total = 1.0, 0.0
        for i in range(df // 2):
            if i:
                term *= half / i
            total += term
        return math.exp(-half) * total
    root = math.sqrt(x)
    total = math.erfc(root / math.sqrt(2))
    term = root * math.sqrt(2 / math.pi) * math.exp(-half)
    for i in range(1, (df - 1) // 2 + 1):
        total += term
        term *= x / (2 * i + 1)
    return total


def chi_square(counts: Counter[int], sides: int, draws: int) -> float:
    expected = draws / sides
    return sum((counts[face] - expected) ** 2 / expected for face in range(1, sides + 1))


@pytest.mark.parametrize("df", sorted(CRITICAL_0_001))
def test_critical_values_agree_with_the_survival_function(df: int) -> None:
    assert chi_square_survival(CRITICAL_0_001[df], df) == pytest.approx(0.001, rel=2e-3)
    # df = 2: the survival function is exactly exp(-x/2); df = 1: P(|Z| > sqrt(x)).
    assert chi_square_survival(3.0, 2) == pytest.approx(math.exp(-1.5), rel=1e-12)
    assert chi_square_survival(1.96**2, 1) == pytest.approx(0.0499958, rel=1e-5)


@pytest.mark.parametrize("sides", [6, 10, 20])
def test_sixty_thousand_draws_are_uniform(sides: int) -> None:
    draws = 60_000
    dice = FairDice(b"chi-square fixed seed", f"uniform-d{sides}")
    counts = Counter(dice.value(index, sides) for index in range(draws))
    assert set(counts) == set(range(1, sides + 1))
    statistic = chi_square(counts, sides, draws)
    assert statistic < CRITICAL_0_001[sides - 1]
    assert chi_square_survival(statistic, sides - 1) > 0.001

    # The same check rejects a slightly loaded die: every 20th top face turned into a 1.
    loaded = Counter(counts)
    shifted = counts[sides] // 20
    loaded[sides] -= shifted
    loaded[1] += shifted
    assert chi_square(loaded, sides, draws) > CRITICAL_0_001[sides - 1]


# -- properties -------------------------------------------------------------------------------


@given(
    seed=st.binary(min_size=1, max_size=64),
    table=st.text(st.characters(codec="utf-8"), max_size=30),
    index=st.integers(min_value=0, max_value=10**15),
    sides=st.integers(min_value=1, max_value=1000),
)
def test_any_draw_is_within_the_die(seed: bytes, table: str, index: int, sides: int) -> None:
    value = FairDice(seed, table).value(index, sides)
    assert 1 <= value <= sides
    assert value == reference(seed, table, index, sides)[0]


def test_the_worked_example_of_format_3_in_the_docs() -> None:
    """docs/fair-dice.md, sections 3.1 and 4.1: a stream per record, and the chain's links."""
    dice = FairDice(bytes(range(32)), "tisch-42")
    assert stream_message("tisch-42", 1, 0, 0, "") == b"tisch-42\x1f1\x1f0\x1f0\x1f"
    assert [dice.stream_value(1, 0, 6), dice.stream_value(1, 1, 20)] == [2, 1]
    assert dice.stream_value(2, 0, 100) == 90
    mixed = dice.with_player_seed(2, "Schnurrhaar")
    assert [mixed.stream_value(1, 0, 6), mixed.stream_value(2, 0, 100)] == [2, 68]
    assert mixed.stream_value(2, 1, 20) == 19
    big = dice.stream_draw(2, 0, 2**63 + 1)
    assert (big.attempt, big.value) == (2, 2328462316188181511)
    assert dice.value(0, 6) == 6  # format 2's draw 0: another message, another number
    second = FairDice(bytes(32), "tisch-42")
    first_link = chain_link("tisch-42", 1, 1, dice.commitment, "")
    assert first_link == "ab272f25cd28382afb1046ea92446f8677016611bff0ed4ddac56b2ce3374987"
    linked = link_epochs(
        "tisch-42", [Epoch(1, dice.commitment), Epoch(3, second.commitment.upper())]
    )
    assert [e.chain for e in linked] == [
        first_link,
        "b05f104fa3f75b022283e2811c5e85317f9a2efce4c6a111caadb9f17dd1aa28",
    ]


def test_a_record_stream_rolls_from_draw_zero() -> None:
    dice = FairDice(bytes(range(32)), "tisch-42")
    source = dice.stream(2)
    assert [source.roll(100), source.roll(20)] == [
        dice.stream_value(2, 0, 100),
        dice.stream_value(2, 1, 20),
    ]
    with pytest.raises(FairDiceError):
        dice.stream_value(0, 0, 6)  # records are numbered from 1
