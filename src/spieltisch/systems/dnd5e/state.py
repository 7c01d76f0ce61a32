"""The state of a D&D 5e table: the toolkit's values plus the game's creatures.

One :class:`~spieltisch.engine.grid.Grid`, one :class:`~spieltisch.engine.encounter.Encounter`,
one :class:`~spieltisch.engine.effects.Effects` (conditions and the table's own effects such as
Dodge), a :class:`~spieltisch.engine.economy.Budgets` per combatant (action, bonus action,
reaction, attacks of the Attack action) and each combatant's :class:`TurnMovement` (movement
follows the several-speeds rule, so it is kept as metres spent, not as one budget).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StrictInt

from spieltisch.engine.economy import BudgetRule, Budgets, InterruptStack
from spieltisch.engine.effects import Effects
from spieltisch.engine.encounter import Encounter
from spieltisch.engine.grid import Diagonal, Grid, Size, Square
from spieltisch.engine.system import Discovery, exact_int
from spieltisch.systems.dnd5e.areas import Template
from spieltisch.systems.dnd5e.conditions import ConditionTrack
from spieltisch.systems.dnd5e.cover import Cover
from spieltisch.systems.dnd5e.data import monster
from spieltisch.systems.dnd5e.hitdice import HitDice
from spieltisch.systems.dnd5e.later import Later
from spieltisch.systems.dnd5e.legendary import LegendaryTrack
from spieltisch.systems.dnd5e.movement import MoveStep, TurnMovement
from spieltisch.systems.dnd5e.spells import (
    Spellcasting,
    innate_ability,
    innate_level,
    parse_innate,
    parse_spellcasting,
    proficiency_bonus,
    with_innate,
)
from spieltisch.systems.dnd5e.statblock import DamagePart, SaveEffect

__all__ = [
    "BUDGETS",
    "EDITION",
    "Aura",
    "CheckRoll",
    "Concentrating",
    "DndEdition",
    "DndOptions",
    "DndState",
    "Fighter",
    "HeldHit",
    "HeldRoll",
    "HeldSpell",
    "LastAttack",
    "PendingMove",
    "PlacedTemplate",
    "ReadiedAction",
    "TurnSpells",
    "Weapon",
]

BUDGETS = (
    BudgetRule(name="action", amount=Decimal(1)),
    BudgetRule(name="bonus", amount=Decimal(1)),
    BudgetRule(name="reaction", amount=Decimal(1)),
    BudgetRule(name="attacks", amount=Decimal(0)),
)
"""Refreshed at the owner's turn start. ``attacks`` is filled by the Attack action."""


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


DndEdition = Annotated[Literal[1, 2, 3, 4, 5, 6, 7], BeforeValidator(exact_int)]
"""A D&D table's rules edition (see :data:`EDITION`)."""

EDITION: Literal[1, 2, 3, 4, 5, 6, 7] = 7
"""The edition of the D&D rules a new table is made with: 7, a grapple, shove or escape and
the Hide and Search actions use up the Help that gave their check advantage (on either side
of a contest), as a called check always did; 6, Chain Lightning strikes the first
creature named, within its range, and leaps to at most three others (one more per slot level
above 6th), each within 9 m of the first; 5, an innate caster's DC and
attack bonus its stat block does not state follow from its challenge rating's proficiency
bonus and its ability (8 + proficiency + modifier; proficiency + modifier), and a trait
naming its one spell in a sentence casts it once a day; spells of one creature counted and
Hold Person's targets within 9 m of each other; a flyer rises or sinks in place; Shield
against the spell attack or Magic Missile that triggers it; 4, Shield against the attack that
triggers it (a hit on a creature that may cast Shield waits for its decision), spells that
count their targets, Spirit Guardians' area, opportunity attacks with heights; 3, lasting
effects on every saving
throw (Bless's d4 on a hit's rider save, a save action's save, the save that ends a condition,
a death save); 2, spells that act fully (volleys split over their targets, lasting effects on
attack rolls and the saves of the table's save and spell commands); 1, the rules of tables
made before it."""


class DndOptions(_Frozen):
    """Table options (the defaults the rules leave open)."""

    width: StrictInt = Field(default=20, ge=1, le=200)
    height: StrictInt = Field(default=20, ge=1, le=200)
    diagonal: Literal["uniform", "5-10-5"] = "uniform"
    """Uniform: every diagonal costs one square (the default); 5-10-5: every second two."""
    discovery: Discovery = "table"
    """Who is shown what a player's move discovers by contact: the table, or that player
    alone (``"player"``; see ``docs/table-api.md``, "Contact")."""
    edition: DndEdition = EDITION
    """The rules edition (see :data:`EDITION`): a new table is made with the newest, a table
    stored without it keeps edition 1 (:meth:`.system.Dnd5e.upgrade_options`)."""


class CheckRoll(_Frozen):
    """An ability check as rolled: d20 (two with advantage or disadvantage) + bonus."""

    ability: str
    skill: str | None = None
    bonus: int
    mode: Literal["normal", "advantage", "disadvantage"] = "normal"
    d20: tuple[int, ...]
    total: int
    dc: int | None = None
    """The DC, or None when the total is compared later (a Search against hidden creatures)."""
    succeeded: bool = False


class Weapon(Later):
    """An attack of a creature (from a stat line)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    later: ClassVar[frozenset[str]] = frozenset({"conditions", "rider"})

    name: str
    bonus: int
    damage: tuple[DamagePart, ...]
    reach_m: Decimal = Decimal("1.5")
    ranged: bool = False
    conditions: tuple[str, ...] = ()
    """Conditions a hit imposes (the giant spider's web: restrained)."""
    rider: SaveEffect | None = None
    """A saving throw a hit forces (the giant spider's poison: DC 11 Con, half on a success)."""


class Fighter(Later):
    """A creature at the table: a player character or a GM-entered monster."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    later: ClassVar[frozenset[str]] = frozenset(
        {
            "skills",
            "passive_perception",
            "multiattack",
            "death_save_due",
            "spellcasting",
            "altitude_m",
            "hit_dice",
            "hit_dice_spent",
        }
    )

    id: str
    name: str
    side: str
    owner: str | None = None
    secret: bool = False
    size: Size = Size.MEDIUM
    ac: int
    hp: int
    max_hp: int
    temp_hp: int = 0
    speeds: dict[str, Decimal]
    reach_m: Decimal = Decimal("1.5")
    abilities: dict[str, int] = Field(default_factory=dict)
    skills: dict[str, int] = Field(default_factory=dict)
    """Skill bonuses as on the sheet (a skill not listed uses its ability's modifier)."""
    passive_perception: int | None = None
    """As on the sheet; default 10 + the Perception bonus."""
    attacks: tuple[Weapon, ...] = ()
    attacks_per_action: int = 1
    multiattack: tuple[str, ...] = ()
    """The mix of the Multiattack action by attack name (empty: any attacks)."""
    bonus_actions: tuple[str, ...] = ()
    hover: bool = False
    resistances: frozenset[str] = frozenset()
    vulnerabilities: frozenset[str] = frozenset()
    immunities: frozenset[str] = frozenset()
    position: Square | None = None
    airborne: bool = False
    altitude_m: Decimal = Decimal(0)
    """How high it flies above the ground under it (kept when it is knocked out of the air,
    until it falls)."""
    death_successes: int = 0
    death_failures: int = 0
    stable: bool = False
    death_save_due: bool = False
    """At 0 hit points: the death save of this turn is still to roll (one per turn, at its
    start)."""
    dead: bool = False
    monster: str | None = None
    spellcasting: Spellcasting | None = None
    hit_dice: HitDice | None = None
    """Its hit dice (None: not tracked, as for a monster)."""
    hit_dice_spent: int = 0
    """How many of them are spent (a long rest gives half back)."""
    """As on the sheet (a bestiary monster's is read from its *Spellcasting* trait)."""

    def modifier(self, ability: str) -> int:
        """The modifier of an ability score (10 when not given)."""
        return (self.abilities.get(ability, 10) - 10) // 2

    def _entry(self) -> dict[str, Any]:
        """The bestiary entry of a bestiary monster (its skills, passive Perception and
        multiattack are read from there, so the creature's logged shape stays as it was)."""
        found = monster(self.monster) if self.monster and self.monster != "custom" else None
        return found or {}

    def skill_bonus(self, skill: str, ability: str) -> int:
        """The bonus of a check with this skill (its ability's modifier when not listed)."""
        skills = self.skills or self._entry().get("skills", {})
        return int(skills.get(skill, self.modifier(ability)))

    def passive(self) -> int:
        """Passive Wisdom (Perception): as on the sheet, else 10 + the Perception bonus."""
        found = self.passive_perception
        if found is None:
            found = self._entry().get("passive_perception")
        if found is not None:
            return int(found)
        return 10 + self.skill_bonus("perception", "wis")

    def attack_mix(self) -> tuple[str, ...]:
        """The Multiattack mix by attack name (a bestiary monster's from its entry)."""
        if self.multiattack:
            return self.multiattack
        names = {w.name.lower(): w.name for w in self.attacks}
        mix = tuple(names.get(str(n).lower(), "") for n in self._entry().get("multiattack", ()))
        return mix if all(mix) else ()

    def casting(self, *, derived: bool = False) -> Spellcasting | None:
        """The creature's spellcasting: the sheet's, else its bestiary entry's *Spellcasting*
        and *Innate Spellcasting* traits (an innate caster without a *Spellcasting* trait
        casts at the level of its challenge rating, :func:`.spells.innate_level`).
        ``derived`` (rules edition 5): an innate DC or attack bonus the trait does not state
        follows from the proficiency bonus of its challenge rating and the ability's
        modifier (:func:`.spells.parse_innate`)."""
        if self.spellcasting is not None:
            return self.spellcasting
        entry = self._entry()
        texts = {str(t.get("name")): str(t.get("text", "")) for t in entry.get("traits", ())}
        found = parse_spellcasting(texts["Spellcasting"]) if "Spellcasting" in texts else None
        text = texts.get("Innate Spellcasting")
        innate = None
        if text is not None:
            ability = innate_ability(text)
            numbers = None
            if derived and ability is not None:
                numbers = (proficiency_bonus(str(entry.get("cr", "1"))), self.modifier(ability))
            innate = parse_innate(text, numbers)
        if found is None and innate is not None:  # no caster level stated: the CR's
            level = innate_level(str(entry.get("cr", "1")))
            innate = innate.model_copy(update={"level": level})
        return with_innate(found, innate)

    def weapon(self, name: str) -> Weapon | None:
        """The attack of that name (any case)."""
        return next((w for w in self.attacks if w.name.lower() == name.lower()), None)


class PendingMove(Later):
    """A move stopped where it provoked: the reactors decide in turn, then the mover goes on."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    later: ClassVar[frozenset[str]] = frozenset({"drag"})

    mover: str
    reactors: tuple[str, ...]
    steps: tuple[MoveStep, ...]
    offered: tuple[str, ...] = ()
    """Every reactor offered an attack during this move (each is offered once)."""
    drag: str | None = None
    """The grappled creature the mover drags along (it goes on dragging it while it holds it)."""


class HeldHit(_Frozen):
    """An attack that hit a creature able to cast Shield (rules edition 4): the roll as made,
    waiting for the target's decision (the damage is rolled when it is made)."""

    attacker: str
    target: str
    attack: str
    mode: Literal["normal", "advantage", "disadvantage"]
    d20: tuple[int, ...]
    modifier: int = 0
    opportunity: bool = False
    readied: bool = False
    legendary: bool = False
    cover: Cover = "none"
    effect_dice: tuple[int, ...] = ()


class HeldRoll(_Frozen):
    """One roll of a spell at a creature as made, without its damage dice: the caster's attack
    d20s (none for Magic Missile's dart) and the dice of lasting effects on them."""

    target: str
    mode: Literal["normal", "advantage", "disadvantage"] = "normal"
    d20: tuple[int, ...] = ()
    effect_dice: tuple[int, ...] = ()


class HeldSpell(_Frozen):
    """A spell cast whose rolls at creatures able to cast Shield wait for their decisions
    (rules edition 5): an attack spell's hits, Magic Missile's darts. The creatures decide in
    the order of the rolls; the damage of each one's rolls is rolled when it has decided."""

    caster: str
    spell: str
    slot: int
    rolls: tuple[HeldRoll, ...]

    @property
    def target(self) -> str:
        """The creature whose decision the spell waits for now."""
        return self.rolls[0].target

    def of(self, creature: str) -> tuple[HeldRoll, ...]:
        """The rolls at ``creature`` that wait."""
        return tuple(r for r in self.rolls if r.target == creature)


class ReadiedAction(_Frozen):
    """A readied action: its trigger and the reaction, an attack or another action."""

    trigger: str
    attack: str | None = None
    target: str | None = None
    action: str | None = None


class LastAttack(_Frozen):
    """The latest attack roll and what came of it (for the table to show after the roll)."""

    attacker: str
    target: str
    attack: str
    mode: str
    natural: int
    total: int
    outcome: Literal["miss", "hit", "critical"]
    damage: int
    """The damage rolled (before resistance, vulnerability, immunity)."""
    opportunity: bool = False


# ---------------------------------------------------------------- spells in play


class Concentrating(_Frozen):
    """The spell a creature concentrates on, and the conditions it imposed (target,
    condition), which end with it."""

    spell: str
    slot: int
    imposed: tuple[tuple[str, str], ...] = ()


class Aura(_Frozen):
    """A spell whose area surrounds its caster and moves with it (Spirit Guardians, rules
    edition 4), while the caster concentrates: its slot, the damage type chosen, the creatures
    it spares and those it struck in the current turn (each at most once a turn)."""

    spell: str
    slot: int
    damage_type: str
    spared: tuple[str, ...] | None = None
    """The creatures chosen to be unaffected (``None``: the caster's side)."""
    struck: tuple[str, ...] = ()


class PlacedTemplate(_Frozen):
    """An area spell's template on the map: whose, which spell, placed in which round, and
    whether it lasts while its caster concentrates (else for the rest of the casting turn)."""

    caster: str
    spell: str
    template: Template
    round: int = 0
    lasting: bool = False


class TurnSpells(_Frozen):
    """The spells a creature cast in its turn of ``round`` (the one-spell rule's memory)."""

    round: int
    bonus_action_spell: bool = False
    other_spell: bool = False
    cantrip_action: bool = False


class DndState(_Frozen):
    """A whole table."""

    options: DndOptions = DndOptions()
    grid: Grid
    fighters: dict[str, Fighter] = Field(default_factory=dict)
    encounter: Encounter | None = None
    budgets: dict[str, Budgets] = Field(default_factory=dict)
    movement: dict[str, TurnMovement] = Field(default_factory=dict)
    effects: Effects = Effects()
    pending: PendingMove | None = None
    held_hit: HeldHit | None = None
    """A hit waiting for its target's decision to cast Shield (rules edition 4)."""
    held_spell: HeldSpell | None = None
    """A spell's rolls waiting for their targets' decisions to cast Shield (rules edition 5)."""
    readied: dict[str, ReadiedAction] = Field(default_factory=dict)
    """Readied actions by creature; each lapses at its creature's next turn start."""
    stack: InterruptStack = InterruptStack()
    multiattack_used: dict[str, tuple[str, ...]] = Field(default_factory=dict)
    """The attacks of the Attack action a creature with a Multiattack mix made this turn."""
    last_attack: LastAttack | None = None
    stealth: dict[str, int] = Field(default_factory=dict)
    """The Stealth total of each hidden creature (a Search must reach it)."""
    last_check: dict[str, object] | None = None
    """The latest ability check or contest (its event's fields) for the table to show."""
    last_save: dict[str, object] | None = None
    """The latest saving throw (its event's fields) for the table to show."""
    slots_used: dict[str, tuple[int, ...]] = Field(default_factory=dict)
    """Spell slots spent per creature, by spell level (1st first)."""
    innate_used: dict[str, dict[str, int]] = Field(default_factory=dict)
    """Innate spells cast per creature since its last long rest, by spell."""
    recharging: dict[str, tuple[str, ...]] = Field(default_factory=dict)
    """Actions with a recharge spent in this fight, by monster (a d6 at the start of each of
    its turns brings one back)."""
    concentration: dict[str, Concentrating] = Field(default_factory=dict)
    templates: dict[str, PlacedTemplate] = Field(default_factory=dict)
    auras: dict[str, Aura] = Field(default_factory=dict)
    """The areas around their casters (Spirit Guardians), by caster."""
    """The area templates on the map, by caster."""
    spell_turns: dict[str, TurnSpells] = Field(default_factory=dict)
    last_cast: dict[str, object] | None = None
    """The latest casting (its event's fields) for the table to show."""
    last_concentration: dict[str, object] | None = None
    """The latest concentration save (its event's fields)."""
    legendary: LegendaryTrack = LegendaryTrack()
    """Legendary actions and resistances used, the open end of a turn, lairs."""
    conditions: ConditionTrack = ConditionTrack()
    """Saves that end conditions, and the conditions that ended at the latest turn change."""
    falling: tuple[str, ...] = ()
    """Flying creatures knocked out of the air, until the GM gives the height of the fall."""
    ground: dict[str, Decimal] = Field(default_factory=dict)
    """The ground height of squares in metres, by square name (a square not listed: 0)."""

    @property
    def waiting_for(self) -> str | None:
        """The creature whose decision to cast Shield the table waits for, if any."""
        if self.held_hit is not None:
            return self.held_hit.target
        return None if self.held_spell is None else self.held_spell.target

    @staticmethod
    def fresh(options: DndOptions) -> DndState:
        """An empty table with these options."""
        diagonal = Diagonal.ALTERNATING if options.diagonal == "5-10-5" else Diagonal.UNIFORM
        return DndState(
            options=options,
            grid=Grid(width=options.width, height=options.height, diagonal=diagonal),
        )
