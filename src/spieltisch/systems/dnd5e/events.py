"""The events of a D&D 5e table: what happened, with every die rolled.

Attack events carry the d20s and the damage dice as rolled; :mod:`.evolve` derives hits,
criticals and damage from them again when it folds the event, so the rules live in one place.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated, ClassVar, Literal

from pydantic import ConfigDict, Field, TypeAdapter

from spieltisch.engine.encounter import Combatant
from spieltisch.systems.dnd5e.areas import Template
from spieltisch.systems.dnd5e.conditions import ConditionDuration
from spieltisch.systems.dnd5e.cover import Cover
from spieltisch.systems.dnd5e.later import Later
from spieltisch.systems.dnd5e.movement import JumpCheck, TurnMovement
from spieltisch.systems.dnd5e.state import CheckRoll, Fighter, PendingMove, ReadiedAction

__all__ = ["EVENTS", "Event"]


class _Frozen(Later):
    model_config = ConfigDict(frozen=True, extra="forbid")


class _Event(_Frozen):
    pass


class FighterAdded(_Event):
    """A creature entered the table."""

    kind: Literal["fighter_added"] = "fighter_added"
    fighter: Fighter


class CombatStarted(_Event):
    """Initiative was rolled: (creature, d20) in entry order; round 1 begins."""

    kind: Literal["combat_started"] = "combat_started"
    rolls: tuple[tuple[str, int], ...]


class TerrainSet(_Event):
    """Squares got a terrain kind, or plain ground (``None``)."""

    kind: Literal["terrain_set"] = "terrain_set"
    squares: tuple[str, ...]
    terrain: str | None = None


class GroundSet(_Event):
    """Squares got a ground height in metres (``"0"``: level ground again)."""

    kind: Literal["ground_set"] = "ground_set"
    squares: tuple[str, ...]
    height_m: str


class Dragged(_Frozen):
    """A grappled creature dragged along a move: its ``path`` (square names, the start first)
    runs beside the mover's, one square for each of the mover's."""

    creature: str
    path: tuple[str, ...]


class Moved(_Event):
    """A creature moved along ``path`` (square names, the start first)."""

    kind: Literal["moved"] = "moved"
    creature: str
    path: tuple[str, ...]
    movement: TurnMovement
    stood_up: bool = False
    dropped_prone: bool = False
    airborne: bool = False
    pending: PendingMove | None = None
    later: ClassVar[frozenset[str]] = frozenset({"rolls", "drag", "altitude_m"})
    checks: tuple[JumpCheck, ...] = ()
    """DC 10 checks the move's jumps call for."""
    rolls: tuple[CheckRoll, ...] = ()
    """The jump checks as the table rolled them, in route order up to the first failure
    (which stopped the move there and left the mover prone)."""
    drag: Dragged | None = None
    """The grappled creature the mover dragged along, if any."""
    altitude_m: Decimal = Decimal(0)
    """The mover's height above the ground at the end (flying)."""


class Attacked(_Event):
    """An attack roll and its damage dice (rolled before knowing whether it hits).

    ``d20`` holds one die, or two with advantage or disadvantage (``mode``); ``dice`` the
    damage dice of each part, the critical's extra dice after them.
    """

    kind: Literal["attacked"] = "attacked"
    later: ClassVar[frozenset[str]] = frozenset(
        {
            "rider",
            "rider_dice",
            "modifier",
            "legendary",
            "cover",
            "effect_dice",
            "mark_dice",
            "rider_effect_dice",
            "held",
        }
    )
    attacker: str
    target: str
    attack: str
    mode: Literal["normal", "advantage", "disadvantage"]
    d20: tuple[int, ...]
    dice: tuple[tuple[int, ...], ...]
    modifier: int = 0
    """A situational modifier the GM set on the roll (added to the attack bonus)."""
    rider: tuple[int, ...] = ()
    """On a hit with a rider save: the target's d20s (none: it failed by itself)."""
    rider_dice: tuple[tuple[int, ...], ...] = ()
    """On a hit with a rider save: its damage dice by part (doubled on a critical)."""
    opportunity: bool = False
    readied: bool = False
    """The attack of a readied action (its reaction is paid by :class:`ReadyFired`)."""
    legendary: bool = False
    """The attack of a legendary action (paid by :class:`LegendaryUsed`)."""
    cover: Cover = "none"
    """The target's cover as decided (from the map, or the GM's ruling): added to its AC."""
    effect_dice: tuple[int, ...] = ()
    """The dice of lasting spell effects on the roll as rolled (Bless's d4 added, Bane's
    subtracted; in the order of :func:`.lasting.roll_dice`)."""
    mark_dice: tuple[int, ...] = ()
    """On a hit of a target the attacker marked (Hunter's Mark): the extra damage dice as
    rolled (doubled on a critical), of the weapon's first damage type."""
    rider_effect_dice: tuple[int, ...] = ()
    """On a hit with a rider save (rules edition 3): the dice of the lasting spell effects on
    the target's save as rolled (Bless's d4, Bane's)."""
    held: bool = False
    """A hit on a creature that may cast Shield (rules edition 4): the roll waits for its
    decision (:class:`~.state.HeldHit`), without damage dice; the ``attacked`` event that
    follows the decision carries the same roll and the damage."""


class Declined(_Event):
    """A reactor let the opportunity attack pass."""

    kind: Literal["declined"] = "declined"
    creature: str


class ActionTaken(_Event):
    """An action other than Attack."""

    kind: Literal["action_taken"] = "action_taken"
    later: ClassVar[frozenset[str]] = frozenset({"check", "found", "task", "helped"})
    creature: str
    action: str
    target: str | None = None
    foe: str | None = None
    help: Literal["attack", "check"] = "attack"
    task: str | None = None
    """Help on a check: the skill or ability of the task helped with (None: any check)."""
    check: CheckRoll | None = None
    """Hide: the Stealth check (hidden when it reaches every hostile passive Perception);
    Search: the Perception check (it finds each hidden foe whose Stealth it reaches)."""
    found: tuple[str, ...] = ()
    """Search: the hidden creatures it found."""
    helped: bool = False
    """Hide and Search (rules edition 7): Help on the check was used up by it."""


class Readied(_Event):
    """The Ready action: the creature's action is spent, the readied action stored."""

    kind: Literal["readied"] = "readied"
    creature: str
    readied: ReadiedAction


class ReadyFired(_Event):
    """The trigger happened: the readier's reaction is spent, its readied action used up."""

    kind: Literal["ready_fired"] = "ready_fired"
    creature: str


class BonusTaken(_Event):
    """A bonus action a feature granted."""

    kind: Literal["bonus_taken"] = "bonus_taken"
    later: ClassVar[frozenset[str]] = frozenset({"check"})
    creature: str
    feature: str
    check: CheckRoll | None = None
    """A bonus action ``hide``: its Stealth check."""


class TurnEnded(_Event):
    """The current turn ended; the next begins."""

    kind: Literal["turn_ended"] = "turn_ended"


class Damaged(_Event):
    """Damage the GM dealt (before resistance, vulnerability, immunity)."""

    kind: Literal["damaged"] = "damaged"
    target: str
    amount: int
    type: str
    critical: bool = False


class Healed(_Event):
    """Healing, or temporary hit points (which replace lower ones, never add)."""

    kind: Literal["healed"] = "healed"
    target: str
    amount: int
    temporary: bool = False


class ConditionSet(_Event):
    """A condition put on or taken off."""

    kind: Literal["condition_set"] = "condition_set"
    later: ClassVar[frozenset[str]] = frozenset({"source", "duration"})
    target: str
    condition: str
    remove: bool = False
    source: str | None = None
    duration: ConditionDuration | None = None


class CheckRolled(_Event):
    """An ability check the GM called for (a skill or a plain ability) against a DC."""

    kind: Literal["check_rolled"] = "check_rolled"
    creature: str
    roll: CheckRoll
    helped: bool = False
    """Help on this check was used up by it."""


class Contested(_Event):
    """A contest of grapple, shove or escape: both checks as rolled; the active side wins
    only with the higher total (a tie leaves things as they were)."""

    kind: Literal["contested"] = "contested"
    later: ClassVar[frozenset[str]] = frozenset({"active_helped", "passive_helped"})
    creature: str
    target: str
    action: Literal["grapple", "shove_prone", "shove_push", "escape"]
    active: CheckRoll
    passive: CheckRoll
    won: bool
    push_to: str | None = None
    """A won push: the square the target is pushed to (forced movement: no opportunity
    attacks, no movement spent)."""
    active_helped: bool = False
    """Help on the active side's check was used up by it (rules edition 7; before, a contest
    left the Help standing)."""
    passive_helped: bool = False
    """Help on the passive side's check was used up by it (rules edition 7)."""


class RevealedCreature(_Frozen):
    """A creature a move ran into, as the GM's fold has it (no longer secret)."""

    fighter: Fighter
    combatant: Combatant | None = None
    """Its place in the GM's initiative (it joins the shared fight with it)."""


class Revealed(_Event):
    """A move ran into something hidden (see :mod:`.contact`): the creatures and walls it
    touched become visible to the table."""

    kind: Literal["revealed"] = "revealed"
    creatures: tuple[RevealedCreature, ...] = ()
    walls: tuple[str, ...] = ()


class SaveRolled(_Event):
    """A saving throw: the d20s rolled (none for an automatic failure) against the DC."""

    kind: Literal["save_rolled"] = "save_rolled"
    later: ClassVar[frozenset[str]] = frozenset({"effect_dice"})
    creature: str
    ability: str
    dc: int
    bonus: int
    mode: Literal["normal", "advantage", "disadvantage"]
    d20: tuple[int, ...]
    succeeded: bool
    effect_dice: tuple[int, ...] = ()
    """The dice of lasting spell effects on the roll as rolled (Bless's d4 added, Bane's
    subtracted; in the order of :func:`.lasting.roll_dice`)."""


class DeathSaved(_Event):
    """A death save with this d20."""

    kind: Literal["death_saved"] = "death_saved"
    later: ClassVar[frozenset[str]] = frozenset({"effect_dice", "boost"})
    creature: str
    d20: int
    effect_dice: tuple[int, ...] = ()
    """The dice of lasting spell effects on the save as rolled (rules edition 3)."""
    boost: int = 0
    """What those dice add to the d20 (Bane's subtract), so the log can tell the outcome; a
    boost that is not the dice's is refused when the event is folded."""


# ---------------------------------------------------------------- spells


class SpellTarget(_Frozen):
    """What one creature rolled against a spell: the caster's attack d20s or its own save
    d20s (none: no roll, or a save failed by itself), and the damage or healing dice (an
    attack's doubled on a critical)."""

    later: ClassVar[frozenset[str]] = frozenset({"effect_dice"})
    target: str
    mode: Literal["normal", "advantage", "disadvantage"] = "normal"
    d20: tuple[int, ...] = ()
    dice: tuple[int, ...] = ()
    effect_dice: tuple[int, ...] = ()
    """The dice of lasting spell effects on the d20 roll as rolled (the caster's on an
    attack, the target's on a save: Bless's d4 added, Bane's subtracted)."""


class SpellCast(_Event):
    """A spell cast with a slot (0: a cantrip) as an action, bonus action or reaction, at
    its targets or into its template; :mod:`.evolve` derives hits, saves, damage, healing and
    conditions from the dice again."""

    kind: Literal["spell_cast"] = "spell_cast"
    later: ClassVar[frozenset[str]] = frozenset({"damage_type", "spared", "held"})
    creature: str
    spell: str
    slot: int
    casting: Literal["action", "bonus_action", "reaction"]
    template: Template | None = None
    targets: tuple[SpellTarget, ...] = ()
    damage_type: str | None = None
    """An aura spell's damage type as chosen (rules edition 4; Spirit Guardians: radiant or
    necrotic)."""
    spared: tuple[str, ...] | None = None
    """The creatures an aura spell spares (``None``: the caster's side)."""
    held: tuple[str, ...] = ()
    """The targets able to cast Shield that an attack hit or a Magic Missile dart is aimed at
    (rules edition 5): their rolls carry no damage dice and wait for their decisions
    (:class:`~.state.HeldSpell`); :class:`SpellLanded` follows each decision."""


class SpellLanded(_Event):
    """A spell's rolls at one creature that waited for its decision to cast Shield (rules
    edition 5), with their damage dice as the decision made them (the same rolls as held)."""

    kind: Literal["spell_landed"] = "spell_landed"
    creature: str
    spell: str
    slot: int
    targets: tuple[SpellTarget, ...]


class AuraStruck(_Event):
    """A creature entered an aura spell's area for the first time on a turn or started its
    turn there (rules edition 4): its save against the caster's spell save DC (``d20`` empty:
    it failed by itself) and the damage dice, halved on a save."""

    kind: Literal["aura_struck"] = "aura_struck"
    caster: str
    creature: str
    mode: Literal["normal", "advantage", "disadvantage"]
    d20: tuple[int, ...]
    effect_dice: tuple[int, ...] = ()
    dice: tuple[int, ...]


class ConcentrationSaved(_Event):
    """A concentrating creature took ``damage`` and rolled its Constitution save against DC
    max(10, half the damage); a failure ends the spell."""

    kind: Literal["concentration_saved"] = "concentration_saved"
    later: ClassVar[frozenset[str]] = frozenset({"effect_dice"})
    creature: str
    spell: str
    damage: int
    dc: int
    bonus: int
    mode: Literal["normal", "advantage", "disadvantage"]
    d20: tuple[int, ...]
    kept: bool
    effect_dice: tuple[int, ...] = ()
    """The dice of lasting spell effects on the roll as rolled (Bless's d4 added, Bane's
    subtracted; in the order of :func:`.lasting.roll_dice`)."""


class ConcentrationEnded(_Event):
    """Concentration ended without a save: the creature fell to 0 hit points, became
    incapacitated or dropped it at will."""

    kind: Literal["concentration_ended"] = "concentration_ended"
    creature: str
    spell: str
    reason: Literal["down", "incapacitated", "dropped"]


class CombatEnded(_Event):
    """The GM ended the fight."""

    kind: Literal["combat_ended"] = "combat_ended"


class Rested(_Event):
    """Creatures took a short or a long rest (see :func:`.evolve.rested`)."""

    kind: Literal["rested"] = "rested"
    length: Literal["short", "long"]
    creatures: tuple[str, ...]


class MonsterActionUsed(_Event):
    """A monster took a save action of its stat block as its action (its saves follow as
    ``save_action``); one with a recharge (5: on a 5 or 6) is spent until it recharges."""

    kind: Literal["monster_action_used"] = "monster_action_used"
    creature: str
    action: str
    recharge: int | None = None


class Recharged(_Event):
    """At the start of its turn a monster rolled a d6 for a spent action: ``ready`` again when
    the roll reached the action's recharge."""

    kind: Literal["recharged"] = "recharged"
    creature: str
    action: str
    roll: int
    ready: bool


class HitDiceSpent(_Event):
    """A creature spent hit dice: their ``rolls`` and the hit points they ``healed``."""

    kind: Literal["hit_dice_spent"] = "hit_dice_spent"
    creature: str
    rolls: tuple[int, ...]
    healed: int


# ---------------------------------------------------------------- legendary and lair actions


class LegendaryOffered(_Event):
    """A creature's turn is ending: the GM may take legendary actions of ``monsters`` before
    the next turn begins (``end_turn`` again passes)."""

    kind: Literal["legendary_offered"] = "legendary_offered"
    creature: str
    monsters: tuple[str, ...]


class LegendaryUsed(_Event):
    """A legendary action of ``cost`` was taken (its attack or save follows as its own
    event)."""

    kind: Literal["legendary_used"] = "legendary_used"
    creature: str
    action: str
    cost: int


class TargetSave(_Frozen):
    """One target's saving throw against a save action: its d20s (none: it failed by
    itself)."""

    later: ClassVar[frozenset[str]] = frozenset({"cover", "effect_dice"})
    target: str
    d20: tuple[int, ...]
    cover: Cover = "none"
    """Its cover against the creature using the action (added to a Dexterity save)."""
    effect_dice: tuple[int, ...] = ()
    """The dice of lasting spell effects on its save as rolled (rules edition 3)."""


class SaveActionRolled(_Event):
    """A save action of a monster's stat block (the dragon's Wing Attack): each target's
    save and the damage dice, rolled once for all (by part)."""

    kind: Literal["save_action"] = "save_action"
    creature: str
    action: str
    saves: tuple[TargetSave, ...]
    dice: tuple[tuple[int, ...], ...] = ()


class LegendaryResisted(_Event):
    """A legendary resistance turned the monster's latest failed save into a success."""

    kind: Literal["legendary_resisted"] = "legendary_resisted"
    creature: str


class LairSet(_Event):
    """A monster is in its lair, or no longer."""

    kind: Literal["lair_set"] = "lair_set"
    creature: str
    in_lair: bool = True


class LairActionTaken(_Event):
    """The round's lair action, as the GM described it."""

    kind: Literal["lair_action_taken"] = "lair_action_taken"
    creature: str
    text: str


# ---------------------------------------------------------------- condition durations


class ConditionSaved(_Event):
    """At the end of its turn a creature repeated the save that ends a condition: the d20s
    (none: it failed by itself) against the DC; a success ends the condition."""

    kind: Literal["condition_saved"] = "condition_saved"
    later: ClassVar[frozenset[str]] = frozenset({"effect_dice"})
    creature: str
    condition: str
    ability: str
    dc: int
    bonus: int
    mode: Literal["normal", "advantage", "disadvantage"]
    d20: tuple[int, ...]
    succeeded: bool
    effect_dice: tuple[int, ...] = ()
    """The dice of lasting spell effects on the save as rolled (rules edition 3)."""


class Fell(_Event):
    """A creature fell ``height_m`` metres: the d6s of its damage as rolled."""

    kind: Literal["fell"] = "fell"
    creature: str
    height_m: str
    dice: tuple[int, ...] = ()


Event = Annotated[
    FighterAdded
    | CombatStarted
    | TerrainSet
    | GroundSet
    | Moved
    | Attacked
    | Declined
    | ActionTaken
    | Readied
    | ReadyFired
    | BonusTaken
    | TurnEnded
    | Damaged
    | Healed
    | ConditionSet
    | CheckRolled
    | Contested
    | Revealed
    | SaveRolled
    | DeathSaved
    | SpellCast
    | SpellLanded
    | AuraStruck
    | ConcentrationSaved
    | ConcentrationEnded
    | CombatEnded
    | Rested
    | HitDiceSpent
    | MonsterActionUsed
    | Recharged
    | LegendaryOffered
    | LegendaryUsed
    | SaveActionRolled
    | LegendaryResisted
    | LairSet
    | LairActionTaken
    | ConditionSaved
    | Fell,
    Field(discriminator="kind"),
]
EVENTS: TypeAdapter[Event] = TypeAdapter(Event)
