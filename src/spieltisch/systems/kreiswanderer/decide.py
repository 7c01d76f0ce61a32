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
    AccumulateAbandon,
    AccumulateRoll,
    AccumulateStart,
    Act,
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
    DealDamage,
    Dodge,
    EditBeing,
    EndCombat,
    EndTurn,
    Extinguish,
    Heal,
    JoinFight,
    LeaveFight,
    Rest,
    SetCatalogue,
    StartCombat,
    SwitchHaltung,
    UseBegabung,
)
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
    ExtraDamage,
    FightJoined,
    FightLeft,
    HaltungSwitched,
    Healed,
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
    fallen,
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
    "held_skills",
    "skill_of",
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


def skill_of(state: KreisState, being: Being, skill: str) -> tuple[int, int]:
    """A skill's depth and value for ``being``: its sheet's entry; else its native language
    (held at 0, basic); else the table's catalogue entry at value 0 (a basic one only for the
    species it names, ``kreiswanderer.no_access`` otherwise); else a basic skill at 0."""
    found = being.skills.get(skill)
    if found is not None:
        return found.depth, found.value
    if skill == being.native_language:
        return 1, 0
    entry = state.catalogue.get(skill)
    if entry is None:
        return 1, 0
    if entry.depth == 1 and entry.species and being.species not in entry.species:
        raise RuleError(
            "kreiswanderer.no_access",
            value=skill,
            name=being.creature.name,
            species=", ".join(entry.species),
        )
    return entry.depth, 0


def held_skills(state: KreisState, being: Being) -> dict[str, tuple[int, int]]:
    """Every skill ``being`` can use without a sheet entry or with one: its sheet's, its
    native language and the catalogue's basic skills open to its species (depth, value)."""
    held = {name: (s.depth, s.value) for name, s in being.skills.items()}
    if being.native_language and being.native_language not in held:
        held[being.native_language] = (1, 0)
    for name, entry in state.catalogue.items():
        if name in held or entry.depth != 1:
            continue
        if not entry.species or being.species in entry.species:
            held[name] = (1, 0)
    return held


def skill_value(state: KreisState, being: Being, attribute: str, skill: str) -> int:
    """Attribute × depth + skill value + active Haltungen, for a skill of ``being``.

    A skill the sheet does not list counts as :func:`skill_of` says; one that needs learning
    (depth ≥ 2; the first edition: depth 2 only) is refused at value 0.
    """
    if attribute not in state.options.attributes:
        raise RuleError("kreiswanderer.unknown_attribute", value=attribute)
    depth, value = skill_of(state, being, skill)
    base = rules.talent_value(
        being.attribute(attribute), depth, value, first_edition=not state.options.seed_rules
    )
    return base + being.haltung_modifier(skill)


def _able(state: KreisState, being_id: str) -> Being:
    """The being, if it can act: from edition 2 on a being at 0 TP cannot
    (``kreiswanderer.fallen``)."""
    being = being_of(state, being_id)
    if state.options.seed_rules and fallen(being):
        raise RuleError("kreiswanderer.fallen", value=being.creature.name)
    return being


def check_value(state: KreisState, command: Check) -> tuple[int, int]:
    """A check's Talentwert and target (without rolling)."""
    being = _able(state, command.being)
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
    being = _able(state, command.being)
    values = [skill_value(state, being, command.attribute, s) for s in command.skills]
    value = rules.combined_skill(values) + _modifier(state, command.modifier)
    value += _modifier(state, command.tools)
    target = state.options.default_target if command.target is None else command.target
    return value, target


def comparative_values(state: KreisState, command: Comparative) -> tuple[int, int]:
    """Both sides' Talentwerte of a comparative check."""
    active = _able(state, command.being)
    passive = being_of(state, command.opponent)
    a = skill_value(state, active, command.attribute, command.skill)
    p = skill_value(state, passive, command.opponent_attribute, command.opponent_skill)
    a += _modifier(state, command.modifier) + _modifier(state, command.tools)
    p += _modifier(state, command.opponent_modifier) + _modifier(state, command.opponent_tools)
    return a, p


def accumulation_of(state: KreisState, command: AccumulateStart) -> Accumulation:
    """The accumulated check a start command defines (exactly one of rolls and quality)."""
    if (command.rolls is None) == (command.quality is None):
        raise RuleError("kreiswanderer.rolls_or_quality")
    being = _able(state, command.being)
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


def thresholds(state: KreisState, used: Weapon, foe: Being) -> int:
    """The Führungsschwellen an attack with ``used`` on ``foe`` adds to its target, by the
    table's reading (option ``fuehrungsschwelle``): the foe's wielded weapons (default), the
    attacking weapon, or both."""
    reading = state.options.fuehrungsschwelle
    total = 0
    if reading in ("defender", "both"):
        total += sum(w.fuehrungsschwelle for w in foe.weapons if w.wielded)
    if reading in ("attacker", "both"):
        total += used.fuehrungsschwelle
    return total


def attack_plan(
    state: KreisState, attacker: str, target: str, weapon: str, modifier: int, tools: int = 0
) -> AttackPlan:
    """An attack's numbers; target = dodge + defensive + Führungsschwellen − Durchdringend.

    From edition 2 on a being cannot attack itself (``kreiswanderer.self_attack``)."""
    being = _able(state, attacker)
    if attacker == target and state.options.seed_rules:
        raise RuleError("kreiswanderer.self_attack", value=being.creature.name)
    foe = being_of(state, target)
    used = _weapon(being, weapon)
    value = skill_value(state, being, used.attribute, used.skill) + _modifier(state, modifier)
    value += _modifier(state, tools)
    goal = rules.attack_target(
        dodge_value(state, target),
        foe.creature.tag_total("defensive"),
        thresholds(state, used, foe),
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
    state: KreisState,
    attacker: str,
    target: str,
    weapon: str,
    modifier: int,
    dice: DiceSource,
    tools: int = 0,
) -> Attacked:
    plan = attack_plan(state, attacker, target, weapon, modifier, tools)
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
        ap=sheet.ap,
        species=sheet.species,
        native_language=sheet.native_language,
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
    if not state.options.seed_rules:  # edition 1: nothing carried from one rest to the next
        hp_now = rules.regenerate(tp.current, tp.maximum, command.sleep_halfhours)
        mp_now, _ = rules.rest_magic(
            mp.current, mp.maximum, command.rest_halfhours, command.sleep_halfhours
        )
        return Rested(
            being=command.being,
            rest_halfhours=command.rest_halfhours,
            sleep_halfhours=command.sleep_halfhours,
            tp=hp_now,
            mp=mp_now,
        )
    hp_now, sleep_carry = rules.regenerate_carry(
        tp.current, tp.maximum, command.sleep_halfhours, state.sleep.get(command.being, 0)
    )
    mp_now, rest_carry = rules.rest_magic(
        mp.current,
        mp.maximum,
        command.rest_halfhours,
        command.sleep_halfhours,
        state.rest.get(command.being, 0),
    )
    return Rested(
        being=command.being,
        rest_halfhours=command.rest_halfhours,
        sleep_halfhours=command.sleep_halfhours,
        tp=hp_now,
        mp=mp_now,
        sleep_carry=sleep_carry,
        rest_carry=rest_carry,
    )


def _accumulation_roll(state: KreisState, command: AccumulateRoll, dice: DiceSource) -> Event:
    acc = state.accumulations.get(command.id)
    if acc is None or (acc.abandoned and state.options.seed_rules):
        raise RuleError("kreiswanderer.unknown_accumulation", value=command.id)
    if not acc.open:
        raise RuleError("kreiswanderer.accumulation_done", value=command.id)
    _able(state, acc.being)
    rolls = _roll(state, dice)
    reading = state.options.accumulation
    result = rules.accumulated_part(acc.talent_value, sum(rolls), acc.done_rolls, reading)
    total = acc.total + result
    quality = total - acc.target
    done = (
        acc.done_rolls + 1 >= acc.rolls if acc.rolls is not None else quality >= (acc.quality or 0)
    )
    critical = None
    if done and state.options.seed_rules:
        critical = rules.evaluate(total, acc.target).critical
    return AccumulationRolled(
        id=acc.id,
        rolls=rolls,
        result=result,
        total=total,
        finished=done,
        quality=quality,
        critical=critical,
    )


def _comparative(state: KreisState, command: Comparative, dice: DiceSource) -> Event:
    a, p = comparative_values(state, command)
    ra, rp = _roll(state, dice), _roll(state, dice)
    side = rules.winner(a + sum(ra), p + sum(rp), state.options.tie_goes_to)
    critical = None
    if state.options.seed_rules:
        critical = rules.comparative_critical(a + sum(ra), p + sum(rp))
    return ComparativeRolled(
        number=state.checks + 1,
        active=Side(being=command.being, talent_value=a, rolls=ra, result=a + sum(ra)),
        passive=Side(being=command.opponent, talent_value=p, rolls=rp, result=p + sum(rp)),
        winner=side,
        quality=abs((a + sum(ra)) - (p + sum(rp))),
        critical=critical,
    )


def _hurt(state: KreisState, command: DealDamage) -> DamageDealt:
    """Typed damage outside an attack: the source's markings act as a weapon's would."""
    being = being_of(state, command.being)
    source = Weapon(name="-", skill="-", damage_type=command.damage_type, markings=command.markings)
    resistance = being.resistance(command.damage_type)
    protection = secondary.protection(source, being)
    extras = secondary.extras(source, being)
    damage = rules.damage_after_resistance(command.amount, 0, resistance, protection)
    damage += sum(e[2] for e in extras)
    return DamageDealt(
        being=command.being,
        damage_type=command.damage_type,
        amount=command.amount,
        resistance=resistance,
        protection=protection,
        extra=tuple(ExtraDamage(damage_type=t, value=v, damage=d) for t, v, d in extras),
        damage=damage,
        ignites=BURNING in secondary.lasting(source),
        reason=command.reason,
    )


def _act(state: KreisState, command: Act, dice: DiceSource) -> list[Event]:
    _own_turn(state, command.being)
    being = _able(state, command.being)
    left = _ap_left(state, command.being)
    if left >= command.cost:
        done: list[Event] = [
            ApSpent(being=command.being, amount=Decimal(command.cost), purpose="act")
        ]
        if command.magical:
            done.append(_magic(being, command.name, dice))
        return [
            *done,
            ActionDone(
                being=command.being,
                name=command.name,
                cost=command.cost,
                magical=command.magical,
            ),
        ]
    detail: dict[str, str | int] = {"name": command.name, "magical": int(command.magical)}
    return [ActionBegun(being=command.being, action="act", cost=command.cost, detail=detail)]


def _carry_out(state: KreisState, command: CarryOut, dice: DiceSource) -> list[Event]:
    fight, _ = running_fight(state)
    ready = [a for a in fight.ready.get(command.being, ()) if a.id == command.action]
    if not ready:
        raise RuleError("kreiswanderer.not_ready", value=command.action)
    _own_turn(state, command.being)
    being = _able(state, command.being)
    detail = ready[0].detail
    if ready[0].action == "act":
        name = str(detail["name"])
        magical = bool(detail.get("magical"))
        magic = [_magic(being, name, dice)] if magical else []
        done = ActionDone(
            being=command.being,
            name=name,
            cost=int(ready[0].cost),
            magical=magical,
            action=command.action,
        )
        return [*magic, done]
    hit = _attack(
        state,
        command.being,
        str(detail["target"]),
        str(detail["weapon"]),
        int(detail["modifier"]),
        dice,
        int(detail.get("tools", 0)),
    )
    return [hit.model_copy(update={"action": command.action})]


def _leave(state: KreisState, command: LeaveFight) -> FightLeft:
    fight = fight_of(state)
    if command.being not in fight.dice:
        raise RuleError("kreiswanderer.not_in_fight", value=_name(state, command.being))
    return FightLeft(being=command.being, how=command.how)


def _extinguish(state: KreisState, command: Extinguish) -> list[Event]:
    being = being_of(state, command.being)
    if not any(e.kind == BURNING for e in state.effects.on(command.being)):
        raise RuleError("kreiswanderer.not_burning", value=_name(state, command.being))
    if _in_fight(state, command.being) and not (state.options.seed_rules and fallen(being)):
        return [
            ApSpent(being=command.being, amount=Decimal(1), purpose="extinguish"),
            Extinguished(being=command.being),
        ]
    return [Extinguished(being=command.being)]


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
            return [_comparative(state, command, dice)]
        case AccumulateStart():
            return [AccumulationStarted(accumulation=accumulation_of(state, command))]
        case AccumulateRoll():
            return [_accumulation_roll(state, command, dice)]
        case AccumulateAbandon():
            acc = state.accumulations.get(command.id)
            if acc is None or acc.abandoned:
                raise RuleError("kreiswanderer.unknown_accumulation", value=command.id)
            if acc.finished:
                raise RuleError("kreiswanderer.accumulation_done", value=command.id)
            return [AccumulationAbandoned(id=command.id)]
        case SetCatalogue():
            return [CatalogueSet(skills=command.skills)]
        case StartCombat():
            if state.fight is not None:
                raise RuleError("kreiswanderer.fight_on")
            if len(set(command.combatants)) != len(command.combatants):
                raise RuleError("kreiswanderer.duplicate_combatant")
            for who in command.combatants:
                if fallen(being_of(state, who)) and state.options.seed_rules:
                    raise RuleError("kreiswanderer.fallen", value=_name(state, who))
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
            attack_plan(
                state,
                command.being,
                command.target,
                command.weapon,
                command.modifier,
                command.tools,
            )
            left = _ap_left(state, command.being)
            if left >= command.cost:
                return [
                    ApSpent(being=command.being, amount=Decimal(command.cost), purpose="attack"),
                    _attack(
                        state,
                        command.being,
                        command.target,
                        command.weapon,
                        command.modifier,
                        dice,
                        command.tools,
                    ),
                ]
            detail: dict[str, str | int] = {
                "target": command.target,
                "weapon": command.weapon,
                "modifier": command.modifier,
            }
            if command.tools:
                detail["tools"] = command.tools
            return [
                ActionBegun(being=command.being, action="attack", cost=command.cost, detail=detail)
            ]
        case Act():
            return _act(state, command, dice)
        case CarryOut():
            return _carry_out(state, command, dice)
        case JoinFight():
            fight = fight_of(state)
            being_of(state, command.being)
            if command.being in fight.dice:
                raise RuleError("kreiswanderer.duplicate_combatant")
            return [FightJoined(being=command.being, dice=(dice.roll(10), dice.roll(10)))]
        case LeaveFight():
            return [_leave(state, command)]
        case DealDamage():
            return [_hurt(state, command)]
        case Heal():
            being = being_of(state, command.being)
            track = being.creature.track(command.track)
            value = min(track.maximum, track.current + command.amount)
            return [
                Healed(
                    being=command.being,
                    track=command.track,
                    amount=command.amount,
                    value=value,
                    reason=command.reason,
                )
            ]
        case Dodge():
            being = _able(state, command.being)
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
            being = _able(state, command.being)
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
            being = _able(state, command.being)
            if command.begabung not in being.begabungen:
                raise RuleError("kreiswanderer.unknown_begabung", value=command.begabung)
            return [_magic(being, command.begabung, dice)]
        case Extinguish():
            return _extinguish(state, command)
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
