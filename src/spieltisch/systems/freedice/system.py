"""Commands, events, state and rules of the ``free-dice`` system."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictStr, TypeAdapter

from spieltisch.dice.dice import roll
from spieltisch.dice.errors import DiceError, LimitError
from spieltisch.dice.fair import DiceSource
from spieltisch.dice.notation import Expression, parse
from spieltisch.dice.odds import distribution
from spieltisch.engine.errors import RuleError
from spieltisch.engine.system import Access, Odds, OddsOutcome
from spieltisch.engine.text import text_rule
from spieltisch.engine.visibility import Viewer

__all__ = [
    "COMMANDS",
    "EVENTS",
    "EXACT_ODDS_DICE",
    "SYSTEM_ID",
    "DieFace",
    "FreeDice",
    "FreeDiceState",
    "Roll",
    "Rolled",
]

SYSTEM_ID = "free-dice"

EXACT_ODDS_DICE = 100
"""Odds carry exact fractions for expressions of at most this many dice."""

SymbolCounts = dict[str, int]


class Roll(BaseModel):
    """Command: roll ``expression`` (any notation), optionally with a label."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Literal["roll"] = "roll"
    expression: Annotated[StrictStr, Field(max_length=500), text_rule(500)]
    label: Annotated[StrictStr, Field(max_length=100), text_rule(100)] | None = None


class DieFace(BaseModel):
    """One die of a roll as logged: which die, the face shown, kept and exploded flags."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    die: str
    face: int | SymbolCounts
    kept: bool = True
    exploded: bool = False


class Rolled(BaseModel):
    """Event: an expression was rolled; carries every die face."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Literal["rolled"] = "rolled"
    expression: str
    """The expression in canonical notation."""
    label: str | None = None
    result: int | SymbolCounts
    dice: tuple[DieFace, ...] = ()


class FreeDiceState(BaseModel):
    """The state of a free-dice table: every roll so far, in order."""

    model_config = ConfigDict(frozen=True)

    rolls: tuple[Rolled, ...] = ()


COMMANDS: TypeAdapter[Roll] = TypeAdapter(Roll)
"""Parses and dumps the system's commands (only ``roll``)."""

EVENTS: TypeAdapter[Rolled] = TypeAdapter(Rolled)
"""Parses and dumps the system's events (only ``rolled``)."""


def _expression(text: str) -> Expression:
    try:
        return parse(text)
    except DiceError as error:
        raise RuleError(error.code, **error.params) from None


class FreeDiceOptions(BaseModel):
    """The free-dice system has no table options."""

    model_config = ConfigDict(extra="forbid")


class FreeDice:
    """Roll any notation; no rules beyond the notation's own limits."""

    id = SYSTEM_ID
    commands = COMMANDS
    events = EVENTS
    options: TypeAdapter[Any] = TypeAdapter(FreeDiceOptions)

    def new_state(self, options: Mapping[str, Any]) -> FreeDiceState:
        """An empty table (the system has no options; unknown ones are refused)."""
        if options:
            raise RuleError("rule.bad_command", system=SYSTEM_ID, detail=", ".join(options))
        return FreeDiceState()

    def decide(self, state: FreeDiceState, command: Roll, dice: DiceSource) -> list[Rolled]:
        """Roll the expression; bad notation raises :class:`RuleError` with the dice code."""
        node = _expression(command.expression)
        try:
            result = roll(node, dice)
        except DiceError as error:
            raise RuleError(error.code, **error.params) from None
        faces = tuple(DieFace.model_validate(die.to_json()) for die in result.dice)
        return [
            Rolled(
                expression=result.expression,
                label=command.label,
                result=result.to_json()["result"],
                dice=faces,
            )
        ]

    def evolve(self, state: FreeDiceState, event: Rolled) -> FreeDiceState:
        """Append the roll to the log of rolls."""
        return FreeDiceState(rolls=(*state.rolls, event))

    def odds(self, state: FreeDiceState, command: Roll) -> Odds | None:
        """The exact distribution of the expression (fractions for up to 100 dice)."""
        node = _expression(command.expression)
        try:
            dist = distribution(node)
        except DiceError as error:
            raise RuleError(error.code, **error.params) from None
        exact: dict[str, Fraction] = {}
        if node.dice_count <= EXACT_ODDS_DICE:
            try:
                exact = {repr(v): f for v, f in dist.exact()}
            except LimitError:
                exact = {}  # the probabilities stand without fractions
        outcomes = []
        for value, probability in dist.outcomes():
            fraction = exact.get(repr(value))
            outcomes.append(
                OddsOutcome(
                    value=value,
                    probability=probability,
                    exact=f"{fraction.numerator}/{fraction.denominator}" if fraction else None,
                )
            )
        return Odds(outcomes=outcomes, mean=dist.mean, truncated=dist.truncated)

    def access(self, state: FreeDiceState, command: Roll) -> Access:
        """Anyone at the table may roll."""
        return Access()

    def automatic(self, state: FreeDiceState) -> Roll | None:
        """The table never rolls by itself."""
        return None

    def view(self, state: FreeDiceState, viewer: Viewer) -> dict[str, Any]:
        """``{"rolls": [rolled event as JSON, …]}``: every roll of the fold ``viewer`` may see.

        The GM's hidden rolls are not in a player's fold; nothing else is private.
        """
        return {"rolls": [EVENTS.dump_python(event, mode="json") for event in state.rolls]}
