"""The commands of a Magical Kitties table: JSON objects told apart by their field ``kind``.

Who may issue which command is decided by :meth:`.system.MagicalKitties.access`: the GM may
issue every command; a player acts only for kitties they created.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from spieltisch.systems.magical_kitties.sheet import Attribute, Attributes, Human, Power

__all__ = [
    "COMMANDS",
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


class _Command(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class CreateKitty(_Command):
    """Create a kitty (the issuing player becomes its owner). Validated against the options."""

    kind: Literal["create_kitty"] = "create_kitty"
    id: str
    name: str
    attributes: Attributes
    talents: tuple[str, ...]
    powers: tuple[Power, ...]
    flaw: str
    human: Human = Human()


class KittyChanges(BaseModel):
    """The GM's corrections to a sheet: every field left out stays as it is."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str | None = None
    flaw: str | None = None
    talents: tuple[str, ...] | None = None
    powers: tuple[Power, ...] | None = None
    human: Human | None = None
    attributes: Attributes | None = None
    treats_value: int | None = None
    treats: int | None = None
    aua_limit: int | None = None
    auas: int | None = None
    injuries: int | None = None
    xp: int | None = None


class EditKitty(_Command):
    """GM: correct a kitty's sheet."""

    kind: Literal["edit_kitty"] = "edit_kitty"
    kitty: str
    changes: KittyChanges


class CreateFoe(_Command):
    """GM: bring in a foe; difficulty and Aua-Limit default to the table options."""

    kind: Literal["create_foe"] = "create_foe"
    id: str
    name: str
    difficulty: int | None = None
    aua_limit: int | None = None


class AddProblem(_Command):
    """GM: add a problem to a kitty's human, or to the hometown when ``kitty`` is ``None``."""

    kind: Literal["add_problem"] = "add_problem"
    kitty: str | None = None
    id: str
    text: str
    rank: int = 1


class StartEpisode(_Command):
    """GM: start an episode; treats refill, and Auas/injuries reset as the GM chooses."""

    kind: Literal["start_episode"] = "start_episode"
    reset_auas: bool | None = None
    """``None``: the table option ``episode_reset_auas``."""
    reset_injuries: bool | None = None
    """``None``: the table option ``episode_reset_injuries``."""


class ProblemChange(BaseModel):
    """A problem's rank change at an episode's end (``kitty`` ``None``: a hometown problem)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kitty: str | None = None
    problem: str
    change: int


class EndEpisode(_Command):
    """GM: end the episode with the answers to the end-of-episode questions."""

    kind: Literal["end_episode"] = "end_episode"
    saved_the_day: bool = False
    fun: bool = False
    lessons: tuple[str, ...] = ()
    """Kitties that (or whose humans) learned a lesson."""
    problems: tuple[ProblemChange, ...] = ()


class StartScene(_Command):
    """GM: start a scene (inside an episode)."""

    kind: Literal["start_scene"] = "start_scene"


class EndScene(_Command):
    """GM: end the scene; kitties injured in it heal one injury, power bonuses return."""

    kind: Literal["end_scene"] = "end_scene"


class Check(_Command):
    """Roll a check for a kitty; difficulty defaults to the foe's, else the table default."""

    kind: Literal["check"] = "check"
    kitty: str
    attribute: Attribute
    talent: str | None = None
    power: str | None = None
    difficulty: int | None = None
    foe: str | None = None
    """Attack this foe: any success deals it 1 Aua."""
    modifier: int = Field(default=0, ge=-10, le=10)
    """Other dice the GM grants (+) or takes (−)."""


class Reroll(_Command):
    """Spend a treat to reroll the chosen dice (0-based positions) of the last check."""

    kind: Literal["reroll"] = "reroll"
    dice: tuple[int, ...]


class AcceptFailure(_Command):
    """Accept the last check's failure (an XP at the episode's end unless it was rerolled)."""

    kind: Literal["accept_failure"] = "accept_failure"


class ChooseOutcome(_Command):
    """Pick the complication, bonus or super bonus of the last check, with its target."""

    kind: Literal["choose_outcome"] = "choose_outcome"
    entry: str
    kitty: str | None = None
    foe: str | None = None


class GiveAua(_Command):
    """GM: a kitty or a foe takes Auas (past a kitty's Aua-Limit they become injuries)."""

    kind: Literal["give_aua"] = "give_aua"
    kitty: str | None = None
    foe: str | None = None
    count: int = Field(default=1, ge=1, le=10)


class AvoidInjury(_Command):
    """Spend a treat to avoid the injury the kitty just took."""

    kind: Literal["avoid_injury"] = "avoid_injury"
    kitty: str


class SpendTreat(_Command):
    """Spend a treat for a borrowed bonus feature or a story detail (the GM approves)."""

    kind: Literal["spend_treat"] = "spend_treat"
    kitty: str
    purpose: Literal["feature", "story"]
    detail: str


class AwardTreat(_Command):
    """GM: give a kitty a treat because its flaw made the story harder."""

    kind: Literal["award_treat"] = "award_treat"
    kitty: str
    reason: str = ""


class LevelUp(_Command):
    """Rise a level, taking ``entry`` from level list ``list`` (with what it needs)."""

    kind: Literal["level_up"] = "level_up"
    kitty: str
    list: str
    entry: str
    attribute: Attribute | None = None
    """For ``attribute``: which one rises."""
    power: str | None = None
    """For ``bonus_feature``: the power that gains it."""
    name: str | None = None
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
