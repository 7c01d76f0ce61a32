"""What a viewer sees of a Kreiswanderer table: every number a table page shows.

Secret beings (an ambush the GM prepared) are absent for players and spectators who do not own
them — with their place in the order, whose turn it is, the effects they caused and the
targets of techniques aimed at them: the toolkit's one rule,
:func:`~spieltisch.engine.creatures.visible_to`, decides every id the view names. Everything
else at the table is open.
"""

from __future__ import annotations

from typing import Any

from spieltisch.engine.creatures import visible_to
from spieltisch.engine.economy import PendingAction
from spieltisch.engine.effects import Effect
from spieltisch.engine.visibility import Viewer
from spieltisch.systems.kreiswanderer import secondary
from spieltisch.systems.kreiswanderer.decide import (
    dodge_choices,
    dodge_value,
    held_skills,
    thresholds,
)
from spieltisch.systems.kreiswanderer.edit import sheet_of
from spieltisch.systems.kreiswanderer.evolve import BURNING, ap_of, fallen
from spieltisch.systems.kreiswanderer.secondary import known_markings
from spieltisch.systems.kreiswanderer.sheet import Being, KreisState

__all__ = ["view"]


def _being(state: KreisState, being: Being, seen: set[str]) -> dict[str, Any]:
    creature = being.creature
    return {
        "id": creature.id,
        "name": creature.name,
        "side": creature.side,
        "secret": creature.secret,
        "attributes": {k: int(v) for k, v in creature.stats.items()},
        "tp": creature.tracks["tp"].model_dump(),
        "mp": creature.tracks["mp"].model_dump(),
        "markings": [tag.model_dump() for tag in creature.tags],
        "skills": {k: v.model_dump() for k, v in being.skills.items()},
        "weapons": [w.model_dump() for w in being.weapons],
        "sonderfertigkeiten": {
            k: {**v.model_dump(), "depth": v.depth} for k, v in being.sonderfertigkeiten.items()
        },
        "begabungen": list(being.begabungen),
        "haltungen": {k: v.model_dump() for k, v in being.haltungen.items()},
        "active_haltungen": list(being.active_haltungen),
        "magic_cost": being.magic_cost,
        "defeated": creature.tracks["tp"].at_floor,
        "fallen": fallen(being),
        "ap_per_round": str(ap_of(state, being.id)),
        "species": being.species,
        "native_language": being.native_language,
        "held_skills": {
            name: {"depth": depth, "value": value}
            for name, (depth, value) in held_skills(state, being).items()
        },
        "burning": any(e.kind == BURNING for e in state.effects.on(being.id)),
        "effects": [_effect(e, seen) for e in state.effects.on(being.id)],
        "sheet": sheet_of(being).model_dump(mode="json"),
    }


def _effect(effect: Effect, seen: set[str]) -> dict[str, Any]:
    shown = effect.model_dump(mode="json")
    if effect.source not in seen:
        shown["source"] = None
    return shown


def _action(action: PendingAction, seen: set[str]) -> dict[str, Any]:
    shown = action.model_dump(mode="json")
    target = action.detail.get("target")
    if target is not None and target not in seen:
        shown["detail"] = {**shown["detail"], "target": None}
    return shown


def _defense(state: KreisState, who: str) -> dict[str, int] | None:
    """The parts of the target of an attack on ``who`` that are the defender's."""
    being = state.beings.get(who)
    if being is None or state.fight is None or who not in state.fight.dodge:
        return None
    own = sum(w.fuehrungsschwelle for w in being.weapons if w.wielded)
    return {
        "dodge": dodge_value(state, who),
        "defensive": being.creature.tag_total("defensive"),
        "thresholds": own if state.options.fuehrungsschwelle != "attacker" else 0,
    }


def _attack_plans(state: KreisState, who: str, seen: set[str]) -> list[dict[str, Any]]:
    """Per weapon of ``who`` and foe in the fight: the damage parts of a hit."""
    being = state.beings.get(who)
    fight = state.fight
    if being is None or fight is None:
        return []
    plans = []
    for weapon in being.weapons:
        for foe_id in fight.dodge:
            foe = state.beings.get(foe_id)
            if foe_id == who or foe_id not in seen or foe is None:
                continue
            plans.append(
                {
                    "weapon": weapon.name,
                    "target": foe_id,
                    "thresholds": thresholds(state, weapon, foe),
                    "resistance": foe.resistance(weapon.damage_type),
                    "protection": secondary.protection(weapon, foe),
                    "extra": [
                        {"damage_type": t, "value": v, "damage": d}
                        for t, v, d in secondary.extras(weapon, foe)
                    ],
                    "ignites": BURNING in secondary.lasting(weapon),
                }
            )
    return plans


def _fight(state: KreisState, seen: set[str]) -> dict[str, Any] | None:
    fight = state.fight
    if fight is None:
        return None
    encounter = fight.encounter
    down = {w for w in fight.dice if w in state.beings and fallen(state.beings[w])}
    acting_order = (
        []
        if encounter is None
        else [
            w for w in encounter.order if w in seen and not (state.options.seed_rules and w in down)
        ]
    )
    combatants = []
    for who in fight.dice:
        if who not in seen:
            continue
        budgets = fight.budgets.get(who)
        combatants.append(
            {
                "id": who,
                "dice": list(fight.dice[who]),
                "dodge": fight.dodge.get(who),
                "dodge_bonus": fight.dodge_bonus.get(who, 0),
                "initiative": fight.initiative.get(who),
                "disoriented": fight.initiative.get(who, 1) <= 0,
                "ap": None if budgets is None else str(budgets.left.get("ap")),
                "pending": [] if budgets is None else [_action(p, seen) for p in budgets.pending],
                "ready": [_action(p, seen) for p in fight.ready.get(who, ())],
                "defense": _defense(state, who),
                "hits": _attack_plans(state, who, seen),
                "dodge_choices": [
                    {"skill": skill, "bonus": bonus} for skill, bonus in dodge_choices(state, who)
                ],
                "burning": any(e.kind == BURNING for e in state.effects.on(who)),
                "effects": [_effect(e, seen) for e in state.effects.on(who)],
                "fallen": who in down,
                "joining": encounter is not None and who not in encounter.ids,
                "ap_per_round": str(ap_of(state, who)),
            }
        )
    return {
        "started": encounter is not None,
        "round": None if encounter is None else encounter.round,
        "order": acting_order,
        "fallen": [w for w in fight.dice if w in seen and w in down],
        "current": None
        if encounter is None or encounter.current not in seen
        else encounter.current,
        "combatants": combatants,
        "last_ticks": [{"being": b, "damage": d} for b, d in fight.last_ticks if b in seen],
    }


def view(state: KreisState, viewer: Viewer) -> dict[str, Any]:
    """The JSON of ``state`` for ``viewer``."""
    beings = [b for b in state.beings.values() if visible_to(b.creature, viewer)]
    seen = {b.id for b in beings}
    return {
        "system": "kreiswanderer",
        "options": state.options.model_dump(mode="json"),
        "beings": [_being(state, b, seen) for b in beings],
        "accumulations": [
            {**a.model_dump(), "abandoned": a.abandoned}
            for a in state.accumulations.values()
            if a.being in seen
        ],
        "catalogue": {k: v.model_dump(mode="json") for k, v in state.catalogue.items()},
        "fight": _fight(state, seen),
        "checks": state.checks,
        "known_markings": known_markings(),
    }
