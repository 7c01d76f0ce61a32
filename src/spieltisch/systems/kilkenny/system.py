"""Kilkenny Cats as a :class:`~spieltisch.engine.system.GameSystem` (id ``kilkenny``).

Turn flow: the player to move issues ``roll``; the die is a chance node with six outcomes at
1/6 each, drawn from the injected source (event ``rolled``). With no legal move the pass
follows at once as event ``passed``; otherwise the player issues ``move {from, to}`` and gets
``moved`` (preceded by ``captured`` when it lands on an enemy cat) or ``entered_hole``, and
``game_over`` when the game ends. Seats are taken with ``sit``; AI seats play through
:meth:`KilkennySystem.automatic`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from spieltisch.dice.dist import Dist
from spieltisch.dice.fair import DiceSource
from spieltisch.engine.errors import RuleError
from spieltisch.engine.system import MAX_AUTOMATIC, Access, Odds, OddsOutcome
from spieltisch.engine.text import Label
from spieltisch.engine.upcast import EventShapes
from spieltisch.engine.visibility import Viewer
from spieltisch.systems.kilkenny.ai import PLAYER_NAMES, make_player
from spieltisch.systems.kilkenny.board import MAX_ROLL, Move
from spieltisch.systems.kilkenny.chances import chances_json
from spieltisch.systems.kilkenny.commands import (
    AUTOMATIC_LIMIT,
    EDITION,
    KilkennyCommand,
    KilkennyOptions,
    MoveCommand,
    RollCommand,
    SeatOption,
    SitCommand,
)
from spieltisch.systems.kilkenny.layout import get_layout
from spieltisch.systems.kilkenny.position import Position
from spieltisch.systems.kilkenny.rules import EndReason, Outcome, OutcomeKind
from spieltisch.systems.kilkenny.upcast import RULES_VERSION, UPCASTERS

__all__ = [
    "Captured",
    "EnteredHole",
    "GameOver",
    "KilkennyCommand",
    "KilkennyEvent",
    "KilkennyOptions",
    "KilkennyState",
    "KilkennySystem",
    "MoveCommand",
    "Moved",
    "Passed",
    "RollCommand",
    "Rolled",
    "SeatOption",
    "SeatTaken",
    "SitCommand",
]

SYSTEM_ID = "kilkenny"


def _meta() -> dict[str, Any]:
    from spieltisch.systems.kilkenny.ai import PLAYER_NAMES

    layout = get_layout("default")
    counts = sorted(layout.seating)
    return {
        "players": {"min": counts[0], "max": counts[-1], "default": counts[0]},
        "seats": {str(n): list(layout.seats_for(n)) for n in counts},
        "players_per_seat": ["human", *PLAYER_NAMES],
        "default_player": "greedy",
        "gm": False,
    }


META: dict[str, Any] = _meta()
"""Player counts, the seats of each count and who may play a seat, for the start page."""


# -- events ----------------------------------------------------------------------------------


class SeatTaken(BaseModel):
    """A participant took a human seat."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Literal["seat_taken"] = "seat_taken"
    seat: str


class Rolled(BaseModel):
    """The seat to move rolled the die."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Literal["rolled"] = "rolled"
    seat: str
    value: int


class Passed(BaseModel):
    """The seat to move had no legal move for its roll; the turn passes."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Literal["passed"] = "passed"
    seat: str
    roll: int


class Captured(BaseModel):
    """A cat of ``seat`` on ``square`` was captured by ``by`` (the move follows)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Literal["captured"] = "captured"
    seat: str
    square: str
    by: str


class Moved(BaseModel):
    """A cat of ``seat`` moved from one square to another."""

    model_config = ConfigDict(
        frozen=True, extra="forbid", populate_by_name=True, serialize_by_alias=True
    )

    kind: Literal["moved"] = "moved"
    seat: str
    origin: str = Field(alias="from")
    target: str = Field(alias="to")


class EnteredHole(BaseModel):
    """A cat of ``seat`` went from a square into one of its holes."""

    model_config = ConfigDict(
        frozen=True, extra="forbid", populate_by_name=True, serialize_by_alias=True
    )

    kind: Literal["entered_hole"] = "entered_hole"
    seat: str
    origin: str = Field(alias="from")
    hole: str


class GameOver(BaseModel):
    """The game ended: ``result`` win/draw/capped, the ``reason`` and the winning seat."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Literal["game_over"] = "game_over"
    result: OutcomeKind
    reason: EndReason
    winner: str | None = None


KilkennyEvent = Annotated[
    SeatTaken | Rolled | Passed | Captured | Moved | EnteredHole | GameOver,
    Field(discriminator="kind"),
]
"""Every event of the game."""


# -- state -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class KilkennyState:
    """A table's state: the position, who plays which seat, taken seats, the outcome."""

    position: Position
    seats: tuple[SeatOption, ...]
    taken: frozenset[str] = frozenset()
    outcome: Outcome | None = None
    max_plies: int | None = None

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return self.outcome is not None

    def seat_option(self, seat: str) -> SeatOption:
        """Who plays ``seat``."""
        return self.seats[self.position.seats.index(seat)]


_SEAT_VALUES = frozenset({"seat_is_ai", "seat_taken", "out_of_turn"})
"""Errors whose ``value`` is a seat (known to exist), named like ``seat``."""


def _fail(code: str, **params: Any) -> RuleError:
    """A Kilkenny error; a seat in it is named by its display name (``kilkenny.seat.<id>``)."""
    for key in ("seat", "value") if code in _SEAT_VALUES else ("seat",):
        if isinstance(params.get(key), str):
            params[key] = Label(f"kilkenny.seat.{params[key]}")
    return RuleError(f"kilkenny.{code}", **params)


class KilkennySystem:
    """The Kilkenny Cats rules behind the game-system contract."""

    id = SYSTEM_ID
    meta = META
    commands: TypeAdapter[Any] = TypeAdapter(KilkennyCommand)
    events: TypeAdapter[Any] = TypeAdapter(KilkennyEvent)
    shapes = EventShapes.of(KilkennyEvent, rules=RULES_VERSION, upcasters=UPCASTERS)
    """Versions of the event shapes and rules, and the upcasters (``upcast.py``)."""
    options: TypeAdapter[Any] = TypeAdapter(KilkennyOptions)

    # -- setup -----------------------------------------------------------------------------

    def stamp_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """A new table stores the edition of the rules (2 unless given), so that a table
        stored before it (without ``edition``) keeps edition 1."""
        return {"edition": EDITION, **options}

    def upgrade_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """Options stored without ``edition`` are a table made before the edition: its AI
        seats stop after 500 records in a row, as they did when it was played."""
        return {**options, "edition": options.get("edition", 1)}

    def automatic_limit(self, options: Mapping[str, Any]) -> int:
        """How many AI records may follow one command of a participant: the table's general
        guard in edition 1, :data:`AUTOMATIC_LIMIT` in edition 2 (a game of AI seats plays
        on to its end; a human seat with no cat on the board passes by itself)."""
        edition = KilkennyOptions.model_validate(dict(options)).edition
        return AUTOMATIC_LIMIT if edition >= 2 else MAX_AUTOMATIC

    def new_state(self, options: Mapping[str, Any]) -> KilkennyState:
        """A new game from the table options (see :class:`KilkennyOptions`)."""
        try:
            parsed = KilkennyOptions.model_validate(dict(options))
        except ValidationError as error:
            first = error.errors()[0]
            where = ".".join(str(part) for part in first["loc"])
            raise _fail("bad_options", value=where, detail=first["msg"]) from None
        layout = get_layout(parsed.layout)
        if parsed.position is not None:
            position = Position.from_text(parsed.position, layout)
        else:
            position = Position.start(parsed.players, layout)
        count = position.players
        seats = list(parsed.seats) + [SeatOption()] * (count - len(parsed.seats))
        if len(seats) != count:
            raise _fail("bad_options", value="seats", detail=str(len(parsed.seats)))
        for seat in seats:
            if seat.player != "human" and seat.player not in PLAYER_NAMES:
                raise _fail("unknown_ai", value=seat.player, known=", ".join(PLAYER_NAMES))
        state = KilkennyState(position, tuple(seats), max_plies=parsed.max_plies)
        outcome = position.board().static_outcome()
        return replace(state, outcome=outcome) if outcome is not None else state

    # -- deciding --------------------------------------------------------------------------

    def decide(self, state: KilkennyState, command: Any, dice: DiceSource) -> list[Any]:
        """Check ``command`` against the rules, roll the die if needed, return the events."""
        if isinstance(command, SitCommand):
            self._check_sit(state, command.seat)
            return [SeatTaken(seat=command.seat)]
        if state.outcome is not None:
            raise _fail("game_over")
        position = state.position
        if isinstance(command, RollCommand):
            if position.roll is not None:
                raise _fail("already_rolled", value=position.roll, seat=position.seat)
            value = dice.roll(MAX_ROLL)
            events: list[Any] = [Rolled(seat=position.seat, value=value)]
            board = position.board()
            if board.legal_moves(value):
                return events
            events.append(Passed(seat=position.seat, roll=value))
            if board.is_blocked():
                events.append(_game_over(position, Outcome(OutcomeKind.DRAW, EndReason.BLOCKED)))
            elif state.max_plies is not None and position.ply + 1 >= state.max_plies:
                events.append(_game_over(position, _capped()))
            return events
        if isinstance(command, MoveCommand):
            if position.roll is None:
                raise _fail("no_roll", seat=position.seat)
            move = position.find_move(command.origin, command.target, position.roll)
            return self._move_events(state, move)
        raise _fail("bad_command", value=getattr(command, "kind", command))

    def _check_sit(self, state: KilkennyState, seat: str) -> None:
        if seat not in state.position.seats:
            raise _fail("unknown_seat", value=seat, known=", ".join(state.position.seats))
        if state.seat_option(seat).player != "human":
            raise _fail("seat_is_ai", value=seat)
        if seat in state.taken:
            raise _fail("seat_taken", value=seat)

    def _move_events(self, state: KilkennyState, move: Move) -> list[Any]:
        position = state.position
        geo = position.geometry
        seat = position.seat
        origin, target = geo.name(move[0]), geo.name(move[1])
        events: list[Any] = []
        if move[4] >= 0:
            events.append(EnteredHole(seat=seat, origin=origin, hole=target))
        else:
            victim = position.occupant(move[1])
            if victim is not None:
                events.append(Captured(seat=position.seats[victim], square=target, by=seat))
            events.append(Moved(seat=seat, origin=origin, target=target))
        board = position.board()
        captured = board.make(move)
        ending = board.outcome_after(move, captured)
        if ending is not None:
            events.append(_game_over(position, ending))
        elif state.max_plies is not None and position.ply + 1 >= state.max_plies:
            events.append(_game_over(position, _capped()))
        return events

    # -- evolving --------------------------------------------------------------------------

    def evolve(self, state: KilkennyState, event: Any) -> KilkennyState:
        """Apply one event; :class:`RuleError` when it does not fit the state."""
        position = state.position
        if isinstance(event, SeatTaken):
            self._check_sit(state, event.seat)
            return replace(state, taken=state.taken | {event.seat})
        if isinstance(event, GameOver):
            if state.outcome is not None:
                raise _fail("game_over")
            winner = None if event.winner is None else self._seat_index(state, event.winner)
            return replace(state, outcome=Outcome(event.result, event.reason, winner))
        if state.outcome is not None:
            raise _fail("game_over")
        if event.seat != position.seat and not isinstance(event, Captured):
            raise _fail("out_of_turn", value=event.seat, seat=position.seat)
        if isinstance(event, Rolled):
            if position.roll is not None:
                raise _fail("already_rolled", value=position.roll, seat=position.seat)
            if not 1 <= event.value <= MAX_ROLL:
                raise _fail("bad_roll", value=event.value)
            return replace(state, position=replace(position, roll=event.value))
        if position.roll is None:
            raise _fail("no_roll", seat=position.seat)
        board = position.board()
        if isinstance(event, Passed):
            if event.roll != position.roll or board.legal_moves(position.roll):
                raise _fail("cannot_pass", value=event.roll, seat=position.seat)
            board.end_turn()
            return replace(state, position=Position.from_board(board))
        if isinstance(event, Captured):
            if event.by != position.seat or event.seat == position.seat:
                raise _fail("out_of_turn", value=event.by, seat=position.seat)
            victim = self._seat_index(state, event.seat)
            cell = position.geometry.parse_cell(event.square)
            if cell not in position.cats[victim]:
                raise _fail("no_cat", value=event.square, seat=event.seat)
            cats = tuple(
                tuple(c for c in cells if c != cell) if p == victim else cells
                for p, cells in enumerate(position.cats)
            )
            return replace(state, position=replace(position, cats=cats))
        if isinstance(event, Moved | EnteredHole):
            target = event.target if isinstance(event, Moved) else event.hole
            move = position.find_move(event.origin, target, position.roll)
            if position.occupant(move[1]) is not None:
                raise _fail(
                    "illegal_move",
                    value=f"{event.origin}-{target}",
                    roll=position.roll,
                    seat=position.seat,
                )
            board.make(move)
            board.end_turn()
            return replace(state, position=Position.from_board(board))
        raise _fail("bad_event", value=getattr(event, "kind", event))

    @staticmethod
    def _seat_index(state: KilkennyState, seat: str) -> int:
        if seat not in state.position.seats:
            raise _fail("unknown_seat", value=seat, known=", ".join(state.position.seats))
        return state.position.seats.index(seat)

    # -- chance, odds, access, automatic -----------------------------------------------------

    def chance_outcomes(self, state: KilkennyState) -> list[tuple[int, float]]:
        """The die as a chance node: ``[(1, 1/6), …, (6, 1/6)]`` when a roll is due, else ``[]``."""
        if state.outcome is not None or state.position.roll is not None:
            return []
        return [(face, 1 / MAX_ROLL) for face in range(1, MAX_ROLL + 1)]

    def odds(self, state: KilkennyState, command: Any) -> Odds | None:
        """For ``roll``: each face 1–6 at 1/6; other commands roll nothing."""
        if not isinstance(command, RollCommand):
            return None
        die = Dist.die(MAX_ROLL, exact=True)
        return Odds(
            outcomes=[
                OddsOutcome(value=face, probability=float(share), exact=str(share))
                for face, share in die.fractions().items()
            ],
            mean=float(die.exact_mean()),
        )

    def access(self, state: KilkennyState, command: Any) -> Access:
        """``sit`` claims the seat; ``roll`` and ``move`` act for the seat to move."""
        if isinstance(command, SitCommand):
            return Access(piece=f"seat:{command.seat}", claims=True)
        return Access(piece=f"seat:{state.position.seat}")

    def automatic_is_heavy(self, state: KilkennyState) -> bool:
        """Whether :meth:`automatic` has an AI seat choose among moves (a search: the server
        runs it in its process pool); a human's turn, a roll or a game's end answer at once."""
        if state.outcome is not None or state.position.roll is None:
            return False
        return state.seat_option(state.position.seat).player != "human"

    def automatic(self, state: KilkennyState) -> Any:
        """For an AI seat to move: its roll, or its chosen move; ``None`` for humans."""
        if state.outcome is not None:
            return None
        position = state.position
        option = state.seat_option(position.seat)
        if option.player == "human":
            return None
        if position.roll is None:
            return RollCommand()
        moves = position.legal_moves()
        if not moves:
            return None
        move = moves[0]
        if len(moves) > 1:
            player = make_player(option.player, option.budget)
            move = player.choose(position.board(), position.roll, moves)
        geo = position.geometry
        return MoveCommand(origin=geo.name(move[0]), target=geo.name(move[1]))

    # -- clients ---------------------------------------------------------------------------

    def view(self, state: KilkennyState, viewer: Viewer) -> dict[str, Any]:
        """The state as JSON-ready data: seats, cats, holes, turn, roll, legal moves and,
        while a roll is pending, their chances (see :mod:`.chances`), outcome.

        A board game keeps nothing private: every viewer of a fold sees all of it.
        """
        position = state.position
        geo = position.geometry
        seats = []
        for player, seat in enumerate(position.seats):
            option = state.seats[player]
            seats.append(
                {
                    "seat": seat,
                    "player": option.player,
                    "taken": seat in state.taken,
                    "cats": [geo.name(cell) for cell in position.cats[player]],
                    "holes": [geo.hole_name(player, n) for n in position.home[player]],
                    "hole_cells": [list(geo.xy(cell)) for cell in geo.hole_cells[player]],
                }
            )
        outcome = state.outcome
        pending = outcome is None and position.roll is not None
        return {
            "system": SYSTEM_ID,
            "layout": position.layout_id,
            "size": position.layout.size,
            "position": position.to_text(),
            "seats": seats,
            "turn": position.seat,
            "roll": position.roll,
            "ply": position.ply,
            "moves": [
                {"from": geo.name(m[0]), "to": geo.name(m[1])} for m in position.legal_moves()
            ],
            # what each legal move risks and leaves open (see .chances), in the same order
            "chances": chances_json(position) if pending else [],
            "outcome": None
            if outcome is None
            else {
                "result": outcome.kind.value,
                "reason": outcome.reason.value,
                "winner": None if outcome.winner is None else position.seats[outcome.winner],
            },
        }


def _capped() -> Outcome:
    return Outcome(OutcomeKind.CAPPED, EndReason.PLY_CAP)


def _game_over(position: Position, outcome: Outcome) -> GameOver:
    winner = None if outcome.winner is None else position.seats[outcome.winner]
    return GameOver(result=outcome.kind, reason=outcome.reason, winner=winner)
