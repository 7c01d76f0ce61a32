"""Deciding commands: :func:`decide` builds a command's events (rolling the dice) and folds
them on a copy (:func:`.evolve.fold`), so a command that breaks a rule raises
:class:`RuleError` and changes nothing.

Every command kind has one handler; :func:`events_of` dispatches with ``match`` and
:func:`~typing.assert_never`, so a new command kind without a handler fails the type check.
"""

from __future__ import annotations

from decimal import Decimal
from typing import assert_never

from spieltisch.dice.fair import DiceSource
from spieltisch.engine import economy
from spieltisch.engine.errors import RuleError
from spieltisch.engine.grid import Square, parse_square, square_name
from spieltisch.systems.dnd5e import commands as c
from spieltisch.systems.dnd5e import events as e
from spieltisch.systems.dnd5e.bestiary import monster_fighter
from spieltisch.systems.dnd5e.data import CONDITIONS
from spieltisch.systems.dnd5e.evolve import evolve, fold
from spieltisch.systems.dnd5e.movement import JumpCheck, MoveStep, TurnMovement, check_move
from spieltisch.systems.dnd5e.queries import (
    CLOSE_M,
    attack_mode,
    body_of,
    fighter_of,
    kinds_on,
    may_react,
    others_of,
    outcome_of,
    require_able,
    save_mode,
    square_distance,
)
from spieltisch.systems.dnd5e.rules import Mode, kept_d20
from spieltisch.systems.dnd5e.statblock import parse_attack
from spieltisch.systems.dnd5e.state import (
    DndState,
    Fighter,
    PendingMove,
    ReadiedAction,
    Weapon,
)

__all__ = [
    "decide",
    "events_of",
    "named_params",
    "preview_move",
    "readied_attack",
    "save_bonus",
]


def decide(state: DndState, command: c.Command, dice: DiceSource) -> list[e.Event]:
    """The events of ``command``; every rule is checked by folding them on a copy. A refusal's
    params name creatures by their display names (:func:`named_params`)."""
    try:
        events = events_of(state, command, dice)
        fold(state, events)
    except RuleError as error:
        params = named_params(state, error.code, dict(error.params))
        raise RuleError(error.code, **params) from None
    return events


def events_of(state: DndState, command: c.Command, dice: DiceSource) -> list[e.Event]:
    """The events of ``command`` in ``state``, rolling what it needs (not yet folded)."""
    match command:
        case c.AddCharacter():
            if command.id in state.fighters:
                raise RuleError("dnd5e.duplicate_id", creature=command.id)
            return [e.FighterAdded(fighter=_sheet_fighter(command, "party"))]
        case c.AddMonster():
            if command.id in state.fighters:
                raise RuleError("dnd5e.duplicate_id", creature=command.id)
            return [e.FighterAdded(fighter=_monster_fighter(command))]
        case c.StartCombat():
            return _start_combat(state, command, dice)
        case c.Terrain():
            names = tuple(
                dict.fromkeys(square_name(state.grid.square(sq)) for sq in command.squares)
            )
            return [e.TerrainSet(squares=names, terrain=command.terrain)]
        case c.Move():
            return _move(state, command)
        case c.React():
            return _react(state, command, dice)
        case c.Attack():
            attacker = _require_turn(state, command.creature)
            require_able(state, attacker)
            extra = (command.advantage, command.disadvantage)
            return [_attack_event(state, attacker, command.target, command.attack, extra, dice)]
        case c.TakeAction():
            return _take_action(state, command)
        case c.Ready():
            fighter = _require_turn(state, command.creature)
            require_able(state, fighter)
            return [e.Readied(creature=fighter.id, readied=_readied(state, fighter, command))]
        case c.Trigger():
            return _trigger_events(state, command.creature, dice)
        case c.BonusAction():
            fighter = _require_turn(state, command.creature)
            require_able(state, fighter)
            if command.feature not in fighter.bonus_actions:
                raise RuleError(
                    "dnd5e.no_bonus_action", creature=fighter.id, feature=command.feature
                )
            return [e.BonusTaken(creature=fighter.id, feature=command.feature)]
        case c.EndTurn():
            if state.encounter is None:
                raise RuleError("dnd5e.no_combat")
            if state.pending is not None:
                raise RuleError("dnd5e.reaction_pending", creature=state.pending.reactors[0])
            return [e.TurnEnded()]
        case c.Damage():
            fighter_of(state, command.target)
            return [
                e.Damaged(
                    target=command.target,
                    amount=command.amount,
                    type=command.type,
                    critical=command.critical,
                )
            ]
        case c.Heal():
            fighter_of(state, command.target)
            return [
                e.Healed(target=command.target, amount=command.amount, temporary=command.temporary)
            ]
        case c.Condition():
            fighter_of(state, command.target)
            if command.condition not in CONDITIONS:
                raise RuleError("dnd5e.unknown_condition", condition=command.condition)
            return [
                e.ConditionSet(
                    target=command.target, condition=command.condition, remove=command.remove
                )
            ]
        case c.Save():
            return [_save(state, command, dice)]
        case c.DeathSave():
            fighter = _require_turn(state, command.creature)
            if fighter.hp > 0 or fighter.stable or fighter.dead:
                raise RuleError("dnd5e.no_death_save", creature=fighter.id)
            return [e.DeathSaved(creature=fighter.id, d20=dice.roll(20))]
        case _:
            assert_never(command)


# ---------------------------------------------------------------- checks shared by handlers


def _require_turn(state: DndState, creature: str) -> Fighter:
    fighter = fighter_of(state, creature)
    if state.encounter is None:
        raise RuleError("dnd5e.no_combat")
    if state.pending is not None:
        raise RuleError("dnd5e.reaction_pending", creature=state.pending.reactors[0])
    if state.encounter.current != creature:
        raise RuleError("dnd5e.not_your_turn", creature=creature, current=state.encounter.current)
    return fighter


def _roll_d20(dice: DiceSource, mode: Mode) -> tuple[int, ...]:
    return (dice.roll(20),) if mode is Mode.NORMAL else (dice.roll(20), dice.roll(20))


# ---------------------------------------------------------------- creatures


def _sheet_fighter(sheet: c._Sheet, side: str) -> Fighter:
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
        fighter = _sheet_fighter(command.sheet, command.side)
    else:
        fighter = monster_fighter(command.monster or "", command.id, command.side)
    update: dict[str, object] = {"id": command.id, "secret": command.secret}
    if fighter.monster is None:
        update["monster"] = "custom"
    if command.position is not None:
        update["position"] = parse_square(command.position)
    return fighter.model_copy(update=update)


def _start_combat(state: DndState, command: c.StartCombat, dice: DiceSource) -> list[e.Event]:
    if state.encounter is not None:
        raise RuleError("dnd5e.combat_running")
    placed = [f for f in state.fighters.values() if f.position is not None and not f.dead]
    if not placed:
        raise RuleError("dnd5e.nobody_placed")
    for who in command.rolls:
        fighter_of(state, who)
    return [
        e.CombatStarted(
            rolls=tuple(
                (f.id, command.rolls[f.id] if f.id in command.rolls else dice.roll(20))
                for f in placed
            )
        )
    ]


# ---------------------------------------------------------------- attacks


def _attack_event(
    state: DndState,
    attacker: Fighter,
    command_target: str,
    attack_name: str,
    extra: tuple[bool, bool],
    dice: DiceSource,
    opportunity: bool = False,
) -> e.Attacked:
    target = fighter_of(state, command_target)
    weapon = attacker.weapon(attack_name)
    if weapon is None:
        raise RuleError("dnd5e.unknown_attack", creature=attacker.id, attack=attack_name)
    if target.id == attacker.id or target.dead:
        raise RuleError("dnd5e.bad_target", target=target.id)
    if opportunity and weapon.ranged:
        raise RuleError("dnd5e.opportunity_melee", attack=weapon.name)
    reach = weapon.reach_m if not weapon.ranged else Decimal(10_000)
    if square_distance(state, attacker, target) > reach:
        raise RuleError("dnd5e.out_of_reach", target=target.id, attack=weapon.name)
    mode = attack_mode(state, attacker, target, weapon, extra)
    rolled = _roll_d20(dice, mode)
    natural = kept_d20(rolled, mode)
    outcome = outcome_of(state, attacker, target, weapon, natural)
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


# ---------------------------------------------------------------- movement


def _move(state: DndState, command: c.Move) -> list[e.Event]:
    fighter = _require_turn(state, command.creature)
    out: list[e.Event] = []
    if command.drop_prone:
        out.append(e.ConditionSet(target=fighter.id, condition="prone"))
        if "prone" in kinds_on(state, fighter.id):
            raise RuleError("dnd5e.already_prone", creature=fighter.id)
    if not command.steps and not command.stand_up:
        return out
    after = fold(state, out)
    return out + _move_events(after, after.fighters[fighter.id], command.steps, command.stand_up)


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
    others = others_of(state, fighter)
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


def _react(state: DndState, command: c.React, dice: DiceSource) -> list[e.Event]:
    pending = state.pending
    if pending is None or command.creature not in pending.reactors:
        raise RuleError("dnd5e.no_reaction", creature=command.creature)
    reactor = fighter_of(state, command.creature)
    first: e.Event
    if command.attack is None:
        first = e.Declined(creature=reactor.id)
    else:
        mover = pending.mover
        first = _attack_event(state, reactor, mover, command.attack, (False, False), dice, True)
    after = fold(state, [first])
    if after.pending is not None or not pending.steps:
        return [first]
    mover_now = after.fighters[pending.mover]
    newly_prone = "prone" in kinds_on(after, mover_now.id) - kinds_on(state, mover_now.id)
    if mover_now.dead or mover_now.hp == 0 or newly_prone:
        return [first]
    try:
        rest = _move_events(after, mover_now, pending.steps, False, pending.offered, partial=True)
    except RuleError:
        return [first]
    return [first, *rest]


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
        others_of(state, fighter),
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


# ---------------------------------------------------------------- other actions


def _take_action(state: DndState, command: c.TakeAction) -> list[e.Event]:
    fighter = _require_turn(state, command.creature)
    require_able(state, fighter)
    if command.action == "help":
        if command.target is None:
            raise RuleError("dnd5e.help_needs_target")
        fighter_of(state, command.target)
        if command.help == "attack":
            foe = fighter_of(state, command.foe or "")
            if square_distance(state, fighter, foe) > CLOSE_M:
                raise RuleError("dnd5e.help_too_far", target=foe.id)
    return [
        e.ActionTaken(
            creature=fighter.id, action=command.action, target=command.target, help=command.help
        )
    ]


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
    target = fighter_of(state, command.target)
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
    attacker = fighter_of(state, creature)
    weapon = attacker.weapon(readied.attack)
    if weapon is None:
        raise RuleError("dnd5e.unknown_attack", creature=creature, attack=readied.attack)
    return attacker, fighter_of(state, readied.target), weapon


def _trigger_events(state: DndState, creature: str, dice: DiceSource) -> list[e.Event]:
    """The trigger happened: the reaction is spent, then the readied action (an attack rolls)."""
    readier = fighter_of(state, creature)
    if creature not in state.readied:
        raise RuleError("dnd5e.nothing_readied", creature=creature)
    if state.pending is not None:
        raise RuleError("dnd5e.reaction_pending", creature=state.pending.reactors[0])
    require_able(state, readier)
    if not economy.can_spend(state.budgets[creature], "reaction", 1):
        raise RuleError("dnd5e.no_reaction_left", creature=creature)
    fired = e.ReadyFired(creature=creature)
    found = readied_attack(state, creature)
    if found is None:
        return [fired]
    _, target, weapon = found
    after = fold(state, [fired])
    attack = _attack_event(after, readier, target.id, weapon.name, (False, False), dice)
    return [fired, attack.model_copy(update={"readied": True})]


def _save(state: DndState, command: c.Save, dice: DiceSource) -> e.SaveRolled:
    fighter = fighter_of(state, command.creature)
    if fighter.dead:
        raise RuleError("dnd5e.dead", creature=fighter.id)
    mode, fails = save_mode(state, fighter, command.ability)
    bonus = save_bonus(fighter, command)
    rolled = () if fails else _roll_d20(dice, mode)
    succeeded = not fails and kept_d20(rolled, mode) + bonus >= command.dc
    return e.SaveRolled(
        creature=fighter.id,
        ability=command.ability,
        dc=command.dc,
        bonus=bonus,
        mode=mode.value,
        d20=rolled,
        succeeded=succeeded,
    )


def save_bonus(fighter: Fighter, command: c.Save) -> int:
    """The bonus of a save: the one given, else the ability's modifier."""
    return command.bonus if command.bonus is not None else fighter.modifier(command.ability)


# ---------------------------------------------------------------- refusals

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
