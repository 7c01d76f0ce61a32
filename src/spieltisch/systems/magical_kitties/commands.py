"""The commands of a Magical Kitties table: JSON objects told apart by their field ``kind``.

Who may issue which command is decided by :meth:`.system.MagicalKitties.access`: the GM may
issue every command; a player acts only for kitties they created. Fields marked
:class:`~spieltisch.engine.permissions.GmOnly` (a check's difficulty and other dice) only the GM
may set; the table refuses a player's command that sets them (``rule.forbidden_field``).

Every command forbids unknown fields; numbers and flags are strict (``"3"`` or ``true`` is no
number, ``"yes"`` no flag), texts follow the text rules of :mod:`spieltisch.engine.text`, and
every number and list a user can send is bounded.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, TypeAdapter

from spieltisch.engine.permissions import GmOnly
from spieltisch.engine.text import Name, Ref
from spieltisch.systems.magical_kitties.sheet import Attribute, Attributes, Human, Power

__all__ = [
    "COMMANDS",
    "MAX_DICE",
    "MAX_ITEMS",
    "AcceptFailure",
    "AddProblem",
    "AvoidInjury",
    "AwardTreat",
    "Check",
    "ChooseOutcome",
    "Command",
    "CreateFoe",
    "CreateKitty",
    "EditKitty",
    "EndEpisode",
    "EndScene",
    "GiveAua",
    "KittyChanges",
    "LevelUp",
    "ProblemChange",
    "Reroll",
    "SpendTreat",
    "StartEpisode",
    "StartScene",
]


MAX_ITEMS = 20
"""Longest list a command may carry (talents, powers, dice to reroll, problem changes …)."""
MAX_DICE = 60
"""Most dice a pool can have (the option ``max_pool`` is at most this): bounds a reroll."""


class _Command(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class CreateKitty(_Command):
    """Create a kitty (the issuing player becomes its owner). Validated against the options."""

    kind: Literal["create_kitty"] = "create_kitty"
    id: Ref
    name: Name
    attributes: Attributes
    talents: tuple[Name, ...] = Field(max_length=MAX_ITEMS)
    powers: tuple[Power, ...] = Field(max_length=MAX_ITEMS)
    flaw: Name
    human: Human = Human()


class KittyChanges(BaseModel):
    """The GM's corrections to a sheet: every field left out stays as it is."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: Name | None = None
    flaw: Name | None = None
    talents: tuple[Name, ...] | None = Field(default=None, max_length=MAX_ITEMS)
    powers: tuple[Power, ...] | None = Field(default=None, max_length=MAX_ITEMS)
    human: Human | None = None
    attributes: Attributes | None = None
    treats_value: StrictInt | None = None
    treats: StrictInt | None = None
    aua_limit: StrictInt | None = None
    auas: StrictInt | None = None
    injuries: StrictInt | None = None
    xp: StrictInt | None = None
    """Counters are 0 to 99 (checked by the rules)."""


class EditKitty(_Command):
    """GM: correct a kitty's sheet."""

    kind: Literal["edit_kitty"] = "edit_kitty"
    kitty: Ref
    changes: KittyChanges


class CreateFoe(_Command):
    """GM: bring in a foe; difficulty and Aua-Limit default to the table options."""

    kind: Literal["create_foe"] = "create_foe"
    id: Ref
    name: Name
    difficulty: StrictInt | None = None
    """3 to 6 (checked by the rules)."""
    aua_limit: StrictInt | None = None


class AddProblem(_Command):
    """GM: add a problem to a kitty's human, or to the hometown when ``kitty`` is ``None``."""

    kind: Literal["add_problem"] = "add_problem"
    kitty: Ref | None = None
    id: Ref
    text: Name
    rank: StrictInt = 1
    """1 to 99 (checked by the rules)."""


class StartEpisode(_Command):
    """GM: start an episode; treats refill, and Auas/injuries reset as the GM chooses."""

    kind: Literal["start_episode"] = "start_episode"
    reset_auas: StrictBool | None = None
    """``None``: the table option ``episode_reset_auas``."""
    reset_injuries: StrictBool | None = None
    """``None``: the table option ``episode_reset_injuries``."""


class ProblemChange(BaseModel):
    """A problem's rank change at an episode's end (``kitty`` ``None``: a hometown problem)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kitty: Ref | None = None
    problem: Ref
    change: StrictInt
    """−3 to +3 (checked by the rules)."""


class EndEpisode(_Command):
    """GM: end the episode with the answers to the end-of-episode questions."""

    kind: Literal["end_episode"] = "end_episode"
    saved_the_day: StrictBool = False
    fun: StrictBool = False
    lessons: tuple[Ref, ...] = Field(default=(), max_length=MAX_ITEMS)
    """Kitties that (or whose humans) learned a lesson."""
    problems: tuple[ProblemChange, ...] = Field(default=(), max_length=MAX_ITEMS)


class StartScene(_Command):
    """GM: start a scene (inside an episode)."""

    kind: Literal["start_scene"] = "start_scene"


class EndScene(_Command):
    """GM: end the scene; kitties injured in it heal one injury, power bonuses return."""

    kind: Literal["end_scene"] = "end_scene"


class Check(_Command):
    """Roll a check for a kitty; difficulty defaults to the foe's, else the table default."""

    kind: Literal["check"] = "check"
    kitty: Ref
    attribute: Attribute
    talent: Name | None = None
    power: Name | None = None
    difficulty: Annotated[StrictInt | None, GmOnly("kitties.field.difficulty")] = None
    """The GM's: 3 to 6 (``None``: the foe's, else the table's default)."""
    foe: Ref | None = None
    """Attack this foe: any success deals it 1 Aua."""
    modifier: Annotated[StrictInt, GmOnly("kitties.field.modifier")] = Field(
        default=0, ge=-10, le=10
    )
    """The GM's: other dice granted (+) or taken (−)."""


class Reroll(_Command):
    """Spend a treat to reroll the chosen dice (0-based positions) of the last check."""

    kind: Literal["reroll"] = "reroll"
    dice: tuple[StrictInt, ...] = Field(max_length=MAX_DICE)
    """At most :data:`MAX_DICE` positions (the rules check each one)."""


class AcceptFailure(_Command):
    """Accept the last check's failure (an XP at the episode's end unless it was rerolled)."""

    kind: Literal["accept_failure"] = "accept_failure"


class ChooseOutcome(_Command):
    """Pick the complication, bonus or super bonus of the last check, with its target."""

    kind: Literal["choose_outcome"] = "choose_outcome"
    entry: Ref
    kitty: Ref | None = None
    foe: Ref | None = None


class GiveAua(_Command):
    """GM: a kitty or a foe takes Auas (past a kitty's Aua-Limit they become injuries)."""

    kind: Literal["give_aua"] = "give_aua"
    kitty: Ref | None = None
    foe: Ref | None = None
    count: StrictInt = Field(default=1, ge=1, le=10)


class AvoidInjury(_Command):
    """Spend a treat to avoid the injury the kitty just took."""

    kind: Literal["avoid_injury"] = "avoid_injury"
    kitty: Ref


class SpendTreat(_Command):
    """Spend a treat for a borrowed bonus feature or a story detail (the GM approves)."""

    kind: Literal["spend_treat"] = "spend_treat"
    kitty: Ref
    purpose: Literal["feature", "story"]
    detail: Name


class AwardTreat(_Command):
    """GM: give a kitty a treat because its flaw made the story harder."""

    kind: Literal["award_treat"] = "award_treat"
    kitty: Ref
    reason: Name = ""


class LevelUp(_Command):
    """Rise a level, taking ``entry`` from level list ``list`` (with what it needs)."""

    kind: Literal["level_up"] = "level_up"
    kitty: Ref
    list: Ref
    entry: Ref
    attribute: Attribute | None = None
    """For ``attribute``: which one rises."""
    power: Name | None = None
    """For ``bonus_feature``: the power that gains it."""
    name: Name | None = None
    """The new feature, talent or power."""


Command = Annotated[
    CreateKitty
    | EditKitty
    | CreateFoe
    | AddProblem
    | StartEpisode
    | EndEpisode
    | StartScene
    | EndScene
    | Check
    | Reroll
    | AcceptFailure
    | ChooseOutcome
    | GiveAua
    | AvoidInjury
    | SpendTreat
    | AwardTreat
    | LevelUp,
    Field(discriminator="kind"),
]
"""Any command of the game."""

COMMANDS: TypeAdapter[Command] = TypeAdapter(Command)
"""Parses and dumps commands."""
