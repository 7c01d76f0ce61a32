"""The events of a Kreiswanderer table: what happened, with every die that was rolled.

Events carry their dice and results, so :mod:`.evolve` applies them without rolling and a
replay of the log gives the same table.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated, Literal

from pydantic import Field, JsonValue, TypeAdapter

from spieltisch.systems.kreiswanderer.sheet import Accumulation, Being, CatalogueSkill, Lean

__all__ = [
    "EVENTS",
    "AccumulationAbandoned",
    "AccumulationRolled",
    "AccumulationStarted",
    "ActionBegun",
    "ActionDone",
    "ApSpent",
    "Attacked",
    "BeingCreated",
    "BeingEdited",
    "CatalogueSet",
    "CheckRolled",
    "CombatEnded",
    "CombatStarted",
    "ComparativeRolled",
    "DamageDealt",
    "DiceAssigned",
    "Dodged",
    "Event",
    "Extinguished",
    "ExtraDamage",
    "FightJoined",
    "FightLeft",
    "HaltungSwitched",
    "Healed",
    "MagicUsed",
    "Rested",
    "SheetChange",
    "Side",
    "TrackAdjusted",
    "TurnEnded",
]


class _Event(Lean):
    """An event; fields added after the first edition are :class:`~.sheet.Lean`."""


class BeingCreated(_Event):
    """A being joined the table."""

    kind: Literal["being_created"] = "being_created"
    being: Being


class SheetChange(_Event):
    """One entry of a sheet an edit changed: ``old`` → ``new`` (``None``: absent)."""

    field: str
    """The entry: ``hp``, ``attributes.agilitaet``, ``weapons.Schwert`` …"""
    old: JsonValue = None
    new: JsonValue = None


class BeingEdited(_Event):
    """A being's sheet was edited: its new sheet and every entry that changed."""

    kind: Literal["being_edited"] = "being_edited"
    being: Being
    changes: tuple[SheetChange, ...]


class MagicUsed(_Event):
    """A magical act: its cost in MP, or an overload (1d10 damage, no resistance)."""

    kind: Literal["magic_used"] = "magic_used"
    being: str
    act: str
    cost: int
    overload: tuple[int, ...] = ()
    """The d10 of an overload (empty when the MP sufficed)."""


class CheckRolled(_Event):
    """A Talentprobe or a combined check and its outcome."""

    kind: Literal["check_rolled"] = "check_rolled"
    number: int
    being: str
    attribute: str
    skills: tuple[str, ...]
    combined: bool = False
    talent_value: int
    target: int
    rolls: tuple[int, ...]
    result: int
    passed: bool
    quality: int
    critical: Literal["success", "failure"] | None


class Side(_Event):
    """One side of a comparative check."""

    being: str
    talent_value: int
    rolls: tuple[int, ...]
    result: int


class ComparativeRolled(_Event):
    """A comparative check: each side's result is the other's target."""

    kind: Literal["comparative_rolled"] = "comparative_rolled"
    lean = ("critical",)
    number: int
    active: Side
    passive: Side
    winner: Literal["active", "passive"]
    quality: int
    """The winner's margin over the loser's result."""
    critical: Literal["success"] | None = None
    """``success`` when that margin is at least 10: the winner's critical success (and the
    loser's critical failure). Edition 2 on."""


class AccumulationStarted(_Event):
    """An accumulated check was defined (it cannot be redefined)."""

    kind: Literal["accumulation_started"] = "accumulation_started"
    accumulation: Accumulation


class AccumulationRolled(_Event):
    """One roll of an accumulated check.

    ``result`` is what the roll added: its dice, plus the Talentwert on the first roll (the
    seed's reading) or on every roll (option ``accumulation: every_roll``).
    """

    kind: Literal["accumulation_rolled"] = "accumulation_rolled"
    lean = ("critical",)
    id: str
    rolls: tuple[int, ...]
    result: int
    total: int
    finished: bool
    quality: int
    """Total − target so far (negative: not yet reached)."""
    critical: Literal["success", "failure"] | None = None
    """On the last roll: a quality (or Fehlqualität) of at least 10. Edition 2 on."""


class AccumulationAbandoned(_Event):
    """An open accumulated check was closed without a result."""

    kind: Literal["accumulation_abandoned"] = "accumulation_abandoned"
    id: str


class CatalogueSet(_Event):
    """The GM set the table's skill catalogue."""

    kind: Literal["catalogue_set"] = "catalogue_set"
    skills: dict[str, CatalogueSkill]


class CombatStarted(_Event):
    """A fight began; each combatant rolled two d10."""

    kind: Literal["combat_started"] = "combat_started"
    dice: dict[str, tuple[int, int]]


class FightJoined(_Event):
    """A being joined the running fight and rolled its two d10."""

    kind: Literal["fight_joined"] = "fight_joined"
    being: str
    dice: tuple[int, int]


class FightLeft(_Event):
    """A being left the fight: it fled or the GM removed it."""

    kind: Literal["fight_left"] = "fight_left"
    being: str
    how: Literal["flee", "remove"]


class DiceAssigned(_Event):
    """A combatant chose its dodge and initiative; the last choice starts round 1."""

    kind: Literal["dice_assigned"] = "dice_assigned"
    being: str
    dodge: int
    initiative: int


class ApSpent(_Event):
    """Action points paid."""

    kind: Literal["ap_spent"] = "ap_spent"
    being: str
    amount: Decimal
    purpose: str


class ActionBegun(_Event):
    """A technique costing more Ap than are left was begun; it completes over rounds."""

    kind: Literal["action_begun"] = "action_begun"
    being: str
    action: str
    cost: int
    detail: dict[str, str | int]


class ExtraDamage(_Event):
    """A Zusatzschaden marking's part of a hit: its type, value and damage after resistance."""

    damage_type: str
    value: int
    damage: int


class Attacked(_Event):
    """An attack and what it did."""

    kind: Literal["attacked"] = "attacked"
    being: str
    target: str
    weapon: str
    talent_value: int
    target_value: int
    rolls: tuple[int, ...]
    result: int
    passed: bool
    quality: int
    critical: Literal["success", "failure"] | None
    damage: int
    """Hit points lost in all: the weapon's part and every extra damage."""
    damage_type: str
    protection: int = 0
    """The target's ``schutz`` against the weapon's class, taken off the weapon's part."""
    extra: tuple[ExtraDamage, ...] = ()
    """Zusatzschaden markings of the weapon (included in ``damage``)."""
    ignites: bool = False
    """The weapon's Langzeiteffekt (Feuer) set the target burning."""
    action: int | None = None
    """The begun technique carried out (None: a direct attack)."""


class ActionDone(_Event):
    """A named action (a ritual, a spell …) was done: at once, or carried out once paid."""

    kind: Literal["action_done"] = "action_done"
    being: str
    name: str
    cost: int
    magical: bool = False
    action: int | None = None
    """The begun action carried out (None: done at once)."""


class DamageDealt(_Event):
    """Damage outside an attack: its type and amount, what resistance and Schutz took off,
    the extra damage of its markings, the hit points lost, and why."""

    kind: Literal["damage_dealt"] = "damage_dealt"
    being: str
    damage_type: str
    amount: int
    resistance: int
    protection: int = 0
    extra: tuple[ExtraDamage, ...] = ()
    damage: int
    """Hit points lost in all."""
    ignites: bool = False
    reason: str


class Healed(_Event):
    """Hit or magic points restored outside a rest, and why."""

    kind: Literal["healed"] = "healed"
    being: str
    track: Literal["tp", "mp"]
    amount: int
    value: int
    """The points the being has now (at most its maximum)."""
    reason: str


class Dodged(_Event):
    """A combatant gave up its action to dodge better until the next round."""

    kind: Literal["dodged"] = "dodged"
    being: str
    bonus: int
    skill: str | None = None
    """The skill dodged with (Akrobatik or another fitting one)."""


class HaltungSwitched(_Event):
    """A Haltung was activated or deactivated."""

    kind: Literal["haltung_switched"] = "haltung_switched"
    being: str
    haltung: str
    active: bool


class Extinguished(_Event):
    """A fire on a being was put out."""

    kind: Literal["extinguished"] = "extinguished"
    being: str


class TurnEnded(_Event):
    """The current turn ended (round ends, ticks and refreshes follow by the rules)."""

    kind: Literal["turn_ended"] = "turn_ended"


class CombatEnded(_Event):
    """The fight is over."""

    kind: Literal["combat_ended"] = "combat_ended"


class Rested(_Event):
    """A being rested and slept and now has these hit and magic points."""

    kind: Literal["rested"] = "rested"
    lean = ("sleep_carry", "rest_carry")
    being: str
    rest_halfhours: int
    sleep_halfhours: int
    tp: int
    mp: int
    sleep_carry: int | None = None
    """Half hours of sleep carried to the next rest toward a hit point (edition 2)."""
    rest_carry: int | None = None
    """Half hours carried to the next rest toward a magic point (edition 2)."""


class TrackAdjusted(_Event):
    """The GM set a being's hit or magic points."""

    kind: Literal["track_adjusted"] = "track_adjusted"
    being: str
    track: str
    value: int


Event = Annotated[
    BeingCreated
    | BeingEdited
    | MagicUsed
    | CheckRolled
    | ComparativeRolled
    | AccumulationStarted
    | AccumulationRolled
    | AccumulationAbandoned
    | CatalogueSet
    | CombatStarted
    | FightJoined
    | FightLeft
    | DiceAssigned
    | ApSpent
    | ActionBegun
    | Attacked
    | ActionDone
    | DamageDealt
    | Healed
    | Dodged
    | HaltungSwitched
    | Extinguished
    | TurnEnded
    | CombatEnded
    | Rested
    | TrackAdjusted,
    Field(discriminator="kind"),
]
EVENTS: TypeAdapter[Event] = TypeAdapter(Event)
"""Parses and dumps Kreiswanderer events."""
