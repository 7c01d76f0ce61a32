"""Kreiswanderer as a :class:`~spieltisch.engine.system.GameSystem`.

The parts: :mod:`.sheet` (state models), :mod:`.rules` (pure rule functions),
:mod:`.commands`, :mod:`.events`, :mod:`.decide`, :mod:`.evolve`, :mod:`.view` and
:mod:`.odds`; see ``docs/games/kreiswanderer.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import TypeAdapter

from spieltisch.dice.fair import DiceSource
from spieltisch.engine.errors import RuleError
from spieltisch.engine.system import Access, Odds, parse_options
from spieltisch.engine.upcast import EventShapes
from spieltisch.engine.visibility import Viewer
from spieltisch.systems.kreiswanderer import decide as deciding
from spieltisch.systems.kreiswanderer import odds as kodds
from spieltisch.systems.kreiswanderer import view as viewing
from spieltisch.systems.kreiswanderer.commands import (
    COMMANDS,
    AccumulateAbandon,
    AccumulateRoll,
    AccumulateStart,
    AdjustTrack,
    Attack,
    CombinedCheck,
    Command,
    Comparative,
    CreateBeing,
    DealDamage,
    EndCombat,
    EndTurn,
    Heal,
    JoinFight,
    LeaveFight,
    SetCatalogue,
    StartCombat,
)
from spieltisch.systems.kreiswanderer.commands import (
    Check as CheckCommand,
)
from spieltisch.systems.kreiswanderer.decide import SYSTEM_ID
from spieltisch.systems.kreiswanderer.events import EVENTS, Event
from spieltisch.systems.kreiswanderer.evolve import being_of, evolve
from spieltisch.systems.kreiswanderer.sheet import EDITION, KreisOptions, KreisState
from spieltisch.systems.kreiswanderer.upcast import RULES_VERSION, UPCASTERS

__all__ = ["SYSTEM_ID", "Kreiswanderer"]


class Kreiswanderer:
    """The base rules of Kreiswanderer; see ``docs/games/kreiswanderer.md``."""

    id = SYSTEM_ID
    commands = COMMANDS
    events = EVENTS
    shapes = EventShapes.of(Event, rules=RULES_VERSION, upcasters=UPCASTERS)
    """Versions of the event shapes and rules, and the upcasters (``upcast.py``)."""
    options: TypeAdapter[Any] = TypeAdapter(KreisOptions)

    def new_state(self, options: Mapping[str, Any]) -> KreisState:
        """An empty table; ``options`` override :class:`KreisOptions` (validated)."""
        parsed = parse_options(KreisOptions, "kreiswanderer.bad_option", options)
        if parsed.agility not in parsed.attributes:
            raise RuleError("kreiswanderer.bad_option", option="agility", value=parsed.agility)
        return KreisState(options=parsed)

    def stamp_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """The options a new table is stored with: the current edition of the rules unless
        given (a table stored without ``edition`` keeps the first edition's rules)."""
        return {"edition": EDITION, **options}

    def decide(self, state: KreisState, command: Command, dice: DiceSource) -> list[Event]:
        """The events of ``command`` (see :mod:`.decide`)."""
        return deciding.decide(state, command, dice)

    def evolve(self, state: KreisState, event: Event) -> KreisState:
        """Apply one event (see :mod:`.evolve`)."""
        return evolve(state, event)

    def odds(self, state: KreisState, command: Command) -> Odds | None:
        """Exact odds of a check (signed margins), an attack (damage), a comparative check
        (winner) or an accumulated check's next roll (reaching its goal with it)."""
        if isinstance(command, CheckCommand):
            value, target = deciding.check_value(state, command)
            found = kodds.check_odds(value, target)
            chances = {o["quality"]: o["probability"] for o in found["outcomes"]}
            return kodds.as_odds(chances)
        if isinstance(command, CombinedCheck):
            value, target = deciding.combined_value(state, command)
            found = kodds.check_odds(value, target)
            return kodds.as_odds({o["quality"]: o["probability"] for o in found["outcomes"]})
        if isinstance(command, Attack):
            plan = deciding.attack_plan(
                state,
                command.being,
                command.target,
                command.weapon,
                command.modifier,
                command.tools,
            )
            return kodds.as_odds(
                kodds.attack_odds(
                    plan.value,
                    plan.target,
                    plan.weapon.damage_bonus,
                    plan.resistance,
                    plan.protection,
                    plan.extra_damage,
                )
            )
        if isinstance(command, Comparative):
            a, p = deciding.comparative_values(state, command)
            found = kodds.comparative_odds(a, p, state.options.tie_goes_to)
            truncated = found.pop("truncated")
            return kodds.as_odds(found, truncated)
        if isinstance(command, AccumulateRoll):
            acc = state.accumulations.get(command.id)
            if acc is None or not acc.open:
                raise RuleError("kreiswanderer.unknown_accumulation", value=command.id)
            goal = acc.quality if acc.quality is not None else 0
            rolls = 1 if acc.rolls is None else acc.rolls - acc.done_rolls
            reach = kodds.accumulated_within(
                acc.talent_value,
                acc.target - acc.total,
                goal,
                rolls,
                state.options.accumulation,
                acc.done_rolls,
            )[-1]
            return kodds.as_odds({"reach": reach})
        return None

    def access(self, state: KreisState, command: Command) -> Access:
        """GM-only commands, and the being a player's command acts for."""
        if isinstance(command, CreateBeing):
            return Access(piece=command.id, claims=True)
        if isinstance(
            command,
            StartCombat | EndCombat | AdjustTrack | JoinFight | DealDamage | Heal | SetCatalogue,
        ):
            return Access(gm_only=True)
        if isinstance(command, LeaveFight) and command.how == "remove":
            return Access(gm_only=True)
        if isinstance(command, EndTurn):
            fight = state.fight
            current = None if fight is None or fight.encounter is None else fight.encounter.current
            return Access(piece=current) if current else Access(gm_only=True)
        if isinstance(command, AccumulateRoll | AccumulateAbandon):
            acc = state.accumulations.get(command.id)
            return Access(piece=acc.being) if acc else Access(gm_only=True)
        if isinstance(command, AccumulateStart):
            return Access(piece=command.being)
        being = getattr(command, "being", None)
        if isinstance(being, str):
            return Access(piece=being)
        return Access(gm_only=True)

    def automatic_is_heavy(self, state: KreisState) -> bool:
        """Never: :meth:`automatic` answers at once (the server asks it in its own thread)."""
        return False

    def automatic(self, state: KreisState) -> Command | None:
        """Nothing happens by itself at this table."""
        return None

    def view(self, state: KreisState, viewer: Viewer) -> dict[str, Any]:
        """What ``viewer`` sees of ``state`` (see :mod:`.view`)."""
        return viewing.view(state, viewer)

    def being(self, state: KreisState, being_id: str) -> Any:
        """A being of ``state`` (for tools)."""
        return being_of(state, being_id)
