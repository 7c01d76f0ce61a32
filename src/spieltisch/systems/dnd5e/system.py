"""D&D 5e combat as a :class:`~spieltisch.engine.system.GameSystem`; see ``docs/games/dnd5e.md``."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from pydantic import TypeAdapter

from spieltisch.dice.fair import DiceSource
from spieltisch.engine.errors import RuleError
from spieltisch.engine.system import Access, Odds, OddsOutcome, parse_options
from spieltisch.engine.upcast import EventShapes
from spieltisch.engine.visibility import Viewer
from spieltisch.systems.dnd5e import commands as c
from spieltisch.systems.dnd5e import decide as deciding
from spieltisch.systems.dnd5e import evolve as evolving
from spieltisch.systems.dnd5e import queries
from spieltisch.systems.dnd5e import view as viewing
from spieltisch.systems.dnd5e.events import EVENTS, Event
from spieltisch.systems.dnd5e.odds import attack_damage, attack_odds, mean, save_odds
from spieltisch.systems.dnd5e.rules import Mode
from spieltisch.systems.dnd5e.state import DndOptions, DndState, Fighter, Weapon
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

    def decide(self, state: DndState, command: c.Command, dice: DiceSource) -> list[Event]:
        """The events of ``command`` (see :mod:`.decide`)."""
        return deciding.decide(state, command, dice)

    def evolve(self, state: DndState, event: Event) -> DndState:
        """Apply one event by the rules."""
        return evolving.evolve(state, event)

    def odds(self, state: DndState, command: c.Command) -> Odds | None:
        """An attack's damage distribution (0 = miss, the critical mixed in); a move's one
        certain outcome, its route check (:func:`.decide.preview_move`); else ``None``."""
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
            mode, fails = queries.save_mode(state, fighter, command.ability)
            p = (
                Fraction(0)
                if fails
                else save_odds(deciding.save_bonus(fighter, command), command.dc, mode)
            )
            return Odds(
                outcomes=[
                    OddsOutcome(
                        value=v, probability=float(q), exact=f"{q.numerator}/{q.denominator}"
                    )
                    for v, q in (("save", p), ("fail", 1 - p))
                ]
            )
        if isinstance(command, c.Trigger):
            found = deciding.readied_attack(state, command.creature)
            if found is None:
                return None
            return _attack_odds(state, *found, (False, False))
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
            state, attacker, target, weapon, (command.advantage, command.disadvantage)
        )

    def access(self, state: DndState, command: c.Command) -> Access:
        """GM-only commands, and the creature a player's command acts for."""
        if isinstance(command, c.AddCharacter):
            return Access(piece=command.id, claims=True)
        if isinstance(
            command,
            c.Move | c.React | c.Attack | c.TakeAction | c.Ready | c.BonusAction | c.DeathSave,
        ):
            return Access(piece=command.creature)
        if isinstance(command, c.EndTurn):
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


def _attack_odds(
    state: DndState, attacker: Fighter, target: Fighter, weapon: Weapon, extra: tuple[bool, bool]
) -> Odds:
    """The damage distribution of one attack (0 = miss), the mode from every tracked source."""
    mode = queries.attack_mode(state, attacker, target, weapon, extra)
    hit = attack_odds(weapon.bonus, target.ac, Mode(mode))
    pmf = attack_damage([p.dice for p in weapon.damage], hit)
    return Odds(
        outcomes=[
            OddsOutcome(value=k, probability=float(v), exact=f"{v.numerator}/{v.denominator}")
            for k, v in pmf.items()
        ],
        mean=float(mean(pmf)),
    )
