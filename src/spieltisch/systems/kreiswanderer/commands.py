"""The commands of a Kreiswanderer table: JSON objects told apart by their field ``kind``.

Who may issue which command is decided by :meth:`.system.Kreiswanderer.access`: the GM may
issue every command; a player acts for the beings they created. GM ease or hardship and the
target of a check are :class:`~spieltisch.engine.permissions.GmOnly`.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BeforeValidator, Field, StrictBool, StrictInt, TypeAdapter

from spieltisch.engine.permissions import GmOnly, Secret
from spieltisch.engine.system import exact_int
from spieltisch.engine.text import Name, Ref
from spieltisch.systems.kreiswanderer.sheet import (
    MAX_ITEMS,
    CatalogueSkill,
    Haltung,
    Lean,
    Marking,
    Skill,
    Sonderfertigkeit,
    Weapon,
)

__all__ = [
    "COMMANDS",
    "AccumulateAbandon",
    "AccumulateRoll",
    "AccumulateStart",
    "Act",
    "AdjustTrack",
    "AssignDice",
    "Attack",
    "BeingSheet",
    "CarryOut",
    "Check",
    "CombinedCheck",
    "Command",
    "Comparative",
    "CreateBeing",
    "DealDamage",
    "Dodge",
    "EditBeing",
    "EndCombat",
    "EndTurn",
    "Extinguish",
    "Heal",
    "JoinFight",
    "LeaveFight",
    "Rest",
    "SetCatalogue",
    "StartCombat",
    "SwitchHaltung",
    "UseBegabung",
]

Modifier = Annotated[StrictInt, Field(ge=-99, le=99), GmOnly("kreiswanderer.field.modifier")]
Target = Annotated[StrictInt | None, Field(ge=0, le=999), GmOnly("kreiswanderer.field.target")]
Tools = Annotated[StrictInt, Field(ge=-99, le=99)]
"""Tools and time spent: a bonus or malus of the acting side (not the GM's ease)."""
OpponentTools = Annotated[
    StrictInt, Field(ge=-99, le=99), GmOnly("kreiswanderer.field.opponent_tools")
]
DamageType = Literal["PH", "BR", "EN", "TR"]


class _Command(Lean):
    """A command; fields added after the first edition are lean (left out at their default),
    so the commands of old logs dump as they were recorded."""


class BeingSheet(_Command):
    """A new being's sheet (checked against the table options)."""

    lean = ("ap", "species", "native_language")

    name: Name
    side: Ref = "party"
    attributes: dict[Ref, Annotated[StrictInt, Field(ge=-20, le=99)]]
    skills: dict[Ref, Skill] = Field(default_factory=dict, max_length=MAX_ITEMS)
    hp: Annotated[StrictInt, Field(ge=1, le=999)]
    mp: Annotated[StrictInt, Field(ge=0, le=999)] = 0
    resistances: dict[Literal["PH", "BR", "EN", "TR"], Annotated[StrictInt, Field(ge=0, le=99)]] = (
        Field(default_factory=dict)
    )
    markings: tuple[Marking, ...] = Field(default=(), max_length=MAX_ITEMS)
    weapons: tuple[Weapon, ...] = Field(default=(), max_length=MAX_ITEMS)
    sonderfertigkeiten: dict[Ref, Sonderfertigkeit] = Field(
        default_factory=dict, max_length=MAX_ITEMS
    )
    begabungen: tuple[Ref, ...] = Field(default=(), max_length=MAX_ITEMS)
    haltungen: dict[Ref, Haltung] = Field(default_factory=dict, max_length=MAX_ITEMS)
    magic_cost: Annotated[StrictInt, Field(ge=0, le=9)] = 1
    ap: Annotated[StrictInt, Field(ge=1, le=9)] | None = None
    """Action points per round (none: the table's, as a rule 1)."""
    species: Ref | None = None
    native_language: Ref | None = None
    """The skill of its native language (held at 0)."""


class CreateBeing(_Command):
    """Create a being; a player creating one becomes its owner. ``secret``: GM only."""

    kind: Literal["create_being"] = "create_being"
    id: Ref
    sheet: BeingSheet
    secret: Annotated[StrictBool, GmOnly("kreiswanderer.field.secret"), Secret()] = False


class EditBeing(_Command):
    """Edit a being's sheet (its GM or its owner): ``sheet`` replaces the sheet as a whole.

    Current hit and magic points stay (lowered to a smaller maximum); the log records every
    entry that changed, old → new.
    """

    kind: Literal["edit_being"] = "edit_being"
    being: Ref
    sheet: BeingSheet


class Check(_Command):
    """A Talentprobe; ``sonderfertigkeit`` adds its bonus for one magic point."""

    kind: Literal["check"] = "check"
    being: Ref
    attribute: Ref
    skill: Ref
    modifier: Modifier = 0
    tools: Tools = 0
    target: Target = None
    sonderfertigkeit: Ref | None = None


class CombinedCheck(_Command):
    """A combined check: one attribute and the lowest of the skills (with modifiers)."""

    kind: Literal["combined_check"] = "combined_check"
    lean = ("tools",)
    being: Ref
    attribute: Ref
    skills: tuple[Ref, ...] = Field(min_length=1, max_length=MAX_ITEMS)
    modifier: Modifier = 0
    tools: Tools = 0
    target: Target = None


class Comparative(_Command):
    """A comparative check of ``being`` (active) against ``opponent`` (passive)."""

    kind: Literal["comparative"] = "comparative"
    lean = ("tools", "opponent_tools")
    being: Ref
    attribute: Ref
    skill: Ref
    opponent: Ref
    opponent_attribute: Ref
    opponent_skill: Ref
    modifier: Modifier = 0
    opponent_modifier: Modifier = 0
    tools: Tools = 0
    opponent_tools: OpponentTools = 0


class AccumulateStart(_Command):
    """Begin an accumulated check with a fixed number of rolls or a target quality."""

    kind: Literal["accumulate_start"] = "accumulate_start"
    id: Ref
    being: Ref
    attribute: Ref
    skill: Ref
    rolls: Annotated[StrictInt, Field(ge=1, le=50)] | None = None
    quality: Annotated[StrictInt, Field(ge=0, le=999)] | None = None
    modifier: Modifier = 0
    tools: Tools = 0
    target: Target = None


class AccumulateRoll(_Command):
    """Roll once more for an accumulated check."""

    kind: Literal["accumulate_roll"] = "accumulate_roll"
    id: Ref


class AccumulateAbandon(_Command):
    """Close an open accumulated check without a result (to begin the work anew)."""

    kind: Literal["accumulate_abandon"] = "accumulate_abandon"
    id: Ref


class SetCatalogue(_Command):
    """GM: the table's skill catalogue, as a whole (name → depth, attribute, species)."""

    kind: Literal["set_catalogue"] = "set_catalogue"
    skills: dict[Ref, CatalogueSkill] = Field(default_factory=dict, max_length=200)


class StartCombat(_Command):
    """GM: a fight begins; every combatant rolls 2d10."""

    kind: Literal["start_combat"] = "start_combat"
    combatants: tuple[Ref, ...] = Field(min_length=1, max_length=MAX_ITEMS)


class AssignDice(_Command):
    """Choose which of the two dice becomes the dodge value (the other: initiative)."""

    kind: Literal["assign_dice"] = "assign_dice"
    being: Ref
    dodge: Annotated[Literal[0, 1], BeforeValidator(exact_int)]


class Attack(_Command):
    """Attack with a weapon (1 Ap, or ``cost`` Ap for a technique, begun if too few)."""

    kind: Literal["attack"] = "attack"
    lean = ("tools",)
    being: Ref
    target: Ref
    weapon: Name
    cost: Annotated[StrictInt, Field(ge=1, le=9)] = 1
    modifier: Modifier = 0
    tools: Tools = 0


class Act(_Command):
    """Any named action of ``cost`` Ap (a ritual, a spell): done at once when the Ap are
    there, else begun and carried out once later rounds paid it. ``magical``: costs a magic
    act when it is done."""

    kind: Literal["act"] = "act"
    being: Ref
    name: Name
    cost: Annotated[StrictInt, Field(ge=1, le=9)] = 1
    magical: StrictBool = False


class JoinFight(_Command):
    """GM: a being joins the running fight (reinforcements); it rolls its 2d10."""

    kind: Literal["join_fight"] = "join_fight"
    being: Ref


class LeaveFight(_Command):
    """A being leaves the fight: it flees (its owner or the GM) or the GM removes it."""

    kind: Literal["leave_fight"] = "leave_fight"
    being: Ref
    how: Literal["flee", "remove"] = "flee"


class DealDamage(_Command):
    """GM: damage outside an attack (a trap, poison, a fall, fire): ``amount`` of one
    damage type, reduced by the being's resistance; ``markings`` act like a weapon's."""

    kind: Literal["deal_damage"] = "deal_damage"
    being: Ref
    amount: Annotated[StrictInt, Field(ge=0, le=999)]
    damage_type: DamageType = "PH"
    markings: tuple[Marking, ...] = Field(default=(), max_length=MAX_ITEMS)
    reason: Name


class Heal(_Command):
    """GM: hit or magic points restored outside a rest (a potion, a spell), with the reason."""

    kind: Literal["heal"] = "heal"
    being: Ref
    amount: Annotated[StrictInt, Field(ge=1, le=999)]
    track: Literal["tp", "mp"] = "tp"
    reason: Name


class CarryOut(_Command):
    """Carry out a begun technique or action once its Ap are paid."""

    kind: Literal["carry_out"] = "carry_out"
    being: Ref
    action: Annotated[StrictInt, Field(ge=1)]


class Dodge(_Command):
    """Give up the action: the dodge value rises by a fitting skill until the next round."""

    kind: Literal["dodge"] = "dodge"
    being: Ref
    skill: Ref | None = None
    attribute: Ref | None = None


class SwitchHaltung(_Command):
    """Activate or deactivate a Haltung (1 MP; ½ Ap in a fight)."""

    kind: Literal["switch_haltung"] = "switch_haltung"
    being: Ref
    haltung: Ref
    active: StrictBool


class UseBegabung(_Command):
    """Use a Begabung: 1 MP, no roll."""

    kind: Literal["use_begabung"] = "use_begabung"
    being: Ref
    begabung: Ref


class Extinguish(_Command):
    """Put out a fire burning on a being (1 Ap in a fight)."""

    kind: Literal["extinguish"] = "extinguish"
    being: Ref


class EndTurn(_Command):
    """End the current combatant's turn."""

    kind: Literal["end_turn"] = "end_turn"


class EndCombat(_Command):
    """GM: the fight is over."""

    kind: Literal["end_combat"] = "end_combat"


class Rest(_Command):
    """Rest and sleep (in half hours): hit and magic points regenerate."""

    kind: Literal["rest"] = "rest"
    being: Ref
    rest_halfhours: Annotated[StrictInt, Field(ge=0, le=480)] = 0
    sleep_halfhours: Annotated[StrictInt, Field(ge=0, le=480)] = 0


class AdjustTrack(_Command):
    """GM: set a being's hit or magic points."""

    kind: Literal["adjust_track"] = "adjust_track"
    being: Ref
    track: Literal["tp", "mp"]
    value: Annotated[StrictInt, Field(ge=0, le=999)]


Command = Annotated[
    CreateBeing
    | EditBeing
    | Check
    | CombinedCheck
    | Comparative
    | AccumulateStart
    | AccumulateRoll
    | AccumulateAbandon
    | SetCatalogue
    | StartCombat
    | AssignDice
    | Attack
    | Act
    | JoinFight
    | LeaveFight
    | DealDamage
    | Heal
    | CarryOut
    | Dodge
    | SwitchHaltung
    | UseBegabung
    | Extinguish
    | EndTurn
    | EndCombat
    | Rest
    | AdjustTrack,
    Field(discriminator="kind"),
]
COMMANDS: TypeAdapter[Command] = TypeAdapter(Command)
"""Parses and dumps Kreiswanderer commands."""
