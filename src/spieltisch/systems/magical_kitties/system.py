"""Magical Kitties Save the Day as a :class:`~spieltisch.engine.system.GameSystem`.

This class wires the parts together: :mod:`.decide` (commands to events), :mod:`.evolve`
(events to states, where every rule is checked), :mod:`.effects` (lookups and changes they
share), :mod:`.view` (what a viewer sees) and :mod:`.odds` (exact odds).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from pydantic import TypeAdapter

from spieltisch.dice.fair import DiceSource
from spieltisch.engine.errors import RuleError
from spieltisch.engine.system import Access, Odds, parse_options
from spieltisch.engine.upcast import EventShapes
from spieltisch.engine.visibility import Viewer
from spieltisch.systems.magical_kitties import decide as deciding
from spieltisch.systems.magical_kitties import evolve as evolving
from spieltisch.systems.magical_kitties import odds as kitty_odds
from spieltisch.systems.magical_kitties import rules
from spieltisch.systems.magical_kitties import view as viewing
from spieltisch.systems.magical_kitties.commands import (
    COMMANDS,
    AcceptFailure,
    AvoidInjury,
    Check,
    ChooseOutcome,
    Command,
    CreateKitty,
    LevelUp,
    Reroll,
    SpendTreat,
)
from spieltisch.systems.magical_kitties.data import Chooser, menu_entry
from spieltisch.systems.magical_kitties.decide import SYSTEM_ID, difficulty_of
from spieltisch.systems.magical_kitties.effects import (
    check_tier,
    current_check,
    last_check_successes,
)
from spieltisch.systems.magical_kitties.events import EVENTS, Event
from spieltisch.systems.magical_kitties.evolve import (
    MAX_ATTRIBUTE,
    check_indexes,
    check_reroll,
    pool_of,
)
from spieltisch.systems.magical_kitties.sheet import KittiesOptions, KittiesState
from spieltisch.systems.magical_kitties.upcast import RULES_VERSION, UPCASTERS
from spieltisch.systems.magical_kitties.view import public_state

__all__ = ["SYSTEM_ID", "MagicalKitties", "check_tier", "last_check_successes", "public_state"]


class MagicalKitties:
    """The rules of Magical Kitties Save the Day; see ``docs/games/magical-kitties.md``."""

    id = SYSTEM_ID
    meta: dict[str, Any] = {"players": {"min": 1, "max": 6}, "gm": True}  # noqa: RUF012
    """Player counts and whether a GM runs the table, for the start page."""
    commands = COMMANDS
    events = EVENTS
    shapes = EventShapes.of(Event, rules=RULES_VERSION, upcasters=UPCASTERS)
    """Versions of the event shapes and rules, and the upcasters (``upcast.py``)."""
    options: TypeAdapter[Any] = TypeAdapter(KittiesOptions)

    def new_state(self, options: Mapping[str, Any]) -> KittiesState:
        """An empty table; ``options`` override :class:`KittiesOptions` (validated)."""
        parsed = parse_options(KittiesOptions, "kitties.bad_option", options)
        values = parsed.creation_attributes
        if not values or any(not 1 <= v <= MAX_ATTRIBUTE for v in values) or len(values) != 3:
            raise RuleError("kitties.bad_option", option="creation_attributes", value=values)
        if not parsed.xp_per_level or any(v < 1 for v in parsed.xp_per_level):
            raise RuleError("kitties.bad_option", option="xp_per_level", value=parsed.xp_per_level)
        return KittiesState(options=parsed)

    def stamp_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """A new table stores its rules edition (2 unless given), so that its options are
        never taken for those of a table made before the edition existed."""
        return {"edition": 2, **options}

    def upgrade_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """Options stored without ``edition`` are a table made before: edition 1, which keeps
        every replaced check of a scene, so its log folds as it was played."""
        if "edition" in options:
            return dict(options)
        return {**options, "edition": 1}

    def decide(self, state: KittiesState, command: Command, dice: DiceSource) -> list[Event]:
        """The events of ``command``; every rule is checked by applying them to a copy."""
        return deciding.decide(state, command, dice)

    def evolve(self, state: KittiesState, event: Event) -> KittiesState:
        """Apply one event by the rules; raises :class:`RuleError` if it does not apply."""
        return evolving.evolve(state, event)

    def odds(self, state: KittiesState, command: Command) -> Odds | None:
        """Exact tier odds of a check or a reroll; ``None`` for commands that roll nothing.

        Computed on the state given (at a table: the caller's), with the errors ``decide``
        would give there.
        """
        if isinstance(command, Check):
            difficulty = difficulty_of(state, command)
            parts = pool_of(state, command, difficulty)
            return kitty_odds.as_odds(kitty_odds.successes(parts.total, difficulty))
        if isinstance(command, Reroll):
            check = current_check(state)
            check_reroll(state, check)
            check_indexes(check, command.dice)
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
        difficulty = difficulty_of(state, command)
        parts = pool_of(state, command, difficulty)
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

    def automatic_is_heavy(self, state: KittiesState) -> bool:
        """Never: :meth:`automatic` answers at once (the server asks it in its own thread)."""
        return False

    def automatic(self, state: KittiesState) -> Command | None:
        """Nothing happens by itself at this table."""
        return None

    def view(self, state: KittiesState, viewer: Viewer) -> dict[str, Any]:
        """What ``viewer`` sees of ``state`` (see :mod:`.view`)."""
        return viewing.view(state, viewer)
