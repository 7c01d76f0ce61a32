"""Folding events: :func:`evolve` applies one event by the rules of :mod:`.rules`,
:mod:`.movement` and the toolkit, or raises :class:`RuleError` when it does not apply.

Every event kind has one handler; :func:`evolve` dispatches with ``match`` and
:func:`~typing.assert_never`, so a new event kind without a handler fails the type check.
"""

from __future__ import annotations

from decimal import Decimal
from typing import assert_never

from spieltisch.engine import economy, effects, encounter
from spieltisch.engine.effects import Duration
from spieltisch.engine.encounter import Combatant, PhaseEvent
from spieltisch.engine.errors import RuleError
from spieltisch.engine.grid import parse_square, square_name
from spieltisch.systems.dnd5e import events as e
from spieltisch.systems.dnd5e.actions import monster_action
from spieltisch.systems.dnd5e.auras import aura_dice, aura_info
from spieltisch.systems.dnd5e.casting import (
    TargetResult,
    cast_info,
    cast_result,
    casting_at,
    save_bonus_of,
    slots_left,
    turn_spells,
)
from spieltisch.systems.dnd5e.conditions import (
    ConditionTrack,
    Ended,
    RepeatSave,
    engine_duration,
    exhaustion_tags,
)
from spieltisch.systems.dnd5e.data import CONDITIONS, catalog, condition_tags
from spieltisch.systems.dnd5e.hitdice import regained_on_long_rest
from spieltisch.systems.dnd5e.lasting import LastingSpell, dice_total, lasting_spell
from spieltisch.systems.dnd5e.legendary import lair_count_passed, per_round, resistances_per_day
from spieltisch.systems.dnd5e.movement import SPEED_ZERO, TurnMovement, check_move
from spieltisch.systems.dnd5e.queries import (
    body_of,
    exhaustion_level,
    fighter_of,
    hp_max,
    kinds_on,
    marked_dice,
    others_of,
    outcome_of,
    require_able,
    roll_extra,
    save_action_bonus,
    save_boost,
    save_mode,
    square_distance,
)
from spieltisch.systems.dnd5e.rules import (
    DeathSaves,
    Mode,
    damage_at_zero,
    death_save,
    kept_d20,
    modify_damage,
    take_damage,
)
from spieltisch.systems.dnd5e.spells import (
    CastingTurn,
    Spell,
    check_cast,
    check_slot,
    concentrate,
    concentration_dc,
    keeps_concentration,
    spell_info,
)
from spieltisch.systems.dnd5e.statblock import DAMAGE_TYPES, SaveLine
from spieltisch.systems.dnd5e.state import (
    BUDGETS,
    Aura,
    CheckRoll,
    Concentrating,
    DndState,
    Fighter,
    HeldHit,
    HeldRoll,
    HeldSpell,
    LastAttack,
    PlacedTemplate,
    TurnSpells,
    Weapon,
)

__all__ = ["bonus_spells", "end_concentration", "evolve", "fight_over", "fold", "rested"]


def evolve(state: DndState, event: e.Event) -> DndState:
    """Apply one event by the rules; :class:`RuleError` when it does not apply."""
    match event:
        case e.FighterAdded():
            return _fighter_added(state, event)
        case e.CombatStarted():
            return _combat_started(state, event)
        case e.TerrainSet():
            return _terrain_set(state, event)
        case e.GroundSet():
            return _ground_set(state, event)
        case e.Moved():
            return _moved(state, event)
        case e.Attacked():
            return _attacked(state, event)
        case e.Declined():
            return _after_reaction(state, event.creature)
        case e.ActionTaken():
            return _action_taken(state, event)
        case e.Readied():
            return _readied(state, event)
        case e.ReadyFired():
            return _ready_fired(state, event)
        case e.BonusTaken():
            return _bonus_taken(state, event)
        case e.TurnEnded():
            return _turn_ended(state)
        case e.Damaged():
            target = fighter_of(state, event.target)
            return _hurt(state, target, event.amount, event.type, event.critical)
        case e.Healed():
            return _healed(state, event)
        case e.HitDiceSpent():
            return _hit_dice_spent(state, event)
        case e.MonsterActionUsed():
            return _monster_action_used(state, event)
        case e.Recharged():
            return _recharged(state, event)
        case e.ConditionSet():
            return _condition_set(state, event)
        case e.ConditionSaved():
            return _condition_saved(state, event)
        case e.Fell():
            return _fell(state, event)
        case e.CheckRolled():
            fighter_of(state, event.creature)
            if event.helped:
                state = _help_used(state, event.creature, event.roll)
            return state.model_copy(update={"last_check": event.model_dump(mode="json")})
        case e.Contested():
            return _contested(state, event)
        case e.Revealed():
            return _revealed(state, event)
        case e.SaveRolled():
            fighter_of(state, event.creature)
            return state.model_copy(update={"last_save": event.model_dump(mode="json")})
        case e.DeathSaved():
            return _death_saved(state, event)
        case e.AuraStruck():
            return _aura_struck(state, event)
        case e.SpellCast():
            return _spell_cast(state, event)
        case e.SpellLanded():
            return _spell_landed(state, event)
        case e.ConcentrationSaved():
            return _concentration_saved(state, event)
        case e.ConcentrationEnded():
            if state.concentration.get(event.creature) is None:
                raise RuleError("dnd5e.spell.not_concentrating", creature=event.creature)
            return end_concentration(state, event.creature)
        case e.CombatEnded():
            if state.encounter is None:
                raise RuleError("dnd5e.no_combat")
            return fight_over(state)
        case e.Rested():
            return rested(state, event)
        case e.LegendaryOffered():
            return _track(state, window=event.creature)
        case e.LegendaryUsed():
            return _legendary_used(state, event)
        case e.SaveActionRolled():
            return _save_action(state, event)
        case e.LegendaryResisted():
            return _legendary_resisted(state, event)
        case e.LairSet():
            return _lair_set(state, event)
        case e.LairActionTaken():
            return _lair_action(state, event)
        case _:
            assert_never(event)


def fold(state: DndState, events: list[e.Event]) -> DndState:
    """``state`` after every event in turn."""
    for event in events:
        state = evolve(state, event)
    return state


# ---------------------------------------------------------------- helpers


def _set(state: DndState, fighter: Fighter) -> DndState:
    return state.model_copy(update={"fighters": {**state.fighters, fighter.id: fighter}})


def add_effect(
    state: DndState,
    kind: str,
    target: str,
    duration: Duration | None = None,
    source: str | None = None,
) -> DndState:
    """``state`` with an effect of the catalog on ``target`` (a flyer may fall)."""
    fx, _ = effects.apply(state.effects, catalog(), kind, target, duration=duration, source=source)
    state = state.model_copy(update={"effects": fx})
    if "incapacitated" in condition_tags(frozenset({kind})):
        state = _release(state, target)
    return _falls(state, target)


def _falls(state: DndState, creature: str) -> DndState:
    """A flying creature knocked prone or at speed 0 falls unless it hovers."""
    fighter = state.fighters[creature]
    kinds = kinds_on(state, creature)
    if fighter.airborne and not fighter.hover and ("prone" in kinds or kinds & SPEED_ZERO):
        state = _set(state, fighter.model_copy(update={"airborne": False}))
        falling = (*(x for x in state.falling if x != creature), creature)
        return state.model_copy(update={"falling": falling})  # the GM gives the height
    return state


def _hurt(state: DndState, target: Fighter, amount: int, kind: str, critical: bool) -> DndState:
    resistances = target.resistances
    if "resists_all" in condition_tags(kinds_on(state, target.id)):  # petrified
        resistances = frozenset(DAMAGE_TYPES)
    dealt = modify_damage(
        amount,
        kind,
        resistances=resistances,
        vulnerabilities=target.vulnerabilities,
        immunities=target.immunities,
    )
    if dealt == 0 or target.dead:
        return state
    if target.hp == 0:
        saves = damage_at_zero(DeathSaves(target.death_successes, target.death_failures), critical)
        dead = saves.dead or dealt >= target.max_hp
        return _set(
            state,
            target.model_copy(
                update={"death_failures": saves.failures, "dead": dead, "stable": False}
            ),
        )
    result = take_damage(target.hp, target.temp_hp, target.max_hp, dealt)
    dead = result.instant_death or (result.hp == 0 and target.monster is not None)
    fighter = target.model_copy(update={"hp": result.hp, "temp_hp": result.temp_hp, "dead": dead})
    state = _set(state, fighter)
    if result.hp == 0 and not dead and "unconscious" not in kinds_on(state, target.id):
        # Falling unconscious drops the creature prone; regaining hit points ends the
        # unconsciousness, not the prone condition.
        state = add_effect(state, "unconscious", target.id)
        if "prone" not in kinds_on(state, target.id):
            state = add_effect(state, "prone", target.id)
    return state


def _hooks(
    state: DndState, markers: list[PhaseEvent], ending: tuple[str, int] | None = None
) -> DndState:
    """The phase markers of a turn change (``ending``: whose turn ended, in which round):
    effects tick and
    expire, the turn's owner gets its budgets back."""
    for marker in markers:
        fx, report = effects.tick(state.effects, catalog(), marker)
        state = _expired(state.model_copy(update={"effects": fx}), report.expired, ending)
        if marker.phase == "turn_start" and marker.combatant is not None:
            who = marker.combatant
            auras = {k: v.model_copy(update={"struck": ()}) for k, v in state.auras.items()}
            state = state.model_copy(update={"auras": auras})
            fighter = state.fighters[who]
            dying = fighter.hp == 0 and not fighter.stable and not fighter.dead
            if dying != fighter.death_save_due:
                fighter = fighter.model_copy(update={"death_save_due": dying})
                state = _set(state, fighter)
            state = _legendary_turn_start(state, who)
            budgets = economy.refresh(
                state.budgets[who],
                BUDGETS,
                "turn_start",
                {"bonus": 1 if fighter.bonus_actions or bonus_spells(fighter) else 0, "attacks": 0},
            )
            state = state.model_copy(
                update={
                    "budgets": {**state.budgets, who: budgets},
                    "movement": {**state.movement, who: TurnMovement()},
                    # A readied action lapses at the readier's next turn start.
                    "readied": {k: v for k, v in state.readied.items() if k != who},
                }
            )
    return state


def _pay(state: DndState, who: str, name: str, cost: int = 1) -> DndState:
    budgets = economy.spend(state.budgets[who], name, cost)
    return state.model_copy(update={"budgets": {**state.budgets, who: budgets}})


def _initiative_key(combatant: Combatant) -> tuple[Decimal, ...]:
    return encounter.by_initiative(combatant)


def _use_help(state: DndState, attacker: str, target: str) -> effects.Effects:
    for effect in state.effects.on(attacker):
        if effect.kind == "helped_attack" and effect.source == target:
            return effects.remove(state.effects, effect.id)
    return state.effects


def _after_reaction(state: DndState, reactor: str) -> DndState:
    pending = state.pending
    if pending is None or reactor not in pending.reactors:
        raise RuleError("dnd5e.no_reaction", creature=reactor)
    left = tuple(r for r in pending.reactors if r != reactor)
    return state.model_copy(
        update={"pending": pending.model_copy(update={"reactors": left}) if left else None}
    )


def _free_action(state: DndState, who: str, action: str) -> DndState:
    """The effect of Dash, Disengage or Hide (as an action or a bonus action)."""
    if action == "dash":
        mv = state.movement.get(who, TurnMovement())
        return state.model_copy(
            update={
                "movement": {**state.movement, who: mv.model_copy(update={"dashes": mv.dashes + 1})}
            }
        )
    if action == "disengage":
        return add_effect(state, "disengaged", who, Duration.until_turn_end(who))
    return add_effect(state, "hidden", who)


# ---------------------------------------------------------------- handlers


def _fighter_added(state: DndState, event: e.FighterAdded) -> DndState:
    fighter = event.fighter
    if fighter.id in state.fighters:
        raise RuleError("dnd5e.duplicate_id", creature=fighter.id)
    if fighter.position is not None:
        state.grid.square(square_name(fighter.position))
        body = body_of(state, fighter)
        check_move(state.grid, body, others_of(state, fighter), [], forced=True)
    state = _set(state, fighter)
    budgets = economy.new_budgets(BUDGETS)
    return state.model_copy(update={"budgets": {**state.budgets, fighter.id: budgets}})


def _combat_started(state: DndState, event: e.CombatStarted) -> DndState:
    combatants = []
    for who, roll in event.rolls:
        fighter = fighter_of(state, who)
        combatants.append(
            Combatant(
                id=who,
                side=fighter.side,
                initiative=Decimal(roll + fighter.modifier("dex")),
                tiebreak=(Decimal(fighter.abilities.get("dex", 10)),),
            )
        )
    fight, markers = encounter.start(combatants, _initiative_key)
    state = _hooks(state.model_copy(update={"encounter": fight}), list(markers))
    return _lair_clock(state, None, 0)


def _terrain_set(state: DndState, event: e.TerrainSet) -> DndState:
    grid = state.grid
    kinds = () if event.terrain is None else (event.terrain,)
    for name in event.squares:
        grid = grid.with_terrain(grid.square(name), *kinds)
    return state.model_copy(update={"grid": grid})


def _ground_set(state: DndState, event: e.GroundSet) -> DndState:
    height = Decimal(event.height_m)
    ground = {k: v for k, v in state.ground.items() if k not in event.squares}
    if height:
        ground.update(dict.fromkeys(event.squares, height))
    return state.model_copy(update={"ground": ground})


def _moved(state: DndState, event: e.Moved) -> DndState:
    fighter = fighter_of(state, event.creature)
    if event.stood_up:
        state = state.model_copy(
            update={"effects": effects.remove_kind(state.effects, "prone", fighter.id)}
        )
    fighter = fighter.model_copy(
        update={
            "position": parse_square(event.path[-1]),
            "airborne": event.airborne,
            "altitude_m": event.altitude_m,
        }
    )
    state = _set(state, fighter)
    if event.drag is not None:
        held = fighter_of(state, event.drag.creature)
        state = _set(state, held.model_copy(update={"position": parse_square(event.drag.path[-1])}))
    state = state.model_copy(
        update={
            "movement": {**state.movement, fighter.id: event.movement},
            "pending": event.pending,
        }
    )
    failed = any(not roll.succeeded for roll in event.rolls)  # a failed jump check: prone
    if failed and "prone" not in kinds_on(state, fighter.id):
        state = add_effect(state, "prone", fighter.id)
    return _out_of_reach(state, fighter.id)


def _attacked(state: DndState, event: e.Attacked) -> DndState:
    attacker = fighter_of(state, event.attacker)
    target = fighter_of(state, event.target)
    weapon = attacker.weapon(event.attack)
    if weapon is None:
        raise RuleError("dnd5e.unknown_attack", creature=attacker.id, attack=event.attack)
    held = state.held_hit
    if event.held:
        if held is not None or event.dice:
            raise RuleError("dnd5e.hit_pending", creature=target.id)
        roll = event.model_dump(include=set(HeldHit.model_fields))
        return state.model_copy(update={"held_hit": HeldHit(**roll)})
    if held is not None:
        if held != HeldHit(**event.model_dump(include=set(HeldHit.model_fields))):
            raise RuleError("dnd5e.hit_pending", creature=held.target)
        state = state.model_copy(update={"held_hit": None})
    if event.opportunity:
        state = _pay(state, attacker.id, "reaction")
        state = _after_reaction(state, attacker.id)
    elif not event.readied and not event.legendary:
        state = _one_attack(state, attacker)
        if attacker.attack_mix():
            used = (*state.multiattack_used.get(attacker.id, ()), weapon.name)
            state = state.model_copy(
                update={"multiattack_used": {**state.multiattack_used, attacker.id: used}}
            )
    state = state.model_copy(update={"effects": _use_help(state, attacker.id, target.id)})
    natural = kept_d20(event.d20, Mode(event.mode))
    boost = dice_total(roll_extra(state, attacker.id, "attack"), event.effect_dice)
    modifier = event.modifier + boost
    outcome = outcome_of(state, attacker, target, weapon, natural, modifier, event.cover)
    totals = (
        []
        if outcome == "miss"
        else [
            max(sum(rolled) + part.modifier, 0)
            for part, rolled in zip(weapon.damage, event.dice, strict=True)
        ]
    )
    last = LastAttack(
        attacker=attacker.id,
        target=target.id,
        attack=weapon.name,
        mode=event.mode,
        natural=natural,
        total=natural + weapon.bonus + modifier,
        outcome=outcome,
        damage=sum(totals) if outcome != "miss" else 0,
        opportunity=event.opportunity,
    )
    state = state.model_copy(update={"last_attack": last})
    if "hidden" in kinds_on(state, attacker.id):  # attacking gives the attacker away
        state = _unhide(state, attacker.id)
    if outcome == "miss":
        return state
    critical = outcome == "critical"
    saved = _rider_saved(state, target, weapon, event)
    for part, total in zip(weapon.damage, totals, strict=True):
        state = _hurt(state, state.fighters[target.id], total, part.type, critical)
    state = _marked_hit(state, attacker, target, weapon, event, critical)
    for condition in weapon.conditions:
        state = add_effect(state, condition, target.id, source=attacker.id)
    if weapon.rider is None or not event.rider_dice:
        return state
    for part, rolled in zip(weapon.rider.damage, event.rider_dice, strict=True):
        total = max(sum(rolled) + part.modifier, 0)
        if saved:
            total = total // 2 if weapon.rider.half else 0
        state = _hurt(state, state.fighters[target.id], total, part.type, critical)
    if not saved:
        for condition in weapon.rider.conditions:
            state = add_effect(state, condition, target.id, source=attacker.id)
    return state


def _marked_hit(
    state: DndState,
    attacker: Fighter,
    target: Fighter,
    weapon: Weapon,
    event: e.Attacked,
    critical: bool,
) -> DndState:
    """A hit on a creature the attacker marked (Hunter's Mark): its extra dice, of the
    weapon's first damage type (``dnd5e.spell.bad_effect_dice`` when they do not fit)."""
    mark = marked_dice(state, attacker.id, target.id) if weapon.damage else None
    count = 0 if mark is None else mark.count * (2 if critical else 1)
    sides = 1 if mark is None else mark.sides
    if len(event.mark_dice) != count or any(not 1 <= d <= sides for d in event.mark_dice):
        raise RuleError("dnd5e.spell.bad_effect_dice", dice=len(event.mark_dice))
    if not count:
        return state
    dealt = sum(event.mark_dice)
    return _hurt(state, state.fighters[target.id], dealt, weapon.damage[0].type, critical)


def _rider_saved(state: DndState, target: Fighter, weapon: Weapon, event: e.Attacked) -> bool:
    """Whether the target made the save a hit forces (no d20: it failed by itself), with the
    lasting effects' dice on it from rules edition 3."""
    rolled = event.rider
    boost = save_boost(state, target.id, rolled, event.rider_effect_dice, since=3)
    if weapon.rider is None or not rolled:
        return False
    mode, _ = save_mode(state, target, weapon.rider.ability)
    bonus = target.modifier(weapon.rider.ability) + boost
    return kept_d20(rolled, mode) + bonus >= weapon.rider.dc


def _unhide(state: DndState, creature: str) -> DndState:
    return state.model_copy(
        update={
            "effects": effects.remove_kind(state.effects, "hidden", creature),
            "stealth": {k: v for k, v in state.stealth.items() if k != creature},
        }
    )


def _hidden(state: DndState, who: str, check: CheckRoll | None) -> DndState:
    """Hide: hidden when the Stealth check succeeded (an older record without a check: the
    GM's ruling, hidden)."""
    if check is not None and not check.succeeded:
        return state
    state = add_effect(state, "hidden", who)
    if check is None:
        return state
    return state.model_copy(update={"stealth": {**state.stealth, who: check.total}})


def _one_attack(state: DndState, attacker: Fighter) -> DndState:
    """One attack of the Attack action (the first takes the action)."""
    if state.budgets[attacker.id].amount("attacks") == 0:
        state = _pay(state, attacker.id, "action")
        budgets = economy.grant(state.budgets[attacker.id], "attacks", attacker.attacks_per_action)
        state = state.model_copy(
            update={
                "budgets": {**state.budgets, attacker.id: budgets},
                "multiattack_used": {**state.multiattack_used, attacker.id: ()},
            }
        )
    return _pay(state, attacker.id, "attacks")


def _contested(state: DndState, event: e.Contested) -> DndState:
    active = fighter_of(state, event.creature)
    fighter_of(state, event.target)
    if event.action == "escape":
        state = _pay(state, active.id, "action")
    else:
        state = _one_attack(state, active)
    # A check that had advantage from Help uses it up, on either side.
    if event.active_helped:
        state = _help_used(state, event.creature, event.active)
    if event.passive_helped:
        state = _help_used(state, event.target, event.passive)
    state = state.model_copy(update={"last_check": event.model_dump(mode="json")})
    if not event.won:
        return state
    match event.action:
        case "grapple":
            return add_effect(state, "grappled", event.target, source=active.id)
        case "shove_prone":
            return add_effect(state, "prone", event.target)
        case "shove_push":
            if event.push_to is None:
                return state
            target = state.fighters[event.target]
            moved = target.model_copy(update={"position": parse_square(event.push_to)})
            return _out_of_reach(_set(state, moved), target.id)
        case "escape":
            return state.model_copy(
                update={"effects": effects.remove_kind(state.effects, "grappled", active.id)}
            )


def _revealed(state: DndState, event: e.Revealed) -> DndState:
    """What a move ran into becomes visible: each creature as the GM's fold has it (on the
    shared fold it enters, with its budgets, and joins the fight), each wall painted."""
    for shown in event.creatures:
        fighter = shown.fighter
        if fighter.id not in state.budgets:
            budgets = economy.new_budgets(BUDGETS)
            state = state.model_copy(update={"budgets": {**state.budgets, fighter.id: budgets}})
        state = _set(state, fighter.model_copy(update={"secret": False}))
        fight = state.encounter
        if fight is not None and shown.combatant is not None and fighter.id not in fight.ids:
            fight, _ = encounter.join(fight, shown.combatant, _initiative_key)
            state = state.model_copy(update={"encounter": fight})
    grid = state.grid
    for name in event.walls:
        square = grid.square(name)
        grid = grid.with_terrain(square, *sorted({*grid.terrain_at(square), "wall"}))
    return state.model_copy(update={"grid": grid})


def _action_taken(state: DndState, event: e.ActionTaken) -> DndState:
    state = _pay(state, event.creature, "action")
    who = event.creature
    if event.helped and event.check is not None:
        state = _help_used(state, who, event.check)
    if event.action == "hide":
        return _hidden(state, who, event.check)
    if event.action == "search":
        for found in event.found:
            state = _unhide(state, found)
        return state
    if event.action in ("dash", "disengage"):
        return _free_action(state, who, event.action)
    if event.action == "dodge":
        return add_effect(state, "dodging", who, Duration.until_turn_start(who))
    if event.action == "help" and event.target is not None:
        # Attack help is keyed to the foe the helped ally attacks (the effect's source),
        # check help to the helper.
        # Check help on a task is keyed to that skill or ability.
        if event.help == "attack":
            kind, source = "helped_attack", event.foe
        elif event.task is not None:
            kind, source = "helped_task", event.task
        else:
            kind, source = "helped_check", who
        return add_effect(state, kind, event.target, Duration.until_turn_start(who), source=source)
    return state


def _help_used(state: DndState, creature: str, roll: CheckRoll) -> DndState:
    """``state`` once ``creature``'s check ``roll`` used the Help that gave it advantage: Help
    on any check, and Help on this check's task (its skill or its ability)."""
    fx = effects.remove_kind(state.effects, "helped_check", creature)
    for effect in fx.on(creature):
        if effect.kind == "helped_task" and effect.source in (roll.skill, roll.ability):
            fx = effects.remove(fx, effect.id)
    return state.model_copy(update={"effects": fx})


def _readied(state: DndState, event: e.Readied) -> DndState:
    who = event.creature
    state = _pay(state, who, "action")
    state = state.model_copy(update={"readied": {**state.readied, who: event.readied}})
    return add_effect(state, "readied", who, Duration.until_turn_start(who))


def _ready_fired(state: DndState, event: e.ReadyFired) -> DndState:
    who = event.creature
    if who not in state.readied:
        raise RuleError("dnd5e.nothing_readied", creature=who)
    state = _pay(state, who, "reaction")
    left = {k: v for k, v in state.readied.items() if k != who}
    return state.model_copy(
        update={"readied": left, "effects": effects.remove_kind(state.effects, "readied", who)}
    )


def _bonus_taken(state: DndState, event: e.BonusTaken) -> DndState:
    state = _pay(state, event.creature, "bonus")
    if event.feature == "hide":
        return _hidden(state, event.creature, event.check)
    if event.feature in ("disengage", "dash"):
        return _free_action(state, event.creature, event.feature)
    return state


def _turn_ended(state: DndState) -> DndState:
    if state.encounter is None:
        raise RuleError("dnd5e.no_combat")
    before = state.encounter
    state = _tracked(state, state.conditions.turn_ending(before.current or "", before.round))
    fight, markers = encounter.next_turn(before)
    state = _hooks(
        state.model_copy(update={"encounter": fight}),
        list(markers),
        (before.current or "", before.round),
    )
    ended = before.combatant(before.current).initiative if before.current else None
    return _lair_clock(_track(state, window=None), ended, before.round)


def _healed(state: DndState, event: e.Healed) -> DndState:
    fighter = fighter_of(state, event.target)
    if fighter.dead:
        raise RuleError("dnd5e.dead", creature=fighter.id)
    if event.temporary:
        return _set(
            state, fighter.model_copy(update={"temp_hp": max(fighter.temp_hp, event.amount)})
        )
    healed = fighter.model_copy(
        update={"hp": min(hp_max(state, fighter), fighter.hp + event.amount)}
    )
    if healed.hp > 0 and fighter.hp == 0:
        healed = healed.model_copy(
            update={"death_successes": 0, "death_failures": 0, "stable": False}
        )
        state = state.model_copy(
            update={"effects": effects.remove_kind(state.effects, "unconscious", fighter.id)}
        )
    return _set(state, healed)


def _monster_action_used(state: DndState, event: e.MonsterActionUsed) -> DndState:
    """A save action as the monster's action: paid for, and spent until it recharges."""
    state = _pay(state, event.creature, "action")
    if event.recharge is None:
        return state
    spent = (*state.recharging.get(event.creature, ()), event.action)
    return state.model_copy(update={"recharging": {**state.recharging, event.creature: spent}})


def _recharged(state: DndState, event: e.Recharged) -> DndState:
    spent = state.recharging.get(event.creature, ())
    if event.action not in spent:
        raise RuleError(
            "dnd5e.monster_action.unknown", creature=event.creature, action=event.action
        )
    if not event.ready:
        return state
    left = tuple(x for x in spent if x != event.action)
    recharging = {k: v for k, v in state.recharging.items() if k != event.creature}
    if left:
        recharging[event.creature] = left
    return state.model_copy(update={"recharging": recharging})


def _hit_dice_spent(state: DndState, event: e.HitDiceSpent) -> DndState:
    """Hit dice spent outside a fight: fewer left, and their healing (as any healing: one
    at 0 hit points wakes)."""
    if state.encounter is not None:
        raise RuleError("dnd5e.rest.in_combat")
    fighter = fighter_of(state, event.creature)
    if (
        fighter.hit_dice is None
        or fighter.hit_dice_spent + len(event.rolls) > fighter.hit_dice.count
    ):
        raise RuleError("dnd5e.hit_dice.none", creature=fighter.id)
    spent = fighter.model_copy(update={"hit_dice_spent": fighter.hit_dice_spent + len(event.rolls)})
    return _healed(_set(state, spent), e.Healed(target=fighter.id, amount=event.healed))


def _condition_set(state: DndState, event: e.ConditionSet) -> DndState:
    state = _tracked(state, state.conditions.without(event.target, event.condition))
    if event.remove and event.condition == "hidden":
        return _unhide(state, event.target)
    if event.remove:
        return state.model_copy(
            update={"effects": effects.remove_kind(state.effects, event.condition, event.target)}
        )
    duration = event.duration
    state = add_effect(
        state, event.condition, event.target, engine_duration(duration), source=event.source
    )
    if duration is not None and duration.until == "save":
        repeat = RepeatSave(
            target=event.target,
            condition=event.condition,
            ability=duration.ability or "con",
            dc=duration.dc or 10,
        )
        saves = (*state.conditions.saves, repeat)
        state = _tracked(state, state.conditions.model_copy(update={"saves": saves}))
    return _exhausted(state, event.target)


def _death_saved(state: DndState, event: e.DeathSaved) -> DndState:
    fighter = fighter_of(state, event.creature)
    boost = save_boost(state, fighter.id, (event.d20,), event.effect_dice, since=3)
    if boost != event.boost:
        raise RuleError("dnd5e.spell.bad_effect_dice", dice=len(event.effect_dice))
    saves, revived = death_save(
        DeathSaves(fighter.death_successes, fighter.death_failures), event.d20, boost
    )
    fighter = fighter.model_copy(update={"death_save_due": False})
    if revived:
        state = state.model_copy(
            update={"effects": effects.remove_kind(state.effects, "unconscious", fighter.id)}
        )
        return _set(
            state,
            fighter.model_copy(update={"hp": 1, "death_successes": 0, "death_failures": 0}),
        )
    return _set(
        state,
        fighter.model_copy(
            update={
                "death_successes": saves.successes,
                "death_failures": saves.failures,
                "stable": saves.stable,
                "dead": saves.dead,
            }
        ),
    )


# ---------------------------------------------------------------- spells and concentration

_BUDGET_OF = {"action": "action", "bonus_action": "bonus", "reaction": "reaction"}


def bonus_spells(fighter: Fighter) -> bool:
    """Whether the creature has a spell of 1 bonus action (which grants it a bonus action)."""
    found = fighter.casting()
    return found is not None and any(
        spell_info(key).casting_unit == "bonus_action" for key in found.spells
    )


def _spend_slot(state: DndState, caster: Fighter, info: Spell, slot: int) -> DndState:
    """One slot of ``slot`` level spent (a cantrip: none); ``dnd5e.spell.no_slot`` when the
    caster has none of that level left."""
    if check_slot(info, slot) == 0:
        return state
    found = caster.casting()
    if found is not None and info.id in found.innate:
        return _innate_use(state, caster.id, info, slot, found.innate[info.id])
    if slots_left(state, caster)[slot - 1 : slot] in ((), (0,)):
        raise RuleError("dnd5e.spell.no_slot", creature=caster.id, slot=slot)
    used = list(state.slots_used.get(caster.id, ()))
    used += [0] * (slot - len(used))
    used[slot - 1] += 1
    return state.model_copy(update={"slots_used": {**state.slots_used, caster.id: tuple(used)}})


def _innate_use(state: DndState, caster: str, info: Spell, slot: int, per_day: int) -> DndState:
    """An innate casting: at the spell's own level (``dnd5e.spell.innate_slot``), free at
    will, else one of its uses per day (``dnd5e.spell.no_uses`` when none is left)."""
    if slot != info.level:
        raise RuleError("dnd5e.spell.innate_slot", spell=info.name, level=info.level, slot=slot)
    if per_day == 0:
        return state
    used = dict(state.innate_used.get(caster, {}))
    if used.get(info.id, 0) >= per_day:
        raise RuleError("dnd5e.spell.no_uses", creature=caster, spell=info.name, count=per_day)
    used[info.id] = used.get(info.id, 0) + 1
    return state.model_copy(update={"innate_used": {**state.innate_used, caster: used}})


def _one_spell(state: DndState, caster: Fighter, info: Spell) -> DndState:
    """The one-spell rule within the caster's own turn (a reaction in another's turn is
    free of it)."""
    fight = state.encounter
    if fight is None or fight.current != caster.id:
        return state
    turn = turn_spells(state, caster.id)
    done = check_cast(
        info, CastingTurn(turn.bonus_action_spell, turn.other_spell, turn.cantrip_action)
    )
    now = TurnSpells(
        round=turn.round,
        bonus_action_spell=done.bonus_action_spell,
        other_spell=done.other_spell,
        cantrip_action=done.cantrip_action,
    )
    return state.model_copy(update={"spell_turns": {**state.spell_turns, caster.id: now}})


def end_concentration(state: DndState, creature: str) -> DndState:
    """``creature`` stops concentrating: the conditions its spell imposed end, its lasting
    template leaves the map, its aura ends."""
    held = state.concentration.get(creature)
    if held is None:
        return state
    items = tuple(
        x
        for x in state.effects.items
        if not (x.source == creature and (x.target, x.kind) in held.imposed)
    )
    templates = {k: v for k, v in state.templates.items() if not (k == creature and v.lasting)}
    return state.model_copy(
        update={
            "effects": state.effects.model_copy(update={"items": items}),
            "templates": templates,
            "auras": {k: v for k, v in state.auras.items() if k != creature},
            "concentration": {k: v for k, v in state.concentration.items() if k != creature},
        }
    )


def _spell_cast(state: DndState, event: e.SpellCast) -> DndState:
    caster = fighter_of(state, event.creature)
    info = cast_info(state, event.spell)
    if event.casting != info.casting_unit:
        raise RuleError("dnd5e.spell.casting_time", spell=info.name, casting=event.casting)
    state = _one_spell(state, caster, info)
    state = _pay(state, caster.id, _BUDGET_OF[event.casting])
    state = _spend_slot(state, caster, info, event.slot)
    imposed: list[tuple[str, str]] = []
    held = state.concentration.get(caster.id)
    _, ended = concentrate(held.spell if held else None, info)
    if ended is not None:  # one concentration at a time: the new spell ends the old
        state = end_concentration(state, caster.id)
    round_ = state.encounter.round if state.encounter is not None else 0
    templates = {k: v for k, v in state.templates.items() if k != caster.id}
    if event.template is not None:
        templates[caster.id] = PlacedTemplate(
            caster=caster.id,
            spell=info.id,
            template=event.template,
            round=round_,
            lasting=info.concentration,
        )
    state = state.model_copy(update={"templates": templates})
    if event.held:
        if state.held_spell is not None or state.held_hit is not None:
            raise RuleError("dnd5e.hit_pending", creature=state.waiting_for or caster.id)
        waiting = tuple(r for r in event.targets if r.target in event.held)
        if {r.target for r in waiting} != set(event.held):
            raise RuleError("dnd5e.bad_target", target=", ".join(event.held))
        if any(r.dice for r in waiting):
            raise RuleError("dnd5e.spell.bad_dice", dice=len(waiting[0].dice))
        rolls = tuple(HeldRoll(**r.model_dump(exclude={"dice"})) for r in waiting)
        waits = HeldSpell(caster=caster.id, spell=info.id, slot=event.slot, rolls=rolls)
        state = state.model_copy(update={"held_spell": waits})
    landed = tuple(r for r in event.targets if r.target not in event.held)
    state, results, imposed = _spell_results(state, caster, info, event.slot, landed)
    if info.attack and "hidden" in kinds_on(state, caster.id):
        state = _unhide(state, caster.id)
    if info.concentration and not state.fighters[caster.id].dead:
        held = Concentrating(spell=info.id, slot=event.slot, imposed=tuple(imposed))
        state = state.model_copy(update={"concentration": {**state.concentration, caster.id: held}})
        if event.damage_type is not None:  # an aura around the caster (rules edition 4)
            aura = Aura(
                spell=info.id, slot=event.slot, damage_type=event.damage_type, spared=event.spared
            )
            state = state.model_copy(update={"auras": {**state.auras, caster.id: aura}})
    return state.model_copy(update={"last_cast": _last_cast(event, results)})


def _last_cast(
    event: e.SpellCast | e.SpellLanded, results: list[TargetResult]
) -> dict[str, object]:
    last = event.model_dump(mode="json")
    last["results"] = [
        {
            "target": r.target,
            "outcome": r.outcome,
            "damage": r.damage,
            "healed": r.healed,
            "conditions": list(r.conditions),
        }
        for r in results
    ]
    return last


def _spell_results(
    state: DndState, caster: Fighter, info: Spell, slot: int, rolls: tuple[e.SpellTarget, ...]
) -> tuple[DndState, list[TargetResult], list[tuple[str, str]]]:
    """The spell's rolls at their targets as the rules make them (damage, healing,
    conditions, lasting effects), with the conditions and effects it imposed."""
    results = []
    imposed: list[tuple[str, str]] = []
    for roll in rolls:
        result = cast_result(state, caster, info, slot, roll)
        results.append(result)
        target = state.fighters[result.target]
        if result.damage:
            critical = result.outcome == "critical"
            kind = info.damage_type or "force"
            state = _hurt(state, target, result.damage, kind, critical)
        if result.healed:
            state = _healed(state, e.Healed(target=target.id, amount=result.healed))
        for condition in result.conditions:
            state = add_effect(state, condition, target.id, source=caster.id)
            imposed.append((target.id, condition))
        lasting = _lasting(state, info, result.outcome)
        if lasting is not None:
            until = (
                Duration.until_turn_start(caster.id) if lasting.until != "concentration" else None
            )
            state = add_effect(state, lasting.effect, target.id, duration=until, source=caster.id)
            if until is None:
                imposed.append((target.id, lasting.effect))
    return state, results, imposed


def _spell_landed(state: DndState, event: e.SpellLanded) -> DndState:
    """The rolls at one creature that waited for its decision to cast Shield, judged now (its
    Shield on, if cast): they must be the rolls that wait, in order, with their damage dice."""
    held = state.held_spell
    if held is None or (event.creature, event.spell, event.slot) != (
        held.caster,
        held.spell,
        held.slot,
    ):
        raise RuleError("dnd5e.no_hit_pending", creature=event.creature)
    rolls = tuple(HeldRoll(**r.model_dump(exclude={"dice"})) for r in event.targets)
    if not rolls or rolls != held.of(held.target):
        raise RuleError("dnd5e.hit_pending", creature=held.target)
    left = tuple(r for r in held.rolls if r.target != held.target)
    state = state.model_copy(
        update={"held_spell": held.model_copy(update={"rolls": left}) if left else None}
    )
    caster, info = fighter_of(state, event.creature), cast_info(state, event.spell)
    state, results, imposed = _spell_results(state, caster, info, event.slot, event.targets)
    concentrating = state.concentration.get(caster.id)
    if imposed and concentrating is not None and concentrating.spell == info.id:
        more = concentrating.model_copy(update={"imposed": (*concentrating.imposed, *imposed)})
        state = state.model_copy(update={"concentration": {**state.concentration, caster.id: more}})
    return state.model_copy(update={"last_cast": _last_cast(event, results)})


def _aura_struck(state: DndState, event: e.AuraStruck) -> DndState:
    """An aura's save and damage on a creature (half on a save where the aura says so), which
    it strikes at most once a turn."""
    aura = state.auras.get(event.caster)
    info = aura_info(aura.spell) if aura is not None else None
    if aura is None or info is None:
        raise RuleError("dnd5e.spell.no_aura", spell=event.caster)
    caster, target = fighter_of(state, event.caster), fighter_of(state, event.creature)
    count, sides = aura_dice(aura.spell, spell_info(aura.spell).level, aura.slot)
    if len(event.dice) != count or any(not 1 <= d <= sides for d in event.dice):
        raise RuleError("dnd5e.spell.bad_dice", dice=len(event.dice))
    ability = str(info["save"])
    mode, _ = save_mode(state, target, ability)
    boost = save_boost(state, target.id, event.d20, event.effect_dice)
    bonus = save_bonus_of(target, ability) + boost
    dc = casting_at(state, caster).save_dc
    saved = bool(event.d20) and kept_d20(event.d20, mode) + bonus >= dc
    damage = sum(event.dice)
    if saved:
        damage = damage // 2 if info.get("half") else 0
    state = _hurt(state, target, damage, aura.damage_type, False)
    struck = aura.model_copy(update={"struck": (*aura.struck, target.id)})
    return state.model_copy(update={"auras": {**state.auras, caster.id: struck}})


def rested(state: DndState, event: e.Rested) -> DndState:
    """A rest (an hour or more, outside a fight) ends every concentration of the creatures
    resting. A long rest restores a living
    creature's hit points (to its maximum, temporary ones gone, death saves cleared), all
    its spell slots and half its hit dice (at least one, :mod:`.hitdice`); a short rest a
    warlock's pact slots (hit dice are spent on their own, ``spend_hit_dice``)."""
    if state.encounter is not None:
        raise RuleError("dnd5e.rest.in_combat")
    for who in event.creatures:
        fighter_of(state, who)
    used = dict(state.slots_used)
    innate = dict(state.innate_used)
    for who in event.creatures:
        state = end_concentration(state, who)
        fighter = state.fighters[who]
        found = fighter.casting()
        if event.length == "long" or (found is not None and found.pact):
            used.pop(who, None)
        if event.length == "long":
            innate.pop(who, None)
        if event.length == "long" and not fighter.dead and fighter.hp > 0:
            whole = {"hp": hp_max(state, fighter), "temp_hp": 0, "death_successes": 0}
            if fighter.hit_dice is not None:
                whole["hit_dice_spent"] = regained_on_long_rest(
                    fighter.hit_dice, fighter.hit_dice_spent
                )
            state = _set(state, fighter.model_copy(update={**whole, "death_failures": 0}))
    return state.model_copy(update={"slots_used": used, "innate_used": innate})


def fight_over(state: DndState) -> DndState:
    """The fight ends: no turn order, spent budgets, movement, pending reaction or hit, readied
    actions, templates, actions waiting to recharge or effects bound to turns or rounds
    (Dodge, Shield …) any more; concentration and conditions without such a duration stay."""
    timed = tuple(x for x in state.effects.items if x.duration.phase is None)
    return _track(
        state.model_copy(
            update={
                "encounter": None,
                "budgets": {k: economy.new_budgets(BUDGETS) for k in state.budgets},
                "movement": {},
                "pending": None,
                "held_hit": None,
                "held_spell": None,
                "readied": {},
                "multiattack_used": {},
                "spell_turns": {},
                "templates": {},
                "recharging": {},
                "effects": state.effects.model_copy(update={"items": timed}),
            }
        ),
        window=None,
    )


def _lasting(state: DndState, info: Spell, outcome: str) -> LastingSpell | None:
    """The lasting effect a cast leaves on a target with this ``outcome`` (edition 2): on
    each creature affected, or each that failed its save (see :mod:`.lasting`)."""
    lasting = lasting_spell(info.id)
    if state.options.edition < 2 or lasting is None or lasting.on != outcome:
        return None
    return lasting


def _concentration_saved(state: DndState, event: e.ConcentrationSaved) -> DndState:
    held = state.concentration.get(event.creature)
    if held is None or held.spell != event.spell:
        raise RuleError("dnd5e.spell.not_concentrating", creature=event.creature)
    fighter = fighter_of(state, event.creature)
    mode = Mode(event.mode)
    signed = roll_extra(state, fighter.id, "save") if event.d20 else ()
    boost = dice_total(signed, event.effect_dice)
    kept = bool(event.d20) and keeps_concentration(
        kept_d20(event.d20, mode) + event.bonus + boost, event.damage
    )
    if kept != event.kept or event.dc != concentration_dc(event.damage):
        raise RuleError("dnd5e.spell.bad_concentration", creature=fighter.id)
    state = state.model_copy(update={"last_concentration": event.model_dump(mode="json")})
    return state if kept else end_concentration(state, fighter.id)


# ---------------------------------------------------------------- legendary and lair actions


def _track(state: DndState, **update: object) -> DndState:
    track = state.legendary.model_copy(update=update)
    return state.model_copy(update={"legendary": track})


def _legendary_turn_start(state: DndState, who: str) -> DndState:
    """A monster's legendary actions come back at the start of its turn."""
    if who not in state.legendary.spent:
        return state
    return _track(state, spent={k: v for k, v in state.legendary.spent.items() if k != who})


def _lair_clock(state: DndState, ended: Decimal | None, round_before: int) -> DndState:
    """After a turn change: the lair action is due when initiative count 20 passed (ties
    lost) and a monster is in its lair; an untaken one lapses."""
    fight = state.encounter
    due = False
    if fight is not None and fight.current is not None and state.legendary.lairs:
        now = fight.combatant(fight.current).initiative
        due = lair_count_passed(ended, now, fight.round != round_before)
    if due == state.legendary.lair_due:
        return state
    return _track(state, lair_due=due)


def _legendary_used(state: DndState, event: e.LegendaryUsed) -> DndState:
    fighter = fighter_of(state, event.creature)
    track = state.legendary
    if track.window is None or track.window == fighter.id:
        raise RuleError("dnd5e.legendary.not_now", creature=fighter.id)
    spent = track.spent.get(fighter.id, 0) + event.cost
    if spent > per_round(fighter.monster):
        left = per_round(fighter.monster) - track.spent.get(fighter.id, 0)
        raise RuleError(
            "dnd5e.legendary.spent", creature=fighter.id, cost=event.cost, left=max(left, 0)
        )
    return _track(state, spent={**track.spent, fighter.id: spent})


def _save_action(state: DndState, event: e.SaveActionRolled) -> DndState:
    """Each target of a save action: full damage and the conditions on a failed save, half
    (rounded down) or none on a success."""
    creature = fighter_of(state, event.creature)
    line = monster_action(creature.monster or "", event.action)
    if not isinstance(line, SaveLine):
        raise RuleError("dnd5e.legendary.unknown", creature=creature.id, action=event.action)
    effect = line.save
    totals = [
        max(sum(rolled) + part.modifier, 0)
        for part, rolled in zip(effect.damage, event.dice, strict=True)
    ]
    for save in event.saves:
        target = fighter_of(state, save.target)
        saved = save_made(state, target, effect.ability, effect.dc, save)
        for part, total in zip(effect.damage, totals, strict=True):
            dealt = (total // 2 if effect.half else 0) if saved else total
            state = _hurt(state, state.fighters[target.id], dealt, part.type, False)
        if not saved:
            for condition in effect.conditions:
                state = add_effect(state, condition, target.id, source=creature.id)
    return state


def save_made(state: DndState, target: Fighter, ability: str, dc: int, save: e.TargetSave) -> bool:
    """Whether a save action's save (no d20: failed by itself) reaches the DC with the
    target's bonus (:func:`.queries.save_action_bonus`) and, from rules edition 3, the
    lasting effects' dice on it."""
    boost = save_boost(state, target.id, save.d20, save.effect_dice, since=3)
    if not save.d20:
        return False
    mode, _ = save_mode(state, target, ability)
    return kept_d20(save.d20, mode) + save_action_bonus(target, ability, save.cover) + boost >= dc


def _legendary_resisted(state: DndState, event: e.LegendaryResisted) -> DndState:
    fighter = fighter_of(state, event.creature)
    last = state.last_save
    if last is None or last.get("creature") != fighter.id or last.get("succeeded"):
        raise RuleError("dnd5e.legendary.no_failed_save", creature=fighter.id)
    used = state.legendary.resisted.get(fighter.id, 0) + 1
    if used > resistances_per_day(fighter.monster):
        raise RuleError("dnd5e.legendary.no_resistance_left", creature=fighter.id)
    state = _track(state, resisted={**state.legendary.resisted, fighter.id: used})
    return state.model_copy(update={"last_save": {**last, "succeeded": True, "resisted": True}})


def _lair_set(state: DndState, event: e.LairSet) -> DndState:
    fighter_of(state, event.creature)
    lairs = tuple(x for x in state.legendary.lairs if x != event.creature)
    return _track(state, lairs=(*lairs, event.creature) if event.in_lair else lairs)


def _lair_action(state: DndState, event: e.LairActionTaken) -> DndState:
    fighter = fighter_of(state, event.creature)
    if fighter.id not in state.legendary.lairs:
        raise RuleError("dnd5e.legendary.not_in_lair", creature=fighter.id)
    if not state.legendary.lair_due:
        raise RuleError("dnd5e.legendary.no_lair_action", creature=fighter.id)
    require_able(state, fighter)
    return _track(state, lair_due=False)


# ---------------------------------------------------------------- condition durations


def _tracked(state: DndState, track: ConditionTrack) -> DndState:
    return state.model_copy(update={"conditions": track})


def _expired(
    state: DndState, gone: tuple[effects.Effect, ...], ending: tuple[str, int] | None
) -> DndState:
    """Conditions whose time ran out are listed as ended (and lose their repeat save); the
    table's own effects (Dodge, Disengage …) end quietly."""
    fight = state.encounter
    shown = tuple(x for x in gone if x.kind in CONDITIONS_SHOWN)
    if fight is None or not shown:
        return state
    track = state.conditions
    for x in shown:
        track = track.without(x.target, x.kind)
    after, round_ = ending or (fight.current or "", fight.round)
    ended = tuple(
        Ended(target=x.target, condition=x.kind, reason="duration", after=after, round=round_)
        for x in shown
    )
    return _tracked(state, track.with_ended(ended))


CONDITIONS_SHOWN = frozenset({*CONDITIONS, "hidden"})


def _condition_saved(state: DndState, event: e.ConditionSaved) -> DndState:
    fighter_of(state, event.creature)
    if not event.succeeded:
        return state
    track = state.conditions.without(event.creature, event.condition)
    fight = state.encounter
    ended = Ended(
        target=event.creature,
        condition=event.condition,
        reason="save",
        after=event.creature,
        round=fight.round if fight is not None else 0,
    )
    state = state.model_copy(
        update={"effects": effects.remove_kind(state.effects, event.condition, event.creature)}
    )
    return _tracked(state, track.with_ended((ended,)))


def _exhausted(state: DndState, creature: str) -> DndState:
    """Exhaustion 4 halves the hit point maximum (hit points above it are lost), 6 kills."""
    tags = exhaustion_tags(exhaustion_level(state, creature))
    fighter = state.fighters[creature]
    if "dies" in tags and not fighter.dead:
        return _set(state, fighter.model_copy(update={"dead": True}))
    if fighter.hp > hp_max(state, fighter):
        return _set(state, fighter.model_copy(update={"hp": hp_max(state, fighter)}))
    return state


def _out_of_reach(state: DndState, mover: str) -> DndState:
    """A grapple ends when grappler and grappled are no longer within the grappler's reach
    (a move that drags the grappled creature along keeps it there)."""
    fx = state.effects
    for x in state.effects.items:
        if x.kind != "grappled" or x.source is None or mover not in (x.source, x.target):
            continue
        grappler, held = state.fighters.get(x.source), state.fighters.get(x.target)
        if grappler is None or held is None or grappler.position is None or held.position is None:
            continue
        reach = body_of(state, grappler).reach_m
        if square_distance(state, grappler, held) > reach:
            fx = effects.remove(fx, x.id)
    return state.model_copy(update={"effects": fx})


def _release(state: DndState, grappler: str) -> DndState:
    """A grapple ends when the grappler is incapacitated."""
    held = [x.id for x in state.effects.items if x.kind == "grappled" and x.source == grappler]
    fx = state.effects
    for effect_id in held:
        fx = effects.remove(fx, effect_id)
    return state.model_copy(update={"effects": fx})


# ---------------------------------------------------------------- falling


def _fell(state: DndState, event: e.Fell) -> DndState:
    """The fall's d6 as bludgeoning damage; a creature that took damage lands prone; it is no
    longer in the air nor waiting for its fall."""
    fighter = fighter_of(state, event.creature)
    falling = tuple(x for x in state.falling if x != fighter.id)
    state = _set(state, fighter.model_copy(update={"airborne": False, "altitude_m": Decimal(0)}))
    state = state.model_copy(update={"falling": falling})
    hp_before = (fighter.hp, fighter.temp_hp, fighter.death_failures)
    state = _hurt(state, state.fighters[fighter.id], sum(event.dice), "bludgeoning", False)
    now = state.fighters[fighter.id]
    took = (now.hp, now.temp_hp, now.death_failures) != hp_before
    if took and not now.dead and "prone" not in kinds_on(state, fighter.id):
        state = add_effect(state, "prone", fighter.id)
    return state
