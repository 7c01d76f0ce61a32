"""Events to states: every event applied by the rules, with the toolkit's verbs.

A fight keeps the toolkit's :class:`~spieltisch.engine.encounter.Encounter`, one
:class:`~spieltisch.engine.economy.Budgets` (the Ap) per combatant and the table's
:class:`~spieltisch.engine.effects.Effects`. Ending a turn runs the encounter's markers
through hooks: ``round_start`` refreshes the Ap and pays begun techniques, ``ini0`` forfeits
the Ap of disoriented combatants, ``round_end`` ticks burning and deals its damage.
"""

from __future__ import annotations

import json
from decimal import Decimal
from functools import cache
from importlib import resources
from typing import Any

from spieltisch.engine import creatures, economy, effects, encounter
from spieltisch.engine.encounter import Combatant, PhaseEvent
from spieltisch.engine.errors import RuleError
from spieltisch.systems.kreiswanderer.events import (
    AccumulationAbandoned,
    AccumulationRolled,
    AccumulationStarted,
    ActionBegun,
    ActionDone,
    ApSpent,
    Attacked,
    BeingCreated,
    BeingEdited,
    CatalogueSet,
    CheckRolled,
    CombatEnded,
    CombatStarted,
    ComparativeRolled,
    DamageDealt,
    DiceAssigned,
    Dodged,
    Event,
    Extinguished,
    FightJoined,
    FightLeft,
    HaltungSwitched,
    Healed,
    MagicUsed,
    Rested,
    TrackAdjusted,
    TurnEnded,
)
from spieltisch.systems.kreiswanderer.sheet import Being, Fight, KreisState

__all__ = [
    "BURNING",
    "INI0",
    "ap_of",
    "ap_rules",
    "being_of",
    "catalog",
    "evolve",
    "fallen",
    "fight_of",
    "running_fight",
]

BURNING = "langzeiteffekt_feuer"
"""The effect a Langzeiteffekt (Feuer) marking sets on a hit."""
INI0 = "ini0"
"""The round-end phase in which disoriented combatants' Ap are spent."""


@cache
def catalog() -> effects.Catalog:
    """The effect catalog (``data/markings.json``)."""
    text = resources.files(__package__).joinpath("data/markings.json").read_text("utf-8")
    return effects.load_catalog(json.loads(text))


def ap_rules(state: KreisState) -> tuple[economy.BudgetRule, ...]:
    """The Ap budget: the options' Ap per round, refreshed at each round start, no carry."""
    amount = Decimal(state.options.ap_per_round)
    return (economy.BudgetRule(name="ap", amount=amount, refresh="round_start"),)


def ap_of(state: KreisState, being_id: str) -> Decimal:
    """A being's Ap per round: its sheet's, else the table's ``ap_per_round``."""
    being = state.beings.get(being_id)
    own = None if being is None else being.ap
    return Decimal(state.options.ap_per_round if own is None else own)


def fallen(being: Being) -> bool:
    """At 0 hit points a being has fallen: it cannot act (edition 2 on)."""
    return being.creature.track("tp").current <= 0


def being_of(state: KreisState, being_id: str) -> Being:
    """The being with this id; ``kreiswanderer.unknown_being`` otherwise."""
    found = state.beings.get(being_id)
    if found is None:
        raise RuleError("kreiswanderer.unknown_being", value=being_id)
    return found


def fight_of(state: KreisState) -> Fight:
    """The fight; ``kreiswanderer.no_fight`` if none is on."""
    if state.fight is None:
        raise RuleError("kreiswanderer.no_fight")
    return state.fight


def running_fight(state: KreisState) -> tuple[Fight, encounter.Encounter]:
    """The fight once every combatant chose its dice; ``kreiswanderer.not_started`` before."""
    fight = fight_of(state)
    if fight.encounter is None:
        raise RuleError("kreiswanderer.not_started")
    return fight, fight.encounter


def _with_being(state: KreisState, being: Being) -> KreisState:
    return state.model_copy(update={"beings": {**state.beings, being.id: being}})


def _with_creature(state: KreisState, creature: creatures.Creature) -> KreisState:
    being = being_of(state, creature.id)
    return _with_being(state, being.model_copy(update={"creature": creature}))


def _damage(state: KreisState, being_id: str, amount: int) -> KreisState:
    creature = being_of(state, being_id).creature
    return _with_creature(state, creatures.damage(creature, "tp", amount))


def _with_fight(state: KreisState, fight: Fight | None) -> KreisState:
    return state.model_copy(update={"fight": fight})


def _spend(state: KreisState, being_id: str, amount: Decimal) -> KreisState:
    fight = fight_of(state)
    budgets = fight.budgets.get(being_id)
    if budgets is None:
        raise RuleError("kreiswanderer.not_in_fight", value=being_id)
    paid = economy.spend(budgets, "ap", amount)
    return _with_fight(
        state, fight.model_copy(update={"budgets": {**fight.budgets, being_id: paid}})
    )


# -- phase hooks -----------------------------------------------------------------------------


def _round_start(state: KreisState, marker: PhaseEvent) -> KreisState:
    fight = fight_of(state)
    rules = ap_rules(state)
    budgets = dict(fight.budgets)
    ready = dict(fight.ready)
    for who, own in budgets.items():
        fresh = economy.refresh(own, rules, "round_start", {"ap": ap_of(state, who)})
        fresh, done = economy.pay_pending(fresh)
        budgets[who] = fresh
        if done:
            ready[who] = (*ready.get(who, ()), *done)
    update = {"budgets": budgets, "ready": ready, "dodge_bonus": {}}
    return _with_fight(state, fight.model_copy(update=update))


def _ini0(state: KreisState, marker: PhaseEvent) -> KreisState:
    fight = fight_of(state)
    budgets = dict(fight.budgets)
    for who, value in fight.initiative.items():
        if value <= 0 and who in budgets:
            own = budgets[who]
            budgets[who] = own.model_copy(update={"left": {**own.left, "ap": Decimal(0)}})
    return _with_fight(state, fight.model_copy(update={"budgets": budgets}))


def _round_end(state: KreisState, marker: PhaseEvent) -> KreisState:
    fight = fight_of(state)
    ticked, report = effects.tick(state.effects, catalog(), marker)
    dealt: list[tuple[str, int]] = []
    for result in report.ticks:
        if result.target not in state.beings or result.target not in fight.dice:
            continue
        resistance = being_of(state, result.target).resistance("BR")
        amount = max(0, int(result.amount) - resistance)
        dealt.append((result.target, amount))
    state = _with_fight(state, fight.model_copy(update={"last_ticks": tuple(dealt)}))
    state = state.model_copy(update={"effects": ticked})
    for who, amount in dealt:
        state = _damage(state, who, amount)
    return state


HOOKS = {"round_start": _round_start, INI0: _ini0, "round_end": _round_end}


def _run(state: KreisState, markers: list[PhaseEvent]) -> KreisState:
    return encounter.run_hooks(state, markers, HOOKS)


# -- events ----------------------------------------------------------------------------------


def _assigned(state: KreisState, event: DiceAssigned) -> KreisState:
    fight = fight_of(state)
    if event.being not in fight.dice or event.being in fight.dodge:
        raise RuleError("kreiswanderer.not_rolling", value=event.being)
    fight = fight.model_copy(
        update={
            "dodge": {**fight.dodge, event.being: event.dodge},
            "initiative": {**fight.initiative, event.being: event.initiative},
        }
    )
    state = _with_fight(state, fight)
    if fight.encounter is not None:  # a being that joined the running fight takes its place
        joiner = Combatant(
            id=event.being,
            side=being_of(state, event.being).creature.side,
            initiative=Decimal(event.initiative),
        )
        joined, markers = encounter.join(fight.encounter, joiner)
        budgets = {**fight.budgets, event.being: _full_budgets(state, event.being)}
        state = _with_fight(
            state, fight.model_copy(update={"encounter": joined, "budgets": budgets})
        )
        return _skip_fallen(_run(state, markers))
    if len(fight.dodge) < len(fight.dice):
        return state
    return _begin(state)


def _full_budgets(state: KreisState, being_id: str) -> economy.Budgets:
    return economy.new_budgets(
        (economy.BudgetRule(name="ap", amount=ap_of(state, being_id), refresh="round_start"),)
    )


def _begin(state: KreisState) -> KreisState:
    """Every combatant chose its dice: round 1 begins."""
    fight = fight_of(state)
    people = [
        Combatant(
            id=who,
            side=being_of(state, who).creature.side,
            initiative=Decimal(fight.initiative[who]),
        )
        for who in fight.dice
    ]
    started, markers = encounter.start(people, round_end_phases=(INI0,))
    budgets = {who: _full_budgets(state, who) for who in fight.dice}
    state = _with_fight(state, fight.model_copy(update={"encounter": started, "budgets": budgets}))
    return _skip_fallen(_run(state, markers))


def _skip_fallen(state: KreisState) -> KreisState:
    """Edition 2: a fallen being's turn is skipped (unless every one still in the order has
    fallen: then the turn stays where it is)."""
    if not state.options.seed_rules:
        return state
    fight = fight_of(state)
    if fight.encounter is None:
        return state
    for _ in range(len(fight.encounter.order)):
        current = fight_of(state).encounter
        assert current is not None
        who = current.current
        if who is None or not fallen(being_of(state, who)):
            return state
        if all(fallen(being_of(state, w)) for w in current.order):
            return state
        moved, markers = encounter.next_turn(current)
        state = _with_fight(state, fight_of(state).model_copy(update={"encounter": moved}))
        state = _run(state, markers)
    return state


def _joined(state: KreisState, event: FightJoined) -> KreisState:
    fight = fight_of(state)
    being_of(state, event.being)
    if event.being in fight.dice:
        raise RuleError("kreiswanderer.duplicate_combatant")
    return _with_fight(
        state, fight.model_copy(update={"dice": {**fight.dice, event.being: event.dice}})
    )


def _left(state: KreisState, event: FightLeft) -> KreisState:
    fight = fight_of(state)
    who = event.being
    if who not in fight.dice:
        raise RuleError("kreiswanderer.not_in_fight", value=who)

    def without(table: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in table.items() if k != who}

    fight = fight.model_copy(
        update={
            "dice": without(fight.dice),
            "dodge": without(fight.dodge),
            "initiative": without(fight.initiative),
            "budgets": without(fight.budgets),
            "ready": without(fight.ready),
            "dodge_bonus": without(fight.dodge_bonus),
        }
    )
    state = _with_fight(state, fight)
    if fight.encounter is not None:
        if who not in fight.encounter.ids:  # joined, had not chosen its dice yet
            return state
        moved, markers = encounter.leave(fight.encounter, who)
        state = _with_fight(state, fight.model_copy(update={"encounter": moved}))
        return _skip_fallen(_run(state, markers))
    if fight.dice and len(fight.dodge) == len(fight.dice):
        return _begin(state)
    return state


def _magic(state: KreisState, event: MagicUsed) -> KreisState:
    creature = being_of(state, event.being).creature
    if event.overload:
        creature = creatures.set_track(creature, "mp", 0)
        creature = creatures.damage(creature, "tp", sum(event.overload))
    else:
        creature = creatures.damage(creature, "mp", event.cost)
    return _with_creature(state, creature)


def _attacked(state: KreisState, event: Attacked) -> KreisState:
    state = _damage(state, event.target, event.damage)
    fight = fight_of(state)
    if event.action is not None:
        ready = fight.ready.get(event.being, ())
        if all(a.id != event.action for a in ready):
            raise RuleError("kreiswanderer.not_ready", value=event.action)
        left = tuple(a for a in ready if a.id != event.action)
        fight = fight.model_copy(update={"ready": {**fight.ready, event.being: left}})
    state = _with_fight(state, fight)
    if event.ignites:
        state = _ignite(state, event.target, event.being)
    return state


def _ignite(state: KreisState, target: str, source: str | None) -> KreisState:
    applied, _ = effects.apply(
        state.effects,
        catalog(),
        BURNING,
        target,
        duration=effects.Duration.until_removed(),
        source=source,
    )
    return state.model_copy(update={"effects": applied})


def _done(state: KreisState, event: ActionDone) -> KreisState:
    if event.action is None:
        return state
    fight = fight_of(state)
    ready = fight.ready.get(event.being, ())
    if all(a.id != event.action for a in ready):
        raise RuleError("kreiswanderer.not_ready", value=event.action)
    left = tuple(a for a in ready if a.id != event.action)
    return _with_fight(
        state, fight.model_copy(update={"ready": {**fight.ready, event.being: left}})
    )


def _hurt(state: KreisState, event: DamageDealt) -> KreisState:
    state = _damage(state, event.being, event.damage)
    if event.ignites:
        state = _ignite(state, event.being, None)
    return state


def _begun(state: KreisState, event: ActionBegun) -> KreisState:
    fight = fight_of(state)
    own = fight.budgets.get(event.being)
    if own is None:
        raise RuleError("kreiswanderer.not_in_fight", value=event.being)
    own, _ = economy.begin(own, "ap", event.action, event.cost, event.detail)
    return _with_fight(
        state, fight.model_copy(update={"budgets": {**fight.budgets, event.being: own}})
    )


def _dodged(state: KreisState, event: Dodged) -> KreisState:
    fight = fight_of(state)
    bonus = {**fight.dodge_bonus, event.being: event.bonus}
    return _with_fight(state, fight.model_copy(update={"dodge_bonus": bonus}))


def _haltung(state: KreisState, event: HaltungSwitched) -> KreisState:
    being = being_of(state, event.being)
    active = [h for h in being.active_haltungen if h != event.haltung]
    if event.active:
        active.append(event.haltung)
    return _with_being(state, being.model_copy(update={"active_haltungen": tuple(active)}))


def _extinguished(state: KreisState, event: Extinguished) -> KreisState:
    cleared = effects.remove_kind(state.effects, BURNING, event.being)
    return state.model_copy(update={"effects": cleared})


def _turn_ended(state: KreisState) -> KreisState:
    _, current = running_fight(state)
    moved, markers = encounter.next_turn(current)
    state = _with_fight(state, fight_of(state).model_copy(update={"encounter": moved}))
    return _skip_fallen(_run(state, markers))


def _accumulated(state: KreisState, event: AccumulationRolled) -> KreisState:
    found = state.accumulations.get(event.id)
    if found is None or not found.open:
        raise RuleError("kreiswanderer.unknown_accumulation", value=event.id)
    updated = found.model_copy(
        update={
            "done_rolls": found.done_rolls + 1,
            "total": event.total,
            "finished": event.finished,
        }
    )
    return state.model_copy(update={"accumulations": {**state.accumulations, event.id: updated}})


def evolve(state: KreisState, event: Event) -> KreisState:
    """Apply one event; raises :class:`RuleError` if it does not apply to ``state``."""
    match event:
        case BeingCreated():
            if event.being.id in state.beings:
                raise RuleError("kreiswanderer.duplicate_being", value=event.being.id)
            return _with_being(state, event.being)
        case BeingEdited():
            being_of(state, event.being.id)
            return _with_being(state, event.being)
        case MagicUsed():
            return _magic(state, event)
        case CheckRolled() | ComparativeRolled():
            return state.model_copy(update={"checks": state.checks + 1})
        case AccumulationStarted():
            acc = event.accumulation
            if acc.id in state.accumulations:
                raise RuleError("kreiswanderer.duplicate_accumulation", value=acc.id)
            return state.model_copy(update={"accumulations": {**state.accumulations, acc.id: acc}})
        case AccumulationRolled():
            return _accumulated(state, event)
        case AccumulationAbandoned():
            found = state.accumulations.get(event.id)
            if found is None or not found.open:
                raise RuleError("kreiswanderer.unknown_accumulation", value=event.id)
            closed = found.model_copy(update={"abandoned": True})
            return state.model_copy(
                update={"accumulations": {**state.accumulations, event.id: closed}}
            )
        case CatalogueSet():
            return state.model_copy(update={"catalogue": dict(event.skills)})
        case FightJoined():
            return _joined(state, event)
        case FightLeft():
            return _left(state, event)
        case ActionDone():
            return _done(state, event)
        case DamageDealt():
            return _hurt(state, event)
        case Healed():
            creature = being_of(state, event.being).creature
            return _with_creature(state, creatures.set_track(creature, event.track, event.value))
        case CombatStarted():
            if state.fight is not None:
                raise RuleError("kreiswanderer.fight_on")
            return _with_fight(state, Fight(dice=event.dice))
        case DiceAssigned():
            return _assigned(state, event)
        case ApSpent():
            return _spend(state, event.being, event.amount)
        case ActionBegun():
            return _begun(state, event)
        case Attacked():
            return _attacked(state, event)
        case Dodged():
            return _dodged(state, event)
        case HaltungSwitched():
            return _haltung(state, event)
        case Extinguished():
            return _extinguished(state, event)
        case TurnEnded():
            return _turn_ended(state)
        case CombatEnded():
            fight_of(state)
            state = _with_fight(state, None)
            if not state.options.seed_rules:  # edition 1: lasting effects ended with the fight
                state = state.model_copy(update={"effects": effects.Effects()})
            return state
        case Rested():
            creature = being_of(state, event.being).creature
            creature = creatures.set_track(creature, "tp", event.tp)
            state = _with_creature(state, creatures.set_track(creature, "mp", event.mp))
            if event.sleep_carry is not None:
                state = state.model_copy(
                    update={"sleep": {**state.sleep, event.being: event.sleep_carry}}
                )
            if event.rest_carry is not None:
                state = state.model_copy(
                    update={"rest": {**state.rest, event.being: event.rest_carry}}
                )
            return state
        case TrackAdjusted():
            creature = being_of(state, event.being).creature
            return _with_creature(state, creatures.set_track(creature, event.track, event.value))
    raise AssertionError(event)  # pragma: no cover
