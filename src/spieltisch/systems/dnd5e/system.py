"""D&D 5e combat as a :class:`~spieltisch.engine.system.GameSystem`; see ``docs/games/dnd5e.md``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from fractions import Fraction
from typing import Any, TypeGuard

from pydantic import TypeAdapter

from spieltisch.dice.fair import DiceSource
from spieltisch.engine.errors import RuleError
from spieltisch.engine.system import Access, Odds, OddsOutcome, OddsPart, parse_options
from spieltisch.engine.upcast import EventShapes
from spieltisch.engine.visibility import Viewer
from spieltisch.systems.dnd5e import casting, queries
from spieltisch.systems.dnd5e import commands as c
from spieltisch.systems.dnd5e import contact as touching
from spieltisch.systems.dnd5e import decide as deciding
from spieltisch.systems.dnd5e import events as e
from spieltisch.systems.dnd5e import evolve as evolving
from spieltisch.systems.dnd5e import view as viewing
from spieltisch.systems.dnd5e.actions import monster_action
from spieltisch.systems.dnd5e.cover import COVER_BONUS, Cover
from spieltisch.systems.dnd5e.data import SKILLS
from spieltisch.systems.dnd5e.events import EVENTS, Event
from spieltisch.systems.dnd5e.falling import fall_dice
from spieltisch.systems.dnd5e.hitdice import healing_odds
from spieltisch.systems.dnd5e.lasting import dice_pmf
from spieltisch.systems.dnd5e.odds import (
    PartSave,
    attack_damage,
    attack_odds,
    contest_odds,
    dice_sum,
    mean,
    save_odds,
)
from spieltisch.systems.dnd5e.queries import save_action_damage
from spieltisch.systems.dnd5e.rules import Mode
from spieltisch.systems.dnd5e.spells import concentration_dc
from spieltisch.systems.dnd5e.statblock import SaveLine
from spieltisch.systems.dnd5e.state import EDITION, DndOptions, DndState, Fighter, Weapon
from spieltisch.systems.dnd5e.upcast import RULES_VERSION, UPCASTERS

__all__ = ["SYSTEM_ID", "Dnd5e"]

SYSTEM_ID = "dnd5e"


class Dnd5e:
    """The rules of D&D 5e combat (SRD 5.1, CC-BY-4.0)."""

    id = SYSTEM_ID
    commands = c.COMMANDS
    events = EVENTS
    shapes = EventShapes.of(Event, rules=RULES_VERSION, upcasters=UPCASTERS)
    """Versions of the event shapes and rules, and the upcasters (``upcast.py``)."""
    options: TypeAdapter[Any] = TypeAdapter(DndOptions)

    def new_state(self, options: Mapping[str, Any]) -> DndState:
        """An empty table; ``options`` override :class:`DndOptions` (validated)."""
        parsed = parse_options(DndOptions, "dnd5e.bad_option", options)
        return DndState.fresh(parsed)

    def stamp_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """A new table stores the rules edition (the newest unless given), so that a table
        stored before it (without ``edition``) keeps edition 1."""
        return {"edition": EDITION, **options}

    def upgrade_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """Options stored without ``edition`` are a table made before the edition: it keeps
        the rules it was played with (edition 1: each creature named takes a volley spell
        whole)."""
        return {**options, "edition": options.get("edition", 1)}

    def decide(self, state: DndState, command: c.Command, dice: DiceSource) -> list[Event]:
        """The events of ``command`` (see :mod:`.decide`)."""
        return deciding.decide(state, command, dice)

    def evolve(self, state: DndState, event: Event) -> DndState:
        """Apply one event by the rules."""
        return evolving.evolve(state, event)

    def odds(self, state: DndState, command: c.Command) -> Odds | None:
        """An attack's damage distribution (0 = miss, the critical mixed in); a move's one
        certain outcome, its route check (:func:`.decide.preview_move`); a cast's per target;
        damage to a concentrating creature: P(keeping the spell); a Hide: P(hidden); else
        ``None``. A refusal names creatures by their display names, as :meth:`decide` does."""
        try:
            return self._odds(state, command)
        except RuleError as error:
            params = deciding.named_params(state, error.code, dict(error.params))
            raise RuleError(error.code, **params) from None

    def _odds(self, state: DndState, command: c.Command) -> Odds | None:
        if isinstance(command, c.SpendHitDice):
            return _hit_dice_odds(state, command)
        if isinstance(command, c.MonsterAction):
            return _monster_action_odds(state, command)
        if isinstance(command, c.Move):
            return Odds(
                outcomes=[
                    OddsOutcome(
                        value=deciding.preview_move(state, command), probability=1.0, exact="1/1"
                    )
                ]
            )
        if isinstance(command, c.Save):
            fighter = state.fighters.get(command.creature)
            if fighter is None:
                raise RuleError("dnd5e.unknown_creature", creature=command.creature)
            extra = (command.advantage, command.disadvantage)
            mode, fails = queries.save_mode(state, fighter, command.ability, extra)
            boost = dice_pmf(queries.roll_extra(state, fighter.id, "save"))
            p = (
                Fraction(0)
                if fails
                else save_odds(deciding.save_bonus(fighter, command), command.dc, mode, boost)
            )
            return _two(("save", p), ("fail", 1 - p))
        if isinstance(command, c.Check):
            fighter = queries.fighter_of(state, command.creature)
            ability = command.ability or (SKILLS[command.skill] if command.skill else "str")
            if command.bonus is not None:
                bonus = command.bonus
            elif command.skill:
                bonus = fighter.skill_bonus(command.skill, ability)
            else:
                bonus = fighter.modifier(ability)
            extra = (command.advantage, command.disadvantage)
            mode = queries.check_mode(state, fighter, extra, ability=ability, skill=command.skill)
            p = save_odds(bonus + command.modifier, command.dc, mode)
            return _two(("success", p), ("failure", 1 - p))
        if _hides(command):
            return _hide_odds(state, queries.fighter_of(state, command.creature))
        if isinstance(command, c.Grapple | c.Shove | c.Escape):
            plan = deciding.contest_plan(state, command)
            active_skill, passive_skill = plan.active_skill, plan.passive_skill
            p = contest_odds(
                plan.active.skill_bonus(active_skill, SKILLS[active_skill]),
                plan.passive.skill_bonus(passive_skill, SKILLS[passive_skill]),
                queries.check_mode(
                    state,
                    plan.active,
                    (False, False),
                    ability=SKILLS[active_skill],
                    skill=active_skill,
                ),
                queries.check_mode(
                    state,
                    plan.passive,
                    (False, False),
                    ability=SKILLS[passive_skill],
                    skill=passive_skill,
                ),
            )
            return _two(("win", p), ("lose", 1 - p))
        if isinstance(command, c.Trigger):
            found = deciding.readied_attack(state, command.creature)
            if found is None:
                return None
            return _attack_odds(state, *found, (False, False))
        if isinstance(command, c.Cast):
            return _cast_odds(state, command)
        if isinstance(command, c.Shield):
            spell = state.held_spell
            if spell is not None and spell.target == command.creature:
                hits = deciding.shielded_spell_hits(state)[0] > 0 if command.cast else True
                p = Fraction(int(hits))
                return _two(("hit", p), ("miss", 1 - p))
            held = state.held_hit
            if held is None or held.target != command.creature:
                raise RuleError("dnd5e.no_hit_pending", creature=command.creature)
            hits = deciding.shielded_outcome(state) != "miss" if command.cast else True
            p = Fraction(int(hits))
            return _two(("hit", p), ("miss", 1 - p))
        if isinstance(command, c.Damage):
            return _concentration_odds(state, command)
        if isinstance(command, c.Legendary):
            return _legendary_odds(state, command)
        if isinstance(command, c.Fall):
            faller = queries.fighter_of(state, command.creature)
            given = command.height_m
            count = fall_dice(faller.altitude_m if given is None else Decimal(str(given)))
            pmf = dice_sum(count, 6)
            return Odds(
                outcomes=[
                    OddsOutcome(
                        value=k, probability=float(v), exact=f"{v.numerator}/{v.denominator}"
                    )
                    for k, v in pmf.items()
                ],
                mean=float(mean(pmf)),
            )
        if not isinstance(command, c.Attack):
            return None
        attacker = state.fighters.get(command.creature)
        target = state.fighters.get(command.target)
        if attacker is None or target is None:
            raise RuleError(
                "dnd5e.unknown_creature",
                creature=command.creature if attacker is None else command.target,
            )
        weapon = attacker.weapon(command.attack)
        if weapon is None:
            raise RuleError("dnd5e.unknown_attack", creature=attacker.id, attack=command.attack)
        return _attack_odds(
            state,
            attacker,
            target,
            weapon,
            (command.advantage, command.disadvantage),
            command.modifier,
            command.cover,
        )

    def contact(
        self, state: DndState, command: c.Command, events: Sequence[Event]
    ) -> list[Event] | None:
        """A visible move that runs into something hidden on the GM's fold ``state``: cut
        short, then what it touched revealed (see :mod:`.contact`); ``None`` otherwise."""
        return touching.contact(state, command, events)

    def access(self, state: DndState, command: c.Command) -> Access:
        """GM-only commands, and the creature a player's command acts for."""
        if isinstance(command, c.AddCharacter):
            return Access(piece=command.id, claims=True)
        if isinstance(
            command,
            c.Move
            | c.React
            | c.Attack
            | c.TakeAction
            | c.Ready
            | c.BonusAction
            | c.DeathSave
            | c.Grapple
            | c.Shove
            | c.Escape
            | c.Cast
            | c.Shield
            | c.DropConcentration
            | c.SpendHitDice
            | c.MonsterAction,
        ):
            return Access(piece=command.creature)
        if isinstance(command, c.EndTurn):
            if state.legendary.window is not None:  # passing on legendary actions: the GM's
                return Access(gm_only=True)
            current = state.encounter.current if state.encounter else None
            return Access(piece=current) if current else Access(gm_only=True)
        return Access(gm_only=True)

    def automatic_is_heavy(self, state: DndState) -> bool:
        """Never: :meth:`automatic` answers at once (the server asks it in its own thread)."""
        return False

    def automatic(self, state: DndState) -> c.Command | None:
        """Nothing happens by itself at this table."""
        return None

    def view(self, state: DndState, viewer: Viewer) -> dict[str, Any]:
        """What ``viewer`` sees of ``state``."""
        return viewing.view(state, viewer)


def _pmf_odds(pmf: Mapping[int, Fraction]) -> Odds:
    return Odds(
        outcomes=[
            OddsOutcome(value=k, probability=float(v), exact=f"{v.numerator}/{v.denominator}")
            for k, v in sorted(pmf.items())
        ],
        mean=float(mean(dict(pmf))),
    )


def _cast_odds(state: DndState, command: c.Cast) -> Odds | None:
    """A cast's odds before casting, per target (in the caster's or the caller's view): the
    first target's damage (or healing) as the outcomes; under each target's id its damage or
    healing, under ``<id>.hit`` P(hit) and P(miss) of an attack spell, under ``<id>.save``
    P(save) and P(fail) of a save spell. None for a spell with no target or area to roll."""
    plan = casting.cast_plan(state, command)
    if not plan.targets:
        return None
    parts: list[OddsPart] = []
    first: Odds | None = None
    for target in plan.targets:
        found = casting.target_odds(state, plan, target)
        damage = _pmf_odds(found.damage)
        first = first or damage
        parts.append(OddsPart(key=target.id, odds=damage))
        if found.hit is not None:
            parts.append(
                OddsPart(
                    key=f"{target.id}.hit", odds=_two(("hit", found.hit), ("miss", 1 - found.hit))
                )
            )
        if found.save_success is not None:
            p = found.save_success
            parts.append(OddsPart(key=f"{target.id}.save", odds=_two(("save", p), ("fail", 1 - p))))
    assert first is not None
    return first.model_copy(update={"parts": parts})


def _concentration_odds(state: DndState, command: c.Damage) -> Odds | None:
    """Whether a concentrating creature keeps its spell after this damage: P(keep) and
    P(lose) of its Constitution save against DC max(10, half the damage it takes, after
    resistances and temporary hit points); lose for certain when it drops to 0 hit points.
    None when the creature does not concentrate."""
    target = queries.fighter_of(state, command.target)
    if target.id not in state.concentration:
        return None
    after = evolving.evolve(
        state,
        e.Damaged(
            target=target.id, amount=command.amount, type=command.type, critical=command.critical
        ),
    )
    now = after.fighters[target.id]
    lost = (target.hp + target.temp_hp) - (now.hp + now.temp_hp)
    if lost <= 0:
        return _two(("keep", Fraction(1)), ("lose", Fraction(0)))
    if now.hp == 0 or now.dead:
        return _two(("keep", Fraction(0)), ("lose", Fraction(1)))
    mode, fails = queries.save_mode(after, now, "con")
    bonus = casting.save_bonus_of(now, "con")
    boost = dice_pmf(queries.roll_extra(after, now.id, "save"))
    p = Fraction(0) if fails else save_odds(bonus, concentration_dc(lost), mode, boost)
    return _two(("keep", p), ("lose", 1 - p))


def _hides(command: c.Command) -> TypeGuard[c.TakeAction | c.BonusAction]:
    """Whether ``command`` is a Hide: the action, or a bonus action named ``hide``."""
    if isinstance(command, c.TakeAction):
        return command.action == "hide"
    return isinstance(command, c.BonusAction) and command.feature == "hide"


def _hide_odds(state: DndState, fighter: Fighter) -> Odds:
    """P(hidden) and P(seen) of a Hide: the Stealth check (:func:`.decide.roll_check`)
    against the highest passive Perception watching (:func:`.decide.hide_dc`), both on the
    fold handed in: a player's odds count no secret creature."""
    bonus = fighter.skill_bonus("stealth", "dex")
    mode = queries.check_mode(state, fighter, (False, False), ability="dex", skill="stealth")
    p = save_odds(bonus, deciding.hide_dc(state, fighter), mode)
    return _two(("hidden", p), ("seen", 1 - p))


def _hit_dice_odds(state: DndState, command: c.SpendHitDice) -> Odds:
    """The chance of each number of hit points the dice heal (:func:`.hitdice.healing_odds`),
    refused as spending them would be."""
    fighter, dice = deciding.hit_dice_plan(state, command)
    missing = queries.hp_max(state, fighter) - fighter.hp
    odds = healing_odds(command.count, dice.sides, fighter.modifier("con"), missing)
    return Odds(
        outcomes=[
            OddsOutcome(value=v, probability=float(q), exact=f"{q.numerator}/{q.denominator}")
            for v, q in odds.items()
        ]
    )


def _two(*pairs: tuple[str, Fraction]) -> Odds:
    return Odds(
        outcomes=[
            OddsOutcome(value=v, probability=float(q), exact=f"{q.numerator}/{q.denominator}")
            for v, q in pairs
        ]
    )


def _attack_odds(
    state: DndState,
    attacker: Fighter,
    target: Fighter,
    weapon: Weapon,
    extra: tuple[bool, bool],
    modifier: int = 0,
    cover: Cover | None = None,
) -> Odds:
    """The damage distribution of one attack (0 = miss), the mode from every tracked source
    and the GM's ``extra`` advantage or disadvantage, the bonus with a situational
    ``modifier``, the target's AC with its ``cover`` (None: from the map; total cover is
    refused, ``dnd5e.cover.total``)."""
    covered = queries.cover_of(state, attacker, target) if cover is None else cover
    if covered == "total":
        raise RuleError("dnd5e.cover.total", target=target.id)
    mode = queries.attack_mode(state, attacker, target, weapon, extra)
    hit = attack_odds(
        weapon.bonus + modifier,
        queries.armour_class(state, target) + COVER_BONUS[covered],
        Mode(mode),
        extra=dice_pmf(queries.roll_extra(state, attacker.id, "attack")),
    )
    parts = [p.dice for p in weapon.damage]
    mark = queries.marked_dice(state, attacker.id, target.id) if parts else None
    parts += [mark] if mark is not None else []
    saves: list[PartSave | None] = [None] * len(parts)
    rider = weapon.rider
    if rider is not None:
        save_as, fails = queries.save_mode(state, target, rider.ability)
        bonus = target.modifier(rider.ability)
        boost = dice_pmf(queries.save_extra(state, target.id, since=3))
        p = Fraction(0) if fails else save_odds(bonus, rider.dc, save_as, boost)
        parts += [x.dice for x in rider.damage]
        saves += [PartSave(success=p, half=rider.half)] * len(rider.damage)
    pmf = attack_damage(parts, hit, saves)
    return Odds(
        outcomes=[
            OddsOutcome(value=k, probability=float(v), exact=f"{v.numerator}/{v.denominator}")
            for k, v in pmf.items()
        ],
        mean=float(mean(pmf)),
    )


def _monster_action_odds(state: DndState, command: c.MonsterAction) -> Odds:
    """A save action's damage distribution on its first target (the view gives P(save) of
    each creature), refused as taking it would be."""
    fighter, line = deciding.monster_action_plan(state, command)
    target = queries.fighter_of(state, command.targets[0])
    pmf = save_action_damage(state, fighter, target, line)
    return Odds(
        outcomes=[
            OddsOutcome(value=k, probability=float(v), exact=f"{v.numerator}/{v.denominator}")
            for k, v in pmf.items()
        ],
        mean=float(mean(pmf)),
    )


def _legendary_odds(state: DndState, command: c.Legendary) -> Odds | None:
    """A legendary attack's damage distribution; a legendary save's damage distribution on
    its first target (the view gives P(save) of each); ``None`` for a narrated action."""
    fighter, action, after = deciding.legendary_plan(state, command)
    if action.attack is not None:
        weapon = fighter.weapon(action.attack)
        if command.target is None or weapon is None:
            raise RuleError("dnd5e.legendary.needs_target", creature=fighter.id)
        target = queries.fighter_of(after, command.target)
        return _attack_odds(after, fighter, target, weapon, (False, False))
    if action.save is None:
        return None
    line = monster_action(fighter.monster or "", action.save)
    if not isinstance(line, SaveLine) or not command.targets:
        raise RuleError("dnd5e.legendary.needs_target", creature=fighter.id)
    target = queries.fighter_of(after, command.targets[0])
    pmf = save_action_damage(after, fighter, target, line)
    return Odds(
        outcomes=[
            OddsOutcome(value=k, probability=float(v), exact=f"{v.numerator}/{v.denominator}")
            for k, v in pmf.items()
        ],
        mean=float(mean(pmf)),
    )
