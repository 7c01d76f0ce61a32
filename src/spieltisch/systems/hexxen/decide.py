"""Commands to events: every rule is checked here (and again when the events apply)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from spieltisch.dice.fair import DiceSource
from spieltisch.engine import economy, effects, encounter, grid
from spieltisch.engine.creatures import Track
from spieltisch.engine.effects import Effects
from spieltisch.engine.encounter import Combatant, Start
from spieltisch.engine.errors import RuleError
from spieltisch.engine.statblock import StatLineError
from spieltisch.engine.text import Label
from spieltisch.systems.hexxen import rules
from spieltisch.systems.hexxen.commands import (
    AddHex,
    ApplyEffect,
    ChangeLep,
    ChangeResource,
    Command,
    CreateHunter,
    CreateNpc,
    DeclareAttack,
    Defend,
    EditHunter,
    EndFight,
    HunterCheck,
    HunterContest,
    NextTurn,
    NpcAttack,
    NpcCheck,
    NpcPower,
    Place,
    RemoveEffect,
    SetBound,
    SetMap,
    SetModifier,
    SetSkill,
    StartFight,
)
from spieltisch.systems.hexxen.events import (
    AbbauResult,
    AttackDeclared,
    AttackRolled,
    BoundSet,
    CheckRolled,
    ContestRolled,
    DiceRolled,
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
    Roll,
    SkillSet,
    TargetResult,
    TurnAdvanced,
)
from spieltisch.systems.hexxen.evolve import (
    effect_catalog,
    evolve,
    find_any,
    find_hunter,
    find_npc,
    modifiers,
    ongoing,
)
from spieltisch.systems.hexxen.sheet import (
    AttackLine,
    DiceUse,
    HexxenState,
    Hunter,
    Npc,
    NpcKind,
    PendingAttack,
    PowerLine,
    Range,
    bound_with,
    decay_of,
    default_skills,
    effect_id,
    effect_kind,
    handlungen_of,
    is_bound,
    trait_of,
)
from spieltisch.systems.hexxen.statblock import parse_block

__all__ = [
    "SYSTEM_ID",
    "attack_line",
    "attack_of",
    "contact",
    "decide",
    "defense_choices",
    "edited_hunter",
    "hunter_pool",
    "line_between",
    "npc_from_statblock",
    "power_line",
    "roll_check",
]

SYSTEM_ID = "hexxen"
"""The registry id of HeXXen 1733."""

_DEFENSE_SKILLS = {"parry": "Parieren", "dodge": "Ausweichen"}
"""The skill a defensive reaction rolls when the command names none."""


def roll_check(
    dice: DiceSource, count: int, bonus: int, malus: int, *, gm: bool, state: HexxenState
) -> Roll:
    """Roll ``count`` HeXXen dice and the netted Janus dice; count them by the rules."""
    net = rules.net_modifier(bonus, malus, state.options)
    faces = tuple(dice.roll(6) for _ in range(count))
    janus = tuple(dice.roll(6) for _ in range(abs(net)))
    result = rules.check_result(faces, janus, net, gm=gm, options=state.options)
    return Roll(
        die="M" if gm else "H",
        dice=faces,
        janus=janus,
        bonus=bonus,
        malus=malus,
        net=net,
        successes=result.successes,
        stars=result.stars,
        janus_symbols=result.janus,
        total=result.total,
    )


def hunter_pool(
    state: HexxenState, hunter: Hunter, skill: str, attribute: str | None
) -> tuple[str, int]:
    """``(attribute, dice)`` of a hunter's check: attribute + skill, capped at ``max_pool``."""
    if skill not in hunter.skills:
        raise RuleError("hexxen.unknown_skill", hunter=hunter.name, value=skill)
    attr = attribute or hunter.skill_attributes[skill]
    return attr, min(hunter.attributes[attr] + hunter.skills[skill], state.options.max_pool)


def _create_hunter(state: HexxenState, command: CreateHunter) -> Hunter:
    if command.id in state.hunters or command.id in state.npcs:
        raise RuleError("hexxen.duplicate_id", value=command.id)
    missing = [a for a in ("KKR", "ATH", "GES", "SIN", "WIS", "WIL") if a not in command.attributes]
    if missing:
        raise RuleError("hexxen.missing_attributes", value=", ".join(missing))
    known = default_skills()
    skill_attributes = {**known, **command.skill_attributes}
    unknown = [s for s in command.skills if s not in skill_attributes]
    if unknown:
        raise RuleError("hexxen.skill_needs_attribute", value=unknown[0])
    skills = {**dict.fromkeys(known, 0), **command.skills}
    attributes: dict[str, int] = {str(k): v for k, v in command.attributes.items()}
    lep = rules.derived_lep(attributes, command.unempfindlichkeit, state.options)
    return Hunter(
        id=command.id,
        name=command.name,
        attributes=attributes,
        skills=skills,
        skill_attributes={s: skill_attributes[s] for s in skills},
        armour=command.armour,
        unempfindlichkeit=command.unempfindlichkeit,
        reflexe=command.reflexe,
        lep=Track(current=lep, maximum=lep, floor=state.options.lep_floor),
        ini=rules.derived_ini(attributes, command.reflexe),
        ideen=command.ideen,
        coups=command.coups,
        esprit=command.esprit,
    )


def _level_line(state: HexxenState, command: CreateNpc, line: str) -> None:
    """A Wertekasten gives the level of its own kind: ``Anführerstufe`` for an Anführer,
    ``Bandenstufe`` for a Bande (edition 1 took either)."""
    wanted = "leader_level" if command.npc_kind == "anfuehrer" else "band_level"
    if state.options.edition >= 2 and line != wanted:
        raise RuleError(
            "hexxen.wrong_level_line",
            npc=command.name,
            value="Bandenstufe" if line == "band_level" else "Anführerstufe",
            kind=Label(f"web.hexxen.{command.npc_kind}"),
        )


def _effect_applies(state: HexxenState, command: CreateNpc, power: PowerLine) -> None:
    """Refuse a Handlungskraft whose effect the table cannot apply (edition 1 reported it)."""
    word = power.per_difference.effect
    if state.options.edition >= 2 and effect_kind(word) is None:
        raise RuleError("hexxen.unknown_effect", npc=command.name, power=power.name, value=word)


def _dice_apply(command: CreateNpc, line: AttackLine) -> None:
    """Refuse an attack line whose Blut- or Elixierwürfel give an effect the table cannot
    apply (``, 1 Blutwürfel Pest``): never rolled and dropped."""
    for use in line.dice:
        if rules.use_effect(use) is None:
            raise RuleError(
                "hexxen.unknown_dice_effect", npc=command.name, line=line.name, value=use.effect
            )


def roll_use(dice: DiceSource, use: DiceUse) -> DiceRolled:
    """Roll the Blut- or Elixierwürfel of ``use``: what their number gives."""
    rolls = tuple(dice.roll(6) for _ in range(use.count))
    effect = rules.use_effect(use)
    assert effect is not None  # refused when the NSC was made
    value = rules.dice_value(use.die, rolls)
    return DiceRolled(die=use.die, dice=rolls, value=value, effect=effect, source=use.source)


def npc_from_statblock(state: HexxenState, command: CreateNpc) -> Npc:
    """The NSC a Wertekasten describes (:class:`StatLineError` for a bad line)."""
    if command.npc_kind == "bande" and not 1 <= command.level <= 3:
        raise RuleError("hexxen.bad_value", field="level", value=command.level, low=1, high=3)
    entries = parse_block(command.statblock) if command.statblock.strip() else []
    stats: dict[str, Any] = {"handlungen": state.options.npc_handlungen}
    attacks: list[AttackLine] = []
    powers: list[PowerLine] = []
    properties: list[str] = []
    flags: dict[str, Any] = {"widernatuerlich": False}
    attributes: dict[str, int] = {}
    pool: int | None = None
    growth = 0
    for entry in entries:
        kind = entry["kind"]
        if kind == "attack":
            line = AttackLine.model_validate({k: v for k, v in entry.items() if k != "kind"})
            _dice_apply(command, line)
            attacks.append(line)
        elif kind == "power":
            power = PowerLine.model_validate({k: v for k, v in entry.items() if k != "kind"})
            _effect_applies(state, command, power)
            powers.append(power)
        elif kind == "stat":
            name = entry["name"]
            if name in ("leader_level", "band_level"):
                _level_line(state, command, name)
                name = "level"
            stats[name] = entry["value"]
            if entry["per_jz"]:
                flags[f"{name}_per_jz"] = True
        elif kind == "flag":
            flags["widernatuerlich"] = True
        elif kind == "attributes":
            attributes.update(entry["values"])
        elif kind == "pool":
            if command.npc_kind != "bande" and state.options.edition >= 2:
                raise RuleError("hexxen.pool_for_bande", npc=command.name)
            pool = int(entry["value"])
        elif kind == "growth":
            growth = int(entry["value"])
            flags["growth_per_jz"] = bool(entry["per_jz"])
        else:
            properties.extend(entry["items"])
    level = stats.get("level", command.level)
    if command.npc_kind == "bande" and not 1 <= level <= 3:
        raise RuleError("hexxen.bad_value", field="level", value=level, low=1, high=3)
    lep = int(stats.get("lep", 1))
    hex_points = int(stats.get("hex", 0))
    return Npc(
        id=command.id,
        name=command.name,
        kind=NpcKind(command.npc_kind),
        level=level,
        lep=Track(current=lep, maximum=lep),
        ini=int(stats.get("ini", 0)),
        hex=Track(current=hex_points, maximum=hex_points),
        hex_per_jz=bool(flags.get("hex_per_jz")),
        lep_per_jz=bool(flags.get("lep_per_jz")),
        handlungen=max(1, int(stats["handlungen"])),
        widernatuerlich=bool(flags["widernatuerlich"]),
        properties=tuple(properties),
        attacks=tuple(attacks),
        powers=tuple(powers),
        secret=command.secret,
        attributes=attributes,
        pool=pool,
        hex_growth=growth,
        hex_growth_per_jz=bool(flags.get("growth_per_jz")),
        traits=tuple(trait_of(text) for text in properties) if state.options.edition >= 3 else (),
    )


def _costs_in_fight(state: HexxenState, who: str, ap: int) -> None:
    if ap and who not in state.budgets:
        raise RuleError("hexxen.no_fight", value=who)
    if ap:
        economy.spend(state.budgets[who], "ap", ap)


def _npc_turn(state: HexxenState, npc: Npc, cost: int = 1) -> None:
    if state.encounter is None or npc.id not in state.budgets:
        raise RuleError("hexxen.no_fight", value=npc.id)
    if state.encounter.current != npc.id:
        current = state.encounter.current or ""
        now = state.hunters.get(current) or state.npcs.get(current)
        raise RuleError(
            "hexxen.not_your_turn", value=npc.name, current=now.name if now else current
        )
    economy.spend(state.budgets[npc.id], "handlungen", cost)


def _check_range(
    state: HexxenState, npc: Npc, line: AttackLine | PowerLine, targets: tuple[str, ...] = ()
) -> int:
    """Whether the line may be used now (melee bound, ranged free); the Handlungen it costs.

    In melee (edition 2) an attack line, and a power that is melee only, hits only someone
    bound with the NSC (bound as a pair, or flagged bound when the NSC has no pair)."""
    bound = is_bound(state, npc.id)
    if bound and Range.N not in line.range:
        raise RuleError("hexxen.needs_free", npc=npc.name, value=line.name)
    if not bound and Range.F not in line.range:
        raise RuleError("hexxen.needs_bound", npc=npc.name, value=line.name)
    melee = isinstance(line, AttackLine) or tuple(line.range) == (Range.N,)
    if bound and melee and state.options.edition >= 2:
        partners = bound_with(state, npc.id)
        for target in targets:
            if target not in partners and not (not partners and is_bound(state, target)):
                hunter = state.hunters.get(target)
                raise RuleError(
                    "hexxen.not_bound_with",
                    npc=npc.name,
                    value=hunter.name if hunter else target,
                )
    return handlungen_of(line, Range.N if bound else Range.F)


def _no_pending(state: HexxenState) -> None:
    if state.pending is not None:
        hunter = state.hunters.get(state.pending.target)
        raise RuleError(
            "hexxen.attack_pending",
            value=hunter.name if hunter else state.pending.target,
        )


def abbau_pool(state: HexxenState, target: str, kind: str) -> tuple[str, int] | None:
    """``(what is rolled, dice)`` of the Abbau check against the effect ``kind`` on
    ``target``: a hunter rolls the decay's skill (attribute + skill), an NSC the attribute
    that skill belongs to (a Bande its pool); ``None`` if the effect decays otherwise."""
    decay = decay_of(state.options, kind)
    if decay.mode != "check":
        return None
    skill = decay.skill or "Geistesstärke"
    hunter = state.hunters.get(target)
    if hunter is not None:
        if skill not in hunter.skills:
            return skill, 0
        return skill, hunter_pool(state, hunter, skill, None)[1]
    npc = find_npc(state, target)
    if npc.kind is NpcKind.BANDE and npc.pool is not None:
        return "pool", npc.pool
    attribute = default_skills().get(skill, "WIL")
    return attribute, npc.attributes.get(attribute, 0)


def abbau_removed(total: int, level: int, decay_per_success: bool) -> int:
    """Levels an Abbau check with ``total`` successes removes from ``level``."""
    return min(level, total) if decay_per_success else min(level, 1 if total else 0)


def _ini0(
    state: HexxenState, current: Effects, round_: int, dice: DiceSource, ticks: list[Event]
) -> tuple[list[AbbauResult], list[Event]]:
    """The INI-0 phase after the ticks: every Abbau check (rolled), then for each NSC in the
    fight and not defeated its Hex growth and its healing properties (rolled)."""
    probe = state.model_copy(update={"effects": current})
    abbau = []
    for item in current.items:
        found = abbau_pool(probe, item.target, item.kind)
        if found is None:
            continue
        _, pool = found
        bonus, malus = modifiers(probe, item.target)
        roll = roll_check(dice, pool, bonus, malus, gm=item.target in state.npcs, state=state)
        per_success = decay_of(state.options, item.kind).per_success
        removed = abbau_removed(roll.total, item.level, per_success)
        abbau.append(AbbauResult(target=item.target, effect=item.kind, roll=roll, removed=removed))
    growth: list[Event] = []
    fighting = state.budgets
    for npc in state.npcs.values():
        if npc.id not in fighting or npc.lep.current <= 0:
            continue
        grows = npc.hex_growth + rules.trait_growth(npc.traits)
        if grows:
            growth.append(HexGained(npc=npc.id, amount=grows, reason="growth", round=round_))
        lep = npc.lep.current - sum(
            e.amount for e in ticks if isinstance(e, EffectTicked) and e.target == npc.id
        )
        for trait in rules.trait_heal(npc.traits) if lep > 0 else []:  # not when defeated
            assert trait.die is not None
            rolled = roll_use(dice, DiceUse(die=trait.die, count=trait.count))
            regained = max(0, min(rolled.value, npc.lep.maximum - lep))
            lep += regained
            growth.append(
                Regenerated(
                    npc=npc.id,
                    property=trait.name,
                    die=trait.die,
                    dice=rolled.dice,
                    value=rolled.value,
                    lep=regained,
                    round=round_,
                )
            )
    return abbau, growth


def _next_turn(state: HexxenState, dice: DiceSource) -> list[Event]:
    if state.encounter is None:
        raise RuleError("hexxen.no_fight", value="")
    _no_pending(state)
    _, markers = encounter.next_turn(state.encounter)
    ticks: list[Event] = []
    found = effect_catalog(state)
    current = state.effects
    abbau: list[AbbauResult] = []
    growth: list[Event] = []
    for marker in markers:
        current, report = effects.tick(current, found, marker)
        for ticked in report.ticks:
            ticks.append(
                EffectTicked(
                    target=ticked.target,
                    effect=ticked.kind,
                    level=ticked.level,
                    amount=int(ticked.amount),
                    phase=ticked.phase,
                    round=marker.round,
                )
            )
        if marker.phase == "ini0":
            abbau, growth = _ini0(state, current, marker.round, dice, ticks)
    return [TurnAdvanced(abbau=tuple(abbau)), *ticks, *growth]


def _set_bound(state: HexxenState, command: SetBound) -> BoundSet:
    who = find_any(state, command.target)
    if command.other is not None:
        other = find_any(state, command.other)
        if isinstance(who, Hunter) == isinstance(other, Hunter):
            raise RuleError("hexxen.bind_same_side", value=who.name, other=other.name)
        return BoundSet(target=who.id, bound=command.bound, other=other.id)
    freed: tuple[str, ...] = ()
    if not command.bound and state.options.edition >= 2:
        freed = tuple(sorted(bound_with(state, who.id)))
    return BoundSet(target=who.id, bound=command.bound, freed=freed)


def _start_fight(state: HexxenState, command: StartFight, dice: DiceSource) -> list[Event]:
    if state.encounter is not None:
        raise RuleError("hexxen.fight_running")
    if command.roll_ini and not state.options.ini_roll:
        raise RuleError("hexxen.no_ini_roll")
    ids = command.combatants or (*state.hunters, *state.npcs)
    if len(set(ids)) != len(ids):
        raise RuleError("toolkit.encounter.duplicate_combatant", value=ids[0])
    combatants = []
    for who in ids:
        found = find_any(state, who)
        side = "hunters" if isinstance(found, Hunter) else "npcs"
        ini = found.ini + (dice.roll(6) if command.roll_ini else 0)
        tiebreak = (Decimal(found.ini),) if command.roll_ini else ()
        combatants.append(Combatant(id=who, side=side, initiative=Decimal(ini), tiebreak=tiebreak))
    encounter.start(combatants, round_end_phases=("ini0",))
    jz = sum(1 for who in ids if who in state.hunters)
    step = Start(combatants=tuple(combatants), round_end_phases=("ini0",))
    return [FightStarted(step=step, jz=jz)]


def attack_line(npc: Npc, name: str) -> AttackLine:
    """The NSC's attack line called ``name``; ``hexxen.unknown_attack`` otherwise."""
    line = next((a for a in npc.attacks if a.name == name), None)
    if line is None:
        raise RuleError("hexxen.unknown_attack", npc=npc.name, value=name)
    return line


def power_line(npc: Npc, name: str) -> PowerLine:
    """The NSC's Handlungskraft called ``name``; ``hexxen.unknown_power`` otherwise."""
    line = next((p for p in npc.powers if p.name == name), None)
    if line is None:
        raise RuleError("hexxen.unknown_power", npc=npc.name, value=name)
    return line


def _attack(state: HexxenState, command: NpcAttack, dice: DiceSource) -> list[Event]:
    npc = find_npc(state, command.npc)
    line = attack_line(npc, command.attack)
    hunter = find_hunter(state, command.target)
    cost = _check_range(state, npc, line, (hunter.id,))
    _npc_turn(state, npc, cost)
    defense_ap = 0
    skill: str | None = None
    if command.defense != "none":
        defense_ap = state.options.defense_ap
        skill = command.defense_skill or _DEFENSE_SKILLS[command.defense]
        hunter_pool(state, hunter, skill, None)
        budgets = state.budgets.get(hunter.id)
        if budgets is None:
            raise RuleError("hexxen.no_fight", value=hunter.id)
        if not economy.can_spend(budgets, "ap", defense_ap):
            raise RuleError("hexxen.no_ap_for_defense", hunter=hunter.name, cost=defense_ap)
    bonus, malus = modifiers(state, npc.id, command.bonus, command.malus)
    roll = roll_check(dice, line.attack, bonus, malus, gm=True, state=state)
    defense_roll = None
    if skill is not None:
        _, pool = hunter_pool(state, hunter, skill, None)
        hb, hm = modifiers(state, hunter.id, command.hunter_bonus, command.hunter_malus)
        defense_roll = roll_check(dice, pool, hb, hm, gm=False, state=state)
    margin = roll.total - (defense_roll.total if defense_roll else 0)
    hit = margin >= state.options.hit_threshold
    blood: tuple[int, ...] = ()
    elixir: tuple[int, ...] = ()
    uses = rules.attack_dice(line, npc.traits, state.options.edition) if hit else []
    if state.options.edition < 3 and hit:  # the bare dice as they were: drops, Elixier reported
        blood = tuple(dice.roll(6) for _ in range(line.blood))
        elixir = tuple(dice.roll(6) for _ in range(line.elixir))
        uses = list(line.dice)
    special = tuple(roll_use(dice, use) for use in uses)
    drops = rules.blood_drops(blood)
    extra = drops + sum(s.value for s in special if s.effect == "lep")
    lost = rules.attack_damage(line.damage, margin, hunter.armour, extra, state.options)
    return [
        AttackRolled(
            number=state.checks + 1,
            npc=npc.id,
            attack=line.name,
            target=hunter.id,
            roll=roll,
            defense=command.defense,
            defense_skill=skill,
            defense_roll=defense_roll,
            defense_ap=defense_ap,
            margin=margin,
            hit=hit,
            blood=blood,
            drops=drops,
            elixir=tuple(rules.elixir_values(elixir)),
            lep_lost=lost,
            handlungen=cost,
            special=special,
        )
    ]


def attack_of(state: HexxenState, command: Defend) -> NpcAttack:
    """The attack a defence answers: the declared attack with the hunter's choice."""
    pending = state.pending
    if pending is None:
        raise RuleError("hexxen.no_attack_pending")
    if pending.target != command.hunter:
        target = state.hunters.get(pending.target)
        raise RuleError("hexxen.not_attacked", value=target.name if target else pending.target)
    return NpcAttack(
        npc=pending.npc,
        attack=pending.attack,
        target=pending.target,
        bonus=pending.bonus,
        malus=pending.malus,
        defense=command.defense,
        defense_skill=command.defense_skill,
        hunter_bonus=command.bonus,
        hunter_malus=command.malus,
    )


def _declare(state: HexxenState, command: DeclareAttack) -> list[Event]:
    _no_pending(state)
    npc = find_npc(state, command.npc)
    line = attack_line(npc, command.attack)
    find_hunter(state, command.target)
    _npc_turn(state, npc, _check_range(state, npc, line, (command.target,)))
    pending = PendingAttack(
        npc=npc.id,
        attack=line.name,
        target=command.target,
        bonus=command.bonus,
        malus=command.malus,
    )
    return [AttackDeclared(pending=pending)]


def defense_choices(state: HexxenState, hunter: Hunter) -> list[dict[str, Any]]:
    """Each defence the hunter may choose now: its skill, dice, Ap and whether (or why not)
    it is allowed."""
    cost = state.options.defense_ap
    budgets = state.budgets.get(hunter.id)
    left = int(budgets.left.get("ap", 0)) if budgets is not None else 0
    out: list[dict[str, Any]] = [
        {"defense": "none", "skill": None, "dice": 0, "ap": 0, "allowed": True, "reason": None}
    ]
    for defense, skill in _DEFENSE_SKILLS.items():
        dice = hunter_pool(state, hunter, skill, None)[1] if skill in hunter.skills else 0
        reason = None
        if skill not in hunter.skills:
            reason = "hexxen.unknown_skill"
        elif budgets is None or not economy.can_spend(budgets, "ap", cost):
            reason = "hexxen.no_ap_for_defense"
        out.append(
            {
                "defense": defense,
                "skill": skill,
                "dice": dice,
                "ap": cost,
                "ap_left": left,
                "allowed": reason is None,
                "reason": reason,
            }
        )
    return out


def edited_hunter(state: HexxenState, command: EditHunter) -> Hunter:
    """The hunter's corrected sheet, LeP and INI derived again (damage taken stays)."""
    hunter = find_hunter(state, command.hunter)
    attributes = {**hunter.attributes, **{str(k): v for k, v in command.attributes.items()}}
    armour = hunter.armour if command.armour is None else command.armour
    tough = (
        hunter.unempfindlichkeit if command.unempfindlichkeit is None else command.unempfindlichkeit
    )
    reflexe = hunter.reflexe if command.reflexe is None else command.reflexe
    maximum = rules.derived_lep(attributes, tough, state.options)
    current = hunter.lep.current + maximum - hunter.lep.maximum
    lep = Track(
        current=max(state.options.lep_floor, min(maximum, current)),
        maximum=maximum,
        floor=state.options.lep_floor,
    )
    return hunter.model_copy(
        update={
            "name": command.name or hunter.name,
            "attributes": attributes,
            "armour": armour,
            "unempfindlichkeit": tough,
            "reflexe": reflexe,
            "lep": lep,
            "ini": rules.derived_ini(attributes, reflexe),
        }
    )


def _place(state: HexxenState, command: Place) -> list[Event]:
    who = find_any(state, command.target)
    square = grid.square_name(state.grid.square(command.to))
    for other, at in state.positions.items():
        if at == square and other != who.id:
            taken = state.hunters.get(other) or state.npcs.get(other)
            raise RuleError(
                "hexxen.square_taken", value=square, name=taken.name if taken else other
            )
    return [Placed(target=who.id, to=square)]


def line_between(start: str, end: str) -> list[str]:
    """The squares a token passes from ``start`` to ``end`` in a straight line, king's moves,
    ``end`` included and ``start`` not (the squares nearest the ideal line)."""
    a, b = grid.parse_square(start), grid.parse_square(end)
    steps = max(abs(b.x - a.x), abs(b.y - a.y))
    out = []
    for step in range(1, steps + 1):
        x = a.x + round((b.x - a.x) * step / steps)
        y = a.y + round((b.y - a.y) * step / steps)
        out.append(grid.square_name(grid.Square(x=x, y=y)))
    return out


def contact(state: HexxenState, command: Command, events: list[Event]) -> list[Event] | None:
    """A hunter's ``place`` that runs onto or through a square held by a secret NSC.

    ``state`` is the GM's full state before the command, ``events`` what the command gave on
    the shared fold (where the NSC is unknown). ``None`` when the path touches nothing hidden;
    else the move cut short on the square before the first hidden NSC on the way (nothing if
    that is where the hunter stands or he had no square yet), then :class:`NpcRevealed` for
    that NSC — so the player learns what a real table would show: someone is there."""
    if not isinstance(command, Place) or command.target not in state.hunters:
        return None
    if not any(isinstance(event, Placed) for event in events):
        return None
    hidden = {
        at: state.npcs[who]
        for who, at in state.positions.items()
        if who in state.npcs and state.npcs[who].secret
    }
    if not hidden:
        return None
    target = grid.square_name(state.grid.square(command.to))
    start = state.positions.get(command.target)
    path = line_between(start, target) if start is not None else [target]
    for index, square in enumerate(path):
        npc = hidden.get(square)
        if npc is None:
            continue
        out: list[Event] = []
        stop = path[index - 1] if index > 0 else None
        if stop is not None and stop != start:
            out.append(Placed(target=command.target, to=stop))
        shown = npc.model_copy(update={"secret": False})
        out.append(NpcRevealed(npc=shown, at=square, by=command.target))
        return out
    return None


def _set_map(state: HexxenState, command: SetMap) -> list[Event]:
    for at in state.positions.values():
        square = grid.parse_square(at)
        if square.x >= command.width or square.y >= command.height:
            raise RuleError(
                "hexxen.map_too_small", value=at, width=command.width, height=command.height
            )
    return [MapSet(width=command.width, height=command.height)]


def power_cost(npc: Npc, line: PowerLine, targets: int) -> int:
    """The Hex a Handlungskraft costs for ``targets`` targets."""
    return line.hex * targets if line.hex_per_target else line.hex


def _power(state: HexxenState, command: NpcPower, dice: DiceSource) -> list[Event]:
    npc = find_npc(state, command.npc)
    line = power_line(npc, command.power)
    if len(set(command.targets)) != len(command.targets):
        raise RuleError("hexxen.duplicate_target", value=command.targets[0])
    most = line.max_targets
    if state.options.edition >= 2 and most is not None and len(command.targets) > most:
        raise RuleError("hexxen.too_many_targets", npc=npc.name, power=line.name, count=most)
    hunters = [find_hunter(state, who) for who in command.targets]
    pools = [hunter_pool(state, h, line.against, None)[1] for h in hunters]
    handlungen = _check_range(state, npc, line, tuple(command.targets))
    _npc_turn(state, npc, handlungen)
    cost = power_cost(npc, line, len(hunters))
    if npc.hex.current < cost:
        raise RuleError("hexxen.not_enough", resource="hex", cost=cost, left=npc.hex.current)
    bonus, malus = modifiers(state, npc.id, command.bonus, command.malus)
    roll = roll_check(dice, line.dice, bonus, malus, gm=True, state=state)
    kind = effect_kind(line.per_difference.effect, state.options.edition)
    if kind not in (None, "lep") and state.options.edition >= 2:
        kind = effect_id(kind, line.per_difference.tag)  # the tag names the condition
    results = []
    for hunter, pool in zip(hunters, pools, strict=True):
        hb, hm = modifiers(state, hunter.id)
        answer = roll_check(dice, pool, hb, hm, gm=False, state=state)
        margin = roll.total - answer.total
        amount = line.per_difference.amount * margin if margin > 0 else 0
        rolled: tuple[int, ...] = ()
        die = line.per_difference.die
        if die is not None and margin > 0:  # the dice's number is the effect on him
            rolled = tuple(dice.roll(6) for _ in range(line.per_difference.amount))
            amount = rules.dice_value(die, rolled)
        elif die is not None:
            amount = 0
        results.append(
            TargetResult(
                hunter=hunter.id,
                roll=answer,
                margin=margin,
                effect=kind if amount else None,
                amount=amount,
                dice=rolled,
            )
        )
    return [
        PowerUsed(
            number=state.checks + 1,
            npc=npc.id,
            power=line.name,
            roll=roll,
            hex=cost,
            results=tuple(results),
            handlungen=handlungen,
        )
    ]


def _hunter_check(state: HexxenState, command: HunterCheck, dice: DiceSource) -> list[Event]:
    hunter = find_hunter(state, command.hunter)
    attr, pool = hunter_pool(state, hunter, command.skill, command.attribute)
    _costs_in_fight(state, hunter.id, command.ap)
    _resources_left(hunter, command.ideen, command.coups)
    bonus, malus = modifiers(state, hunter.id, command.bonus, command.malus)
    roll = roll_check(dice, pool, bonus, malus, gm=False, state=state)
    return [
        CheckRolled(
            number=state.checks + 1,
            hunter=hunter.id,
            skill=command.skill,
            attribute=attr,
            pool=pool,
            roll=roll,
            ap=command.ap,
            ideen=command.ideen,
            coups=command.coups,
        )
    ]


def npc_check_dice(state: HexxenState, npc: Npc, attribute: str | None) -> tuple[str, int]:
    """``(what, dice)`` of an NSC's check: a Bande rolls its fixed pool, an Anführer the
    attribute (``hexxen.npc_no_pool`` / ``hexxen.npc_no_attribute`` when its Wertekasten
    gives none)."""
    if npc.kind is NpcKind.BANDE:
        if npc.pool is None:
            raise RuleError("hexxen.npc_no_pool", npc=npc.name)
        return "pool", npc.pool
    if attribute is None:
        raise RuleError("hexxen.npc_no_attribute", npc=npc.name, value="—")
    if attribute not in npc.attributes:
        raise RuleError("hexxen.npc_no_attribute", npc=npc.name, value=attribute)
    return attribute, npc.attributes[attribute]


def contest_npc_dice(
    state: HexxenState, npc: Npc, given: int | None, attribute: str | None
) -> tuple[str | None, int]:
    """``(what, dice)`` an NSC defends a hunter's comparative check with: the dice given
    (the GM's), else its pool (a Bande) or ``attribute`` (an Anführer; by default the one
    the hunter's check rolls). Edition 1 defended with the strongest attack's dice."""
    if given is not None:
        return None, given
    if state.options.edition < 2:
        return None, max((a.attack for a in npc.attacks), default=0)
    return npc_check_dice(state, npc, attribute)


def _npc_check(state: HexxenState, command: NpcCheck, dice: DiceSource) -> list[Event]:
    npc = find_npc(state, command.npc)
    if npc.kind is NpcKind.BANDE and command.attribute is not None:
        raise RuleError("hexxen.bande_uses_pool", npc=npc.name)
    what, count = npc_check_dice(state, npc, command.attribute)
    hunter = find_hunter(state, command.against) if command.against else None
    if hunter is not None and not command.skill:
        raise RuleError("hexxen.unknown_skill", hunter=hunter.name, value="")
    pool = hunter_pool(state, hunter, command.skill or "", None)[1] if hunter else 0
    if command.handlungen:
        _npc_turn(state, npc, command.handlungen)
    bonus, malus = modifiers(state, npc.id, command.bonus, command.malus)
    roll = roll_check(dice, count, bonus, malus, gm=True, state=state)
    answer = None
    if hunter is not None:
        hb, hm = modifiers(state, hunter.id, command.hunter_bonus, command.hunter_malus)
        answer = roll_check(dice, pool, hb, hm, gm=False, state=state)
    return [
        NpcCheckRolled(
            number=state.checks + 1,
            npc=npc.id,
            attribute=None if what == "pool" else what,
            dice=count,
            roll=roll,
            hunter=hunter.id if hunter else None,
            skill=command.skill if hunter else None,
            hunter_roll=answer,
            margin=roll.total - answer.total if answer else None,
            handlungen=command.handlungen,
        )
    ]


def _contest(state: HexxenState, command: HunterContest, dice: DiceSource) -> list[Event]:
    hunter = find_hunter(state, command.hunter)
    npc = find_npc(state, command.npc)
    attr, pool = hunter_pool(state, hunter, command.skill, command.attribute)
    _costs_in_fight(state, hunter.id, command.ap)
    _resources_left(hunter, command.ideen, command.coups)
    bonus, malus = modifiers(state, hunter.id, command.bonus, command.malus)
    roll = roll_check(dice, pool, bonus, malus, gm=False, state=state)
    nb, nm = modifiers(state, npc.id)
    what, count = contest_npc_dice(state, npc, command.npc_dice, command.npc_attribute or attr)
    npc_roll = roll_check(dice, count, nb, nm, gm=True, state=state)
    return [
        ContestRolled(
            number=state.checks + 1,
            hunter=hunter.id,
            skill=command.skill,
            attribute=attr,
            npc=npc.id,
            roll=roll,
            npc_roll=npc_roll,
            margin=roll.total - npc_roll.total,
            ap=command.ap,
            ideen=command.ideen,
            coups=command.coups,
            npc_attribute=what,
        )
    ]


def _resources_left(hunter: Hunter, ideen: int, coups: int) -> None:
    for name, cost in (("ideen", ideen), ("coups", coups)):
        if cost > getattr(hunter, name):
            raise RuleError(
                "hexxen.not_enough", resource=name, cost=cost, left=getattr(hunter, name)
            )


def _events(state: HexxenState, command: Command, dice: DiceSource) -> list[Event]:
    if isinstance(command, CreateHunter):
        return [HunterCreated(hunter=_create_hunter(state, command))]
    if isinstance(command, CreateNpc):
        if command.id in state.hunters or command.id in state.npcs:
            raise RuleError("hexxen.duplicate_id", value=command.id)
        return [NpcCreated(npc=npc_from_statblock(state, command))]
    if isinstance(command, SetSkill):
        hunter = find_hunter(state, command.hunter)
        attribute = command.attribute or hunter.skill_attributes.get(command.skill)
        if attribute is None:
            raise RuleError("hexxen.skill_needs_attribute", value=command.skill)
        return [
            SkillSet(
                hunter=hunter.id, skill=command.skill, value=command.value, attribute=attribute
            )
        ]
    if isinstance(command, SetBound):
        return [_set_bound(state, command)]
    if isinstance(command, SetModifier):
        find_any(state, command.target)
        return [ModifierSet(target=command.target, bonus=command.bonus, malus=command.malus)]
    if isinstance(command, ApplyEffect):
        kind = effect_id(command.effect, command.tag)
        return [EffectApplied(target=command.target, effect=kind, level=command.level)]
    if isinstance(command, RemoveEffect):
        target = find_any(state, command.target)
        kind = effect_id(command.effect, command.tag)
        if not effects.level_of(state.effects, kind, command.target):
            raise RuleError("hexxen.no_effect", target=target.name, effect=kind)
        return [EffectRemoved(target=command.target, effect=kind)]
    if isinstance(command, ChangeLep):
        return [LepChanged(target=command.target, amount=command.amount)]
    if isinstance(command, ChangeResource):
        return [
            ResourceChanged(hunter=command.hunter, resource=command.resource, delta=command.delta)
        ]
    if isinstance(command, StartFight):
        return _start_fight(state, command, dice)
    if isinstance(command, NextTurn):
        return _next_turn(state, dice)
    if isinstance(command, EndFight):
        if state.encounter is None:
            raise RuleError("hexxen.no_fight", value="")
        refilled: dict[str, int] = {}
        if state.options.edition >= 2:  # after the fight every hunter has his Ap again
            for who in state.budgets:
                fighter = state.hunters.get(who)
                if fighter is not None:
                    paralysis = ongoing(state, who, "paralysis")
                    refilled[who] = rules.round_ap(paralysis, fighter.armour, state.options)
        return [FightEnded(refilled=refilled)]
    if isinstance(command, AddHex):
        npc = find_npc(state, command.npc)
        return [HexGained(npc=npc.id, amount=command.amount)]
    if isinstance(command, NpcCheck):
        return _npc_check(state, command, dice)
    if isinstance(command, HunterCheck):
        return _hunter_check(state, command, dice)
    if isinstance(command, HunterContest):
        return _contest(state, command, dice)
    if isinstance(command, NpcAttack):
        _no_pending(state)
        return _attack(state, command, dice)
    if isinstance(command, DeclareAttack):
        return _declare(state, command)
    if isinstance(command, Defend):
        return _attack(state, attack_of(state, command), dice)
    if isinstance(command, EditHunter):
        return [HunterEdited(hunter=edited_hunter(state, command))]
    if isinstance(command, Place):
        return _place(state, command)
    if isinstance(command, SetMap):
        return _set_map(state, command)
    assert isinstance(command, NpcPower)
    return _power(state, command, dice)


def decide(state: HexxenState, command: Command, dice: DiceSource) -> list[Event]:
    """The events of ``command``; they are applied to a copy, so a rule they break refuses
    the command before anything is recorded."""
    try:
        events = _events(state, command, dice)
    except StatLineError:
        raise
    probe = state
    for event in events:
        probe = evolve(probe, event)
    return events
