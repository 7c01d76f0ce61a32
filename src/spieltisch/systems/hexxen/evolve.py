"""Applying HeXXen events to the state, and the lookups decide and evolve share."""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal

from spieltisch.engine import economy, effects, encounter
from spieltisch.engine.economy import BudgetRule, Budgets
from spieltisch.engine.effects import Catalog
from spieltisch.engine.encounter import PhaseEvent
from spieltisch.engine.errors import RuleError
from spieltisch.systems.hexxen import rules
from spieltisch.systems.hexxen.events import (
    AbbauResult,
    AttackDeclared,
    AttackRolled,
    BoundSet,
    CheckRolled,
    ContestRolled,
    EffectApplied,
    EffectRemoved,
    EffectTicked,
    Event,
    FightEnded,
    FightStarted,
    HexGained,
    HunterCreated,
    HunterEdited,
    LepChanged,
    MapSet,
    ModifierSet,
    NpcCheckRolled,
    NpcCreated,
    NpcRevealed,
    Placed,
    PowerUsed,
    Regenerated,
    ResourceChanged,
    SkillSet,
    TurnAdvanced,
)
from spieltisch.systems.hexxen.sheet import (
    Binding,
    HexxenState,
    Hunter,
    Npc,
    base_effect,
    catalog,
)

__all__ = [
    "budget_rules",
    "effect_catalog",
    "evolve",
    "find_hunter",
    "find_npc",
    "lowered",
    "modifiers",
    "ongoing",
    "refreshed",
]


def effect_catalog(state: HexxenState, *extra: str) -> Catalog:
    """The ongoing effects with this table's level cap, damage per level and decay: the four
    kinds, every tagged effect on the table and those in ``extra``."""
    kinds = {e.kind for e in state.effects.items} | set(extra)
    return catalog(state.options, tuple(sorted(kinds)))


def find_hunter(state: HexxenState, hunter_id: str) -> Hunter:
    """The hunter ``hunter_id``; ``hexxen.unknown_hunter`` if there is none."""
    found = state.hunters.get(hunter_id)
    if found is None:
        raise RuleError("hexxen.unknown_hunter", value=hunter_id)
    return found


def find_npc(state: HexxenState, npc_id: str) -> Npc:
    """The NSC ``npc_id``; ``hexxen.unknown_npc`` if there is none."""
    found = state.npcs.get(npc_id)
    if found is None:
        raise RuleError("hexxen.unknown_npc", value=npc_id)
    return found


def find_any(state: HexxenState, target: str) -> Hunter | Npc:
    """A hunter or an NSC; ``hexxen.unknown_target`` if neither."""
    found = state.hunters.get(target) or state.npcs.get(target)
    if found is None:
        raise RuleError("hexxen.unknown_target", value=target)
    return found


def ongoing(state: HexxenState, target: str, effect: str) -> int:
    """The levels of the kind ``effect`` on ``target``, its tagged ones included (0 without)."""
    return sum(
        e.level
        for e in state.effects.items
        if e.target == target and base_effect(e.kind)[0] == effect
    )


def modifiers(state: HexxenState, target: str, bonus: int = 0, malus: int = 0) -> tuple[int, int]:
    """Every bonus and malus of ``target``'s checks: the lasting ones, its Malusstufen and
    the ones of this check."""
    who = find_any(state, target)
    lasting = who.bonus + (rules.trait_bonus(who.traits) if isinstance(who, Npc) else 0)
    return lasting + bonus, who.malus + ongoing(state, target, "malus") + malus


def budget_rules(state: HexxenState, target: str) -> tuple[BudgetRule, ...]:
    """Ap for hunters, Handlungen for NSC; both refresh at the start of each round."""
    if target in state.hunters:
        return (
            BudgetRule(name="ap", amount=Decimal(state.options.base_ap), refresh="round_start"),
        )
    npc = find_npc(state, target)
    return (BudgetRule(name="handlungen", amount=Decimal(npc.handlungen), refresh="round_start"),)


def refreshed(state: HexxenState, target: str, budgets: Budgets) -> Budgets:
    """``target``'s budgets at a round start (Ap less Lähmungsstufen and, optionally, armour)."""
    amounts: dict[str, Decimal | int] = {}
    if target in state.hunters:
        hunter = state.hunters[target]
        paralysis = ongoing(state, target, "paralysis")
        amounts["ap"] = rules.round_ap(paralysis, hunter.armour, state.options)
    return economy.refresh(budgets, budget_rules(state, target), "round_start", amounts)


def _markers(
    state: HexxenState, markers: Iterable[PhaseEvent], abbau: Iterable[AbbauResult] = ()
) -> HexxenState:
    found = effect_catalog(state)
    for marker in markers:
        if marker.phase == "round_start":
            budgets = {who: refreshed(state, who, b) for who, b in state.budgets.items()}
            state = state.model_copy(update={"budgets": budgets})
        ticked, _ = effects.tick(state.effects, found, marker)
        state = state.model_copy(update={"effects": ticked})
        if marker.phase == "ini0":
            for result in abbau:
                state = lowered(state, result.target, result.effect, result.removed)
    return state


def lowered(state: HexxenState, target: str, kind: str, levels: int) -> HexxenState:
    """``kind`` on ``target`` ``levels`` lower (gone at 0)."""
    for item in state.effects.items:
        if item.target == target and item.kind == kind and levels:
            changed, _ = effects.change_level(
                state.effects, effect_catalog(state), item.id, -levels
            )
            return state.model_copy(update={"effects": changed})
    return state


def _spend(state: HexxenState, who: str, name: str, cost: int) -> HexxenState:
    if cost == 0:
        return state
    budgets = state.budgets.get(who)
    if budgets is None:
        raise RuleError("hexxen.no_fight", value=who)
    spent = economy.spend(budgets, name, cost)
    return state.model_copy(update={"budgets": {**state.budgets, who: spent}})


def _lep(state: HexxenState, target: str, amount: int) -> HexxenState:
    who = find_any(state, target)
    track = who.lep.raised(amount) if amount > 0 else who.lep.lowered(-amount)
    return _put(state, who.model_copy(update={"lep": track}))


def _put(state: HexxenState, who: Hunter | Npc) -> HexxenState:
    if isinstance(who, Hunter):
        return state.model_copy(update={"hunters": {**state.hunters, who.id: who}})
    return state.model_copy(update={"npcs": {**state.npcs, who.id: who}})


def _resources(state: HexxenState, hunter_id: str, changes: dict[str, int]) -> HexxenState:
    hunter = find_hunter(state, hunter_id)
    update: dict[str, int] = {}
    for name, delta in changes.items():
        value = int(getattr(hunter, name)) + delta
        if value < 0:
            raise RuleError(
                "hexxen.not_enough", resource=name, cost=-delta, left=getattr(hunter, name)
            )
        update[name] = value
    return _put(state, hunter.model_copy(update=update))


def _apply_effect(
    state: HexxenState, target: str, effect: str, level: int, source: str | None
) -> HexxenState:
    if base_effect(effect)[0] == "paralysis" and target not in state.hunters:
        raise RuleError("hexxen.hunters_only", effect=effect, value=target)
    who = find_any(state, target)
    if isinstance(who, Npc):
        immune = rules.immune_to(who.traits, effect)
        if immune is not None:
            raise RuleError("hexxen.immune", npc=who.name, effect=effect, value=immune)
    applied, _ = effects.apply(
        state.effects, effect_catalog(state, effect), effect, target, level=level, source=source
    )
    return state.model_copy(update={"effects": applied})


def _hunter_costs(state: HexxenState, hunter: str, ap: int, ideen: int, coups: int) -> HexxenState:
    state = _spend(state, hunter, "ap", ap)
    return _resources(state, hunter, {"ideen": -ideen, "coups": -coups})


def evolve(state: HexxenState, event: Event) -> HexxenState:
    """Apply one event; :class:`RuleError` if it does not apply to ``state``."""
    if isinstance(event, HunterCreated):
        if event.hunter.id in state.hunters or event.hunter.id in state.npcs:
            raise RuleError("hexxen.duplicate_id", value=event.hunter.id)
        return _put(state, event.hunter)
    if isinstance(event, NpcCreated):
        if event.npc.id in state.hunters or event.npc.id in state.npcs:
            raise RuleError("hexxen.duplicate_id", value=event.npc.id)
        return _put(state, event.npc)
    if isinstance(event, SkillSet):
        hunter = find_hunter(state, event.hunter)
        skills = {**hunter.skills, event.skill: event.value}
        attrs = {**hunter.skill_attributes, event.skill: event.attribute}
        return _put(state, hunter.model_copy(update={"skills": skills, "skill_attributes": attrs}))
    if isinstance(event, BoundSet):
        who = find_any(state, event.target)
        if event.other is None:
            state = _put(state, who.model_copy(update={"bound": event.bound}))
            for other in event.freed:
                state = _pair(state, who.id, other, False)
            return state
        find_any(state, event.other)
        return _pair(state, who.id, event.other, event.bound)
    if isinstance(event, ModifierSet):
        who = find_any(state, event.target)
        return _put(state, who.model_copy(update={"bonus": event.bonus, "malus": event.malus}))
    if isinstance(event, EffectApplied):
        return _apply_effect(state, event.target, event.effect, event.level, event.source)
    if isinstance(event, EffectRemoved):
        removed = effects.remove_kind(state.effects, event.effect, event.target)
        return state.model_copy(update={"effects": removed})
    if isinstance(event, LepChanged):
        return _lep(state, event.target, event.amount)
    if isinstance(event, ResourceChanged):
        return _resources(state, event.hunter, {event.resource: event.delta})
    if isinstance(event, FightStarted):
        if state.encounter is not None:
            raise RuleError("hexxen.fight_running")
        fight, markers = encounter.apply(None, event.step)
        budgets = {c.id: economy.new_budgets(budget_rules(state, c.id)) for c in fight.combatants}
        npcs = dict(state.npcs)
        for c in fight.combatants:
            npc = npcs.get(c.id)
            if npc is not None and (npc.hex_per_jz or npc.lep_per_jz or npc.hex_growth_per_jz):
                npcs[c.id] = _per_jz(npc, event.jz)
        state = state.model_copy(update={"encounter": fight, "budgets": budgets, "npcs": npcs})
        return _markers(state, markers)
    if isinstance(event, TurnAdvanced):
        if state.encounter is None:
            raise RuleError("hexxen.no_fight", value="")
        fight, markers = encounter.next_turn(state.encounter)
        return _markers(state.model_copy(update={"encounter": fight}), markers, event.abbau)
    if isinstance(event, HexGained):
        npc = find_npc(state, event.npc)
        current = max(0, npc.hex.current + event.amount)
        track = npc.hex.model_copy(
            update={"current": current, "maximum": max(npc.hex.maximum, current)}
        )
        return _put(state, npc.model_copy(update={"hex": track}))
    if isinstance(event, NpcRevealed):
        npc = event.npc.model_copy(update={"secret": False})
        positions = dict(state.positions)
        if event.at is not None:
            positions[npc.id] = event.at
        state = _put(state, npc)
        return state.model_copy(update={"positions": positions})
    if isinstance(event, EffectTicked):
        return _lep(state, event.target, -event.amount)
    if isinstance(event, Regenerated):
        find_npc(state, event.npc)
        return _lep(state, event.npc, event.lep)
    if isinstance(event, FightEnded):
        refilled: dict[str, Budgets] = {}
        for hunter_id, ap in event.refilled.items():
            find_hunter(state, hunter_id)
            rule = BudgetRule(name="ap", amount=Decimal(ap), refresh="round_start")
            refilled[hunter_id] = economy.new_budgets((rule,))
        return state.model_copy(update={"encounter": None, "budgets": refilled, "pending": None})
    if isinstance(event, HunterEdited):
        find_hunter(state, event.hunter.id)
        return _put(state, event.hunter)
    if isinstance(event, AttackDeclared):
        find_npc(state, event.pending.npc)
        find_hunter(state, event.pending.target)
        return state.model_copy(update={"pending": event.pending})
    if isinstance(event, Placed):
        find_any(state, event.target)
        taken = {at: who for who, at in state.positions.items() if who != event.target}
        if event.to in taken:
            raise RuleError("hexxen.square_taken", value=event.to, name=taken[event.to])
        state.grid.square(event.to)
        positions = {**state.positions, event.target: event.to}
        bindings = state.bindings
        if state.options.binding_from_map:  # a move lets the map speak again for its pairs
            bindings = tuple(
                p
                for p in bindings
                if event.target not in (p.a, p.b) or not {p.a, p.b} <= set(positions)
            )
        return state.model_copy(update={"positions": positions, "bindings": bindings})
    if isinstance(event, MapSet):
        grid = state.grid.model_copy(update={"width": event.width, "height": event.height})
        return state.model_copy(update={"grid": grid})
    return _rolled(state, event)


def _pair(state: HexxenState, a: str, b: str, bound: bool) -> HexxenState:
    first, second = sorted((a, b))
    kept = tuple(p for p in state.bindings if {p.a, p.b} != {first, second})
    pair = Binding(a=first, b=second, bound=bound)
    return state.model_copy(update={"bindings": (*kept, pair)})


def _per_jz(npc: Npc, jz: int) -> Npc:
    update: dict[str, object] = {}
    if npc.hex_per_jz:
        value = npc.hex.maximum * jz
        update["hex"] = npc.hex.model_copy(update={"current": value, "maximum": value})
    if npc.lep_per_jz:
        value = npc.lep.maximum * jz
        update["lep"] = npc.lep.model_copy(update={"current": value, "maximum": value})
    if npc.hex_growth_per_jz:
        update["hex_growth"] = npc.hex_growth * jz
    return npc.model_copy(
        update={"hex_per_jz": False, "lep_per_jz": False, "hex_growth_per_jz": False, **update}
    )


def _rolled(state: HexxenState, event: Event) -> HexxenState:
    from spieltisch.systems.hexxen.sheet import LastRoll

    if isinstance(event, CheckRolled | ContestRolled):
        state = _hunter_costs(state, event.hunter, event.ap, event.ideen, event.coups)
        actor = event.hunter
    elif isinstance(event, NpcCheckRolled):
        state = _spend(state, event.npc, "handlungen", event.handlungen)
        actor = event.npc
    elif isinstance(event, AttackRolled):
        state = _spend(state, event.npc, "handlungen", event.handlungen)
        state = _spend(state, event.target, "ap", event.defense_ap)
        if event.lep_lost:
            state = _lep(state, event.target, -event.lep_lost)
        for rolled in event.special:
            if rolled.effect != "lep" and rolled.value:
                levels = min(rolled.value, state.options.max_level)  # levels add up to the cap
                state = _apply_effect(state, event.target, rolled.effect, levels, event.npc)
        state = state.model_copy(update={"pending": None})
        actor = event.npc
    else:
        assert isinstance(event, PowerUsed)
        state = _spend(state, event.npc, "handlungen", event.handlungen)
        npc = find_npc(state, event.npc)
        if npc.hex.current < event.hex:
            raise RuleError(
                "hexxen.not_enough", resource="hex", cost=event.hex, left=npc.hex.current
            )
        state = _put(state, npc.model_copy(update={"hex": npc.hex.lowered(event.hex)}))
        for result in event.results:
            if result.effect == "lep" and result.amount:
                state = _lep(state, result.hunter, -result.amount)
            elif result.effect is not None and result.amount:
                levels = min(result.amount, state.options.max_level)
                state = _apply_effect(state, result.hunter, result.effect, levels, npc.id)
        actor = event.npc
    detail = event.model_dump(mode="json", exclude={"kind"})
    last = LastRoll(kind=event.kind, actor=actor, detail=detail)
    return state.model_copy(update={"last": last, "checks": state.checks + 1})
