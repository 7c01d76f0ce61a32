"""The D&D 5e log names what each command asked in words, by the creatures' names, in English
and German: a cast, a dropped concentration, a fall, the ground height, a lair, the end of a
fight and a rest (never the bare command name). The outcome the dice decided stays first."""

from __future__ import annotations

from typing import Any

import pytest
from browser_helpers import ApiTable, new_context, watch_errors
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

CLERIC = {
    "ability": "wis",
    "level": 3,
    "save_dc": 13,
    "attack_bonus": 5,
    "slots": [4, 2],
    "spells": ["bless"],
}

CLEO = {
    "kind": "add_character",
    "id": "cleo",
    "name": "Cleo",
    "ac": 15,
    "hp": 40,
    "abilities": {"str": 14, "dex": 14, "con": 12, "wis": 16},
    "attacks": ["Mace: +4, 5 (1d6+2) bludgeoning"],
    "position": "b2",
    "spellcasting": CLERIC,
}

GOB = {
    "kind": "add_monster",
    "id": "gob",
    "sheet": {
        "id": "gob",
        "name": "Gob",
        "ac": 13,
        "hp": 30,
        "abilities": {"dex": 10},
        "attacks": ["Claw: +4, 5 (1d6+2) slashing"],
    },
    "position": "f5",
}

ENGLISH = {
    "ground": "Game master sets the ground height to 3 m on c3, c4.",
    "cast": "Game master: Cleo casts Bless.",
    "drop_concentration": "Game master: Cleo stops concentrating.",
    "fall": "Game master: Cleo falls 6 m.",
    "lair": "Game master: Gob fights in its lair.",
    "end_combat": "Game master ends the fight.",
    "rest": "Game master: a long rest for Cleo.",
}
GERMAN = {
    "ground": "Spielleitung setzt die Bodenhöhe auf 3 m auf c3, c4.",
    "cast": "Spielleitung: Cleo wirkt Bless.",
    "drop_concentration": "Spielleitung: Cleo beendet die Konzentration.",
    "fall": "Spielleitung: Cleo stürzt 6 m tief.",
    "lair": "Spielleitung: Gob kämpft in seinem Hort.",
    "end_combat": "Spielleitung beendet den Kampf.",
    "rest": "Spielleitung: eine lange Rast für Cleo.",
}


def entry(page: Page, records: list[dict[str, Any]]) -> Any:
    """The log entry of the last of ``records``."""
    return page.locator(f"#log-entry-{records[-1]['seq']}")


@pytest.mark.parametrize(("language", "said"), [("en", ENGLISH), ("de", GERMAN)])
def test_the_log_says_what_each_command_asked(
    browser: Any, server: Any, language: str, said: dict[str, str]
) -> None:
    context = new_context(browser)
    page = context.new_page()
    errors = watch_errors(page)
    try:
        table = ApiTable(server.url, page, "dnd5e", language=language)
        table.open()
        made = {"ground": table.send({"kind": "ground", "squares": ["c3", "c4"], "height_m": 3})}
        table.send(CLEO)
        table.send(GOB)
        made["lair"] = table.send({"kind": "lair", "creature": "gob"})
        table.send({"kind": "start_combat", "rolls": {"cleo": 20, "gob": 1}})
        bless = {"kind": "cast", "creature": "cleo", "spell": "bless", "targets": ["cleo"]}
        made["cast"] = table.send(bless)
        made["drop_concentration"] = table.send({"kind": "drop_concentration", "creature": "cleo"})
        made["fall"] = table.send({"kind": "fall", "creature": "cleo", "height_m": 6})
        made["end_combat"] = table.send({"kind": "end_combat"})
        made["rest"] = table.send({"kind": "rest", "length": "long", "creatures": ["cleo"]})
        for kind, text in said.items():
            expect(entry(page, made[kind])).to_contain_text(text)
        # The fall rolled its dice: the outcome stays first, the command after it.
        fall = entry(page, made["fall"])
        expect(fall.locator("p").first).to_have_class("log-text log-outcome")
        expect(fall.locator(".log-command")).to_have_text(said["fall"])
        assert errors == []
    finally:
        context.close()
