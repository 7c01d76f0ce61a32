"""Commands to events: what a command does, with the dice it rolls.

:func:`decide` builds a command's events and applies them to a copy of the state, so every
rule is checked in one place (:mod:`.evolve`). A command that names a kitty, a foe, a problem
or the last check finds it in the state it is decided on; at a table a player's commands are
decided on the shared fold, so an id only the GM's hidden records know is unknown there, with
exactly the error of an id nobody made.
"""

from __future__ import annotations

from spieltisch.dice.fair import DiceSource
from spieltisch.engine.errors import RuleError
from spieltisch.systems.magical_kitties.commands import (
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
    KittyChanges,
    LevelUp,
    Reroll,
    SpendTreat,
    StartEpisode,
    StartScene,
)
from spieltisch.systems.magical_kitties.data import Target, menu_entry
from spieltisch.systems.magical_kitties.effects import current_check, foe_of, kitty_of, spend_treat
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
from spieltisch.systems.magical_kitties.evolve import check_indexes, check_reroll, evolve, pool_of
from spieltisch.systems.magical_kitties.sheet import Foe, KittiesState, Kitty, Problem

__all__ = ["SYSTEM_ID", "decide", "difficulty_of", "events_of"]

SYSTEM_ID = "magical-kitties"
"""Registry id of the game."""


def decide(state: KittiesState, command: Command, dice: DiceSource) -> list[Event]:
    """The events of ``command``; every rule is checked by applying them to a copy."""
    events = events_of(state, command, dice)
    trial = state
    for event in events:
        trial = evolve(trial, event)
    return events


def difficulty_of(state: KittiesState, command: Check) -> int:
    """A check's difficulty: as given, else the foe's, else the table default."""
    if command.difficulty is not None:
        return command.difficulty
    if command.foe is not None:
        return foe_of(state, command.foe).difficulty
    return state.options.default_difficulty


def events_of(state: KittiesState, command: Command, dice: DiceSource) -> list[Event]:
    """The events of ``command`` in ``state``, rolling what it needs (not yet checked)."""
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
            return [
                KittyEdited(
                    kitty=command.kitty, changes=command.changes, before=_before(state, command)
                )
            ]
        case CreateFoe():
            foe = Foe(
                id=command.id,
                name=command.name,
                difficulty=_default_int(command.difficulty, options.foe_difficulty),
                aua_limit=_default_int(command.aua_limit, options.foe_aua_limit),
            )
            return [FoeCreated(foe=foe)]
        case AddProblem():
            problem = Problem.model_construct(id=command.id, text=command.text, rank=command.rank)
            return [ProblemAdded(kitty=command.kitty, problem=problem)]
        case StartEpisode():
            return [
                EpisodeStarted(
                    episode=state.episode + 1,
                    reset_auas=_default(command.reset_auas, options.episode_reset_auas),
                    reset_injuries=_default(command.reset_injuries, options.episode_reset_injuries),
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
            difficulty = difficulty_of(state, command)
            parts = pool_of(state, command, difficulty)
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
            check = current_check(state)
            kitty = check_reroll(state, check)
            check_indexes(check, command.dice)
            free = kitty.free_treats > 0
            spend_treat(kitty, free)
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
            check = current_check(state)
            return [FailureAccepted(check=check.number, kitty=check.kitty)]
        case ChooseOutcome():
            return [_choose(state, command)]
        case GiveAua():
            return [AuasTaken(kitty=command.kitty, foe=command.foe, count=command.count)]
        case AvoidInjury():
            free = kitty_of(state, command.kitty).free_treats > 0
            return [InjuryAvoided(kitty=command.kitty, free=free)]
        case SpendTreat():
            free = kitty_of(state, command.kitty).free_treats > 0
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
            kitty = kitty_of(state, command.kitty)
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
    check = current_check(state)
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


def _before(state: KittiesState, command: EditKitty) -> KittyChanges:
    """The fields a correction names, as the sheet has them now (nothing for an unknown kitty)."""
    kitty = state.kitties.get(command.kitty)
    if kitty is None:
        return KittyChanges()
    named = command.changes.model_dump(exclude_none=True)
    return KittyChanges.model_validate({field: getattr(kitty, field) for field in named})
