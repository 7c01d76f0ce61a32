"""Casting spells at the table: what a ``cast`` command may do on the map, and what a cast's
dice mean, read off the table's state (the rules of a spell alone are in :mod:`.spells`).

Shared by :mod:`.decide` (checking and rolling), :mod:`.evolve` (applying a cast and
concentration), :mod:`.view` and the odds; nothing here changes the state. The rules:

* **Who and when**: a creature able to act, in a fight, casts a spell of its list (sheet or
  stat block); a spell of 1 action or 1 bonus action in its own turn, a reaction spell in any
  turn while it has its reaction. The casting time takes the action, the bonus action or the
  reaction; the one-spell rule of :func:`.spells.check_cast` holds within a turn.
* **Slots**: a levelled spell spends one slot of the chosen level (default: its own), which
  the sheet must have left; a cantrip spends none.
* **Range**: every target within the spell's range of the caster (touch: 1.5 m; self: the
  caster alone); an area's origin within range of the caster, a self-range area's origin the
  caster's square (the caster is not inside its own self-range area).
* **Targets**: an area spell affects every creature on the map inside its template (the table
  picks them, friend and foe); another spell the creatures named, no more than the spell
  allows (rules edition 4: Bless and its kin; edition 5 also the spells of one creature) and,
  from edition 5, none farther apart than its text allows (Hold Person: 9 m).
* **Volleys** (rules edition 2): a volley spell's missiles (Magic Missile's darts, Scorching
  Ray's rays, Eldritch Blast's beams) are split over the targets by naming a creature once per
  missile (a creature named twice takes two), or one creature for all of them; each missile
  rolls on its own. A table of edition 1 treats them as before: each creature named takes the
  whole spell.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from decimal import Decimal
from fractions import Fraction

from spieltisch.engine.errors import RuleError
from spieltisch.engine.grid import Size, distance, square_name
from spieltisch.systems.dnd5e import commands as c
from spieltisch.systems.dnd5e.actions import ActionOdds
from spieltisch.systems.dnd5e.areas import Template, creatures_in
from spieltisch.systems.dnd5e.data import monster
from spieltisch.systems.dnd5e.events import SpellTarget
from spieltisch.systems.dnd5e.lasting import dice_pmf, dice_total, no_damage_from
from spieltisch.systems.dnd5e.odds import (
    AttackOdds,
    DamageDice,
    attack_damage,
    attack_odds,
    save_damage,
)
from spieltisch.systems.dnd5e.queries import (
    CLOSE_M,
    armour_class,
    attack_mode,
    fighter_of,
    kinds_on,
    outcome_of,
    require_able,
    roll_extra,
    save_mode,
    square_distance,
)
from spieltisch.systems.dnd5e.rules import Mode, kept_d20
from spieltisch.systems.dnd5e.spells import (
    Spell,
    Spellcasting,
    imposed_conditions,
    missile_count,
    missile_spell,
    missiles_damage,
    spell_damage_dice,
    spell_heal_dice,
    spell_info,
    target_limit,
    targets_apart_m,
    targets_leap_m,
)
from spieltisch.systems.dnd5e.state import DndState, Fighter, TurnSpells, Weapon

__all__ = [
    "CastPlan",
    "TargetResult",
    "attack_outcome_of",
    "cast_info",
    "cast_plan",
    "cast_result",
    "casting_at",
    "casting_of",
    "damage_dice",
    "dice_count",
    "heal_dice",
    "save_bonus_of",
    "saved_of",
    "shielded_from",
    "slot_of",
    "slots_left",
    "spell_weapon",
    "target_odds",
    "turn_spells",
]


def casting_of(fighter: Fighter) -> Spellcasting:
    """The creature's spellcasting; ``dnd5e.spell.no_spellcasting`` when it has none."""
    found = fighter.casting()
    if found is None:
        raise RuleError("dnd5e.spell.no_spellcasting", creature=fighter.id)
    return found


def casting_at(state: DndState, fighter: Fighter) -> Spellcasting:
    """The creature's spellcasting as the table's rules edition reads it (from edition 5 an
    innate caster's unstated DC and attack bonus follow from its proficiency and ability);
    ``dnd5e.spell.no_spellcasting`` when it has none."""
    found = fighter.casting(derived=state.options.edition >= 5)
    if found is None:
        raise RuleError("dnd5e.spell.no_spellcasting", creature=fighter.id)
    return found


def save_bonus_of(fighter: Fighter, ability: str) -> int:
    """A creature's saving throw bonus: its stat block's, else the ability's modifier."""
    entry = monster(fighter.monster) if fighter.monster and fighter.monster != "custom" else None
    saves = (entry or {}).get("saves", {})
    return int(saves.get(ability, fighter.modifier(ability)))


def slots_left(state: DndState, fighter: Fighter) -> tuple[int, ...]:
    """The slots the creature has left, by spell level (1st first)."""
    found = fighter.casting()
    if found is None:
        return ()
    used = state.slots_used.get(fighter.id, ())
    return tuple(n - (used[i] if i < len(used) else 0) for i, n in enumerate(found.slots))


def slot_of(info: Spell, slot: int | None) -> int:
    """The slot level a command asks for: its own, else the spell's level (0: a cantrip)."""
    return info.level if slot is None else slot


def spell_weapon(info: Spell, casting: Spellcasting) -> Weapon:
    """An attack spell as the attack rules see it (its bonus, melee or ranged)."""
    return Weapon(
        name=info.name,
        bonus=casting.attack_bonus,
        damage=(),
        ranged=info.attack == "ranged",
    )


def damage_dice(info: Spell, slot: int, caster: Fighter) -> list[DamageDice]:
    """The damage dice of a casting by this caster (its level for a cantrip, the modifier of
    its spellcasting ability for ``MOD``)."""
    casting = casting_of(caster)
    return spell_damage_dice(
        info, slot, character_level=casting.level, modifier=caster.modifier(casting.ability)
    )


def heal_dice(info: Spell, slot: int, caster: Fighter) -> list[DamageDice]:
    """The healing dice of a casting by this caster."""
    casting = casting_of(caster)
    return spell_heal_dice(info, slot, modifier=caster.modifier(casting.ability))


def turn_spells(state: DndState, creature: str) -> TurnSpells:
    """What ``creature`` cast in its turn of the current round (nothing in a new turn)."""
    round_ = state.encounter.round if state.encounter is not None else 0
    found = state.spell_turns.get(creature)
    return found if found is not None and found.round == round_ else TurnSpells(round=round_)


def cast_info(state: DndState, spell_id: str) -> Spell:
    """A spell as the table's rules edition casts it: in edition 2 a volley spell is cast as
    its missiles (:func:`.spells.missile_spell`), each rolled on its own."""
    info = spell_info(spell_id)
    return missile_spell(info) if state.options.edition >= 2 else info


def _missiles(state: DndState, info: Spell, slot: int, caster: Fighter) -> int:
    """How many missiles the cast makes (0: no volley, or a table of edition 1)."""
    if state.options.edition < 2:
        return 0
    return missile_count(info, slot, character_level=casting_of(caster).level)


@dataclass(frozen=True)
class CastPlan:
    """A ``cast`` checked against the map: the caster, spell, slot, casting time, the
    template (an area spell's), the creatures it affects and how many of a volley's missiles
    each takes (``shots``, by target; one each for any other spell)."""

    caster: Fighter
    casting: Spellcasting
    info: Spell
    slot: int
    unit: str
    template: Template | None
    targets: tuple[Fighter, ...]
    shots: tuple[int, ...] = ()

    def shots_at(self, target: str) -> int:
        """How many missiles (or rolls) the cast has at ``target``."""
        for fighter, shots in zip(self.targets, self.shots, strict=False):
            if fighter.id == target:
                return shots
        return 1


def cast_plan(state: DndState, command: c.Cast) -> CastPlan:
    """Check who casts what when and at whom (the budgets, slots and the one-spell rule are
    checked when the cast is applied); :class:`RuleError` naming the value otherwise."""
    caster = fighter_of(state, command.creature)
    require_able(state, caster)
    casting = casting_at(state, caster)
    info = cast_info(state, command.spell)
    if info.id not in casting.spells and info.id not in casting.innate:
        raise RuleError("dnd5e.spell.not_known", creature=caster.id, spell=info.name)
    if not info.in_combat:
        raise RuleError("dnd5e.spell.too_long", spell=info.name)
    fight = state.encounter
    if fight is None:
        raise RuleError("dnd5e.no_combat")
    if state.pending is not None:
        raise RuleError("dnd5e.reaction_pending", creature=state.pending.reactors[0])
    if state.waiting_for is not None:
        raise RuleError("dnd5e.hit_pending", creature=state.waiting_for)
    if info.casting_unit != "reaction" and fight.current != caster.id:
        raise RuleError("dnd5e.not_your_turn", creature=caster.id, current=fight.current)
    if caster.position is None:
        raise RuleError("dnd5e.not_placed", creature=caster.id)
    slot = slot_of(info, command.slot)
    template = _template(state, caster, info, command)
    names = command.targets
    count = _missiles(state, spell_info(info.id), slot, caster)
    if count:
        names = _volley(info, count, names)
    if template is not None:
        targets = _inside(state, caster, info, template)
    else:
        targets = _targets(state, caster, info, tuple(dict.fromkeys(names)) if count else names)
        _count_targets(state, info, slot, targets)
    shots = tuple(names.count(t.id) for t in targets) if count else (1,) * len(targets)
    return CastPlan(caster, casting, info, slot, info.casting_unit, template, targets, shots)


def _count_targets(state: DndState, info: Spell, slot: int, targets: tuple[Fighter, ...]) -> None:
    """Refuse more targets than the spell allows at ``slot`` (rules edition 4: Bless and Bane
    3, one more per slot level above 1st; edition 5 also the spells of one creature), naming
    the count (``dnd5e.spell.too_many_targets``, a cantrip's ``dnd5e.spell.cantrip_targets``),
    and from edition 5 targets farther apart than the spell allows (Hold Person: 9 m;
    ``dnd5e.spell.targets_apart``); from edition 6 a creature farther from the first one
    named than a leaping spell leaps (Chain Lightning: 9 m; ``dnd5e.spell.leap_too_far``)."""
    edition = state.options.edition
    limit = target_limit(info, slot, edition=edition)
    if edition >= 4 and limit is not None and len(targets) > limit:
        code = "dnd5e.spell.cantrip_targets" if info.level == 0 else "dnd5e.spell.too_many_targets"
        raise RuleError(code, spell=info.name, slot=slot, count=limit, given=len(targets))
    leap = targets_leap_m(info) if edition >= 6 else None
    if leap is not None:
        _check_leaps(state, info, targets, leap)
    apart = targets_apart_m(info)
    if edition < 5 or apart is None:
        return
    for i, first in enumerate(targets):
        for second in targets[i + 1 :]:
            far = square_distance(state, first, second)
            if far > apart:
                raise RuleError(
                    "dnd5e.spell.targets_apart",
                    spell=info.name,
                    first=first.id,
                    second=second.id,
                    distance=str(far),
                    apart=str(apart),
                )


def _check_leaps(state: DndState, info: Spell, targets: tuple[Fighter, ...], leap: Decimal) -> None:
    """Refuse a creature farther than ``leap`` from the first one named, from which a leaping
    spell (Chain Lightning) leaps to the others (``dnd5e.spell.leap_too_far``)."""
    for other in targets[1:]:
        far = square_distance(state, targets[0], other)
        if far > leap:
            raise RuleError(
                "dnd5e.spell.leap_too_far",
                spell=info.name,
                first=targets[0].id,
                target=other.id,
                distance=str(far),
                leap=str(leap),
            )


def _volley(info: Spell, count: int, names: tuple[str, ...]) -> tuple[str, ...]:
    """The target of each of a volley's ``count`` missiles: the one creature named for all,
    else one name per missile; ``dnd5e.spell.missiles`` otherwise."""
    if len(names) == 1:
        return names * count
    if len(names) != count:
        raise RuleError("dnd5e.spell.missiles", spell=info.name, count=count, given=len(names))
    return names


def _range_m(info: Spell) -> Decimal | None:
    """The spell's range in metres (touch: 1.5 m; None: no limit the map checks)."""
    if info.range == "touch":
        return CLOSE_M
    if info.range == "distance" and info.range_m is not None:
        return Decimal(str(info.range_m))
    return None


def _template(state: DndState, caster: Fighter, info: Spell, command: c.Cast) -> Template | None:
    if info.area is None:
        if command.area is not None:
            raise RuleError("dnd5e.spell.no_area", spell=info.name)
        return None
    if command.area is None:
        raise RuleError("dnd5e.spell.needs_area", spell=info.name)
    if command.targets:
        raise RuleError("dnd5e.spell.area_targets", spell=info.name)
    assert caster.position is not None
    origin = state.grid.square(command.area.origin)
    toward = state.grid.square(command.area.toward) if command.area.toward else None
    if info.range == "self":
        if origin != caster.position:
            raise RuleError("dnd5e.spell.self_origin", spell=info.name, square=command.area.origin)
    else:
        reach = _range_m(info)
        far = distance(state.grid, caster.position, caster.size, origin, Size.MEDIUM)
        if reach is not None and far > reach:
            raise RuleError(
                "dnd5e.spell.area_out_of_range",
                spell=info.name,
                square=square_name(origin),
                range=str(reach),
            )
    area = info.area
    return Template(
        shape=area["shape"],
        size_m=Decimal(str(area["size_m"])),
        width_m=Decimal(str(area.get("width_m", "1.5"))),
        origin=origin,
        toward=toward,
    )


def _inside(
    state: DndState, caster: Fighter, info: Spell, template: Template
) -> tuple[Fighter, ...]:
    """The creatures inside a template (not the caster of a self-range area)."""
    placed = {
        f.id: (f.position, f.size)
        for f in state.fighters.values()
        if f.position is not None
        and not f.dead
        and not (info.range == "self" and f.id == caster.id)
    }
    inside = creatures_in(template, placed, state.grid.width, state.grid.height)
    return tuple(state.fighters[who] for who in inside)


def _targets(
    state: DndState, caster: Fighter, info: Spell, names: tuple[str, ...]
) -> tuple[Fighter, ...]:
    if info.range == "self":
        if any(n != caster.id for n in names):
            raise RuleError("dnd5e.spell.self_only", spell=info.name)
        return (caster,)
    if len(set(names)) != len(names):
        raise RuleError("dnd5e.spell.twice", spell=info.name)
    reach = _range_m(info)
    # a leaping spell (rules edition 6) needs only its first target within range
    leaps = state.options.edition >= 6 and targets_leap_m(info) is not None
    out: list[Fighter] = []
    for name in names:
        target = fighter_of(state, name)
        if target.dead or target.position is None:
            raise RuleError("dnd5e.bad_target", target=target.id)
        if info.attack and target.id == caster.id:
            raise RuleError("dnd5e.bad_target", target=target.id)
        leaped_to = leaps and bool(out)  # measured from the first target, not the caster
        if reach is not None and not leaped_to and square_distance(state, caster, target) > reach:
            raise RuleError(
                "dnd5e.spell.out_of_range", spell=info.name, target=target.id, range=str(reach)
            )
        out.append(target)
    if not out and info.mechanical:
        raise RuleError("dnd5e.spell.needs_target", spell=info.name)
    return tuple(out)


# ---------------------------------------------------------------- what a cast's dice mean


@dataclass(frozen=True)
class TargetResult:
    """What a cast did to one creature: the attack's outcome (``hit``, ``critical``,
    ``miss``), the save's (``saved``, ``failed``) or ``affected`` (no roll), the damage (before
    resistances), the healing and the conditions imposed."""

    target: str
    outcome: str
    damage: int = 0
    healed: int = 0
    conditions: tuple[str, ...] = ()


def attack_outcome_of(
    state: DndState,
    caster: Fighter,
    target: Fighter,
    info: Spell,
    d20: tuple[int, ...],
    mode: str,
    extra: int = 0,
) -> str:
    """Miss, hit or critical of a spell attack with these d20s (``extra``: what the effect
    dice add, Bless's d4)."""
    weapon = spell_weapon(info, casting_at(state, caster))
    return outcome_of(state, caster, target, weapon, kept_d20(d20, Mode(mode)), extra)


def saved_of(
    target: Fighter, info: Spell, dc: int, d20: tuple[int, ...], mode: str, extra: int = 0
) -> bool:
    """Whether the target made its save with these d20s (none: it failed by itself;
    ``extra``: what the effect dice add)."""
    ability = info.save_ability or "dex"
    return bool(d20) and kept_d20(d20, Mode(mode)) + save_bonus_of(target, ability) + extra >= dc


def shielded_from(state: DndState, target: Fighter, info: Spell) -> bool:
    """Whether a lasting effect on the target keeps the spell's damage off it (Shield:
    Magic Missile)."""
    return no_damage_from(kinds_on(state, target.id), info.id)


def _total(dice: list[DamageDice], times: int, rolled: tuple[int, ...]) -> int:
    """The sum of rolled dice for ``dice`` (each count × ``times``) plus the modifiers;
    ``dnd5e.spell.bad_dice`` when the rolled dice do not fit."""
    sides = [d.sides for d in dice for _ in range(d.count * times)]
    if len(sides) != len(rolled) or any(
        not 1 <= r <= s for r, s in zip(rolled, sides, strict=True)
    ):
        raise RuleError("dnd5e.spell.bad_dice", dice=len(rolled))
    if times == 0:
        return 0
    return max(sum(rolled) + sum(d.modifier for d in dice), 0)


def dice_count(dice: list[DamageDice], times: int) -> list[int]:
    """The sides of each die to roll for ``dice`` (each count × ``times``)."""
    return [d.sides for d in dice for _ in range(d.count * times)]


def cast_result(
    state: DndState, caster: Fighter, info: Spell, slot: int, roll: SpellTarget
) -> TargetResult:
    """What ``roll`` means for its target by the rules (see :mod:`.spells`)."""
    target = fighter_of(state, roll.target)
    damage = [] if shielded_from(state, target, info) else damage_dice(info, slot, caster)
    if info.attack:
        extra = dice_total(roll_extra(state, caster.id, "attack"), roll.effect_dice)
        outcome = attack_outcome_of(state, caster, target, info, roll.d20, roll.mode, extra)
        times = {"miss": 0, "hit": 1, "critical": 2}[outcome]
        return TargetResult(target.id, outcome, damage=_total(damage, times, roll.dice))
    if info.save_ability:
        signed = roll_extra(state, target.id, "save") if roll.d20 else ()
        extra = dice_total(signed, roll.effect_dice)
        dc = casting_at(state, caster).save_dc
        saved = saved_of(target, info, dc, roll.d20, roll.mode, extra)
        if saved and info.save_success != "half":
            _total(damage, 0, roll.dice)
            return TargetResult(target.id, "saved")
        total = _total(damage, 1 if damage else 0, roll.dice)
        if saved:
            return TargetResult(target.id, "saved", damage=total // 2)
        return TargetResult(target.id, "failed", damage=total, conditions=imposed_conditions(info))
    heal = heal_dice(info, slot, caster)
    if heal:
        return TargetResult(target.id, "affected", healed=_total(heal, 1, roll.dice))
    return TargetResult(target.id, "affected", damage=_total(damage, 1 if damage else 0, roll.dice))


# ---------------------------------------------------------------- odds before casting

_SURE = AttackOdds(hit=Fraction(1), critical=Fraction(0), miss=Fraction(0))


def target_odds(state: DndState, plan: CastPlan, target: Fighter) -> ActionOdds:
    """The exact odds of a planned cast against one target: P(hit) or P(save), and the
    damage (before resistances) or the healing as a distribution; a volley's missiles at the
    target add up (``hit`` is one missile's)."""
    found = _one_target_odds(state, plan, target)
    shots = plan.shots_at(target.id)
    if shots == 1:
        return found
    return replace(found, damage=missiles_damage(found.damage, shots))


def _one_target_odds(state: DndState, plan: CastPlan, target: Fighter) -> ActionOdds:
    info, caster = plan.info, plan.caster
    damage = [] if shielded_from(state, target, info) else damage_dice(info, plan.slot, caster)
    if info.attack:
        weapon = spell_weapon(info, plan.casting)
        mode = attack_mode(state, caster, target, weapon, (False, False))
        extra = dice_pmf(roll_extra(state, caster.id, "attack"))
        odds = attack_odds(
            plan.casting.attack_bonus, armour_class(state, target), mode, extra=extra
        )
        return ActionOdds(
            kind="attack",
            name=info.name,
            damage=attack_damage(damage, odds),
            hit=odds.hit,
            critical=odds.critical,
            miss=odds.miss,
        )
    if info.save_ability:
        mode, fails = save_mode(state, target, info.save_ability)
        conditions = imposed_conditions(info)
        if fails:
            return ActionOdds(
                kind="save",
                name=info.name,
                damage=attack_damage(damage, _SURE),
                save_success=Fraction(0),
                conditions=conditions,
            )
        bonus = save_bonus_of(target, info.save_ability)
        result = save_damage(
            damage,
            bonus,
            plan.casting.save_dc,
            half=info.save_success == "half",
            mode=mode,
            extra=dice_pmf(roll_extra(state, target.id, "save")),
        )
        return ActionOdds(
            kind="save",
            name=info.name,
            damage=result.damage,
            save_success=result.success,
            conditions=conditions,
        )
    heal = heal_dice(info, plan.slot, caster)
    return ActionOdds(
        kind="heal" if heal else "effect",
        name=info.name,
        damage=attack_damage(heal or damage, _SURE),
    )
