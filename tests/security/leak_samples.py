"""Sample commands per game system for the leak suite (``test_leaks.py``).

A system joins the suite with one entry in :data:`SAMPLES`: the visible set-up of a table,
the GM's commands that can be issued hidden (each carrying :data:`CANARY` in every text and
id it has), every kind of command a player can issue, and probes: a player's command naming
a hidden record's id beside the same command naming an id nobody made.

A step is a command, or a function from the state the issuer sees to a command (for moves
that depend on the dice), or :data:`UNDO_LAST` (the GM undoes the record before, hidden too),
or a :class:`Whisper` between the GM and the *confidant* (a second player; the player whose
channels are read is a third party). Chat is every table's, so :data:`WHISPERS` and the
player's ``say`` join every system's entry.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

CANARY = "zqcanary"
"""Marks every text and id of a hidden sample; it must never reach a player or spectator."""

UNKNOWN = "zz-nobody"
"""An id no record ever made (a probe's twin of a hidden id)."""

UNDO_LAST = {"undo": "last"}
"""A step: the GM undoes the record just made."""


@dataclass(frozen=True)
class Whisper:
    """A step: ``sender`` (``"gm"`` or ``"confidant"``) whispers ``text`` to ``to``."""

    sender: str
    to: str
    text: str


Step = dict[str, Any] | Callable[[dict[str, Any]], dict[str, Any]] | Whisper
Who = str
"""``"gm"`` or ``"player"``."""


@dataclass(frozen=True)
class Probe:
    """A player's command naming ``hidden_id`` (made by the hidden sample ``after``).

    Its twin names :data:`UNKNOWN` instead; both must get the same answer.
    """

    after: str
    command: dict[str, Any]
    hidden_id: str


@dataclass(frozen=True)
class Samples:
    """What the leak suite plays at a table of one system."""

    system: str
    setup: list[tuple[Who, Step]]
    hidden: dict[str, list[Step]]
    player: dict[str, Step]
    options: dict[str, Any] = field(default_factory=dict)
    probes: list[Probe] = field(default_factory=list)


def _first_move(state: dict[str, Any]) -> dict[str, Any]:
    moves = state.get("moves") or [{"from": "?", "to": "?"}]
    return {"kind": "move", **moves[0]}


def _bonus_choice(state: dict[str, Any]) -> dict[str, Any]:
    return {"kind": "choose_outcome", "entry": "bonus.second_goal"}


_KITTY_BASE: dict[str, Any] = {
    "kind": "create_kitty",
    "attributes": {"cute": 3, "cunning": 2, "fierce": 1},
    "talents": ["Climbing"],
    "powers": [{"name": "Teleport"}],
    "flaw": "Lazy",
}
_HIDDEN_FOE = {
    "kind": "create_foe",
    "id": f"{CANARY}-foe",
    "name": f"{CANARY} Rat",
    "difficulty": 6,
    "aua_limit": 7,
}
_HIDDEN_KITTY = {
    **_KITTY_BASE,
    "id": f"{CANARY}-kit",
    "name": f"{CANARY} Cat",
    "talents": [f"{CANARY} talent"],
    "powers": [{"name": f"{CANARY} power", "features": [f"{CANARY} feature"]}],
    "flaw": f"{CANARY} flaw",
    "human": {
        "name": f"{CANARY} human",
        "problems": [{"id": f"{CANARY}-p", "text": f"{CANARY} problem", "rank": 2}],
    },
}
_ATTACK_HIDDEN = {"kind": "check", "kitty": "tom", "attribute": "fierce", "foe": f"{CANARY}-foe"}

KITTIES = Samples(
    system="magical-kitties",
    setup=[
        ("player", {**_KITTY_BASE, "id": "mia", "name": "Mia"}),
        ("gm", {**_KITTY_BASE, "id": "tom", "name": "Tom"}),
        ("gm", {"kind": "create_foe", "id": "rat", "name": "Rat"}),
        ("gm", {"kind": "edit_kitty", "kitty": "mia", "changes": {"xp": 5}}),
        ("gm", {"kind": "start_episode"}),
        ("gm", {"kind": "start_scene"}),
        ("player", {"kind": "check", "kitty": "mia", "attribute": "cute"}),
    ],
    hidden={
        "foe": [_HIDDEN_FOE],
        "problems": [
            {"kind": "add_problem", "id": f"{CANARY}-town", "text": f"{CANARY} flood"},
            {"kind": "add_problem", "kitty": "mia", "id": f"{CANARY}-hum", "text": f"{CANARY} x"},
        ],
        "kitty": [_HIDDEN_KITTY],
        "attack": [_HIDDEN_FOE, _ATTACK_HIDDEN, {"kind": "reroll", "dice": [0]}],
        "check_players_kitty": [{"kind": "check", "kitty": "mia", "attribute": "fierce"}],
        "sheets": [
            {"kind": "award_treat", "kitty": "tom", "reason": f"{CANARY} reason"},
            {"kind": "edit_kitty", "kitty": "tom", "changes": {"name": f"{CANARY} Tom"}},
            {"kind": "give_aua", "kitty": "mia"},
            {"kind": "give_aua", "foe": "rat"},
        ],
        "scene": [{"kind": "end_scene"}],
        "undo": [_HIDDEN_FOE, UNDO_LAST],
    },
    player={
        "create_kitty": {**_KITTY_BASE, "id": "lu", "name": "Lu"},
        "check": {"kind": "check", "kitty": "mia", "attribute": "cunning"},
        "attack": {"kind": "check", "kitty": "mia", "attribute": "fierce", "foe": "rat"},
        "reroll": {"kind": "reroll", "dice": [0, 1]},
        "accept_failure": {"kind": "accept_failure"},
        "choose_outcome": _bonus_choice,
        "avoid_injury": {"kind": "avoid_injury", "kitty": "mia"},
        "spend_treat": {"kind": "spend_treat", "kitty": "mia", "purpose": "story", "detail": "A"},
        "level_up": {"kind": "level_up", "kitty": "mia", "list": "levels_2_4", "entry": "treats"},
    },
    probes=[
        Probe("foe", {**_ATTACK_HIDDEN, "kitty": "mia"}, f"{CANARY}-foe"),
        Probe(
            "kitty",
            {"kind": "check", "kitty": f"{CANARY}-kit", "attribute": "cute"},
            f"{CANARY}-kit",
        ),
        Probe("kitty", {"kind": "avoid_injury", "kitty": f"{CANARY}-kit"}, f"{CANARY}-kit"),
    ],
)

KILKENNY = Samples(
    system="kilkenny",
    options={"players": 2, "seats": [{"player": "human"}, {"player": "human"}]},
    setup=[("gm", {"kind": "sit", "seat": "N"}), ("player", {"kind": "sit", "seat": "S"})],
    hidden={"roll": [{"kind": "roll"}], "roll_and_move": [{"kind": "roll"}, _first_move]},
    player={"sit": {"kind": "sit", "seat": "N"}, "roll": {"kind": "roll"}, "move": _first_move},
)

_SPY = {
    "kind": "add_combatant",
    "id": f"{CANARY}-spy",
    "name": f"{CANARY} Spy",
    "side": f"{CANARY} side",
    "initiative": "15",
    "secret": True,
    "at": "e5",
    "tracks": [{"name": "LeP", "maximum": 9}],
}
_MIA_LEP = {"kind": "change_track", "combatant": "mia", "track": "LeP"}

FREE_DICE = Samples(
    system="free-dice",
    setup=[
        ("player", {"kind": "roll", "expression": "2d6", "label": "open"}),
        ("gm", {"kind": "set_map", "width": 8, "height": 6}),
        ("gm", {"kind": "add_combatant", "id": "rat", "name": "Rat", "initiative": "10"}),
        ("gm", {"kind": "add_combatant", "id": "hero", "name": "Hero", "claimable": True}),
        (
            "player",
            {
                "kind": "add_character",
                "id": "mia",
                "name": "Mia",
                "initiative": "20",
                "at": "a1",
                "tracks": [{"name": "LeP", "maximum": 30}],
            },
        ),
        ("gm", {"kind": "roll_initiative", "combatants": ["rat", "mia"]}),
        ("gm", {"kind": "start_fight"}),
        ("gm", {"kind": "apply_effect", "target": "mia", "name": "Segen"}),
    ],
    hidden={
        "roll": [{"kind": "roll", "expression": "3d6+1", "label": f"{CANARY} label"}],
        "undo": [{"kind": "roll", "expression": "1d20", "label": f"{CANARY} gone"}, UNDO_LAST],
        "secret_combatant": [_SPY, {"kind": "roll_initiative", "combatants": [f"{CANARY}-spy"]}],
        "effect": [
            {
                "kind": "apply_effect",
                "target": "mia",
                "name": f"{CANARY} curse",
                "level": 2,
                "duration": {"until": "rounds", "rounds": 3},
            }
        ],
        "track": [{**_MIA_LEP, "change": "damage", "amount": 4}],
        "map": [
            {"kind": "paint", "squares": ["c3", "d3"], "terrain": "wall"},
            {"kind": "set_image", "image": f"{CANARY}1"},
        ],
        "move": [{"kind": "move", "combatant": "rat", "to": "h6", "free": True}],
        "map_size": [
            {
                "kind": "set_map",
                "width": 10,
                "height": 7,
                "square_m": "2",
                "diagonal": "alternating",
            }
        ],
        "turns": [{"kind": "next_turn"}, {"kind": "next_round"}],
        "ending": [
            _SPY,
            {"kind": "remove_combatant", "combatant": f"{CANARY}-spy"},
            {"kind": "leave_fight", "combatant": "rat"},
            {"kind": "end_fight"},
        ],
    },
    player={
        "roll": {"kind": "roll", "expression": "1d6", "label": "mine"},
        "add_character": {"kind": "add_character", "id": "lu", "name": "Lu", "at": "b2"},
        "claim": {"kind": "claim", "combatant": "hero"},
        "move": {"kind": "move", "combatant": "mia", "to": "b2"},
        "change_track": {**_MIA_LEP, "change": "damage", "amount": 3},
        "apply_effect": {"kind": "apply_effect", "target": "mia", "name": "Mut"},
        "remove_effect": {"kind": "remove_effect", "target": "mia", "name": "Segen"},
        "delay": {"kind": "delay", "combatant": "mia"},
        "end_turn": {"kind": "end_turn", "combatant": "mia"},
    },
    probes=[
        Probe(
            "secret_combatant",
            {**_MIA_LEP, "combatant": f"{CANARY}-spy", "amount": 1},
            f"{CANARY}-spy",
        ),
        Probe(
            "secret_combatant",
            {"kind": "apply_effect", "target": f"{CANARY}-spy", "name": "Mut"},
            f"{CANARY}-spy",
        ),
    ],
)

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


def _kw_being(being_id: str, name: str, side: str = "party") -> dict[str, Any]:
    return {
        "kind": "create_being",
        "id": being_id,
        "sheet": {
            "name": name,
            "side": side,
            "attributes": _KW_ATTRS,
            "skills": {"schwerter": {"depth": 2, "value": 4}},
            "hp": 20,
            "mp": 2,
            "weapons": [{"name": "Schwert", "skill": "schwerter"}],
            "begabungen": ["funke"],
        },
    }


_KW_HIDDEN = {**_kw_being(f"{CANARY}-foe", f"{CANARY} Foe", "foes"), "secret": True}

KREISWANDERER = Samples(
    system="kreiswanderer",
    setup=[
        ("player", _kw_being("ada", "Ada")),
        ("gm", _kw_being("gob", "Goblin", "foes")),
        (
            "player",
            {
                "kind": "accumulate_start",
                "id": "forge",
                "being": "ada",
                "attribute": "geschick",
                "skill": "schwerter",
                "rolls": 3,
            },
        ),
    ],
    hidden={
        "foe": [_KW_HIDDEN],
        "check": [{"kind": "check", "being": "gob", "attribute": "geschick", "skill": "schwerter"}],
        "undo": [_KW_HIDDEN, UNDO_LAST],
        # An ambush: the secret foe fights Ada in secret and has the turn in the GM's fold.
        "ambush": [
            _KW_HIDDEN,
            {"kind": "start_combat", "combatants": ["ada", f"{CANARY}-foe"]},
            {"kind": "assign_dice", "being": "ada", "dodge": 0},
            {"kind": "assign_dice", "being": f"{CANARY}-foe", "dodge": 0},
        ],
        # Reinforcements: the secret foe joins a fight, a ritual is begun, then it is removed.
        "join": [
            _KW_HIDDEN,
            {"kind": "start_combat", "combatants": ["ada", "gob"]},
            {"kind": "assign_dice", "being": "ada", "dodge": 0},
            {"kind": "assign_dice", "being": "gob", "dodge": 0},
            {"kind": "join_fight", "being": f"{CANARY}-foe"},
            {"kind": "assign_dice", "being": f"{CANARY}-foe", "dodge": 1},
            {"kind": "leave_fight", "being": f"{CANARY}-foe", "how": "remove"},
            {"kind": "leave_fight", "being": "gob", "how": "flee"},
        ],
        "act": [
            {"kind": "start_combat", "combatants": ["gob"]},
            {"kind": "assign_dice", "being": "gob", "dodge": 0},
            {"kind": "act", "being": "gob", "name": f"{CANARY} Ritual", "cost": 2},
        ],
        "damage": [
            _KW_HIDDEN,
            {
                "kind": "deal_damage",
                "being": f"{CANARY}-foe",
                "amount": 3,
                "damage_type": "BR",
                "markings": [{"name": "langzeiteffekt", "detail": "feuer"}],
                "reason": f"{CANARY} Falle",
            },
            {"kind": "deal_damage", "being": "ada", "amount": 2, "reason": f"{CANARY} Gift"},
            {"kind": "heal", "being": "ada", "amount": 1, "reason": f"{CANARY} Trank"},
        ],
        "catalogue": [
            {"kind": "set_catalogue", "skills": {f"{CANARY}-skill": {"depth": 2}}},
        ],
        "abandon": [
            {
                "kind": "accumulate_start",
                "id": f"{CANARY}-work",
                "being": "gob",
                "attribute": "geschick",
                "skill": "schwerter",
                "rolls": 2,
            },
            {"kind": "accumulate_abandon", "id": f"{CANARY}-work"},
        ],
    },
    player={
        "create_being": _kw_being("lu", "Lu"),
        "check": {"kind": "check", "being": "ada", "attribute": "geschick", "skill": "schwerter"},
        "begabung": {"kind": "use_begabung", "being": "ada", "begabung": "funke"},
        "rest": {"kind": "rest", "being": "ada", "sleep_halfhours": 2},
        "accumulate": {"kind": "accumulate_roll", "id": "forge"},
        "abandon": {"kind": "accumulate_abandon", "id": "forge"},
        "act": {"kind": "act", "being": "ada", "name": "Ritual", "cost": 2},
        "flee": {"kind": "leave_fight", "being": "ada"},
        "edit_being": {
            "kind": "edit_being",
            "being": "ada",
            "sheet": {**_kw_being("ada", "Ada")["sheet"], "hp": 21},
        },
    },
    probes=[
        Probe(
            "foe",
            {
                "kind": "comparative",
                "being": "ada",
                "attribute": "geschick",
                "skill": "schwerter",
                "opponent": f"{CANARY}-foe",
                "opponent_attribute": "geschick",
                "opponent_skill": "schwerter",
            },
            f"{CANARY}-foe",
        ),
        Probe("foe", {"kind": "leave_fight", "being": f"{CANARY}-foe"}, f"{CANARY}-foe"),
        Probe("abandon", {"kind": "accumulate_abandon", "id": f"{CANARY}-work"}, f"{CANARY}-work"),
    ],
)

_HUNTER: dict[str, Any] = {
    "kind": "create_hunter",
    "attributes": {"KKR": 3, "ATH": 2, "GES": 3, "SIN": 2, "WIS": 1, "WIL": 2},
    "skills": {"Nahkampf": 2},
    "ideen": 2,
}
_HIDDEN_NPC = {
    "kind": "create_npc",
    "id": f"{CANARY}-npc",
    "name": f"{CANARY} Wolf",
    "statblock": f"KKR 3, WIL 4\nHex 2\n(N) {CANARY} Biss Angriff 4, Schaden 2",
}

HEXXEN = Samples(
    system="hexxen",
    setup=[
        ("player", {**_HUNTER, "id": "ada", "name": "Ada"}),
        ("gm", {"kind": "create_npc", "id": "wolf", "name": "Wolf", "statblock": "LeP 9"}),
        ("player", {"kind": "hunter_check", "hunter": "ada", "skill": "Nahkampf"}),
    ],
    hidden={
        "npc": [_HIDDEN_NPC],
        "check": [{"kind": "hunter_check", "hunter": "ada", "skill": "Nahkampf", "bonus": 2}],
        "effects": [{"kind": "apply_effect", "target": "ada", "effect": "malus", "level": 2}],
        "contest": [
            _HIDDEN_NPC,
            {
                "kind": "hunter_contest",
                "hunter": "ada",
                "skill": "Nahkampf",
                "npc": f"{CANARY}-npc",
            },
        ],
        "undo": [_HIDDEN_NPC, UNDO_LAST],
        "map": [_HIDDEN_NPC, {"kind": "place", "target": f"{CANARY}-npc", "to": "c3"}],
        "npc_check": [
            _HIDDEN_NPC,
            {"kind": "npc_check", "npc": f"{CANARY}-npc", "attribute": "WIL"},
            {
                "kind": "npc_check",
                "npc": f"{CANARY}-npc",
                "attribute": "KKR",
                "against": "ada",
                "skill": "Nahkampf",
            },
        ],
        "hex": [_HIDDEN_NPC, {"kind": "add_hex", "npc": f"{CANARY}-npc", "amount": 3}],
        "tagged_effect": [
            {
                "kind": "apply_effect",
                "target": "ada",
                "effect": "malus",
                "level": 1,
                "tag": CANARY,
            }
        ],
        "properties": [
            {
                **_HIDDEN_NPC,
                "statblock": _HIDDEN_NPC["statblock"]
                + f"\nEigenschaften: Regeneration, {CANARY}haut 2"
                + f"\n(N) {CANARY}gift Angriff 2, Schaden 1, 1 Blutwürfel innerer Schaden",
            },
            {"kind": "start_fight"},
            {"kind": "next_turn"},
            {"kind": "next_turn"},
        ],
    },
    player={
        "create_hunter": {**_HUNTER, "id": "bo", "name": "Bo"},
        "hunter_check": {"kind": "hunter_check", "hunter": "ada", "skill": "Nahkampf"},
        "hunter_contest": {
            "kind": "hunter_contest",
            "hunter": "ada",
            "skill": "Nahkampf",
            "npc": "wolf",
        },
        "set_skill": {"kind": "set_skill", "hunter": "ada", "skill": "Reiten", "value": 1},
        "change_resource": {
            "kind": "change_resource",
            "hunter": "ada",
            "resource": "ideen",
            "delta": -1,
        },
        "set_bound": {"kind": "set_bound", "target": "ada", "bound": True},
        "edit_hunter": {"kind": "edit_hunter", "hunter": "ada", "armour": 2},
        "place": {"kind": "place", "target": "ada", "to": "b2"},
        "defend": {"kind": "defend", "hunter": "ada", "defense": "parry"},
    },
    probes=[
        Probe(
            "npc",
            {
                "kind": "hunter_contest",
                "hunter": "ada",
                "skill": "Nahkampf",
                "npc": f"{CANARY}-npc",
            },
            f"{CANARY}-npc",
        ),
        Probe(
            "npc",
            {
                "kind": "hunter_contest",
                "hunter": "ada",
                "skill": "Nahkampf",
                "npc": f"{CANARY}-npc",
                "bonus": 1,
            },
            f"{CANARY}-npc",
        ),
    ],
)

_DND_ADA: dict[str, Any] = {
    "kind": "add_character",
    "id": "ada",
    "name": "Ada",
    "ac": 16,
    "hp": 12,
    "abilities": {"str": 16, "dex": 14},
    "attacks": ["Longsword: +5, 7 (1d8+3) slashing"],
    "bonus_actions": ["Second Wind"],
    "position": "a1",
    "spellcasting": {
        "ability": "int",
        "level": 5,
        "save_dc": 13,
        "attack_bonus": 5,
        "slots": [4, 3, 2],
        "spells": ["fire-bolt", "fireball", "bless", "spirit-guardians", "magic-missile"],
    },
}
_DND_SPY = {
    "kind": "add_monster",
    "id": f"{CANARY}-spy",
    "side": f"{CANARY}-side",
    "secret": True,
    "position": "h8",
    "sheet": {
        "id": f"{CANARY}-spy",
        "name": f"{CANARY} Spy",
        "ac": 13,
        "hp": 9,
        "attacks": [f"{CANARY} Bite: +4, 5 (1d6+2) piercing"],
        "bonus_actions": [f"{CANARY} trick"],
        "resistances": ["psychic"],
        "skills": {"stealth": 7},
        "passive_perception": 17,
        "spellcasting": {
            "ability": "cha",
            "save_dc": 13,
            "attack_bonus": 5,
            "slots": [1],
            "spells": ["shield"],
        },
    },
}
_DND_RAT = {
    "kind": "add_monster",
    "id": f"{CANARY}-rat",
    "monster": "rat",
    "secret": True,
    "position": "j10",
}

_DND_DRAKE = {
    "kind": "add_monster",
    "id": f"{CANARY}-drake",
    "monster": "adult-red-dragon",
    "secret": True,
    "position": "m12",
}


def _dnd_ada_first(state: dict[str, Any]) -> dict[str, Any]:
    """The goblin ends its turn if the initiative put it first; else a no-op heal."""
    if (state.get("combat") or {}).get("current") == "gob":
        return {"kind": "end_turn"}
    return {"kind": "heal", "target": "ada", "amount": 0}


@dataclass(frozen=True)
class Either:
    """A step that picks its command from what the GM sees; ``kinds`` are the kinds it may
    pick (the D&D coverage test counts them)."""

    pick: Callable[[dict[str, Any]], dict[str, Any]]
    kinds: tuple[str, ...]

    def __call__(self, state: dict[str, Any]) -> dict[str, Any]:
        return self.pick(state)


def _dnd_lair_or_end(state: dict[str, Any]) -> dict[str, Any]:
    """The secret dragon's lair action when it is due, else the next turn (or a pass)."""
    if state["legendary"]["lair_due"]:
        return {"kind": "lair_action", "creature": f"{CANARY}-drake", "text": f"{CANARY} magma"}
    return {"kind": "end_turn"}


_DND_LAIR_OR_END = Either(_dnd_lair_or_end, ("lair_action", "end_turn"))


def _dnd_shield_or_pass(state: dict[str, Any]) -> dict[str, Any]:
    """The secret spy casts Shield against the hit or the spell that waits for it, else a
    no-op."""
    if state.get("held_hit") or state.get("held_spell"):
        return {"kind": "shield", "creature": f"{CANARY}-spy"}
    return {"kind": "heal", "target": "gob", "amount": 0}


_DND_SHIELD_OR_PASS = Either(_dnd_shield_or_pass, ("shield", "heal"))


DND5E = Samples(
    system="dnd5e",
    setup=[
        ("player", _DND_ADA),
        ("gm", {"kind": "add_monster", "id": "gob", "monster": "goblin", "position": "b2"}),
        ("gm", {"kind": "start_combat"}),
        ("gm", _dnd_ada_first),
    ],
    hidden={
        "monster": [_DND_SPY],
        "bestiary_monster": [_DND_RAT],
        "turn_and_attack": [
            {"kind": "end_turn"},
            {"kind": "attack", "creature": "gob", "target": "ada", "attack": "Scimitar"},
        ],
        "damage": [
            {"kind": "damage", "target": "gob", "amount": 3, "type": "necrotic"},
            {"kind": "damage", "target": "ada", "amount": 2, "type": "slashing"},
            {"kind": "heal", "target": "ada", "amount": 1, "temporary": True},
        ],
        "condition": [{"kind": "condition", "target": "gob", "condition": "poisoned"}],
        "condition_from_secret": [
            _DND_SPY,
            {
                "kind": "condition",
                "target": "ada",
                "condition": "charmed",
                "source": f"{CANARY}-spy",
                "duration": {"until": "save", "ability": "wis", "dc": 14},
            },
            {
                "kind": "condition",
                "target": f"{CANARY}-spy",
                "condition": "blinded",
                "duration": {"until": "turn_end", "of": "ada"},
            },
        ],
        "secret_monster_attacked": [
            _DND_SPY,
            {"kind": "damage", "target": f"{CANARY}-spy", "amount": 4, "type": "Feuer"},
            {"kind": "condition", "target": f"{CANARY}-spy", "condition": "prone"},
            {"kind": "fall", "creature": f"{CANARY}-spy", "height_m": 9},
        ],
        "undo": [_DND_SPY, UNDO_LAST],
        "terrain": [
            {"kind": "terrain", "squares": ["e5", "e6"], "terrain": "difficult"},
            {"kind": "terrain", "squares": ["f5"], "terrain": "wall"},
            {"kind": "terrain", "squares": ["e6"]},
        ],
        "ground": [
            {"kind": "ground", "squares": ["e5", "e6"], "height_m": 4.5},
            {"kind": "ground", "squares": ["e6"], "height_m": 0},
        ],
        "save": [{"kind": "save", "creature": "gob", "ability": "dex", "dc": 12}],
        "check": [
            {"kind": "check", "creature": "gob", "skill": "athletics", "dc": 12, "modifier": 1}
        ],
        "secret_monster_check": [
            _DND_SPY,
            {"kind": "check", "creature": f"{CANARY}-spy", "ability": "wis", "dc": 30},
            {"kind": "condition", "target": f"{CANARY}-spy", "condition": "hidden"},
        ],
        "secret_monster_save": [
            _DND_SPY,
            {"kind": "save", "creature": f"{CANARY}-spy", "ability": "wis", "dc": 30, "bonus": 2},
        ],
        "legendary": [
            _DND_DRAKE,
            {"kind": "lair", "creature": f"{CANARY}-drake"},
            {"kind": "end_turn"},
            {"kind": "legendary", "creature": f"{CANARY}-drake", "action": "Detect"},
            {"kind": "end_turn"},
        ],
        "legendary_resistance": [
            _DND_DRAKE,
            {"kind": "save", "creature": f"{CANARY}-drake", "ability": "wis", "dc": 40},
            {"kind": "legendary_resistance", "creature": f"{CANARY}-drake"},
        ],
        "lair_action": [
            _DND_DRAKE,
            {"kind": "lair", "creature": f"{CANARY}-drake"},
            *[_DND_LAIR_OR_END] * 4,  # count 20 comes within one round, whatever the initiative
        ],
        "ready_fired": [
            {
                "kind": "ready",
                "creature": "ada",
                "trigger": f"{CANARY} the door opens",
                "action": f"{CANARY} shout",
            },
            {"kind": "trigger", "creature": "ada"},
        ],
        # a secret caster's reaction spell (its slot, its text) in Ada's turn
        "secret_monster_casts": [
            _DND_SPY,
            {"kind": "cast", "creature": f"{CANARY}-spy", "spell": "shield"},
        ],
        # a hit on a secret caster waits for its Shield, decided in secret
        "secret_monster_shields": [
            _DND_SPY,
            {"kind": "end_turn"},
            {
                "kind": "attack",
                "creature": "gob",
                "target": f"{CANARY}-spy",
                "attack": "Shortbow",
                "modifier": 10,  # every d20 but a 1 hits AC 13, so the hit waits
            },
            _DND_SHIELD_OR_PASS,
        ],
        # Ada's Fire Bolt and Magic Missile at a secret caster wait for its Shield, decided in
        # secret (the darts at the goblin land at once)
        "secret_monster_shields_spell": [
            _DND_SPY,
            {"kind": "cast", "creature": "ada", "spell": "fire-bolt", "targets": [f"{CANARY}-spy"]},
            _DND_SHIELD_OR_PASS,
        ],
        "secret_monster_shields_darts": [
            _DND_SPY,
            {
                "kind": "cast",
                "creature": "ada",
                "spell": "magic-missile",
                "targets": [f"{CANARY}-spy", "gob", f"{CANARY}-spy"],
            },
            _DND_SHIELD_OR_PASS,
        ],
        # the GM ends the fight in secret and a secret creature rests (its slots back)
        "rest": [
            _DND_SPY,
            {"kind": "cast", "creature": f"{CANARY}-spy", "spell": "shield"},
            {"kind": "end_combat"},
            {"kind": "rest", "length": "long", "creatures": [f"{CANARY}-spy"]},
        ],
        # a secret creature with hit dice spends them in secret after a secret end of the fight
        "secret_hit_dice": [
            {
                **_DND_SPY,
                "sheet": {**_DND_SPY["sheet"], "hit_dice": {"count": 4, "sides": 8}},
            },
            {"kind": "damage", "target": f"{CANARY}-spy", "amount": 5, "type": "fire"},
            {"kind": "end_combat"},
            {"kind": "spend_hit_dice", "creature": f"{CANARY}-spy", "count": 2},
        ],
        # a fight begun anew in secret, in which a secret hell hound breathes fire at Ada
        "secret_breath": [
            {"kind": "end_combat"},
            {
                "kind": "add_monster",
                "id": f"{CANARY}-hound",
                "monster": "hell-hound",
                "secret": True,
                "position": "b3",
            },
            {"kind": "start_combat", "rolls": {f"{CANARY}-hound": 20, "ada": 1, "gob": 1}},
            {
                "kind": "monster_action",
                "creature": f"{CANARY}-hound",
                "action": "Fire Breath",
                "targets": ["ada"],
            },
        ],
        # a secret caster's lasting Shield (its effect, its AC) and a save it makes behind it
        "secret_monster_shielded": [
            _DND_SPY,
            {"kind": "cast", "creature": f"{CANARY}-spy", "spell": "shield"},
            {"kind": "save", "creature": f"{CANARY}-spy", "ability": "con", "dc": 30},
            {"kind": "damage", "target": f"{CANARY}-spy", "amount": 2, "type": "fire"},
        ],
    },
    player={
        "add_character": {**_DND_ADA, "id": "lu", "name": "Lu", "position": "a3"},
        "move": {"kind": "move", "creature": "ada", "steps": [{"to": "a2"}]},
        "attack": {"kind": "attack", "creature": "ada", "target": "gob", "attack": "Longsword"},
        "action": {"kind": "action", "creature": "ada", "action": "dodge"},
        "help": {
            "kind": "action",
            "creature": "ada",
            "action": "help",
            "target": "ada",
            "help": "check",
        },
        "ready": {
            "kind": "ready",
            "creature": "ada",
            "trigger": "the goblin comes close",
            "attack": "Longsword",
            "target": "gob",
        },
        "bonus_action": {"kind": "bonus_action", "creature": "ada", "feature": "Second Wind"},
        "react": {"kind": "react", "creature": "ada"},
        "death_save": {"kind": "death_save", "creature": "ada"},
        "grapple": {"kind": "grapple", "creature": "ada", "target": "gob"},
        "shove": {"kind": "shove", "creature": "ada", "target": "gob", "effect": "push"},
        "escape": {"kind": "escape", "creature": "ada"},
        "end_turn": {"kind": "end_turn"},
        "cast": {"kind": "cast", "creature": "ada", "spell": "fire-bolt", "targets": ["gob"]},
        "drop_concentration": {"kind": "drop_concentration", "creature": "ada"},
        # refused in a fight (and Ada has no hit dice): the refusal names no secret
        "spend_hit_dice": {"kind": "spend_hit_dice", "creature": "ada"},
        # Ada has no stat block: refused naming her own action only
        "monster_action": {
            "kind": "monster_action",
            "creature": "ada",
            "action": "Fire Breath",
            "targets": ["gob"],
        },
        "shield": {"kind": "shield", "creature": "ada", "cast": False},
        # an area around the caster (Spirit Guardians): the view lists who is inside
        "cast_guardians": {
            "kind": "cast",
            "creature": "ada",
            "spell": "spirit-guardians",
            "damage_type": "necrotic",
        },
        # a lasting effect with its d4 on the blessed creature's rolls
        "cast_bless": {"kind": "cast", "creature": "ada", "spell": "bless", "targets": ["ada"]},
        # a template over the square of a secret creature: it is neither hit nor shown inside
        "cast_area": {
            "kind": "cast",
            "creature": "ada",
            "spell": "fireball",
            "area": {"origin": "h8"},
        },
    },
    probes=[
        Probe(
            "monster",
            {"kind": "attack", "creature": "ada", "target": f"{CANARY}-spy", "attack": "Longsword"},
            f"{CANARY}-spy",
        ),
        Probe(
            "monster",
            {"kind": "cast", "creature": "ada", "spell": "fire-bolt", "targets": [f"{CANARY}-spy"]},
            f"{CANARY}-spy",
        ),
        Probe(
            "bestiary_monster",
            {"kind": "attack", "creature": "ada", "target": f"{CANARY}-rat", "attack": "Longsword"},
            f"{CANARY}-rat",
        ),
        Probe(
            "monster",
            {"kind": "grapple", "creature": "ada", "target": f"{CANARY}-spy"},
            f"{CANARY}-spy",
        ),
        Probe(
            "monster",
            {"kind": "action", "creature": "ada", "action": "help", "target": f"{CANARY}-spy"},
            f"{CANARY}-spy",
        ),
        Probe(
            "monster",
            {
                "kind": "ready",
                "creature": "ada",
                "trigger": "it comes",
                "attack": "Longsword",
                "target": f"{CANARY}-spy",
            },
            f"{CANARY}-spy",
        ),
        Probe(
            "monster",
            {"kind": "move", "creature": f"{CANARY}-spy", "steps": [{"to": "h7"}]},
            f"{CANARY}-spy",
        ),
        Probe(
            "monster",
            {"kind": "move", "creature": "ada", "steps": [{"to": "a2"}], "drag": f"{CANARY}-spy"},
            f"{CANARY}-spy",
        ),
    ],
)

WHISPERS: dict[str, list[Step]] = {
    "whisper": [Whisper("gm", "confidant", f"{CANARY} psst\nzweite Zeile")],
    "whisper_roll": [Whisper("confidant", "gm", f"/r 2W6+3 # {CANARY} Schaden")],
    "whisper_undo": [Whisper("gm", "confidant", f"/r W20 # {CANARY} ups"), UNDO_LAST],
}
"""Whispers the third party must never see, at every table."""

SAY: dict[str, Step] = {"say": {"kind": "say", "text": "/r 1W6 # mine"}}
"""The player's chat command, at every table."""


def _with_chat(samples: Samples) -> Samples:
    return replace(
        samples,
        hidden={**samples.hidden, **WHISPERS},
        player={**samples.player, **SAY},
    )


SAMPLES: list[Samples] = [
    _with_chat(s) for s in (KITTIES, KILKENNY, FREE_DICE, HEXXEN, KREISWANDERER, DND5E)
]
"""Every system the leak suite covers; a new system adds its entry here."""


# -- contact: visible commands with a position meet something hidden ------------------------

LURKER = "Lurker"
"""The name of the secret creature a contact discovers: it may reach everyone once touched."""


@dataclass(frozen=True)
class ContactSamples:
    """What the contact suite (``test_contact.py``) plays at a table of one system with
    positions.

    ``setup`` is visible; ``secret`` are the GM's hidden steps: a secret creature named
    :data:`LURKER` on ``square``, plus hidden things that carry :data:`CANARY` and must stay
    hidden even after the lurker is discovered. ``probe(square)`` is a player's command aimed
    at a square (``POST /check`` is asked for every square of ``squares``). ``runs`` are the
    visible commands with a position, each of which runs into the lurker, by who issues them.
    ``positions(state)`` lists ``(id, square)`` of every token in the GM's view, for the check
    that no two share a square. ``pending``: why the system does not implement contact yet
    (its runs are expected to fail until it does).
    """

    system: str
    setup: list[tuple[Who, Step]]
    secret: list[Step]
    square: str
    squares: list[str]
    probe: Callable[[str], dict[str, Any]]
    runs: dict[str, tuple[Who, Step]]
    positions: Callable[[dict[str, Any]], list[tuple[str, str]]]
    options: dict[str, Any] = field(default_factory=dict)
    pending: str | None = None


def _squares(width: int, height: int) -> list[str]:
    files = "abcdefghijklmnopqrstuvwxyz"
    return [f"{files[x]}{y + 1}" for x in range(width) for y in range(height)]


FREE_DICE_CONTACT = ContactSamples(
    system="free-dice",
    setup=[
        ("gm", {"kind": "set_map", "width": 8, "height": 6}),
        (
            "player",
            {"kind": "add_character", "id": "mia", "name": "Mia", "initiative": "20", "at": "a1"},
        ),
        ("gm", {"kind": "add_combatant", "id": "rat", "name": "Rat", "at": "h6"}),
        ("gm", {"kind": "roll_initiative", "combatants": ["rat", "mia"]}),
        ("gm", {"kind": "start_fight"}),
    ],
    secret=[
        {
            "kind": "add_combatant",
            "id": "lurker",
            "name": LURKER,
            "initiative": "15",
            "secret": True,
            "at": "c1",
        },
        {"kind": "roll_initiative", "combatants": ["lurker"]},
        {"kind": "apply_effect", "target": "lurker", "name": f"{CANARY} veil"},
        {**_SPY, "at": "h1"},
        {"kind": "paint", "squares": ["f4"], "terrain": "wall"},
        {"kind": "roll", "expression": "1d6", "label": f"{CANARY} aside"},
    ],
    square="c1",
    squares=_squares(8, 6),
    probe=lambda square: {"kind": "move", "combatant": "mia", "to": square},
    runs={
        "move_through": (
            "player",
            {"kind": "move", "combatant": "mia", "to": "d1", "path": ["b1", "c1", "d1"]},
        ),
        "move_onto": ("player", {"kind": "move", "combatant": "mia", "to": "c1"}),
        "add_character": (
            "player",
            {"kind": "add_character", "id": "lu", "name": "Lu", "at": "c1"},
        ),
        "gm_free_move": ("gm", {"kind": "move", "combatant": "rat", "to": "c1", "free": True}),
        "gm_add_combatant": (
            "gm",
            {"kind": "add_combatant", "id": "ork", "name": "Ork", "at": "c1"},
        ),
    },
    positions=lambda state: [
        (c["id"], c["position"]) for c in state["combatants"] if c["position"] is not None
    ],
)

HEXXEN_CONTACT = ContactSamples(
    system="hexxen",
    setup=[
        ("player", {**_HUNTER, "id": "ada", "name": "Ada"}),
        ("gm", {"kind": "set_map", "width": 6, "height": 6}),
        ("player", {"kind": "place", "target": "ada", "to": "a1"}),
    ],
    secret=[
        {
            "kind": "create_npc",
            "id": "lurker",
            "name": LURKER,
            "statblock": "LeP 9",
            "secret": True,
        },
        {"kind": "place", "target": "lurker", "to": "c3"},
        {**_HIDDEN_NPC, "secret": True},
        {"kind": "place", "target": f"{CANARY}-npc", "to": "f6"},
    ],
    square="c3",
    squares=_squares(6, 6),
    probe=lambda square: {"kind": "place", "target": "ada", "to": square},
    runs={"place": ("player", {"kind": "place", "target": "ada", "to": "c3"})},
    positions=lambda state: [
        (piece["id"], piece["position"])
        for piece in [*state["hunters"], *state["npcs"]]
        if piece.get("position") is not None
    ],
)

DND5E_CONTACT = ContactSamples(
    system="dnd5e",
    options={"width": 8, "height": 8},
    setup=[
        ("player", _DND_ADA),
        ("gm", {"kind": "add_monster", "id": "gob", "monster": "goblin", "position": "h8"}),
        ("gm", {"kind": "start_combat"}),
        ("gm", _dnd_ada_first),
    ],
    secret=[
        {
            "kind": "add_monster",
            "id": "lurker",
            "side": "foes",
            "secret": True,
            "position": "c1",
            "sheet": {
                "id": "lurker",
                "name": LURKER,
                "ac": 13,
                "hp": 9,
                "attacks": ["Bite: +4, 5 (1d6+2) piercing"],
            },
        },
        {"kind": "condition", "target": "lurker", "condition": "prone"},
        {"kind": "damage", "target": "lurker", "amount": 2, "type": "necrotic"},
        {**_DND_RAT, "position": "h1"},
    ],
    square="c1",
    squares=_squares(8, 8),
    probe=lambda square: {**_DND_ADA, "id": "lu", "name": "Lu", "position": square},
    runs={
        "move": (
            "player",
            {
                "kind": "move",
                "creature": "ada",
                "steps": [{"to": "b1"}, {"to": "c1"}, {"to": "d1"}],
            },
        ),
        "add_character": ("player", {**_DND_ADA, "id": "lu", "name": "Lu", "position": "c1"}),
    },
    positions=lambda state: [
        (f["id"], f["position"]) for f in state["fighters"] if f.get("position") is not None
    ],
)

CONTACTS: list[ContactSamples] = [FREE_DICE_CONTACT, HEXXEN_CONTACT, DND5E_CONTACT]
"""Every system with positions in the contact suite; a system's engineer adds its runs."""
