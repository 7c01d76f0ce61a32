"""What a viewer sees of a HeXXen table.

Secret NSC (``secret``) are absent for players and spectators unless created visibly and
revealed; everything else on the table is open. The view carries every number a UI shows:
each combatant's LeP, Ap or Handlungen, Hex, ongoing effects and modifiers, Jz, the
initiative order and the last check.
"""

from __future__ import annotations

from typing import Any

from spieltisch.dice.faces import symbol_die
from spieltisch.engine.visibility import Role, Viewer
from spieltisch.systems.hexxen import odds as hexxen_odds
from spieltisch.systems.hexxen import rules
from spieltisch.systems.hexxen.decide import abbau_pool, abbau_removed, defense_choices
from spieltisch.systems.hexxen.evolve import effect_catalog, modifiers, ongoing
from spieltisch.systems.hexxen.sheet import (
    HexxenState,
    Npc,
    Range,
    bound_with,
    decay_of,
    default_skills,
    handlungen_of,
    is_bound,
)

__all__ = ["view"]


def _effects(state: HexxenState, target: str) -> dict[str, int]:
    return {e.kind: e.level for e in state.effects.items if e.target == target}


def _budgets(state: HexxenState, target: str) -> dict[str, int]:
    found = state.budgets.get(target)
    return {} if found is None else {k: int(v) for k, v in found.left.items()}


def _npc_visible(npc: Npc, viewer: Viewer) -> bool:
    return viewer.role is Role.GM or not npc.secret or npc.id in viewer.pieces


def _legal(state: HexxenState) -> list[dict[str, Any]]:
    fight = state.encounter
    if fight is None or not fight.order:
        return []
    npc = state.npcs.get(fight.current or "")
    if npc is None or not state.budgets.get(npc.id, None):
        return []
    left = int(state.budgets[npc.id].left.get("handlungen", 0))
    if left < 1:
        return []
    wanted = Range.N if is_bound(state, npc.id) else Range.F
    out: list[dict[str, Any]] = []
    for attack in npc.attacks:
        if wanted in attack.range and handlungen_of(attack, wanted) <= left:
            out.append({"kind": "npc_attack", "npc": npc.id, "attack": attack.name})
    for power in npc.powers:
        affordable = power.hex <= npc.hex.current and handlungen_of(power, wanted) <= left
        if wanted in power.range and affordable:
            out.append({"kind": "npc_power", "npc": npc.id, "power": power.name})
    return out


def faces() -> dict[str, list[Any]]:
    """Each die's six faces (index 0 is a rolled 1): symbol counts, or the Elixier number,
    so a page draws the d6 values of the events as the symbols they show."""
    out: dict[str, list[Any]] = {}
    for letter in ("H", "M", "J", "B", "E"):
        kind = symbol_die(letter)
        rolled = (kind.face(roll) for roll in range(1, 7))
        out[letter] = [face if isinstance(face, int) else dict(face) for face in rolled]
    return out


def _ini0(state: HexxenState, shown: set[str]) -> list[dict[str, Any]]:
    """What the next INI-0 phase brings to each ongoing effect: the LeP a damage level costs,
    and how it decays (``auto``: one level; ``check``: the Abbau check's dice, netted
    modifier and the exact chance of each number of levels removed; ``none``)."""
    found = effect_catalog(state)
    out = []
    for item in state.effects.items:
        if item.target not in shown:
            continue
        tick = found.kinds[item.kind].tick
        decay = decay_of(state.options, item.kind)
        amount = int(tick.amount + tick.per_level * item.level) if tick is not None else 0
        if tick is None and decay.mode != "check":
            continue
        entry: dict[str, Any] = {
            "target": item.target,
            "effect": item.kind,
            "level": item.level,
            "amount": amount,
            "decay": decay.mode,
        }
        pool = abbau_pool(state, item.target, item.kind)
        if pool is not None:
            what, dice = pool
            bonus, malus = modifiers(state, item.target)
            net = rules.net_modifier(bonus, malus, state.options)
            gm = item.target in state.npcs
            totals = hexxen_odds.pool(dice, net, gm=gm, stars_count=state.options.stars_count)
            removed: dict[int, Any] = {}
            for total, chance in enumerate(totals):
                gone = abbau_removed(total, item.level, decay.per_success)
                removed[gone] = removed.get(gone, 0) + chance
            entry.update(
                roll=what,
                dice=dice,
                net=net,
                removed={str(k): f"{p.numerator}/{p.denominator}" for k, p in removed.items()},
            )
        out.append(entry)
    return out


def _healing(state: HexxenState, shown: set[str]) -> list[dict[str, Any]]:
    """What the next INI-0 phase heals: each healing property of an NSC in the fight and not
    defeated, its dice and the exact chance of each number they show."""
    out = []
    for npc in state.npcs.values():
        if npc.id not in shown or npc.id not in state.budgets or npc.lep.current <= 0:
            continue
        for trait in rules.trait_heal(npc.traits):
            assert trait.die is not None
            chances = hexxen_odds.special(rules.DIE_LETTERS[trait.die], trait.count)
            out.append(
                {
                    "npc": npc.id,
                    "property": trait.name,
                    "die": trait.die,
                    "dice": trait.count,
                    "chances": {
                        str(k): f"{p.numerator}/{p.denominator}" for k, p in enumerate(chances) if p
                    },
                }
            )
    return out


def _pending(state: HexxenState, shown: set[str]) -> dict[str, Any] | None:
    pending = state.pending
    if pending is None or pending.npc not in shown or pending.target not in shown:
        return None
    npc = state.npcs[pending.npc]
    hunter = state.hunters[pending.target]
    line = next(a for a in npc.attacks if a.name == pending.attack)
    bonus, malus = modifiers(state, npc.id, pending.bonus, pending.malus)
    return {
        **pending.model_dump(mode="json"),
        "dice": line.attack,
        "damage": line.damage,
        "npc_modifier": {"bonus": bonus, "malus": malus},
        "choices": defense_choices(state, hunter),
    }


def view(state: HexxenState, viewer: Viewer) -> dict[str, Any]:
    """The JSON the clients render for ``viewer``."""
    shown_ids = set(state.hunters) | {n.id for n in state.npcs.values() if _npc_visible(n, viewer)}
    hunters = []
    for hunter in state.hunters.values():
        data = hunter.model_dump(mode="json")
        bonus, malus = modifiers(state, hunter.id)
        data.update(effects=_effects(state, hunter.id), budgets=_budgets(state, hunter.id))
        data["check_modifier"] = {"bonus": bonus, "malus": malus}
        paralysis = ongoing(state, hunter.id, "paralysis")
        data["ap_per_round"] = rules.round_ap(paralysis, hunter.armour, state.options)
        data["position"] = state.positions.get(hunter.id)
        data["bound"] = is_bound(state, hunter.id)
        data["bound_with"] = sorted(bound_with(state, hunter.id) & shown_ids)
        data["defeated"] = hunter.lep.current <= 0
        hunters.append(data)
    npcs = []
    for npc in state.npcs.values():
        if not _npc_visible(npc, viewer):
            continue
        data = npc.model_dump(mode="json")
        for line, shown in zip(npc.powers, data["powers"], strict=True):
            shown["max_targets"] = line.max_targets
        for attack, shown in zip(npc.attacks, data["attacks"], strict=True):
            uses = rules.attack_dice(attack, npc.traits, state.options.edition)
            shown["dice_rolled"] = [
                {**use.model_dump(mode="json"), "gives": rules.use_effect(use)} for use in uses
            ]
        data["hex_growth"] = npc.hex_growth + rules.trait_growth(npc.traits)
        data["traits"] = [
            {**trait.model_dump(mode="json"), "applied": trait.does is not None}
            for trait in npc.traits
        ]
        bonus, malus = modifiers(state, npc.id)
        data.update(effects=_effects(state, npc.id), budgets=_budgets(state, npc.id))
        data["check_modifier"] = {"bonus": bonus, "malus": malus}
        data["position"] = state.positions.get(npc.id)
        data["bound"] = is_bound(state, npc.id)
        data["bound_with"] = sorted(bound_with(state, npc.id) & shown_ids)
        data["defeated"] = npc.lep.current <= 0
        npcs.append(data)
    shown = {h["id"] for h in hunters} | {n["id"] for n in npcs}
    fight = None
    if state.encounter is not None:
        enc = state.encounter
        fight = {
            "round": enc.round,
            "order": [who for who in enc.order if who in shown],
            "current": enc.current if enc.current in shown else None,
            "jz": sum(1 for c in enc.combatants if c.side == "hunters"),
            "legal": _legal(state) if viewer.role is Role.GM else [],
            "pending": _pending(state, shown),
            "ini0": _ini0(state, shown),
            "healing": _healing(state, shown),
        }
    last = None
    if state.last is not None and state.last.actor in shown:
        last = state.last.model_dump(mode="json")
    return {
        "system": "hexxen",
        "options": state.options.model_dump(mode="json"),
        "hunters": hunters,
        "npcs": npcs,
        "fight": fight,
        "map": {"width": state.grid.width, "height": state.grid.height},
        "last": last,
        "checks": state.checks,
        "skill_list": default_skills(),
        "faces": faces(),
    }
