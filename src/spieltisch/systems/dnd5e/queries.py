"""What the rules read off a table's state: creatures, conditions, distances, roll modes.

Shared by :mod:`.decide`, :mod:`.evolve`, :mod:`.view` and :mod:`.system` (odds); nothing here
changes the state.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from spieltisch.engine import economy, effects
from spieltisch.engine.errors import RuleError
from spieltisch.engine.grid import distance, footprint
from spieltisch.systems.dnd5e.conditions import exhaustion_tags
from spieltisch.systems.dnd5e.cover import COVER_BONUS, Cover, cover_between
from spieltisch.systems.dnd5e.data import condition_tags
from spieltisch.systems.dnd5e.lasting import ac_bonus, dice_pmf, dice_total, mark_dice, roll_dice
from spieltisch.systems.dnd5e.movement import (
    SPEED_ZERO,
    Body,
    ground_under,
    narrow_at,
    spatial_distance,
    squeezed,
)
from spieltisch.systems.dnd5e.odds import DamageDice, SaveOdds, save_damage
from spieltisch.systems.dnd5e.rules import Mode, attack_outcome, resolve_mode
from spieltisch.systems.dnd5e.statblock import SaveLine
from spieltisch.systems.dnd5e.state import DndState, Fighter, Weapon

__all__ = [
    "CLOSE_M",
    "armour_class",
    "attack_mode",
    "body_of",
    "check_mode",
    "cover_of",
    "exhaustion_level",
    "exhaustion_of",
    "fighter_of",
    "helped_on",
    "hp_max",
    "kinds_on",
    "marked_dice",
    "may_react",
    "others_of",
    "outcome_of",
    "require_able",
    "roll_extra",
    "save_action_bonus",
    "save_action_damage",
    "save_action_odds",
    "save_boost",
    "save_extra",
    "save_mode",
    "speeds_of",
    "square_distance",
    "squeezed",
]

CLOSE_M = Decimal("1.5")


def kinds_on(state: DndState, creature: str) -> frozenset[str]:
    """The conditions and table effects on a creature, and ``squeezing`` where the map's
    walls leave it a passage narrower than its space (see :func:`~.movement.narrow_at`)."""
    kinds = _marked(state, creature)
    fighter = state.fighters.get(creature)
    if (
        fighter is not None
        and fighter.position is not None
        and narrow_at(state.grid, fighter.size, fighter.position)
    ):
        return kinds | {"squeezing"}
    return kinds


def _marked(state: DndState, creature: str) -> frozenset[str]:
    """The conditions and table effects put on a creature (the GM's squeezing mark too)."""
    return frozenset(effect.kind for effect in state.effects.on(creature))


def fighter_of(state: DndState, creature: str) -> Fighter:
    """The creature of that id; :class:`RuleError` when there is none."""
    found = state.fighters.get(creature)
    if found is None:
        raise RuleError("dnd5e.unknown_creature", creature=creature)
    return found


def body_of(state: DndState, fighter: Fighter) -> Body:
    """The creature as the movement rules see it (it must be on the map)."""
    assert fighter.position is not None
    kinds = _marked(state, fighter.id)  # the map's passages are the movement rules' own
    return Body(
        id=fighter.id,
        side=fighter.side,
        size=squeezed(fighter.size) if "squeezing" in kinds else fighter.size,
        position=fighter.position,
        speeds=speeds_of(state, fighter),
        reach_m=max((w.reach_m for w in fighter.attacks if not w.ranged), default=fighter.reach_m),
        conditions=kinds,
        hover=fighter.hover,
        strength=fighter.abilities.get("str", 10),
        altitude_m=fighter.altitude_m,
    )


def others_of(state: DndState, fighter: Fighter) -> list[Body]:
    """Every other living creature on the map, as bodies."""
    return [
        body_of(state, f)
        for f in state.fighters.values()
        if f.id != fighter.id and f.position is not None and not f.dead
    ]


def require_able(state: DndState, fighter: Fighter) -> None:
    """Refuse when the creature is dead or incapacitated."""
    if fighter.dead or "incapacitated" in condition_tags(kinds_on(state, fighter.id)):
        raise RuleError("dnd5e.incapacitated", creature=fighter.id)


def square_distance(state: DndState, a: Fighter, b: Fighter) -> Decimal:
    """The distance in metres between two placed creatures (the grid's diagonal rule), the
    difference of their heights (ground and flying altitude) counted as a third axis (see
    :func:`~.movement.spatial_distance`)."""
    if a.position is None or b.position is None:
        raise RuleError("dnd5e.not_placed", creature=a.id if a.position is None else b.id)
    flat = distance(state.grid, a.position, a.size, b.position, b.size)
    rise = abs(
        ground_under(state.ground, a.position, a.size)
        + a.altitude_m
        - ground_under(state.ground, b.position, b.size)
        - b.altitude_m
    )
    return spatial_distance(flat, rise, state.grid)


def attack_mode(
    state: DndState, attacker: Fighter, target: Fighter, weapon: Weapon, extra: tuple[bool, bool]
) -> Mode:
    """Advantage or disadvantage of an attack from every source (they cancel, never stack)."""
    mine = condition_tags(kinds_on(state, attacker.id))
    theirs_kinds = kinds_on(state, target.id)
    theirs = condition_tags(theirs_kinds)
    mine_kinds = kinds_on(state, attacker.id)
    if "dodging" in theirs_kinds and not dodge_counts(theirs_kinds, mine_kinds):
        theirs = condition_tags(theirs_kinds - {"dodging"})
    close = square_distance(state, attacker, target) <= CLOSE_M
    advantages = [extra[0], "attacks_advantage" in mine, "attacked_with_advantage" in theirs]
    disadvantages = [
        extra[1],
        "attacks_disadvantage" in mine,
        "attacks_disadvantage_in_sight" in mine,  # frightened: the source taken as in sight
        "attacks_disadvantage" in exhaustion_of(state, attacker.id),
        "attacked_with_disadvantage" in theirs,
    ]
    if "prone" in theirs:  # within 1.5 m any attack (a ranged one too) has advantage
        advantages.append(close)
        disadvantages.append(not close)
    if any(
        x.source == target.id and x.kind == "helped_attack" for x in state.effects.on(attacker.id)
    ):
        advantages.append(True)
    if weapon.ranged:
        disadvantages.append(_hostile_close(state, attacker))
    return resolve_mode(sum(advantages), sum(disadvantages))


UNSEEN = frozenset({"invisible", "hidden"})
"""Effects that keep a creature from being seen."""


def dodge_counts(dodger: frozenset[str], attacker: frozenset[str]) -> bool:
    """Whether a dodger's Dodge imposes disadvantage on this attacker: it is lost while the
    dodger is incapacitated or at speed 0, and works only against an attacker the dodger can
    see (not while blinded, nor against an invisible or hidden attacker)."""
    tags = condition_tags(dodger)
    if "incapacitated" in tags or dodger & SPEED_ZERO:
        return False
    return "blinded" not in dodger and not attacker & UNSEEN


def _hostile_close(state: DndState, attacker: Fighter) -> bool:
    for other in state.fighters.values():
        if other.side == attacker.side or other.position is None or other.dead:
            continue
        if "incapacitated" in condition_tags(kinds_on(state, other.id)):
            continue
        if square_distance(state, attacker, other) <= CLOSE_M:
            return True
    return False


def armour_class(state: DndState, target: Fighter) -> int:
    """A creature's AC with the bonus of the lasting spell effects on it (Shield, Shield of
    Faith; cover is added by the attack)."""
    return target.ac + ac_bonus(kinds_on(state, target.id))


def roll_extra(state: DndState, creature: str, roll: str) -> tuple[int, ...]:
    """The effect dice on a creature's ``attack`` rolls or ``save`` throws (signed sides, see
    :func:`.lasting.roll_dice`)."""
    return roll_dice(kinds_on(state, creature), roll)


def save_extra(state: DndState, creature: str, since: int = 1) -> tuple[int, ...]:
    """The dice of the lasting spell effects on a creature's saving throw (signed sides, see
    :func:`.lasting.roll_dice`), the one rule for every save the table rolls. ``since`` is
    the rules edition from which this save counts them: 3 for the saves that tables of
    edition 2 rolled without them (a hit's rider save, a save action's save, the save that
    ends a condition, a death save), which keep that reading."""
    return roll_extra(state, creature, "save") if state.options.edition >= since else ()


def save_boost(
    state: DndState, creature: str, d20: tuple[int, ...], rolled: tuple[int, ...], since: int = 1
) -> int:
    """What the rolled effect dice add to a save with these ``d20`` (none: it failed by
    itself, and no effect die was rolled); ``dnd5e.spell.bad_effect_dice`` when they do not
    fit :func:`save_extra`."""
    return dice_total(save_extra(state, creature, since) if d20 else (), rolled)


def marked_dice(state: DndState, attacker: str, target: str) -> DamageDice | None:
    """The extra damage dice of ``attacker``'s weapon hits on ``target`` (Hunter's Mark)."""
    found = mark_dice(((x.kind, x.source) for x in state.effects.on(target)), attacker)
    return None if found is None else DamageDice(found[0], found[1])


def outcome_of(
    state: DndState,
    attacker: Fighter,
    target: Fighter,
    weapon: Weapon,
    natural: int,
    modifier: int = 0,
    cover: Cover = "none",
) -> str:
    """Miss, hit or critical of an attack with this kept d20, a situational ``modifier`` (with
    the effect dice of the roll) and the target's ``cover`` (added to its AC with its
    effects', :func:`armour_class`; a hit within 1.5 m of a paralyzed or unconscious
    target is a critical)."""
    outcome = attack_outcome(
        natural, weapon.bonus + modifier, armour_class(state, target) + COVER_BONUS[cover]
    )
    tags = condition_tags(kinds_on(state, target.id))
    if (
        outcome == "hit"
        and "close_hits_critical" in tags
        and square_distance(state, attacker, target) <= CLOSE_M
    ):
        return "critical"
    return outcome


def helped_on(state: DndState, creature: str, ability: str, skill: str | None) -> bool:
    """Whether Help gives ``creature``'s next check of ``ability`` (and ``skill``) advantage:
    Help on any check, or on the task of this skill or of this ability (a Strength task helps
    an Athletics check too)."""
    return any(
        effect.kind == "helped_check"
        or (effect.kind == "helped_task" and effect.source in (skill, ability))
        for effect in state.effects.on(creature)
    )


def check_mode(
    state: DndState,
    fighter: Fighter,
    extra: tuple[bool, bool],
    *,
    ability: str | None = None,
    skill: str | None = None,
) -> Mode:
    """The mode of an ability check of ``ability`` (and ``skill``): the GM's ``extra``
    (advantage, disadvantage), Help on the check (:func:`helped_on`; without an ability only
    Help on any check counts), and conditions that give disadvantage on checks (poisoned,
    frightened, exhaustion)."""
    kinds = kinds_on(state, fighter.id)
    tags = condition_tags(kinds)
    helped = helped_on(state, fighter.id, ability, skill) if ability else "helped_check" in kinds
    advantages = [extra[0], helped]
    disadvantages = [
        extra[1],
        "checks_disadvantage" in tags,
        "checks_disadvantage_in_sight" in tags,
        "checks_disadvantage" in exhaustion_of(state, fighter.id),
    ]
    return resolve_mode(sum(advantages), sum(disadvantages))


def may_react(state: DndState, who: str) -> bool:
    """Whether ``who`` can take an opportunity attack now (able, a melee attack, a reaction)."""
    fighter = state.fighters[who]
    if fighter.dead or "incapacitated" in condition_tags(kinds_on(state, who)):
        return False
    budgets = state.budgets.get(who)
    has_melee = any(not w.ranged for w in fighter.attacks)
    return has_melee and budgets is not None and economy.can_spend(budgets, "reaction", 1)


def save_mode(
    state: DndState, fighter: Fighter, ability: str, extra: tuple[bool, bool] = (False, False)
) -> tuple[Mode, bool]:
    """The mode of a saving throw and whether it fails by itself (paralyzed, stunned, …
    fail Strength and Dexterity saves; Dodge gives advantage on Dexterity saves unless lost;
    restrained gives disadvantage on them; exhaustion 3 and more on every save); ``extra`` is
    the GM's advantage and disadvantage."""
    kinds = kinds_on(state, fighter.id)
    tags = condition_tags(kinds)
    if ability in ("str", "dex") and "fails_str_dex_saves" in tags:
        return Mode.NORMAL, True
    advantages = [extra[0]]
    disadvantages = [extra[1], "saves_disadvantage" in exhaustion_of(state, fighter.id)]
    if ability == "dex":
        dodge_lost = "incapacitated" in tags or bool(kinds & SPEED_ZERO)
        advantages.append("dodging" in kinds and not dodge_lost)
        disadvantages.append("dex_saves_disadvantage" in tags)
    return resolve_mode(sum(advantages), sum(disadvantages)), False


def exhaustion_level(state: DndState, creature: str) -> int:
    """The creature's level of exhaustion (0 to 6)."""
    return effects.level_of(state.effects, "exhaustion", creature)


def exhaustion_of(state: DndState, creature: str) -> frozenset[str]:
    """What the creature's exhaustion does (the tags of its level and those below)."""
    return exhaustion_tags(exhaustion_level(state, creature))


def hp_max(state: DndState, fighter: Fighter) -> int:
    """The creature's hit point maximum, halved (rounded down) from exhaustion 4."""
    halved = "hp_max_half" in exhaustion_of(state, fighter.id)
    return fighter.max_hp // 2 if halved else fighter.max_hp


def speeds_of(state: DndState, fighter: Fighter) -> dict[str, Decimal]:
    """The creature's speeds with exhaustion applied: halved from level 2, 0 from level 5."""
    tags = exhaustion_of(state, fighter.id)
    if "speed_zero" in tags:
        return {mode: Decimal(0) for mode in fighter.speeds}
    if "speed_half" in tags:
        return {mode: metres / 2 for mode, metres in fighter.speeds.items()}
    return dict(fighter.speeds)


def save_action_bonus(target: Fighter, ability: str, cover: Cover) -> int:
    """A target's bonus on a save action's save: its ability modifier, plus its cover against
    the creature using it on a Dexterity save."""
    return target.modifier(ability) + (COVER_BONUS[cover] if ability == "dex" else 0)


def save_action_odds(
    state: DndState, creature: Fighter, target: Fighter, line: SaveLine
) -> SaveOdds:
    """P(save) of ``target`` against ``creature``'s save action and the damage it takes: the
    mode from its conditions, :func:`save_action_bonus`; an automatic failure (paralyzed …)
    never saves."""
    mode, fails = save_mode(state, target, line.save.ability)
    dice = [p.dice for p in line.save.damage]
    cover = cover_of(state, creature, target)
    bonus = save_action_bonus(target, line.save.ability, cover)
    extra = dice_pmf(save_extra(state, target.id, since=3))
    return save_damage(
        dice, bonus, line.save.dc, half=line.save.half, mode=mode, fails=fails, extra=extra
    )


def save_action_damage(
    state: DndState, creature: Fighter, target: Fighter, line: SaveLine
) -> dict[int, Fraction]:
    """The damage distribution of a save action on ``target`` (before its resistances)."""
    return dict(save_action_odds(state, creature, target, line).damage)


def cover_of(state: DndState, attacker: Fighter, target: Fighter) -> Cover:
    """The target's cover against the attacker from the walls and the other living creatures
    on the map (:mod:`.cover`)."""
    if attacker.position is None or target.position is None:
        raise RuleError(
            "dnd5e.not_placed", creature=attacker.id if attacker.position is None else target.id
        )
    walls = [
        state.grid.square(name) for name, kinds in state.grid.terrain.items() if "wall" in kinds
    ]
    bodies = [
        sq
        for f in state.fighters.values()
        if f.id not in (attacker.id, target.id) and f.position is not None and not f.dead
        for sq in footprint(f.position, f.size)
    ]
    return cover_between(
        footprint(attacker.position, attacker.size),
        footprint(target.position, target.size),
        walls,
        bodies,
    )
