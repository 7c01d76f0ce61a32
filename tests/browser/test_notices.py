"""The page tells every person what to do: a decision addressed to a person (a HeXXen defence,
a D&D opportunity attack) reaches them as a notice in the page, with the view and the keyboard
moved to the choices, a count on the phone tab and in the title and an optional chime; whose
turn it is stands in a strip for everyone, and the person whose turn it is is told so.

The tables are set up through the API; the player joins through the invite link in a browser
of their own, and their pieces are made with their own token (so they are the player's).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from browser_helpers import ApiTable, join, new_context, post, watch_errors
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

PHONE = {"width": 375, "height": 812}
WIDE = {"width": 1280, "height": 900}

WOLF = "INI 8\nLeP 20\nHex 2 pro Jz\nHandlungen 2\n(N) Klauenhieb Angriff 4, Schaden 3"


class Party:
    """A table made through the API: the GM's page and a player's page, each in a browser of
    its own (the player joined by the invite link)."""

    def __init__(self, browser: Any, base: str, system: str, player_viewport: dict[str, int]):
        made = post(
            base + "/api/tables",
            {"system": system, "language": "en", "title": "Crypt", "options": {}},
        )
        self.base, self.id, self.gm_token = base, made["table"], made["token"]
        self.gm_context = new_context(browser, viewport=WIDE)
        self.player_context = new_context(browser, viewport=player_viewport)
        self.gm, self.player = self.gm_context.new_page(), self.player_context.new_page()
        self.errors = watch_errors(self.gm) + watch_errors(self.player)
        entry = {"token": self.gm_token, "participant": made["participant"], "role": "gm"}
        self.gm.goto(base + "/")
        self.gm.evaluate(
            "([id, entry]) => localStorage.setItem("
            "'spieltisch.tables', JSON.stringify({[id]: entry}))",
            [self.id, entry],
        )
        self.gm.goto(f"{base}/t/{self.id}")
        expect(self.gm.locator("#conn")).to_have_attribute("data-state", "live")
        join(self.player, f"{base}/t/{self.id}#invite={made['invites']['player']}", "Pia")
        expect(self.player.locator("#conn")).to_have_attribute("data-state", "live")
        self.player_token: str = self.player.evaluate(
            "id => JSON.parse(localStorage.getItem('spieltisch.tables'))[id].token", self.id
        )

    def send(self, command: dict[str, Any], token: str | None = None) -> Any:
        """Send a command as the GM (or with ``token``)."""
        return post(
            f"{self.base}/api/tables/{self.id}/commands",
            {"command": command, "hidden": False, "expected_seq": None},
            token or self.gm_token,
        )

    def close(self) -> None:
        self.gm_context.close()
        self.player_context.close()


@pytest.fixture
def party_factory(browser: Any, server: Any) -> Iterator[Any]:
    made: list[Party] = []

    def make(system: str, viewport: dict[str, int]) -> Party:
        party = Party(browser, server.url, system, viewport)
        made.append(party)
        return party

    yield make
    for party in made:
        party.close()
    for party in made:
        assert not party.errors, party.errors


def in_view(page: Page, selector: str) -> bool:
    """Whether the element's top stands inside the viewport."""
    box = page.evaluate(
        """sel => { const r = document.querySelector(sel).getBoundingClientRect();
            return [r.top, r.height, innerHeight]; }""",
        selector,
    )
    return bool(-1 <= box[0] < box[2] and box[1] > 0)


def hexxen_fight(party: Party) -> None:
    """Pia's hunter Ada against the GM's Werwolf, the wolf's turn (INI 8 before 6)."""
    party.send(
        {
            "kind": "create_hunter",
            "id": "ada",
            "name": "Ada",
            "attributes": {"KKR": 3, "ATH": 2, "GES": 3, "SIN": 3, "WIS": 1, "WIL": 2},
            "skills": {"Parieren": 3, "Nahkampf": 3},
        },
        party.player_token,
    )
    party.send(
        {
            "kind": "create_npc",
            "id": "wolf",
            "name": "Werwolf",
            "npc_kind": "anfuehrer",
            "level": 2,
            "statblock": WOLF,
        }
    )
    party.send({"kind": "start_fight"})
    party.send({"kind": "set_bound", "target": "wolf", "bound": True, "other": "ada"})


@pytest.mark.parametrize("viewport", [PHONE, WIDE], ids=["phone", "wide"])
def test_a_hexxen_defence_reaches_the_attacked_player(
    party_factory: Any, viewport: dict[str, int]
) -> None:
    party = party_factory("hexxen", viewport)
    hexxen_fight(party)
    gm, player = party.gm, party.player
    # Whose turn it is, for everyone at a glance; the GM plays the wolf.
    expect(player.locator("#turn-strip")).to_have_text("Turn: Werwolf")
    expect(gm.locator("#turn-strip")).to_have_text("Turn: you (Werwolf)")
    expect(gm.locator("#notice-turn")).to_contain_text("Your turn (Werwolf).")
    expect(player.locator("#notice-turn")).to_have_count(0)
    # The chime is off by default; Pia turns it on. She reads the log (on a phone: its tab).
    chime = player.locator("#chime-toggle")
    expect(chime).not_to_be_checked()
    chime.check()
    if viewport is PHONE:
        player.locator("#tab-side").click()
        expect(player.locator("#region-scene")).to_be_hidden()
    else:
        player.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    expect(player.locator("#notices")).to_be_hidden()
    assert not player.title().startswith("(")

    party.send({"kind": "declare_attack", "npc": "wolf", "attack": "Klauenhieb", "target": "ada"})
    notice = player.locator("#notice-hx-defend-ada")
    expect(notice).to_contain_text("Your decision: Werwolf attacks Ada: Klauenhieb")
    expect(player).to_have_title("(1) Crypt · Spieltisch")
    # The choices are in view and hold the keyboard (nothing chosen by it).
    expect(player.locator("#hx-pending")).to_be_visible()
    expect(player.locator("#hx-pending")).to_be_focused()
    assert in_view(player, "#hx-pending")
    expect(chime).to_have_attribute("data-played", "1")
    if viewport is PHONE:
        expect(player.locator("#tab-scene")).to_have_attribute("aria-selected", "true")
        expect(player.locator("#tab-scene .tab-count")).to_contain_text("1")
    # The GM decides nothing here: no notice, no count.
    expect(gm.locator("#hx-pending-wait")).to_contain_text("Ada")
    expect(gm.locator("#notice-hx-defend-ada")).to_have_count(0)
    expect(gm).not_to_have_title("(2) Crypt · Spieltisch")

    # The notice's button brings the choices back after the person looked elsewhere.
    if viewport is PHONE:
        player.locator("#tab-table").click()
    else:
        player.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    player.locator("#notice-hx-defend-ada-go").click()
    expect(player.locator("#hx-pending")).to_be_focused()
    player.locator("#hx-defend-none").click()
    expect(player.locator("#hx-pending")).to_have_count(0)
    expect(player.locator("#notices")).to_be_hidden()
    expect(player).to_have_title("Crypt · Spieltisch")

    # Ada's turn: Pia is told, in the same ways; the GM now reads whose turn it is.
    party.send({"kind": "next_turn"})
    expect(player.locator("#notice-turn")).to_contain_text("Your turn (Ada).")
    expect(player.locator("#turn-strip")).to_have_text("Turn: you (Ada)")
    expect(player).to_have_title("(1) Crypt · Spieltisch")
    expect(chime).to_have_attribute("data-played", "2")
    expect(gm.locator("#turn-strip")).to_have_text("Turn: Ada")
    expect(gm.locator("#notice-turn")).to_have_count(0)
    # The turn's notice can be put away; the strip stays.
    player.locator("#notice-turn-dismiss").click()
    expect(player.locator("#notice-turn")).to_have_count(0)
    expect(player.locator("#turn-strip")).to_have_text("Turn: you (Ada)")


def test_a_dnd5e_opportunity_attack_reaches_the_gm_not_the_mover(party_factory: Any) -> None:
    party = party_factory("dnd5e", PHONE)
    party.send(
        {
            "kind": "add_character",
            "id": "ada",
            "name": "Ada",
            "ac": 10,
            "hp": 9,
            "speeds": {"walk": 9},
            "abilities": {"str": 10, "dex": 10},
            "attacks": ["Club: +4, 5 (1d6+2) bludgeoning"],
            "bonus_actions": [],
            "position": "b2",
        },
        party.player_token,
    )
    party.send({"kind": "add_monster", "id": "goblin", "monster": "goblin", "position": "c2"})
    party.send({"kind": "start_combat", "rolls": {"ada": 20, "goblin": 1}})
    gm, player = party.gm, party.player
    expect(player.locator("#notice-turn")).to_contain_text("Your turn (Ada).")
    expect(gm.locator("#turn-strip")).to_have_text("Turn: Ada")
    gm.evaluate("window.scrollTo(0, document.body.scrollHeight)")

    party.send(
        {"kind": "move", "creature": "ada", "steps": [{"to": "a2"}, {"to": "a1"}]},
        party.player_token,
    )
    expect(gm.locator("#notice-dd-react-goblin")).to_contain_text(
        "Your decision: Ada leaves the reach of Goblin"
    )
    expect(gm.locator("#dd-react-goblin")).to_be_focused()
    assert in_view(gm, "#dd-react-goblin")
    expect(gm).to_have_title("(1) Crypt · Spieltisch")
    # Pia waits and is not asked (her turn is still told).
    expect(player.locator("#dd-react-goblin-wait")).to_be_visible()
    expect(player.locator("#notice-dd-react-goblin")).to_have_count(0)
    gm.locator("#dd-react-goblin-pass").click()
    expect(gm.locator("#notices")).to_be_hidden()
    expect(gm).to_have_title("Crypt · Spieltisch")


def kreiswanderer_being(being_id: str, name: str, side: str) -> dict[str, Any]:
    attributes = dict.fromkeys(
        ["staerke", "konstitution", "agilitaet", "geschick", "intelligenz"], 3
    ) | dict.fromkeys(["wahrnehmung", "willenskraft", "charisma"], 2)
    return {
        "kind": "create_being",
        "id": being_id,
        "sheet": {
            "name": name,
            "side": side,
            "attributes": attributes,
            "skills": {"schwerter": {"depth": 2, "value": 4}},
            "hp": 30,
            "weapons": [{"name": "Schwert", "skill": "schwerter"}],
        },
    }


def test_every_game_with_turns_tells_the_gm_their_turn(server: Any, gm_page: Page) -> None:
    """Kreiswanderer, the free table and Kilkenny say whose turn it is; a piece no player holds
    is the GM's (HeXXen and D&D: the tests above)."""
    kw = ApiTable(server.url, gm_page, "kreiswanderer")
    kw.send(kreiswanderer_being("ada", "Ada", "party"))
    kw.send(kreiswanderer_being("gob", "Gob", "foes"))
    kw.send({"kind": "start_combat", "combatants": ["ada", "gob"]})
    kw.send({"kind": "assign_dice", "being": "ada", "dodge": 1})
    kw.send({"kind": "assign_dice", "being": "gob", "dodge": 1})
    name = {"ada": "Ada", "gob": "Gob"}[kw.state()["fight"]["current"]]
    kw.open()
    expect(gm_page.locator("#turn-strip")).to_have_text(f"Turn: you ({name})")
    expect(gm_page.locator("#notice-turn")).to_contain_text(f"Your turn ({name}).")
    expect(gm_page).to_have_title("(1) Test · Spieltisch")

    free = ApiTable(server.url, gm_page, "free-dice")
    free.send({"kind": "add_combatant", "id": "rat", "name": "Rat", "initiative": "10"})
    free.send({"kind": "roll_initiative"})
    free.send({"kind": "start_fight"})
    free.open()
    expect(gm_page.locator("#turn-strip")).to_have_text("Turn: you (Rat)")
    gm_page.locator("#notice-turn-go").click()
    expect(gm_page.locator("#fd-c-rat")).to_be_focused()

    cats = ApiTable(
        server.url,
        gm_page,
        "kilkenny",
        {"players": 2, "seats": [{"player": "human"}, {"player": "greedy"}]},
    )
    cats.open()
    # The AI's seat moves by itself; the seat nobody took is the GM's to play.
    expect(gm_page.locator("#notice-turn")).to_contain_text("Your turn (")
    expect(gm_page.locator("#turn-strip")).to_have_text(re.compile(r"^Turn: you \("))


def toast_box(page: Page) -> dict[str, float]:
    box = page.locator("#toast").bounding_box()
    assert box is not None
    return box


def overlaps(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


@pytest.mark.parametrize("viewport", [PHONE, WIDE], ids=["phone", "wide"])
def test_the_dice_notice_stays_out_of_the_way_and_closes(
    browser: Any, server: Any, viewport: dict[str, int]
) -> None:
    context = new_context(browser, viewport=viewport)
    page = context.new_page()
    errors = watch_errors(page)
    try:
        table = ApiTable(server.url, page, "free-dice")
        table.open()
        table.play({"kind": "roll", "expression": "3d6"})
        toast = page.locator("#toast")
        expect(toast).to_have_class("toast is-shown")
        page.wait_for_function("() => !document.getAnimations().length")
        box = toast_box(page)
        if viewport is WIDE:
            # Beside the game's controls, over the log's corner.
            scene = page.locator("#region-scene").bounding_box()
            assert scene is not None
            assert not overlaps(box, scene), (box, scene)
        else:
            # The whole width of a phone, at its bottom.
            assert box["x"] == 0 and box["width"] == viewport["width"], box
            assert box["y"] + box["height"] == pytest.approx(viewport["height"], abs=1)
        page.locator("#toast-close").click()
        expect(toast).not_to_have_class("toast is-shown")
        expect(toast).to_be_hidden()
        assert not errors, errors
    finally:
        context.close()


def test_the_dice_notice_never_stands_in_front_of_a_decision(party_factory: Any) -> None:
    party = party_factory("hexxen", PHONE)
    hexxen_fight(party)
    player = party.player
    # A roll before any decision: the notice shows.
    party.send({"kind": "say", "text": "/r 2d6"})
    expect(player.locator("#toast")).to_have_class("toast is-shown")
    party.send({"kind": "declare_attack", "npc": "wolf", "attack": "Klauenhieb", "target": "ada"})
    expect(player.locator("#hx-pending")).to_be_focused()
    # The decision put the notice away, and a roll while it waits stays in the log.
    expect(player.locator("#toast")).not_to_have_class("toast is-shown")
    records = party.send({"kind": "say", "text": "/r 1d20"})["records"]
    seq = records[0]["seq"]
    player.locator("#tab-side").click()
    expect(player.locator(f'#log > li[data-seq="{seq}"]')).to_be_visible()
    expect(player.locator("#toast")).not_to_have_class("toast is-shown")
    expect(player.locator("#toast-body")).not_to_contain_text("1d20")
