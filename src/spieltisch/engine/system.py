"""The contract every game of Spieltisch fulfils, and the registry that finds them by id.

A game is event-sourced:

* ``decide(state, command, dice)`` checks a command against the rules, draws the dice it
  needs and returns the events that happened (raising :class:`RuleError` changes nothing);
* ``evolve(state, event)`` applies one event, purely, without dice;
* ``odds(state, command)`` gives the exact outcome distribution of a command before it rolls.

A system with positions also implements :class:`Contact`: where a visible command runs into
something hidden (a secret creature on the square, a hidden wall), the hidden thing is
discovered and the command stops there (see :meth:`Contact.contact`).

The registry of the built-in systems is :mod:`spieltisch.systems.registry`.
A table's state is the fold of its events, so the web, the CLI and the tests all play through
this one contract, and a table can be exported, replayed and verified.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Literal, Protocol, TypeVar, runtime_checkable

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, TypeAdapter, ValidationError

from spieltisch.dice.fair import DiceSource
from spieltisch.engine.errors import RuleError
from spieltisch.engine.text import text_error
from spieltisch.engine.visibility import Viewer

__all__ = [
    "Access",
    "Contact",
    "Discovery",
    "Edition",
    "GameSystem",
    "Odds",
    "OddsOutcome",
    "OddsPart",
    "StateT",
    "automatic_limit",
    "exact_int",
    "parse_command",
    "parse_options",
    "stamp_options",
    "upgrade_options",
]

StateT = TypeVar("StateT")
CommandT = TypeVar("CommandT", bound=BaseModel)
OptionsT = TypeVar("OptionsT", bound=BaseModel)
EventT = TypeVar("EventT", bound=BaseModel)


class OddsOutcome(BaseModel):
    """One outcome of a command: a JSON value (number, label or symbol counts) and its chance."""

    model_config = ConfigDict(frozen=True)

    value: Any
    probability: float
    exact: str | None = None
    """The probability as an exact fraction ``"p/q"``, where the system computes one."""


class Odds(BaseModel):
    """The exact outcome distribution of a command, computed before anything is rolled."""

    model_config = ConfigDict(frozen=True)

    outcomes: list[OddsOutcome]
    mean: float | None = None
    truncated: float = 0.0
    """Probability mass left out (exploding dice are cut off at a tiny tail)."""
    hints: list[str] = Field(default_factory=list)
    """Codes of one-line hints on the notation (``dice.hint.<code>``; ``strict`` when ``>`` or
    ``<`` is used, which Roll20 reads otherwise)."""
    parts: list[OddsPart] = Field(default_factory=list)
    """Further distributions of the same command, each under a key the system names (a
    HeXXen power against several hunters: each target's Differenzerfolge); empty for most."""


class OddsPart(BaseModel):
    """One named distribution within :class:`Odds` (see :attr:`Odds.parts`)."""

    model_config = ConfigDict(frozen=True)

    key: str
    odds: Odds


@dataclass(frozen=True)
class Access:
    """Who may issue a command.

    ``gm_only``: only the game master. Otherwise ``piece`` names the character, foe or seat the
    command acts for; the participant owning that piece (or the GM) may issue it. ``None``
    means any player at the table may.
    """

    gm_only: bool = False
    piece: str | None = None
    claims: bool = False
    """The issuing participant becomes the owner of ``piece`` (creating a kitty, taking a seat)."""


class GameSystem(Protocol[StateT, CommandT, EventT]):
    """A rule set: the five games and the generic free-dice system implement this.

    Optional: a method ``stamp_options(options) -> dict`` gives the options a *new* table
    is stored with (the store calls it on creation only, :func:`stamp_options`; HeXXen and
    Kreiswanderer store the edition of their rules there, so tables stored before keep theirs).
    Optional: a method ``automatic_limit(options) -> int`` gives how many automatic commands
    may follow one command of a participant at a table with these options
    (:func:`automatic_limit`; :data:`MAX_AUTOMATIC` without it).
    """

    id: str
    """Stable registry id, e.g. ``"magical-kitties"``."""

    commands: TypeAdapter[CommandT]
    """Parses and dumps commands (a discriminated union on the field ``kind``)."""

    events: TypeAdapter[EventT]
    """Parses and dumps events (a discriminated union on the field ``kind``)."""

    options: TypeAdapter[Any]
    """The table options a new table accepts; its JSON Schema drives the start page's form."""

    def new_state(self, options: Mapping[str, Any]) -> StateT:
        """The state of a new table; ``options`` are the system's table options (validated)."""
        ...

    def decide(self, state: StateT, command: CommandT, dice: DiceSource) -> list[EventT]:
        """Validate ``command`` against the rules, roll what it needs, return its events."""
        ...

    def evolve(self, state: StateT, event: EventT) -> StateT:
        """Apply one event. Pure and deterministic; never rolls."""
        ...

    def odds(self, state: StateT, command: CommandT) -> Odds | None:
        """The exact outcome distribution of ``command``; ``None`` if it rolls nothing."""
        ...

    def access(self, state: StateT, command: CommandT) -> Access:
        """Who may issue ``command`` in ``state``."""
        ...

    def automatic(self, state: StateT) -> CommandT | None:
        """A command the table issues by itself next (e.g. an AI seat's move), else ``None``."""
        ...

    def view(self, state: StateT, viewer: Viewer) -> dict[str, Any]:
        """What ``viewer`` sees of ``state``, as JSON-ready data for clients.

        ``state`` is already the one the viewer may see (the GM's fold for the GM, the fold of
        the visible records for everyone else, see :meth:`Table.state_for`); a system hides
        more here where its rules say so (another player's secret, the GM's notes).
        """
        ...


def exact_int(value: Any) -> Any:
    """A JSON integer as it is: ``true``, ``1.0`` or ``"1"`` is refused (the strict number
    rule, for the integers a ``Literal`` lists, which pydantic compares loosely)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError("an integer is required")
    return value


Edition = Annotated[Literal[1, 2], BeforeValidator(exact_int)]
"""A system's rules edition as a table option (1: the rules of tables made before; 2)."""


Discovery = Literal["table", "player"]
"""The table option ``discovery`` of every system with :class:`Contact`: who is shown what a
command discovers: the whole table (``"table"``, the default, and every table made before the
option existed) or the one who issued the command alone (``"player"``; the table then
addresses the discovery to that participant, see :class:`~spieltisch.engine.table.Table`)."""


@runtime_checkable
class Contact(Protocol):
    """A system in which a visible command can run into something hidden (contact).

    A visible command is decided on the shared fold, on what its issuer can see. Where the
    GM's fold holds something hidden in its way (a secret creature on a square the move
    enters, a wall painted in secret), the command does not pass through it as if it were
    not there, nor is it refused (which would tell the player something for free): it stops
    where it meets the hidden thing, and that thing is *discovered*, i.e. becomes visible to
    the table. :class:`~spieltisch.engine.table.Table` asks :meth:`contact` for every visible
    command while the GM's fold and the shared one differ, before evolving either fold.

    A separate protocol, not a method of :class:`GameSystem`: systems without positions do
    not implement it and are unaffected.
    """

    def contact(self, state: Any, command: Any, events: Sequence[Any]) -> list[Any] | None:
        """What ``command`` does in the GM's fold, if it touches something hidden there.

        ``state`` is the GM's full state before the command, ``command`` the parsed command,
        ``events`` what :meth:`GameSystem.decide` gave on the shared fold (the command as its
        issuer sees it). ``None``: nothing hidden is touched, ``events`` stand. Otherwise the
        events that replace ``events``: the command cut short where it meets the hidden
        thing (movement spent up to there is spent), followed by the system's event that
        makes the touched thing visible, carrying everything the shared fold needs to show
        it. The replacement must apply to both folds (the GM's and the shared one) and leave
        them consistent; it must not roll dice (the draws are those ``decide`` made).

        The discovery is the replacement's **last** event, and it alone: with the table
        option ``discovery`` set to ``"player"`` the table records it apart, addressed to the
        command's issuer, and the events before it must then stand on their own.
        """
        ...


def parse_command(system: GameSystem[Any, CommandT, Any], data: Any) -> CommandT:
    """Parse a JSON command for ``system``; a :class:`RuleError` names what is wrong."""
    try:
        return system.commands.validate_python(data)
    except ValidationError as error:
        text = text_error(error, data.get("kind") if isinstance(data, dict) else None)
        if text is not None:  # a text breaking the text rules: a localized detail
            raise RuleError("rule.bad_command", system=system.id, detail=text) from None
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        detail = f"{where}: {first['msg']}" if where else str(first["msg"])
        raise RuleError("rule.bad_command", system=system.id, detail=detail) from None


def parse_options(model: type[OptionsT], code: str, options: Mapping[str, Any]) -> OptionsT:
    """A system's table options validated by ``model``; the first problem raises ``code``
    with the option's dotted path and the value given."""
    try:
        return model.model_validate(dict(options))
    except ValidationError as error:
        first = error.errors()[0]
        raise RuleError(
            code, option=".".join(str(p) for p in first["loc"]), value=first.get("input")
        ) from None


def stamp_options(system: GameSystem[Any, Any, Any], options: Mapping[str, Any]) -> dict[str, Any]:
    """The options a new table of ``system`` stores: ``options`` with whatever the system adds
    so that a later release can tell them from options stored before (its optional
    ``stamp_options`` hook, e.g. HeXXen's rules edition); unchanged without the hook."""
    hook = getattr(system, "stamp_options", None)
    return dict(options) if hook is None else dict(hook(options))


MAX_AUTOMATIC = 500
"""How many automatic commands may follow one command of a participant, unless the system
says otherwise (:func:`automatic_limit`): a guard against a system that keeps issuing them."""


def automatic_limit(system: GameSystem[Any, Any, Any], options: Mapping[str, Any]) -> int:
    """How many automatic commands may follow one command of a participant at a table of
    ``system`` with ``options`` (as read, see :func:`upgrade_options`): the system's optional
    ``automatic_limit`` hook (Kilkenny's AI seats may play a whole game among themselves),
    else :data:`MAX_AUTOMATIC`. The table and its replay both stop the chain there."""
    hook = getattr(system, "automatic_limit", None)
    return MAX_AUTOMATIC if hook is None else int(hook(options))


def upgrade_options(
    system: GameSystem[Any, Any, Any], options: Mapping[str, Any]
) -> dict[str, Any]:
    """A table's options as stored, possibly by an earlier release, as this release reads them
    (the system's optional ``upgrade_options`` hook: a reading that changed keeps its old value
    for a table made before); unchanged without the hook. Options are upgraded where they are
    read (stored tables, imports, verification), never rewritten."""
    hook = getattr(system, "upgrade_options", None)
    return dict(options) if hook is None else dict(hook(options))
