"""The events of a Magical Kitties table: what happened, with every die rolled.

Events carry intents and dice, not resulting totals: :func:`.system.MagicalKitties.evolve`
recomputes the consequences with the rules, so undoing an earlier event re-derives everything
after it (or refuses, when a later event no longer applies).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from spieltisch.systems.magical_kitties.commands import KittyChanges, ProblemChange
from spieltisch.systems.magical_kitties.sheet import Attribute, Foe, Kitty, Problem

__all__ = [
    "EVENTS",
    "AuasTaken",
    "CheckRolled",
    "DiceRerolled",
    "EpisodeEnded",
    "EpisodeStarted",
    "Event",
    "FailureAccepted",
    "FoeCreated",
    "InjuryAvoided",
    "KittyCreated",
    "KittyEdited",
    "LeveledUp",
    "OutcomeChosen",
    "ProblemAdded",
    "SceneEnded",
    "SceneStarted",
    "TreatAwarded",
    "TreatSpent",
]


class _Event(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class KittyCreated(_Event):
    """A kitty joined the table with this sheet."""

    kind: Literal["kitty_created"] = "kitty_created"
    kitty: Kitty


class KittyEdited(_Event):
    """The GM corrected a sheet."""

    kind: Literal["kitty_edited"] = "kitty_edited"
    kitty: str
    changes: KittyChanges
    before: KittyChanges = KittyChanges()
    """The corrected fields as they were before, so that the log can show old → new."""


class FoeCreated(_Event):
    """A foe entered."""

    kind: Literal["foe_created"] = "foe_created"
    foe: Foe


class ProblemAdded(_Event):
    """A problem was added to a human (``kitty``) or to the hometown (``kitty`` ``None``)."""

    kind: Literal["problem_added"] = "problem_added"
    kitty: str | None = None
    problem: Problem


class EpisodeStarted(_Event):
    """An episode began: treats refilled, Auas/injuries reset as chosen."""

    kind: Literal["episode_started"] = "episode_started"
    episode: int
    reset_auas: bool
    reset_injuries: bool


class EpisodeEnded(_Event):
    """An episode ended with these answers (XP and problem ranks follow from them)."""

    kind: Literal["episode_ended"] = "episode_ended"
    episode: int
    saved_the_day: bool
    fun: bool
    lessons: tuple[str, ...] = ()
    problems: tuple[ProblemChange, ...] = ()


class SceneStarted(_Event):
    """A scene began."""

    kind: Literal["scene_started"] = "scene_started"
    scene: int


class SceneEnded(_Event):
    """A scene ended (healing and per-scene resets follow from the rules)."""

    kind: Literal["scene_ended"] = "scene_ended"
    scene: int


class CheckRolled(_Event):
    """A check was rolled: its parameters and every die."""

    kind: Literal["check_rolled"] = "check_rolled"
    check: int
    kitty: str
    attribute: Attribute
    talent: str | None = None
    power: str | None = None
    difficulty: int
    foe: str | None = None
    modifier: int = 0
    dice: tuple[int, ...]


class DiceRerolled(_Event):
    """Dice of a check were rerolled for a treat (or a free treat effect)."""

    kind: Literal["dice_rerolled"] = "dice_rerolled"
    check: int
    kitty: str
    indexes: tuple[int, ...]
    values: tuple[int, ...]
    free: bool = False


class FailureAccepted(_Event):
    """The kitty's player accepted a failed check."""

    kind: Literal["failure_accepted"] = "failure_accepted"
    check: int
    kitty: str


class OutcomeChosen(_Event):
    """A complication, bonus or super bonus was chosen for a check."""

    kind: Literal["outcome_chosen"] = "outcome_chosen"
    check: int
    entry: str
    kitty: str | None = None
    foe: str | None = None


class AuasTaken(_Event):
    """A kitty or a foe took Auas."""

    kind: Literal["auas_taken"] = "auas_taken"
    kitty: str | None = None
    foe: str | None = None
    count: int


class InjuryAvoided(_Event):
    """A kitty spent a treat (or a free treat effect) to avoid its fresh injury."""

    kind: Literal["injury_avoided"] = "injury_avoided"
    kitty: str
    free: bool = False


class TreatSpent(_Event):
    """A kitty spent a treat for a borrowed bonus feature or a story detail."""

    kind: Literal["treat_spent"] = "treat_spent"
    kitty: str
    purpose: Literal["feature", "story"]
    detail: str
    free: bool = False


class TreatAwarded(_Event):
    """The GM awarded a treat for a flaw that made the story harder."""

    kind: Literal["treat_awarded"] = "treat_awarded"
    kitty: str
    reason: str = ""


class LeveledUp(_Event):
    """A kitty rose to ``level`` taking an improvement."""

    kind: Literal["leveled_up"] = "leveled_up"
    kitty: str
    level: int
    list: str
    entry: str
    attribute: Attribute | None = None
    power: str | None = None
    name: str | None = None


Event = Annotated[
    KittyCreated
    | KittyEdited
    | FoeCreated
    | ProblemAdded
    | EpisodeStarted
    | EpisodeEnded
    | SceneStarted
    | SceneEnded
    | CheckRolled
    | DiceRerolled
    | FailureAccepted
    | OutcomeChosen
    | AuasTaken
    | InjuryAvoided
    | TreatSpent
    | TreatAwarded
    | LeveledUp,
    Field(discriminator="kind"),
]
"""Any event of the game."""

EVENTS: TypeAdapter[Event] = TypeAdapter(Event)
"""Parses and dumps events."""
