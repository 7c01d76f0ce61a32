"""Editing a sheet: GM or owner, every change in the log old → new, the points kept."""

from __future__ import annotations

from typing import Any

import pytest
from kw_helpers import goblin, hero, source_at

from spieltisch.engine.errors import RuleError
from spieltisch.engine.table import Table
from spieltisch.engine.visibility import Actor, Role
from spieltisch.systems.kreiswanderer import Kreiswanderer

GM = Actor(id="gm", role=Role.GM)
PAUL = Actor(id="paul", role=Role.PLAYER)
ERIN = Actor(id="erin", role=Role.PLAYER)


def _table() -> Table:
    table = Table(Kreiswanderer())
    table.execute(hero(), PAUL, source_at([]))
    table.execute(goblin(), GM, source_at([]))
    return table


def _sheet(table: Table, being: str) -> dict[str, Any]:
    (found,) = [b for b in table.view(table.viewer(GM))["beings"] if b["id"] == being]
    return dict(found["sheet"])


def test_the_owner_edits_and_the_log_says_what_changed() -> None:
    table = _table()
    sheet = _sheet(table, "ada")
    assert sheet["hp"] == 20 and sheet["resistances"] == {"PH": 1}
    # Ada took 5 damage; then her sheet gains hit points, a skill, a weapon and a marking.
    adjust = {"kind": "adjust_track", "being": "ada", "track": "tp", "value": 15}
    table.execute(adjust, GM, source_at([]))
    sheet["hp"] = 24
    sheet["attributes"] = {**sheet["attributes"], "agilitaet": 3}
    sheet["skills"] = {**sheet["skills"], "schwerter": {"depth": 2, "value": 5}}
    sheet["weapons"] = [*sheet["weapons"][:1], {"name": "Bogen", "skill": "schiessen"}]
    sheet["markings"] = [{"name": "defensive", "value": 2}]
    sheet["resistances"] = {"PH": 1, "EN": 2}
    (record,) = table.execute(
        {"kind": "edit_being", "being": "ada", "sheet": sheet}, PAUL, source_at([])
    )
    changes = {c["field"]: (c["old"], c["new"]) for c in record.events[0]["changes"]}
    assert changes == {
        "attributes.agilitaet": (2, 3),
        "skills.schwerter": ({"depth": 2, "value": 4}, {"depth": 2, "value": 5}),
        "hp": (20, 24),
        "resistances.EN": (None, 2),
        "markings": ([], [{"name": "defensive", "value": 2, "detail": None}]),
        "weapons.Fackel": (
            {
                "name": "Fackel",
                "skill": "schwerter",
                "attribute": "geschick",
                "damage_bonus": 0,
                "fuehrungsschwelle": 0,
                "durchdringend": 0,
                "damage_type": "BR",
                "markings": [{"name": "langzeiteffekt", "value": None, "detail": "feuer"}],
                "wielded": True,
            },
            None,
        ),
        "weapons.Bogen": (
            None,
            {
                "name": "Bogen",
                "skill": "schiessen",
                "attribute": "geschick",
                "damage_bonus": 0,
                "fuehrungsschwelle": 0,
                "durchdringend": 0,
                "damage_type": "PH",
                "markings": [],
                "wielded": True,
            },
        ),
    }
    ada = table.state.beings["ada"]
    # The current points stay; only the maximum changed.
    assert (ada.creature.tracks["tp"].current, ada.creature.tracks["tp"].maximum) == (15, 24)
    assert ada.resistance("EN") == 2 and ada.creature.tag_total("defensive") == 2
    assert [w.name for w in ada.weapons] == ["Schwert", "Bogen"]
    shown = _sheet(table, "ada")
    assert (shown["hp"], shown["resistances"], shown["skills"]["schwerter"]["value"]) == (
        24,
        {"PH": 1, "EN": 2},
        5,
    )
    # Folding the log again gives the same table.
    assert Table(Kreiswanderer(), {}, table.records).state == table.state


def test_a_lower_maximum_lowers_the_points_and_a_lost_haltung_ends() -> None:
    table = _table()
    table.execute(
        {"kind": "switch_haltung", "being": "ada", "haltung": "sturm", "active": True},
        PAUL,
        source_at([]),
    )
    sheet = _sheet(table, "ada")
    sheet["hp"], sheet["mp"], sheet["haltungen"] = 8, 0, {}
    table.execute({"kind": "edit_being", "being": "ada", "sheet": sheet}, GM, source_at([]))
    ada = table.state.beings["ada"]
    assert ada.creature.tracks["tp"].current == 8 and ada.creature.tracks["mp"].current == 0
    assert ada.active_haltungen == ()


def test_an_edit_that_changes_nothing_or_breaks_the_rules_is_refused() -> None:
    table = _table()
    sheet = _sheet(table, "ada")
    with pytest.raises(RuleError) as same:
        table.execute({"kind": "edit_being", "being": "ada", "sheet": sheet}, PAUL, source_at([]))
    assert same.value.code == "kreiswanderer.nothing_changed"
    assert same.value.params == {"value": "Ada"}
    del sheet["attributes"]["agilitaet"]
    with pytest.raises(RuleError) as missing:
        table.execute({"kind": "edit_being", "being": "ada", "sheet": sheet}, PAUL, source_at([]))
    assert missing.value.code == "kreiswanderer.bad_attributes"
    assert len(table.records) == 2


def test_only_the_gm_or_the_owner_may_edit() -> None:
    table = _table()
    sheet = {**_sheet(table, "gob"), "hp": 1}
    with pytest.raises(RuleError) as other:
        table.execute({"kind": "edit_being", "being": "gob", "sheet": sheet}, PAUL, source_at([]))
    assert other.value.code == "rule.forbidden"
    ada = {**_sheet(table, "ada"), "hp": 99}
    with pytest.raises(RuleError) as stranger:
        table.execute({"kind": "edit_being", "being": "ada", "sheet": ada}, ERIN, source_at([]))
    assert stranger.value.code == "rule.forbidden"
    table.execute({"kind": "edit_being", "being": "gob", "sheet": sheet}, GM, source_at([]))
    assert table.state.beings["gob"].creature.tracks["tp"].maximum == 1
    assert len(table.records) == 3
