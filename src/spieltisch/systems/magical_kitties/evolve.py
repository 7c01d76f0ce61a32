"""Events to states: one handler per event, every rule of the game checked here.

``evolve`` recomputes all consequences from the rules, so a replayed or re-folded log (after
an undo) derives the same sheets, or is refused when a later event no longer fits. The
checks of a state that :mod:`.decide` and the odds share (is there a scene, the pool of a
check, the dice chosen for a reroll) live here too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from spieltisch.engine.errors import RuleError
from spieltisch.systems.magical_kitties import rules
from spieltisch.systems.magical_kitties.commands import Check
from spieltisch.systems.magical_kitties.data import menu_entry
from spieltisch.systems.magical_kitties.effects import (
    apply_effect,
    check_range,
    check_target,
    check_tier,
    foe_of,
    hurt,
    kitty_of,
    last_check_successes,
    map_kitties,
    named_check,
    spend_treat,
    strike_foe,
    with_check,
    with_foe,
    with_kitty,
    with_new_check,
)
from spieltisch.systems.magical_kitties.events import (
    AuasTaken,
    CheckRolled,
    DiceRerolled,
    EpisodeEnded,
    EpisodeStarted,
    Event,
    FailureAccepted,
    FoeCreated,
    InjuryAvoided,
    KittyCreated,
    KittyEdited,
    LeveledUp,
    OutcomeChosen,
    ProblemAdded,
    SceneEnded,
    SceneStarted,
    TreatAwarded,
    TreatSpent,
)
from spieltisch.systems.magical_kitties.sheet import (
    KittiesState,
    Kitty,
    LastCheck,
    LevelPick,
    PoolParts,
    Power,
    Problem,
    Tier,
)

__all__ = [
    "HANDLERS",
    "MAX_ATTRIBUTE",
    "check_indexes",
    "check_problems",
    "check_reroll",
    "evolve",
    "pool_of",
    "require_episode",
    "require_scene",
]

MAX_ATTRIBUTE = 4
"""No attribute ever exceeds 4 (the highest level lists' cap)."""

_NO_CHECK: dict[str, Any] = {"last_check": None, "earlier_checks": {}}
"""A scene or episode boundary: no check can be acted on any more."""


def evolve(state: KittiesState, event: Event) -> KittiesState:
    """Apply one event by the rules; raises :class:`RuleError` if it does not apply."""
    return HANDLERS[type(event)](state, event)


def require_episode(state: KittiesState) -> None:
    """Refuse outside an episode."""
    if not state.in_episode:
        raise RuleError("kitties.no_episode", value=state.episode)


def require_scene(state: KittiesState) -> None:
    """Refuse outside a scene."""
    if not state.in_scene:
        raise RuleError("kitties.no_scene", value=state.scene)


def check_problems(problems: tuple[Problem, ...]) -> None:
    """Refuse bad problem ids or texts, and an id used twice."""
    seen: set[str] = set()
    for problem in problems:
        rules.check_id(problem.id, "problem")
        rules.check_name(problem.text, "problem")
        if problem.id in seen:
            raise RuleError(
                "kitties.duplicate_id", what=rules.what_label("problem"), value=problem.id
            )
        seen.add(problem.id)


def pool_of(state: KittiesState, event: CheckRolled | Check, difficulty: int) -> PoolParts:
    """Validate a check against the state and build its pool (shared by decide and evolve)."""
    require_scene(state)
    kitty = kitty_of(state, event.kitty)
    if kitty.incapacitated:
        raise RuleError(
            "kitties.incapacitated",
            kitty=kitty.name,
            value=kitty.injuries,
            highest=kitty.attributes.highest,
        )
    rules.check_difficulty(difficulty)
    if event.foe is not None:
        foe = foe_of(state, event.foe)
        if foe.defeated:
            raise RuleError("kitties.foe_defeated", value=foe.id)
    return rules.pool_parts(
        kitty, event.attribute, event.talent, event.power, event.modifier, state.options
    )


def check_indexes(check: LastCheck, indexes: tuple[int, ...]) -> None:
    """Refuse an empty, repeated or out-of-range choice of dice to reroll."""
    if not indexes:
        raise RuleError("kitties.no_dice_chosen", value=list(indexes))
    if len(set(indexes)) != len(indexes):
        raise RuleError("kitties.bad_die_index", value=list(indexes), size=len(check.dice))
    for index in indexes:
        if not 0 <= index < len(check.dice):
            raise RuleError("kitties.bad_die_index", value=index, size=len(check.dice))


def check_reroll(state: KittiesState, check: LastCheck) -> Kitty:
    """The kitty that may reroll ``check``; refused once the check is settled."""
    if check.accepted or check.outcome is not None:
        raise RuleError("kitties.check_settled", value=check.number)
    return kitty_of(state, check.kitty)


# -- one handler per event -----------------------------------------------------------------


def _kitty_created(state: KittiesState, event: KittyCreated) -> KittiesState:
    kitty = event.kitty
    rules.check_id(kitty.id, "kitty")
    if kitty.id in state.kitties:
        raise RuleError("kitties.duplicate_id", what=rules.what_label("kitty"), value=kitty.id)
    rules.check_name(kitty.name, "kitty")
    rules.validate_creation(
        kitty.attributes, kitty.talents, kitty.powers, kitty.flaw, state.options
    )
    check_problems(kitty.human.problems)
    if kitty.human.name:
        rules.check_name(kitty.human.name, "human")
    if state.in_episode:
        kitty = kitty.model_copy(update={"treats": kitty.treats_value})
    return with_kitty(state, kitty)


def _kitty_edited(state: KittiesState, event: KittyEdited) -> KittiesState:
    kitty = kitty_of(state, event.kitty)
    edit = event.changes
    changes = {
        name: getattr(edit, name)
        for name in type(edit).model_fields
        if getattr(edit, name) is not None
    }
    if not changes:
        raise RuleError("kitties.nothing_to_edit", value=event.kitty)
    for field in ("name", "flaw"):
        value = getattr(edit, field)
        if value is not None:
            rules.check_name(value, field)
    for talent in edit.talents or ():
        rules.check_name(talent, "talent")
    for power in edit.powers or ():
        rules.check_name(power.name, "power")
    if edit.human is not None:
        check_problems(edit.human.problems)
    if edit.attributes is not None:
        for attribute_name in ("cute", "cunning", "fierce"):
            check_range(attribute_name, getattr(edit.attributes, attribute_name), 1, MAX_ATTRIBUTE)
    updated = kitty.model_copy(update=changes)
    for field in ("treats_value", "treats", "aua_limit", "injuries", "xp"):
        check_range(field, getattr(updated, field), 0, 99)
    check_range("auas", updated.auas, 0, updated.aua_limit)
    # Model-level values (attributes, powers, human) were dumped to dicts: re-validate.
    return with_kitty(state, Kitty.model_validate(updated.model_dump()))


def _foe_created(state: KittiesState, event: FoeCreated) -> KittiesState:
    foe = event.foe
    rules.check_id(foe.id, "foe")
    if foe.id in state.foes:
        raise RuleError("kitties.duplicate_id", what=rules.what_label("foe"), value=foe.id)
    rules.check_name(foe.name, "foe")
    rules.check_difficulty(foe.difficulty)
    check_range("aua_limit", foe.aua_limit, 1, 20)
    check_range("auas", foe.auas, 0, 0)
    return with_foe(state, foe)


def _problem_added(state: KittiesState, event: ProblemAdded) -> KittiesState:
    problem = event.problem
    check_range("rank", problem.rank, 1, 99)
    problem = Problem.model_validate(problem.model_dump())
    if event.kitty is None:
        check_problems((*state.hometown, problem))
        return state.model_copy(update={"hometown": (*state.hometown, problem)})
    kitty = kitty_of(state, event.kitty)
    problems = (*kitty.human.problems, problem)
    check_problems(problems)
    human = kitty.human.model_copy(update={"problems": problems})
    return with_kitty(state, kitty.model_copy(update={"human": human}))


def _episode_started(state: KittiesState, event: EpisodeStarted) -> KittiesState:
    if state.in_episode:
        raise RuleError("kitties.episode_open", value=state.episode)
    if event.episode != state.episode + 1:
        raise RuleError("kitties.out_of_order", value=event.episode, expected=state.episode + 1)

    def refresh(kitty: Kitty) -> Kitty:
        update: dict[str, Any] = {
            "treats": kitty.treats_value,
            "free_treats": 0,
            "failures": 0,
            "bonus_dice": 0,
            "penalty_dice": 0,
            "power_bonus_used": False,
        }
        if event.reset_auas:
            update["auas"] = 0
        if event.reset_injuries:
            # Nothing is left to heal or to avoid. Kept injuries taken outside a scene stay
            # marked: they belong to the coming scene (see _scene_started).
            update.update(injuries=0, injuries_this_scene=0, avoidable_injuries=0)
        return kitty.model_copy(update=update)

    state = map_kitties(state, refresh)
    return state.model_copy(
        update={
            "episode": event.episode,
            "in_episode": True,
            "scene": 0,
            "in_scene": False,
            **_NO_CHECK,
        }
    )


def _episode_ended(state: KittiesState, event: EpisodeEnded) -> KittiesState:
    require_episode(state)
    if state.in_scene:
        raise RuleError("kitties.scene_open", value=state.scene)
    if event.episode != state.episode:
        raise RuleError("kitties.out_of_order", value=event.episode, expected=state.episode)
    for kitty_id in event.lessons:
        kitty_of(state, kitty_id)
    options = state.options

    def award(kitty: Kitty) -> Kitty:
        gained = rules.episode_xp(
            kitty, event.saved_the_day, event.fun, kitty.id in event.lessons, options
        )
        return kitty.model_copy(update={"xp": kitty.xp + gained, "failures": 0})

    state = map_kitties(state, award)
    for change in event.problems:
        state = _change_problem(state, change.kitty, change.problem, change.change)
    return state.model_copy(update={"in_episode": False, **_NO_CHECK})


def _change_problem(
    state: KittiesState, kitty_id: str | None, problem_id: str, change: int
) -> KittiesState:
    problems = state.hometown if kitty_id is None else kitty_of(state, kitty_id).human.problems
    if problem_id not in {p.id for p in problems}:
        raise RuleError("kitties.unknown_problem", value=problem_id, owner=kitty_id or "hometown")
    updated: list[Problem] = []
    for problem in problems:
        if problem.id == problem_id:
            rank = rules.change_rank(problem.rank, change)
            if rank == 0:
                continue  # solved: struck from the sheet
            problem = problem.model_copy(update={"rank": rank})
        updated.append(problem)
    if kitty_id is None:
        return state.model_copy(update={"hometown": tuple(updated)})
    kitty = kitty_of(state, kitty_id)
    human = kitty.human.model_copy(update={"problems": tuple(updated)})
    return with_kitty(state, kitty.model_copy(update={"human": human}))


def _scene_started(state: KittiesState, event: SceneStarted) -> KittiesState:
    require_episode(state)
    if state.in_scene:
        raise RuleError("kitties.scene_open", value=state.scene)
    if event.scene != state.scene + 1:
        raise RuleError("kitties.out_of_order", value=event.scene, expected=state.scene + 1)
    # The markers of injuries are not cleared here: every scene end clears them, so what is
    # marked now was taken while no scene ran, and that time counts as part of this scene.
    # Its end heals one injury, and the kitty can still avoid the fresh ones.
    state = map_kitties(state, lambda k: k.model_copy(update={"power_bonus_used": False}))
    return state.model_copy(update={"scene": event.scene, "in_scene": True, **_NO_CHECK})


def _scene_ended(state: KittiesState, event: SceneEnded) -> KittiesState:
    require_scene(state)
    if event.scene != state.scene:
        raise RuleError("kitties.out_of_order", value=event.scene, expected=state.scene)

    def close(kitty: Kitty) -> Kitty:
        injuries = kitty.injuries
        if kitty.injuries_this_scene > 0:
            injuries = rules.heal_injury(injuries)
        return kitty.model_copy(
            update={
                "injuries": injuries,
                "power_bonus_used": False,
                "injuries_this_scene": 0,
                "avoidable_injuries": 0,
            }
        )

    state = map_kitties(state, close)
    return state.model_copy(update={"in_scene": False, **_NO_CHECK})


def _check_rolled(state: KittiesState, event: CheckRolled) -> KittiesState:
    # Checks are numbered in the fold that decided them: a visible check after the GM's hidden
    # one takes the shared fold's next number, which the GM's fold has already used.
    if not 1 <= event.check <= state.checks + 1:
        raise RuleError("kitties.out_of_order", value=event.check, expected=state.checks + 1)
    parts = pool_of(state, event, event.difficulty)
    if len(event.dice) != parts.total or any(not 1 <= d <= 6 for d in event.dice):
        raise RuleError("kitties.dice_mismatch", value=list(event.dice), pool=parts.total)
    kitty = kitty_of(state, event.kitty)
    kitty = kitty.model_copy(
        update={
            "bonus_dice": 0,
            "penalty_dice": 0,
            "power_bonus_used": kitty.power_bonus_used or event.power is not None,
            "avoidable_injuries": 0,
        }
    )
    check = LastCheck(
        number=event.check,
        kitty=event.kitty,
        attribute=event.attribute,
        talent=event.talent,
        power=event.power,
        difficulty=event.difficulty,
        foe=event.foe,
        parts=parts,
        dice=event.dice,
    )
    state = with_new_check(with_kitty(state, kitty), check)
    state = strike_foe(state, check)
    return state.model_copy(update={"checks": max(state.checks, event.check)})


def _dice_rerolled(state: KittiesState, event: DiceRerolled) -> KittiesState:
    check = named_check(state, event.check)
    kitty = check_reroll(state, check)
    check_indexes(check, event.indexes)
    if len(event.values) != len(event.indexes) or any(not 1 <= v <= 6 for v in event.values):
        raise RuleError("kitties.dice_mismatch", value=list(event.values), pool=len(event.indexes))
    state = with_kitty(state, spend_treat(kitty, event.free))
    if check.foe is not None and check.foe_auas:
        # Take back the Aua of the first roll; the new dice decide again.
        foe = foe_of(state, check.foe)
        state = with_foe(state, foe.model_copy(update={"auas": foe.auas - check.foe_auas}))
    dice = list(check.dice)
    for index, value in zip(event.indexes, event.values, strict=True):
        dice[index] = value
    check = check.model_copy(update={"dice": tuple(dice), "rerolls": check.rerolls + 1})
    return strike_foe(state, check)


def _failure_accepted(state: KittiesState, event: FailureAccepted) -> KittiesState:
    check = named_check(state, event.check)
    if check_tier(check) is not Tier.FAILURE:
        raise RuleError("kitties.not_a_failure", value=last_check_successes(check))
    if check.accepted:
        raise RuleError("kitties.check_settled", value=check.number)
    kitty = kitty_of(state, check.kitty)
    if check.rerolls == 0:
        kitty = kitty.model_copy(update={"failures": kitty.failures + 1})
    state = with_kitty(state, kitty)
    return with_check(state, check.model_copy(update={"accepted": True}))


def _outcome_chosen(state: KittiesState, event: OutcomeChosen) -> KittiesState:
    check = named_check(state, event.check)
    found = menu_entry(event.entry)
    if found is None:
        raise RuleError("kitties.unknown_entry", value=event.entry)
    menu, entry = found
    tier = check_tier(check)
    if int(tier) not in menu.tiers:
        raise RuleError("kitties.entry_not_for_tier", value=event.entry, tier=int(tier))
    if check.outcome is not None:
        raise RuleError("kitties.outcome_chosen", value=check.outcome)
    check_target(state, check, entry.target, event)
    state = apply_effect(state, check, entry.effect, event)
    return with_check(state, check.model_copy(update={"outcome": event.entry}))


def _auas_taken(state: KittiesState, event: AuasTaken) -> KittiesState:
    if (event.kitty is None) == (event.foe is None):
        raise RuleError("kitties.bad_target", value="give_aua")
    check_range("count", event.count, 1, 10)
    if event.kitty is not None:
        return with_kitty(state, hurt(kitty_of(state, event.kitty), event.count))
    foe = foe_of(state, event.foe or "")
    if foe.defeated:
        raise RuleError("kitties.foe_defeated", value=foe.id)
    return with_foe(state, rules.damage_foe(foe, event.count)[0])


def _injury_avoided(state: KittiesState, event: InjuryAvoided) -> KittiesState:
    kitty = kitty_of(state, event.kitty)
    if kitty.avoidable_injuries <= 0:
        raise RuleError("kitties.no_fresh_injury", value=kitty.id)
    kitty = spend_treat(kitty, event.free)
    kitty = kitty.model_copy(
        update={
            "injuries": kitty.injuries - 1,
            "injuries_this_scene": max(kitty.injuries_this_scene - 1, 0),
            "avoidable_injuries": kitty.avoidable_injuries - 1,
        }
    )
    return with_kitty(state, kitty)


def _treat_spent(state: KittiesState, event: TreatSpent) -> KittiesState:
    kitty = kitty_of(state, event.kitty)
    rules.check_name(event.detail, "detail")
    return with_kitty(state, spend_treat(kitty, event.free))


def _treat_awarded(state: KittiesState, event: TreatAwarded) -> KittiesState:
    kitty = kitty_of(state, event.kitty)
    if event.reason:
        rules.check_name(event.reason, "reason")
    return with_kitty(state, kitty.model_copy(update={"treats": kitty.treats + 1}))


def _leveled_up(state: KittiesState, event: LeveledUp) -> KittiesState:
    kitty = kitty_of(state, event.kitty)
    options = state.options
    if event.level != kitty.level + 1:
        raise RuleError("kitties.out_of_order", value=event.level, expected=kitty.level + 1)
    rules.validate_level_up(
        kitty, event.list, event.entry, event.attribute, event.power, event.name, options
    )
    needed = rules.xp_needed(kitty.level, options) or 0
    update: dict[str, Any] = {
        "level": event.level,
        "xp": kitty.xp - needed if options.xp_carry_over else 0,
    }
    detail: str | None = event.name
    match event.entry:
        case "attribute":
            assert event.attribute is not None  # checked by validate_level_up
            value = kitty.attributes.get(event.attribute) + 1
            update["attributes"] = kitty.attributes.with_value(event.attribute, value)
            detail = event.attribute.value
        case "bonus_feature":
            name = rules.check_name(event.name or "", "feature")
            update["powers"] = tuple(
                p.model_copy(update={"features": (*p.features, name)})
                if p.name.casefold() == (event.power or "").casefold()
                else p
                for p in kitty.powers
            )
            detail = f"{event.power}: {name}"
        case "aua_limit":
            update["aua_limit"] = kitty.aua_limit + 1
        case "treats":
            update["treats_value"] = kitty.treats_value + 1
        case "talent":
            update["talents"] = (*kitty.talents, rules.check_name(event.name or "", "talent"))
        case "power":
            update["powers"] = (
                *kitty.powers,
                Power(name=rules.check_name(event.name or "", "power")),
            )
    pick = LevelPick(level=event.level, list=event.list, entry=event.entry, detail=detail)
    update["picks"] = (*kitty.picks, pick)
    return with_kitty(state, kitty.model_copy(update=update))


HANDLERS: dict[type[Any], Callable[[KittiesState, Any], KittiesState]] = {
    KittyCreated: _kitty_created,
    KittyEdited: _kitty_edited,
    FoeCreated: _foe_created,
    ProblemAdded: _problem_added,
    EpisodeStarted: _episode_started,
    EpisodeEnded: _episode_ended,
    SceneStarted: _scene_started,
    SceneEnded: _scene_ended,
    CheckRolled: _check_rolled,
    DiceRerolled: _dice_rerolled,
    FailureAccepted: _failure_accepted,
    OutcomeChosen: _outcome_chosen,
    AuasTaken: _auas_taken,
    InjuryAvoided: _injury_avoided,
    TreatSpent: _treat_spent,
    TreatAwarded: _treat_awarded,
    LeveledUp: _leveled_up,
}
