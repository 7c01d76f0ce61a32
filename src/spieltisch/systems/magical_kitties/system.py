"""Magical Kitties Save the Day as a :class:`~spieltisch.engine.system.GameSystem`.

``decide`` turns a command into events (rolling the dice a check or reroll needs) and then
applies them to a copy of the state, so every rule is checked in exactly one place:
``evolve``. ``evolve`` recomputes all consequences from the rules, which makes a replayed or
re-folded log (after an undo) derive the same sheets — or refuse when a later event no longer
fits.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

from pydantic import TypeAdapter, ValidationError

from spieltisch.dice.fair import DiceSource
from spieltisch.engine.errors import RuleError
from spieltisch.engine.system import Access, Odds
from spieltisch.engine.visibility import Viewer
from spieltisch.systems.magical_kitties import odds as kitty_odds
from spieltisch.systems.magical_kitties import rules
from spieltisch.systems.magical_kitties.commands import (
    COMMANDS,
    AcceptFailure,
    AddProblem,
    AvoidInjury,
    AwardTreat,
    Check,
    ChooseOutcome,
    Command,
    CreateFoe,
    CreateKitty,
    EditKitty,
    EndEpisode,
    EndScene,
    GiveAua,
    LevelUp,
    Reroll,
    SpendTreat,
    StartEpisode,
    StartScene,
)
from spieltisch.systems.magical_kitties.data import (
    Chooser,
    Effect,
    Target,
    level_lists,
    menu_entry,
    menu_for_tier,
)
from spieltisch.systems.magical_kitties.events import (
    EVENTS,
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
    Foe,
    KittiesOptions,
    KittiesState,
    Kitty,
    LastCheck,
    LevelPick,
    PoolParts,
    Power,
    Problem,
    Tier,
)

__all__ = ["SYSTEM_ID", "MagicalKitties", "check_tier", "last_check_successes", "public_state"]

SYSTEM_ID = "magical-kitties"
"""Registry id of the game."""

MAX_ATTRIBUTE = 4
"""No attribute ever exceeds 4 (the highest level lists' cap)."""


# -- small helpers over the state ----------------------------------------------------------


def _kitty(state: KittiesState, kitty_id: str) -> Kitty:
    kitty = state.kitties.get(kitty_id)
    if kitty is None:
        raise RuleError("kitties.unknown_kitty", value=kitty_id)
    return kitty


def _foe(state: KittiesState, foe_id: str) -> Foe:
    foe = state.foes.get(foe_id)
    if foe is None:
        raise RuleError("kitties.unknown_foe", value=foe_id)
    return foe


def _with_kitty(state: KittiesState, kitty: Kitty) -> KittiesState:
    return state.model_copy(update={"kitties": {**state.kitties, kitty.id: kitty}})


def _with_foe(state: KittiesState, foe: Foe) -> KittiesState:
    return state.model_copy(update={"foes": {**state.foes, foe.id: foe}})


def _map_kitties(state: KittiesState, change: Callable[[Kitty], Kitty]) -> KittiesState:
    return state.model_copy(update={"kitties": {k: change(v) for k, v in state.kitties.items()}})


def _last_check(state: KittiesState, number: int | None = None) -> LastCheck:
    check = state.last_check
    if check is None or (number is not None and check.number != number):
        raise RuleError("kitties.no_check", value=number)
    return check


def last_check_successes(check: LastCheck) -> int:
    """Successes of a check as it stands (after any rerolls)."""
    return rules.count_successes(check.dice, check.difficulty)


def check_tier(check: LastCheck) -> Tier:
    """The tier of a check as it stands."""
    return rules.tier_of(last_check_successes(check))


def _spend_treat(kitty: Kitty, free: bool) -> Kitty:
    if free:
        if kitty.free_treats <= 0:
            raise RuleError("kitties.no_treats", kitty=kitty.id, value=kitty.free_treats)
        return kitty.model_copy(update={"free_treats": kitty.free_treats - 1})
    if kitty.treats <= 0:
        raise RuleError("kitties.no_treats", kitty=kitty.id, value=kitty.treats)
    return kitty.model_copy(update={"treats": kitty.treats - 1})


def _hurt(kitty: Kitty, count: int) -> Kitty:
    auas, injuries = rules.take_auas(kitty.auas, kitty.injuries, kitty.aua_limit, count)
    new = injuries - kitty.injuries
    return kitty.model_copy(
        update={
            "auas": auas,
            "injuries": injuries,
            "injuries_this_scene": kitty.injuries_this_scene + new,
            "avoidable_injuries": kitty.avoidable_injuries + new,
        }
    )


def _require_episode(state: KittiesState) -> None:
    if not state.in_episode:
        raise RuleError("kitties.no_episode", value=state.episode)


def _require_scene(state: KittiesState) -> None:
    if not state.in_scene:
        raise RuleError("kitties.no_scene", value=state.scene)


def _check_problems(problems: tuple[Problem, ...]) -> None:
    seen: set[str] = set()
    for problem in problems:
        rules.check_id(problem.id, "problem")
        rules.check_name(problem.text, "problem")
        if problem.id in seen:
            raise RuleError("kitties.duplicate_id", what="problem", value=problem.id)
        seen.add(problem.id)


def _check_range(field: str, value: int, low: int, high: int) -> None:
    if not low <= value <= high:
        raise RuleError("kitties.bad_value", field=field, value=value, low=low, high=high)


def _pool(state: KittiesState, event: CheckRolled | Check, difficulty: int) -> PoolParts:
    """Validate a check against the state and build its pool (shared by decide and evolve)."""
    _require_scene(state)
    kitty = _kitty(state, event.kitty)
    if kitty.incapacitated:
        raise RuleError(
            "kitties.incapacitated",
            kitty=kitty.id,
            value=kitty.injuries,
            highest=kitty.attributes.highest,
        )
    rules.check_difficulty(difficulty)
    if event.foe is not None:
        foe = _foe(state, event.foe)
        if foe.defeated:
            raise RuleError("kitties.foe_defeated", value=foe.id)
    return rules.pool_parts(
        kitty, event.attribute, event.talent, event.power, event.modifier, state.options
    )


def _difficulty(state: KittiesState, command: Check) -> int:
    if command.difficulty is not None:
        return command.difficulty
    if command.foe is not None:
        return _foe(state, command.foe).difficulty
    return state.options.default_difficulty


def _check_indexes(check: LastCheck, indexes: tuple[int, ...]) -> None:
    if not indexes:
        raise RuleError("kitties.no_dice_chosen", value=list(indexes))
    if len(set(indexes)) != len(indexes):
        raise RuleError("kitties.bad_die_index", value=list(indexes), size=len(check.dice))
    for index in indexes:
        if not 0 <= index < len(check.dice):
            raise RuleError("kitties.bad_die_index", value=index, size=len(check.dice))


def _check_reroll(state: KittiesState, check: LastCheck) -> Kitty:
    if check.accepted or check.outcome is not None:
        raise RuleError("kitties.check_settled", value=check.number)
    return _kitty(state, check.kitty)


# -- the system ----------------------------------------------------------------------------


class MagicalKitties:
    """The rules of Magical Kitties Save the Day; see ``docs/games/magical-kitties.md``."""

    id = SYSTEM_ID
    commands = COMMANDS
    events = EVENTS
    options: TypeAdapter[Any] = TypeAdapter(KittiesOptions)

    # -- contract --------------------------------------------------------------------------

    def new_state(self, options: Mapping[str, Any]) -> KittiesState:
        """An empty table; ``options`` override :class:`KittiesOptions` (validated)."""
        try:
            parsed = KittiesOptions.model_validate(dict(options))
        except ValidationError as error:
            first = error.errors()[0]
            raise RuleError(
                "kitties.bad_option",
                option=".".join(str(p) for p in first["loc"]),
                value=first.get("input"),
            ) from None
        values = parsed.creation_attributes
        if not values or any(not 1 <= v <= MAX_ATTRIBUTE for v in values) or len(values) != 3:
            raise RuleError("kitties.bad_option", option="creation_attributes", value=values)
        if not parsed.xp_per_level or any(v < 1 for v in parsed.xp_per_level):
            raise RuleError("kitties.bad_option", option="xp_per_level", value=parsed.xp_per_level)
        return KittiesState(options=parsed)

    def decide(self, state: KittiesState, command: Command, dice: DiceSource) -> list[Event]:
        """The events of ``command``; every rule is checked by applying them to a copy."""
        events = self._events(state, command, dice)
        trial = state
        for event in events:
            trial = self.evolve(trial, event)
        return events

    def evolve(self, state: KittiesState, event: Event) -> KittiesState:
        """Apply one event by the rules; raises :class:`RuleError` if it does not apply."""
        handler = _EVOLVE[type(event)]
        return handler(state, event)

    def odds(self, state: KittiesState, command: Command) -> Odds | None:
        """Exact tier odds of a check or a reroll; ``None`` for commands that roll nothing."""
        if isinstance(command, Check):
            difficulty = _difficulty(state, command)
            parts = _pool(state, command, difficulty)
            return kitty_odds.as_odds(kitty_odds.successes(parts.total, difficulty))
        if isinstance(command, Reroll):
            check = _last_check(state)
            _check_reroll(state, check)
            _check_indexes(check, command.dice)
            kept = [d for i, d in enumerate(check.dice) if i not in command.dice]
            base = rules.count_successes(kept, check.difficulty)
            fresh = kitty_odds.successes(len(command.dice), check.difficulty)
            shifted = [Fraction(0)] * base + fresh
            return kitty_odds.as_odds(shifted)
        return None

    def reroll_odds(self, state: KittiesState, command: Command) -> Odds | None:
        """Tier odds of a check when the kitty will spend a treat on the reroll strategy.

        Below ``options.reroll_want`` successes every non-success is rerolled once. ``None``
        for anything but a check.
        """
        if not isinstance(command, Check):
            return None
        difficulty = _difficulty(state, command)
        parts = _pool(state, command, difficulty)
        return kitty_odds.as_odds(
            kitty_odds.rerolled_successes(parts.total, difficulty, state.options.reroll_want)
        )

    def access(self, state: KittiesState, command: Command) -> Access:
        """GM-only commands, and the kitty a player's command acts for."""
        if isinstance(command, CreateKitty):
            return Access(piece=command.id, claims=True)
        if isinstance(command, Check | AvoidInjury | SpendTreat | LevelUp):
            return Access(piece=command.kitty)
        if isinstance(command, Reroll | AcceptFailure):
            check = state.last_check
            return Access(piece=check.kitty if check else None)
        if isinstance(command, ChooseOutcome):
            found = menu_entry(command.entry)
            check = state.last_check
            if found is None or check is None or found[0].chooser is Chooser.GM:
                return Access(gm_only=True)
            return Access(piece=check.kitty)
        return Access(gm_only=True)

    def automatic(self, state: KittiesState) -> Command | None:
        """Nothing happens by itself at this table."""
        return None

    def view(self, state: KittiesState, viewer: Viewer) -> dict[str, Any]:
        """JSON-ready data for a client (the format is documented in the game's docs)."""
        return public_state(state)

    # -- commands to events ----------------------------------------------------------------

    def _events(self, state: KittiesState, command: Command, dice: DiceSource) -> list[Event]:
        options = state.options
        match command:
            case CreateKitty():
                kitty = Kitty(
                    id=command.id,
                    name=command.name,
                    attributes=command.attributes,
                    talents=command.talents,
                    powers=command.powers,
                    flaw=command.flaw,
                    human=command.human,
                    treats_value=options.starting_treats,
                    treats=options.starting_treats,
                    aua_limit=options.starting_aua_limit,
                )
                return [KittyCreated(kitty=kitty)]
            case EditKitty():
                return [KittyEdited(kitty=command.kitty, changes=command.changes)]
            case CreateFoe():
                foe = Foe(
                    id=command.id,
                    name=command.name,
                    difficulty=_default_int(command.difficulty, options.foe_difficulty),
                    aua_limit=_default_int(command.aua_limit, options.foe_aua_limit),
                )
                return [FoeCreated(foe=foe)]
            case AddProblem():
                problem = Problem.model_construct(
                    id=command.id, text=command.text, rank=command.rank
                )
                return [ProblemAdded(kitty=command.kitty, problem=problem)]
            case StartEpisode():
                return [
                    EpisodeStarted(
                        episode=state.episode + 1,
                        reset_auas=_default(command.reset_auas, options.episode_reset_auas),
                        reset_injuries=_default(
                            command.reset_injuries, options.episode_reset_injuries
                        ),
                    )
                ]
            case EndEpisode():
                ended = EpisodeEnded(
                    episode=state.episode,
                    saved_the_day=command.saved_the_day,
                    fun=command.fun,
                    lessons=command.lessons,
                    problems=command.problems,
                )
                if state.in_scene:
                    return [SceneEnded(scene=state.scene), ended]
                return [ended]
            case StartScene():
                return [SceneStarted(scene=state.scene + 1)]
            case EndScene():
                return [SceneEnded(scene=state.scene)]
            case Check():
                difficulty = _difficulty(state, command)
                parts = _pool(state, command, difficulty)
                rolled = tuple(dice.roll(6) for _ in range(parts.total))
                return [
                    CheckRolled(
                        check=state.checks + 1,
                        kitty=command.kitty,
                        attribute=command.attribute,
                        talent=command.talent,
                        power=command.power,
                        difficulty=difficulty,
                        foe=command.foe,
                        modifier=command.modifier,
                        dice=rolled,
                    )
                ]
            case Reroll():
                check = _last_check(state)
                kitty = _check_reroll(state, check)
                _check_indexes(check, command.dice)
                free = kitty.free_treats > 0
                _spend_treat(kitty, free)
                values = tuple(dice.roll(6) for _ in command.dice)
                return [
                    DiceRerolled(
                        check=check.number,
                        kitty=check.kitty,
                        indexes=command.dice,
                        values=values,
                        free=free,
                    )
                ]
            case AcceptFailure():
                check = _last_check(state)
                return [FailureAccepted(check=check.number, kitty=check.kitty)]
            case ChooseOutcome():
                return [_choose(state, command)]
            case GiveAua():
                return [AuasTaken(kitty=command.kitty, foe=command.foe, count=command.count)]
            case AvoidInjury():
                free = _kitty(state, command.kitty).free_treats > 0
                return [InjuryAvoided(kitty=command.kitty, free=free)]
            case SpendTreat():
                free = _kitty(state, command.kitty).free_treats > 0
                return [
                    TreatSpent(
                        kitty=command.kitty,
                        purpose=command.purpose,
                        detail=command.detail,
                        free=free,
                    )
                ]
            case AwardTreat():
                return [TreatAwarded(kitty=command.kitty, reason=command.reason)]
            case LevelUp():
                kitty = _kitty(state, command.kitty)
                return [
                    LeveledUp(
                        kitty=command.kitty,
                        level=kitty.level + 1,
                        list=command.list,
                        entry=command.entry,
                        attribute=command.attribute,
                        power=command.power,
                        name=command.name,
                    )
                ]
        raise RuleError("rule.bad_command", system=SYSTEM_ID, detail=repr(command))


def _default(value: bool | None, default: bool) -> bool:
    return default if value is None else value


def _default_int(value: int | None, default: int) -> int:
    return default if value is None else value


def _choose(state: KittiesState, command: ChooseOutcome) -> OutcomeChosen:
    """Fill in the default target of a menu choice (the rolling kitty, the attacked foe)."""
    check = _last_check(state)
    found = menu_entry(command.entry)
    if found is None:
        raise RuleError("kitties.unknown_entry", value=command.entry)
    entry = found[1]
    kitty, foe = command.kitty, command.foe
    if entry.target is Target.KITTY_ANY and kitty is None:
        kitty = check.kitty
    if entry.target is Target.FOE and foe is None:
        foe = check.foe
    return OutcomeChosen(check=check.number, entry=command.entry, kitty=kitty, foe=foe)


# -- evolve, one handler per event ---------------------------------------------------------


def _kitty_created(state: KittiesState, event: KittyCreated) -> KittiesState:
    kitty = event.kitty
    rules.check_id(kitty.id, "kitty")
    if kitty.id in state.kitties:
        raise RuleError("kitties.duplicate_id", what="kitty", value=kitty.id)
    rules.check_name(kitty.name, "kitty")
    rules.validate_creation(
        kitty.attributes, kitty.talents, kitty.powers, kitty.flaw, state.options
    )
    _check_problems(kitty.human.problems)
    if kitty.human.name:
        rules.check_name(kitty.human.name, "human")
    if state.in_episode:
        kitty = kitty.model_copy(update={"treats": kitty.treats_value})
    return _with_kitty(state, kitty)


def _kitty_edited(state: KittiesState, event: KittyEdited) -> KittiesState:
    kitty = _kitty(state, event.kitty)
    changes = event.changes.model_dump(exclude_none=True)
    if not changes:
        raise RuleError("kitties.nothing_to_edit", value=event.kitty)
    edit = event.changes
    for field in ("name", "flaw"):
        value = getattr(edit, field)
        if value is not None:
            rules.check_name(value, field)
    for talent in edit.talents or ():
        rules.check_name(talent, "talent")
    for power in edit.powers or ():
        rules.check_name(power.name, "power")
    if edit.human is not None:
        _check_problems(edit.human.problems)
    if edit.attributes is not None:
        for attribute_name in ("cute", "cunning", "fierce"):
            _check_range(attribute_name, getattr(edit.attributes, attribute_name), 1, MAX_ATTRIBUTE)
    updated = kitty.model_copy(update=changes)
    for field in ("treats_value", "treats", "aua_limit", "injuries", "xp"):
        _check_range(field, getattr(updated, field), 0, 99)
    _check_range("auas", updated.auas, 0, updated.aua_limit)
    # Model-level values (attributes, powers, human) were dumped to dicts: re-validate.
    return _with_kitty(state, Kitty.model_validate(updated.model_dump()))


def _foe_created(state: KittiesState, event: FoeCreated) -> KittiesState:
    foe = event.foe
    rules.check_id(foe.id, "foe")
    if foe.id in state.foes:
        raise RuleError("kitties.duplicate_id", what="foe", value=foe.id)
    rules.check_name(foe.name, "foe")
    rules.check_difficulty(foe.difficulty)
    _check_range("aua_limit", foe.aua_limit, 1, 20)
    _check_range("auas", foe.auas, 0, 0)
    return _with_foe(state, foe)


def _problem_added(state: KittiesState, event: ProblemAdded) -> KittiesState:
    problem = event.problem
    _check_range("rank", problem.rank, 1, 99)
    problem = Problem.model_validate(problem.model_dump())
    if event.kitty is None:
        _check_problems((*state.hometown, problem))
        return state.model_copy(update={"hometown": (*state.hometown, problem)})
    kitty = _kitty(state, event.kitty)
    problems = (*kitty.human.problems, problem)
    _check_problems(problems)
    human = kitty.human.model_copy(update={"problems": problems})
    return _with_kitty(state, kitty.model_copy(update={"human": human}))


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
            "injuries_this_scene": 0,
            "avoidable_injuries": 0,
        }
        if event.reset_auas:
            update["auas"] = 0
        if event.reset_injuries:
            update["injuries"] = 0
        return kitty.model_copy(update=update)

    state = _map_kitties(state, refresh)
    return state.model_copy(
        update={
            "episode": event.episode,
            "in_episode": True,
            "scene": 0,
            "in_scene": False,
            "last_check": None,
        }
    )


def _episode_ended(state: KittiesState, event: EpisodeEnded) -> KittiesState:
    _require_episode(state)
    if state.in_scene:
        raise RuleError("kitties.scene_open", value=state.scene)
    if event.episode != state.episode:
        raise RuleError("kitties.out_of_order", value=event.episode, expected=state.episode)
    for kitty_id in event.lessons:
        _kitty(state, kitty_id)
    options = state.options

    def award(kitty: Kitty) -> Kitty:
        gained = rules.episode_xp(
            kitty, event.saved_the_day, event.fun, kitty.id in event.lessons, options
        )
        return kitty.model_copy(update={"xp": kitty.xp + gained, "failures": 0})

    state = _map_kitties(state, award)
    for change in event.problems:
        state = _change_problem(state, change.kitty, change.problem, change.change)
    return state.model_copy(update={"in_episode": False, "last_check": None})


def _change_problem(
    state: KittiesState, kitty_id: str | None, problem_id: str, change: int
) -> KittiesState:
    problems = state.hometown if kitty_id is None else _kitty(state, kitty_id).human.problems
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
    kitty = _kitty(state, kitty_id)
    human = kitty.human.model_copy(update={"problems": tuple(updated)})
    return _with_kitty(state, kitty.model_copy(update={"human": human}))


def _scene_started(state: KittiesState, event: SceneStarted) -> KittiesState:
    _require_episode(state)
    if state.in_scene:
        raise RuleError("kitties.scene_open", value=state.scene)
    if event.scene != state.scene + 1:
        raise RuleError("kitties.out_of_order", value=event.scene, expected=state.scene + 1)
    state = _map_kitties(
        state,
        lambda k: k.model_copy(
            update={"power_bonus_used": False, "injuries_this_scene": 0, "avoidable_injuries": 0}
        ),
    )
    return state.model_copy(update={"scene": event.scene, "in_scene": True, "last_check": None})


def _scene_ended(state: KittiesState, event: SceneEnded) -> KittiesState:
    _require_scene(state)
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

    state = _map_kitties(state, close)
    return state.model_copy(update={"in_scene": False, "last_check": None})


def _check_rolled(state: KittiesState, event: CheckRolled) -> KittiesState:
    # Checks are numbered in the fold that decided them: a visible check after the GM's hidden
    # one takes the shared fold's next number, which the GM's fold has already used.
    if not 1 <= event.check <= state.checks + 1:
        raise RuleError("kitties.out_of_order", value=event.check, expected=state.checks + 1)
    parts = _pool(state, event, event.difficulty)
    if len(event.dice) != parts.total or any(not 1 <= d <= 6 for d in event.dice):
        raise RuleError("kitties.dice_mismatch", value=list(event.dice), pool=parts.total)
    kitty = _kitty(state, event.kitty)
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
    state = _with_kitty(state, kitty)
    state = _strike_foe(state, check)
    return state.model_copy(update={"checks": max(state.checks, event.check)})


def _strike_foe(state: KittiesState, check: LastCheck) -> KittiesState:
    """Deal an attack's Aua to its foe when the check (as it stands) succeeded."""
    dealt = 0
    if check.foe is not None and check_tier(check) >= Tier.AT_A_COST:
        foe, dealt = rules.damage_foe(_foe(state, check.foe), 1)
        state = _with_foe(state, foe)
    return state.model_copy(update={"last_check": check.model_copy(update={"foe_auas": dealt})})


def _dice_rerolled(state: KittiesState, event: DiceRerolled) -> KittiesState:
    check = _last_check(state, event.check)
    kitty = _check_reroll(state, check)
    _check_indexes(check, event.indexes)
    if len(event.values) != len(event.indexes) or any(not 1 <= v <= 6 for v in event.values):
        raise RuleError("kitties.dice_mismatch", value=list(event.values), pool=len(event.indexes))
    state = _with_kitty(state, _spend_treat(kitty, event.free))
    if check.foe is not None and check.foe_auas:
        # Take back the Aua of the first roll; the new dice decide again.
        foe = _foe(state, check.foe)
        state = _with_foe(state, foe.model_copy(update={"auas": foe.auas - check.foe_auas}))
    dice = list(check.dice)
    for index, value in zip(event.indexes, event.values, strict=True):
        dice[index] = value
    check = check.model_copy(update={"dice": tuple(dice), "rerolls": check.rerolls + 1})
    return _strike_foe(state, check)


def _failure_accepted(state: KittiesState, event: FailureAccepted) -> KittiesState:
    check = _last_check(state, event.check)
    if check_tier(check) is not Tier.FAILURE:
        raise RuleError("kitties.not_a_failure", value=last_check_successes(check))
    if check.accepted:
        raise RuleError("kitties.check_settled", value=check.number)
    kitty = _kitty(state, check.kitty)
    if check.rerolls == 0:
        kitty = kitty.model_copy(update={"failures": kitty.failures + 1})
    state = _with_kitty(state, kitty)
    return state.model_copy(update={"last_check": check.model_copy(update={"accepted": True})})


def _outcome_chosen(state: KittiesState, event: OutcomeChosen) -> KittiesState:
    check = _last_check(state, event.check)
    found = menu_entry(event.entry)
    if found is None:
        raise RuleError("kitties.unknown_entry", value=event.entry)
    menu, entry = found
    tier = check_tier(check)
    if int(tier) not in menu.tiers:
        raise RuleError("kitties.entry_not_for_tier", value=event.entry, tier=int(tier))
    if check.outcome is not None:
        raise RuleError("kitties.outcome_chosen", value=check.outcome)
    _check_target(state, check, entry.target, event)
    state = _apply_effect(state, check, entry.effect, event)
    last = state.last_check or check
    return state.model_copy(update={"last_check": last.model_copy(update={"outcome": event.entry})})


def _check_target(
    state: KittiesState, check: LastCheck, target: Target, event: OutcomeChosen
) -> None:
    wants_kitty = target in (Target.KITTY_OTHER, Target.KITTY_ANY)
    wants_foe = target in (Target.FOE, Target.FOE_OPTIONAL)
    if (event.kitty is not None and not wants_kitty) or (event.foe is not None and not wants_foe):
        raise RuleError("kitties.bad_target", value=event.entry)
    if wants_kitty:
        if event.kitty is None:
            raise RuleError("kitties.needs_kitty", value=event.entry)
        _kitty(state, event.kitty)
        if target is Target.KITTY_OTHER and event.kitty == check.kitty:
            raise RuleError("kitties.needs_other_kitty", value=event.kitty)
    if target is Target.FOE and event.foe is None:
        raise RuleError("kitties.needs_foe", value=event.entry)
    if event.foe is not None:
        _foe(state, event.foe)


def _apply_effect(
    state: KittiesState, check: LastCheck, effect: Effect, event: OutcomeChosen
) -> KittiesState:
    """The mechanical part of a menu entry (story-only entries change nothing)."""
    own = _kitty(state, check.kitty)
    match effect:
        case Effect.SELF_AUA:
            return _with_kitty(state, _hurt(own, 1))
        case Effect.SELF_PENALTY_DIE:
            return _with_kitty(state, own.model_copy(update={"penalty_dice": own.penalty_dice + 1}))
        case Effect.OTHER_BONUS_DIE:
            other = _kitty(state, event.kitty or "")
            return _with_kitty(state, other.model_copy(update={"bonus_dice": other.bonus_dice + 1}))
        case Effect.HEAL_AUA:
            target = _kitty(state, event.kitty or check.kitty)
            if target.auas == 0:
                raise RuleError("kitties.nothing_to_heal", kitty=target.id, value="auas")
            return _with_kitty(
                state, target.model_copy(update={"auas": rules.heal_auas(target.auas)})
            )
        case Effect.ALL_BONUS_DIE:
            return _map_kitties(
                state, lambda k: k.model_copy(update={"bonus_dice": k.bonus_dice + 1})
            )
        case Effect.SELF_HEAL_INJURY:
            if own.injuries == 0:
                raise RuleError("kitties.nothing_to_heal", kitty=own.id, value="injuries")
            healed = own.model_copy(update={"injuries": rules.heal_injury(own.injuries)})
            return _with_kitty(state, healed)
        case Effect.ALL_HEAL_AUA:
            return _map_kitties(
                state, lambda k: k.model_copy(update={"auas": rules.heal_auas(k.auas)})
            )
        case Effect.FOE_AUA:
            foe = _foe(state, event.foe or "")
            if foe.defeated:
                raise RuleError("kitties.foe_defeated", value=foe.id)
            return _with_foe(state, rules.damage_foe(foe, 1)[0])
        case Effect.FREE_TREAT:
            return _with_kitty(state, own.model_copy(update={"free_treats": own.free_treats + 1}))
    return state


def _auas_taken(state: KittiesState, event: AuasTaken) -> KittiesState:
    if (event.kitty is None) == (event.foe is None):
        raise RuleError("kitties.bad_target", value="give_aua")
    _check_range("count", event.count, 1, 10)
    if event.kitty is not None:
        return _with_kitty(state, _hurt(_kitty(state, event.kitty), event.count))
    foe = _foe(state, event.foe or "")
    if foe.defeated:
        raise RuleError("kitties.foe_defeated", value=foe.id)
    return _with_foe(state, rules.damage_foe(foe, event.count)[0])


def _injury_avoided(state: KittiesState, event: InjuryAvoided) -> KittiesState:
    kitty = _kitty(state, event.kitty)
    if kitty.avoidable_injuries <= 0:
        raise RuleError("kitties.no_fresh_injury", value=kitty.id)
    kitty = _spend_treat(kitty, event.free)
    kitty = kitty.model_copy(
        update={
            "injuries": kitty.injuries - 1,
            "injuries_this_scene": max(kitty.injuries_this_scene - 1, 0),
            "avoidable_injuries": kitty.avoidable_injuries - 1,
        }
    )
    return _with_kitty(state, kitty)


def _treat_spent(state: KittiesState, event: TreatSpent) -> KittiesState:
    kitty = _kitty(state, event.kitty)
    rules.check_name(event.detail, "detail")
    return _with_kitty(state, _spend_treat(kitty, event.free))


def _treat_awarded(state: KittiesState, event: TreatAwarded) -> KittiesState:
    kitty = _kitty(state, event.kitty)
    if event.reason:
        rules.check_name(event.reason, "reason")
    return _with_kitty(state, kitty.model_copy(update={"treats": kitty.treats + 1}))


def _leveled_up(state: KittiesState, event: LeveledUp) -> KittiesState:
    kitty = _kitty(state, event.kitty)
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
    return _with_kitty(state, kitty.model_copy(update=update))


_EVOLVE: dict[type[Any], Callable[[KittiesState, Any], KittiesState]] = {
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


# -- public state --------------------------------------------------------------------------


def _kitty_public(kitty: Kitty, options: KittiesOptions) -> dict[str, Any]:
    data = kitty.model_dump(mode="json")
    needed = rules.xp_needed(kitty.level, options)
    data["incapacitated"] = kitty.incapacitated
    data["highest_attribute"] = kitty.attributes.highest
    data["xp_needed"] = needed
    data["can_level_up"] = needed is not None and kitty.xp >= needed
    data["level_lists"] = [
        {
            "id": level_list.id,
            "entries": [
                entry.id
                for entry in level_list.entries
                if not any(p.list == level_list.id and p.entry == entry.id for p in kitty.picks)
            ],
        }
        for level_list in level_lists()
        if level_list.min_level <= kitty.level + 1
    ]
    return data


def _check_public(state: KittiesState, check: LastCheck) -> dict[str, Any]:
    data = check.model_dump(mode="json")
    tier = check_tier(check)
    menu = menu_for_tier(int(tier))
    settled = check.accepted or check.outcome is not None
    kitty = state.kitties.get(check.kitty)
    data["pool"] = check.parts.total
    data["successes"] = last_check_successes(check)
    data["hits"] = [die >= check.difficulty for die in check.dice]
    data["tier"] = int(tier)
    data["menu"] = None
    if menu is not None:
        data["menu"] = {
            "id": menu.id,
            "chooser": menu.chooser.value,
            "open": check.outcome is None,
            "entries": [{"id": e.id, "target": e.target.value} for e in menu.entries],
        }
    data["can_reroll"] = (
        not settled and kitty is not None and (kitty.treats > 0 or kitty.free_treats > 0)
    )
    data["can_accept"] = tier is Tier.FAILURE and not check.accepted
    return data


def public_state(state: KittiesState) -> dict[str, Any]:
    """The table as JSON-ready data; see the "Public state" section of the game's docs."""
    options = state.options
    return {
        "system": SYSTEM_ID,
        "options": options.model_dump(mode="json"),
        "episode": {"number": state.episode, "running": state.in_episode},
        "scene": {"number": state.scene, "running": state.in_scene},
        "kitties": [_kitty_public(k, options) for k in state.kitties.values()],
        "foes": [
            {**foe.model_dump(mode="json"), "defeated": foe.defeated} for foe in state.foes.values()
        ],
        "hometown": [p.model_dump(mode="json") for p in state.hometown],
        "checks": state.checks,
        "last_check": (
            None if state.last_check is None else _check_public(state, state.last_check)
        ),
    }
