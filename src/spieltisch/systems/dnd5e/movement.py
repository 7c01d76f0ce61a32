"""Checking one creature's move on the grid: cost, budget, spaces and opportunity attacks.

A move is a list of steps, each to a neighbouring square in a movement mode (walk, fly,
climb, swim, crawl), or a flyer's step up or down in its own square (rules edition 5).
:func:`check_move` walks it step by step on top of the toolkit's
:func:`~spieltisch.engine.grid.path_cost` and :func:`~spieltisch.engine.grid.reach_exits`
and stops at the first step that cannot be made, so the legal prefix is always known.

The budget follows the several-speeds rule: the movement spent so far (``spent``) is
subtracted from the speed of the mode in use; switching to another speed subtracts it from
the new one, and ≤ 0 left means no more movement this turn. Dash doubles every speed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Annotated, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictStr

from spieltisch.engine.errors import RuleError
from spieltisch.engine.grid import (
    Diagonal,
    Grid,
    PathCost,
    Size,
    Square,
    Step,
    StepCost,
    Token,
    distance,
    footprint,
    path_cost,
    reach_exits,
    square_name,
)
from spieltisch.engine.text import text_rule
from spieltisch.systems.dnd5e.later import Later
from spieltisch.systems.dnd5e.rules import (
    RUN_UP_M,
    SIZE_ORDER,
    high_jump_m,
    long_jump_m,
    size_steps,
    stand_up_cost,
)

__all__ = [
    "CANNOT_REACT",
    "JUMP_DC",
    "SPEED_ZERO",
    "Body",
    "JumpCheck",
    "MoveResult",
    "MoveStep",
    "TurnMovement",
    "check_move",
    "drag_halves",
    "ground_under",
    "narrow_at",
    "spatial_distance",
    "speed_for",
    "squeezed",
]

MoveMode = Literal["walk", "fly", "climb", "swim", "crawl"]

SPEED_ZERO = frozenset(
    {"grappled", "restrained", "paralyzed", "petrified", "stunned", "unconscious"}
)
"""Conditions that set a creature's speed to 0."""
CANNOT_REACT = frozenset({"incapacitated", "paralyzed", "petrified", "stunned", "unconscious"})
"""Conditions under which a creature takes no actions or reactions."""
JUMP_DC = 10
"""The DC of the Athletics check over a low obstacle and the Acrobatics check of a landing."""
TINY_PER_SQUARE = 4
"""Tiny creatures that fit into one square (0.75 m × 0.75 m each)."""


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Body(_Frozen):
    """A creature as the movement rules see it."""

    id: str
    side: str
    size: Size = Size.MEDIUM
    position: Square
    speeds: dict[str, Decimal] = Field(default_factory=dict)
    reach_m: Decimal = Decimal("1.5")
    conditions: frozenset[str] = frozenset()
    hover: bool = False
    strength: int = 10
    """The Strength score (for jumps)."""
    altitude_m: Decimal = Decimal(0)
    """How high it flies above the ground under it."""

    @property
    def token(self) -> Token:
        """The toolkit's token of this body (for reach)."""
        return Token(id=self.id, position=self.position, size=self.size, reach_m=self.reach_m)


class MoveStep(Later):
    """One step: the square the creature's position moves to, and how."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    later: ClassVar[frozenset[str]] = frozenset({"altitude_m"})

    to: Annotated[StrictStr, Field(max_length=8), text_rule(8)]
    mode: MoveMode = "walk"
    jump: Literal["long", "high"] | None = None
    """Part of a jump: consecutive ``long`` steps are one long jump; a ``high`` step jumps
    ``height_m`` up on its way to the next square."""
    height_m: Decimal | None = Field(default=None, gt=0, le=30)
    obstacle: StrictBool = False
    """The jump clears a low obstacle (the GM may ask for a DC 10 Strength (Athletics) check)."""
    altitude_m: Decimal | None = Field(default=None, ge=0, le=1000, decimal_places=1)
    """A flying step: the height above the ground it ends at (None: the height it had)."""


class JumpCheck(_Frozen):
    """A DC 10 check a jump calls for, reported to the GM (who rolls or rules on it)."""

    step: int
    ability: Literal["str", "dex"]
    skill: Literal["athletics", "acrobatics"]
    dc: int = JUMP_DC
    reason: Literal["obstacle", "difficult_landing"]


class TurnMovement(_Frozen):
    """What a creature has used of its movement this turn."""

    spent: Decimal = Decimal(0)
    """Metres of movement spent (difficult terrain and standing up included)."""
    mode: str | None = None
    """The speed in use (``walk``, ``fly``, ``climb``, ``swim``); None before any move."""
    diagonals: int = 0
    """Diagonal steps so far (for the 5-10-5 rule)."""
    dashes: int = 0
    """Dash actions taken this turn: each adds the speed once more."""


class MoveResult(_Frozen):
    """The outcome of a checked move."""

    legal: bool
    cost_m: Decimal
    remaining_m: Decimal
    path: tuple[Square, ...]
    """The positions of the legal prefix, the start first."""
    movement: TurnMovement
    """The turn's movement after the legal prefix."""
    opportunity_attacks: tuple[tuple[str, int], ...]
    """(reactor, step index from 0) for each first exit from a hostile reach."""
    error: RuleError | None = None
    error_step: int | None = None
    stood_up: bool = False
    checks: tuple[JumpCheck, ...] = ()
    """The DC 10 checks the jumps of the legal prefix call for."""
    drag_path: tuple[Square, ...] = ()
    """The positions of the dragged creature along the legal prefix (empty: no drag)."""
    altitude_m: Decimal = Decimal(0)
    """The mover's height above the ground at the end of the legal prefix."""

    model_config = ConfigDict(frozen=True, extra="forbid", arbitrary_types_allowed=True)


def speed_for(body: Body, mode: str) -> tuple[str, Decimal, bool]:
    """The speed a mode uses: (speed name, metres, whether each metre costs one extra).

    Climbing and swimming use a climb or swim speed when the creature has one, else the walking
    speed at +1 m per metre; crawling always uses the walking speed at +1 m per metre, and so
    does squeezing, in every mode. A speed condition sets every speed to 0.
    """
    zero = bool(body.conditions & SPEED_ZERO)
    if mode in ("climb", "swim") and mode in body.speeds:
        name, extra = mode, False
    elif mode == "fly":
        name, extra = "fly", False
    else:
        name, extra = "walk", mode != "walk"
    metres = Decimal(0) if zero else body.speeds.get(name, Decimal(0))
    return name, metres, extra or "squeezing" in body.conditions


def squeezed(size: Size) -> Size:
    """The size whose space a squeezing creature fits through: one size smaller (tiny
    stays tiny)."""
    return SIZE_ORDER[max(SIZE_ORDER.index(size) - 1, 0)]


def _walled(grid: Grid, squares: Sequence[Square]) -> bool:
    return any("wall" in grid.terrain_at(sq) for sq in squares)


def narrow_at(grid: Grid, size: Size, position: Square) -> bool:
    """Whether a creature of ``size`` at ``position`` squeezes by the map: the walls leave a
    passage narrower than its space but wide enough for the space of one size smaller (its
    space meets a wall, that smaller space at the same corner does not)."""
    smaller = squeezed(size)
    if smaller is size:
        return False
    return _walled(grid, footprint(position, size)) and not _walled(
        grid, footprint(position, smaller)
    )


def ground_under(ground: Mapping[str, Decimal], position: Square, size: Size) -> Decimal:
    """The ground height (metres) under a creature's space: the highest of its squares, 0 for
    a square without a height."""
    return max(ground.get(square_name(sq), Decimal(0)) for sq in footprint(position, size))


def spatial_distance(flat_m: Decimal, rise_m: Decimal, grid: Grid) -> Decimal:
    """The distance between two creatures ``flat_m`` apart on the map and ``rise_m`` apart
    in height: the height is a third axis under the map's diagonal rule (uniform: the longer
    of the two; 5-10-5: the longer plus one square for every second square of the shorter,
    the height counted in whole squares, rounded up)."""
    if rise_m <= 0:
        return flat_m
    if grid.diagonal is not Diagonal.ALTERNATING:
        return max(flat_m, rise_m)
    square = grid.square_m
    rise = -(-rise_m // square) * square
    longer, shorter = max(flat_m, rise), min(flat_m, rise)
    return longer + (shorter // (2 * square)) * square


def drag_halves(mover: Size, held: Size) -> bool:
    """Whether dragging a grappled creature halves the grappler's speed: always, unless the
    grappled creature is two or more sizes smaller than the grappler."""
    return SIZE_ORDER.index(mover) - SIZE_ORDER.index(held) < 2


def _dragging(mover: Body, held: Body) -> Body:
    """The mover as it moves while dragging ``held`` (its speeds halved where the rule says)."""
    if not drag_halves(mover.size, held.size):
        return mover
    return mover.model_copy(update={"speeds": {k: v / 2 for k, v in mover.speeds.items()}})


def _drag_error(
    grid: Grid,
    held: Body,
    others: Sequence[Body],
    step: MoveStep,
    index: int,
    at: tuple[int, int],
    last: bool,
    ground: Mapping[str, Decimal],
    before: Square,
) -> tuple[RuleError, int] | None:
    """Why the dragged creature cannot be pulled to ``at`` (x, y) at step ``index``, if so."""
    if step.mode == "fly" or step.jump is not None:
        return _refuse("dnd5e.move.drag_mode", index, creature=held.id, mode=step.mode)
    x, y = at
    side = held.size.squares
    if x < 0 or y < 0 or x + side > grid.width or y + side > grid.height:
        return _refuse("dnd5e.move.drag_blocked", index, creature=held.id, to=step.to)
    squares = footprint(Square(x=x, y=y), held.size)
    blocked = _refuse(
        "dnd5e.move.drag_blocked", index, creature=held.id, to=square_name(squares[0])
    )
    if any("wall" in grid.terrain_at(sq) for sq in squares):
        return blocked
    if ground_under(ground, squares[0], held.size) != ground_under(ground, before, held.size):
        return blocked
    mine = set(squares)
    for other in others:
        if not mine & set(footprint(other.position, other.size)):
            continue
        if last or (other.side != held.side and size_steps(held.size, other.size) < 2):
            return blocked
    return None


def _refuse(code: str, index: int, **params: object) -> tuple[RuleError, int]:
    return RuleError(code, step=index, **params), index


def check_move(
    grid: Grid,
    mover: Body,
    others: Sequence[Body],
    steps: Sequence[MoveStep],
    *,
    before: TurnMovement | None = None,
    stand_up: bool = False,
    disengage: bool = False,
    forced: bool = False,
    midway: bool = False,
    drag: Body | None = None,
    ground: Mapping[str, Decimal] | None = None,
    slowed: frozenset[Square] = frozenset(),
    in_space: bool = False,
    in_place: bool = False,
) -> MoveResult:
    """Check ``mover``'s move along ``steps`` and say what it costs and provokes.

    ``others`` are the other creatures on the grid (a different side is hostile). ``before``
    is what the creature used of its movement earlier this turn. Never raises for a step that
    cannot be made: the result names the first such step (0-based) and its error, and costs the
    legal prefix. ``forced`` marks movement that is not the creature's own (no budget, no
    opportunity attacks). ``midway`` checks the first part of a move that goes on later (it
    stops where an opportunity attack interrupts it), so it may stop in another creature's
    space. ``drag`` is a creature the mover grapples and drags along: it keeps its place
    beside the mover (each step moves it the same way), provokes nothing, and the mover's
    speeds are halved unless it is two or more sizes smaller (see :func:`drag_halves`).
    ``ground`` holds the map's ground heights by square name: a step that changes the ground
    height under the mover must climb (flying ignores it) and pays the height climbed on top
    of the step, at the climbing rate; a dragged creature is never pulled up or down.
    ``slowed`` are the squares where the mover's speed is halved (an aura such as Spirit
    Guardians): a step onto one costs twice what it would. ``in_space`` finds opportunity
    attacks with heights (ground and flying) as a third axis (rules edition 4,
    :func:`_opportunities_in_space`); else on the flat map. ``in_place`` lets a flyer rise or
    sink without leaving its square (rules edition 5): a ``fly`` step onto its own square to a
    new ``altitude_m``, paying the height (:func:`rise_in_place`); else every step must leave
    the square.
    """
    heights = ground or {}
    own = mover
    if drag is not None:
        others = [o for o in others if o.id != drag.id]
    turn = before or TurnMovement()
    factor = 1 + turn.dashes
    spent = turn.spent
    mode_in_use = turn.mode
    diagonals = turn.diagonals
    position = mover.position
    path = [position]
    error: tuple[RuleError, int] | None = None
    prone = "prone" in mover.conditions
    stood = False
    start_cost = spent
    if stand_up and prone and not forced:
        _, walk, _ = speed_for(mover, "walk")
        cost = stand_up_cost(walk)
        if walk <= 0:
            error = _refuse("dnd5e.move.stand_speed_zero", 0)
        elif walk * factor - spent < cost:
            error = _refuse(
                "dnd5e.move.stand_too_little", 0, cost=str(cost), left=str(walk * factor - spent)
            )
        else:
            spent += cost
            stood, prone = True, False
    if drag is not None:
        mover = _dragging(mover, drag)
    dragged = [drag.position] if drag is not None else []
    altitudes = [mover.altitude_m]
    run_up = Decimal(0)
    jumped = Decimal(0)
    checks: list[JumpCheck] = []
    for index, step in enumerate(steps):
        if error is not None:
            break
        error = _step_error(grid, mover, others, step, index, position, prone, in_place)
        if error is None and step.jump is not None:
            error = _jump_error(step, index)
        if error is not None:
            break
        target = grid.square(step.to)
        name, speed, extra = speed_for(mover, step.mode)
        narrow = "squeezing" not in mover.conditions and narrow_at(grid, mover.size, target)
        size = squeezed(mover.size) if narrow else mover.size
        extra = extra or narrow
        if step.mode == "fly" and "fly" not in mover.speeds:
            error = _refuse("dnd5e.move.no_speed", index, mode="fly")
            break
        if drag is not None:
            at = (
                drag.position.x + target.x - mover.position.x,
                drag.position.y + target.y - mover.position.y,
            )
            last = index == len(steps) - 1 and not (forced or midway)
            error = _drag_error(grid, drag, others, step, index, at, last, heights, dragged[-1])
            if error is not None:
                break
            dragged.append(Square(x=at[0], y=at[1]))
        vertical = Decimal(0)
        aloft = altitudes[-1] if step.altitude_m is None else step.altitude_m
        if step.mode == "fly":
            vertical = abs(aloft - altitudes[-1])
        elif aloft:
            error = _refuse("dnd5e.move.aloft", index, height=str(aloft))
            break
        still = target == position
        if still and (step.mode != "fly" or step.jump is not None or aloft == altitudes[-1]):
            error = _refuse("dnd5e.move.in_place", index, to=step.to)
            break
        if heights and step.mode != "fly":
            rise = ground_under(heights, target, mover.size) - ground_under(
                heights, position, mover.size
            )
            if rise and (step.mode != "climb" or step.jump is not None):
                error = _refuse("dnd5e.move.needs_climb", index, to=step.to, height=str(abs(rise)))
                break
            vertical = abs(rise)
        occupied = _occupied(footprint(target, size), others)

        jumping = step.jump is not None

        def price(
            s: Step,
            extra: bool = extra,
            occupied: bool = occupied,
            jumping: bool = jumping,
            vertical: Decimal = vertical,
        ) -> Decimal:
            if jumping:  # in the air: each jumped metre costs one metre
                return s.base
            difficult = "difficult" in s.terrain or occupied
            per_metre = 1 + (2 if extra and difficult else 1 if extra or difficult else 0)
            return (s.base + vertical) * per_metre

        paid = (
            rise_in_place(grid, position, size, price, diagonals)
            if still
            else path_cost(
                grid,
                [position, target],
                price,
                mode=step.mode,
                size=size,
                diagonals_before=diagonals,
            )
        )
        total = paid.total * (2 if target in slowed else 1)
        if step.jump is not None:
            standing = run_up < RUN_UP_M
            if step.jump == "long":
                jumped += paid.total
                limit = long_jump_m(mover.strength, standing=standing)
                if jumped > limit:
                    error = _refuse(
                        "dnd5e.move.jump_too_far", index, limit=str(limit), length=str(jumped)
                    )
                    break
            else:
                height = step.height_m or Decimal(0)
                limit = high_jump_m(mover.strength, standing=standing)
                if height > limit:
                    error = _refuse(
                        "dnd5e.move.jump_too_high", index, limit=str(limit), height=str(height)
                    )
                    break
                total += height
            landing = index + 1 == len(steps) or steps[index + 1].jump != step.jump
            if step.jump == "high":
                landing = True
            if step.obstacle:
                checks.append(
                    JumpCheck(step=index, ability="str", skill="athletics", reason="obstacle")
                )
            if landing:
                land = frozenset().union(
                    *(grid.terrain_at(sq) for sq in footprint(target, mover.size))
                )
                if "water" in land:
                    error = _refuse("dnd5e.move.needs_swim", index, to=step.to)
                    break
                if "difficult" in land:
                    checks.append(
                        JumpCheck(
                            step=index,
                            ability="dex",
                            skill="acrobatics",
                            reason="difficult_landing",
                        )
                    )
                run_up, jumped = Decimal(0), Decimal(0)
        elif step.mode == "walk":
            run_up += paid.total
        else:
            run_up = Decimal(0)
        if not forced:
            left = speed * factor - spent
            if left <= 0:
                error = _refuse("dnd5e.move.no_movement_left", index, mode=name)
                break
            if total > left:
                error = _refuse(
                    "dnd5e.move.too_far", index, cost=str(total), left=str(left), mode=name
                )
                break
            spent += total
        mode_in_use = name
        diagonals = paid.diagonals
        position = target
        path.append(position)
        altitudes.append(aloft)
    if error is None and len(path) > 1 and not forced and not midway:
        end = _end_error(mover, others, path[-1], len(path) - 2)
        if end is not None:
            error = end
            path.pop()
            dragged = dragged[: len(path)]
            spent = _prefix_cost(
                grid,
                own,
                others,
                steps,
                turn,
                stood,
                len(path) - 1,
                drag,
                heights,
                slowed,
                in_place,
            )
            mode_in_use = _prefix_mode(mover, steps, turn, len(path) - 1)
    body = mover.model_copy(update={"position": path[0]})
    if disengage or forced:
        exits: tuple[tuple[str, int], ...] = ()
    elif in_space:
        exits = _opportunities_in_space(grid, body, others, path, altitudes[: len(path)], heights)
    else:
        exits = _opportunities(grid, body, others, path)
    used_mode = mode_in_use or "walk"
    _, speed_now, _ = speed_for(mover, used_mode)
    remaining = (
        max(speed_now * factor - spent, Decimal(0)) if not forced else speed_now * factor - spent
    )
    movement = TurnMovement(spent=spent, mode=mode_in_use, diagonals=diagonals, dashes=turn.dashes)
    return MoveResult(
        legal=error is None,
        cost_m=spent - start_cost,
        remaining_m=max(remaining, Decimal(0)),
        path=tuple(path),
        movement=movement,
        opportunity_attacks=exits,
        error=None if error is None else error[0],
        error_step=None if error is None else error[1],
        stood_up=stood,
        checks=tuple(c for c in checks if c.step < len(path) - 1),
        drag_path=tuple(dragged),
        altitude_m=altitudes[len(path) - 1],
    )


def _jump_error(step: MoveStep, index: int) -> tuple[RuleError, int] | None:
    if step.mode != "walk":
        return _refuse("dnd5e.move.jump_on_foot", index, mode=step.mode)
    if step.jump == "high" and step.height_m is None:
        return _refuse("dnd5e.move.jump_height_missing", index)
    return None


def rise_in_place(
    grid: Grid, position: Square, size: Size, price: StepCost, diagonals: int
) -> PathCost:
    """What a flyer's step up or down without leaving ``position`` costs (rules edition 5): a
    step of no metres across priced like any other (``price`` adds the height, doubled where
    squeezing or in a difficult or occupied space); the diagonal count does not change."""
    terrain = frozenset().union(*(grid.terrain_at(sq) for sq in footprint(position, size)))
    cost = price(Step(position, position, terrain, "fly", Decimal(0), False, 0))
    assert cost is not None
    return PathCost(total=cost, steps=(cost,), diagonals=diagonals)


def _prefix_cost(
    grid: Grid,
    mover: Body,
    others: Sequence[Body],
    steps: Sequence[MoveStep],
    turn: TurnMovement,
    stood: bool,
    count: int,
    drag: Body | None,
    ground: Mapping[str, Decimal],
    slowed: frozenset[Square],
    in_place: bool,
) -> Decimal:
    """The movement spent after the first ``count`` steps (re-checked without the rest)."""
    again = check_move(
        grid,
        mover,
        others,
        steps[:count],
        before=turn,
        stand_up=stood,
        disengage=True,
        drag=drag,
        ground=ground,
        slowed=slowed,
        in_place=in_place,
    )
    return again.movement.spent


def _prefix_mode(
    mover: Body, steps: Sequence[MoveStep], turn: TurnMovement, count: int
) -> str | None:
    if count == 0:
        return turn.mode
    return speed_for(mover, steps[count - 1].mode)[0]


def _occupied(squares: Sequence[Square], others: Sequence[Body]) -> bool:
    taken = set(squares)
    return any(taken & set(footprint(o.position, o.size)) for o in others)


def _step_error(
    grid: Grid,
    mover: Body,
    others: Sequence[Body],
    step: MoveStep,
    index: int,
    position: Square,
    prone: bool,
    in_place: bool = False,
) -> tuple[RuleError, int] | None:
    try:
        target = grid.square(step.to)
    except RuleError as error:
        return RuleError(error.code, step=index, **error.params), index
    side = mover.size.squares
    if target.x + side > grid.width or target.y + side > grid.height:
        return _refuse("dnd5e.move.off_grid", index, to=step.to)
    if max(abs(target.x - position.x), abs(target.y - position.y)) != 1 and not (
        in_place and target == position
    ):
        return _refuse("dnd5e.move.not_adjacent", index, frm=square_name(position), to=step.to)
    if prone and step.mode != "crawl":
        return _refuse("dnd5e.move.prone_crawl", index, mode=step.mode)
    narrow = "squeezing" not in mover.conditions and narrow_at(grid, mover.size, target)
    squares = footprint(target, squeezed(mover.size) if narrow else mover.size)
    terrain = frozenset().union(*(grid.terrain_at(sq) for sq in squares))
    if "wall" in terrain:
        return _refuse("dnd5e.move.wall", index, to=step.to)
    if "water" in terrain and step.mode not in ("swim", "fly") and step.jump is None:
        return _refuse("dnd5e.move.needs_swim", index, to=step.to)
    if step.mode == "swim" and "water" not in terrain:
        return _refuse("dnd5e.move.no_water", index, to=step.to)
    mine = set(squares)
    for other in others:
        if (
            other.side != mover.side
            and mine & set(footprint(other.position, other.size))
            and size_steps(mover.size, other.size) < 2
        ):
            return _refuse("dnd5e.move.hostile_space", index, creature=other.id, to=step.to)
    return None


def _end_error(
    mover: Body, others: Sequence[Body], end: Square, index: int
) -> tuple[RuleError, int] | None:
    mine = set(footprint(end, mover.size))
    sharing = [o for o in others if mine & set(footprint(o.position, o.size))]
    if not sharing:
        return None
    if (
        mover.size is Size.TINY
        and all(o.size is Size.TINY for o in sharing)
        and len(sharing) < TINY_PER_SQUARE
    ):
        return None
    return _refuse("dnd5e.move.ends_in_space", index, creature=sharing[0].id, to=square_name(end))


def _opportunities(
    grid: Grid, mover: Body, others: Sequence[Body], path: Sequence[Square]
) -> tuple[tuple[str, int], ...]:
    reactors = [
        o.token for o in others if o.side != mover.side and not (o.conditions & CANNOT_REACT)
    ]
    seen: set[str] = set()
    found: list[tuple[str, int]] = []
    for exit_ in reach_exits(grid, mover.token, path, reactors):
        if exit_.creature not in seen:
            seen.add(exit_.creature)
            found.append((exit_.creature, exit_.step - 1))
    return tuple(found)


def _opportunities_in_space(
    grid: Grid,
    mover: Body,
    others: Sequence[Body],
    path: Sequence[Square],
    altitudes: Sequence[Decimal],
    heights: Mapping[str, Decimal],
) -> tuple[tuple[str, int], ...]:
    """The reactors whose reach the mover leaves along ``path``, and the step that leaves it
    (each reactor once), with the height of each square of the path (its ground plus the
    mover's flying height there, ``altitudes``) and of each reactor as a third axis
    (:func:`spatial_distance`): a step provokes when the mover was within the reactor's reach
    before it and is not after. A flyer 6 m above a goblin is out of its 1.5 m reach, and
    rising straight out of reach provokes."""

    def apart(other: Body, index: int) -> Decimal:
        at = path[index]
        flat = distance(grid, at, mover.size, other.position, other.size)
        rise = abs(
            ground_under(heights, at, mover.size)
            + altitudes[index]
            - ground_under(heights, other.position, other.size)
            - other.altitude_m
        )
        return spatial_distance(flat, rise, grid)

    found: list[tuple[str, int]] = []
    for other in others:
        if other.side == mover.side or other.conditions & CANNOT_REACT:
            continue
        for index in range(len(path) - 1):
            if apart(other, index) <= other.reach_m < apart(other, index + 1):
                found.append((other.id, index))
                break
    return tuple(sorted(found, key=lambda x: x[1]))


def bodies_by_id(bodies: Sequence[Body]) -> Mapping[str, Body]:
    """Bodies by id."""
    return {b.id: b for b in bodies}
