"""The sheets and the state of a Kreiswanderer table, as frozen pydantic models.

A being (hero, NSC, monster) is a toolkit :class:`~spieltisch.engine.creatures.Creature`
(attributes as ``stats``, hit and magic points as ``tracks``, markings and resistances as
``tags``) plus what only this game has: skills with their depth, weapons, Sonderfertigkeiten,
Begabungen and Haltungen.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated, Any, ClassVar, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    StrictBool,
    StrictInt,
    model_serializer,
    model_validator,
)
from pydantic.json_schema import SkipJsonSchema

from spieltisch.engine.creatures import Creature, Tag
from spieltisch.engine.economy import Budgets, PendingAction
from spieltisch.engine.effects import Effects
from spieltisch.engine.encounter import Encounter
from spieltisch.engine.system import Edition
from spieltisch.engine.text import Name, Ref

__all__ = [
    "DEFAULT_ATTRIBUTES",
    "EDITION",
    "Accumulation",
    "Being",
    "CatalogueSkill",
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


class Lean(_Frozen):
    """A model whose fields named in :attr:`lean` are left out of its JSON at their default.

    Fields added after tables were recorded are lean: an event of an old log, decided again
    by the replay, dumps exactly as it was recorded (no new key), so old logs keep verifying.
    """

    lean: ClassVar[tuple[str, ...]] = ()

    @model_serializer(mode="wrap")
    def _without_defaults(self, handler: SerializerFunctionWrapHandler) -> Any:
        data = handler(self)
        if isinstance(data, dict):
            fields = type(self).model_fields
            for name in self.lean:
                if name in data and getattr(self, name) == fields[name].default:
                    del data[name]
        return data


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


class Being(Lean):
    """A hero, NSC or monster: the toolkit creature and the game's own sheet parts.

    The creature's ``stats`` are the attributes, its tracks ``tp`` (Trefferpunkte) and ``mp``
    (Magiepunkte), its tags the markings (with resistances as ``resistance``/type).
    """

    lean = ("ap", "species", "native_language")

    creature: Creature
    skills: dict[Ref, Skill] = Field(default_factory=dict)
    weapons: tuple[Weapon, ...] = ()
    sonderfertigkeiten: dict[Ref, Sonderfertigkeit] = Field(default_factory=dict)
    begabungen: tuple[Ref, ...] = ()
    haltungen: dict[Ref, Haltung] = Field(default_factory=dict)
    active_haltungen: tuple[Ref, ...] = ()
    magic_cost: Annotated[StrictInt, Field(ge=0, le=9)] = 1
    """Magic points one magical act costs (1 unless a tradition says otherwise)."""
    ap: Annotated[StrictInt, Field(ge=1, le=9)] | None = None
    """Action points per round (None: the table's ``ap_per_round``, as a rule 1)."""
    species: Ref | None = None
    """The being's species: it holds the basic skills of the catalogue meant for it."""
    native_language: Ref | None = None
    """The skill of its native language, held at 0 like a basic skill."""

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


EDITION = 2
"""The edition of the rules a new table is created with (see :class:`KreisOptions`)."""


class KreisOptions(_Frozen):
    """Table options: the defaults the seed leaves open (documented in the game's doc).

    ``edition`` tells which rules a table was made with: 1 are the rules as first released,
    kept for the tables stored before the fixes of issue 24 (their stored options have no
    ``edition``, so their logs keep loading, undoing and verifying); a new table is created
    with :data:`EDITION` (see :meth:`.system.Kreiswanderer.created_options`).
    """

    edition: SkipJsonSchema[Edition] = 1
    attributes: tuple[Ref, ...] = Field(default=DEFAULT_ATTRIBUTES, min_length=1, max_length=20)
    default_target: Annotated[StrictInt, Field(ge=0, le=99)] = 10
    tie_goes_to: Literal["passive", "active"] = "passive"
    """Comparative checks: who wins a tie (default: the defender, the passive side)."""
    agility: Ref = "agilitaet"
    """The attribute added to the two d10 at the start of a fight."""
    dodge_skill: Ref = "akrobatik"
    dodge_attribute: Ref = "agilitaet"
    ap_per_round: Annotated[StrictInt, Field(ge=1, le=9)] = 1
    """Ap per round of a being whose sheet names none (the seed: "in der Regel" 1)."""
    haltung_switch_ap: Annotated[Decimal, Field(ge=0, le=9)] = Decimal("0.5")
    max_explosions: Annotated[StrictInt, Field(ge=2, le=1000)] = 100
    """At most this many d10 in one exploding roll (a guard; 10⁻⁹⁹ never happens)."""
    max_modifier: Annotated[StrictInt, Field(ge=0, le=99)] = 10
    """Largest GM ease or hardship a command may carry (the seed: usually up to 3)."""
    accumulation: Literal["dice", "every_roll"] = "dice"
    """Accumulated checks: ``dice`` (the seed: the Talentwert counts once, the dice of every
    roll add up) or ``every_roll`` (each roll adds Talentwert + dice; the first edition's
    reading, the default of edition 1)."""
    fuehrungsschwelle: Literal["defender", "attacker", "both"] = "defender"
    """Whose wielded weapons' Führungsschwellen raise an attack's target: the defender's
    (default), the attacking weapon's, or both."""

    @model_validator(mode="before")
    @classmethod
    def _first_edition(cls, data: Any) -> Any:
        """Edition 1 (a table stored without ``edition``) reads accumulations as it did."""
        if isinstance(data, dict) and data.get("edition", 1) == 1:
            return {"accumulation": "every_roll", **data}
        return data

    @property
    def seed_rules(self) -> bool:
        """Whether the fixes of edition 2 apply (every table made since)."""
        return self.edition >= 2


class CatalogueSkill(_Frozen):
    """A skill of the table's catalogue: its depth, its usual attribute, who holds it.

    A basic skill (depth 1) is held at 0 by every being, or only by the listed ``species``.
    """

    depth: Annotated[StrictInt, Field(ge=1, le=9)] = 1
    attribute: Ref | None = None
    species: tuple[Ref, ...] = Field(default=(), max_length=MAX_ITEMS)


class Accumulation(Lean):
    """An accumulated check in progress: its fixed definition and its progress so far."""

    lean = ("abandoned",)

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
    abandoned: bool = False
    """Closed without a result (the work is begun anew under another id)."""

    @property
    def open(self) -> bool:
        """Still being rolled: neither finished nor abandoned."""
        return not (self.finished or self.abandoned)


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
    effects: Effects = Effects()
    """Lasting effects on beings (burning): in a fight they tick at round end; from edition
    2 on they outlast the fight (edition 1 ended them with it)."""
    catalogue: dict[Ref, CatalogueSkill] = Field(default_factory=dict)
    """The table's skill catalogue (name → depth, attribute, species)."""
    sleep: dict[str, int] = Field(default_factory=dict)
    """Half hours of sleep not yet turned into a hit point, per being (edition 2)."""
    rest: dict[str, int] = Field(default_factory=dict)
    """Half hours of rest or sleep not yet turned into a magic point, per being (edition 2)."""
