"""The sheets and the state of a Kreiswanderer table, as frozen pydantic models.

A being (hero, NSC, monster) is a toolkit :class:`~spieltisch.engine.creatures.Creature`
(attributes as ``stats``, hit and magic points as ``tracks``, markings and resistances as
``tags``) plus what only this game has: skills with their depth, weapons, Sonderfertigkeiten,
Begabungen and Haltungen.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt

from spieltisch.engine.creatures import Creature, Tag
from spieltisch.engine.economy import Budgets, PendingAction
from spieltisch.engine.effects import Effects
from spieltisch.engine.encounter import Encounter
from spieltisch.engine.text import Name, Ref

__all__ = [
    "DEFAULT_ATTRIBUTES",
    "Accumulation",
    "Being",
    "Fight",
    "Haltung",
    "KreisOptions",
    "KreisState",
    "Marking",
    "Skill",
    "Sonderfertigkeit",
    "Weapon",
]

MAX_ITEMS = 30
"""Most skills, weapons, markings … one sheet may list."""

DEFAULT_ATTRIBUTES = (
    "staerke",
    "konstitution",
    "agilitaet",
    "geschick",
    "intelligenz",
    "wahrnehmung",
    "willenskraft",
    "charisma",
)
"""The default attribute set (the seed names no fixed set; Agilität is required by combat)."""

Small = Annotated[StrictInt, Field(ge=-99, le=99)]
Positive = Annotated[StrictInt, Field(ge=0, le=999)]
DamageType = Literal["PH", "BR", "EN", "TR"]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Skill(_Frozen):
    """A Fertigkeit: its Spezialisierungstiefe (1 basic, 2 everyday, ≥ 3 specialisation)."""

    depth: Annotated[StrictInt, Field(ge=1, le=9)] = 1
    value: Annotated[StrictInt, Field(ge=0, le=99)] = 0


class Marking(_Frozen):
    """A marking (a data tag): a name, an optional value, an optional detail.

    Known names: ``defensive`` (adds its value to the target of attacks on the bearer),
    ``resistance`` with a damage type as detail, ``schutz`` with a weapon class as detail;
    on weapons the effect markings of :mod:`.secondary` (``langzeiteffekt``/``feuer``,
    ``zusatzschaden``, ``waffenklasse``). Others are carried and shown.
    """

    name: Ref
    value: Small | None = None
    detail: Ref | None = None

    def tag(self) -> Tag:
        """The toolkit tag of this marking."""
        return Tag(name=self.name, value=self.value, detail=self.detail)


class Weapon(_Frozen):
    """A weapon: the skill and attribute it is used with, and its combat values."""

    name: Name
    skill: Ref
    attribute: Ref = "geschick"
    damage_bonus: Small = 0
    fuehrungsschwelle: Small = 0
    """Added to the target of attacks on whoever wields it."""
    durchdringend: Small = 0
    """Subtracted from the target of its own attacks."""
    damage_type: DamageType = "PH"
    markings: tuple[Marking, ...] = Field(default=(), max_length=MAX_ITEMS)
    wielded: StrictBool = True


class Sonderfertigkeit(_Frozen):
    """A Sonderfertigkeit: a bonus to checks with the listed skills, for one magic point.

    Its depth is the number of markings it manipulates.
    """

    bonus: Small = 0
    skills: tuple[Ref, ...] = Field(default=(), max_length=MAX_ITEMS)
    markings: tuple[Ref, ...] = Field(default=(), max_length=MAX_ITEMS)

    @property
    def depth(self) -> int:
        """Spezialisierungstiefe: how many markings it manipulates (at least 1)."""
        return max(1, len(self.markings))


class Haltung(_Frozen):
    """A Haltung (stance): modifiers while active; keys are skill names or ``dodge``."""

    modifiers: dict[Ref, Small] = Field(default_factory=dict, max_length=MAX_ITEMS)


class Being(_Frozen):
    """A hero, NSC or monster: the toolkit creature and the game's own sheet parts.

    The creature's ``stats`` are the attributes, its tracks ``tp`` (Trefferpunkte) and ``mp``
    (Magiepunkte), its tags the markings (with resistances as ``resistance``/type).
    """

    creature: Creature
    skills: dict[Ref, Skill] = Field(default_factory=dict)
    weapons: tuple[Weapon, ...] = ()
    sonderfertigkeiten: dict[Ref, Sonderfertigkeit] = Field(default_factory=dict)
    begabungen: tuple[Ref, ...] = ()
    haltungen: dict[Ref, Haltung] = Field(default_factory=dict)
    active_haltungen: tuple[Ref, ...] = ()
    magic_cost: Annotated[StrictInt, Field(ge=0, le=9)] = 1
    """Magic points one magical act costs (1 unless a tradition says otherwise)."""

    @property
    def id(self) -> str:
        """The being's id (its creature's)."""
        return self.creature.id

    def attribute(self, name: str) -> int:
        """An attribute's value (``toolkit.creatures.unknown_stat`` if it has none)."""
        return int(self.creature.stat(name))

    def resistance(self, damage_type: str) -> int:
        """Resistance against a damage type: the sum of its ``resistance`` markings."""
        return self.creature.tag_total("resistance", damage_type)

    def haltung_modifier(self, key: str) -> int:
        """The sum of the active Haltungen's modifiers for ``key`` (a skill or ``dodge``)."""
        return sum(self.haltungen[h].modifiers.get(key, 0) for h in self.active_haltungen)


class KreisOptions(_Frozen):
    """Table options: the defaults the seed leaves open (documented in the game's doc)."""

    attributes: tuple[Ref, ...] = Field(default=DEFAULT_ATTRIBUTES, min_length=1, max_length=20)
    default_target: Annotated[StrictInt, Field(ge=0, le=99)] = 10
    tie_goes_to: Literal["passive", "active"] = "passive"
    """Comparative checks: who wins a tie (default: the defender, the passive side)."""
    agility: Ref = "agilitaet"
    """The attribute added to the two d10 at the start of a fight."""
    dodge_skill: Ref = "akrobatik"
    dodge_attribute: Ref = "agilitaet"
    ap_per_round: Annotated[StrictInt, Field(ge=1, le=9)] = 1
    haltung_switch_ap: Annotated[Decimal, Field(ge=0, le=9)] = Decimal("0.5")
    max_explosions: Annotated[StrictInt, Field(ge=2, le=1000)] = 100
    """At most this many d10 in one exploding roll (a guard; 10⁻⁹⁹ never happens)."""
    max_modifier: Annotated[StrictInt, Field(ge=0, le=99)] = 10
    """Largest GM ease or hardship a command may carry (the seed: usually up to 3)."""


class Accumulation(_Frozen):
    """An accumulated check in progress: its fixed definition and its progress so far."""

    id: str
    being: str
    attribute: str
    skill: str
    talent_value: int
    target: int
    rolls: int | None = None
    """Fixed number of rolls (or None)."""
    quality: int | None = None
    """Target quality to reach (or None)."""
    done_rolls: int = 0
    total: int = 0
    finished: bool = False


class Fight(_Frozen):
    """A fight: the 2d10 each combatant rolled, their choices, the toolkit values."""

    dice: dict[str, tuple[int, int]] = Field(default_factory=dict)
    dodge: dict[str, int] = Field(default_factory=dict)
    initiative: dict[str, int] = Field(default_factory=dict)
    encounter: Encounter | None = None
    budgets: dict[str, Budgets] = Field(default_factory=dict)
    ready: dict[str, tuple[PendingAction, ...]] = Field(default_factory=dict)
    """Pending actions now fully paid, waiting to be carried out, per combatant."""
    dodge_bonus: dict[str, int] = Field(default_factory=dict)
    """Bonus from giving up the action, until the next round starts."""
    effects: Effects = Effects()
    last_ticks: tuple[tuple[str, int], ...] = ()
    """Damage effects dealt at the last round end: (being, hit points lost)."""


class KreisState(_Frozen):
    """A table: options, beings, accumulated checks and the fight, if any."""

    options: KreisOptions = KreisOptions()
    beings: dict[str, Being] = Field(default_factory=dict)
    accumulations: dict[str, Accumulation] = Field(default_factory=dict)
    fight: Fight | None = None
    checks: int = 0
    """How many checks were rolled (numbers them in the view)."""
