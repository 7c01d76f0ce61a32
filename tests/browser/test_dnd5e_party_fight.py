"""A whole D&D 5e fight of a party of four in three browsers: the GM and two players, each
player running two of the four characters (Ben the wizard and the cleric, Pia the fighter and
the rogue), against SRD monsters — two knights and a veteran, an orc, an adult red dragon with
its legendary actions, and a secret ogre no player ever sees.

The table is set up through the API (each player's characters with that player's token);
then in one fight, all through the page: the wizard's fireball catches three monsters (each one's
save shown), the cleric's Bless is broken by damage the rules make certain, the dragon takes a
legendary action when a player's turn ends, the fighter grapples the orc (a contest whose
result is shown whichever way the dice fall), the rogue is frightened of the dragon until a
save and her route towards it is refused before she moves, and the orc dies of damage far
above its hit points. Nothing here waits on time or on a die."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from axe_playwright_python.sync_playwright import Axe
from browser_helpers import ApiTable, join, new_context, send_as, watch_errors
from playwright.sync_api import Page, expect


def character(id_: str, at: str, attack: str, hp: int, ac: int, **abilities: int) -> dict[str, Any]:
    """A character as the page's character form sends it (walk 9 m, Str 14 and Dex 12 unless
    given)."""
    return {
        "kind": "add_character",
        "id": id_,
        "name": id_.title(),
        "ac": ac,
        "hp": hp,
        "speeds": {"walk": 9},
        "abilities": {"str": 14, "dex": 12, **abilities},
        "attacks": [attack],
        "bonus_actions": [],
        "position": at,
    }


def caster(
    hero: dict[str, Any], ability: str, score: int, spells: list[str], **casting: Any
) -> dict[str, Any]:
    """``hero`` with spellcasting: its ability and score, level, save DC, attack, slots."""
    abilities = {**hero["abilities"], ability: score}
    spellcasting = {"ability": ability, "spells": spells, **casting}
    return {**hero, "abilities": abilities, "spellcasting": spellcasting}


# Ben brings the wizard and the cleric, Pia the fighter and the rogue (SRD-like level 5 and 3
# sheets); the cleric's Constitution is 10, her save +0. The character form is driven in the
# other D&D tests: here each player's characters are sent with that player's own token.
WIZ = caster(
    character("wiz", "a1", "Quarterstaff: +2, 3 (1d6) bludgeoning", hp=28, ac=12),
    "int", 18, ["fireball", "magic-missile", "fire-bolt"],
    level=5, save_dc=14, attack_bonus=7, slots=[4, 3, 2],
)  # fmt: skip
CLEO = caster(
    character("cleo", "b1", "Mace: +4, 5 (1d6+2) bludgeoning", hp=100, ac=18),
    "wis", 16, ["bless", "sacred-flame", "cure-wounds"],
    level=3, save_dc=13, attack_bonus=5, slots=[4, 2],
)  # fmt: skip
FALK = character("falk", "a12", "Longsword: +6, 8 (1d8+4) slashing", hp=44, ac=18, str=18)
RIKA = character("rika", "a16", "Shortsword: +6, 7 (1d6+4) piercing", hp=33, ac=15, str=10, dex=18)

MONSTERS = [
    ("knight", "knight", "f5"),
    ("veteran", "veteran", "g5"),
    ("knight-2", "knight", "e4"),
    ("orc", "orc", "b12"),
    ("adult-red-dragon", "adult-red-dragon", "m12"),
]
"""The GM's monsters from the bestiary: three guards where the fireball will fall, an orc
beside Falk, the dragon (huge: m12–o14); a secret ogre stands far away."""


def pass_legendary(gm: Page, players: tuple[Page, ...], ended: str, next_turn: str) -> None:
    """The GM lets the end of ``ended``'s turn pass without a legendary action."""
    expect(gm.locator("#dd-legendary")).to_contain_text(f"End of {ended}'s turn")
    gm.locator("#dd-leg-pass").click()
    for page in (gm, *players):
        expect(page.locator("#dd-round")).to_have_text(f"Round 1 · {next_turn}'s turn")


def no_secret(page: Page) -> None:
    """Neither the ogre's token, card, name nor id is anywhere on a player's page."""
    expect(page.locator("#dd-token-ogre")).to_have_count(0)
    expect(page.locator("#dd-f-ogre")).to_have_count(0)
    html = page.content()
    assert "Ogre" not in html
    assert "ogre" not in html


def test_a_party_of_four_against_a_dragon_and_its_guards(
    browser: Any, server: Any, screenshots: Path
) -> None:
    contexts = [new_context(browser) for _ in range(3)]
    gm, ben, pia = (c.new_page() for c in contexts)
    errors = watch_errors(gm) + watch_errors(ben) + watch_errors(pia)
    players = (ben, pia)
    try:
        table = ApiTable(server.url, gm, "dnd5e", title="Red Hall")
        table.open()
        join(ben, table.invite(), "Ben")
        join(pia, table.invite(), "Pia")
        expect(gm.locator("#dd-map")).to_be_visible()
        for page, hero in ((ben, WIZ), (ben, CLEO), (pia, FALK), (pia, RIKA)):
            assert send_as(page, table.id, hero)["status"] == 200
        for id_, monster, at in MONSTERS:
            table.send({"kind": "add_monster", "id": id_, "monster": monster, "position": at})
        ogre = {"kind": "add_monster", "id": "ogre", "monster": "ogre", "position": "q18"}
        table.send({**ogre, "secret": True}, hidden=True)
        expect(ben.locator("#dd-f-wiz-slots")).to_contain_text("level 3 2/2")
        expect(gm.locator("#dd-f-ogre")).to_contain_text("secret")
        for page in players:
            expect(page.locator("#dd-token-adult-red-dragon")).to_have_count(1)
            expect(page.locator("#dd-fighters")).to_contain_text("Rika")
            no_secret(page)

        # Initiative d20s rolled at the table (plus Dexterity: +1 for Wiz, Cleo and Falk, +4
        # for Rika); the secret ogre is not in the order.
        rolls = {"wiz": 20, "cleo": 18, "falk": 16, "rika": 10, "knight": 2, "veteran": 2}
        rolls |= {"knight-2": 1, "orc": 1, "adult-red-dragon": 1}
        table.send({"kind": "start_combat", "rolls": rolls})
        for page in (gm, *players):
            expect(page.locator("#dd-round")).to_have_text("Round 1 · Wiz's turn")
        expect(pia.locator("#dd-turn")).to_have_count(0)

        # The dragon's Frightful Presence: the GM frightens Rika of the dragon until a Wisdom
        # save DC 19 at the end of her turns (+0: a 19 or 20, 1/10), shown on her badge.
        gm.select_option("#dd-f-rika-cond", "frightened")
        gm.select_option("#dd-f-rika-cond-until", "save")
        gm.fill("#dd-f-rika-cond-n", "19")
        gm.select_option("#dd-f-rika-cond-ability", "wis")
        gm.select_option("#dd-f-rika-cond-source", "adult-red-dragon")
        gm.locator("#dd-f-rika-cond-add").click()
        for page in (gm, *players):
            expect(page.locator("#dd-f-rika-conditions [data-condition=frightened]")).to_have_text(
                "frightened (Wisdom save DC 19 at the end of each turn: 10.0 % (1/10))"
            )

        # Wiz: a fireball's 6 m sphere on f6 catches both knights and the veteran; each one's
        # chance to save (Dex +0 and +1 against DC 14) and average damage is shown first.
        ben.select_option("#dd-cast-spell", "fireball")
        ben.locator("#dd-cast-place").click()
        ben.locator("#dd-sq-f6").click(force=True)
        expect(ben.locator("#dd-cast-origin")).to_have_value("f6")
        expected = {
            "knight": "Knight: saves with 35.0 %, on average 23 damage (7/20)",
            "knight-2": "Knight: saves with 35.0 %, on average 23 damage (7/20)",
            "veteran": "Veteran: saves with 40.0 %, on average 22.3 damage (2/5)",
        }
        for who, text in expected.items():
            expect(ben.locator(f"#dd-cast-odds-{who}")).to_have_text(text)
        expect(ben.locator("#dd-cast-odds li")).to_have_count(3)
        ben.locator("#dd-cast-go").click()
        # 8d6 is at most 48 and a knight has 52 hit points, a veteran 58: all three stand.
        for page in (gm, *players):
            expect(page.locator("#dd-cast-result")).to_contain_text("Wiz cast Fireball:")
            for who in ("knight", "veteran", "knight-2"):
                expect(page.locator(f"#dd-cast-result-{who}")).to_have_attribute(
                    "data-outcome", re.compile(r"^(saved|failed)$")
                )
            expect(page.locator("#dd-cast-result li")).to_have_count(3)
            expect(page.locator("#log")).to_contain_text("Wiz casts Fireball with a level 3 slot")
        for who in ("knight", "veteran", "knight-2"):
            expect(gm.locator(f"#dd-token-{who}")).to_have_count(1)
        expect(ben.locator("#dd-f-wiz-slots")).to_contain_text("level 3 1/2")

        # Ben ends Wiz's turn: the GM is offered the dragon's legendary actions, the players
        # wait; the dragon uses Detect (one of its three), then the GM passes.
        ben.locator("#dd-end-turn").click()
        for page in players:
            expect(page.locator("#dd-legendary-wait")).to_contain_text("waiting for the GM")
            expect(page.locator("#dd-turn")).to_have_count(0)
        box = gm.locator("#dd-legendary")
        expect(box).to_contain_text("End of Wiz's turn: legendary actions")
        expect(box).to_contain_text("3 of 3 legendary actions left")
        expect(gm.locator("#dd-leg-adult-red-dragon-0")).to_contain_text("Detect")
        gm.locator("#dd-leg-adult-red-dragon-0-use").click()
        for page in (gm, *players):
            expect(page.locator("#log")).to_contain_text(
                "Adult Red Dragon takes the legendary action Detect (cost 1)."
            )
        expect(box).to_contain_text("2 of 3 legendary actions left")
        gm.locator("#dd-leg-pass").click()
        for page in (gm, *players):
            expect(page.locator("#dd-round")).to_have_text("Round 1 · Cleo's turn")

        # Cleo blesses Wiz and herself and concentrates; the GM sees the risk of 60
        # damage (DC 30 against +0: none) and deals it, so the save fails whatever the die.
        ben.select_option("#dd-cast-spell", "bless")
        expect(ben.locator("#dd-cast-about")).to_contain_text("Concentration")
        for who in ("wiz", "cleo"):
            ben.check(f"#dd-cast-target-{who}")
            # The odds for the targets so far are asked anew and drawn below the boxes; the
            # next box is clicked once they are there (while they load, the list is gone and
            # a page scrolled to its end moves up under the pointer).
            expect(ben.locator(f"#dd-cast-odds-{who}")).to_be_visible()
        ben.locator("#dd-cast-go").click()
        for page in (gm, *players):
            expect(page.locator("#dd-f-cleo-concentration")).to_contain_text(
                "Concentrating on Bless"
            )
        gm.fill("#dd-f-cleo-amount", "60")
        expect(gm.locator("#dd-f-cleo-risk")).to_have_text("after it keeps Bless with 0.0 % (0/1)")
        gm.locator("#dd-f-cleo-damage").click()
        for page in (gm, *players):
            held = page.locator("#dd-conc-result")
            expect(held).to_have_attribute("data-kept", "false")
            expect(held).to_contain_text("Cleo loses concentration on Bless")
            expect(page.locator("#dd-f-cleo-concentration")).to_have_count(0)
            expect(page.locator("#dd-f-cleo-hp")).to_have_text("HP 40/100")
        ben.locator("#dd-end-turn").click()
        pass_legendary(gm, players, "Cleo", "Falk")

        # Falk grapples the orc beside him: his Athletics +4 against the orc's better of
        # Athletics +3 and Acrobatics +1; he needs the higher total, 21/40, shown first.
        expect(ben.locator("#dd-contest-box")).to_have_count(0)
        pia.select_option("#dd-contest-action", "grapple")
        pia.select_option("#dd-contest-target", "orc")
        expect(pia.locator("#dd-contest-odds")).to_have_text("P(win) 52.5 % (21/40)")
        pia.locator("#dd-contest-go").click()
        # A tie changes nothing (the grapple fails), as a loss does.
        line = re.compile(
            r"Falk (wins|loses) the grapple against Orc: \d+ against \d+\."
            r"|Falk and Orc (tie) in the grapple at \d+: nothing changes\."
        )
        for page in (gm, *players):
            expect(page.locator("#log")).to_contain_text(line)
        found = line.search(pia.locator("#log").inner_text())
        assert found is not None
        held_fast = 1 if found.group(1) == "wins" else 0
        for page in (gm, *players):
            expect(page.locator("#dd-f-orc-conditions [data-condition=grappled]")).to_have_count(
                held_fast
            )
        pia.locator("#dd-end-turn").click()
        pass_legendary(gm, players, "Falk", "Rika")

        # Rika is frightened of the dragon: a step towards it is refused in the route preview
        # with the reason, before anything moves.
        pia.locator("#dd-token-rika").click()
        expect(pia.locator("#dd-route")).to_contain_text("Route of")
        pia.locator("#dd-sq-b16").click(force=True)
        expect(pia.locator("#dd-route-error")).to_have_text(
            "Rika is frightened and cannot move closer to the source of its fear."
        )
        pia.screenshot(path=str(screenshots / "dnd5e-party-frightened.png"), full_page=True)
        found_axe = Axe().run(pia).response["violations"]
        assert [v["id"] for v in found_axe if v["impact"] in ("serious", "critical")] == []
        pia.locator("#dd-route-back").click()
        expect(pia.locator("#dd-route-error")).to_have_count(0)
        expect(pia.locator("#dd-token-rika")).to_have_attribute("data-square", "a16")

        # The orc takes 100 damage (15 hit points): it dies, its token leaves the map.
        gm.fill("#dd-f-orc-amount", "100")
        gm.locator("#dd-f-orc-damage").click()
        for page in (gm, *players):
            expect(page.locator("#dd-f-orc-hp")).to_have_text("dead")
            expect(page.locator("#dd-token-orc")).to_have_count(0)
            expect(page.locator("#log")).to_contain_text("Orc takes 100")
        gm.screenshot(path=str(screenshots / "dnd5e-party-fight.png"), full_page=True)

        # The secret ogre stood on the GM's map all along, never on a player's page.
        expect(gm.locator("#dd-token-ogre")).to_have_count(1)
        for page in players:
            no_secret(page)
            page.reload()
            expect(page.locator("#dd-round")).to_have_text("Round 1 · Rika's turn")
            no_secret(page)
        assert errors == []
    finally:
        for context in contexts:
            context.close()
