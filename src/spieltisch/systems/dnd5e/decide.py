"""Deciding commands: :func:`decide` builds a command's events (rolling the dice) and folds
them on a copy (:func:`.evolve.fold`), so a command that breaks a rule raises
:class:`RuleError` and changes nothing.

Every command kind has one handler; :func:`events_of` dispatches with ``match`` and
:func:`~typing.assert_never`, so a new command kind without a handler fails the type check.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Literal, assert_never

from spieltisch.dice.fair import DiceSource
from spieltisch.engine import economy
from spieltisch.engine.errors import RuleError
from spieltisch.engine.grid import Square, distance, footprint, parse_square, square_name
from spieltisch.systems.dnd5e import casting
from spieltisch.systems.dnd5e import commands as c
from spieltisch.systems.dnd5e import events as e
from spieltisch.systems.dnd5e.actions import monster_action
from spieltisch.systems.dnd5e.aura_odds import aura_entry_odds
from spieltisch.systems.dnd5e.auras import (
    aura_dice,
    aura_info,
    entering,
    slowed_squares,
    strikes_due,
)
from spieltisch.systems.dnd5e.bestiary import monster_fighter, weapon_of
from spieltisch.systems.dnd5e.cover import Cover
from spieltisch.systems.dnd5e.data import CONDITIONS, SKILLS, condition_tags
from spieltisch.systems.dnd5e.evolve import evolve, fold
from spieltisch.systems.dnd5e.falling import fall_dice
from spieltisch.systems.dnd5e.hitdice import HitDice, healed_by
from spieltisch.systems.dnd5e.lasting import dice_total, no_damage_from
from spieltisch.systems.dnd5e.legendary import (
    LegendaryAction,
    actions_of,
    affordable,
    resistances_per_day,
)
from spieltisch.systems.dnd5e.movement import (
    Body,
    JumpCheck,
    MoveResult,
    MoveStep,
    TurnMovement,
    check_move,
    ground_under,
)
from spieltisch.systems.dnd5e.odds import DamageDice, save_odds
from spieltisch.systems.dnd5e.queries import (
    CLOSE_M,
    attack_mode,
    body_of,
    check_mode,
    cover_of,
    fighter_of,
    helped_on,
    hp_max,
    kinds_on,
    marked_dice,
    may_react,
    others_of,
    outcome_of,
    require_able,
    roll_extra,
    save_extra,
    save_mode,
    square_distance,
)
from spieltisch.systems.dnd5e.rules import SIZE_ORDER, Mode, kept_d20
from spieltisch.systems.dnd5e.spells import (
    Spell,
    concentration_dc,
    keeps_concentration,
    spell_info,
)
from spieltisch.systems.dnd5e.statblock import ABILITIES, SaveLine, parse_attack
from spieltisch.systems.dnd5e.state import (
    CheckRoll,
    DndState,
    Fighter,
    HeldHit,
    PendingMove,
    ReadiedAction,
    Weapon,
)

__all__ = [
    "RolledSave",
    "decide",
    "events_of",
    "hit_dice_plan",
    "legendary_offered",
    "legendary_plan",
    "monster_action_plan",
    "named_params",
    "preview_move",
    "readied_attack",
    "roll_save",
    "save_action_event",
    "save_bonus",
    "shield_slot",
    "shielded_outcome",
    "shielded_spell_hits",
    "with_concentration",
]


def decide(state: DndState, command: c.Command, dice: DiceSource) -> list[e.Event]:
    """The events of ``command``; every rule is checked by folding them on a copy. A refusal's
    params name creatures by their display names (:func:`named_params`)."""
    try:
        events = with_concentration(state, events_of(state, command, dice), dice)
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
            started = _start_combat(state, command, dice)
            return started + _turn_start_strikes(state, started, dice)
        case c.Terrain():
            names = tuple(
                dict.fromkeys(square_name(state.grid.square(sq)) for sq in command.squares)
            )
            return [e.TerrainSet(squares=names, terrain=command.terrain)]
        case c.Ground():
            names = tuple(
                dict.fromkeys(square_name(state.grid.square(sq)) for sq in command.squares)
            )
            return [e.GroundSet(squares=names, height_m=str(Decimal(str(command.height_m))))]
        case c.Move():
            return _move(state, command, dice)
        case c.React():
            return _react(state, command, dice)
        case c.Attack():
            attacker = _require_turn(state, command.creature)
            require_able(state, attacker)
            if attacker.attack_mix():
                left = multiattack_left(state, attacker)
                weapon = attacker.weapon(command.attack)
                if weapon is not None and left and weapon.name not in left:
                    raise RuleError(
                        "dnd5e.multiattack_mix",
                        creature=attacker.id,
                        attack=weapon.name,
                        left=", ".join(left),
                    )
            extra = (command.advantage, command.disadvantage)
            attack = _attack_event(
                state,
                attacker,
                command.target,
                command.attack,
                extra,
                dice,
                command.modifier,
                cover=command.cover,
            )
            return [attack]
        case c.TakeAction():
            return _take_action(state, command, dice)
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
            check = _hide_check(state, fighter, dice) if command.feature == "hide" else None
            return [e.BonusTaken(creature=fighter.id, feature=command.feature, check=check)]
        case c.EndTurn():
            if state.encounter is None:
                raise RuleError("dnd5e.no_combat")
            _require_no_hold(state)
            if state.pending is not None:
                raise RuleError("dnd5e.reaction_pending", creature=state.pending.reactors[0])
            ended = _end_turn(state, dice)
            return ended + _recharges(state, ended, dice) + _turn_start_strikes(state, ended, dice)
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
            return [_condition(state, command)]
        case c.Save():
            return [_save(state, command, dice)]
        case c.Check():
            return [_check(state, command, dice)]
        case c.Grapple() | c.Shove() | c.Escape():
            contested = _contest(state, command, dice)
            return [contested, *_pushed_off(state, contested, dice)]
        case c.Legendary():
            return _legendary(state, command, dice)
        case c.LegendaryResistance():
            return [_legendary_resistance(state, command.creature)]
        case c.Lair():
            fighter_of(state, command.creature)
            return [e.LairSet(creature=command.creature, in_lair=command.in_lair)]
        case c.LairAction():
            return [e.LairActionTaken(creature=command.creature, text=command.text)]
        case c.Fall():
            fighter = fighter_of(state, command.creature)
            if fighter.dead:
                raise RuleError("dnd5e.dead", creature=fighter.id)
            height = (
                fighter.altitude_m if command.height_m is None else Decimal(str(command.height_m))
            )
            if height <= 0 and command.height_m is None:
                raise RuleError("dnd5e.fall_height_missing", creature=fighter.id)
            rolled = tuple(dice.roll(6) for _ in range(fall_dice(height)))
            return [e.Fell(creature=fighter.id, height_m=str(height), dice=rolled)]
        case c.DeathSave():
            fighter = _require_turn(state, command.creature)
            if fighter.hp > 0 or fighter.stable or fighter.dead:
                raise RuleError("dnd5e.no_death_save", creature=fighter.id)
            if not fighter.death_save_due:
                raise RuleError("dnd5e.death_save_taken", creature=fighter.id)
            d20 = dice.roll(20)
            rolled, boost = _save_dice(state, fighter.id, dice, since=3)
            return [e.DeathSaved(creature=fighter.id, d20=d20, effect_dice=rolled, boost=boost)]
        case c.Cast():
            return [_cast(state, command, dice)]
        case c.Shield():
            return _answer_hit(state, command, dice)
        case c.DropConcentration():
            return [_drop_concentration(state, command)]
        case c.EndCombat():
            if state.encounter is None:
                raise RuleError("dnd5e.no_combat")
            return [e.CombatEnded()]
        case c.Rest():
            return [_rest(state, command)]
        case c.SpendHitDice():
            return [_spend_hit_dice(state, command, dice)]
        case c.MonsterAction():
            return _monster_action(state, command, dice)
        case _:
            assert_never(command)


GM_CONDITIONS = frozenset({*CONDITIONS, "hidden", "squeezing"})
"""What the GM may put on a creature or take off with ``condition``: the SRD conditions,
being hidden (the GM rules on being found) and squeezing through a space one size smaller."""

# ---------------------------------------------------------------- checks shared by handlers


def _require_no_hold(state: DndState) -> None:
    """Refuse anything but the decision while a hit waits for its target (Shield)."""
    if state.waiting_for is not None:
        raise RuleError("dnd5e.hit_pending", creature=state.waiting_for)


def _require_turn(state: DndState, creature: str) -> Fighter:
    fighter = fighter_of(state, creature)
    if state.encounter is None:
        raise RuleError("dnd5e.no_combat")
    _require_no_hold(state)
    if state.pending is not None:
        raise RuleError("dnd5e.reaction_pending", creature=state.pending.reactors[0])
    if state.legendary.window is not None:
        raise RuleError("dnd5e.legendary.pending", creature=state.legendary.window)
    if state.encounter.current != creature:
        raise RuleError("dnd5e.not_your_turn", creature=creature, current=state.encounter.current)
    return fighter


def _roll_d20(dice: DiceSource, mode: Mode) -> tuple[int, ...]:
    return (dice.roll(20),) if mode is Mode.NORMAL else (dice.roll(20), dice.roll(20))


@dataclass(frozen=True)
class RolledSave:
    """A saving throw as rolled: its mode, the d20s (none: it failed by itself), the dice
    of the lasting spell effects on it and what they add."""

    mode: Mode
    d20: tuple[int, ...]
    effect_dice: tuple[int, ...]
    boost: int

    def total(self, bonus: int) -> int:
        """The kept d20 + ``bonus`` + the effect dice (meaningless without a d20)."""
        return kept_d20(self.d20, self.mode) + bonus + self.boost

    def made(self, bonus: int, dc: int) -> bool:
        """Whether the save reaches ``dc`` with ``bonus`` (never without a d20)."""
        return bool(self.d20) and self.total(bonus) >= dc


def roll_save(
    state: DndState,
    fighter: Fighter,
    ability: str,
    dice: DiceSource,
    extra: tuple[bool, bool] = (False, False),
    since: int = 1,
) -> RolledSave:
    """Every saving throw the table rolls: the mode from the creature's conditions (and the
    GM's ``extra`` advantage and disadvantage), the d20s, then the dice of the lasting spell
    effects on it (Bless's d4 added, Bane's subtracted; :func:`.queries.save_extra`, from
    rules edition ``since``). A save that fails by itself rolls nothing."""
    mode, fails = save_mode(state, fighter, ability, extra)
    if fails:
        return RolledSave(mode=mode, d20=(), effect_dice=(), boost=0)
    d20 = _roll_d20(dice, mode)
    rolled, boost = _save_dice(state, fighter.id, dice, since)
    return RolledSave(mode=mode, d20=d20, effect_dice=rolled, boost=boost)


def _save_dice(
    state: DndState, creature: str, dice: DiceSource, since: int
) -> tuple[tuple[int, ...], int]:
    """Roll the dice of the lasting spell effects on a creature's save (after its d20s): the
    dice as rolled and what they add (:func:`.queries.save_extra`)."""
    signed = save_extra(state, creature, since)
    rolled = tuple(dice.roll(abs(sides)) for sides in signed)
    return rolled, dice_total(signed, rolled)


# ---------------------------------------------------------------- creatures


def _sheet_fighter(sheet: c._Sheet, side: str) -> Fighter:
    weapons = [weapon_of(parse_attack(line)) for line in sheet.attacks]
    return Fighter(
        id=sheet.id,
        name=sheet.name,
        side=side,
        size=sheet.size,
        ac=sheet.ac,
        hp=sheet.hp,
        max_hp=sheet.hp,
        speeds={k: Decimal(str(v)) for k, v in sheet.speeds.items()},
        reach_m=Decimal(sheet.reach_m),
        abilities=dict(sheet.abilities),
        skills=dict(sheet.skills),
        passive_perception=sheet.passive_perception,
        attacks=tuple(weapons),
        attacks_per_action=len(sheet.multiattack) or sheet.attacks_per_action,
        multiattack=tuple(_attack_name(weapons, sheet.id, n) for n in sheet.multiattack),
        bonus_actions=sheet.bonus_actions,
        hover=sheet.hover,
        resistances=frozenset(sheet.resistances),
        vulnerabilities=frozenset(sheet.vulnerabilities),
        immunities=frozenset(sheet.immunities),
        position=parse_square(sheet.position) if sheet.position else None,
        spellcasting=sheet.spellcasting,
        hit_dice=sheet.hit_dice,
    )


def _attack_name(weapons: list[Weapon], creature: str, name: str) -> str:
    found = next((w.name for w in weapons if w.name.lower() == name.lower()), None)
    if found is None:
        raise RuleError("dnd5e.unknown_attack", creature=creature, attack=name)
    return found


def multiattack_left(state: DndState, fighter: Fighter) -> list[str]:
    """The attacks of its Multiattack mix a creature may still make with its Attack action
    (all of them before the action is taken)."""
    left = list(fighter.attack_mix())
    if state.budgets.get(fighter.id) is None or not state.budgets[fighter.id].amount("attacks"):
        return left
    for used in state.multiattack_used.get(fighter.id, ()):
        if used in left:
            left.remove(used)
    return left


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
    modifier: int = 0,
    opportunity: bool = False,
    cover: Cover | None = None,
) -> e.Attacked:
    target = fighter_of(state, command_target)
    weapon = attacker.weapon(attack_name)
    if weapon is None:
        raise RuleError("dnd5e.unknown_attack", creature=attacker.id, attack=attack_name)
    if target.id == attacker.id or target.dead:
        raise RuleError("dnd5e.bad_target", target=target.id)
    charm_refusal(state, attacker, target)
    if opportunity and weapon.ranged:
        raise RuleError("dnd5e.opportunity_melee", attack=weapon.name)
    reach = weapon.reach_m if not weapon.ranged else Decimal(10_000)
    if square_distance(state, attacker, target) > reach:
        raise RuleError("dnd5e.out_of_reach", target=target.id, attack=weapon.name)
    covered = cover_of(state, attacker, target) if cover is None else cover
    if covered == "total":
        raise RuleError("dnd5e.cover.total", target=target.id)
    mode = attack_mode(state, attacker, target, weapon, extra)
    rolled = _roll_d20(dice, mode)
    natural = kept_d20(rolled, mode)
    boost, boosted = _effect_dice(state, attacker.id, "attack", dice)
    outcome = outcome_of(state, attacker, target, weapon, natural, modifier + boost, covered)
    roll = HeldHit(
        attacker=attacker.id,
        target=target.id,
        attack=weapon.name,
        mode=mode.value,
        d20=rolled,
        modifier=modifier,
        opportunity=opportunity,
        cover=covered,
        effect_dice=boosted,
    )
    if outcome != "miss" and shield_slot(state, target.id) is not None:
        return e.Attacked(**roll.model_dump(), dice=(), held=True)
    return _damage_rolled(state, roll, outcome, dice)


def _damage_rolled(state: DndState, roll: HeldHit, outcome: str, dice: DiceSource) -> e.Attacked:
    """The ``attacked`` event of an attack roll already made (``roll``) with ``outcome``: on a
    hit its damage dice (doubled on a critical), the marked creature's and the rider save's."""
    attacker = state.fighters[roll.attacker]
    target = state.fighters[roll.target]
    weapon = attacker.weapon(roll.attack)
    assert weapon is not None
    parts: list[tuple[int, ...]] = []
    rider: tuple[int, ...] = ()
    rider_boost: tuple[int, ...] = ()
    rider_dice: list[tuple[int, ...]] = []
    marked: tuple[int, ...] = ()
    if outcome != "miss":
        times = 2 if outcome == "critical" else 1
        for part in weapon.damage:
            parts.append(tuple(dice.roll(part.sides) for _ in range(part.count * times)))
        mark = marked_dice(state, attacker.id, target.id) if weapon.damage else None
        if mark is not None:
            marked = tuple(dice.roll(mark.sides) for _ in range(mark.count * times))
        if weapon.rider is not None:
            for part in weapon.rider.damage:
                rider_dice.append(tuple(dice.roll(part.sides) for _ in range(part.count * times)))
            rider_save = roll_save(state, target, weapon.rider.ability, dice, since=3)
            rider, rider_boost = rider_save.d20, rider_save.effect_dice
    return e.Attacked(
        **roll.model_dump(),
        rider=rider,
        rider_effect_dice=rider_boost,
        rider_dice=tuple(rider_dice),
        dice=tuple(parts),
        mark_dice=marked,
    )


# ---------------------------------------------------------------- auras (Spirit Guardians)


def aura_strike(state: DndState, caster: str, creature: str, dice: DiceSource) -> e.AuraStruck:
    """``caster``'s aura strikes ``creature``: its save (the mode and effect dice of every
    save), then the damage dice (halved on a save)."""
    aura = state.auras[caster]
    info = aura_info(aura.spell)
    assert info is not None
    rolled = roll_save(state, state.fighters[creature], str(info["save"]), dice)
    count, sides = aura_dice(aura.spell, spell_info(aura.spell).level, aura.slot)
    return e.AuraStruck(
        caster=caster,
        creature=creature,
        mode=rolled.mode.value,
        d20=rolled.d20,
        effect_dice=rolled.effect_dice,
        dice=tuple(dice.roll(sides) for _ in range(count)),
    )


def _recharges(state: DndState, events: list[e.Event], dice: DiceSource) -> list[e.Event]:
    """A d6 for each spent action with a recharge of the monster whose turn ``events`` start:
    the action is back on its recharge number or more (Recharge 5–6: a 5 or a 6)."""
    if not events or not isinstance(events[-1], e.TurnEnded):
        return []
    after = fold(state, events)
    who = after.encounter.current if after.encounter is not None else None
    if who is None or not after.recharging.get(who):
        return []
    out: list[e.Event] = []
    for name in after.recharging[who]:
        line = monster_action(after.fighters[who].monster or "", name)
        need = line.recharge if isinstance(line, SaveLine) and line.recharge else 6
        roll = dice.roll(6)
        out.append(e.Recharged(creature=who, action=name, roll=roll, ready=roll >= need))
    return out


def monster_action_plan(state: DndState, command: c.MonsterAction) -> tuple[Fighter, SaveLine]:
    """The monster and its save action taken in its own turn, or the refusal: not its turn
    (as any action), no such save action in its stat block (``dnd5e.monster_action.unknown``)
    or one still recharging (``dnd5e.monster_action.recharging``)."""
    fighter = _require_turn(state, command.creature)
    require_able(state, fighter)
    line = monster_action(fighter.monster or "", command.action)
    if not isinstance(line, SaveLine):
        raise RuleError("dnd5e.monster_action.unknown", creature=fighter.id, action=command.action)
    if line.name in state.recharging.get(fighter.id, ()):
        raise RuleError(
            "dnd5e.monster_action.recharging",
            creature=fighter.id,
            action=line.name,
            recharge=line.recharge,
        )
    return fighter, line


def _monster_action(state: DndState, command: c.MonsterAction, dice: DiceSource) -> list[e.Event]:
    fighter, line = monster_action_plan(state, command)
    used = e.MonsterActionUsed(creature=fighter.id, action=line.name, recharge=line.recharge)
    after = fold(state, [used])  # the action is paid for (refused without one left)
    return [used, save_action_event(after, fighter, line.name, command.targets, dice)]


def _turn_start_strikes(state: DndState, events: list[e.Event], dice: DiceSource) -> list[e.Event]:
    """The auras that strike the creature whose turn ``events`` start (it starts its turn in
    their area), one after the other while it stands."""
    if not events or not isinstance(events[-1], e.TurnEnded | e.CombatStarted):
        return []
    after = fold(state, events)
    who = after.encounter.current if after.encounter is not None else None
    out: list[e.Event] = []
    for caster in strikes_due(after, who) if who is not None else ():
        assert who is not None
        if after.fighters[who].hp == 0:
            break
        strike = aura_strike(after, caster, who, dice)
        out.append(strike)
        after = fold(after, [strike])
    return out


# ---------------------------------------------------------------- Shield against a hit


class _NoDice:
    """A dice source for a cast that rolls nothing (Shield): any roll is a mistake."""

    def roll(self, sides: int) -> int:
        raise AssertionError(f"Shield rolls no d{sides}")


def shield_slot(state: DndState, creature: str) -> int | None:
    """The slot a hit creature would cast Shield with against the hit (the lowest it has left;
    an innate Shield: 1), or ``None`` when it cannot: a table before rules edition 4, a creature
    already shielded, without Shield on its list, a slot, its reaction, or unable to act."""
    fighter = state.fighters[creature]
    found = fighter.casting()
    if state.options.edition < 4 or found is None or "shielded" in kinds_on(state, creature):
        return None
    if "shield" in found.innate:
        slot = 1
    else:
        left = casting.slots_left(state, fighter)
        slot = next((level for level, n in enumerate(left, 1) if n > 0), 0)
    try:
        _shield_cast(state, creature, slot)
    except RuleError:
        return None
    return slot


def _shield_cast(state: DndState, creature: str, slot: int) -> e.SpellCast:
    """Shield cast by ``creature`` against the hit that waits for it, checked by folding it
    (the wait itself does not stand in the way of this one reaction)."""
    free = state.model_copy(update={"pending": None, "held_hit": None, "held_spell": None})
    command = c.Cast(creature=creature, spell="shield", slot=slot)
    cast = _cast(free, command, _NoDice())
    fold(free, [cast])
    return cast


def shielded_outcome(state: DndState) -> str:
    """What the hit that waits comes to if its target casts Shield: ``miss``, ``hit`` or
    ``critical`` (certain: the d20 is rolled); :class:`RuleError` when the target cannot
    cast it. Only while a hit waits."""
    held = state.held_hit
    assert held is not None
    slot = shield_slot(state, held.target)
    if slot is None:
        raise RuleError("dnd5e.spell.shield_unavailable", creature=held.target)
    return _held_outcome(fold(state, [_shield_cast(state, held.target, slot)]), held)


def _held_outcome(state: DndState, held: HeldHit) -> str:
    """The outcome of the roll that waits, against the target's AC in ``state``."""
    attacker = state.fighters[held.attacker]
    weapon = attacker.weapon(held.attack)
    assert weapon is not None
    natural = kept_d20(held.d20, Mode(held.mode))
    boost = dice_total(roll_extra(state, attacker.id, "attack"), held.effect_dice)
    target = state.fighters[held.target]
    return outcome_of(state, attacker, target, weapon, natural, held.modifier + boost, held.cover)


def _answer_hit(state: DndState, command: c.Shield, dice: DiceSource) -> list[e.Event]:
    """The hit target's decision: Shield cast (its slot and reaction spent, +5 AC) or not,
    then the attack as the new AC makes it, with its damage dice; an opportunity attack's move
    goes on."""
    if state.held_spell is not None and state.held_spell.target == command.creature:
        return _answer_spell(state, command, dice)
    held = state.held_hit
    if held is None or held.target != command.creature:
        raise RuleError("dnd5e.no_hit_pending", creature=command.creature)
    out: list[e.Event] = []
    if command.cast:
        slot = command.slot if command.slot is not None else shield_slot(state, held.target)
        if slot is None:
            raise RuleError("dnd5e.spell.shield_unavailable", creature=held.target)
        out.append(_shield_cast(state, held.target, slot))
    after = fold(state, out)
    out.append(_damage_rolled(after, held, _held_outcome(after, held), dice))
    if held.opportunity and state.pending is not None:
        out += _move_on(state, state.pending, out, dice)
    return out


def _effect_dice(
    state: DndState, creature: str, roll: str, dice: DiceSource
) -> tuple[int, tuple[int, ...]]:
    """Roll the dice of the lasting spell effects on a creature's ``attack`` roll or ``save``
    (Bless's d4, Bane's): what they add, and the dice as rolled."""
    signed = roll_extra(state, creature, roll)
    rolled = tuple(dice.roll(abs(sides)) for sides in signed)
    return dice_total(signed, rolled), rolled


# ---------------------------------------------------------------- movement


def _move(state: DndState, command: c.Move, dice: DiceSource) -> list[e.Event]:
    fighter = _require_turn(state, command.creature)
    out: list[e.Event] = []
    if command.drop_prone:
        out.append(e.ConditionSet(target=fighter.id, condition="prone"))
        if "prone" in kinds_on(state, fighter.id):
            raise RuleError("dnd5e.already_prone", creature=fighter.id)
    if not command.steps and not command.stand_up:
        return out
    after = fold(state, out)
    if command.drag is not None:
        _require_drag(after, fighter, command.drag)
    return out + _move_events(
        after,
        after.fighters[fighter.id],
        command.steps,
        command.stand_up,
        dice=dice,
        drag=command.drag,
    )


def _holds(state: DndState, grappler: str, held: str) -> bool:
    """Whether ``grappler`` grapples ``held`` (and both are on the map)."""
    return any(
        x.kind == "grappled" and x.source == grappler for x in state.effects.on(held)
    ) and all(f in state.fighters and state.fighters[f].position for f in (grappler, held))


def _require_drag(state: DndState, fighter: Fighter, held: str) -> None:
    """Refuse dragging a creature the mover does not grapple (the same answer for a creature
    nobody made)."""
    if not _holds(state, fighter.id, held):
        raise RuleError("dnd5e.move.drag_not_grappled", creature=fighter.id, target=held)


def _drag_body(state: DndState, held: str | None) -> Body | None:
    return None if held is None else body_of(state, state.fighters[held])


def _move_events(
    state: DndState,
    fighter: Fighter,
    steps: tuple[MoveStep, ...],
    stand_up: bool,
    offered: tuple[str, ...] = (),
    partial: bool = False,
    *,
    dice: DiceSource,
    drag: str | None = None,
) -> list[e.Event]:
    if fighter.position is None:
        raise RuleError("dnd5e.not_placed", creature=fighter.id)
    before = state.movement.get(fighter.id, TurnMovement())
    disengaged = "disengaged" in kinds_on(state, fighter.id)
    body = body_of(state, fighter)
    others = others_of(state, fighter)
    held = _drag_body(state, drag)
    slowed = slowed_squares(state, fighter)

    def checked(steps: tuple[MoveStep, ...], midway: bool = False) -> MoveResult:
        return check_move(
            state.grid,
            body,
            others,
            steps,
            before=before,
            stand_up=stand_up,
            disengage=disengaged or midway,
            midway=midway,
            drag=held,
            ground=state.ground,
            slowed=slowed,
            in_space=state.options.edition >= 4,
            in_place=state.options.edition >= 5,
        )

    result = checked(steps)
    if result.error is not None and not partial:
        raise result.error
    scared = frightened_step(state, fighter, result.path)
    if scared is not None:
        raise RuleError("dnd5e.condition.frightened", creature=fighter.id, step=scared)
    can_react = [
        (who, step)
        for who, step in result.opportunity_attacks
        if who not in offered and may_react(state, who)
    ]
    first_reaction = min((step for _, step in can_react), default=len(steps))
    entry = entering(state, fighter, result.path)
    first_stop = first_reaction if entry is None else min(first_reaction, entry[0] + 1)
    rolls, keep = jump_rolls(
        state, fighter, [x for x in result.checks if x.step < first_stop], dice
    )
    if keep is not None:  # a failed jump check stops the move (see ``jump_rolls``)
        steps = steps[:keep]
        result = checked(steps)
        can_react = [
            (who, step)
            for who, step in result.opportunity_attacks
            if who not in offered and may_react(state, who)
        ]
        entry = entering(state, fighter, result.path)
    first_reaction = min((step for _, step in can_react), default=len(steps))
    if entry is not None and entry[0] < first_reaction:
        # the move stops where it enters an aura: its save and damage, then the rest
        made = steps[: entry[0] + 1]
        prefix = checked(made, midway=True)
        moved = _moved(fighter, prefix.path, prefix.movement, prefix.stood_up, made, prefix.checks)
        done = {"rolls": rolls, "drag": _dragged(drag, prefix), "altitude_m": prefix.altitude_m}
        head: list[e.Event] = [moved.model_copy(update=done)]
        after = fold(state, head)
        strike = aura_strike(after, entry[1], fighter.id, dice)
        after = fold(after, [strike])
        now = after.fighters[fighter.id]
        rest = steps[entry[0] + 1 :]
        if not rest or now.dead or now.hp == 0:
            return [*head, strike]
        try:
            more = _move_events(
                after, now, rest, False, offered, partial=True, dice=dice, drag=drag
            )
        except RuleError:
            more = []
        return [*head, strike, *more]
    if not can_react:
        moved = _moved(fighter, result.path, result.movement, result.stood_up, steps, result.checks)
        done = {"rolls": rolls, "drag": _dragged(drag, result), "altitude_m": result.altitude_m}
        return [moved.model_copy(update=done)]
    first = can_react[0][1]
    reactors = tuple(who for who, step in can_react if step == first)
    prefix = checked(steps[:first], midway=True)
    pending = PendingMove(
        mover=fighter.id,
        reactors=reactors,
        steps=tuple(steps[first:]),
        offered=(*offered, *reactors),
        drag=drag,
    )
    moved = _moved(
        fighter, prefix.path, prefix.movement, prefix.stood_up, steps[:first], prefix.checks
    )
    update: dict[str, object] = {
        "pending": pending,
        "rolls": rolls,
        "drag": _dragged(drag, prefix),
        "altitude_m": prefix.altitude_m,
    }
    return [moved.model_copy(update=update)]


def _dragged(drag: str | None, result: MoveResult) -> e.Dragged | None:
    """The dragged creature's part of a checked move."""
    if drag is None:
        return None
    return e.Dragged(creature=drag, path=tuple(square_name(s) for s in result.drag_path))


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
    _require_no_hold(state)
    reactor = fighter_of(state, command.creature)
    first: e.Event
    if command.attack is None:
        first = e.Declined(creature=reactor.id)
    else:
        mover = pending.mover
        first = _attack_event(
            state, reactor, mover, command.attack, (False, False), dice, opportunity=True
        )
    return [first, *_move_on(state, pending, [first], dice)]


def _move_on(
    state: DndState, pending: PendingMove, answer: list[e.Event], dice: DiceSource
) -> list[e.Event]:
    """After a reactor's ``answer`` to the pending move: the rest of the move, as far as it is
    still legal, once no reactor is left and no hit waits (a mover at 0 HP, dead or knocked
    prone stops)."""
    after = fold(state, answer)
    if after.pending is not None or after.held_hit is not None or not pending.steps:
        return []
    mover_now = after.fighters[pending.mover]
    newly_prone = "prone" in kinds_on(after, mover_now.id) - kinds_on(state, mover_now.id)
    if mover_now.dead or mover_now.hp == 0 or newly_prone:
        return []
    drag = pending.drag if pending.drag and _holds(after, mover_now.id, pending.drag) else None
    try:
        return _move_events(
            after,
            mover_now,
            pending.steps,
            False,
            pending.offered,
            partial=True,
            dice=dice,
            drag=drag,
        )
    except RuleError:
        return []


def preview_move(state: DndState, command: c.Move) -> dict[str, object]:
    """What ``command`` would do, without doing it: the route check of :func:`check_move`.

    The same rules as deciding the move: ``legal``, ``cost_m`` (standing up included),
    ``remaining_m`` of the speed in use, ``path`` (square names of the legal prefix, the start
    first), ``drag_path`` (the dragged creature's squares, only for a move that drags one),
    ``opportunity_attacks`` (the reactors who may take one, in route order), ``aura`` (the
    save and damage of the first aura the route enters, only for a route that enters one:
    :func:`.aura_odds.aura_entry_odds`) and ``error`` (the code, its params and the step, or
    ``None``). A command that cannot move at all (not this creature's turn, a reaction
    pending) raises its :class:`RuleError`.
    """
    fighter = _require_turn(state, command.creature)
    if fighter.position is None:
        raise RuleError("dnd5e.not_placed", creature=fighter.id)
    if command.drop_prone:
        if "prone" in kinds_on(state, fighter.id):
            raise RuleError("dnd5e.already_prone", creature=fighter.id)
        state = evolve(state, e.ConditionSet(target=fighter.id, condition="prone"))
        fighter = state.fighters[fighter.id]
    if command.drag is not None:
        _require_drag(state, fighter, command.drag)
    result = check_move(
        state.grid,
        body_of(state, fighter),
        others_of(state, fighter),
        command.steps,
        before=state.movement.get(fighter.id, TurnMovement()),
        stand_up=command.stand_up,
        disengage="disengaged" in kinds_on(state, fighter.id),
        drag=_drag_body(state, command.drag),
        ground=state.ground,
        slowed=slowed_squares(state, fighter),
        in_space=state.options.edition >= 4,
        in_place=state.options.edition >= 5,
    )
    error, error_step = result.error, result.error_step
    scared = frightened_step(state, fighter, result.path)
    if scared is not None and (error is None or scared < (error_step or 0)):
        error = RuleError("dnd5e.condition.frightened", creature=fighter.id, step=scared)
        error_step = scared
    dragged = {"drag_path": [square_name(sq) for sq in result.drag_path]} if command.drag else {}
    entered = aura_entry_odds(state, fighter, tuple(result.path))
    return {
        "legal": error is None,
        "cost_m": str(result.cost_m),
        "remaining_m": str(result.remaining_m),
        "path": [square_name(sq) for sq in result.path],
        **dragged,
        "stood_up": result.stood_up,
        "checks": [
            {**check.model_dump(mode="json"), "p": _exact(jump_check_odds(state, fighter, check))}
            for check in result.checks
        ],
        "opportunity_attacks": [
            who for who, _ in result.opportunity_attacks if may_react(state, who)
        ],
        **({"aura": entered} if entered else {}),
        "error": None
        if error is None
        else {
            "code": error.code,
            "params": named_params(state, error.code, dict(error.params)),
            "step": error_step,
        },
    }


# ---------------------------------------------------------------- other actions


def _take_action(state: DndState, command: c.TakeAction, dice: DiceSource) -> list[e.Event]:
    fighter = _require_turn(state, command.creature)
    require_able(state, fighter)
    if command.action == "help":
        if command.target is None:
            raise RuleError("dnd5e.help_needs_target")
        fighter_of(state, command.target)
        if command.task is not None and command.help != "check":
            raise RuleError("dnd5e.help_task_check_only", value=command.task)
        if command.task is not None and command.task not in (*SKILLS, *ABILITIES):
            raise RuleError("dnd5e.help_bad_task", value=command.task)
        if command.help == "attack":
            foe = fighter_of(state, command.foe or "")
            if square_distance(state, fighter, foe) > CLOSE_M:
                raise RuleError("dnd5e.help_too_far", target=foe.id)
    helped_foe = command.foe if command.action == "help" and command.help == "attack" else None
    task = command.task if command.action == "help" else None
    check: CheckRoll | None = None
    found: tuple[str, ...] = ()
    if command.action == "hide":
        check = _hide_check(state, fighter, dice)
    elif command.action == "search":
        check, found = _search(state, fighter, dice)
    # From rules edition 7 the check of Hide or Search uses up the Help that gave it advantage.
    helped = (
        check is not None
        and state.options.edition >= 7
        and helped_on(state, fighter.id, check.ability, check.skill)
    )
    return [
        e.ActionTaken(
            creature=fighter.id,
            action=command.action,
            target=command.target,
            foe=helped_foe,
            help=command.help,
            task=task,
            check=check,
            found=found,
            helped=helped,
        )
    ]


def roll_check(
    state: DndState,
    fighter: Fighter,
    ability: str,
    skill: str | None,
    dc: int | None,
    dice: DiceSource,
    *,
    bonus: int | None = None,
    extra: tuple[bool, bool] = (False, False),
    modifier: int = 0,
) -> CheckRoll:
    """Roll an ability check: d20 (two with advantage or disadvantage, :func:`check_mode`) +
    the skill's bonus (or the ability's modifier, or ``bonus``) + ``modifier``."""
    if bonus is None:
        bonus = fighter.skill_bonus(skill, ability) if skill else fighter.modifier(ability)
    bonus += modifier
    mode = check_mode(state, fighter, extra, ability=ability, skill=skill)
    rolled = _roll_d20(dice, mode)
    total = kept_d20(rolled, mode) + bonus
    return CheckRoll(
        ability=ability,
        skill=skill,
        bonus=bonus,
        mode=mode.value,
        d20=rolled,
        total=total,
        dc=dc,
        succeeded=dc is not None and total >= dc,
    )


def hide_dc(state: DndState, fighter: Fighter) -> int:
    """What a Stealth check to hide must reach: the highest passive Perception of the hostile
    creatures on the map that are conscious (10 when there is none)."""
    watchers = [
        f.passive()
        for f in state.fighters.values()
        if f.side != fighter.side
        and f.position is not None
        and not f.dead
        and f.hp > 0
        and "incapacitated" not in condition_tags(kinds_on(state, f.id))
    ]
    return max(watchers, default=10)


def _hide_check(state: DndState, fighter: Fighter, dice: DiceSource) -> CheckRoll:
    return roll_check(state, fighter, "dex", "stealth", hide_dc(state, fighter), dice)


def _search(
    state: DndState, fighter: Fighter, dice: DiceSource
) -> tuple[CheckRoll, tuple[str, ...]]:
    """Search: a Wisdom (Perception) check that finds each hidden hostile creature whose
    Stealth total it reaches (one the GM hid, without a total, is found by any Search)."""
    check = roll_check(state, fighter, "wis", "perception", None, dice)
    found = tuple(
        f.id
        for f in state.fighters.values()
        if f.side != fighter.side
        and "hidden" in kinds_on(state, f.id)
        and check.total >= state.stealth.get(f.id, 0)
    )
    return check, found


ContestAction = Literal["grapple", "shove_prone", "shove_push", "escape"]


@dataclass(frozen=True)
class ContestPlan:
    """Who contests what with which skill (checked against the rules, nothing rolled)."""

    action: ContestAction
    active: Fighter
    active_skill: str
    passive: Fighter
    passive_skill: str
    push_to: str | None = None


def _better(fighter: Fighter, skills: tuple[str, ...]) -> str:
    """The skill with the higher bonus (the first on a tie)."""
    return max(skills, key=lambda s: (fighter.skill_bonus(s, SKILLS[s]), -skills.index(s)))


def contest_plan(state: DndState, command: c.Grapple | c.Shove | c.Escape) -> ContestPlan:
    """The contest a grapple, shove or escape makes; :class:`RuleError` when it cannot."""
    fighter = _require_turn(state, command.creature)
    require_able(state, fighter)
    either = ("athletics", "acrobatics")
    if isinstance(command, c.Escape):
        hold = next((x for x in state.effects.on(fighter.id) if x.kind == "grappled"), None)
        if hold is None or hold.source is None or hold.source not in state.fighters:
            raise RuleError("dnd5e.not_grappled", creature=fighter.id)
        grappler = state.fighters[hold.source]
        return ContestPlan("escape", fighter, _better(fighter, either), grappler, "athletics")
    target = fighter_of(state, command.target)
    if target.id == fighter.id or target.dead:
        raise RuleError("dnd5e.bad_target", target=target.id)
    if SIZE_ORDER.index(target.size) - SIZE_ORDER.index(fighter.size) > 1:
        raise RuleError("dnd5e.too_large", target=target.id)
    reach = body_of(state, fighter).reach_m
    if square_distance(state, fighter, target) > reach:
        raise RuleError("dnd5e.out_of_reach", target=target.id, attack=command.kind)
    action: ContestAction = "grapple"
    push_to = None
    if isinstance(command, c.Shove):
        action = "shove_prone" if command.effect == "prone" else "shove_push"
        if command.effect == "push":
            push_to = _push_square(state, fighter, target)
    elif any(x.kind == "grappled" and x.source == fighter.id for x in state.effects.on(target.id)):
        raise RuleError("dnd5e.already_grappled", target=target.id)
    return ContestPlan(
        action, fighter, "athletics", target, _better(target, either), push_to=push_to
    )


def _push_square(state: DndState, shover: Fighter, target: Fighter) -> str:
    """The square 1.5 m straight away from the shover; refused when it is off the map, a
    wall or taken."""
    assert shover.position is not None and target.position is not None
    dx = (target.position.x > shover.position.x) - (target.position.x < shover.position.x)
    dy = (target.position.y > shover.position.y) - (target.position.y < shover.position.y)
    x, y = target.position.x + dx, target.position.y + dy
    side = target.size.squares
    if not (x >= 0 and y >= 0 and x + side <= state.grid.width and y + side <= state.grid.height):
        raise RuleError("dnd5e.shove_blocked", target=target.id)
    to = Square(x=x, y=y)
    mine = set(footprint(to, target.size))
    walls = any("wall" in state.grid.terrain_at(sq) for sq in mine)
    taken = any(mine & set(footprint(o.position, o.size)) for o in others_of(state, target))
    if walls or taken:
        raise RuleError("dnd5e.shove_blocked", target=target.id)
    if ground_under(state.ground, to, target.size) > ground_under(
        state.ground, target.position, target.size
    ):  # into the face of a ledge
        raise RuleError("dnd5e.shove_blocked", target=target.id)
    return square_name(to)


def _pushed_off(state: DndState, contested: e.Contested, dice: DiceSource) -> list[e.Event]:
    """A push off a ledge: the creature falls the height between the two grounds."""
    target = state.fighters[contested.target]
    if contested.push_to is None or target.position is None:
        return []
    drop = ground_under(state.ground, target.position, target.size) - ground_under(
        state.ground, parse_square(contested.push_to), target.size
    )
    if drop <= 0:
        return []
    rolled = tuple(dice.roll(6) for _ in range(fall_dice(drop)))
    return [e.Fell(creature=target.id, height_m=str(drop), dice=rolled)]


def _contest(
    state: DndState, command: c.Grapple | c.Shove | c.Escape, dice: DiceSource
) -> e.Contested:
    plan = contest_plan(state, command)
    active = roll_check(
        state, plan.active, SKILLS[plan.active_skill], plan.active_skill, None, dice
    )
    passive = roll_check(
        state, plan.passive, SKILLS[plan.passive_skill], plan.passive_skill, None, dice
    )
    won = active.total > passive.total
    # From rules edition 7 each side's check uses up the Help that gave it advantage.
    uses_help = state.options.edition >= 7
    return e.Contested(
        creature=plan.active.id,
        target=plan.passive.id,
        action=plan.action,
        active=active,
        passive=passive,
        won=won,
        push_to=plan.push_to if won else None,
        active_helped=uses_help and helped_on(state, plan.active.id, active.ability, active.skill),
        passive_helped=uses_help
        and helped_on(state, plan.passive.id, passive.ability, passive.skill),
    )


def _check(state: DndState, command: c.Check, dice: DiceSource) -> e.CheckRolled:
    fighter = fighter_of(state, command.creature)
    if fighter.dead:
        raise RuleError("dnd5e.dead", creature=fighter.id)
    ability = command.ability or (SKILLS[command.skill] if command.skill else None)
    if ability is None:
        raise RuleError("dnd5e.check_needs_skill_or_ability")
    roll = roll_check(
        state,
        fighter,
        ability,
        command.skill,
        command.dc,
        dice,
        bonus=command.bonus,
        extra=(command.advantage, command.disadvantage),
        modifier=command.modifier,
    )
    helped = helped_on(state, fighter.id, ability, command.skill)
    return e.CheckRolled(creature=fighter.id, roll=roll, helped=helped)


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
    _require_no_hold(state)
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
    extra = (command.advantage, command.disadvantage)
    rolled = roll_save(state, fighter, command.ability, dice, extra)
    bonus = save_bonus(fighter, command)
    return e.SaveRolled(
        creature=fighter.id,
        ability=command.ability,
        dc=command.dc,
        bonus=bonus,
        mode=rolled.mode.value,
        d20=rolled.d20,
        succeeded=rolled.made(bonus, command.dc),
        effect_dice=rolled.effect_dice,
    )


def save_bonus(fighter: Fighter, command: c.Save) -> int:
    """The bonus of a save: the one given, else the ability's modifier; plus the GM's
    situational modifier."""
    base = command.bonus if command.bonus is not None else fighter.modifier(command.ability)
    return base + command.modifier


# ---------------------------------------------------------------- spells and concentration


def _cast(state: DndState, command: c.Cast, dice: DiceSource) -> e.SpellCast:
    """A spell cast: the caster's attack roll against each target, or each target's save,
    then the damage or healing dice where they count (see :mod:`.casting`); a volley rolls
    once per missile, its missiles in the order of their targets."""
    plan = casting.cast_plan(state, command)
    info, caster = plan.info, plan.caster
    rolls: list[e.SpellTarget] = []
    held: list[str] = []
    for target, shots in zip(plan.targets, plan.shots, strict=True):
        waits = _may_shield_against(state, caster, target, info)
        for _ in range(shots):
            roll, damaging = _spell_roll(state, plan, target, dice, hold=waits)
            rolls.append(roll)
            if waits and damaging and target.id not in held:
                held.append(target.id)
    aura = aura_info(info.id) if state.options.edition >= 4 else None
    if aura is None and (command.damage_type is not None or command.spared is not None):
        raise RuleError("dnd5e.spell.no_aura", spell=info.name)
    for spared in command.spared or ():
        fighter_of(state, spared)
    return e.SpellCast(
        creature=caster.id,
        spell=info.id,
        slot=plan.slot,
        casting=plan.unit,
        template=plan.template,
        targets=tuple(rolls),
        damage_type=None if aura is None else command.damage_type or str(aura["types"][0]),
        spared=None if aura is None else command.spared,
        held=tuple(held),
    )


def _may_shield_against(state: DndState, caster: Fighter, target: Fighter, info: Spell) -> bool:
    """Whether the rolls of a spell at ``target`` wait for its decision to cast Shield (rules
    edition 5): an attack spell or one Shield keeps off (Magic Missile), at another creature
    that could cast Shield now."""
    if state.options.edition < 5 or target.id == caster.id:
        return False
    if not info.attack and not no_damage_from(("shielded",), info.id):
        return False
    return shield_slot(state, target.id) is not None


def _spell_roll(
    state: DndState, plan: casting.CastPlan, target: Fighter, dice: DiceSource, hold: bool = False
) -> tuple[e.SpellTarget, bool]:
    """One roll of a cast at ``target`` (one missile of a volley): the attack's or the
    save's d20s, then the damage or healing dice where they count — none when ``hold`` and
    the roll would deal damage (it waits for the target's decision to cast Shield); with
    whether it would."""
    info, caster = plan.info, plan.caster
    damage = casting.damage_dice(info, plan.slot, caster)
    boosted: tuple[int, ...] = ()
    if info.attack:
        weapon = casting.spell_weapon(info, plan.casting)
        mode = attack_mode(state, caster, target, weapon, (False, False))
        d20 = _roll_d20(dice, mode)
        boost, boosted = _effect_dice(state, caster.id, "attack", dice)
        outcome = casting.attack_outcome_of(state, caster, target, info, d20, mode.value, boost)
        times = {"miss": 0, "hit": 1, "critical": 2}[outcome]
    elif info.save_ability:
        rolled_save = roll_save(state, target, info.save_ability, dice)
        mode, d20, boosted = rolled_save.mode, rolled_save.d20, rolled_save.effect_dice
        saved = casting.saved_of(
            target, info, plan.casting.save_dc, d20, mode.value, rolled_save.boost
        )
        times = 0 if saved and info.save_success != "half" else 1
    else:
        mode, d20, times = Mode.NORMAL, (), 1
        damage = damage or casting.heal_dice(info, plan.slot, caster)
    if casting.shielded_from(state, target, info):
        times = 0
    damaging = times > 0
    rolled = () if hold and damaging else _damage_roll(damage, times, dice)
    roll = e.SpellTarget(
        target=target.id, mode=mode.value, d20=d20, dice=rolled, effect_dice=boosted
    )
    return roll, damaging


def _damage_roll(damage: list[DamageDice], times: int, dice: DiceSource) -> tuple[int, ...]:
    return tuple(dice.roll(sides) for sides in casting.dice_count(damage, times))


def _answer_spell(state: DndState, command: c.Shield, dice: DiceSource) -> list[e.Event]:
    """The decision of the creature a spell's rolls wait for: Shield cast (its slot and
    reaction spent, +5 AC, no damage from Magic Missile) or not, then those rolls judged
    again with their damage dice."""
    held = state.held_spell
    assert held is not None
    out: list[e.Event] = []
    if command.cast:
        slot = command.slot if command.slot is not None else shield_slot(state, held.target)
        if slot is None:
            raise RuleError("dnd5e.spell.shield_unavailable", creature=held.target)
        out.append(_shield_cast(state, held.target, slot))
    after = fold(state, out)
    caster, info = after.fighters[held.caster], casting.cast_info(after, held.spell)
    damage = casting.damage_dice(info, held.slot, caster)
    rolls = []
    for roll in held.of(held.target):
        target = after.fighters[roll.target]
        times = 1
        if info.attack:
            boost = dice_total(roll_extra(after, caster.id, "attack"), roll.effect_dice)
            outcome = casting.attack_outcome_of(
                after, caster, target, info, roll.d20, roll.mode, boost
            )
            times = {"miss": 0, "hit": 1, "critical": 2}[outcome]
        if casting.shielded_from(after, target, info):
            times = 0
        rolled = _damage_roll(damage, times, dice)
        rolls.append(e.SpellTarget(**roll.model_dump(), dice=rolled))
    landed = e.SpellLanded(creature=caster.id, spell=info.id, slot=held.slot, targets=tuple(rolls))
    return [*out, landed]


def shielded_spell_hits(state: DndState) -> tuple[int, int]:
    """How many of the waiting spell rolls at the creature that decides would still deal
    damage if it cast Shield, of how many (certain: the d20s are rolled). Only while a
    spell waits."""
    held = state.held_spell
    assert held is not None
    slot = shield_slot(state, held.target)
    if slot is None:
        raise RuleError("dnd5e.spell.shield_unavailable", creature=held.target)
    after = fold(state, [_shield_cast(state, held.target, slot)])
    caster, info = after.fighters[held.caster], casting.cast_info(after, held.spell)
    target = after.fighters[held.target]
    rolls = held.of(held.target)
    if casting.shielded_from(after, target, info) or not info.attack:
        return 0, len(rolls)
    hits = 0
    for roll in rolls:
        boost = dice_total(roll_extra(after, caster.id, "attack"), roll.effect_dice)
        outcome = casting.attack_outcome_of(after, caster, target, info, roll.d20, roll.mode, boost)
        hits += outcome != "miss"
    return hits, len(rolls)


def _drop_concentration(state: DndState, command: c.DropConcentration) -> e.ConcentrationEnded:
    """Concentration dropped at will (``dnd5e.spell.not_concentrating`` when there is none)."""
    fighter = fighter_of(state, command.creature)
    held = state.concentration.get(fighter.id)
    if held is None:
        raise RuleError("dnd5e.spell.not_concentrating", creature=fighter.id)
    return e.ConcentrationEnded(creature=fighter.id, spell=held.spell, reason="dropped")


def _rest(state: DndState, command: c.Rest) -> e.Rested:
    """A short or long rest of the creatures named (default: every living open one — a
    secret creature rests only when named, so a rest the players see never names it), outside
    a fight (``dnd5e.rest.in_combat``)."""
    if state.encounter is not None:
        raise RuleError("dnd5e.rest.in_combat")
    names = command.creatures or tuple(
        k for k, f in state.fighters.items() if not f.dead and not f.secret
    )
    for name in names:
        if fighter_of(state, name).dead:
            raise RuleError("dnd5e.dead", creature=name)
    return e.Rested(length=command.length, creatures=tuple(dict.fromkeys(names)))


def hit_dice_plan(state: DndState, command: c.SpendHitDice) -> tuple[Fighter, HitDice]:
    """The creature that spends hit dice and its dice, or the refusal: in a fight
    (``dnd5e.rest.in_combat``), dead, without hit dice on its sheet
    (``dnd5e.hit_dice.none``), or more than it has left (``dnd5e.hit_dice.too_many``)."""
    if state.encounter is not None:
        raise RuleError("dnd5e.rest.in_combat")
    fighter = fighter_of(state, command.creature)
    if fighter.dead:
        raise RuleError("dnd5e.dead", creature=fighter.id)
    if fighter.hit_dice is None:
        raise RuleError("dnd5e.hit_dice.none", creature=fighter.id)
    left = fighter.hit_dice.count - fighter.hit_dice_spent
    if command.count > left:
        raise RuleError(
            "dnd5e.hit_dice.too_many", creature=fighter.id, count=command.count, left=left
        )
    return fighter, fighter.hit_dice


def _spend_hit_dice(state: DndState, command: c.SpendHitDice, dice: DiceSource) -> e.HitDiceSpent:
    fighter, hit_dice = hit_dice_plan(state, command)
    rolls = tuple(dice.roll(hit_dice.sides) for _ in range(command.count))
    missing = hp_max(state, fighter) - fighter.hp
    healed = healed_by(rolls, fighter.modifier("con"), missing)
    return e.HitDiceSpent(creature=fighter.id, rolls=rolls, healed=healed)


def with_concentration(state: DndState, events: list[e.Event], dice: DiceSource) -> list[e.Event]:
    """``events`` with what each does to concentration after it: a concentrating creature
    that took damage rolls its Constitution save (DC max(10, half the damage)); one at 0 hit
    points or incapacitated stops concentrating."""
    out: list[e.Event] = []
    for event in events:
        before, state = state, evolve(state, event)
        out.append(event)
        for follow in _concentration_after(before, state, dice):
            state = evolve(state, follow)
            out.append(follow)
    return out


def _concentration_after(before: DndState, after: DndState, dice: DiceSource) -> list[e.Event]:
    out: list[e.Event] = []
    for who, held in after.concentration.items():
        if before.concentration.get(who) != held:
            continue  # a concentration that began with this event
        was, now = before.fighters[who], after.fighters[who]
        if now.dead or now.hp == 0:
            out.append(e.ConcentrationEnded(creature=who, spell=held.spell, reason="down"))
            continue
        if "incapacitated" in condition_tags(kinds_on(after, who)):
            out.append(e.ConcentrationEnded(creature=who, spell=held.spell, reason="incapacitated"))
            continue
        lost = (was.hp + was.temp_hp) - (now.hp + now.temp_hp)
        if lost <= 0:
            continue
        rolled = roll_save(after, now, "con", dice)
        bonus = casting.save_bonus_of(now, "con")
        out.append(
            e.ConcentrationSaved(
                creature=who,
                spell=held.spell,
                damage=lost,
                dc=concentration_dc(lost),
                bonus=bonus,
                mode=rolled.mode.value,
                d20=rolled.d20,
                kept=bool(rolled.d20) and keeps_concentration(rolled.total(bonus), lost),
                effect_dice=rolled.effect_dice,
            )
        )
    return out


# ---------------------------------------------------------------- condition durations


def _condition(state: DndState, command: c.Condition) -> e.ConditionSet:
    """A condition put on (with its source and duration, checked) or taken off."""
    fighter_of(state, command.target)
    if command.condition not in GM_CONDITIONS:
        raise RuleError("dnd5e.unknown_condition", condition=command.condition)
    duration = command.duration
    if duration is not None:
        missing = duration.missing()
        if missing is not None:
            raise RuleError(
                "dnd5e.condition.duration_incomplete", until=duration.until, field=missing
            )
        if duration.of is not None:
            fighter_of(state, duration.of)
    if command.source is not None:
        fighter_of(state, command.source)
    return e.ConditionSet(
        target=command.target,
        condition=command.condition,
        remove=command.remove,
        source=command.source,
        duration=duration,
    )


def condition_saves(state: DndState, creature: str, dice: DiceSource) -> list[e.Event]:
    """The saves ``creature`` repeats at the end of its turn, one per condition that a save
    ends (still on it); the mode from its conditions, the bonus its ability modifier."""
    fighter = state.fighters[creature]
    kinds = kinds_on(state, creature)
    out: list[e.Event] = []
    for repeat in state.conditions.saves:
        if repeat.target != creature or repeat.condition not in kinds:
            continue
        rolled = roll_save(state, fighter, repeat.ability, dice, since=3)
        bonus = fighter.modifier(repeat.ability)
        out.append(
            e.ConditionSaved(
                creature=creature,
                condition=repeat.condition,
                ability=repeat.ability,
                dc=repeat.dc,
                bonus=bonus,
                mode=rolled.mode.value,
                d20=rolled.d20,
                succeeded=rolled.made(bonus, repeat.dc),
                effect_dice=rolled.effect_dice,
            )
        )
    return out


def charm_refusal(state: DndState, attacker: Fighter, target: Fighter) -> None:
    """A charmed creature cannot attack its charmer (``dnd5e.condition.charmed``)."""
    if any(x.kind == "charmed" and x.source == target.id for x in state.effects.on(attacker.id)):
        raise RuleError("dnd5e.condition.charmed", creature=attacker.id, target=target.id)


def frightened_step(state: DndState, fighter: Fighter, path: tuple[Square, ...]) -> int | None:
    """The first step (index) of ``path`` that brings a frightened creature closer to the
    source of its fear (on the map); None when none does. The table takes the source as
    always in sight (it does not track sight lines)."""
    sources = [
        state.fighters[x.source]
        for x in state.effects.on(fighter.id)
        if x.kind == "frightened" and x.source in state.fighters
    ]
    for source in sources:
        if source.position is None or source.dead:
            continue
        far = [distance(state.grid, sq, fighter.size, source.position, source.size) for sq in path]
        for i in range(1, len(far)):
            if far[i] < far[i - 1]:
                return i - 1
    return None


# ---------------------------------------------------------------- jumps rolled


def jump_rolls(
    state: DndState, fighter: Fighter, checks: list[JumpCheck], dice: DiceSource
) -> tuple[tuple[CheckRoll, ...], int | None]:
    """Roll a move's DC 10 jump checks in route order until one fails: the rolls, and how
    many steps the move keeps (None: all succeeded). A failed Strength (Athletics) check over
    a low obstacle stops the jumper before the step that clears it; a failed Dexterity
    (Acrobatics) check lands it in the difficult terrain and stops it there. Either way it
    ends prone (:func:`.evolve._moved`)."""
    rolls: list[CheckRoll] = []
    for check in checks:
        roll = roll_check(state, fighter, check.ability, check.skill, check.dc, dice)
        rolls.append(roll)
        if not roll.succeeded:
            keep = check.step if check.reason == "obstacle" else check.step + 1
            return tuple(rolls), keep
    return tuple(rolls), None


def jump_check_odds(state: DndState, fighter: Fighter, check: JumpCheck) -> Fraction:
    """P(success) of a jump check: d20 + the skill's bonus against DC 10, the mode from the
    creature's conditions."""
    bonus = fighter.skill_bonus(check.skill, check.ability)
    mode = check_mode(state, fighter, (False, False), ability=check.ability, skill=check.skill)
    return save_odds(bonus, check.dc, mode)


# ---------------------------------------------------------------- legendary and lair actions


def legendary_offered(state: DndState, ended: str) -> tuple[str, ...]:
    """The monsters that may take a legendary action at the end of ``ended``'s turn: on the
    map (one entered after initiative too), not ``ended``, conscious and able to act, with an
    affordable legendary action."""
    if state.encounter is None:
        return ()
    out = []
    for who, fighter in state.fighters.items():
        if who == ended or fighter.position is None or fighter.hp == 0 or fighter.dead:
            continue
        if "incapacitated" in condition_tags(kinds_on(state, who)):
            continue
        if affordable(fighter.monster, state.legendary.spent.get(who, 0)):
            out.append(who)
    return tuple(out)


def _end_turn(state: DndState, dice: DiceSource) -> list[e.Event]:
    """End the turn; the first time, when a legendary monster could act, the turn's end is
    held open for the GM (``legendary_offered``); ``end_turn`` in that window passes."""
    assert state.encounter is not None and state.encounter.current is not None
    current = state.encounter.current
    if state.legendary.window is not None:
        return [e.TurnEnded()]
    saves = condition_saves(state, current, dice)
    after = fold(state, saves)
    monsters = legendary_offered(after, current)
    if monsters:
        return [*saves, e.LegendaryOffered(creature=current, monsters=monsters)]
    return [*saves, e.TurnEnded()]


def legendary_plan(
    state: DndState, command: c.Legendary
) -> tuple[Fighter, LegendaryAction, DndState]:
    """The monster, its legendary action and the state once paid for; :class:`RuleError`
    when it cannot be taken now."""
    fighter = fighter_of(state, command.creature)
    window = state.legendary.window
    if window is None or fighter.id == window:
        raise RuleError("dnd5e.legendary.not_now", creature=fighter.id)
    _require_no_hold(state)
    require_able(state, fighter)
    found = next(
        (a for a in actions_of(fighter.monster) if a.name.lower() == command.action.lower()),
        None,
    )
    if found is None:
        raise RuleError("dnd5e.legendary.unknown", creature=fighter.id, action=command.action)
    used = e.LegendaryUsed(creature=fighter.id, action=found.name, cost=found.cost)
    return fighter, found, fold(state, [used])


def _legendary(state: DndState, command: c.Legendary, dice: DiceSource) -> list[e.Event]:
    fighter, action, after = legendary_plan(state, command)
    used = e.LegendaryUsed(creature=fighter.id, action=action.name, cost=action.cost)
    if action.attack is not None:
        if command.target is None:
            raise RuleError("dnd5e.legendary.needs_target", creature=fighter.id)
        attack = _attack_event(after, fighter, command.target, action.attack, (False, False), dice)
        return [used, attack.model_copy(update={"legendary": True})]
    if action.save is not None:
        return [used, save_action_event(after, fighter, action.save, command.targets, dice)]
    return [used]


def save_action_event(
    state: DndState, creature: Fighter, name: str, targets: tuple[str, ...], dice: DiceSource
) -> e.SaveActionRolled:
    """A save action of ``creature``'s stat block forced on ``targets``: each target's d20s
    (the mode from its conditions; none when it fails by itself), the damage dice once."""
    line = monster_action(creature.monster or "", name)
    if not isinstance(line, SaveLine):
        raise RuleError("dnd5e.legendary.unknown", creature=creature.id, action=name)
    if not targets:
        raise RuleError("dnd5e.legendary.needs_target", creature=creature.id)
    saves = []
    for who in dict.fromkeys(targets):
        target = fighter_of(state, who)
        if target.id == creature.id or target.dead:
            raise RuleError("dnd5e.bad_target", target=target.id)
        covered = cover_of(state, creature, target)
        if covered == "total":
            raise RuleError("dnd5e.cover.total", target=target.id)
        rolled = roll_save(state, target, line.save.ability, dice, since=3)
        saves.append(
            e.TargetSave(
                target=target.id, d20=rolled.d20, cover=covered, effect_dice=rolled.effect_dice
            )
        )
    damage = tuple(
        tuple(dice.roll(part.sides) for _ in range(part.count)) for part in line.save.damage
    )
    return e.SaveActionRolled(
        creature=creature.id, action=line.name, saves=tuple(saves), dice=damage
    )


def _legendary_resistance(state: DndState, creature: str) -> e.LegendaryResisted:
    fighter = fighter_of(state, creature)
    last = state.last_save
    if last is None or last.get("creature") != fighter.id or last.get("succeeded"):
        raise RuleError("dnd5e.legendary.no_failed_save", creature=fighter.id)
    if state.legendary.resisted.get(fighter.id, 0) >= resistances_per_day(fighter.monster):
        raise RuleError("dnd5e.legendary.no_resistance_left", creature=fighter.id)
    return e.LegendaryResisted(creature=fighter.id)


# ---------------------------------------------------------------- refusals

NAMED_PARAMS = ("creature", "target", "current", "mover", "first", "second")
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


def _exact(p: Fraction) -> dict[str, object]:
    return {"p": float(p), "exact": f"{p.numerator}/{p.denominator}"}
