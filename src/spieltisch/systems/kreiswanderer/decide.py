"""Commands to events: what a command does, with the dice it rolls.

:func:`decide` builds a command's events and applies them to a copy of the state, so the
toolkit's refusals (too few Ap, an unknown track …) stop a command before anything is kept.
"""

from __future__ import annotations

from decimal import Decimal

from spieltisch.dice.fair import DiceSource
from spieltisch.engine.creatures import Creature, Tag, Track
from spieltisch.engine.errors import RuleError
from spieltisch.systems.kreiswanderer import edit, rules, secondary
from spieltisch.systems.kreiswanderer.commands import (
    AccumulateRoll,
    AccumulateStart,
    AdjustTrack,
    AssignDice,
    Attack,
    BeingSheet,
    CarryOut,
    Check,
    CombinedCheck,
    Command,
    Comparative,
    CreateBeing,
    Dodge,
    EditBeing,
    EndCombat,
    EndTurn,
    Extinguish,
    Rest,
    StartCombat,
    SwitchHaltung,
    UseBegabung,
)
from spieltisch.systems.kreiswanderer.events import (
    AccumulationRolled,
    AccumulationStarted,
    ActionBegun,
    ApSpent,
    Attacked,
    BeingCreated,
    BeingEdited,
    CheckRolled,
    CombatEnded,
    CombatStarted,
    ComparativeRolled,
    DiceAssigned,
    Dodged,
    Event,
    Extinguished,
    ExtraDamage,
    HaltungSwitched,
    MagicUsed,
    Rested,
    Side,
    TrackAdjusted,
    TurnEnded,
)
from spieltisch.systems.kreiswanderer.evolve import (
    BURNING,
    being_of,
    evolve,
    fight_of,
    running_fight,
)
from spieltisch.systems.kreiswanderer.sheet import Accumulation, Being, KreisState, Weapon

__all__ = [
    "SYSTEM_ID",
    "AttackPlan",
    "attack_plan",
    "check_value",
    "decide",
    "dodge_choices",
    "dodge_value",
    "events_of",
    "skill_value",
]

SYSTEM_ID = "kreiswanderer"
"""Registry id of the game."""


def decide(state: KreisState, command: Command, dice: DiceSource) -> list[Event]:
    """The events of ``command``; every rule is checked by applying them to a copy."""
    events = events_of(state, command, dice)
    trial = state
    for event in events:
        trial = evolve(trial, event)
    return events


def _modifier(state: KreisState, value: int) -> int:
    limit = state.options.max_modifier
    if not -limit <= value <= limit:
        raise RuleError("kreiswanderer.bad_modifier", value=value, max=limit)
    return value


def skill_value(state: KreisState, being: Being, attribute: str, skill: str) -> int:
    """Attribute × depth + skill value + active Haltungen, for a skill of ``being``.

    A skill the sheet does not list counts as a basic skill (depth 1) at value 0.
    """
    if attribute not in state.options.attributes:
        raise RuleError("kreiswanderer.unknown_attribute", value=attribute)
    found = being.skills.get(skill)
    depth, value = (found.depth, found.value) if found else (1, 0)
    base = rules.talent_value(being.attribute(attribute), depth, value)
    return base + being.haltung_modifier(skill)


def check_value(state: KreisState, command: Check) -> tuple[int, int]:
    """A check's Talentwert and target (without rolling)."""
    being = being_of(state, command.being)
    value = skill_value(state, being, command.attribute, command.skill)
    value += _modifier(state, command.modifier) + _modifier(state, command.tools)
    if command.sonderfertigkeit is not None:
        value += _sonderfertigkeit(being, command.sonderfertigkeit, command.skill)
    target = state.options.default_target if command.target is None else command.target
    return value, target


def _sonderfertigkeit(being: Being, name: str, skill: str) -> int:
    found = being.sonderfertigkeiten.get(name)
    if found is None:
        raise RuleError("kreiswanderer.unknown_sonderfertigkeit", value=name)
    if found.skills and skill not in found.skills:
        raise RuleError("kreiswanderer.sf_skill", value=name, skill=skill)
    return found.bonus


def _roll(state: KreisState, dice: DiceSource) -> tuple[int, ...]:
    return tuple(rules.roll_exploding(dice.roll, state.options.max_explosions))


def _magic(being: Being, act: str, dice: DiceSource) -> MagicUsed:
    if being.creature.track("mp").current >= being.magic_cost:
        return MagicUsed(being=being.id, act=act, cost=being.magic_cost)
    return MagicUsed(being=being.id, act=act, cost=being.magic_cost, overload=(dice.roll(10),))


def _checked(
    state: KreisState, command: Check | CombinedCheck, value: int, target: int, dice: DiceSource
) -> CheckRolled:
    rolls = _roll(state, dice)
    outcome = rules.evaluate(value + sum(rolls), target)
    combined = isinstance(command, CombinedCheck)
    return CheckRolled(
        number=state.checks + 1,
        being=command.being,
        attribute=command.attribute,
        skills=command.skills if isinstance(command, CombinedCheck) else (command.skill,),
        combined=combined,
        talent_value=value,
        target=target,
        rolls=rolls,
        result=outcome.result,
        passed=outcome.passed,
        quality=outcome.quality,
        critical=outcome.critical,
    )


def combined_value(state: KreisState, command: CombinedCheck) -> tuple[int, int]:
    """A combined check's Talentwert (the lowest skill's) and target."""
    being = being_of(state, command.being)
    values = [skill_value(state, being, command.attribute, s) for s in command.skills]
    value = rules.combined_skill(values) + _modifier(state, command.modifier)
    target = state.options.default_target if command.target is None else command.target
    return value, target


def comparative_values(state: KreisState, command: Comparative) -> tuple[int, int]:
    """Both sides' Talentwerte of a comparative check."""
    active = being_of(state, command.being)
    passive = being_of(state, command.opponent)
    a = skill_value(state, active, command.attribute, command.skill)
    p = skill_value(state, passive, command.opponent_attribute, command.opponent_skill)
    return a + _modifier(state, command.modifier), p + _modifier(state, command.opponent_modifier)


def accumulation_of(state: KreisState, command: AccumulateStart) -> Accumulation:
    """The accumulated check a start command defines (exactly one of rolls and quality)."""
    if (command.rolls is None) == (command.quality is None):
        raise RuleError("kreiswanderer.rolls_or_quality")
    being = being_of(state, command.being)
    value = skill_value(state, being, command.attribute, command.skill)
    value += _modifier(state, command.modifier) + _modifier(state, command.tools)
    return Accumulation(
        id=command.id,
        being=command.being,
        attribute=command.attribute,
        skill=command.skill,
        talent_value=value,
        target=state.options.default_target if command.target is None else command.target,
        rolls=command.rolls,
        quality=command.quality,
    )


class AttackPlan:
    """An attack's numbers before rolling: Talentwert, target, weapon, resistance."""

    def __init__(
        self,
        value: int,
        target: int,
        weapon: Weapon,
        resistance: int,
        protection: int = 0,
        extras: tuple[tuple[str, int, int], ...] = (),
    ) -> None:
        self.value = value
        self.target = target
        self.weapon = weapon
        self.resistance = resistance
        self.protection = protection
        """The foe's ``schutz`` against the weapon's class."""
        self.extras = extras
        """Zusatzschaden: (damage type, value, damage after resistance) each."""

    @property
    def extra_damage(self) -> int:
        """All extra damage a hit adds."""
        return sum(e[2] for e in self.extras)


def _weapon(being: Being, name: str) -> Weapon:
    for weapon in being.weapons:
        if weapon.name == name:
            return weapon
    raise RuleError("kreiswanderer.unknown_weapon", value=name)


def dodge_value(state: KreisState, being_id: str) -> int:
    """A combatant's dodge now: its die, its bonus from dodging, its Haltungen."""
    fight = fight_of(state)
    being = being_of(state, being_id)
    if being_id not in fight.dodge:
        raise RuleError("kreiswanderer.not_in_fight", value=_name(state, being_id))
    return (
        fight.dodge[being_id] + fight.dodge_bonus.get(being_id, 0) + being.haltung_modifier("dodge")
    )


def dodge_choices(state: KreisState, being_id: str) -> list[tuple[str, int]]:
    """The skills ``being_id`` may dodge with and the bonus each gives: (skill, bonus).

    The table's dodge skill (Akrobatik) first, then every other skill on the sheet, each
    with the table's dodge attribute (attribute × depth + value + Haltungen); a depth-2
    skill at 0 cannot be used and is left out.
    """
    being = being_of(state, being_id)
    attribute = state.options.dodge_attribute
    choices: list[tuple[str, int]] = []
    for skill in dict.fromkeys((state.options.dodge_skill, *being.skills)):
        try:
            choices.append((skill, skill_value(state, being, attribute, skill)))
        except RuleError:
            continue
    return choices


def attack_plan(
    state: KreisState, attacker: str, target: str, weapon: str, modifier: int
) -> AttackPlan:
    """An attack's numbers; target = dodge + defensive + Führungsschwellen − Durchdringend."""
    being = being_of(state, attacker)
    foe = being_of(state, target)
    used = _weapon(being, weapon)
    value = skill_value(state, being, used.attribute, used.skill) + _modifier(state, modifier)
    thresholds = sum(w.fuehrungsschwelle for w in foe.weapons if w.wielded)
    goal = rules.attack_target(
        dodge_value(state, target),
        foe.creature.tag_total("defensive"),
        thresholds,
        used.durchdringend,
    )
    return AttackPlan(
        value,
        goal,
        used,
        foe.resistance(used.damage_type),
        secondary.protection(used, foe),
        secondary.extras(used, foe),
    )


def _attack(
    state: KreisState, attacker: str, target: str, weapon: str, modifier: int, dice: DiceSource
) -> Attacked:
    plan = attack_plan(state, attacker, target, weapon, modifier)
    rolls = _roll(state, dice)
    outcome = rules.evaluate(plan.value + sum(rolls), plan.target)
    damage = (
        rules.damage_after_resistance(
            outcome.quality, plan.weapon.damage_bonus, plan.resistance, plan.protection
        )
        + plan.extra_damage
        if outcome.passed
        else 0
    )
    ignites = outcome.passed and BURNING in secondary.lasting(plan.weapon)
    extra = (
        tuple(ExtraDamage(damage_type=t, value=v, damage=d) for t, v, d in plan.extras)
        if outcome.passed
        else ()
    )
    return Attacked(
        being=attacker,
        target=target,
        weapon=weapon,
        talent_value=plan.value,
        target_value=plan.target,
        rolls=rolls,
        result=outcome.result,
        passed=outcome.passed,
        quality=outcome.quality,
        critical=outcome.critical,
        damage=damage,
        damage_type=plan.weapon.damage_type,
        protection=plan.protection if outcome.passed else 0,
        extra=extra,
        ignites=ignites,
    )


def _name(state: KreisState, being_id: str | None) -> str:
    """How a message names a being: its name where the deciding fold has it, else the id
    as given (an id the caller does not see answers as an unknown one would)."""
    found = state.beings.get(being_id or "")
    return found.creature.name if found is not None else (being_id or "–")


def _own_turn(state: KreisState, being: str) -> None:
    _, fight = running_fight(state)
    if fight.current != being:
        raise RuleError(
            "kreiswanderer.not_your_turn",
            value=_name(state, being),
            current=_name(state, fight.current),
        )


def _ap_left(state: KreisState, being: str) -> Decimal:
    fight, _ = running_fight(state)
    if being not in fight.budgets:
        raise RuleError("kreiswanderer.not_in_fight", value=_name(state, being))
    return fight.budgets[being].amount("ap")


def _in_fight(state: KreisState, being: str) -> bool:
    return state.fight is not None and being in state.fight.budgets


def _new_being(state: KreisState, being_id: str, sheet: BeingSheet, secret: bool) -> Being:
    missing = [a for a in state.options.attributes if a not in sheet.attributes]
    unknown = [a for a in sheet.attributes if a not in state.options.attributes]
    if missing or unknown:
        raise RuleError(
            "kreiswanderer.bad_attributes",
            missing=", ".join(missing) or "-",
            unknown=", ".join(unknown) or "-",
        )
    tags = [m.tag() for m in sheet.markings]
    tags += [_resistance(t, v) for t, v in sorted(sheet.resistances.items()) if v]
    creature = Creature(
        id=being_id,
        name=sheet.name,
        side=sheet.side,
        secret=secret,
        stats={k: Decimal(v) for k, v in sheet.attributes.items()},
        tracks={
            "tp": Track(current=sheet.hp, maximum=sheet.hp),
            "mp": Track(current=sheet.mp, maximum=sheet.mp),
        },
        tags=tuple(tags),
    )
    return Being(
        creature=creature,
        skills=sheet.skills,
        weapons=sheet.weapons,
        sonderfertigkeiten=sheet.sonderfertigkeiten,
        begabungen=sheet.begabungen,
        haltungen=sheet.haltungen,
        magic_cost=sheet.magic_cost,
    )


def _edited(state: KreisState, command: EditBeing) -> BeingEdited:
    """The new being: the new sheet with the old current points (at most the new maxima),
    the old owner and secrecy, the active Haltungen the sheet still has."""
    old = being_of(state, command.being)
    changed = edit.changes(edit.sheet_of(old), command.sheet)
    if not changed:
        raise RuleError("kreiswanderer.nothing_changed", value=old.creature.name)
    fresh = _new_being(state, command.being, command.sheet, old.creature.secret)
    tracks = {
        name: track.model_copy(
            update={"current": min(track.maximum, old.creature.track(name).current)}
        )
        for name, track in fresh.creature.tracks.items()
    }
    creature = fresh.creature.model_copy(update={"tracks": tracks, "owner": old.creature.owner})
    active = tuple(h for h in old.active_haltungen if h in fresh.haltungen)
    being = fresh.model_copy(update={"creature": creature, "active_haltungen": active})
    return BeingEdited(being=being, changes=changed)


def _resistance(damage_type: str, value: int) -> Tag:
    return Tag(name="resistance", value=value, detail=damage_type)


def _rest(state: KreisState, command: Rest) -> Rested:
    being = being_of(state, command.being)
    if _in_fight(state, command.being):
        raise RuleError("kreiswanderer.resting_in_fight", value=being.creature.name)
    tp = being.creature.track("tp")
    mp = being.creature.track("mp")
    hp_now = rules.regenerate(tp.current, tp.maximum, command.sleep_halfhours)
    if command.sleep_halfhours >= 4:
        mp_now = mp.maximum
    else:
        hours = (command.rest_halfhours + command.sleep_halfhours) // 2
        mp_now = min(mp.maximum, mp.current + hours)
    return Rested(
        being=command.being,
        rest_halfhours=command.rest_halfhours,
        sleep_halfhours=command.sleep_halfhours,
        tp=hp_now,
        mp=mp_now,
    )


def events_of(state: KreisState, command: Command, dice: DiceSource) -> list[Event]:
    """The events of ``command`` in ``state``, rolling what it needs (not yet checked)."""
    match command:
        case CreateBeing():
            return [
                BeingCreated(being=_new_being(state, command.id, command.sheet, command.secret))
            ]
        case EditBeing():
            return [_edited(state, command)]
        case Check():
            value, target = check_value(state, command)
            events: list[Event] = []
            if command.sonderfertigkeit is not None:
                events.append(
                    _magic(being_of(state, command.being), command.sonderfertigkeit, dice)
                )
            return [*events, _checked(state, command, value, target, dice)]
        case CombinedCheck():
            value, target = combined_value(state, command)
            return [_checked(state, command, value, target, dice)]
        case Comparative():
            a, p = comparative_values(state, command)
            ra, rp = _roll(state, dice), _roll(state, dice)
            side = rules.winner(a + sum(ra), p + sum(rp), state.options.tie_goes_to)
            return [
                ComparativeRolled(
                    number=state.checks + 1,
                    active=Side(being=command.being, talent_value=a, rolls=ra, result=a + sum(ra)),
                    passive=Side(
                        being=command.opponent, talent_value=p, rolls=rp, result=p + sum(rp)
                    ),
                    winner=side,
                    quality=abs((a + sum(ra)) - (p + sum(rp))),
                )
            ]
        case AccumulateStart():
            return [AccumulationStarted(accumulation=accumulation_of(state, command))]
        case AccumulateRoll():
            acc = state.accumulations.get(command.id)
            if acc is None:
                raise RuleError("kreiswanderer.unknown_accumulation", value=command.id)
            if acc.finished:
                raise RuleError("kreiswanderer.accumulation_done", value=command.id)
            rolls = _roll(state, dice)
            result = acc.talent_value + sum(rolls)
            total = acc.total + result
            quality = total - acc.target
            done = (
                acc.done_rolls + 1 >= acc.rolls
                if acc.rolls is not None
                else quality >= (acc.quality or 0)
            )
            return [
                AccumulationRolled(
                    id=acc.id,
                    rolls=rolls,
                    result=result,
                    total=total,
                    finished=done,
                    quality=quality,
                )
            ]
        case StartCombat():
            if state.fight is not None:
                raise RuleError("kreiswanderer.fight_on")
            if len(set(command.combatants)) != len(command.combatants):
                raise RuleError("kreiswanderer.duplicate_combatant")
            for who in command.combatants:
                being_of(state, who)
            rolled = {who: (dice.roll(10), dice.roll(10)) for who in command.combatants}
            return [CombatStarted(dice=rolled)]
        case AssignDice():
            fight = fight_of(state)
            if command.being not in fight.dice or command.being in fight.dodge:
                raise RuleError("kreiswanderer.not_rolling", value=_name(state, command.being))
            agility = being_of(state, command.being).attribute(state.options.agility)
            pair = fight.dice[command.being]
            return [
                DiceAssigned(
                    being=command.being,
                    dodge=pair[command.dodge] + agility,
                    initiative=pair[1 - command.dodge] + agility,
                )
            ]
        case Attack():
            _own_turn(state, command.being)
            plan = attack_plan(
                state, command.being, command.target, command.weapon, command.modifier
            )
            del plan
            left = _ap_left(state, command.being)
            if left >= command.cost:
                return [
                    ApSpent(being=command.being, amount=Decimal(command.cost), purpose="attack"),
                    _attack(
                        state, command.being, command.target, command.weapon, command.modifier, dice
                    ),
                ]
            detail: dict[str, str | int] = {
                "target": command.target,
                "weapon": command.weapon,
                "modifier": command.modifier,
            }
            return [
                ActionBegun(being=command.being, action="attack", cost=command.cost, detail=detail)
            ]
        case CarryOut():
            fight, _ = running_fight(state)
            ready = [a for a in fight.ready.get(command.being, ()) if a.id == command.action]
            if not ready:
                raise RuleError("kreiswanderer.not_ready", value=command.action)
            _own_turn(state, command.being)
            detail = ready[0].detail
            hit = _attack(
                state,
                command.being,
                str(detail["target"]),
                str(detail["weapon"]),
                int(detail["modifier"]),
                dice,
            )
            return [hit.model_copy(update={"action": command.action})]
        case Dodge():
            being = being_of(state, command.being)
            left = _ap_left(state, command.being)
            if left < 1:
                raise RuleError("kreiswanderer.no_ap", value=being.creature.name)
            skill = command.skill or state.options.dodge_skill
            attribute = command.attribute or state.options.dodge_attribute
            bonus = skill_value(state, being, attribute, skill)
            return [
                ApSpent(being=command.being, amount=Decimal(1), purpose="dodge"),
                Dodged(being=command.being, bonus=bonus, skill=skill),
            ]
        case SwitchHaltung():
            being = being_of(state, command.being)
            if command.haltung not in being.haltungen:
                raise RuleError("kreiswanderer.unknown_haltung", value=command.haltung)
            if (command.haltung in being.active_haltungen) == command.active:
                raise RuleError("kreiswanderer.haltung_unchanged", value=command.haltung)
            events = []
            if _in_fight(state, command.being) and state.options.haltung_switch_ap:
                events.append(
                    ApSpent(
                        being=command.being,
                        amount=state.options.haltung_switch_ap,
                        purpose="haltung",
                    )
                )
            return [
                *events,
                _magic(being, command.haltung, dice),
                HaltungSwitched(
                    being=command.being, haltung=command.haltung, active=command.active
                ),
            ]
        case UseBegabung():
            being = being_of(state, command.being)
            if command.begabung not in being.begabungen:
                raise RuleError("kreiswanderer.unknown_begabung", value=command.begabung)
            return [_magic(being, command.begabung, dice)]
        case Extinguish():
            being_of(state, command.being)
            fight = fight_of(state)
            if not any(e.kind == BURNING for e in fight.effects.on(command.being)):
                raise RuleError("kreiswanderer.not_burning", value=_name(state, command.being))
            events = []
            if _in_fight(state, command.being):
                events.append(ApSpent(being=command.being, amount=Decimal(1), purpose="extinguish"))
            return [*events, Extinguished(being=command.being)]
        case EndTurn():
            running_fight(state)
            return [TurnEnded()]
        case EndCombat():
            fight_of(state)
            return [CombatEnded()]
        case Rest():
            return [_rest(state, command)]
        case AdjustTrack():
            being_of(state, command.being)
            return [TrackAdjusted(being=command.being, track=command.track, value=command.value)]
    raise AssertionError(command)  # pragma: no cover
