"""The commands of a D&D 5e table: JSON objects told apart by ``kind``.

GM-only: entering monsters, starting the fight, damage, healing and conditions. A player acts
for the character they created (``add_character`` claims it). An attack's ``advantage`` and
``disadvantage`` flags are the GM's rulings on circumstances the table does not track (a hidden
attacker, long range, …), so they are :class:`~spieltisch.engine.permissions.GmOnly`; the
sources the table does track (conditions, Dodge, Help, prone, a hostile creature close to a
ranged attacker) apply to everyone's attacks by themselves.
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import (
    AfterValidator,
    ConfigDict,
    Field,
    StrictBool,
    StrictFloat,
    StrictInt,
    StrictStr,
    TypeAdapter,
)

from spieltisch.engine.grid import Size
from spieltisch.engine.permissions import GmOnly, Secret
from spieltisch.engine.text import Name, Note, Ref, text_rule
from spieltisch.systems.dnd5e.conditions import ConditionDuration
from spieltisch.systems.dnd5e.cover import Cover
from spieltisch.systems.dnd5e.data import SKILLS, damage_type
from spieltisch.systems.dnd5e.hitdice import MAX_HIT_DICE, HitDice
from spieltisch.systems.dnd5e.later import Later
from spieltisch.systems.dnd5e.movement import MoveStep
from spieltisch.systems.dnd5e.spells import Spellcasting, SpellId

__all__ = ["ACTIONS", "COMMANDS", "Command"]

ACTIONS = (
    "cast_spell",
    "dash",
    "disengage",
    "dodge",
    "help",
    "hide",
    "search",
    "use_object",
    "use_magic_item",
    "improvised",
)
"""Actions besides Attack (the command ``attack``) and Ready (the command ``ready``)."""

ActionName = Literal[
    "cast_spell",
    "dash",
    "disengage",
    "dodge",
    "help",
    "hide",
    "search",
    "use_object",
    "use_magic_item",
    "improvised",
]
Speed = (
    Annotated[StrictInt, Field(ge=0, le=300)]
    | Annotated[StrictFloat, Field(ge=0, le=300, multiple_of=0.5, allow_inf_nan=False)]
)
"""A speed in metres: whole metres, or a multiple of 0.5 m (7.5 m is 25 ft, 10.5 m 35 ft);
kept as given (a whole number stays a whole number in the log)."""
SpeedName = Literal["walk", "fly", "climb", "swim"]
Ability = Literal["str", "dex", "con", "int", "wis", "cha"]
DamageType = Annotated[StrictStr, Field(max_length=20), text_rule(20), AfterValidator(damage_type)]
"""One of the closed list of damage types, in English or German, any case (kept as its id)."""
Square = Annotated[StrictStr, Field(max_length=8), text_rule(8)]
"""A square of the battle map by name (``C4``)."""
AttackLine = Annotated[StrictStr, Field(max_length=200), text_rule(200)]
"""An attack of a typed-in sheet, as its stat-block line."""


def _skill(text: str) -> str:
    if text not in SKILLS:
        raise ValueError(f"unknown skill {text!r}")
    return text


Skill = Annotated[StrictStr, Field(max_length=20, pattern=r"^[a-z_]+$"), AfterValidator(_skill)]
"""One of the SRD skills by id (``athletics``, ``stealth``, ``sleight_of_hand`` …)."""
Situational = Annotated[StrictInt, Field(ge=-10, le=10)]
"""A situational modifier the GM sets on a roll (added to its bonus)."""


def _walk_9() -> dict[SpeedName, int | float]:
    return {"walk": 9}


class _Command(Later):
    model_config = ConfigDict(frozen=True, extra="forbid")


class _Sheet(_Command):
    later: ClassVar[frozenset[str]] = frozenset(
        {"skills", "passive_perception", "multiattack", "spellcasting", "hit_dice"}
    )
    id: Ref
    name: Name
    size: Size = Size.MEDIUM
    ac: StrictInt = Field(default=10, ge=0, le=40)
    hp: StrictInt = Field(default=1, ge=1, le=2000)
    speeds: dict[SpeedName, Speed] = Field(default_factory=_walk_9)
    reach_m: Literal["1.5", "3", "4.5", "6"] = "1.5"
    abilities: dict[Ability, Annotated[StrictInt, Field(ge=1, le=30)]] = Field(default_factory=dict)
    skills: dict[Skill, Annotated[StrictInt, Field(ge=-10, le=30)]] = Field(default_factory=dict)
    passive_perception: StrictInt | None = Field(default=None, ge=0, le=50)
    attacks: tuple[AttackLine, ...] = Field(default=(), max_length=10)
    attacks_per_action: StrictInt = Field(default=1, ge=1, le=8)
    multiattack: tuple[Name, ...] = Field(default=(), max_length=8)
    """The attacks of the Multiattack action by name (a name twice: two such attacks); when
    given, the Attack action is exactly this mix."""
    bonus_actions: tuple[Name, ...] = Field(default=(), max_length=10)
    hover: StrictBool = False
    resistances: tuple[DamageType, ...] = Field(default=(), max_length=13)
    vulnerabilities: tuple[DamageType, ...] = Field(default=(), max_length=13)
    immunities: tuple[DamageType, ...] = Field(default=(), max_length=13)
    position: Square | None = None
    spellcasting: Spellcasting | None = None
    """The spellcasting ability, caster level, spell save DC, spell attack bonus, slots per
    spell level and the spells the creature can cast."""
    hit_dice: HitDice | None = None
    """The creature's hit dice (``{"count": 5, "sides": 10}``), spent on a short rest."""


class AddCharacter(_Sheet):
    """A player enters their character (side ``party``); the player becomes its owner."""

    kind: Literal["add_character"] = "add_character"


class AddMonster(_Command):
    """The GM enters a monster: from the bestiary (``monster``) or typed in (``sheet``)."""

    kind: Literal["add_monster"] = "add_monster"
    id: Ref
    side: Ref = "foes"
    monster: Ref | None = None
    sheet: _Sheet | None = None
    position: Square | None = None
    secret: Annotated[StrictBool, Secret()] = False


class StartCombat(_Command):
    """Roll initiative (d20 + Dexterity modifier) for every placed creature; round 1 starts.

    ``rolls`` are d20 results rolled at the table (a player's own die), by creature; the table
    rolls the d20 of everyone not listed.
    """

    kind: Literal["start_combat"] = "start_combat"
    rolls: dict[Ref, Annotated[StrictInt, Field(ge=1, le=20)]] = Field(default_factory=dict)


TerrainKind = Literal["difficult", "wall", "water"]


class Terrain(_Command):
    """The GM paints terrain on squares (``None``: plain ground again)."""

    kind: Literal["terrain"] = "terrain"
    squares: tuple[Square, ...] = Field(min_length=1, max_length=400)
    terrain: TerrainKind | None = None


GroundHeight = (
    Annotated[StrictInt, Field(ge=-100, le=100)]
    | Annotated[StrictFloat, Field(ge=-100, le=100, multiple_of=0.5, allow_inf_nan=False)]
)
"""A ground height in metres, in steps of 0.5 m (below 0: a pit)."""


class Ground(_Command):
    """The GM sets the ground height of squares in metres: a ledge, a pit (0: level again)."""

    kind: Literal["ground"] = "ground"
    squares: tuple[Square, ...] = Field(min_length=1, max_length=400)
    height_m: GroundHeight


class Move(_Command):
    """The creature in its turn moves along ``steps`` (and may stand up or drop prone first);
    ``drag`` names a creature it grapples and drags along (at half speed unless that creature
    is two or more sizes smaller)."""

    kind: Literal["move"] = "move"
    later: ClassVar[frozenset[str]] = frozenset({"drag"})
    creature: Ref
    steps: tuple[MoveStep, ...] = Field(default=(), max_length=100)
    stand_up: StrictBool = False
    drop_prone: StrictBool = False
    drag: Ref | None = None


class React(_Command):
    """A reactor answers a pending opportunity attack: attack with ``attack`` or decline."""

    kind: Literal["react"] = "react"
    creature: Ref
    attack: Name | None = None


class Attack(_Command):
    """One attack of the Attack action (the first one takes the action)."""

    kind: Literal["attack"] = "attack"
    later: ClassVar[frozenset[str]] = frozenset({"modifier", "cover"})
    creature: Ref
    target: Ref
    attack: Name
    advantage: Annotated[StrictBool, GmOnly("dnd5e.field.advantage")] = False
    disadvantage: Annotated[StrictBool, GmOnly("dnd5e.field.disadvantage")] = False
    modifier: Annotated[Situational, GmOnly("dnd5e.field.modifier")] = 0
    cover: Annotated[Cover | None, GmOnly("dnd5e.field.cover")] = None
    """The GM's ruling on the target's cover (None: derived from the map)."""


class TakeAction(_Command):
    """Any other action; for Help ``target`` is the ally helped and ``foe`` (attack help) the
    enemy within 1.5 m of the helper; ``task`` (check help) the skill or ability of the task
    helped with (None: the ally's next check of any kind)."""

    kind: Literal["action"] = "action"
    later: ClassVar[frozenset[str]] = frozenset({"task"})
    creature: Ref
    action: ActionName
    target: Ref | None = None
    foe: Ref | None = None
    help: Literal["attack", "check"] = "attack"
    task: Ref | None = None


class Ready(_Command):
    """The Ready action: a perceivable ``trigger`` and the reaction to it, either one attack
    (``attack`` against ``target``) or another action described in ``action``."""

    kind: Literal["ready"] = "ready"
    creature: Ref
    trigger: Note
    attack: Name | None = None
    target: Ref | None = None
    action: Note | None = None


class Trigger(_Command):
    """The GM confirms that the trigger of ``creature``'s readied action happened: its
    reaction is spent and the readied action happens."""

    kind: Literal["trigger"] = "trigger"
    creature: Ref


class BonusAction(_Command):
    """A bonus action a feature of the creature grants (named as on its sheet)."""

    kind: Literal["bonus_action"] = "bonus_action"
    creature: Ref
    feature: Name


class EndTurn(_Command):
    """The current creature ends its turn."""

    kind: Literal["end_turn"] = "end_turn"


class Damage(_Command):
    """The GM deals damage of a type (resistance, vulnerability, immunity apply)."""

    kind: Literal["damage"] = "damage"
    target: Ref
    amount: StrictInt = Field(ge=0, le=10000)
    type: DamageType = "bludgeoning"
    critical: StrictBool = False


class Heal(_Command):
    """The GM heals hit points or grants temporary hit points."""

    kind: Literal["heal"] = "heal"
    target: Ref
    amount: StrictInt = Field(ge=0, le=10000)
    temporary: StrictBool = False


class Condition(_Command):
    """The GM puts a condition on a creature or takes it off; ``source`` is the creature it
    comes from (the charmer, the source of fear), ``duration`` how long it lasts (default:
    until removed)."""

    kind: Literal["condition"] = "condition"
    later: ClassVar[frozenset[str]] = frozenset({"source", "duration"})
    target: Ref
    condition: Ref
    remove: StrictBool = False
    source: Ref | None = None
    duration: ConditionDuration | None = None


class Save(_Command):
    """The GM has a creature roll a saving throw against a DC: d20 + ``bonus`` (default: the
    ability's modifier), the mode from the tracked sources (Dodge, restrained, …)."""

    kind: Literal["save"] = "save"
    later: ClassVar[frozenset[str]] = frozenset({"advantage", "disadvantage", "modifier"})
    creature: Ref
    ability: Ability
    dc: StrictInt = Field(ge=1, le=40)
    bonus: StrictInt | None = Field(default=None, ge=-20, le=30)
    advantage: StrictBool = False
    disadvantage: StrictBool = False
    modifier: Situational = 0


class Check(_Command):
    """The GM has a creature make an ability check against a DC: a skill (its bonus from the
    sheet, else its ability's modifier) or a plain ``ability``; Help on a check and the
    conditions set the mode, the GM may grant advantage, impose disadvantage and add a
    situational modifier."""

    kind: Literal["check"] = "check"
    creature: Ref
    skill: Skill | None = None
    ability: Ability | None = None
    dc: StrictInt = Field(ge=1, le=40)
    bonus: StrictInt | None = Field(default=None, ge=-20, le=30)
    advantage: StrictBool = False
    disadvantage: StrictBool = False
    modifier: Situational = 0


class Grapple(_Command):
    """Grapple (one attack of the Attack action): the creature's Strength (Athletics) against
    the target's Strength (Athletics) or Dexterity (Acrobatics), the better of the two; a win
    grapples the target (speed 0)."""

    kind: Literal["grapple"] = "grapple"
    creature: Ref
    target: Ref


class Shove(_Command):
    """Shove (one attack of the Attack action): the same contest as a grapple; a win knocks
    the target prone (``effect`` ``prone``) or pushes it 1.5 m away (``push``)."""

    kind: Literal["shove"] = "shove"
    creature: Ref
    target: Ref
    effect: Literal["prone", "push"] = "prone"


class Escape(_Command):
    """A grappled creature uses its action to escape: its Strength (Athletics) or Dexterity
    (Acrobatics), the better, against the grappler's Strength (Athletics)."""

    kind: Literal["escape"] = "escape"
    creature: Ref


class DeathSave(_Command):
    """The current creature, at 0 hit points, rolls its death save."""

    kind: Literal["death_save"] = "death_save"
    creature: Ref


# ---------------------------------------------------------------- spells


class Placement(_Command):
    """Where an area spell's template goes: its ``origin`` square and, for a cone, line or
    cube, the square it points ``toward``."""

    origin: Square
    toward: Square | None = None


class Cast(_Command):
    """The creature casts a spell of its list with a slot of ``slot`` level (none for a
    cantrip; default: the spell's own level) at ``targets`` or into an area placed at
    ``area``; a reaction spell may be cast in another creature's turn."""

    kind: Literal["cast"] = "cast"
    later: ClassVar[frozenset[str]] = frozenset({"damage_type", "spared"})
    creature: Ref
    spell: SpellId
    slot: StrictInt | None = Field(default=None, ge=0, le=9)
    targets: tuple[Ref, ...] = Field(default=(), max_length=20)
    area: Placement | None = None
    damage_type: Literal["radiant", "necrotic"] | None = None
    """An aura spell's damage type (Spirit Guardians; default: radiant)."""
    spared: tuple[Ref, ...] | None = Field(default=None, max_length=50)
    """The creatures an aura spell leaves unaffected (default: the caster's side)."""


class Shield(_Command):
    """The target of a hit that waits (rules edition 4) decides: cast Shield with its
    reaction and a slot of ``slot`` level (default: the lowest it has left) — +5 AC, against
    this attack too — or let the hit stand (``cast: false``)."""

    kind: Literal["shield"] = "shield"
    creature: Ref
    cast: StrictBool = True
    slot: StrictInt | None = Field(default=None, ge=1, le=9)


class DropConcentration(_Command):
    """The creature stops concentrating on its spell, at will (free: no action, any turn);
    the spell's conditions and lasting effects end with it."""

    kind: Literal["drop_concentration"] = "drop_concentration"
    creature: Ref


class EndCombat(_Command):
    """The GM ends the fight: no turn order any more (a rest may follow)."""

    kind: Literal["end_combat"] = "end_combat"


class Rest(_Command):
    """The GM has ``creatures`` (default: every living creature at the table) take a short
    or a long rest, outside a fight: a long rest restores all hit points and spell slots; a
    short rest restores a warlock's pact slots."""

    kind: Literal["rest"] = "rest"
    length: Literal["short", "long"]
    creatures: tuple[Ref, ...] = Field(default=(), max_length=100)


class MonsterAction(_Command):
    """A save action of a monster's stat block (a breath weapon, a gaze) taken as its action in
    its own turn and forced on ``targets`` (the creatures in its area, as the GM names them)."""

    kind: Literal["monster_action"] = "monster_action"
    creature: Ref
    action: Name
    targets: tuple[Ref, ...] = Field(min_length=1, max_length=50)


class SpendHitDice(_Command):
    """A character spends ``count`` of its hit dice to heal, outside a fight (at the end of
    a short rest): each die heals its roll plus the Constitution modifier."""

    kind: Literal["spend_hit_dice"] = "spend_hit_dice"
    creature: Ref
    count: StrictInt = Field(default=1, ge=1, le=MAX_HIT_DICE)


# ---------------------------------------------------------------- legendary and lair actions


class Legendary(_Command):
    """A legendary action of a monster at the end of another creature's turn (GM): an
    attack against ``target``, a save forced on ``targets``, or another action (narrated)."""

    kind: Literal["legendary"] = "legendary"
    creature: Ref
    action: Name
    target: Ref | None = None
    targets: tuple[Ref, ...] = Field(default=(), max_length=20)


class LegendaryResistance(_Command):
    """The GM turns the monster's latest failed saving throw into a success (one of its
    legendary resistances)."""

    kind: Literal["legendary_resistance"] = "legendary_resistance"
    creature: Ref


class Lair(_Command):
    """The GM marks a monster as in its lair (lair actions on initiative count 20) or not."""

    kind: Literal["lair"] = "lair"
    creature: Ref
    in_lair: StrictBool = True


class LairAction(_Command):
    """The GM takes the round's lair action of a monster in its lair, described in ``text``."""

    kind: Literal["lair_action"] = "lair_action"
    creature: Ref
    text: Note


# ---------------------------------------------------------------- falling

Height = (
    Annotated[StrictInt, Field(ge=0, le=1000)]
    | Annotated[StrictFloat, Field(ge=0, le=1000, multiple_of=0.5, allow_inf_nan=False)]
)
"""A height in metres (whole metres or a multiple of 0.5 m)."""


class Fall(_Command):
    """The GM has a creature fall ``height_m`` metres (1d6 per 3 m, at most 20d6; prone);
    without ``height_m`` it falls from the height it flew at."""

    kind: Literal["fall"] = "fall"
    later: ClassVar[frozenset[str]] = frozenset({"height_m"})
    creature: Ref
    height_m: Height | None = None


Command = Annotated[
    AddCharacter
    | AddMonster
    | StartCombat
    | Terrain
    | Ground
    | Move
    | React
    | Attack
    | TakeAction
    | Ready
    | Trigger
    | BonusAction
    | EndTurn
    | Damage
    | Heal
    | Condition
    | Save
    | Check
    | Grapple
    | Shove
    | Escape
    | DeathSave
    | Cast
    | Shield
    | DropConcentration
    | EndCombat
    | Rest
    | MonsterAction
    | SpendHitDice
    | Legendary
    | LegendaryResistance
    | Lair
    | LairAction
    | Fall,
    Field(discriminator="kind"),
]
COMMANDS: TypeAdapter[Command] = TypeAdapter(Command)
