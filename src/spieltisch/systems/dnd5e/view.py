"""What a viewer sees of a D&D 5e table.

Everything of the fold handed in is open, except creatures the GM entered as secret: those are
absent for viewers who do not own them (the toolkit's one rule, :func:`visible_to`). Pending
reactions naming a hidden creature are left out with it.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from typing import Any

from spieltisch.engine.creatures import Creature, visible_to
from spieltisch.engine.grid import square_name
from spieltisch.engine.visibility import Viewer
from spieltisch.systems.dnd5e.actions import monster_action, monster_lines
from spieltisch.systems.dnd5e.areas import creatures_in, squares_in
from spieltisch.systems.dnd5e.auras import affects, area_squares, aura_info, inside
from spieltisch.systems.dnd5e.casting import cast_info, casting_at, save_bonus_of, slots_left
from spieltisch.systems.dnd5e.cover import COVER_BONUS
from spieltisch.systems.dnd5e.data import CONDITIONS, bestiary, condition_tags
from spieltisch.systems.dnd5e.decide import (
    legendary_offered,
    shield_slot,
    shielded_outcome,
    shielded_spell_hits,
)
from spieltisch.systems.dnd5e.lasting import ac_bonus, dice_pmf, dice_total
from spieltisch.systems.dnd5e.legendary import (
    LegendaryAction,
    actions_of,
    per_round,
    resistances_per_day,
)
from spieltisch.systems.dnd5e.movement import TurnMovement, speed_for
from spieltisch.systems.dnd5e.odds import AttackOdds, save_odds
from spieltisch.systems.dnd5e.odds import attack_odds as _attack_odds
from spieltisch.systems.dnd5e.queries import (
    CLOSE_M,
    armour_class,
    attack_mode,
    body_of,
    cover_of,
    kinds_on,
    may_react,
    roll_extra,
    save_action_odds,
    save_extra,
    save_mode,
    square_distance,
)
from spieltisch.systems.dnd5e.rules import Mode, high_jump_m, kept_d20, long_jump_m
from spieltisch.systems.dnd5e.spells import missile_count, spell_info, target_limit
from spieltisch.systems.dnd5e.statblock import SaveLine
from spieltisch.systems.dnd5e.state import DndState, Fighter

__all__ = ["view"]


def _seen(fighter: Fighter, viewer: Viewer) -> bool:
    creature = Creature(
        id=fighter.id, side=fighter.side, owner=fighter.owner, secret=fighter.secret
    )
    return visible_to(creature, viewer)


def _fighter(state: DndState, fighter: Fighter) -> dict[str, Any]:
    data = fighter.model_dump(mode="json")
    data["position"] = square_name(fighter.position) if fighter.position else None
    data["conditions"] = sorted(kinds_on(state, fighter.id))
    data["condition_details"] = condition_details(state, fighter)
    data["tags"] = sorted(condition_tags(kinds_on(state, fighter.id)))
    data["squares"] = fighter.size.squares
    data["down"] = fighter.dead or fighter.hp == 0
    budgets = state.budgets.get(fighter.id)
    data["budgets"] = {k: str(v) for k, v in budgets.left.items()} if budgets else {}
    movement = state.movement.get(fighter.id, TurnMovement())
    data["movement"] = movement.model_dump(mode="json")
    strength = fighter.abilities.get("str", 10)
    data["jump"] = {
        "long_m": str(long_jump_m(strength)),
        "long_standing_m": str(long_jump_m(strength, standing=True)),
        "high_m": str(high_jump_m(strength)),
        "high_standing_m": str(high_jump_m(strength, standing=True)),
    }
    if fighter.position is not None:
        body = body_of(state, fighter)
        left = {}
        for mode in fighter.speeds:
            _, speed, _ = speed_for(body, mode)
            left[mode] = str(max(speed * (1 + movement.dashes) - movement.spent, 0))
        data["movement_left"] = left
    return data


@cache
def _odds(bonus: int, ac: int, mode: Mode, extra: tuple[int, ...] = ()) -> AttackOdds:
    return _attack_odds(bonus, ac, mode, extra=dice_pmf(extra))


def _fraction(p: Any) -> dict[str, Any]:
    return {"p": float(p), "exact": f"{p.numerator}/{p.denominator}"}


def _attack_options(state: DndState, attacker: Fighter, targets: list[Fighter]) -> list[Any]:
    """Each attack of ``attacker`` against each target: reach, mode and the hit odds."""
    out: list[Any] = []
    if attacker.position is None:
        return out
    for target in targets:
        if target.id == attacker.id or target.dead or target.position is None:
            continue
        distance = square_distance(state, attacker, target)
        covered = cover_of(state, attacker, target)
        for weapon in attacker.attacks:
            mode = attack_mode(state, attacker, target, weapon, (False, False))
            ac = armour_class(state, target) + COVER_BONUS[covered]
            odds = _odds(weapon.bonus, ac, mode, roll_extra(state, attacker.id, "attack"))
            reach = None if weapon.ranged else str(weapon.reach_m)
            out.append(
                {
                    "creature": attacker.id,
                    "target": target.id,
                    "attack": weapon.name,
                    "ranged": weapon.ranged,
                    "in_reach": (weapon.ranged or distance <= weapon.reach_m)
                    and covered != "total",
                    "reach_m": reach,
                    "distance_m": str(distance),
                    "close": distance <= CLOSE_M,
                    "mode": mode.value,
                    "cover": covered,
                    "bonus": weapon.bonus,
                    "hit": _fraction(odds.hit),
                    "critical": _fraction(odds.critical),
                    "miss": _fraction(odds.miss),
                }
            )
    return out


def _readied(state: DndState, fighter: Fighter, seen: set[str]) -> dict[str, Any] | None:
    """A creature's readied action, with the hit odds of a readied attack (a target the
    viewer does not see is left out)."""
    readied = state.readied.get(fighter.id)
    if readied is None:
        return None
    data: dict[str, Any] = readied.model_dump(mode="json")
    data["odds"] = None
    if readied.target is not None and readied.target not in seen:
        data["target"] = None
        return data
    if readied.target is not None:
        target = state.fighters[readied.target]
        options = [
            o for o in _attack_options(state, fighter, [target]) if o["attack"] == readied.attack
        ]
        data["odds"] = options[0] if options else None
    return data


def _over(state: DndState, order: list[str]) -> dict[str, Any] | None:
    """Whether the fight is decided: at most one side still has a creature standing."""
    standing = {
        state.fighters[c].side
        for c in order
        if not state.fighters[c].dead and state.fighters[c].hp > 0
    }
    if len(standing) > 1:
        return None
    return {"winner": next(iter(standing), None)}


def _last_attack(state: DndState, seen: set[str]) -> dict[str, Any] | None:
    last = state.last_attack
    if last is None or last.attacker not in seen or last.target not in seen:
        return None
    return last.model_dump(mode="json")


def _held_hit(state: DndState, seen: set[str]) -> dict[str, Any] | None:
    """The hit that waits for its target's decision (Shield), for viewers who see both: the
    roll and its total, the AC it hit and the AC with Shield, the slot Shield would take and
    P(the attack still hits) with it (certain either way: the d20 is rolled)."""
    held = state.held_hit
    if held is None or held.attacker not in seen or held.target not in seen:
        return None
    attacker, target = state.fighters[held.attacker], state.fighters[held.target]
    weapon = attacker.weapon(held.attack)
    assert weapon is not None
    natural = kept_d20(held.d20, Mode(held.mode))
    boost = dice_total(roll_extra(state, attacker.id, "attack"), held.effect_dice)
    cover = COVER_BONUS[held.cover]
    slot = shield_slot(state, target.id)
    hits = None if slot is None else Fraction(int(shielded_outcome(state) != "miss"))
    return {
        **held.model_dump(mode="json"),
        "natural": natural,
        "total": natural + weapon.bonus + held.modifier + boost,
        "ac": armour_class(state, target) + cover,
        "shield_ac": target.ac + ac_bonus({*kinds_on(state, target.id), "shielded"}) + cover,
        "slot": slot,
        "shield_hits": None if hits is None else _fraction(hits),
    }


def _held_spell(state: DndState, seen: set[str]) -> dict[str, Any] | None:
    """The spell rolls that wait for the decision of their target (Shield), for viewers who
    see caster and target: each roll with its total (an attack's), the AC it hit and the AC
    with Shield, the slot Shield would take and how many rolls would still deal damage with
    it (certain: the d20s are rolled; Magic Missile's darts: none)."""
    held = state.held_spell
    if held is None or held.caster not in seen or held.target not in seen:
        return None
    caster, target = state.fighters[held.caster], state.fighters[held.target]
    info = cast_info(state, held.spell)
    bonus = casting_at(state, caster).attack_bonus
    rolls = []
    for roll in held.of(target.id):
        natural = kept_d20(roll.d20, Mode(roll.mode)) if roll.d20 else None
        boost = dice_total(roll_extra(state, caster.id, "attack"), roll.effect_dice)
        total = None if natural is None else natural + bonus + boost
        rolls.append({**roll.model_dump(mode="json"), "natural": natural, "total": total})
    slot = shield_slot(state, target.id)
    return {
        "caster": caster.id,
        "target": target.id,
        "spell": info.id,
        "name": info.name,
        "slot_cast": held.slot,
        "attack": info.attack,
        "rolls": rolls,
        "ac": armour_class(state, target),
        "shield_ac": target.ac + ac_bonus({*kinds_on(state, target.id), "shielded"}),
        "slot": slot,
        "shield_hits": None if slot is None else shielded_spell_hits(state)[0],
    }


def _auras(state: DndState, seen: set[str]) -> list[dict[str, Any]]:
    """The auras around casters the viewer sees (Spirit Guardians): the spell, slot, damage
    type, radius, the squares of the area (for a medium creature) and the creatures inside
    that it affects (only those the viewer sees)."""
    out = []
    for who, aura in state.auras.items():
        caster = state.fighters[who]
        if who not in seen or caster.position is None:
            continue
        info = aura_info(aura.spell)
        assert info is not None
        out.append(
            {
                "caster": who,
                "spell": aura.spell,
                "slot": aura.slot,
                "damage_type": aura.damage_type,
                "radius_m": str(info["radius_m"]),
                "squares": sorted(square_name(sq) for sq in area_squares(state, caster)),
                "affected": [
                    f.id
                    for f in state.fighters.values()
                    if f.id in seen and affects(state, aura, caster, f) and inside(state, caster, f)
                ],
            }
        )
    return out


def view(state: DndState, viewer: Viewer) -> dict[str, Any]:
    """The table as JSON-ready data for ``viewer``."""
    seen = {f.id for f in state.fighters.values() if _seen(f, viewer)}
    fight = state.encounter
    order = [] if fight is None else [c for c in fight.order if c in seen]
    pending = state.pending
    pending_view = None
    if pending is not None and pending.mover in seen:
        pending_view = {
            "mover": pending.mover,
            "reactors": [r for r in pending.reactors if r in seen],
            "steps": [s.model_dump(mode="json") for s in pending.steps],
            "attacks": [
                option
                for r in pending.reactors
                if r in seen and may_react(state, r) and state.waiting_for is None
                for option in _attack_options(
                    state, state.fighters[r], [state.fighters[pending.mover]]
                )
                if not option["ranged"]
            ],
        }
    visible = [f for f in state.fighters.values() if f.id in seen]
    shown = [_fighter(state, f) for f in visible]
    for data in shown:
        data["readied"] = _readied(state, state.fighters[data["id"]], seen)
    attacks: list[Any] = []
    current = fight.current if fight is not None else None
    if current in seen and pending is None and state.waiting_for is None and current is not None:
        attacks = _attack_options(state, state.fighters[current], visible)
    return {
        "system": "dnd5e",
        "options": state.options.model_dump(mode="json"),
        "grid": {
            "width": state.grid.width,
            "height": state.grid.height,
            "square_m": str(state.grid.square_m),
            "diagonal": state.options.diagonal,
            "terrain": {sq: sorted(kinds)[0] for sq, kinds in state.grid.terrain.items() if kinds},
            "ground": {sq: str(height) for sq, height in sorted(state.ground.items())},
        },
        "fighters": shown,
        "attack_options": attacks,
        "conditions": [*CONDITIONS, "hidden", "squeezing"],  # what the GM may put on or off
        # only the GM enters monsters; the 334 entries would weigh on every player's view
        "bestiary": [
            {"id": key, "name": m["name"], "size": m["size"], "ac": m["ac"], "hp": m["hp"]}
            for key, m in bestiary().items()
        ]
        if viewer.is_gm
        else [],
        "combat": None
        if fight is None
        else {
            "round": fight.round,
            "order": order,
            "current": fight.current if fight.current in seen else None,
            "over": _over(state, order),
        },
        "pending_reaction": pending_view,
        "held_hit": _held_hit(state, seen),
        "held_spell": _held_spell(state, seen),
        "auras": _auras(state, seen),
        "last_attack": _last_attack(state, seen),
        "last_save": state.last_save
        if state.last_save is not None and state.last_save.get("creature") in seen
        else None,
        **_spells_view(state, seen),
        "legendary": _legendary(state, seen, visible),
        "monster_actions": _monster_actions(state, seen, visible),
        "falling": [x for x in state.falling if x in seen],
        "conditions_ended": [
            x.model_dump(mode="json") for x in state.conditions.ended if x.target in seen
        ],
    }


# ---------------------------------------------------------------- spells


def _volley(state: DndState, key: str, level: int) -> dict[str, int] | None:
    """How many darts, rays or beams a volley spell makes, by slot level (a cantrip: at the
    caster's level, under 0); None for another spell or a table of edition 1."""
    info = spell_info(key)
    if state.options.edition < 2 or not missile_count(info, info.level, character_level=level):
        return None
    slots = range(info.level, 10) if info.level else (0,)
    return {str(n): missile_count(info, n, character_level=level) for n in slots}


def _targets_max(state: DndState, key: str) -> dict[str, int] | None:
    """How many creatures a spell may target, by slot level (a cantrip: under 0); None for a
    spell whose targets the table does not count (``spells.target_limit``)."""
    info = spell_info(key)
    edition = state.options.edition
    if target_limit(info, info.level, edition=edition) is None:
        return None
    slots = range(info.level, 10) if info.level else (0,)
    limits = {str(n): target_limit(info, n, edition=edition) for n in slots}
    return {slot: limit for slot, limit in limits.items() if limit is not None}


def _aura_types(state: DndState, key: str) -> list[str] | None:
    """The damage types an aura spell's caster chooses from (the default first); None for
    another spell or a table before rules edition 4."""
    aura = aura_info(key) if state.options.edition >= 4 else None
    return None if aura is None else [str(x) for x in aura["types"]]


def _spell_entry(key: str) -> dict[str, Any]:
    info = spell_info(key)
    return {
        "id": key,
        "name": info.name,
        "level": info.level,
        "casting": info.casting_unit,
        "castable": info.in_combat,
        "range": info.range,
        "range_m": info.range_m,
        "area": info.area,
        "attack": info.attack,
        "save": info.save_ability,
        "concentration": info.concentration,
        "mechanical": info.mechanical,
    }


def _casting(state: DndState, fighter: Fighter) -> dict[str, Any] | None:
    """A caster's spellcasting as the page shows it: DC, attack bonus, slots and slots left,
    its spells, and the spell it concentrates on with P(keeping it) at the lowest DC (10)."""
    found = fighter.casting(derived=state.options.edition >= 5)
    if found is None:
        return None
    held = state.concentration.get(fighter.id)
    mode, fails = save_mode(state, fighter, "con")
    boost = dice_pmf(roll_extra(state, fighter.id, "save"))
    keep = Fraction(0) if fails else save_odds(save_bonus_of(fighter, "con"), 10, mode, boost)
    return {
        "ability": found.ability,
        "level": found.level,
        "save_dc": found.save_dc,
        "attack_bonus": found.attack_bonus,
        "slots": list(found.slots),
        "slots_left": list(slots_left(state, fighter)),
        "innate": {
            k: {"per_day": n, "left": n - state.innate_used.get(fighter.id, {}).get(k, 0)}
            for k, n in found.innate.items()
        },
        "spells": [
            {
                **_spell_entry(k),
                "missiles": _volley(state, k, found.level),
                "targets_max": _targets_max(state, k),
                "aura_types": _aura_types(state, k),
            }
            for k in found.spells
        ],
        "concentration": None
        if held is None
        else {
            "spell": held.spell,
            "name": spell_info(held.spell).name,
            "slot": held.slot,
            "keep_dc10": _fraction(keep),
        },
    }


def _spells_view(state: DndState, seen: set[str]) -> dict[str, Any]:
    """Spells in play as ``viewer`` sees them: the casters' spellcasting, the templates on
    the map with the creatures inside (only creatures the viewer sees; a template of a caster
    the viewer does not see is left out), the latest cast and concentration save."""
    fight = state.encounter
    templates = []
    placed = {
        f.id: (f.position, f.size)
        for f in state.fighters.values()
        if f.id in seen and f.position is not None and not f.dead
    }
    for caster, placed_template in sorted(state.templates.items()):
        current = fight is not None and fight.current == caster
        now = fight is not None and fight.round == placed_template.round
        if caster not in seen or not (placed_template.lasting or (current and now)):
            continue
        template = placed_template.template
        templates.append(
            {
                "caster": caster,
                "spell": placed_template.spell,
                "name": spell_info(placed_template.spell).name,
                "shape": template.shape,
                "size_m": str(template.size_m),
                "origin": square_name(template.origin),
                "toward": square_name(template.toward) if template.toward else None,
                "lasting": placed_template.lasting,
                "squares": sorted(
                    square_name(sq)
                    for sq in squares_in(template, state.grid.width, state.grid.height)
                ),
                "inside": creatures_in(template, placed, state.grid.width, state.grid.height),
            }
        )
    last = state.last_cast
    last_view = None
    if last is not None and last.get("creature") in seen:
        last_view = {
            **last,
            "targets": [t for t in _list(last.get("targets")) if t.get("target") in seen],
            "results": [r for r in _list(last.get("results")) if r.get("target") in seen],
        }
    held = state.last_concentration
    held_view = None
    if held is not None and held.get("creature") in seen:
        dc = int(str(held.get("dc", 10)))
        bonus = int(str(held.get("bonus", 0)))
        odds = save_odds(bonus, dc, Mode(str(held.get("mode", "normal"))))
        held_view = {**held, "keep": _fraction(odds)}
    return {
        "casting": {
            f.id: _casting(state, f)
            for f in state.fighters.values()
            if f.id in seen and f.casting() is not None
        },
        "templates": templates,
        "last_cast": last_view,
        "last_concentration": held_view,
    }


def _list(value: object) -> list[dict[str, Any]]:
    return [x for x in value if isinstance(x, dict)] if isinstance(value, list) else []


# ---------------------------------------------------------------- legendary and lair actions


def _legendary_action(
    state: DndState, monster: Fighter, action: LegendaryAction, targets: list[Fighter], left: int
) -> dict[str, Any]:
    """One legendary action with its cost and, for an attack, the hit odds against each
    target; for a save, each target's P(save)."""
    data: dict[str, Any] = {
        "name": action.name,
        "cost": action.cost,
        "text": action.text,
        "attack": action.attack,
        "save": action.save,
        "affordable": action.cost <= left,
        "odds": [],
    }
    if action.attack is not None:
        data["odds"] = [
            o for o in _attack_options(state, monster, targets) if o["attack"] == action.attack
        ]
    line = monster_action(monster.monster or "", action.save) if action.save else None
    if isinstance(line, SaveLine):
        data["odds"] = [
            {
                "target": t.id,
                "save": _fraction(save_action_odds(state, monster, t, line).success),
                "cover": cover_of(state, monster, t),
            }
            for t in targets
            if t.id != monster.id
            and not t.dead
            and t.position is not None
            and monster.position is not None
        ]
    return data


def _monster_actions(
    state: DndState, seen: set[str], visible: list[Fighter]
) -> list[dict[str, Any]]:
    """The save actions of the monster whose turn it is (its breath, its gaze), each with its
    recharge, whether it is spent, and every other creature in sight with its P(save)."""
    fight = state.encounter
    current = fight.current if fight is not None else None
    monster = state.fighters.get(current or "")
    if monster is None or monster.id not in seen or not monster.monster:
        return []
    spent = state.recharging.get(monster.id, ())
    out = []
    for line in monster_lines(monster.monster):
        if not isinstance(line, SaveLine):
            continue
        odds = [
            {
                "target": t.id,
                "save": _fraction(save_action_odds(state, monster, t, line).success),
                "cover": cover_of(state, monster, t),
            }
            for t in visible
            if t.id != monster.id
            and not t.dead
            and t.position is not None
            and monster.position is not None
        ]
        out.append(
            {
                "name": line.name,
                "recharge": line.recharge,
                "spent": line.name in spent,
                "odds": odds,
            }
        )
    return out


def _legendary(state: DndState, seen: set[str], visible: list[Fighter]) -> dict[str, Any]:
    """Legendary monsters in sight with their actions left this round, resistances left and
    actions with odds; the open end of a turn; lairs and whether a lair action is due."""
    track = state.legendary
    monsters = []
    for monster in visible:
        rounds = per_round(monster.monster)
        per_day = resistances_per_day(monster.monster)
        if not rounds and not per_day:
            continue
        left = rounds - track.spent.get(monster.id, 0)
        monsters.append(
            {
                "id": monster.id,
                "per_round": rounds,
                "left": left,
                "resistances": per_day,
                "resistances_left": per_day - track.resisted.get(monster.id, 0),
                "actions": [
                    _legendary_action(state, monster, a, visible, left)
                    for a in actions_of(monster.monster)
                ],
            }
        )
    window = track.window if track.window in seen else None
    offered = [] if window is None else [m for m in legendary_offered(state, window) if m in seen]
    lairs = [x for x in track.lairs if x in seen]
    return {
        "monsters": monsters,
        "window": window,
        "offered": offered,
        "lairs": lairs,
        "lair_due": track.lair_due and bool(lairs),
    }


# ---------------------------------------------------------------- condition durations


def condition_details(state: DndState, fighter: Fighter) -> list[dict[str, Any]]:
    """Each condition on a creature (the table's own effects too) with its level, source and
    duration: ``until`` ``removed``, ``turn_start`` or ``turn_end`` (``of`` whom), ``rounds``
    (``left`` round ends) or ``save`` (``ability``, ``dc`` and P(save) of the save at the end of
    each of its turns)."""
    out: list[dict[str, Any]] = []
    for effect in state.effects.on(fighter.id):
        duration = effect.duration
        data: dict[str, Any] = {
            "kind": effect.kind,
            "level": effect.level,
            "source": effect.source,
            "until": "removed",
        }
        if duration.phase in ("turn_start", "turn_end"):
            data.update(until=duration.phase, of=duration.who)
        elif duration.phase == "round_end":
            data.update(until="rounds", left=effect.remaining)
        repeat = next(
            (
                r
                for r in state.conditions.saves
                if (r.target, r.condition) == (fighter.id, effect.kind)
            ),
            None,
        )
        if repeat is not None:
            mode, fails = save_mode(state, fighter, repeat.ability)
            boost = dice_pmf(save_extra(state, fighter.id, since=3))
            bonus = fighter.modifier(repeat.ability)
            p = Fraction(0) if fails else save_odds(bonus, repeat.dc, mode, boost)
            data.update(until="save", ability=repeat.ability, dc=repeat.dc, save=_fraction(p))
        out.append(data)
    return out
