"""The ``free-dice`` system: any notation at a table, and a fight on the combat toolkit.

``roll`` rolls any notation with exact odds, open to every player. The rest is a generic
combat table for any game: combatants with initiative, tracks and effects, rounds and turns,
and a battle map with terrain and tokens (see ``docs/combat-toolkit.md``, the demonstrator).
Commands are in :mod:`.commands`, events in :mod:`.events`, state and fold in :mod:`.rules`,
the viewer's view in :mod:`.view`, what a visible move does when it runs into something
hidden in :mod:`.contact`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from fractions import Fraction
from typing import Any

from pydantic import TypeAdapter

from spieltisch.dice.dice import roll
from spieltisch.dice.errors import DiceError, LimitError
from spieltisch.dice.fair import DiceSource
from spieltisch.dice.notation import Expression, Kind, hints, parse
from spieltisch.dice.odds import distribution
from spieltisch.engine import creatures as cr
from spieltisch.engine import encounter as enc
from spieltisch.engine.creatures import Creature, Track
from spieltisch.engine.effects import Duration
from spieltisch.engine.errors import RuleError
from spieltisch.engine.grid import Size, Square, footprint
from spieltisch.engine.system import Access, Odds, OddsOutcome, parse_options
from spieltisch.engine.upcast import EventShapes
from spieltisch.engine.visibility import Viewer
from spieltisch.systems.freedice import commands as c
from spieltisch.systems.freedice import events as e
from spieltisch.systems.freedice.commands import COMMANDS, MAX_COMBATANTS, Command, Roll
from spieltisch.systems.freedice.contact import contact
from spieltisch.systems.freedice.events import (
    EVENTS,
    DieFace,
    Event,
    ExpiredEffect,
    Rolled,
    RollPart,
)
from spieltisch.systems.freedice.rules import (
    EDITION,
    MOVE,
    FreeDiceOptions,
    FreeDiceState,
    blockers,
    cheapest_path,
    combatant_of,
    fits,
    fold,
    move_cost,
    square_names,
    taken,
)
from spieltisch.systems.freedice.upcast import RULES_VERSION, UPCASTERS
from spieltisch.systems.freedice.view import view

__all__ = [
    "COMMANDS",
    "EVENTS",
    "EXACT_ODDS_DICE",
    "META",
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

META: dict[str, Any] = {"players": {"min": 1, "max": 12}, "gm": True, "map": True}
"""What the start page and the table page need to know of the system."""

GM_ONLY = (
    c.AddCombatant,
    c.RemoveCombatant,
    c.RollInitiative,
    c.StartFight,
    c.NextTurn,
    c.NextRound,
    c.LeaveFight,
    c.EndFight,
    c.SetMap,
    c.PaintTerrain,
    c.SetImage,
)


def _expression(text: str) -> Expression:
    try:
        return parse(text)
    except DiceError as error:
        raise RuleError(error.code, **error.params) from None


def _roll(node: Expression, dice: DiceSource) -> Any:
    try:
        return roll(node, dice)
    except DiceError as error:
        raise RuleError(error.code, **error.params) from None


def _faces(result: Any) -> tuple[DieFace, ...]:
    return tuple(DieFace.model_validate(die.to_json()) for die in result.dice)


def _initiative(text: str) -> str:
    node = _expression(text)
    if node.kind is not Kind.NUMBER:
        raise RuleError("freedice.bad_initiative", value=text)
    return str(node)


def _tracks(specs: tuple[c.TrackSpec, ...]) -> dict[str, Track]:
    tracks: dict[str, Track] = {}
    for spec in specs:
        if spec.name in tracks:
            raise RuleError("freedice.duplicate_track", track=spec.name)
        current = spec.maximum if spec.current is None else spec.current
        if not spec.floor <= current <= spec.maximum:
            raise RuleError(
                "freedice.bad_track",
                track=spec.name,
                current=current,
                floor=spec.floor,
                maximum=spec.maximum,
            )
        tracks[spec.name] = Track(current=current, maximum=spec.maximum, floor=spec.floor)
    return tracks


def _added(state: FreeDiceState, command: c.AddCombatant | c.AddCharacter) -> e.CombatantAdded:
    if state.has(command.id):
        raise RuleError("freedice.duplicate_combatant", combatant=command.id)
    if len(state.fighters) >= MAX_COMBATANTS:
        raise RuleError("freedice.too_many_combatants", limit=MAX_COMBATANTS)
    position = None
    if command.at is not None:
        square = state.grid.square(command.at)
        if not fits(state.grid, square, command.size):
            raise RuleError("freedice.blocked", to=command.at)
        _refuse_taken(state, None, square, command.size, command.at)
        position = str(square)
    secret = isinstance(command, c.AddCombatant) and command.secret
    creature = Creature(
        id=command.id,
        name=command.name,
        side=command.side,
        secret=secret,
        size=command.size,
        tracks=_tracks(command.tracks),
    )
    return e.CombatantAdded(
        creature=creature,
        colour=command.colour.lower(),
        initiative=_initiative(command.initiative),
        tiebreak=command.tiebreak,
        speed=command.speed,
        position=position,
        claimable=isinstance(command, c.AddCombatant) and command.claimable,
    )


def _expired(before: FreeDiceState, after: FreeDiceState) -> tuple[ExpiredEffect, ...]:
    left = {effect.id for effect in after.effects.items}
    return tuple(
        ExpiredEffect(name=effect.kind, target=effect.target)
        for effect in before.effects.items
        if effect.id not in left
    )


def _advanced(state: FreeDiceState, steps: list[enc.Step]) -> e.FightAdvanced:
    draft = e.FightAdvanced(steps=tuple(steps), round=0, current=None)
    after = fold(state, draft)
    assert after.encounter is not None
    return draft.model_copy(
        update={
            "round": after.encounter.round,
            "current": after.encounter.current,
            "expired": _expired(state, after),
        }
    )


def _running(state: FreeDiceState) -> enc.Encounter:
    if state.encounter is None:
        raise RuleError("freedice.no_fight")
    return state.encounter


def _turn_of(state: FreeDiceState, combatant: str) -> enc.Encounter:
    state.fighter(combatant)
    encounter = _running(state)
    if encounter.current != combatant:
        current = encounter.current
        raise RuleError(
            "freedice.not_their_turn",
            combatant=state.fighter(combatant).creature.name,
            current=state.fighter(current).creature.name if current else "",
        )
    return encounter


def _duration(command: c.ApplyEffect) -> Duration:
    spec = command.duration
    if spec.until == "rounds":
        return Duration.rounds(spec.rounds)
    if spec.until == "removed":
        return Duration.until_removed()
    who = spec.who or command.target
    return (
        Duration.until_turn_start(who)
        if spec.until == "turn_start"
        else Duration.until_turn_end(who)
    )


class FreeDice:
    """Roll any notation; fight on a battle map with the combat toolkit."""

    id = SYSTEM_ID
    commands: TypeAdapter[Command] = COMMANDS
    events: TypeAdapter[Event] = EVENTS
    shapes = EventShapes.of(Event, rules=RULES_VERSION, upcasters=UPCASTERS)
    """Versions of the event shapes and rules, and the upcasters (``upcast.py``)."""
    options: TypeAdapter[Any] = TypeAdapter(FreeDiceOptions)
    meta = META

    def new_state(self, options: Mapping[str, Any]) -> FreeDiceState:
        """An empty table; ``options`` are :class:`.rules.FreeDiceOptions` (validated: the
        first problem is ``freedice.bad_option`` naming the option and the value)."""
        return FreeDiceState(options=parse_options(FreeDiceOptions, "freedice.bad_option", options))

    def stamp_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """A new table stores the edition of the rules (2, tokens take space, unless given),
        so that a table stored before it (without ``edition``) keeps edition 1."""
        return {"edition": EDITION, **options}

    def upgrade_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """Options stored without ``edition`` are a table made before the edition: it keeps
        the rules it was played with (edition 1, tokens take no space, no contact)."""
        return {**options, "edition": options.get("edition", 1)}

    def decide(self, state: FreeDiceState, command: Command, dice: DiceSource) -> list[Event]:
        """Check a command against the free table's rules, roll what it needs, give its events."""
        if isinstance(command, Roll):
            node = _expression(command.expression)
            result = _roll(node, dice)
            data = result.to_json()
            return [
                Rolled(
                    expression=result.expression,
                    label=command.label,
                    result=data["result"],
                    dice=_faces(result),
                    total=result.total,
                    parts=tuple(RollPart.model_validate(part) for part in data.get("parts", ())),
                    comment=result.comment,
                )
            ]
        if isinstance(command, c.AddCombatant | c.AddCharacter):
            return [_added(state, command)]
        if isinstance(command, c.Claim):
            wanted = state.fighter(command.combatant)
            if not wanted.claimable:
                raise RuleError("freedice.not_claimable", combatant=wanted.creature.name)
            return [e.Claimed(combatant=command.combatant)]
        if isinstance(command, c.RemoveCombatant):
            fighter = state.fighter(command.combatant)
            return [e.CombatantRemoved(combatant=fighter.id, name=fighter.creature.name)]
        if isinstance(command, c.RollInitiative):
            return [self._initiative(state, command, dice)]
        return self._fight(state, command)

    def _initiative(
        self, state: FreeDiceState, command: c.RollInitiative, dice: DiceSource
    ) -> e.InitiativeRolled:
        running = state.encounter is not None
        if command.combatants:
            chosen = [state.fighter(who) for who in dict.fromkeys(command.combatants)]
            for fighter in chosen:
                if running and state.in_fight(fighter.id):
                    raise RuleError("freedice.in_fight", combatant=fighter.creature.name)
                if fighter.roll is not None and not command.again and not running:
                    raise RuleError("freedice.already_rolled", combatant=fighter.creature.name)
        else:
            chosen = [
                f
                for f in state.fighters
                if (not state.in_fight(f.id) if running else f.roll is None or command.again)
            ]
        if not chosen:
            raise RuleError("freedice.nobody_to_roll")
        rolls = []
        for fighter in chosen:
            result = _roll(_expression(fighter.initiative), dice)
            value = result.to_json()["result"]
            if not isinstance(value, int):
                raise RuleError("freedice.bad_initiative", value=fighter.initiative)
            rolls.append(
                e.InitiativeRoll(
                    combatant=fighter.id,
                    name=fighter.creature.name,
                    expression=result.expression,
                    result=value,
                    dice=_faces(result),
                )
            )
        return e.InitiativeRolled(rolls=tuple(rolls))

    def _fight(self, state: FreeDiceState, command: Command) -> list[Event]:
        if isinstance(command, c.StartFight):
            if state.encounter is not None:
                raise RuleError("freedice.fight_running")
            ready = [f for f in state.fighters if f.roll is not None]
            if not ready:
                raise RuleError("freedice.nobody_has_initiative")
            start = enc.Start(combatants=tuple(combatant_of(f) for f in ready))
            return [_advanced(state, [start])]
        if isinstance(command, c.NextTurn):
            _running(state)
            return [_advanced(state, [enc.NextTurn()])]
        if isinstance(command, c.NextRound):
            encounter = _running(state)
            left = len(encounter.order) - encounter.index
            return [_advanced(state, [enc.NextTurn() for _ in range(left)])]
        if isinstance(command, c.EndTurn):
            _turn_of(state, command.combatant)
            return [_advanced(state, [enc.NextTurn()])]
        if isinstance(command, c.DelayTurn):
            encounter = _turn_of(state, command.combatant)
            if command.after is not None:
                state.fighter(command.after)
            enc.delay(encounter, command.after)  # refuses before anything is recorded
            return [_advanced(state, [enc.Delay(after=command.after)])]
        if isinstance(command, c.LeaveFight):
            fighter = state.fighter(command.combatant)
            if not state.in_fight(fighter.id):
                raise RuleError("freedice.not_in_fight", combatant=fighter.creature.name)
            return [_advanced(state, [enc.Leave(combatant=fighter.id)])]
        if isinstance(command, c.EndFight):
            _running(state)
            after = fold(state, e.FightEnded())
            return [e.FightEnded(expired=_expired(state, after))]
        return self._table(state, command)

    def _table(self, state: FreeDiceState, command: Command) -> list[Event]:
        if isinstance(command, c.ApplyEffect):
            state.fighter(command.target)
            duration = _duration(command)
            if duration.who is not None:
                state.fighter(duration.who)
            return [
                e.EffectApplied(
                    target=command.target,
                    name=command.name,
                    level=command.level,
                    duration=duration,
                )
            ]
        if isinstance(command, c.RemoveEffect):
            fighter = state.fighter(command.target)
            if not any(x.kind == command.name for x in state.effects.on(fighter.id)):
                raise RuleError(
                    "freedice.no_effect", name=command.name, combatant=fighter.creature.name
                )
            return [e.EffectRemoved(name=command.name, target=fighter.id)]
        if isinstance(command, c.ChangeTrack):
            return [self._track(state, command)]
        if isinstance(command, c.Move):
            return [self._move(state, command)]
        if isinstance(command, c.SetMap):
            return [
                e.MapSet(
                    width=command.width,
                    height=command.height,
                    square_m=command.square_m,
                    diagonal=command.diagonal,
                )
            ]
        if isinstance(command, c.PaintTerrain):
            names = tuple(dict.fromkeys(str(state.grid.square(name)) for name in command.squares))
            return [e.TerrainPainted(squares=names, terrain=command.terrain)]
        if isinstance(command, c.SetImage):
            return [e.ImageSet(image=command.image)]
        raise AssertionError(f"unknown command {command!r}")  # pragma: no cover

    def _track(self, state: FreeDiceState, command: c.ChangeTrack) -> e.TrackChanged:
        fighter = state.fighter(command.combatant)
        creature = fighter.creature
        old = creature.track(command.track)
        if command.maximum is not None:
            if command.maximum < old.floor:
                raise RuleError(
                    "freedice.bad_track",
                    track=command.track,
                    current=old.current,
                    floor=old.floor,
                    maximum=command.maximum,
                )
            clipped = min(old.current, command.maximum)
            track = Track(current=clipped, maximum=command.maximum, floor=old.floor)
            creature = creature.model_copy(
                update={"tracks": {**creature.tracks, command.track: track}}
            )
        _refuse_no_change(fighter.creature.name, creature.track(command.track), command)
        if command.change == "damage":
            creature = cr.damage(creature, command.track, command.amount)
        elif command.change == "heal":
            creature = cr.heal(creature, command.track, command.amount)
        else:
            creature = cr.set_track(creature, command.track, command.amount)
        new = creature.track(command.track)
        return e.TrackChanged(
            combatant=fighter.id,
            track=command.track,
            change=command.change,
            amount=command.amount,
            current=new.current,
            maximum=new.maximum,
        )

    def _move(self, state: FreeDiceState, command: c.Move) -> e.Moved:
        fighter = state.fighter(command.combatant)
        grid = state.grid
        size = fighter.creature.size
        goal = grid.square(command.to)
        if not fits(grid, goal, size):
            raise RuleError("freedice.blocked", to=command.to)
        _refuse_taken(state, fighter.id, goal, size, command.to)
        if command.free or fighter.position is None:
            return e.Moved(
                combatant=fighter.id,
                path=(str(goal),),
                cost=Decimal(0),
                diagonals=fighter.diagonals,
                free=True,
            )
        fighting = state.in_fight(fighter.id)
        if fighting:
            _turn_of(state, fighter.id)
        before = fighter.diagonals if fighting else 0
        blocked = tuple(blockers(state, fighter))
        if command.path is not None:
            path = (fighter.position, *(grid.square(name) for name in command.path))
            if path[-1] != goal:
                raise RuleError("freedice.path_end", to=command.to)
        else:
            found = cheapest_path(grid, fighter.position, goal, size, before, blocked)
            if found is None:
                raise RuleError("freedice.no_path", to=command.to)
            path = found
        cost, diagonals = move_cost(grid, path, size, before, blocked)
        if fighting:
            left = fighter.budgets.amount(MOVE)
            if cost > left:
                raise RuleError("freedice.too_far", to=command.to, count=cost, left=left)
        return e.Moved(
            combatant=fighter.id,
            path=square_names(path),
            cost=cost,
            diagonals=diagonals if fighting else 0,
        )

    def evolve(self, state: FreeDiceState, event: Event) -> FreeDiceState:
        """Fold one event into the state (see :func:`.rules.fold`)."""
        return fold(state, event)

    def contact(
        self, state: FreeDiceState, command: Command, events: Sequence[Event]
    ) -> list[Event] | None:
        """A visible move or placement that runs into something hidden in the GM's fold
        ``state`` stops short of it and discovers it (see :mod:`.contact`)."""
        return contact(state, command, events)

    def odds(self, state: FreeDiceState, command: Command) -> Odds | None:
        """The exact distribution of a roll (fractions for up to 100 dice); None otherwise."""
        if not isinstance(command, Roll):
            return None
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
        return Odds(
            outcomes=outcomes, mean=dist.mean, truncated=dist.truncated, hints=list(hints(node))
        )

    def access(self, state: FreeDiceState, command: Command) -> Access:
        """Rolls are open; the GM runs the fight and the map; owners act for their combatants."""
        if isinstance(command, GM_ONLY):
            return Access(gm_only=True)
        if isinstance(command, c.AddCharacter):
            return Access(piece=command.id, claims=True)
        if isinstance(command, c.Claim):
            return Access(piece=command.combatant, claims=True)
        if isinstance(command, c.EndTurn | c.DelayTurn | c.ChangeTrack | c.Move):
            return Access(piece=command.combatant)
        if isinstance(command, c.ApplyEffect | c.RemoveEffect):
            return Access(piece=command.target)
        return Access()

    def automatic_is_heavy(self, state: FreeDiceState) -> bool:
        """Never: :meth:`automatic` answers at once (the server asks it in its own thread)."""
        return False

    def automatic(self, state: FreeDiceState) -> Command | None:
        """The table never acts by itself."""
        return None

    def view(self, state: FreeDiceState, viewer: Viewer) -> dict[str, Any]:
        """The rolls, the map and the fight as ``viewer`` may see them (see :func:`.view.view`)."""
        return view(state, viewer)

    def view_viewer(self, state: FreeDiceState, viewer: Viewer) -> Viewer:
        """A viewer whose view of ``state`` is ``viewer``'s: without the participant id when
        no secret combatant is that participant's by name (the view reads the viewer only
        through :func:`~spieltisch.engine.creatures.visible_to` and the pieces), so that every
        such player of a table shares one view."""
        return cr.unnamed_viewer((f.creature for f in state.fighters), viewer)


def _refuse_taken(
    state: FreeDiceState, mover: str | None, square: Square, size: Size, to: str
) -> None:
    """A token never ends on another's square: ``freedice.occupied`` names who stands there."""
    occupied = taken(state, mover)
    for sq in footprint(square, size):
        if sq in occupied:
            raise RuleError("freedice.occupied", to=to, combatant=occupied[sq].creature.name)


def _refuse_no_change(name: str, track: Track, command: c.ChangeTrack) -> None:
    """Damage to a track at its floor, or healing of a full one, would change nothing: refused,
    so the button for it can say why (a new maximum in the same command is a change)."""
    if command.maximum is not None or command.amount <= 0:
        return
    if command.change == "damage" and track.current <= track.floor:
        raise RuleError(
            "freedice.track_at_floor", combatant=name, track=command.track, floor=track.floor
        )
    if command.change == "heal" and track.current >= track.maximum:
        raise RuleError(
            "freedice.track_full", combatant=name, track=command.track, maximum=track.maximum
        )
