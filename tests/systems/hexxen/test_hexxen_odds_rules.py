"""HeXXen rules against hand-computed cases, odds against icepool and enumeration."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import icepool
import pytest

from spieltisch.systems.hexxen import odds, rules
from spieltisch.systems.hexxen.sheet import HexxenOptions

OPTS = HexxenOptions()


def test_symbols_follow_the_face_table() -> None:
    # H: star on 1, blanks 2-4, success 5-6; the GM counts the star as a success.
    assert rules.hits([1, 2, 3, 4, 5, 6], gm=False) == (2, 1)
    assert rules.hits([1, 2, 3, 4, 5, 6], gm=True) == (3, 0)
    assert rules.janus_count([1, 2, 3, 4, 5, 6]) == 3
    assert rules.blood_drops([1, 2, 3, 4, 5, 6]) == 9
    assert rules.elixir_values([1, 2, 3, 4, 5, 6]) == [1, 2, 3, 4, 5, 3]


def test_netting_and_janus() -> None:
    assert rules.net_modifier(3, 4, OPTS) == -1  # the seed's example: +3 and −4
    assert rules.net_modifier(5, 0, OPTS) == 5
    assert rules.net_modifier(0, 9, OPTS) == -5  # at most five Janus dice
    # Each side is capped at 5 before netting: 5 Malusstufen + a lasting malus 3 against a
    # bonus 4 is 4 - 5 = -1, not 4 - 8 = -4.
    assert rules.net_modifier(4, 8, OPTS) == -1
    assert rules.net_modifier(9, 2, OPTS) == 3
    old = HexxenOptions(modifier_cap="net")
    assert rules.net_modifier(4, 8, old) == -4
    assert rules.net_modifier(9, 2, old) == 5
    three = HexxenOptions(max_janus=3)
    assert rules.net_modifier(4, 8, three) == 0
    assert rules.net_modifier(0, 4, three) == -3
    malus = rules.check_result([5, 2], [4, 6, 6], -3, gm=False, options=OPTS)
    assert (malus.successes, malus.janus, malus.total) == (1, 3, 0)  # never below 0
    bonus = rules.check_result([5, 1], [4, 1], 2, gm=False, options=OPTS)
    assert (bonus.successes, bonus.stars, bonus.total) == (1, 1, 2)


def test_star_house_rule_is_off_by_default() -> None:
    stars = [1, 1, 1, 5]
    assert rules.check_result(stars, [], 0, gm=False, options=OPTS).total == 1
    on = HexxenOptions(stars_count=True)
    assert rules.check_result(stars, [], 0, gm=False, options=on).total == 2


def test_derived_values_and_ap() -> None:
    attrs = {"KKR": 3, "ATH": 1, "GES": 2, "SIN": 4, "WIS": 1, "WIL": 2}
    assert rules.derived_lep(attrs, 1, OPTS) == 7 + 3 + 2 + 1
    assert rules.derived_ini(attrs, 0) == 6
    assert rules.round_ap(2, 1, OPTS) == 4
    assert rules.round_ap(2, 1, HexxenOptions(ap_minus_armour=True)) == 3
    assert rules.round_ap(9, 0, OPTS) == 0


def test_attack_damage_default() -> None:
    # The published rule: Schaden + net successes + Blut drops - armour, never below 0.
    assert rules.attack_damage(3, 0, 0, 0, OPTS) == 0  # no net success: a miss
    assert rules.attack_damage(3, 1, 0, 0, OPTS) == 4
    assert rules.attack_damage(3, 4, 2, 1, OPTS) == 3 + 4 + 1 - 2
    assert rules.attack_damage(1, 1, 5, 0, OPTS) == 0  # never below 0
    # The reading of tables made before, one less, stays an option.
    assert rules.attack_damage(3, 2, 1, 0, HexxenOptions(damage_offset=-1)) == 3


def _icepool_pool(dice: int, net: int, gm: bool) -> dict[int, Fraction]:
    die = icepool.Die([1, 0, 0, 0, 1, 1] if gm else [0, 0, 0, 0, 1, 1])
    base = dice @ die if dice else icepool.Die([0])
    janus = icepool.Die([0, 0, 0, 1, 1, 1])
    if net > 0:
        total = base + abs(net) @ janus
    elif net < 0:
        total = (base - abs(net) @ janus).map(lambda x: max(0, x))
    else:
        total = base
    denominator = total.denominator()
    return {int(k): Fraction(total.quantity(k), denominator) for k in total.outcomes()}


@pytest.mark.parametrize("gm", [False, True])
@pytest.mark.parametrize(("dice", "net"), [(0, 0), (1, 0), (4, 2), (6, -3), (10, -5), (3, 5)])
def test_pool_matches_icepool(dice: int, net: int, gm: bool) -> None:
    mine = {k: p for k, p in enumerate(odds.pool(dice, net, gm=gm)) if p}
    assert mine == {k: p for k, p in _icepool_pool(dice, net, gm).items() if p}


def _enumerate_contest(npc: int, npc_net: int, hunter: int, hunter_net: int) -> dict[int, Fraction]:
    # Every throw of all the dice is counted; the counts become fractions once.
    counts: Counter[int] = Counter()
    sides = range(1, 7)
    n_j, h_j = abs(npc_net), abs(hunter_net)
    total = 6 ** (npc + n_j + hunter + h_j)
    for faces in itertools.product(sides, repeat=npc + n_j + hunter + h_j):
        a = rules.check_result(faces[:npc], faces[npc : npc + n_j], npc_net, gm=True, options=OPTS)
        rest = faces[npc + n_j :]
        d = rules.check_result(rest[:hunter], rest[hunter:], hunter_net, gm=False, options=OPTS)
        counts[a.total - d.total] += 1
    return {margin: Fraction(n, total) for margin, n in counts.items()}


@pytest.mark.parametrize(
    ("npc", "nn", "hunter", "hn"), [(2, 0, 2, 0), (3, -1, 2, 1), (2, 2, 1, -2)]
)
def test_contest_matches_enumeration(npc: int, nn: int, hunter: int, hn: int) -> None:
    contest = odds.contest(odds.pool(npc, nn, gm=True), odds.pool(hunter, hn))
    expected = _enumerate_contest(npc, nn, hunter, hn)
    assert {k: p for k, p in contest.margins.items() if p} == expected
    assert contest.succeeds() == sum(p for m, p in expected.items() if m >= 1)
    assert sum(contest.ahead().values()) == contest.succeeds()


def test_star_rule_odds_match_enumeration() -> None:
    on = HexxenOptions(stars_count=True)
    expected: dict[int, Fraction] = {}
    for faces in itertools.product(range(1, 7), repeat=4):
        total = rules.check_result(faces, [], 0, gm=False, options=on).total
        expected[total] = expected.get(total, Fraction(0)) + Fraction(1, 6**4)
    assert dict(enumerate(odds.pool(4, 0, stars_count=True))) == expected
