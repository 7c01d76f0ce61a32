"""The commands of a HeXXen table: JSON objects told apart by their field ``kind``.

Who may issue which is :meth:`.system.Hexxen.access`: a player creates hunters and acts for
the hunters he created; NSC, effects, modifiers and the fight are the GM's. Every command
forbids unknown fields, numbers are strict and bounded, texts follow the text rules.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StrictBool, StrictInt, StrictStr, TypeAdapter

from spieltisch.engine.permissions import GmOnly, Secret
from spieltisch.engine.text import Name, Note, Ref, text_rule
from spieltisch.systems.hexxen.sheet import _Frozen

__all__ = [
    "COMMANDS",
    "AddHex",
    "ApplyEffect",
    "ChangeLep",
    "ChangeResource",
    "Command",
    "CreateHunter",
    "CreateNpc",
    "DeclareAttack",
    "Defend",
    "EditHunter",
    "EndFight",
    "HunterCheck",
    "HunterContest",
    "NextTurn",
    "NpcAttack",
    "NpcCheck",
    "NpcPower",
    "Place",
    "RemoveEffect",
    "SetBound",
    "SetMap",
    "SetModifier",
    "SetSkill",
    "StartFight",
]

MAX_ITEMS = 40
"""Longest list or mapping a command may carry."""

Small = Annotated[StrictInt, Field(ge=0, le=20)]
Modifier = Annotated[StrictInt, Field(ge=0, le=5)]
Level = Annotated[StrictInt, Field(ge=1, le=10)]
SquareRef = Annotated[StrictStr, Field(min_length=2, max_length=8), text_rule(8)]
Attribute = Literal["KKR", "ATH", "GES", "SIN", "WIS", "WIL"]
EffectId = Literal["outer_damage", "inner_damage", "malus", "paralysis"]
Tag = Annotated[StrictStr, Field(min_length=1, max_length=40, pattern=r"^[^\[\]()\n]+$")]


class _Command(_Frozen):
    """A command: frozen, no unknown fields; fields added later are left out of its JSON
    while they hold their default (a recorded command replays as recorded)."""


class CreateHunter(_Command):
    """A new hunter; skills default to the list in data/skills.json (value 0)."""

    kind: Literal["create_hunter"] = "create_hunter"
    id: Ref
    name: Name
    attributes: dict[Literal["KKR", "ATH", "GES", "SIN", "WIS", "WIL"], Small]
    skills: dict[Name, Small] = Field(default_factory=dict, max_length=MAX_ITEMS)
    skill_attributes: dict[Name, Literal["KKR", "ATH", "GES", "SIN", "WIS", "WIL"]] = Field(
        default_factory=dict, max_length=MAX_ITEMS
    )
    armour: Small = 0
    unempfindlichkeit: Small = 0
    reflexe: Small = 0
    ideen: Small = 0
    coups: Small = 0
    esprit: Small = 0


class EditHunter(_Command):
    """Correct a hunter's sheet: name, attributes (only those given), armour and the
    values LeP and INI derive from; LeP and INI are derived again."""

    kind: Literal["edit_hunter"] = "edit_hunter"
    hunter: Ref
    name: Name | None = None
    attributes: dict[Attribute, Small] = Field(default_factory=dict)
    armour: Small | None = None
    unempfindlichkeit: Small | None = None
    reflexe: Small | None = None


class SetSkill(_Command):
    """Set a skill's value (a new skill names its attribute)."""

    kind: Literal["set_skill"] = "set_skill"
    hunter: Ref
    skill: Name
    value: Small
    attribute: Literal["KKR", "ATH", "GES", "SIN", "WIS", "WIL"] | None = None


class CreateNpc(_Command):
    """A new NSC from its Wertekasten text (attack, power and value lines)."""

    kind: Literal["create_npc"] = "create_npc"
    id: Ref
    name: Name
    npc_kind: Literal["anfuehrer", "bande"] = "anfuehrer"
    level: Annotated[StrictInt, Field(ge=1, le=99)] = 1
    statblock: Note = ""
    secret: Annotated[StrictBool, Secret()] = False


class SetBound(_Command):
    """Gebunden (in melee) or freistehend: with ``other``, the pair ``target``–``other``
    (a hunter and an NSC; it wins over the map); without, a flag on ``target`` (``bound:
    false`` also frees it from everyone it is bound with)."""

    _added = frozenset({"other"})

    kind: Literal["set_bound"] = "set_bound"
    target: Ref
    bound: StrictBool
    other: Ref | None = None


class SetModifier(_Command):
    """A lasting bonus and malus of a hunter or NSC (besides Malusstufen)."""

    kind: Literal["set_modifier"] = "set_modifier"
    target: Ref
    bonus: Modifier = 0
    malus: Modifier = 0


class ApplyEffect(_Command):
    """Give an ongoing effect (levels add up to the cap), optionally named by a tag
    (``Furcht``): a tagged effect is a condition of its own with its tag's decay."""

    _added = frozenset({"tag"})

    kind: Literal["apply_effect"] = "apply_effect"
    target: Ref
    effect: EffectId
    level: Level = 1
    tag: Tag | None = None


class RemoveEffect(_Command):
    """End an ongoing effect (the one with this tag, if given)."""

    _added = frozenset({"tag"})

    kind: Literal["remove_effect"] = "remove_effect"
    target: Ref
    effect: EffectId
    tag: Tag | None = None


class AddHex(_Command):
    """The GM adds Hex to an NSC at any time (negative: takes them away, not below 0)."""

    kind: Literal["add_hex"] = "add_hex"
    npc: Ref
    amount: Annotated[StrictInt, Field(ge=-99, le=99)]


class NpcCheck(_Command):
    """An NSC's check: an Anführer rolls an attribute, a Bande its fixed pool; against a
    hunter (``against`` and his ``skill``) it is a comparative check. ``handlungen`` it
    costs in the fight (0: none, e.g. outside its turn)."""

    kind: Literal["npc_check"] = "npc_check"
    npc: Ref
    attribute: Attribute | None = None
    against: Ref | None = None
    skill: Name | None = None
    bonus: Modifier = 0
    malus: Modifier = 0
    hunter_bonus: Modifier = 0
    hunter_malus: Modifier = 0
    handlungen: Annotated[StrictInt, Field(ge=0, le=5)] = 0


class ChangeLep(_Command):
    """Lose (negative) or regain (positive) LeP."""

    kind: Literal["change_lep"] = "change_lep"
    target: Ref
    amount: Annotated[StrictInt, Field(ge=-99, le=99)]


class ChangeResource(_Command):
    """Spend (negative) or gain Ideen, Coups or Esprit."""

    kind: Literal["change_resource"] = "change_resource"
    hunter: Ref
    resource: Literal["ideen", "coups", "esprit"]
    delta: Annotated[StrictInt, Field(ge=-20, le=20)]


class StartFight(_Command):
    """Begin a fight with these hunters and NSC (default: everyone); ``roll_ini``: the table
    rolls 1d6 for each and adds it to INI (a house rule, table option ``ini_roll``)."""

    _added = frozenset({"roll_ini"})

    kind: Literal["start_fight"] = "start_fight"
    combatants: tuple[Ref, ...] = Field(default=(), max_length=MAX_ITEMS)
    roll_ini: StrictBool = False


class NextTurn(_Command):
    """End the current turn; after the last one the INI-0 phase and a new round follow."""

    kind: Literal["next_turn"] = "next_turn"


class EndFight(_Command):
    """End the fight (ongoing effects stay)."""

    kind: Literal["end_fight"] = "end_fight"


class HunterCheck(_Command):
    """A hunter's check: attribute + skill HeXXen dice; the hunter pays Ap, Ideen, Coups."""

    kind: Literal["hunter_check"] = "hunter_check"
    hunter: Ref
    skill: Name
    attribute: Literal["KKR", "ATH", "GES", "SIN", "WIS", "WIL"] | None = None
    bonus: Modifier = 0
    malus: Modifier = 0
    ap: Small = 0
    ideen: Small = 0
    coups: Small = 0


class HunterContest(_Command):
    """A hunter, active, against an NSC, which rolls its fixed dice for free."""

    _added = frozenset({"npc_attribute"})

    kind: Literal["hunter_contest"] = "hunter_contest"
    hunter: Ref
    skill: Name
    npc: Ref
    npc_dice: Annotated[StrictInt | None, Field(ge=0, le=99), GmOnly("hexxen.field.npc_dice")] = (
        None
    )
    attribute: Literal["KKR", "ATH", "GES", "SIN", "WIS", "WIL"] | None = None
    bonus: Modifier = 0
    malus: Modifier = 0
    ap: Small = 0
    ideen: Small = 0
    coups: Small = 0
    npc_attribute: Annotated[Attribute | None, GmOnly("hexxen.field.npc_attribute")] = None
    """The attribute the NSC defends with (default: the one the hunter's check rolls)."""


class NpcAttack(_Command):
    """An NSC's attack line against a hunter, who may parry or dodge for Ap."""

    kind: Literal["npc_attack"] = "npc_attack"
    npc: Ref
    attack: Name
    target: Ref
    bonus: Modifier = 0
    malus: Modifier = 0
    defense: Literal["none", "parry", "dodge"] = "none"
    defense_skill: Name | None = None
    hunter_bonus: Modifier = 0
    hunter_malus: Modifier = 0


class DeclareAttack(_Command):
    """An NSC announces an attack line against a hunter; the hunter's player then chooses
    his defence (:class:`Defend`) and the attack is rolled."""

    kind: Literal["declare_attack"] = "declare_attack"
    npc: Ref
    attack: Name
    target: Ref
    bonus: Modifier = 0
    malus: Modifier = 0


class Defend(_Command):
    """The hunter's answer to the declared attack: no reaction, parry or dodge (for Ap);
    rolls the attack and the defence."""

    kind: Literal["defend"] = "defend"
    hunter: Ref
    defense: Literal["none", "parry", "dodge"] = "none"
    defense_skill: Name | None = None
    bonus: Modifier = 0
    malus: Modifier = 0


class Place(_Command):
    """Put a hunter's or an NSC's token on a square of the battle map."""

    kind: Literal["place"] = "place"
    target: Ref
    to: SquareRef


class SetMap(_Command):
    """The battle map's size in squares (every token must stay on it)."""

    kind: Literal["set_map"] = "set_map"
    width: Annotated[StrictInt, Field(ge=2, le=40)]
    height: Annotated[StrictInt, Field(ge=2, le=40)]


class NpcPower(_Command):
    """An NSC's Handlungskraft: one comparative check against each target's skill."""

    kind: Literal["npc_power"] = "npc_power"
    npc: Ref
    power: Name
    targets: tuple[Ref, ...] = Field(min_length=1, max_length=MAX_ITEMS)
    bonus: Modifier = 0
    malus: Modifier = 0


Command = Annotated[
    CreateHunter
    | EditHunter
    | SetSkill
    | CreateNpc
    | SetBound
    | SetModifier
    | ApplyEffect
    | RemoveEffect
    | ChangeLep
    | ChangeResource
    | StartFight
    | NextTurn
    | EndFight
    | HunterCheck
    | HunterContest
    | NpcAttack
    | NpcPower
    | DeclareAttack
    | Defend
    | Place
    | SetMap
    | AddHex
    | NpcCheck,
    Field(discriminator="kind"),
]
"""Any HeXXen command."""

COMMANDS: TypeAdapter[Command] = TypeAdapter(Command)
"""Parses and dumps HeXXen commands."""
