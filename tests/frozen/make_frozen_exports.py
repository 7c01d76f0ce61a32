"""ONE-OFF GENERATOR of the frozen exports in ``tests/frozen/exports/``. DO NOT RE-RUN IT.

The files it wrote are *frozen*: they are tables made by the code of the day they were made
(format ``spieltisch-table/2``, event shapes and rules of that day), and the suite replays
them forever (``tests/frozen/test_replay.py``): import, fold, views, undo, verify. They are
the safety net for every later change to rules, event shapes and the dice/export format.

When a frozen file stops loading, undoing or verifying, the *code* is wrong, not the file:
add an upcaster for the changed event shape (``systems/<system>/upcast.py``) or a documented
reading of the old event, so the old table reads again. Regenerating the files with today's
code would throw the safety net away. The script stays in the repository only to show how
the files came about (each a real session through the real store, the path the web and the
CLI use); to add a *new* frozen set later (say after a format bump), copy it, write files
under new names, and keep the old ones.

Run (once, on the day of freezing): ``python tests/frozen/make_frozen_exports.py OUT_DIR
[NAME ...]`` (``NAME``: keys of :data:`PLAYS`; all by default). It never overwrites a file.
"""

from __future__ import annotations

import json
import sys
import tempfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from spieltisch.engine.errors import RuleError
from spieltisch.store.events import EventStore
from spieltisch.store.types import Participant

Command = dict[str, Any]


class Session:
    """A real table in a real (SQLite) store: a GM, two players and a spectator."""

    def __init__(self, store: EventStore, system: str, options: dict[str, Any] | None = None):
        self.store = store
        self.system = system
        created = store.create_table(
            system, title=f"Frozen {system}", options=options or {}, name="Gerda GM"
        )
        self.table = created.table
        self.gm = Participant(created.participant, "Gerda GM", _gm_role())
        self.anna = store.join(self.table, created.invites["player"], "Anna").participant
        self.bert = store.join(self.table, created.invites["player"], "Bert").participant
        self.carl = store.join(self.table, created.invites["spectator"], "Carl").participant
        self.skipped: list[str] = []

    def who(self, name: str) -> Participant:
        return {"gm": self.gm, "anna": self.anna, "bert": self.bert}[name]

    @property
    def state(self) -> Any:
        return self.store.table(self.table).state

    def do(self, who: str, command: Command, *, hidden: bool = False) -> None:
        """A command that must be accepted."""
        self.store.execute(self.table, self.who(who), command, hidden=hidden)

    def maybe(self, who: str, command: Command, *, hidden: bool = False) -> bool:
        """A command the dice may have made impossible (then it is skipped)."""
        try:
            self.do(who, command, hidden=hidden)
        except RuleError as refused:
            self.skipped.append(f"{command.get('kind')}: {refused.code}")
            return False
        return True

    def first(self, who: str, *commands: Command, hidden: bool = False) -> Command | None:
        """The first of ``commands`` the rules accept now."""
        codes = []
        for command in commands:
            try:
                self.do(who, command, hidden=hidden)
            except RuleError as refused:
                codes.append(f"{command.get('kind')}: {refused.code}")
                continue
            return command
        self.skipped.append("first_of: " + ", ".join(codes))
        return None

    def undo_last(self) -> None:
        """The GM undoes the last record that is neither an undo nor undone."""
        table = self.store.table(self.table)
        undone = table.undone()
        for record in reversed(table.records):
            if record.undoes is None and record.seq not in undone:
                self.store.undo(self.table, self.gm, record.seq)
                return
        raise AssertionError("nothing to undo")

    def whisper(self, sender: str, to: str, text: str) -> None:
        self.do(sender, {"kind": "whisper", "to": self.who(to).id, "text": text})

    def say(self, who: str, text: str) -> None:
        self.do(who, {"kind": "say", "text": text})

    def player_seed(self, who: str, seed: str) -> None:
        self.store.add_player_seed(self.table, self.who(who), seed)

    def rotate(self) -> None:
        """Reveal the current seed epoch; the table rolls on with a fresh one."""
        self.store.reveal(self.table, self.gm)

    def finish(self) -> tuple[dict[str, Any], dict[str, Any]]:
        """Reveal the last epoch; the GM's export and Anna's (redacted) export."""
        self.rotate()
        return self.store.export(self.table, self.gm), self.store.export(self.table, self.anna)


def _gm_role() -> Any:
    from spieltisch.engine.visibility import Role

    return Role.GM


# -- Magical Kitties ------------------------------------------------------------------------


def _kitty(kitty_id: str, name: str, **more: Any) -> Command:
    return {
        "kind": "create_kitty",
        "id": kitty_id,
        "name": name,
        "attributes": {"cute": 3, "cunning": 2, "fierce": 1},
        "talents": ["Climbing"],
        "powers": [{"name": "Teleport", "features": ["Blink"]}],
        "flaw": "Lazy",
        **more,
    }


def _kitties_resolve(s: Session, who: str, kitty: str, *, hidden: bool = False) -> None:
    """After a check: maybe reroll a die, then accept a failure or choose the outcomes (a
    bonus by the player, a complication by the GM)."""
    s.maybe(who, {"kind": "reroll", "dice": [0]}, hidden=hidden)
    for _ in range(2):
        s.first(
            who,
            {"kind": "accept_failure"},
            {"kind": "choose_outcome", "entry": "super_bonus.free_treat", "kitty": kitty},
            {"kind": "choose_outcome", "entry": "bonus.second_goal"},
            hidden=hidden,
        )
        s.first(
            "gm",
            {"kind": "choose_outcome", "entry": "complication.aua"},
            {"kind": "choose_outcome", "entry": "complication.trouble"},
            hidden=hidden,
        )


def play_kitties(s: Session) -> None:
    human = {"name": "Jenny", "problems": [{"id": "lonely", "text": "No friends", "rank": 2}]}
    s.do("anna", _kitty("mia", "Mia", human=human))
    s.do(
        "bert",
        {
            **_kitty("tom", "Tom", talents=["Pouncing"], flaw="Greedy"),
            "attributes": {"cute": 1, "cunning": 2, "fierce": 3},
        },
    )
    s.do("gm", {"kind": "create_foe", "id": "rat", "name": "Rat King", "difficulty": 5})
    s.do(
        "gm",
        {"kind": "create_foe", "id": "ghost", "name": "Secret Ghost", "aua_limit": 4},
        hidden=True,
    )
    s.do("gm", {"kind": "add_problem", "id": "flood", "text": "The river floods", "rank": 3})
    s.do("gm", {"kind": "add_problem", "kitty": "tom", "id": "debt", "text": "Owes fish"})
    s.do("gm", {"kind": "edit_kitty", "kitty": "mia", "changes": {"xp": 5, "treats": 2}})
    s.do("gm", {"kind": "start_episode"})
    s.do("gm", {"kind": "start_scene"})
    s.player_seed("anna", "anna-kitties-seed")
    s.do("anna", {"kind": "check", "kitty": "mia", "attribute": "cute", "talent": "Climbing"})
    _kitties_resolve(s, "anna", "mia")
    s.do("bert", {"kind": "check", "kitty": "tom", "attribute": "fierce", "foe": "rat"})
    _kitties_resolve(s, "bert", "tom")
    s.whisper("gm", "anna", "Psst: the ghost is behind the door.")
    s.do("gm", {"kind": "check", "kitty": "tom", "attribute": "cunning"}, hidden=True)
    _kitties_resolve(s, "gm", "tom", hidden=True)
    s.rotate()
    s.do(
        "gm", {"kind": "check", "kitty": "mia", "attribute": "fierce", "foe": "ghost"}, hidden=True
    )
    _kitties_resolve(s, "gm", "mia", hidden=True)
    s.do("gm", {"kind": "give_aua", "kitty": "mia"})
    s.do("gm", {"kind": "give_aua", "foe": "rat", "count": 2})
    s.maybe("anna", {"kind": "avoid_injury", "kitty": "mia"})
    s.do("gm", {"kind": "award_treat", "kitty": "tom", "reason": "Brave"})
    s.maybe("bert", {"kind": "spend_treat", "kitty": "tom", "purpose": "story", "detail": "Luck"})
    s.do("anna", {"kind": "check", "kitty": "mia", "attribute": "cunning", "power": "Teleport"})
    _kitties_resolve(s, "anna", "mia")
    s.say("bert", "/r 2W6 # fish for everyone")
    s.do("gm", {"kind": "end_scene"})
    s.do("gm", {"kind": "give_aua", "kitty": "tom"})
    s.undo_last()
    s.do(
        "gm",
        {
            "kind": "end_episode",
            "saved_the_day": True,
            "fun": True,
            "lessons": ["mia"],
            "problems": [{"problem": "flood", "change": -1}],
        },
    )
    s.maybe("anna", {"kind": "level_up", "kitty": "mia", "list": "levels_2_4", "entry": "treats"})
    s.do("gm", {"kind": "edit_kitty", "kitty": "tom", "changes": {"name": "Tom the Brave"}})
    s.do("gm", {"kind": "start_episode", "reset_auas": True})


# -- Kilkenny -------------------------------------------------------------------------------


def play_kilkenny(s: Session) -> None:
    s.do("anna", {"kind": "sit", "seat": "S"})
    s.do("gm", {"kind": "sit", "seat": "N"})
    s.player_seed("anna", "anna-kilkenny")
    seats = {"S": "anna", "N": "gm"}
    undone = False
    for turn in range(16):
        table = s.store.table(s.table)
        view = table.view(table.viewer(s.gm.actor))
        if view.get("outcome"):
            break
        who = seats[view["turn"]]
        if view.get("roll") is None:
            s.do(who, {"kind": "roll"})
            table = s.store.table(s.table)
            view = table.view(table.viewer(s.gm.actor))
        moves = view.get("moves") or []
        if moves and seats.get(view["turn"]) == who:
            s.do(who, {"kind": "move", **moves[turn % len(moves)]})
        if turn == 3:
            s.whisper("anna", "gm", "/r 1W6 # am I lucky?")
        if turn == 6:
            s.rotate()
        if turn >= 8 and who == "gm" and not undone:
            s.undo_last()  # the GM's own move: his turn again, he moves anew
            undone = True
    s.do("gm", {"kind": "say", "text": "/r 1W6 # a note to self"}, hidden=True)
    table = s.store.table(s.table)
    if table.view(table.viewer(s.gm.actor))["turn"] == "N":
        s.maybe("gm", {"kind": "roll"}, hidden=True)


# -- free dice ------------------------------------------------------------------------------


def play_freedice(s: Session) -> None:
    s.do("anna", {"kind": "roll", "expression": "2d6+1", "label": "open"})
    s.do("gm", {"kind": "roll", "expression": "3d6!", "label": "secret"}, hidden=True)
    s.do("gm", {"kind": "set_map", "width": 10, "height": 8, "square_m": "2"})
    s.do("gm", {"kind": "paint", "squares": ["c3", "d3"], "terrain": "wall"})
    s.do("gm", {"kind": "paint", "squares": ["e4"], "terrain": "difficult"})
    s.do(
        "gm",
        {
            "kind": "add_combatant",
            "id": "rat",
            "name": "Rat",
            "initiative": "1d20+2",
            "at": "h6",
            "tracks": [{"name": "LeP", "maximum": 9}],
        },
    )
    s.do("gm", {"kind": "add_combatant", "id": "hero", "name": "Hero", "claimable": True})
    s.do(
        "gm",
        {
            "kind": "add_combatant",
            "id": "spy",
            "name": "Spy",
            "side": "shadows",
            "initiative": "15",
            "secret": True,
            "at": "j8",
            "tracks": [{"name": "LeP", "maximum": 9}],
        },
    )
    s.do(
        "anna",
        {
            "kind": "add_character",
            "id": "mia",
            "name": "Mia",
            "initiative": "30",
            "at": "a1",
            "tracks": [{"name": "LeP", "maximum": 30}],
        },
    )
    s.do("bert", {"kind": "claim", "combatant": "hero"})
    s.do("gm", {"kind": "roll_initiative", "combatants": ["rat", "mia", "hero"]})
    s.do("gm", {"kind": "roll_initiative", "combatants": ["spy"]}, hidden=True)
    s.do("gm", {"kind": "start_fight"})
    s.do("gm", {"kind": "apply_effect", "target": "mia", "name": "Segen"})
    s.do(
        "gm",
        {
            "kind": "apply_effect",
            "target": "rat",
            "name": "Fluch",
            "level": 2,
            "duration": {"until": "rounds", "rounds": 2},
        },
    )
    s.player_seed("bert", "bert-free")
    s.do("anna", {"kind": "move", "combatant": "mia", "to": "b2"})
    s.do("anna", {"kind": "change_track", "combatant": "mia", "track": "LeP", "amount": 3})
    s.do("gm", {"kind": "change_track", "combatant": "rat", "track": "LeP", "amount": 4})
    s.do("anna", {"kind": "apply_effect", "target": "mia", "name": "Mut"})
    s.do("anna", {"kind": "remove_effect", "target": "mia", "name": "Segen"})
    s.whisper("gm", "anna", "/r 1W20 # the spy watches you")
    s.whisper("bert", "gm", "I want to sneak away.")
    s.rotate()
    s.maybe("anna", {"kind": "end_turn", "combatant": "mia"})
    s.do("gm", {"kind": "next_turn"})
    s.maybe("bert", {"kind": "delay", "combatant": "hero"})
    s.do("gm", {"kind": "move", "combatant": "rat", "to": "g6", "free": True})
    s.do("gm", {"kind": "move", "combatant": "spy", "to": "i7", "free": True}, hidden=True)
    s.do(
        "gm", {"kind": "change_track", "combatant": "spy", "track": "LeP", "amount": 2}, hidden=True
    )
    s.do("gm", {"kind": "next_round"})
    s.do("anna", {"kind": "roll", "expression": "4d6kh3", "label": "attack"})
    s.do("gm", {"kind": "roll", "expression": "1d20", "label": "oops"})
    s.undo_last()
    s.do("gm", {"kind": "set_image", "image": "mapimage01"})
    s.do("gm", {"kind": "leave_fight", "combatant": "rat"})
    s.do("gm", {"kind": "remove_combatant", "combatant": "spy"}, hidden=True)
    s.say("anna", "/r 2W6+3 # Schaden")
    s.do("gm", {"kind": "end_fight"})


# -- HeXXen ---------------------------------------------------------------------------------

_WOLF_BLOCK = "\n".join(
    [
        "INI 7",
        "LeP 20",
        "Hex 2 pro Jz",
        "Handlungen 2",
        "(N) Klauenhieb Angriff 4, Schaden 3",
        "(F) Speichel Angriff 3, Schaden 1",
        "Terrorwelle (N|F: 3 gegen Geistesstärke, 1 Malusstufe pro Differenzerfolg [Furcht],"
        " 1 Hex pro Ziel (Gruppe))",
        "Widernatürlich",
        "Eigenschaften: Rudeltier",
    ]
)


def _hunter(hunter_id: str, name: str) -> Command:
    return {
        "kind": "create_hunter",
        "id": hunter_id,
        "name": name,
        "attributes": {"KKR": 3, "ATH": 2, "GES": 3, "SIN": 2, "WIS": 1, "WIL": 2},
        "skills": {"Parieren": 2, "Geistesstärke": 3, "Nahkampf": 3, "Ausweichen": 2},
        "armour": 1,
        "ideen": 2,
        "coups": 1,
        "esprit": 1,
    }


def play_hexxen(s: Session) -> None:
    s.do("anna", _hunter("ada", "Ada"))
    s.do("bert", _hunter("bo", "Bo"))
    s.do(
        "gm",
        {
            "kind": "create_npc",
            "id": "wolf",
            "name": "Werwolf",
            "npc_kind": "anfuehrer",
            "level": 2,
            "statblock": _WOLF_BLOCK,
        },
    )
    s.do(
        "gm",
        {
            "kind": "create_npc",
            "id": "lurker",
            "name": "Lauerer",
            "npc_kind": "bande",
            "statblock": "LeP 9\n(N) Biss Angriff 3, Schaden 2",
            "secret": True,
        },
    )
    s.do("gm", {"kind": "set_map", "width": 8, "height": 8})
    s.do("anna", {"kind": "place", "target": "ada", "to": "b2"})
    s.do("bert", {"kind": "place", "target": "bo", "to": "c2"})
    s.do("gm", {"kind": "place", "target": "wolf", "to": "d4"})
    s.do("gm", {"kind": "place", "target": "lurker", "to": "g7"}, hidden=True)
    s.do("anna", {"kind": "set_skill", "hunter": "ada", "skill": "Reiten", "value": 1})
    s.do("bert", {"kind": "edit_hunter", "hunter": "bo", "armour": 2})
    s.do("anna", {"kind": "change_resource", "hunter": "ada", "resource": "ideen", "delta": -1})
    s.player_seed("anna", "anna-hexxen")
    s.do("anna", {"kind": "hunter_check", "hunter": "ada", "skill": "Nahkampf", "bonus": 1})
    s.do("gm", {"kind": "hunter_check", "hunter": "bo", "skill": "Geistesstärke"}, hidden=True)
    s.do("anna", {"kind": "hunter_contest", "hunter": "ada", "skill": "Nahkampf", "npc": "wolf"})
    s.do("gm", {"kind": "start_fight"})
    s.do("gm", {"kind": "set_bound", "target": "wolf", "bound": True})
    s.do("gm", {"kind": "set_modifier", "target": "wolf", "bonus": 1})
    s.do(
        "gm",
        {
            "kind": "npc_attack",
            "npc": "wolf",
            "attack": "Klauenhieb",
            "target": "ada",
            "defense": "parry",
            "defense_skill": "Parieren",
        },
    )
    s.first(
        "gm",
        {"kind": "npc_power", "npc": "wolf", "power": "Terrorwelle", "targets": ["ada", "bo"]},
        {"kind": "npc_power", "npc": "wolf", "power": "Terrorwelle", "targets": ["ada"]},
    )
    s.do("gm", {"kind": "apply_effect", "target": "ada", "effect": "outer_damage", "level": 2})
    s.do("gm", {"kind": "apply_effect", "target": "bo", "effect": "paralysis"})
    s.do("gm", {"kind": "remove_effect", "target": "bo", "effect": "paralysis"})
    s.whisper("gm", "bert", "Bo smells something in the dark.")
    s.rotate()
    for _ in range(4):
        if s.state.encounter.current == "wolf":
            break
        s.do("gm", {"kind": "next_turn"})
    s.maybe("gm", {"kind": "declare_attack", "npc": "wolf", "attack": "Klauenhieb", "target": "bo"})
    s.first(
        "bert",
        {"kind": "defend", "hunter": "bo", "defense": "parry", "defense_skill": "Parieren"},
        {"kind": "defend", "hunter": "bo", "defense": "dodge", "defense_skill": "Ausweichen"},
        {"kind": "defend", "hunter": "bo"},
    )
    s.do(
        "gm",
        {"kind": "hunter_contest", "hunter": "bo", "skill": "Nahkampf", "npc": "lurker"},
        hidden=True,
    )
    s.do("gm", {"kind": "change_lep", "target": "lurker", "amount": -3}, hidden=True)
    s.do("gm", {"kind": "change_lep", "target": "wolf", "amount": -4})
    s.first("gm", {"kind": "next_turn"})
    s.maybe("anna", {"kind": "hunter_check", "hunter": "ada", "skill": "Nahkampf", "ap": 1})
    s.maybe("anna", {"kind": "next_turn"})
    s.maybe("bert", {"kind": "next_turn"})
    s.do("gm", {"kind": "set_bound", "target": "wolf", "bound": False})
    s.maybe(
        "gm",
        {
            "kind": "npc_attack",
            "npc": "wolf",
            "attack": "Speichel",
            "target": "bo",
            "defense": "dodge",
            "defense_skill": "Ausweichen",
        },
    )
    s.do("gm", {"kind": "change_lep", "target": "ada", "amount": 2})
    s.do("gm", {"kind": "place", "target": "wolf", "to": "e5"})
    s.undo_last()
    s.say("anna", "/r 3W6 # Hexxen!")
    s.do("gm", {"kind": "end_fight"})
    s.do("anna", {"kind": "set_bound", "target": "ada", "bound": True})


# -- Kreiswanderer --------------------------------------------------------------------------

_KW_ATTRS = {
    "staerke": 3,
    "konstitution": 3,
    "agilitaet": 2,
    "geschick": 3,
    "intelligenz": 2,
    "wahrnehmung": 2,
    "willenskraft": 2,
    "charisma": 1,
}


def _being(being_id: str, name: str, side: str = "party", **sheet: Any) -> Command:
    return {
        "kind": "create_being",
        "id": being_id,
        "sheet": {
            "name": name,
            "side": side,
            "attributes": dict(_KW_ATTRS),
            "skills": {
                "schwerter": {"depth": 2, "value": 4},
                "akrobatik": {"depth": 1, "value": 3},
                "schmieden": {"depth": 3, "value": 2},
                "klettern": {"depth": 1, "value": 0},
            },
            "hp": 20,
            "mp": 4,
            "resistances": {"PH": 1},
            "weapons": [
                {
                    "name": "Schwert",
                    "skill": "schwerter",
                    "attribute": "geschick",
                    "damage_bonus": 2,
                    "fuehrungsschwelle": 1,
                },
                {
                    "name": "Fackel",
                    "skill": "schwerter",
                    "damage_type": "BR",
                    "markings": [{"name": "langzeiteffekt", "detail": "feuer"}],
                },
            ],
            "sonderfertigkeiten": {"klingenfluss": {"bonus": 2, "skills": ["schwerter"]}},
            "begabungen": ["lichtfunke"],
            "haltungen": {"sturm": {"modifiers": {"schwerter": 2, "dodge": -2}}},
            **sheet,
        },
    }


def _kw_fight_round(s: Session, beings: list[str], foes: dict[str, str], hidden: bool) -> None:
    """Whoever has the turn attacks (or dodges), then ends the turn; a few turns."""
    for _ in range(6):
        fight = s.state.fight
        if fight is None:
            return
        current = fight.encounter.current
        target = foes.get(current)
        if target is not None:
            s.maybe(
                "gm",
                {"kind": "attack", "being": current, "target": target, "weapon": "Schwert"},
                hidden=hidden,
            ) or s.maybe("gm", {"kind": "dodge", "being": current}, hidden=hidden)
        s.maybe("gm", {"kind": "end_turn"}, hidden=hidden)


def play_kreiswanderer(s: Session) -> None:
    s.do("anna", _being("ada", "Ada"))
    s.do("bert", _being("bo", "Bo", begabungen=["funke"]))
    s.do("gm", _being("gob", "Goblin", "foes", hp=14, begabungen=[], haltungen={}))
    s.do("gm", {**_being("shade", "Schatten", "foes", hp=10), "secret": True})
    s.do("anna", {"kind": "check", "being": "ada", "attribute": "geschick", "skill": "schwerter"})
    s.do(
        "bert",
        {
            "kind": "check",
            "being": "bo",
            "attribute": "agilitaet",
            "skill": "schwerter",
            "sonderfertigkeit": "klingenfluss",
        },
    )
    s.maybe(
        "anna",
        {
            "kind": "combined_check",
            "being": "ada",
            "attribute": "geschick",
            "skills": ["schwerter", "akrobatik"],
        },
    )
    s.do(
        "anna",
        {
            "kind": "comparative",
            "being": "ada",
            "attribute": "geschick",
            "skill": "schwerter",
            "opponent": "gob",
            "opponent_attribute": "geschick",
            "opponent_skill": "schwerter",
        },
    )
    s.do(
        "bert",
        {
            "kind": "accumulate_start",
            "id": "blade",
            "being": "bo",
            "attribute": "geschick",
            "skill": "schmieden",
            "rolls": 3,
        },
    )
    s.maybe("bert", {"kind": "accumulate_roll", "id": "blade"})
    s.maybe("bert", {"kind": "accumulate_roll", "id": "blade"})
    s.do(
        "gm",
        {"kind": "check", "being": "shade", "attribute": "wahrnehmung", "skill": "klettern"},
        hidden=True,
    )
    s.player_seed("bert", "bert-kreis")
    s.maybe("anna", {"kind": "use_begabung", "being": "ada", "begabung": "lichtfunke"})
    s.maybe("bert", {"kind": "use_begabung", "being": "bo", "begabung": "funke"})
    s.do("anna", {"kind": "switch_haltung", "being": "ada", "haltung": "sturm", "active": True})
    s.whisper("gm", "anna", "Ein Schatten folgt euch.")
    # An open fight: Ada and Bo against the goblin.
    s.do("gm", {"kind": "start_combat", "combatants": ["ada", "bo", "gob"]})
    s.do("anna", {"kind": "assign_dice", "being": "ada", "dodge": 1})
    s.do("bert", {"kind": "assign_dice", "being": "bo", "dodge": 0})
    s.do("gm", {"kind": "assign_dice", "being": "gob", "dodge": 1})
    foes = {"ada": "gob", "bo": "gob", "gob": "ada"}
    fight = s.state.fight
    current = fight.encounter.current
    if current in ("ada", "bo"):
        s.maybe(
            "anna" if current == "ada" else "bert",
            {"kind": "attack", "being": current, "target": "gob", "weapon": "Fackel", "cost": 3},
        )
    _kw_fight_round(s, ["ada", "bo", "gob"], foes, hidden=False)
    ready = s.state.fight.ready if s.state.fight is not None else {}
    for being, actions in ready.items():
        for action in actions:
            s.maybe("gm", {"kind": "carry_out", "being": being, "action": action.id})
    _kw_fight_round(s, ["ada", "bo", "gob"], foes, hidden=False)
    s.maybe("gm", {"kind": "extinguish", "being": "gob"})
    s.do("gm", {"kind": "adjust_track", "being": "gob", "track": "tp", "value": 9})
    s.rotate()
    _kw_fight_round(s, ["ada", "bo", "gob"], foes, hidden=False)
    s.do("gm", {"kind": "adjust_track", "being": "ada", "track": "mp", "value": 3})
    s.undo_last()
    s.do("gm", {"kind": "end_combat"})
    # A secret fight: the shade ambushes the goblin, all hidden.
    s.do("gm", {"kind": "start_combat", "combatants": ["shade", "gob"]}, hidden=True)
    s.do("gm", {"kind": "assign_dice", "being": "shade", "dodge": 0}, hidden=True)
    s.do("gm", {"kind": "assign_dice", "being": "gob", "dodge": 1}, hidden=True)
    _kw_fight_round(s, ["shade", "gob"], {"shade": "gob", "gob": "shade"}, hidden=True)
    s.do("gm", {"kind": "end_combat"}, hidden=True)
    s.do("anna", {"kind": "switch_haltung", "being": "ada", "haltung": "sturm", "active": False})
    s.do("anna", {"kind": "rest", "being": "ada", "rest_halfhours": 2, "sleep_halfhours": 4})
    s.do(
        "bert",
        {"kind": "edit_being", "being": "bo", "sheet": {**_being("bo", "Bo")["sheet"], "hp": 22}},
    )
    s.say("bert", "/r 3W10 # Glück")


# -- D&D 5e ---------------------------------------------------------------------------------

_DND_OWNER = {"ada": "anna", "lu": "bert"}


def _dnd_turn(s: Session) -> None:
    """The creature whose turn it is acts: attacks the nearest foe if it can, else dodges;
    then ends its turn."""
    encounter = s.state.encounter
    if encounter is None:
        return
    current = encounter.current
    who = _DND_OWNER.get(current, "gm")
    if current in _DND_OWNER:
        s.first(
            who,
            {"kind": "attack", "creature": current, "target": "gob", "attack": "Longsword"},
            {"kind": "attack", "creature": current, "target": "wolf", "attack": "Longsword"},
            {"kind": "action", "creature": current, "action": "dodge"},
        )
        s.maybe(who, {"kind": "bonus_action", "creature": current, "feature": "Second Wind"})
    elif current == "spy":
        s.maybe("gm", {"kind": "action", "creature": "spy", "action": "hide"}, hidden=True)
    else:
        s.first(
            "gm",
            {"kind": "attack", "creature": current, "target": "ada", "attack": "Scimitar"},
            {"kind": "attack", "creature": current, "target": "lu", "attack": "Scimitar"},
            {"kind": "attack", "creature": current, "target": "ada", "attack": "Bite"},
            {"kind": "action", "creature": current, "action": "dodge"},
        )
    if not s.maybe(who, {"kind": "end_turn"}):
        s.maybe("gm", {"kind": "end_turn"})


def play_dnd5e(s: Session) -> None:
    s.do(
        "anna",
        {
            "kind": "add_character",
            "id": "ada",
            "name": "Ada",
            "ac": 16,
            "hp": 24,
            "abilities": {"str": 16, "dex": 14, "con": 14},
            "attacks": ["Longsword: +5, 7 (1d8+3) slashing"],
            "bonus_actions": ["Second Wind"],
            "position": "a1",
        },
    )
    s.do(
        "bert",
        {
            "kind": "add_character",
            "id": "lu",
            "name": "Lu",
            "ac": 14,
            "hp": 18,
            "abilities": {"str": 12, "dex": 16, "wis": 14},
            "speeds": {"walk": 9},
            "attacks": ["Longsword: +4, 6 (1d8+2) slashing"],
            "position": "a3",
        },
    )
    s.do("gm", {"kind": "add_monster", "id": "gob", "monster": "goblin", "position": "b2"})
    s.do(
        "gm",
        {
            "kind": "add_monster",
            "id": "spy",
            "side": "shadows",
            "secret": True,
            "position": "h8",
            "sheet": {
                "id": "spy",
                "name": "Spy",
                "ac": 13,
                "hp": 9,
                "attacks": ["Dagger: +4, 5 (1d6+2) piercing"],
                "bonus_actions": ["Cunning Action"],
                "resistances": ["poison"],
            },
        },
    )
    s.do("gm", {"kind": "terrain", "squares": ["e5", "e6"], "terrain": "difficult"})
    s.do("gm", {"kind": "terrain", "squares": ["f5"], "terrain": "wall"})
    s.do("gm", {"kind": "terrain", "squares": ["g7"], "terrain": "water"}, hidden=True)
    s.do("gm", {"kind": "save", "creature": "gob", "ability": "dex", "dc": 12})
    s.do(
        "gm",
        {"kind": "save", "creature": "spy", "ability": "wis", "dc": 14, "bonus": 2},
        hidden=True,
    )
    s.player_seed("anna", "anna-dnd")
    s.do("gm", {"kind": "start_combat", "rolls": {"ada": 17}})
    for _ in range(3):
        _dnd_turn(s)
    # Ada's turn, whenever it comes: move, attack, help.
    for _ in range(3):
        if s.state.encounter.current == "ada":
            break
        _dnd_turn(s)
    if s.state.encounter.current == "ada":
        s.maybe("anna", {"kind": "move", "creature": "ada", "steps": [{"to": "a2"}]})
        s.first(
            "anna",
            {"kind": "attack", "creature": "ada", "target": "gob", "attack": "Longsword"},
            {"kind": "action", "creature": "ada", "action": "dodge"},
        )
        s.maybe(
            "anna",
            {
                "kind": "ready",
                "creature": "ada",
                "trigger": "the goblin comes close",
                "attack": "Longsword",
                "target": "gob",
            },
        )
        s.maybe("anna", {"kind": "end_turn"})
    s.whisper("gm", "bert", "Lu hears a soft step behind her.")
    s.do("gm", {"kind": "damage", "target": "gob", "amount": 2, "type": "fire"})
    s.do("gm", {"kind": "condition", "target": "gob", "condition": "poisoned"})
    s.do("gm", {"kind": "damage", "target": "spy", "amount": 3, "type": "poison"}, hidden=True)
    s.do("gm", {"kind": "condition", "target": "spy", "condition": "prone"}, hidden=True)
    s.rotate()
    for _ in range(4):
        _dnd_turn(s)
    s.maybe("gm", {"kind": "trigger", "creature": "ada"})
    s.maybe("gm", {"kind": "react", "creature": "gob", "attack": "Scimitar"})
    s.do("gm", {"kind": "heal", "target": "lu", "amount": 3})
    s.do("gm", {"kind": "heal", "target": "ada", "amount": 2, "temporary": True})
    s.do("gm", {"kind": "condition", "target": "gob", "condition": "poisoned", "remove": True})
    s.do("gm", {"kind": "damage", "target": "lu", "amount": 30, "type": "necrotic"})
    for _ in range(4):
        if s.state.encounter.current == "lu":
            s.maybe("bert", {"kind": "death_save", "creature": "lu"})
            s.maybe("bert", {"kind": "end_turn"})
        else:
            _dnd_turn(s)
    s.do("gm", {"kind": "damage", "target": "gob", "amount": 1, "type": "cold", "critical": True})
    s.undo_last()
    s.say("anna", "/r 1W20+5 # Angriff")
    for _ in range(2):
        _dnd_turn(s)


def _dnd_fight_turn(s: Session, foes: dict[str, list[tuple[str, str]]]) -> None:
    """The creature whose turn it is attacks the first foe it reaches, else takes the Dodge
    action, then ends its turn (its owner does, else the GM)."""
    encounter = s.state.encounter
    if encounter is None:
        return
    current = encounter.current
    who = _DND_OWNER.get(current, "gm")
    attacks = [
        {"kind": "attack", "creature": current, "target": target, "attack": attack}
        for target, attack in foes.get(current, [])
    ]
    s.first(who, *attacks, {"kind": "action", "creature": current, "action": "dodge"})
    if current in _DND_OWNER:
        s.maybe(who, {"kind": "bonus_action", "creature": current, "feature": "Second Wind"})
    if not s.maybe(who, {"kind": "end_turn"}):
        s.maybe("gm", {"kind": "end_turn"})


def play_dnd5e_fight(s: Session) -> None:
    """A longer D&D 5e fight: attacks every turn, an opportunity attack, a readied attack,
    a secret monster that fights in hidden records, death saves."""
    for who, creature, position, hp in (("anna", "ada", "a1", 40), ("bert", "lu", "a3", 30)):
        s.do(
            who,
            {
                "kind": "add_character",
                "id": creature,
                "name": creature.title(),
                "ac": 15,
                "hp": hp,
                "abilities": {"str": 16, "dex": 14, "con": 14, "wis": 12},
                "attacks": ["Longsword: +5, 7 (1d8+3) slashing", "Dagger: +4, 4 (1d4+2) piercing"],
                "bonus_actions": ["Second Wind"],
                "position": position,
            },
        )
    s.do("gm", {"kind": "add_monster", "id": "zom", "monster": "zombie", "position": "b2"})
    s.do("gm", {"kind": "add_monster", "id": "orc", "monster": "orc", "position": "b4"})
    s.do(
        "gm",
        {
            "kind": "add_monster",
            "id": "bones",
            "monster": "skeleton",
            "position": "h8",
            "secret": True,
        },
    )
    s.do("gm", {"kind": "terrain", "squares": ["c1", "c2"], "terrain": "difficult"})
    s.player_seed("bert", "bert-dnd-fight")
    s.do("gm", {"kind": "start_combat", "rolls": {"lu": 12}})
    foes = {
        "ada": [("zom", "Longsword"), ("orc", "Longsword")],
        "lu": [("orc", "Longsword"), ("zom", "Longsword"), ("orc", "Dagger")],
        "zom": [("ada", "Slam"), ("lu", "Slam")],
        "orc": [("lu", "Greataxe"), ("ada", "Greataxe")],
    }
    for _ in range(4):
        _dnd_fight_turn(s, foes)
    # Lu steps away from the orc: the move stops for its opportunity attack.
    for _ in range(4):
        if s.state.encounter.current == "lu":
            break
        _dnd_fight_turn(s, foes)
    if s.state.encounter.current == "lu":
        s.maybe("bert", {"kind": "move", "creature": "lu", "steps": [{"to": "a4"}, {"to": "a5"}]})
        s.first(
            "gm",
            {"kind": "react", "creature": "orc", "attack": "Greataxe"},
            {"kind": "react", "creature": "zom", "attack": "Slam"},
        )
        s.maybe("bert", {"kind": "action", "creature": "lu", "action": "dash"})
        s.maybe("bert", {"kind": "end_turn"})
    s.whisper("gm", "anna", "/r 1W20 # the bones rattle behind you")
    s.rotate()
    # Ada readies an attack for when the zombie moves; the GM fires it.
    for _ in range(4):
        if s.state.encounter.current == "ada":
            break
        _dnd_fight_turn(s, foes)
    if s.state.encounter.current == "ada":
        s.maybe(
            "anna",
            {
                "kind": "ready",
                "creature": "ada",
                "trigger": "the zombie moves",
                "attack": "Longsword",
                "target": "zom",
            },
        )
        s.maybe("anna", {"kind": "end_turn"})
        s.maybe("gm", {"kind": "trigger", "creature": "ada"})
    # The secret skeleton shoots from the dark, in hidden records.
    s.do("gm", {"kind": "damage", "target": "bones", "amount": 2, "type": "radiant"}, hidden=True)
    s.do("gm", {"kind": "save", "creature": "bones", "ability": "dex", "dc": 13}, hidden=True)
    s.do("gm", {"kind": "condition", "target": "bones", "condition": "frightened"}, hidden=True)
    for _ in range(6):
        _dnd_fight_turn(s, foes)
    s.do("gm", {"kind": "damage", "target": "ada", "amount": 60, "type": "necrotic"})
    for _ in range(8):
        if s.state.encounter is None:
            break
        if s.state.encounter.current == "ada":
            s.maybe("anna", {"kind": "death_save", "creature": "ada"})
            s.maybe("anna", {"kind": "end_turn"}) or s.maybe("gm", {"kind": "end_turn"})
        else:
            _dnd_fight_turn(s, foes)
    s.do("gm", {"kind": "heal", "target": "ada", "amount": 5})
    s.do("gm", {"kind": "damage", "target": "orc", "amount": 3, "type": "fire", "critical": True})
    s.undo_last()
    s.say("bert", "/r 2W6+2 # Beute")


def _chat_and_undo(s: Session, to: str = "anna") -> None:
    """What every frozen table has besides its game: a whisper, a GM's hidden note with an
    inline roll, an undone roll and a said roll."""
    s.whisper("gm", to, "/r 1W6 # for your eyes only")
    s.do("gm", {"kind": "say", "text": "/r 2W6 # a note to self"}, hidden=True)
    s.do("gm", {"kind": "say", "text": "/r 1W20 # oops"})
    s.undo_last()
    s.say(to, "/r 3W6 # luck")


def play_hexxen_defend(s: Session) -> None:
    """HeXXen: a declared NSC attack that the hunter answers with a defence, twice."""
    s.do("anna", _hunter("ada", "Ada"))
    s.do("bert", _hunter("bo", "Bo"))
    s.do(
        "gm",
        {
            "kind": "create_npc",
            "id": "wolf",
            "name": "Werwolf",
            "level": 2,
            "statblock": _WOLF_BLOCK,
        },
    )
    s.do(
        "gm",
        {
            "kind": "create_npc",
            "id": "lurker",
            "name": "Lauerer",
            "statblock": "LeP 9\n(N) Biss Angriff 3, Schaden 2",
            "secret": True,
        },
    )
    s.do("gm", {"kind": "start_fight"})
    s.do("gm", {"kind": "set_bound", "target": "wolf", "bound": True})
    s.player_seed("bert", "bert-defend")
    defences = [
        ("anna", "ada", {"defense": "parry", "defense_skill": "Parieren"}),
        ("bert", "bo", {"defense": "dodge", "defense_skill": "Ausweichen"}),
        ("anna", "ada", {}),
    ]
    for number, (who, hunter, defence) in enumerate(defences):
        for _ in range(4):
            if s.state.encounter is not None and s.state.encounter.current == "wolf":
                break
            s.do("gm", {"kind": "next_turn"})
        s.do(
            "gm",
            {"kind": "declare_attack", "npc": "wolf", "attack": "Klauenhieb", "target": hunter},
        )
        s.do(who, {"kind": "defend", "hunter": hunter, **defence})
        s.do("gm", {"kind": "next_turn"})
        if number == 0:
            s.rotate()
    s.do(
        "gm",
        {"kind": "hunter_contest", "hunter": "bo", "skill": "Nahkampf", "npc": "lurker"},
        hidden=True,
    )
    _chat_and_undo(s)
    s.do("gm", {"kind": "end_fight"})


def play_kreiswanderer_dodge(s: Session) -> None:
    """Kreiswanderer: dodging as an action (with the default and another skill), a burning
    torch and its extinguishing."""
    s.do("anna", _being("ada", "Ada"))
    s.do("gm", _being("gob", "Goblin", "foes", hp=30, begabungen=[], haltungen={}))
    s.do("gm", {**_being("shade", "Schatten", "foes", hp=10), "secret": True})
    s.do("gm", {"kind": "start_combat", "combatants": ["ada", "gob"]})
    s.do("anna", {"kind": "assign_dice", "being": "ada", "dodge": 1})
    s.do("gm", {"kind": "assign_dice", "being": "gob", "dodge": 0})
    s.player_seed("anna", "anna-dodge")
    for turn in range(8):
        fight = s.state.fight
        if fight is None:
            break
        current = fight.encounter.current
        who = "anna" if current == "ada" else "gm"
        target = "gob" if current == "ada" else "ada"
        if turn in (0, 1):
            s.maybe(who, {"kind": "dodge", "being": current})
        elif turn in (2, 3):
            s.maybe(who, {"kind": "dodge", "being": current, "skill": "schwerter"})
        else:
            weapon = "Fackel" if current == "ada" else "Schwert"
            s.maybe(who, {"kind": "attack", "being": current, "target": target, "weapon": weapon})
        s.maybe(who, {"kind": "end_turn"}) or s.maybe("gm", {"kind": "end_turn"})
        if turn == 3:
            s.rotate()
    s.maybe("gm", {"kind": "extinguish", "being": "gob"})
    s.do(
        "gm",
        {"kind": "check", "being": "shade", "attribute": "wahrnehmung", "skill": "klettern"},
        hidden=True,
    )
    _chat_and_undo(s)
    s.maybe("gm", {"kind": "end_combat"})


def play_kitties_injury(s: Session) -> None:
    """Magical Kitties: a kitty hurt past her limit avoids the injury with a treat; bonus and
    complication outcomes."""
    s.do("anna", _kitty("mia", "Mia"))
    s.do("gm", {"kind": "create_foe", "id": "dog", "name": "Big Dog", "difficulty": 3})
    s.do("gm", {"kind": "create_foe", "id": "owl", "name": "Secret Owl"}, hidden=True)
    s.do("gm", {"kind": "start_episode"})
    s.do("gm", {"kind": "start_scene"})
    s.do("gm", {"kind": "edit_kitty", "kitty": "mia", "changes": {"treats": 3}})
    s.player_seed("anna", "anna-injury")
    limit = s.state.kitties["mia"].aua_limit
    s.do("gm", {"kind": "give_aua", "kitty": "mia", "count": min(10, limit + 1)})
    s.do("anna", {"kind": "avoid_injury", "kitty": "mia"})
    for attribute in ("fierce", "cute", "cunning"):
        foe = {"foe": "dog"} if not s.state.foes["dog"].defeated else {}
        if s.maybe("anna", {"kind": "check", "kitty": "mia", "attribute": attribute, **foe}):
            _kitties_resolve(s, "anna", "mia")
        if attribute == "cute":
            s.rotate()
    s.do("gm", {"kind": "check", "kitty": "mia", "attribute": "cute", "foe": "owl"}, hidden=True)
    _kitties_resolve(s, "gm", "mia", hidden=True)
    _chat_and_undo(s)
    s.do("gm", {"kind": "end_scene"})


def play_freedice_delay(s: Session) -> None:
    """The free table: delaying a turn, behind another combatant, and the turns after."""
    s.do("gm", {"kind": "set_map", "width": 6, "height": 6})
    for who, combatant, initiative in (("anna", "mia", "30"), ("bert", "leo", "20")):
        s.do(
            who,
            {
                "kind": "add_character",
                "id": combatant,
                "name": combatant.title(),
                "initiative": initiative,
                "tracks": [{"name": "LeP", "maximum": 12}],
            },
        )
    s.do("gm", {"kind": "add_combatant", "id": "orc", "name": "Orc", "initiative": "1d6"})
    s.do("gm", {"kind": "add_combatant", "id": "spy", "name": "Spy", "secret": True})
    s.do("gm", {"kind": "roll_initiative", "combatants": ["mia", "leo", "orc"]})
    s.do("gm", {"kind": "roll_initiative", "combatants": ["spy"]}, hidden=True)
    s.do("gm", {"kind": "start_fight"})
    s.player_seed("anna", "anna-delay")
    s.do("anna", {"kind": "delay", "combatant": "mia", "after": "leo"})
    s.do("bert", {"kind": "roll", "expression": "1d20+4", "label": "Leo attacks"})
    s.do("bert", {"kind": "end_turn", "combatant": "leo"})
    s.maybe("anna", {"kind": "roll", "expression": "2d6", "label": "Mia, late"})
    s.maybe("anna", {"kind": "end_turn", "combatant": "mia"})
    s.rotate()
    s.do("gm", {"kind": "roll", "expression": "1d8+2", "label": "Orc hits"})
    s.do("gm", {"kind": "change_track", "combatant": "leo", "track": "LeP", "amount": 5})
    s.maybe("gm", {"kind": "next_turn"})
    s.maybe("bert", {"kind": "delay", "combatant": "leo"})
    s.do("gm", {"kind": "next_round"})
    _chat_and_undo(s)
    s.do("gm", {"kind": "end_fight"})


SYSTEMS = ("magical-kitties", "kilkenny", "free-dice", "hexxen", "kreiswanderer", "dnd5e")

PLAYS: dict[str, tuple[Callable[[Session], None], dict[str, Any]]] = {
    "magical-kitties": (play_kitties, {}),
    "kilkenny": (
        play_kilkenny,
        {"players": 3, "seats": [{"player": "human"}, {"player": "greedy"}, {"player": "human"}]},
    ),
    "free-dice": (play_freedice, {}),
    "hexxen": (play_hexxen, {}),
    "kreiswanderer": (play_kreiswanderer, {}),
    "dnd5e": (play_dnd5e, {}),
    "dnd5e-fight": (play_dnd5e_fight, {}),
    "hexxen-defend": (play_hexxen_defend, {}),
    "kreiswanderer-dodge": (play_kreiswanderer_dodge, {}),
    "magical-kitties-injury": (play_kitties_injury, {}),
    "free-dice-delay": (play_freedice_delay, {}),
}


def main(out: Path, only: list[str]) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        store = EventStore(db_path=str(Path(tmp) / "frozen.sqlite3"), snapshot_every=7)
        try:
            for name, (play, options) in PLAYS.items():
                if only and name not in only:
                    continue
                system = next(known for known in SYSTEMS if name.startswith(known))
                session = Session(store, system, options)
                play(session)
                gm_export, player_export = session.finish()
                kinds = Counter(
                    (r["command"] or {}).get("kind", "undo" if r["undoes"] else "-")
                    for r in gm_export["records"]
                )
                print(name, len(gm_export["records"]), "records;", dict(kinds))
                print(
                    "   hidden:",
                    sum(r["hidden"] for r in gm_export["records"]),
                    "epochs:",
                    len(gm_export["fair"]["epochs"]),
                )
                if session.skipped:
                    print("   skipped:", session.skipped)
                stem = name.replace(system, f"{system}-v2")
                for suffix, data in (("", gm_export), ("-player", player_export)):
                    path = out / f"{stem}{suffix}.json"
                    if path.exists():
                        raise SystemExit(f"{path} exists: frozen files are never rewritten")
                    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")
        finally:
            store.close()


if __name__ == "__main__":
    main(Path(sys.argv[1]), sys.argv[2:])
