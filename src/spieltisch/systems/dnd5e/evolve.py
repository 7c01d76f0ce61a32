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
from spieltisch.systems.dnd5e.data import catalog
from spieltisch.systems.dnd5e.movement import SPEED_ZERO, TurnMovement, check_move
from spieltisch.systems.dnd5e.queries import (
    body_of,
    fighter_of,
    kinds_on,
    others_of,
    outcome_of,
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
from spieltisch.systems.dnd5e.state import BUDGETS, DndState, Fighter, LastAttack

__all__ = ["evolve", "fold"]


def evolve(state: DndState, event: e.Event) -> DndState:
    """Apply one event by the rules; :class:`RuleError` when it does not apply."""
    match event:
        case e.FighterAdded():
            return _fighter_added(state, event)
        case e.CombatStarted():
            return _combat_started(state, event)
        case e.TerrainSet():
            return _terrain_set(state, event)
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
        case e.ConditionSet():
            return _condition_set(state, event)
        case e.SaveRolled():
            fighter_of(state, event.creature)
            return state.model_copy(update={"last_save": event.model_dump(mode="json")})
        case e.DeathSaved():
            return _death_saved(state, event)
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
    return _falls(state, target)


def _falls(state: DndState, creature: str) -> DndState:
    """A flying creature knocked prone or at speed 0 falls unless it hovers."""
    fighter = state.fighters[creature]
    kinds = kinds_on(state, creature)
    if fighter.airborne and not fighter.hover and ("prone" in kinds or kinds & SPEED_ZERO):
        return _set(state, fighter.model_copy(update={"airborne": False}))
    return state


def _hurt(state: DndState, target: Fighter, amount: int, kind: str, critical: bool) -> DndState:
    dealt = modify_damage(
        amount,
        kind,
        resistances=target.resistances,
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
        state = add_effect(state, "unconscious", target.id)
    return state


def _hooks(state: DndState, markers: list[PhaseEvent]) -> DndState:
    for marker in markers:
        fx, _ = effects.tick(state.effects, catalog(), marker)
        state = state.model_copy(update={"effects": fx})
        if marker.phase == "turn_start" and marker.combatant is not None:
            who = marker.combatant
            fighter = state.fighters[who]
            budgets = economy.refresh(
                state.budgets[who],
                BUDGETS,
                "turn_start",
                {"bonus": 1 if fighter.bonus_actions else 0, "attacks": 0},
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
    return _hooks(state.model_copy(update={"encounter": fight}), list(markers))


def _terrain_set(state: DndState, event: e.TerrainSet) -> DndState:
    grid = state.grid
    kinds = () if event.terrain is None else (event.terrain,)
    for name in event.squares:
        grid = grid.with_terrain(grid.square(name), *kinds)
    return state.model_copy(update={"grid": grid})


def _moved(state: DndState, event: e.Moved) -> DndState:
    fighter = fighter_of(state, event.creature)
    if event.stood_up:
        state = state.model_copy(
            update={"effects": effects.remove_kind(state.effects, "prone", fighter.id)}
        )
    fighter = fighter.model_copy(
        update={"position": parse_square(event.path[-1]), "airborne": event.airborne}
    )
    state = _set(state, fighter)
    return state.model_copy(
        update={
            "movement": {**state.movement, fighter.id: event.movement},
            "pending": event.pending,
        }
    )


def _attacked(state: DndState, event: e.Attacked) -> DndState:
    attacker = fighter_of(state, event.attacker)
    target = fighter_of(state, event.target)
    weapon = attacker.weapon(event.attack)
    if weapon is None:
        raise RuleError("dnd5e.unknown_attack", creature=attacker.id, attack=event.attack)
    if event.opportunity:
        state = _pay(state, attacker.id, "reaction")
        state = _after_reaction(state, attacker.id)
    elif not event.readied:
        if state.budgets[attacker.id].amount("attacks") == 0:
            state = _pay(state, attacker.id, "action")
            budgets = economy.grant(
                state.budgets[attacker.id], "attacks", attacker.attacks_per_action
            )
            state = state.model_copy(update={"budgets": {**state.budgets, attacker.id: budgets}})
        state = _pay(state, attacker.id, "attacks")
    state = state.model_copy(update={"effects": _use_help(state, attacker.id, target.id)})
    natural = kept_d20(event.d20, Mode(event.mode))
    outcome = outcome_of(state, attacker, target, weapon, natural)
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
        total=natural + weapon.bonus,
        outcome=outcome,
        damage=sum(totals) if outcome != "miss" else 0,
        opportunity=event.opportunity,
    )
    state = state.model_copy(update={"last_attack": last})
    if outcome == "miss":
        return state
    for part, total in zip(weapon.damage, totals, strict=True):
        state = _hurt(state, state.fighters[target.id], total, part.type, outcome == "critical")
    return state


def _action_taken(state: DndState, event: e.ActionTaken) -> DndState:
    state = _pay(state, event.creature, "action")
    who = event.creature
    if event.action in ("dash", "disengage", "hide"):
        return _free_action(state, who, event.action)
    if event.action == "dodge":
        return add_effect(state, "dodging", who, Duration.until_turn_start(who))
    if event.action == "help" and event.target is not None:
        kind = "helped_attack" if event.help == "attack" else "helped_check"
        return add_effect(state, kind, event.target, Duration.until_turn_start(who), source=who)
    return state


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
    if event.feature in ("disengage", "hide", "dash"):
        return _free_action(state, event.creature, event.feature)
    return state


def _turn_ended(state: DndState) -> DndState:
    if state.encounter is None:
        raise RuleError("dnd5e.no_combat")
    fight, markers = encounter.next_turn(state.encounter)
    return _hooks(state.model_copy(update={"encounter": fight}), list(markers))


def _healed(state: DndState, event: e.Healed) -> DndState:
    fighter = fighter_of(state, event.target)
    if fighter.dead:
        raise RuleError("dnd5e.dead", creature=fighter.id)
    if event.temporary:
        return _set(
            state, fighter.model_copy(update={"temp_hp": max(fighter.temp_hp, event.amount)})
        )
    healed = fighter.model_copy(update={"hp": min(fighter.max_hp, fighter.hp + event.amount)})
    if healed.hp > 0 and fighter.hp == 0:
        healed = healed.model_copy(
            update={"death_successes": 0, "death_failures": 0, "stable": False}
        )
        state = state.model_copy(
            update={"effects": effects.remove_kind(state.effects, "unconscious", fighter.id)}
        )
    return _set(state, healed)


def _condition_set(state: DndState, event: e.ConditionSet) -> DndState:
    if event.remove:
        return state.model_copy(
            update={"effects": effects.remove_kind(state.effects, event.condition, event.target)}
        )
    return add_effect(state, event.condition, event.target)


def _death_saved(state: DndState, event: e.DeathSaved) -> DndState:
    fighter = fighter_of(state, event.creature)
    saves, revived = death_save(
        DeathSaves(fighter.death_successes, fighter.death_failures), event.d20
    )
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
