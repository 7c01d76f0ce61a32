"""The state of a Magical Kitties table: sheets, foes, problems, counters and the last check.

Every model is frozen; the rules never mutate a state, they build a new one with
``model_copy(update=...)``. Ids of kitties, foes and problems are short slugs (see
:data:`ID_PATTERN`) so they can name pieces at a table and appear in commands typed by hand.
"""

from __future__ import annotations

from enum import IntEnum, StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, model_validator

from spieltisch.engine.system import Edition
from spieltisch.engine.text import Name, Ref

__all__ = [
    "ID_PATTERN",
    "Attribute",
    "Attributes",
    "Foe",
    "Human",
    "KittiesOptions",
    "KittiesState",
    "Kitty",
    "LastCheck",
    "LevelPick",
    "PoolParts",
    "Power",
    "Problem",
    "Tier",
]

ID_PATTERN = r"^[a-z0-9][a-z0-9_-]{0,31}$"
"""Kitty, foe and problem ids: lower-case letters, digits, ``-`` and ``_``, at most 32."""


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Attribute(StrEnum):
    """The three attributes of a kitty."""

    CUTE = "cute"
    """Niedlich."""
    CUNNING = "cunning"
    """Schlau."""
    FIERCE = "fierce"
    """Wild."""


class Tier(IntEnum):
    """The result of a check by its number of successes (four or more is the top tier)."""

    FAILURE = 0
    """No success: the action fails, the GM adds a complication."""
    AT_A_COST = 1
    """One success: barely, or at a price; the GM adds a complication."""
    SUCCESS = 2
    """Two successes: exactly as wanted."""
    BONUS = 3
    """Three successes: success and a bonus."""
    SUPER = 4
    """Four or more: super success and a super bonus."""


class Attributes(_Frozen):
    """The ratings of Cute, Cunning and Fierce."""

    cute: StrictInt
    cunning: StrictInt
    fierce: StrictInt

    def get(self, attribute: Attribute) -> int:
        """The rating of ``attribute``."""
        return int(getattr(self, attribute.value))

    def with_value(self, attribute: Attribute, value: int) -> Attributes:
        """These ratings with ``attribute`` set to ``value``."""
        return self.model_copy(update={attribute.value: value})

    @property
    def highest(self) -> int:
        """The highest rating (injuries at or above it incapacitate)."""
        return max(self.cute, self.cunning, self.fierce)


class Power(_Frozen):
    """A magical power and the bonus features the kitty has for it."""

    name: Name
    features: tuple[Name, ...] = Field(default=(), max_length=20)


class Problem(_Frozen):
    """A problem of a human or of the hometown; rank 0 means solved (it is then removed)."""

    id: Ref
    text: Name
    rank: StrictInt = Field(ge=1)


class Human(_Frozen):
    """The kitty's human and the human's problems."""

    name: Name = ""
    problems: tuple[Problem, ...] = Field(default=(), max_length=20)


class LevelPick(_Frozen):
    """One improvement taken at a level-up: which list, which entry, and its detail."""

    level: int
    list: str
    entry: str
    detail: str | None = None


class Kitty(_Frozen):
    """A kitty's sheet and the counters the rules keep for it."""

    id: Ref
    name: Name
    attributes: Attributes
    talents: tuple[Name, ...]
    powers: tuple[Power, ...]
    flaw: Name
    human: Human = Human()
    treats_value: int
    """Treats the kitty gets at each episode start (the sheet value)."""
    treats: int
    """Treats left in this episode."""
    free_treats: int = 0
    """Treat effects won with a super bonus: spent before real treats, lapse at episode start."""
    aua_limit: int
    auas: int = 0
    injuries: int = 0
    injuries_this_scene: int = 0
    """Injuries taken in the current scene (one heals at the scene's end if this is > 0)."""
    avoidable_injuries: int = 0
    """Fresh injuries a treat may still avoid (until the kitty's next check or the scene's end)."""
    power_bonus_used: bool = False
    """The +2 dice of a magical power were used in this scene."""
    bonus_dice: int = 0
    """Extra dice waiting for the kitty's next pool."""
    penalty_dice: int = 0
    """Dice the kitty's next pool loses."""
    xp: int = 0
    level: int = 1
    failures: int = 0
    """Failed checks accepted this episode (XP at the episode's end)."""
    picks: tuple[LevelPick, ...] = ()

    @property
    def incapacitated(self) -> bool:
        """Injuries at or above the highest attribute: the kitty cannot act (scene end)."""
        return self.injuries >= self.attributes.highest


class Foe(_Frozen):
    """An opponent: a difficulty to beat and an Aua-Limit; no injuries."""

    id: Ref
    name: Name
    difficulty: int
    aua_limit: int
    auas: int = 0

    @property
    def defeated(self) -> bool:
        """At its Aua-Limit the foe is beaten, caught, unconscious or gone."""
        return self.auas >= self.aua_limit


class PoolParts(_Frozen):
    """How a pool was built, part by part (negative parts are written as negative numbers)."""

    attribute: int
    talent: int = 0
    power: int = 0
    injuries: int = 0
    bonus: int = 0
    penalty: int = 0
    modifier: int = 0

    @property
    def total(self) -> int:
        """The number of dice (may be ≤ 0, which the rules refuse)."""
        return (
            self.attribute
            + self.talent
            + self.power
            + self.injuries
            + self.bonus
            + self.penalty
            + self.modifier
        )


class LastCheck(_Frozen):
    """The most recent check: its dice, and what has been done with it since."""

    number: int
    kitty: str
    attribute: Attribute
    talent: str | None = None
    power: str | None = None
    difficulty: int
    foe: str | None = None
    parts: PoolParts
    dice: tuple[int, ...]
    rerolls: int = 0
    """How many times dice of this check were rerolled with a treat."""
    accepted: bool = False
    """The failure was accepted (the check is settled)."""
    outcome: str | None = None
    """The chosen menu entry (complication, bonus or super bonus)."""
    foe_auas: int = 0
    """Auas this check dealt to its target foe so far."""


class KittiesOptions(_Frozen):
    """Table options: every default the rules leave open, documented in the game's docs."""

    creation_attributes: tuple[StrictInt, ...] = (1, 2, 3)
    """A new kitty's attribute ratings, each used once."""
    creation_talents: StrictInt = Field(default=1, ge=0, le=5)
    creation_powers: StrictInt = Field(default=1, ge=0, le=3)
    starting_treats: StrictInt = Field(default=2, ge=0, le=10)
    starting_aua_limit: StrictInt = Field(default=2, ge=0, le=10)
    default_difficulty: StrictInt = Field(default=4, ge=3, le=6)
    foe_difficulty: StrictInt = Field(default=4, ge=3, le=6)
    foe_aua_limit: StrictInt = Field(default=2, ge=1, le=20)
    power_bonus_once_per_scene: StrictBool = True
    xp_per_level: tuple[StrictInt, ...] = (5, 6, 6, 7, 7, 8, 8, 9, 9)
    """XP needed to reach level 2, 3, …; the maximum level is one more than its length."""
    xp_carry_over: StrictBool = False
    """Keep XP above the threshold at a level-up (default: XP resets to 0)."""
    xp_failure_cap: StrictInt | None = Field(default=None, ge=0)
    """Most XP per episode from accepted failures (the seed suggests 2 or 3); None: no cap."""
    episode_reset_auas: StrictBool = True
    """Default of the GM's choice at episode start: clear Auas."""
    episode_reset_injuries: StrictBool = True
    """Default of the GM's choice at episode start: clear injuries."""
    reroll_want: StrictInt = Field(default=2, ge=1, le=10)
    """Successes the treat-reroll odds aim for (reroll all non-successes below this)."""
    max_pool: StrictInt = Field(default=20, ge=1, le=60)
    """Refuse larger pools (typed modifiers are bounded, the odds stay cheap)."""
    edition: Edition = 2
    """Rules edition: 1 keeps every replaced check of a scene (tables made before); 2 keeps
    the ``earlier_checks_kept`` newest, so the state stays bounded however long a scene is."""
    earlier_checks_kept: StrictInt = Field(default=8, ge=1, le=100)
    """Edition 2: how many replaced checks stay reachable by number (see "Hidden checks")."""

    @property
    def max_level(self) -> int:
        """The highest level a kitty can reach."""
        return len(self.xp_per_level) + 1


class KittiesState(_Frozen):
    """Everything at one Magical Kitties table."""

    @model_validator(mode="before")
    @classmethod
    def _edition_known(cls, data: Any) -> Any:
        # A snapshot written before the options had an edition was folded with the rules of
        # its time; refusing it makes the store fold the log again with the upgraded options.
        options = data.get("options") if isinstance(data, dict) else None
        if isinstance(options, dict) and "edition" not in options:
            raise ValueError("a snapshot from before the rules edition: fold again")
        return data

    options: KittiesOptions = KittiesOptions()
    kitties: dict[str, Kitty] = Field(default_factory=dict)
    foes: dict[str, Foe] = Field(default_factory=dict)
    hometown: tuple[Problem, ...] = ()
    """The hometown's problems (the GM's)."""
    episode: int = 0
    """Number of the current or last episode (0: none yet)."""
    in_episode: bool = False
    scene: int = 0
    """Number of the current or last scene in this episode."""
    in_scene: bool = False
    checks: int = 0
    """Checks made at this table so far (numbers the checks)."""
    last_check: LastCheck | None = None
    earlier_checks: dict[int, LastCheck] = Field(default_factory=dict)
    """Checks of this scene a newer check replaced, by number (cleared with ``last_check``).

    Events may still name one: in a table's GM fold a hidden check can follow a player's
    check that the player (deciding on the shared fold) still rerolls or settles.
    """
