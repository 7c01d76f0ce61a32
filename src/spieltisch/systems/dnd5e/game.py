"""Deciding commands and folding events: every rule of the table in one place.

:func:`decide` builds a command's events (rolling the dice) and folds them on a copy, so a
command that breaks a rule raises :class:`RuleError` and changes nothing. :func:`evolve`
applies one event by the rules of :mod:`.rules`, :mod:`.movement` and the toolkit.
"""

from __future__ import annotations

from decimal import Decimal

from spieltisch.dice.fair import DiceSource
from spieltisch.engine import economy, effects, encounter
from spieltisch.engine.effects import Duration
from spieltisch.engine.encounter import Combatant, PhaseEvent
from spieltisch.engine.errors import RuleError
from spieltisch.engine.grid import Size, Square, distance, parse_square, square_name
from spieltisch.systems.dnd5e import commands as c
from spieltisch.systems.dnd5e import events as e
from spieltisch.systems.dnd5e.data import CONDITIONS, catalog, condition_tags, monster
from spieltisch.systems.dnd5e.movement import (
    SPEED_ZERO,
    Body,
    JumpCheck,
    MoveStep,
    TurnMovement,
    check_move,
)
from spieltisch.systems.dnd5e.rules import (
    DeathSaves,
    Mode,
    attack_outcome,
    damage_at_zero,
    death_save,
    kept_d20,
    modify_damage,
    resolve_mode,
    take_damage,
)
from spieltisch.systems.dnd5e.statblock import parse_attack
from spieltisch.systems.dnd5e.state import (
    BUDGETS,
    DndState,
    Fighter,
    LastAttack,
    PendingMove,
    ReadiedAction,
    Weapon,
)

__all__ = [
    "CLOSE_M",
    "attack_mode",
    "body_of",
    "decide",
    "evolve",
    "kinds_on",
    "may_react",
    "named_params",
    "preview_move",
    "readied_attack",
    "save_bonus",
    "save_mode",
    "square_distance",
]

CLOSE_M = Decimal("1.5")


def kinds_on(state: DndState, creature: str) -> frozenset[str]:
    """The conditions and table effects on a creature."""
    return frozenset(effect.kind for effect in state.effects.on(creature))


def _fighter(state: DndState, creature: str) -> Fighter:
    found = state.fighters.get(creature)
    if found is None:
        raise RuleError("dnd5e.unknown_creature", creature=creature)
    return found


def body_of(state: DndState, fighter: Fighter) -> Body:
    """The creature as the movement rules see it (it must be on the map)."""
    assert fighter.position is not None
    return Body(
        id=fighter.id,
        side=fighter.side,
        size=fighter.size,
        position=fighter.position,
        speeds=fighter.speeds,
        reach_m=max((w.reach_m for w in fighter.attacks if not w.ranged), default=fighter.reach_m),
        conditions=kinds_on(state, fighter.id),
        hover=fighter.hover,
        strength=fighter.abilities.get("str", 10),
    )


def _others(state: DndState, fighter: Fighter) -> list[Body]:
    return [
        body_of(state, f)
        for f in state.fighters.values()
        if f.id != fighter.id and f.position is not None and not f.dead
    ]


def _require_turn(state: DndState, creature: str) -> Fighter:
    fighter = _fighter(state, creature)
    if state.encounter is None:
        raise RuleError("dnd5e.no_combat")
    if state.pending is not None:
        raise RuleError("dnd5e.reaction_pending", creature=state.pending.reactors[0])
    if state.encounter.current != creature:
        raise RuleError("dnd5e.not_your_turn", creature=creature, current=state.encounter.current)
    return fighter


def _require_able(state: DndState, fighter: Fighter) -> None:
    if fighter.dead or "incapacitated" in condition_tags(kinds_on(state, fighter.id)):
        raise RuleError("dnd5e.incapacitated", creature=fighter.id)


def square_distance(state: DndState, a: Fighter, b: Fighter) -> Decimal:
    """The distance in metres between two placed creatures (the grid's diagonal rule)."""
    return _distance(state, a, b)


def _distance(state: DndState, a: Fighter, b: Fighter) -> Decimal:
    if a.position is None or b.position is None:
        raise RuleError("dnd5e.not_placed", creature=a.id if a.position is None else b.id)
    return distance(state.grid, a.position, a.size, b.position, b.size)


def attack_mode(
    state: DndState, attacker: Fighter, target: Fighter, weapon: Weapon, extra: tuple[bool, bool]
) -> Mode:
    """Advantage or disadvantage of an attack from every source (they cancel, never stack)."""
    mine = condition_tags(kinds_on(state, attacker.id))
    theirs_kinds = kinds_on(state, target.id)
    theirs = condition_tags(theirs_kinds)
    if "dodging" in theirs_kinds and (
        "incapacitated" in theirs or theirs_kinds & SPEED_ZERO
    ):  # Dodge is lost while incapacitated or at speed 0
        theirs = condition_tags(theirs_kinds - {"dodging"})
    close = _distance(state, attacker, target) <= CLOSE_M
    advantages = [extra[0], "attacks_advantage" in mine, "attacked_with_advantage" in theirs]
    disadvantages = [
        extra[1],
        "attacks_disadvantage" in mine,
        "attacked_with_disadvantage" in theirs,
    ]
    if "prone" in theirs:
        advantages.append(close and not weapon.ranged)
        disadvantages.append(not close)
    if any(
        x.source == target.id and x.kind == "helped_attack" for x in state.effects.on(attacker.id)
    ):
        advantages.append(True)
    if weapon.ranged:
        disadvantages.append(_hostile_close(state, attacker))
    return resolve_mode(sum(advantages), sum(disadvantages))


def _hostile_close(state: DndState, attacker: Fighter) -> bool:
    for other in state.fighters.values():
        if other.side == attacker.side or other.position is None or other.dead:
            continue
        if "incapacitated" in condition_tags(kinds_on(state, other.id)):
            continue
        if _distance(state, attacker, other) <= CLOSE_M:
            return True
    return False


# ---------------------------------------------------------------- decide


def _sheet_fighter(sheet: c._Sheet, side: str, owner_piece: bool) -> Fighter:
    weapons = []
    for line in sheet.attacks:
        parsed = parse_attack(line)
        weapons.append(
            Weapon(
                name=parsed.name,
                bonus=parsed.bonus,
                damage=parsed.damage,
                reach_m=Decimal(parsed.reach_m),
                ranged=parsed.range_m is not None,
            )
        )
    return Fighter(
        id=sheet.id,
        name=sheet.name,
        side=side,
        size=sheet.size,
        ac=sheet.ac,
        hp=sheet.hp,
        max_hp=sheet.hp,
        speeds={k: Decimal(v) for k, v in sheet.speeds.items()},
        reach_m=Decimal(sheet.reach_m),
        abilities=dict(sheet.abilities),
        attacks=tuple(weapons),
        attacks_per_action=sheet.attacks_per_action,
        bonus_actions=sheet.bonus_actions,
        hover=sheet.hover,
        resistances=frozenset(sheet.resistances),
        vulnerabilities=frozenset(sheet.vulnerabilities),
        immunities=frozenset(sheet.immunities),
        position=parse_square(sheet.position) if sheet.position else None,
    )


def _monster_fighter(command: c.AddMonster) -> Fighter:
    if (command.monster is None) == (command.sheet is None):
        raise RuleError("dnd5e.monster_or_sheet")
    if command.sheet is not None:
        fighter = _sheet_fighter(command.sheet, command.side, False)
    else:
        stats = monster(command.monster or "")
        if stats is None:
            raise RuleError("dnd5e.unknown_monster", monster=command.monster)
        sheet = c.AddCharacter.model_validate(
            {
                "id": command.id,
                "name": stats["name"],
                "size": stats["size"],
                "ac": stats["ac"],
                "hp": stats["hp"],
                "speeds": stats["speeds"],
                "abilities": stats["abilities"],
                "attacks": stats["attacks"],
                "attacks_per_action": len(stats.get("multiattack", ())) or 1,
                "bonus_actions": stats.get("bonus_actions", ()),
                "vulnerabilities": stats.get("vulnerabilities", ()),
                "immunities": stats.get("immunities", ()),
                "resistances": stats.get("resistances", ()),
            }
        )
        fighter = _sheet_fighter(sheet, command.side, False)
        fighter = fighter.model_copy(update={"monster": command.monster})
    update: dict[str, object] = {"id": command.id, "secret": command.secret}
    if fighter.monster is None:
        update["monster"] = "custom"
    if command.position is not None:
        update["position"] = parse_square(command.position)
    return fighter.model_copy(update=update)


def _roll_d20(dice: DiceSource, mode: Mode) -> tuple[int, ...]:
    return (dice.roll(20),) if mode is Mode.NORMAL else (dice.roll(20), dice.roll(20))


def _attack_event(
    state: DndState,
    attacker: Fighter,
    command_target: str,
    attack_name: str,
    extra: tuple[bool, bool],
    dice: DiceSource,
    opportunity: bool = False,
) -> e.Attacked:
    target = _fighter(state, command_target)
    weapon = attacker.weapon(attack_name)
    if weapon is None:
        raise RuleError("dnd5e.unknown_attack", creature=attacker.id, attack=attack_name)
    if target.id == attacker.id or target.dead:
        raise RuleError("dnd5e.bad_target", target=target.id)
    if opportunity and weapon.ranged:
        raise RuleError("dnd5e.opportunity_melee", attack=weapon.name)
    reach = weapon.reach_m if not weapon.ranged else Decimal(10_000)
    if _distance(state, attacker, target) > reach:
        raise RuleError("dnd5e.out_of_reach", target=target.id, attack=weapon.name)
    mode = attack_mode(state, attacker, target, weapon, extra)
    rolled = _roll_d20(dice, mode)
    natural = kept_d20(rolled, mode)
    outcome = _outcome(state, attacker, target, weapon, natural)
    parts: list[tuple[int, ...]] = []
    if outcome != "miss":
        for part in weapon.damage:
            count = part.count * (2 if outcome == "critical" else 1)
            parts.append(tuple(dice.roll(part.sides) for _ in range(count)))
    return e.Attacked(
        attacker=attacker.id,
        target=target.id,
        attack=weapon.name,
        mode=mode.value,
        d20=rolled,
        dice=tuple(parts),
        opportunity=opportunity,
    )


def _outcome(
    state: DndState, attacker: Fighter, target: Fighter, weapon: Weapon, natural: int
) -> str:
    outcome = attack_outcome(natural, weapon.bonus, target.ac)
    tags = condition_tags(kinds_on(state, target.id))
    if (
        outcome == "hit"
        and "close_hits_critical" in tags
        and _distance(state, attacker, target) <= CLOSE_M
    ):
        return "critical"
    return outcome


def _move_events(
    state: DndState,
    fighter: Fighter,
    steps: tuple[MoveStep, ...],
    stand_up: bool,
    offered: tuple[str, ...] = (),
    partial: bool = False,
) -> list[e.Event]:
    if fighter.position is None:
        raise RuleError("dnd5e.not_placed", creature=fighter.id)
    before = state.movement.get(fighter.id, TurnMovement())
    disengaged = "disengaged" in kinds_on(state, fighter.id)
    body = body_of(state, fighter)
    others = _others(state, fighter)
    result = check_move(
        state.grid, body, others, steps, before=before, stand_up=stand_up, disengage=disengaged
    )
    if result.error is not None and not partial:
        raise result.error
    can_react = [
        (who, step)
        for who, step in result.opportunity_attacks
        if who not in offered and may_react(state, who)
    ]
    if not can_react:
        return [
            _moved(fighter, result.path, result.movement, result.stood_up, steps, result.checks)
        ]
    first = can_react[0][1]
    reactors = tuple(who for who, step in can_react if step == first)
    prefix = check_move(
        state.grid, body, others, steps[:first], before=before, stand_up=stand_up, disengage=True
    )
    pending = PendingMove(
        mover=fighter.id,
        reactors=reactors,
        steps=tuple(steps[first:]),
        offered=(*offered, *reactors),
    )
    moved = _moved(
        fighter, prefix.path, prefix.movement, prefix.stood_up, steps[:first], prefix.checks
    )
    return [moved.model_copy(update={"pending": pending})]


def _moved(
    fighter: Fighter,
    path: tuple[Square, ...],
    movement: TurnMovement,
    stood: bool,
    steps: tuple[MoveStep, ...] | list[MoveStep],
    checks: tuple[JumpCheck, ...],
) -> e.Moved:
    airborne = fighter.airborne
    if steps:
        airborne = steps[len(path) - 2].mode == "fly" if len(path) > 1 else airborne
    return e.Moved(
        creature=fighter.id,
        path=tuple(square_name(s) for s in path),
        movement=movement,
        stood_up=stood,
        airborne=airborne,
        checks=checks,
    )


def may_react(state: DndState, who: str) -> bool:
    """Whether ``who`` can take an opportunity attack now (able, a melee attack, a reaction)."""
    fighter = state.fighters[who]
    if fighter.dead or "incapacitated" in condition_tags(kinds_on(state, who)):
        return False
    budgets = state.budgets.get(who)
    has_melee = any(not w.ranged for w in fighter.attacks)
    return has_melee and budgets is not None and economy.can_spend(budgets, "reaction", 1)


def _events(state: DndState, command: c.Command, dice: DiceSource) -> list[e.Event]:
    if isinstance(command, c.AddCharacter):
        if command.id in state.fighters:
            raise RuleError("dnd5e.duplicate_id", creature=command.id)
        return [e.FighterAdded(fighter=_sheet_fighter(command, "party", True))]
    if isinstance(command, c.AddMonster):
        if command.id in state.fighters:
            raise RuleError("dnd5e.duplicate_id", creature=command.id)
        return [e.FighterAdded(fighter=_monster_fighter(command))]
    if isinstance(command, c.StartCombat):
        if state.encounter is not None:
            raise RuleError("dnd5e.combat_running")
        placed = [f for f in state.fighters.values() if f.position is not None and not f.dead]
        if not placed:
            raise RuleError("dnd5e.nobody_placed")
        for who in command.rolls:
            _fighter(state, who)
        return [
            e.CombatStarted(
                rolls=tuple(
                    (f.id, command.rolls[f.id] if f.id in command.rolls else dice.roll(20))
                    for f in placed
                )
            )
        ]
    if isinstance(command, c.Terrain):
        names = tuple(dict.fromkeys(square_name(state.grid.square(sq)) for sq in command.squares))
        return [e.TerrainSet(squares=names, terrain=command.terrain)]
    if isinstance(command, c.Move):
        fighter = _require_turn(state, command.creature)
        out: list[e.Event] = []
        if command.drop_prone:
            out.append(e.ConditionSet(target=fighter.id, condition="prone"))
            if "prone" in kinds_on(state, fighter.id):
                raise RuleError("dnd5e.already_prone", creature=fighter.id)
        if not command.steps and not command.stand_up:
            return out
        after = _fold(state, out)
        return out + _move_events(
            after, after.fighters[fighter.id], command.steps, command.stand_up
        )
    if isinstance(command, c.React):
        pending = state.pending
        if pending is None or command.creature not in pending.reactors:
            raise RuleError("dnd5e.no_reaction", creature=command.creature)
        reactor = _fighter(state, command.creature)
        first: e.Event
        if command.attack is None:
            first = e.Declined(creature=reactor.id)
        else:
            mover = pending.mover
            first = _attack_event(state, reactor, mover, command.attack, (False, False), dice, True)
        after = _fold(state, [first])
        if after.pending is not None or not pending.steps:
            return [first]
        mover_now = after.fighters[pending.mover]
        newly_prone = "prone" in kinds_on(after, mover_now.id) - kinds_on(state, mover_now.id)
        if mover_now.dead or mover_now.hp == 0 or newly_prone:
            return [first]
        try:
            rest = _move_events(
                after, mover_now, pending.steps, False, pending.offered, partial=True
            )
        except RuleError:
            return [first]
        return [first, *rest]
    if isinstance(command, c.Attack):
        attacker = _require_turn(state, command.creature)
        _require_able(state, attacker)
        return [
            _attack_event(
                state,
                attacker,
                command.target,
                command.attack,
                (command.advantage, command.disadvantage),
                dice,
            )
        ]
    if isinstance(command, c.TakeAction):
        fighter = _require_turn(state, command.creature)
        _require_able(state, fighter)
        if command.action == "help":
            if command.target is None:
                raise RuleError("dnd5e.help_needs_target")
            _fighter(state, command.target)
            if command.help == "attack":
                foe = _fighter(state, command.foe or "")
                if _distance(state, fighter, foe) > CLOSE_M:
                    raise RuleError("dnd5e.help_too_far", target=foe.id)
        return [
            e.ActionTaken(
                creature=fighter.id, action=command.action, target=command.target, help=command.help
            )
        ]
    if isinstance(command, c.Ready):
        fighter = _require_turn(state, command.creature)
        _require_able(state, fighter)
        return [e.Readied(creature=fighter.id, readied=_readied(state, fighter, command))]
    if isinstance(command, c.Trigger):
        return _trigger_events(state, command.creature, dice)
    if isinstance(command, c.BonusAction):
        fighter = _require_turn(state, command.creature)
        _require_able(state, fighter)
        if command.feature not in fighter.bonus_actions:
            raise RuleError("dnd5e.no_bonus_action", creature=fighter.id, feature=command.feature)
        return [e.BonusTaken(creature=fighter.id, feature=command.feature)]
    if isinstance(command, c.EndTurn):
        if state.encounter is None:
            raise RuleError("dnd5e.no_combat")
        if state.pending is not None:
            raise RuleError("dnd5e.reaction_pending", creature=state.pending.reactors[0])
        return [e.TurnEnded()]
    if isinstance(command, c.Damage):
        _fighter(state, command.target)
        return [
            e.Damaged(
                target=command.target,
                amount=command.amount,
                type=command.type,
                critical=command.critical,
            )
        ]
    if isinstance(command, c.Heal):
        _fighter(state, command.target)
        return [e.Healed(target=command.target, amount=command.amount, temporary=command.temporary)]
    if isinstance(command, c.Condition):
        _fighter(state, command.target)
        if command.condition not in CONDITIONS:
            raise RuleError("dnd5e.unknown_condition", condition=command.condition)
        return [
            e.ConditionSet(
                target=command.target, condition=command.condition, remove=command.remove
            )
        ]
    if isinstance(command, c.Save):
        fighter = _fighter(state, command.creature)
        if fighter.dead:
            raise RuleError("dnd5e.dead", creature=fighter.id)
        mode, fails = save_mode(state, fighter, command.ability)
        bonus = save_bonus(fighter, command)
        rolled = () if fails else _roll_d20(dice, mode)
        succeeded = not fails and kept_d20(rolled, mode) + bonus >= command.dc
        return [
            e.SaveRolled(
                creature=fighter.id,
                ability=command.ability,
                dc=command.dc,
                bonus=bonus,
                mode=mode.value,
                d20=rolled,
                succeeded=succeeded,
            )
        ]
    if isinstance(command, c.DeathSave):
        fighter = _require_turn(state, command.creature)
        if fighter.hp > 0 or fighter.stable or fighter.dead:
            raise RuleError("dnd5e.no_death_save", creature=fighter.id)
        return [e.DeathSaved(creature=fighter.id, d20=dice.roll(20))]
    raise RuleError("dnd5e.unknown_command")


def _readied(state: DndState, fighter: Fighter, command: c.Ready) -> ReadiedAction:
    """The readied action of a Ready command: one attack on a creature, or another action."""
    if (command.attack is None) == (command.action is None):
        raise RuleError("dnd5e.ready_attack_or_action", creature=fighter.id)
    if command.attack is None:
        return ReadiedAction(trigger=command.trigger, action=command.action)
    if command.target is None:
        raise RuleError("dnd5e.ready_needs_target", creature=fighter.id)
    weapon = fighter.weapon(command.attack)
    if weapon is None:
        raise RuleError("dnd5e.unknown_attack", creature=fighter.id, attack=command.attack)
    target = _fighter(state, command.target)
    if target.id == fighter.id:
        raise RuleError("dnd5e.bad_target", target=target.id)
    return ReadiedAction(
        trigger=command.trigger, attack=weapon.name, target=target.id, action=command.action
    )


def readied_attack(state: DndState, creature: str) -> tuple[Fighter, Fighter, Weapon] | None:
    """The attacker, target and weapon of ``creature``'s readied attack (None: no attack)."""
    readied = state.readied.get(creature)
    if readied is None or readied.attack is None or readied.target is None:
        return None
    attacker = _fighter(state, creature)
    weapon = attacker.weapon(readied.attack)
    if weapon is None:
        raise RuleError("dnd5e.unknown_attack", creature=creature, attack=readied.attack)
    return attacker, _fighter(state, readied.target), weapon


def _trigger_events(state: DndState, creature: str, dice: DiceSource) -> list[e.Event]:
    """The trigger happened: the reaction is spent, then the readied action (an attack rolls)."""
    readier = _fighter(state, creature)
    if creature not in state.readied:
        raise RuleError("dnd5e.nothing_readied", creature=creature)
    if state.pending is not None:
        raise RuleError("dnd5e.reaction_pending", creature=state.pending.reactors[0])
    _require_able(state, readier)
    if not economy.can_spend(state.budgets[creature], "reaction", 1):
        raise RuleError("dnd5e.no_reaction_left", creature=creature)
    fired = e.ReadyFired(creature=creature)
    found = readied_attack(state, creature)
    if found is None:
        return [fired]
    _, target, weapon = found
    after = _fold(state, [fired])
    attack = _attack_event(after, readier, target.id, weapon.name, (False, False), dice)
    return [fired, attack.model_copy(update={"readied": True})]


def preview_move(state: DndState, command: c.Move) -> dict[str, object]:
    """What ``command`` would do, without doing it: the route check of :func:`check_move`.

    The same rules as deciding the move: ``legal``, ``cost_m`` (standing up included),
    ``remaining_m`` of the speed in use, ``path`` (square names of the legal prefix, the start
    first), ``opportunity_attacks`` (the reactors who may take one, in route order) and
    ``error`` (the code, its params and the step, or ``None``). A command that cannot move at
    all (not this creature's turn, a reaction pending) raises its :class:`RuleError`.
    """
    fighter = _require_turn(state, command.creature)
    if fighter.position is None:
        raise RuleError("dnd5e.not_placed", creature=fighter.id)
    if command.drop_prone:
        if "prone" in kinds_on(state, fighter.id):
            raise RuleError("dnd5e.already_prone", creature=fighter.id)
        state = evolve(state, e.ConditionSet(target=fighter.id, condition="prone"))
        fighter = state.fighters[fighter.id]
    result = check_move(
        state.grid,
        body_of(state, fighter),
        _others(state, fighter),
        command.steps,
        before=state.movement.get(fighter.id, TurnMovement()),
        stand_up=command.stand_up,
        disengage="disengaged" in kinds_on(state, fighter.id),
    )
    error = result.error
    return {
        "legal": error is None,
        "cost_m": str(result.cost_m),
        "remaining_m": str(result.remaining_m),
        "path": [square_name(sq) for sq in result.path],
        "stood_up": result.stood_up,
        "checks": [check.model_dump(mode="json") for check in result.checks],
        "opportunity_attacks": [
            who for who, _ in result.opportunity_attacks if may_react(state, who)
        ],
        "error": None
        if error is None
        else {
            "code": error.code,
            "params": named_params(state, error.code, dict(error.params)),
            "step": result.error_step,
        },
    }


def save_mode(state: DndState, fighter: Fighter, ability: str) -> tuple[Mode, bool]:
    """The mode of a saving throw and whether it fails by itself (paralyzed, stunned, …
    fail Strength and Dexterity saves; Dodge gives advantage on Dexterity saves unless lost;
    restrained gives disadvantage on them)."""
    kinds = kinds_on(state, fighter.id)
    tags = condition_tags(kinds)
    if ability in ("str", "dex") and "fails_str_dex_saves" in tags:
        return Mode.NORMAL, True
    if ability != "dex":
        return Mode.NORMAL, False
    dodge_lost = "incapacitated" in tags or bool(kinds & SPEED_ZERO)
    advantages = int("dodging" in kinds and not dodge_lost)
    disadvantages = int("dex_saves_disadvantage" in tags)
    return resolve_mode(advantages, disadvantages), False


def save_bonus(fighter: Fighter, command: c.Save) -> int:
    """The bonus of a save: the one given, else the ability's modifier."""
    return command.bonus if command.bonus is not None else fighter.modifier(command.ability)


def _fold(state: DndState, events: list[e.Event]) -> DndState:
    for event in events:
        state = evolve(state, event)
    return state


NAMED_PARAMS = ("creature", "target", "current", "mover")
"""Error params that name a creature: the table's errors carry its display name."""
ID_CODES = frozenset({"dnd5e.duplicate_id"})
"""Errors about an id itself (they keep it)."""


def named_params(state: DndState, code: str, params: dict[str, object]) -> dict[str, object]:
    """``params`` with each creature id replaced by the creature's display name.

    A secret creature keeps its id (its name is the GM's secret, and an answer naming it must
    look like one naming an id nobody made), and so does an id no creature has.
    """
    if code in ID_CODES:
        return params
    out = dict(params)
    for key in NAMED_PARAMS:
        found = state.fighters.get(str(out.get(key, "")))
        if found is not None and not found.secret:
            out[key] = found.name
    return out


def decide(state: DndState, command: c.Command, dice: DiceSource) -> list[e.Event]:
    """The events of ``command``; every rule is checked by folding them on a copy. A refusal's
    params name creatures by their display names (:func:`named_params`)."""
    try:
        events = _events(state, command, dice)
        _fold(state, events)
    except RuleError as error:
        params = named_params(state, error.code, dict(error.params))
        raise RuleError(error.code, **params) from None
    return events


# ---------------------------------------------------------------- evolve


def _set(state: DndState, fighter: Fighter) -> DndState:
    return state.model_copy(update={"fighters": {**state.fighters, fighter.id: fighter}})


def _add_effect(
    state: DndState,
    kind: str,
    target: str,
    duration: Duration | None = None,
    source: str | None = None,
) -> DndState:
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
        state = _add_effect(state, "unconscious", target.id)
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


def evolve(state: DndState, event: e.Event) -> DndState:
    """Apply one event by the rules; :class:`RuleError` when it does not apply."""
    if isinstance(event, e.FighterAdded):
        fighter = event.fighter
        if fighter.id in state.fighters:
            raise RuleError("dnd5e.duplicate_id", creature=fighter.id)
        if fighter.position is not None:
            state.grid.square(square_name(fighter.position))
            body = body_of(state, fighter)
            result = check_move(state.grid, body, _others(state, fighter), [], forced=True)
            del result
        state = _set(state, fighter)
        budgets = economy.new_budgets(BUDGETS)
        return state.model_copy(update={"budgets": {**state.budgets, fighter.id: budgets}})
    if isinstance(event, e.CombatStarted):
        combatants = []
        for who, roll in event.rolls:
            fighter = _fighter(state, who)
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
    if isinstance(event, e.TerrainSet):
        grid = state.grid
        kinds = () if event.terrain is None else (event.terrain,)
        for name in event.squares:
            grid = grid.with_terrain(grid.square(name), *kinds)
        return state.model_copy(update={"grid": grid})
    if isinstance(event, e.Moved):
        fighter = _fighter(state, event.creature)
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
    if isinstance(event, e.Attacked):
        attacker = _fighter(state, event.attacker)
        target = _fighter(state, event.target)
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
                state = state.model_copy(
                    update={"budgets": {**state.budgets, attacker.id: budgets}}
                )
            state = _pay(state, attacker.id, "attacks")
        state = state.model_copy(update={"effects": _use_help(state, attacker.id, target.id)})
        natural = kept_d20(event.d20, Mode(event.mode))
        outcome = _outcome(state, attacker, target, weapon, natural)
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
    if isinstance(event, e.Declined):
        return _after_reaction(state, event.creature)
    if isinstance(event, e.ActionTaken):
        state = _pay(state, event.creature, "action")
        who = event.creature
        if event.action == "dash":
            mv = state.movement.get(who, TurnMovement())
            return state.model_copy(
                update={
                    "movement": {
                        **state.movement,
                        who: mv.model_copy(update={"dashes": mv.dashes + 1}),
                    }
                }
            )
        if event.action == "dodge":
            return _add_effect(state, "dodging", who, Duration.until_turn_start(who))
        if event.action == "disengage":
            return _add_effect(state, "disengaged", who, Duration.until_turn_end(who))
        if event.action == "hide":
            return _add_effect(state, "hidden", who)
        if event.action == "help" and event.target is not None:
            kind = "helped_attack" if event.help == "attack" else "helped_check"
            return _add_effect(
                state, kind, event.target, Duration.until_turn_start(who), source=who
            )
        return state
    if isinstance(event, e.Readied):
        who = event.creature
        state = _pay(state, who, "action")
        state = state.model_copy(update={"readied": {**state.readied, who: event.readied}})
        return _add_effect(state, "readied", who, Duration.until_turn_start(who))
    if isinstance(event, e.ReadyFired):
        who = event.creature
        if who not in state.readied:
            raise RuleError("dnd5e.nothing_readied", creature=who)
        state = _pay(state, who, "reaction")
        left = {k: v for k, v in state.readied.items() if k != who}
        return state.model_copy(
            update={"readied": left, "effects": effects.remove_kind(state.effects, "readied", who)}
        )
    if isinstance(event, e.BonusTaken):
        state = _pay(state, event.creature, "bonus")
        if event.feature in ("disengage", "hide", "dash"):
            return evolve_free_action(state, event.creature, event.feature)
        return state
    if isinstance(event, e.TurnEnded):
        if state.encounter is None:
            raise RuleError("dnd5e.no_combat")
        fight, markers = encounter.next_turn(state.encounter)
        return _hooks(state.model_copy(update={"encounter": fight}), list(markers))
    if isinstance(event, e.Damaged):
        return _hurt(state, _fighter(state, event.target), event.amount, event.type, event.critical)
    if isinstance(event, e.Healed):
        fighter = _fighter(state, event.target)
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
    if isinstance(event, e.ConditionSet):
        if event.remove:
            return state.model_copy(
                update={
                    "effects": effects.remove_kind(state.effects, event.condition, event.target)
                }
            )
        return _add_effect(state, event.condition, event.target)
    if isinstance(event, e.SaveRolled):
        _fighter(state, event.creature)
        return state.model_copy(update={"last_save": event.model_dump(mode="json")})
    if isinstance(event, e.DeathSaved):
        fighter = _fighter(state, event.creature)
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
    raise RuleError("dnd5e.unknown_event")


def evolve_free_action(state: DndState, who: str, action: str) -> DndState:
    """The effect of Dash, Disengage or Hide taken as a bonus action."""
    if action == "dash":
        mv = state.movement.get(who, TurnMovement())
        return state.model_copy(
            update={
                "movement": {**state.movement, who: mv.model_copy(update={"dashes": mv.dashes + 1})}
            }
        )
    if action == "disengage":
        return _add_effect(state, "disengaged", who, Duration.until_turn_end(who))
    return _add_effect(state, "hidden", who)


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


_ = Size
