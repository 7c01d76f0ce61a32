"""The events of a D&D 5e table: what happened, with every die rolled.

Attack events carry the d20s and the damage dice as rolled; :mod:`.evolve` derives hits,
criticals and damage from them again when it folds the event, so the rules live in one place.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from spieltisch.systems.dnd5e.movement import JumpCheck, TurnMovement
from spieltisch.systems.dnd5e.state import Fighter, PendingMove, ReadiedAction

__all__ = ["EVENTS", "Event"]


class _Event(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


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
    checks: tuple[JumpCheck, ...] = ()
    """DC 10 checks the move's jumps call for (the GM rolls or rules on them)."""


class Attacked(_Event):
    """An attack roll and its damage dice (rolled before knowing whether it hits).

    ``d20`` holds one die, or two with advantage or disadvantage (``mode``); ``dice`` the
    damage dice of each part, the critical's extra dice after them.
    """

    kind: Literal["attacked"] = "attacked"
    attacker: str
    target: str
    attack: str
    mode: Literal["normal", "advantage", "disadvantage"]
    d20: tuple[int, ...]
    dice: tuple[tuple[int, ...], ...]
    opportunity: bool = False
    readied: bool = False
    """The attack of a readied action (its reaction is paid by :class:`ReadyFired`)."""


class Declined(_Event):
    """A reactor let the opportunity attack pass."""

    kind: Literal["declined"] = "declined"
    creature: str


class ActionTaken(_Event):
    """An action other than Attack."""

    kind: Literal["action_taken"] = "action_taken"
    creature: str
    action: str
    target: str | None = None
    foe: str | None = None
    help: Literal["attack", "check"] = "attack"


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
    creature: str
    feature: str


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
    target: str
    condition: str
    remove: bool = False


class SaveRolled(_Event):
    """A saving throw: the d20s rolled (none for an automatic failure) against the DC."""

    kind: Literal["save_rolled"] = "save_rolled"
    creature: str
    ability: str
    dc: int
    bonus: int
    mode: Literal["normal", "advantage", "disadvantage"]
    d20: tuple[int, ...]
    succeeded: bool


class DeathSaved(_Event):
    """A death save with this d20."""

    kind: Literal["death_saved"] = "death_saved"
    creature: str
    d20: int


Event = Annotated[
    FighterAdded
    | CombatStarted
    | TerrainSet
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
    | SaveRolled
    | DeathSaved,
    Field(discriminator="kind"),
]
EVENTS: TypeAdapter[Event] = TypeAdapter(Event)
