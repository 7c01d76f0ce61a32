"""What happens to kitties, foes and checks: lookups, changes and the menus' effects.

Small pure functions over a :class:`KittiesState`, shared by :mod:`.decide` and
:mod:`.evolve`. Errors name only what the caller asked for (an unknown id is the id given),
never something else of the state.
"""

from __future__ import annotations

from collections.abc import Callable

from spieltisch.engine.errors import RuleError
from spieltisch.systems.magical_kitties import rules
from spieltisch.systems.magical_kitties.data import Effect, Target
from spieltisch.systems.magical_kitties.events import OutcomeChosen
from spieltisch.systems.magical_kitties.sheet import Foe, KittiesState, Kitty, LastCheck, Tier

__all__ = [
    "apply_effect",
    "check_range",
    "check_target",
    "check_tier",
    "current_check",
    "foe_of",
    "hurt",
    "kitty_of",
    "last_check_successes",
    "map_kitties",
    "named_check",
    "spend_treat",
    "strike_foe",
    "with_check",
    "with_foe",
    "with_kitty",
    "with_new_check",
]


def kitty_of(state: KittiesState, kitty_id: str) -> Kitty:
    """The kitty ``kitty_id``; the unknown-kitty error names only the id asked for."""
    kitty = state.kitties.get(kitty_id)
    if kitty is None:
        raise RuleError("kitties.unknown_kitty", value=kitty_id)
    return kitty


def foe_of(state: KittiesState, foe_id: str) -> Foe:
    """The foe ``foe_id``; the unknown-foe error names only the id asked for."""
    foe = state.foes.get(foe_id)
    if foe is None:
        raise RuleError("kitties.unknown_foe", value=foe_id)
    return foe


def with_kitty(state: KittiesState, kitty: Kitty) -> KittiesState:
    """``state`` with ``kitty`` put in (by its id)."""
    return state.model_copy(update={"kitties": {**state.kitties, kitty.id: kitty}})


def with_foe(state: KittiesState, foe: Foe) -> KittiesState:
    """``state`` with ``foe`` put in (by its id)."""
    return state.model_copy(update={"foes": {**state.foes, foe.id: foe}})


def map_kitties(state: KittiesState, change: Callable[[Kitty], Kitty]) -> KittiesState:
    """``state`` with ``change`` applied to every kitty."""
    return state.model_copy(update={"kitties": {k: change(v) for k, v in state.kitties.items()}})


def current_check(state: KittiesState) -> LastCheck:
    """The last check (what a reroll, an accepted failure or a menu choice acts on)."""
    if state.last_check is None:
        raise RuleError("kitties.no_check", value=None)
    return state.last_check


def named_check(state: KittiesState, number: int) -> LastCheck:
    """The check an event names by its number: the last check, or an earlier one of the scene.

    An earlier one is found in a table's GM fold: there the GM's hidden check is the last
    one, while the shared fold a player decides on still ends with the player's own check
    (see ``docs/games/magical-kitties.md``, "Hidden checks").
    """
    check = state.last_check
    if check is not None and check.number == number:
        return check
    earlier = state.earlier_checks.get(number)
    if earlier is None:
        raise RuleError("kitties.no_check", value=number)
    return earlier


def with_check(state: KittiesState, check: LastCheck) -> KittiesState:
    """``state`` with ``check`` written back where :func:`named_check` found it."""
    last = state.last_check
    if last is not None and last.number == check.number:
        return state.model_copy(update={"last_check": check})
    earlier = {**state.earlier_checks, check.number: check}
    return state.model_copy(update={"earlier_checks": earlier})


def with_new_check(state: KittiesState, check: LastCheck) -> KittiesState:
    """``state`` with ``check`` as the last check; the one it replaces stays reachable by
    number until the scene ends (a newer check of the same number replaces it for good).

    Edition 2 keeps the ``earlier_checks_kept`` most recently replaced, and none once a check
    numbered at or below the count arrives: only a check decided on the shared fold behind
    the GM's hidden ones is numbered so, and after it no event can name an older one.
    """
    earlier = dict(state.earlier_checks)
    if state.last_check is not None:
        earlier[state.last_check.number] = state.last_check
    earlier.pop(check.number, None)
    if state.options.edition >= 2:
        kept = state.options.earlier_checks_kept
        earlier = {} if check.number <= state.checks else dict(list(earlier.items())[-kept:])
    return state.model_copy(update={"last_check": check, "earlier_checks": earlier})


def last_check_successes(check: LastCheck) -> int:
    """Successes of a check as it stands (after any rerolls)."""
    return rules.count_successes(check.dice, check.difficulty)


def check_tier(check: LastCheck) -> Tier:
    """The tier of a check as it stands."""
    return rules.tier_of(last_check_successes(check))


def spend_treat(kitty: Kitty, free: bool) -> Kitty:
    """``kitty`` after spending a treat (a free one if ``free``); refused without one."""
    if free:
        if kitty.free_treats <= 0:
            raise RuleError("kitties.no_treats", kitty=kitty.name, value=kitty.free_treats)
        return kitty.model_copy(update={"free_treats": kitty.free_treats - 1})
    if kitty.treats <= 0:
        raise RuleError("kitties.no_treats", kitty=kitty.name, value=kitty.treats)
    return kitty.model_copy(update={"treats": kitty.treats - 1})


def hurt(kitty: Kitty, count: int) -> Kitty:
    """``kitty`` after taking ``count`` Auas (past the Aua-Limit they become injuries)."""
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


def check_range(field: str, value: int, low: int, high: int) -> None:
    """Refuse ``value`` outside ``low``..``high`` (naming the field)."""
    if not low <= value <= high:
        raise RuleError("kitties.bad_value", field=field, value=value, low=low, high=high)


def strike_foe(state: KittiesState, check: LastCheck) -> KittiesState:
    """Deal an attack's Aua to its foe when the check (as it stands) succeeded."""
    dealt = 0
    if check.foe is not None and check_tier(check) >= Tier.AT_A_COST:
        foe, dealt = rules.damage_foe(foe_of(state, check.foe), 1)
        state = with_foe(state, foe)
    return with_check(state, check.model_copy(update={"foe_auas": dealt}))


def check_target(
    state: KittiesState, check: LastCheck, target: Target, event: OutcomeChosen
) -> None:
    """Refuse a menu choice whose kitty or foe does not fit the entry's target."""
    wants_kitty = target in (Target.KITTY_OTHER, Target.KITTY_ANY)
    wants_foe = target in (Target.FOE, Target.FOE_OPTIONAL)
    if (event.kitty is not None and not wants_kitty) or (event.foe is not None and not wants_foe):
        raise RuleError("kitties.bad_target", value=event.entry)
    if wants_kitty:
        if event.kitty is None:
            raise RuleError("kitties.needs_kitty", value=event.entry)
        kitty_of(state, event.kitty)
        if target is Target.KITTY_OTHER and event.kitty == check.kitty:
            raise RuleError("kitties.needs_other_kitty", value=event.kitty)
    if target is Target.FOE and event.foe is None:
        raise RuleError("kitties.needs_foe", value=event.entry)
    if event.foe is not None:
        foe_of(state, event.foe)


def apply_effect(
    state: KittiesState, check: LastCheck, effect: Effect, event: OutcomeChosen
) -> KittiesState:
    """The mechanical part of a menu entry (story-only entries change nothing)."""
    own = kitty_of(state, check.kitty)
    match effect:
        case Effect.SELF_AUA:
            return with_kitty(state, hurt(own, 1))
        case Effect.SELF_PENALTY_DIE:
            return with_kitty(state, own.model_copy(update={"penalty_dice": own.penalty_dice + 1}))
        case Effect.OTHER_BONUS_DIE:
            other = kitty_of(state, event.kitty or "")
            return with_kitty(state, other.model_copy(update={"bonus_dice": other.bonus_dice + 1}))
        case Effect.HEAL_AUA:
            target = kitty_of(state, event.kitty or check.kitty)
            if target.auas == 0:
                raise RuleError(
                    "kitties.nothing_to_heal", kitty=target.name, value=rules.what_label("auas")
                )
            return with_kitty(
                state, target.model_copy(update={"auas": rules.heal_auas(target.auas)})
            )
        case Effect.ALL_BONUS_DIE:
            return map_kitties(
                state, lambda k: k.model_copy(update={"bonus_dice": k.bonus_dice + 1})
            )
        case Effect.SELF_HEAL_INJURY:
            if own.injuries == 0:
                raise RuleError(
                    "kitties.nothing_to_heal", kitty=own.name, value=rules.what_label("injuries")
                )
            healed = own.model_copy(update={"injuries": rules.heal_injury(own.injuries)})
            return with_kitty(state, healed)
        case Effect.ALL_HEAL_AUA:
            return map_kitties(
                state, lambda k: k.model_copy(update={"auas": rules.heal_auas(k.auas)})
            )
        case Effect.FOE_AUA:
            foe = foe_of(state, event.foe or "")
            if foe.defeated:
                raise RuleError("kitties.foe_defeated", value=foe.id)
            return with_foe(state, rules.damage_foe(foe, 1)[0])
        case Effect.FREE_TREAT:
            return with_kitty(state, own.model_copy(update={"free_treats": own.free_treats + 1}))
    return state
