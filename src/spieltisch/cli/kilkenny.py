"""``spieltisch kilkenny``: play Kilkenny Cats in the terminal, list legal moves, AI matches."""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from pathlib import Path
from random import Random
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
from rich.table import Table
from rich.text import Text

from spieltisch.cli.app import app
from spieltisch.cli.context import emit_json, fail, help_text, settings, t
from spieltisch.cli.dice import percent
from spieltisch.engine.errors import RuleError
from spieltisch.errors import SpieltischError
from spieltisch.i18n import error_message
from spieltisch.systems.kilkenny.ai import PLAYER_NAMES, make_player
from spieltisch.systems.kilkenny.ai.match import MatchResult, play_match
from spieltisch.systems.kilkenny.board import Move
from spieltisch.systems.kilkenny.chances import chances_json
from spieltisch.systems.kilkenny.commands import MAX_BUDGET
from spieltisch.systems.kilkenny.layout import get_layout
from spieltisch.systems.kilkenny.position import Position, parse_move
from spieltisch.systems.kilkenny.rules import EndReason, OutcomeKind
from spieltisch.systems.kilkenny.system import (
    Captured,
    EnteredHole,
    GameOver,
    KilkennyState,
    KilkennySystem,
    MoveCommand,
    Moved,
    Passed,
    RollCommand,
    Rolled,
)

__all__ = ["kilkenny_app", "render_board"]

SAVE_FORMAT = "spieltisch-kilkenny/1"

kilkenny_app = typer.Typer(no_args_is_help=True, help=help_text("cli.help.kilkenny"))
app.add_typer(kilkenny_app, name="kilkenny")

_COLOURS = {"S": "bold red", "W": "bold green", "N": "bold blue", "E": "bold yellow"}


# -- rendering -------------------------------------------------------------------------------


def render_board(position: Position) -> Text:
    """The board with rank and file labels; holes drawn beside the edges (``○`` free)."""
    geo = position.geometry
    size = position.layout.size
    owner: dict[int, str] = {}
    for player, seat in enumerate(position.seats):
        for cell in position.cats[player]:
            owner[cell] = seat
    holes: dict[tuple[int, int], tuple[str, bool]] = {}
    for player, seat in enumerate(position.seats):
        for number, cell in enumerate(geo.hole_cells[player]):
            holes[geo.xy(cell)] = (seat, number in position.home[player])
    text = Text()
    for y in range(size, -2, -1):
        label = str(y + 1) if 0 <= y < size else ""
        text.append(f"{label:>3} ")
        for x in range(-1, size + 1):
            if (x, y) in holes:
                seat, filled = holes[(x, y)]
                text.append(f" {seat if filled else '○'} ", style=_COLOURS.get(seat, "bold"))
            elif 0 <= x < size and 0 <= y < size:
                cell = geo.cell(x, y)
                if cell in owner:
                    text.append(f" {owner[cell]} ", style=_COLOURS.get(owner[cell], "bold"))
                else:
                    text.append(" · ", style="dim")
            else:
                text.append("   ")
        text.append("\n")
    text.append("    " + "   " + "".join(f" {chr(97 + x)} " for x in range(size)) + "\n")
    return text


def _seat_label(seat: str) -> str:
    return f"{seat} {t(f'kilkenny.seat.{seat}')}"


def _describe(events: list[Any], position: Position) -> list[str]:
    lines = []
    for event in events:
        if isinstance(event, Rolled):
            lines.append(t("kilkenny.cli.rolled", seat=_seat_label(event.seat), value=event.value))
        elif isinstance(event, Passed):
            lines.append(t("kilkenny.cli.passed", seat=_seat_label(event.seat), value=event.roll))
        elif isinstance(event, Captured):
            lines.append(
                t("kilkenny.cli.captured", seat=_seat_label(event.seat), square=event.square)
            )
        elif isinstance(event, Moved):
            capture = any(isinstance(e, Captured) for e in events)
            move = f"{event.origin}{'x' if capture else '-'}{event.target}"
            lines.append(t("kilkenny.cli.moved", seat=_seat_label(event.seat), move=move))
        elif isinstance(event, EnteredHole):
            lines.append(t("kilkenny.cli.entered", seat=_seat_label(event.seat), hole=event.hole))
        elif isinstance(event, GameOver):
            lines.append(_ending_text(event))
    return lines


def _ending_text(event: GameOver) -> str:
    if event.result is OutcomeKind.WIN:
        key = "kilkenny.cli.won_home" if event.reason is EndReason.HOME else "kilkenny.cli.won_last"
        return t(key, seat=_seat_label(event.winner or "?"))
    if event.result is OutcomeKind.CAPPED:
        return t("kilkenny.cli.capped")
    if event.reason is EndReason.BLOCKED:
        return t("kilkenny.cli.draw_blocked")
    return t("kilkenny.cli.draw_no_cats")


# -- a game in the terminal ------------------------------------------------------------------


@dataclass
class _Game:
    """A game played through the game system, with its events and undo points."""

    system: KilkennySystem
    options: dict[str, Any]
    seed: int
    state: KilkennyState
    rng: Random
    events: list[dict[str, Any]] = field(default_factory=list)
    draws: int = 0
    checkpoints: list[int] = field(default_factory=list)
    """Event counts at which a human had to choose a move (for undo)."""

    def apply(self, command: Any) -> list[Any]:
        outer = self

        class _Source:
            def roll(self, sides: int) -> int:
                outer.draws += 1
                return outer.rng.randint(1, sides)

        events = self.system.decide(self.state, command, _Source())
        for event in events:
            self.state = self.system.evolve(self.state, event)
            self.events.append(self.system.events.dump_python(event, mode="json"))
        return events

    def rebuild(self, count: int) -> None:
        state = self.system.new_state(self.options)
        for data in self.events[:count]:
            state = self.system.evolve(state, self.system.events.validate_python(data))
        self.events = self.events[:count]
        self.state = state

    def save(self, path: Path) -> None:
        data = {
            "format": SAVE_FORMAT,
            "options": self.options,
            "seed": self.seed,
            "draws": self.draws,
            "position": self.state.position.to_text(),
            "events": self.events,
        }
        path.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, system: KilkennySystem, path: Path) -> _Game:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if data.get("format") != SAVE_FORMAT:
                raise ValueError(str(data.get("format")))
            options, seed, draws = dict(data["options"]), int(data["seed"]), int(data["draws"])
            game = cls(system, options, seed, system.new_state(options), Random(seed))
            game.events = list(data["events"])
            game.rebuild(len(game.events))
        except (OSError, ValueError, KeyError, TypeError) as error:
            raise RuleError("kilkenny.bad_save", value=str(path), detail=str(error)) from None
        except SpieltischError as error:
            raise RuleError("kilkenny.bad_save", value=str(path), detail=error.code) from None
        for _ in range(draws):
            game.rng.randint(1, 6)
        game.draws = draws
        return game


def _seat_options(players: int, ai: list[str], budget: int | None) -> list[dict[str, Any]]:
    names = [name.strip().lower() for name in ai]
    for name in names:
        if name != "human" and name not in PLAYER_NAMES:
            raise RuleError("kilkenny.unknown_ai", value=name, known=", ".join(PLAYER_NAMES))
    if len(names) > players:
        raise RuleError("kilkenny.too_many_ai", value=len(names), players=players)
    seats = ["human"] * (players - len(names)) + names
    return [
        {"player": name, "budget": budget} if name == "strongest" and budget else {"player": name}
        for name in seats
    ]


@kilkenny_app.command("play", help=help_text("cli.help.kilkenny.play"))
def play(
    players: Annotated[
        int, typer.Option("--players", help=help_text("cli.help.kilkenny.opt.players"))
    ] = 2,
    ai: Annotated[
        list[str] | None, typer.Option("--ai", help=help_text("cli.help.kilkenny.opt.ai"))
    ] = None,
    seed: Annotated[
        int | None, typer.Option("--seed", help=help_text("cli.help.kilkenny.opt.seed"))
    ] = None,
    budget: Annotated[
        int | None, typer.Option("--budget", help=help_text("cli.help.kilkenny.opt.budget"))
    ] = None,
    layout: Annotated[
        str, typer.Option("--layout", help=help_text("cli.help.kilkenny.opt.layout"))
    ] = "default",
    load: Annotated[
        Path | None, typer.Option("--load", help=help_text("cli.help.kilkenny.opt.load"))
    ] = None,
) -> None:
    """Play a game in the terminal."""
    system = KilkennySystem()
    console = settings.console
    try:
        if load is not None:
            game = _Game.load(system, load)
        else:
            if budget is not None and not 1 <= budget <= MAX_BUDGET:
                raise RuleError("kilkenny.bad_budget", value=budget, max=MAX_BUDGET)
            get_layout(layout)
            options = {
                "players": players,
                "layout": layout,
                "seats": _seat_options(players, ai or [], budget),
            }
            chosen = seed if seed is not None else Random().randrange(1 << 31)
            game = _Game(system, options, chosen, system.new_state(options), Random(chosen))
    except SpieltischError as error:
        fail(error)
    _loop(game, console)


def _loop(game: _Game, console: Console) -> None:
    system = game.system
    shown = -1
    while game.state.outcome is None:
        state = game.state
        position = state.position
        option = state.seat_option(position.seat)
        if position.ply != shown and position.roll is None:
            shown = position.ply
            console.print(render_board(position), soft_wrap=True)
            name = t("kilkenny.cli.human") if option.player == "human" else option.player
            console.print(
                t(
                    "kilkenny.cli.turn",
                    seat=_seat_label(position.seat),
                    name=name,
                    ply=position.ply,
                ),
                soft_wrap=True,
            )
        if option.player != "human":
            command = system.automatic(state)
            if command is None:
                break
            for line in _describe(game.apply(command), position):
                console.print(line, soft_wrap=True)
            continue
        if position.roll is None:
            for line in _describe(game.apply(RollCommand()), position):
                console.print(line, soft_wrap=True)
            continue
        if not _human_move(game, console):
            return
    console.print(render_board(game.state.position), soft_wrap=True)


def _human_move(game: _Game, console: Console) -> bool:
    """Ask the human to move; ``False`` when they quit."""
    position = game.state.position
    moves = position.legal_moves()
    listed = ", ".join(position.notation(m) for m in moves)
    console.print(t("kilkenny.cli.legal", moves=listed), soft_wrap=True)
    example = position.notation(moves[0])
    checkpoint = len(game.events)
    while True:
        try:
            answer = typer.prompt(t("kilkenny.cli.prompt", example=example), prompt_suffix="> ")
        except (typer.Abort, EOFError):
            console.print(t("kilkenny.cli.quit"), soft_wrap=True)
            return False
        words = answer.strip().split()
        if not words:
            continue
        verb = words[0].lower()
        if verb in ("quit", "exit", "q"):
            console.print(t("kilkenny.cli.quit"), soft_wrap=True)
            return False
        if verb == "save" and len(words) == 2:
            try:
                game.save(Path(words[1]))
            except OSError as error:
                console.print(
                    t("kilkenny.bad_save", value=words[1], detail=error.strerror or str(error)),
                    soft_wrap=True,
                )
                continue
            console.print(t("kilkenny.cli.saved", path=words[1]), soft_wrap=True)
            continue
        if verb == "undo":
            if not game.checkpoints:
                console.print(t("kilkenny.cli.nothing_to_undo"), soft_wrap=True)
                continue
            game.rebuild(game.checkpoints.pop())
            console.print(t("kilkenny.cli.undone"), soft_wrap=True)
            console.print(render_board(game.state.position), soft_wrap=True)
            return True
        try:
            origin, target = parse_move(answer)
            events = game.apply(MoveCommand(origin=origin, target=target))
        except SpieltischError as error:
            console.print(f"[bold red]{t('cli.error')}:[/] {_message(error)}", soft_wrap=True)
            continue
        game.checkpoints.append(checkpoint)
        for line in _describe(events, position):
            console.print(line, soft_wrap=True)
        return True


def _message(error: SpieltischError) -> str:
    return error_message(error, settings.lang)


# -- moves -----------------------------------------------------------------------------------


@kilkenny_app.command("moves", help=help_text("cli.help.kilkenny.moves"))
def moves(
    roll: Annotated[int, typer.Option("--roll", help=help_text("cli.help.kilkenny.opt.roll"))],
    players: Annotated[
        int, typer.Option("--players", help=help_text("cli.help.kilkenny.opt.players"))
    ] = 2,
    position_text: Annotated[
        str | None, typer.Option("--position", help=help_text("cli.help.kilkenny.opt.position"))
    ] = None,
    layout: Annotated[
        str, typer.Option("--layout", help=help_text("cli.help.kilkenny.opt.layout"))
    ] = "default",
    as_json: Annotated[
        bool, typer.Option("--json", help=help_text("cli.help.kilkenny.opt.json"))
    ] = False,
    odds: Annotated[bool, typer.Option("--odds", help=help_text("cli.help.kilkenny.opt.odds"))] = (
        False
    ),
) -> None:
    """Print the legal moves of the player to move for a roll (with ``--odds``, each with
    the chance that the moved cat is captured and that the player can enter a hole next)."""
    try:
        if not 1 <= roll <= 6:
            raise RuleError("kilkenny.bad_roll_option", value=roll)
        chosen = get_layout(layout)
        if position_text is not None:
            position = Position.from_text(position_text, chosen)
        else:
            position = Position.start(players, chosen)
    except SpieltischError as error:
        fail(error, as_json=as_json)
    geo = position.geometry
    legal = position.legal_moves(roll)
    if odds:
        found = chances_json(replace(position, roll=roll))
        if as_json:
            emit_json({"moves": found})
            return
        _print_chances(position, legal, found)
        return
    if as_json:
        emit_json({"moves": [{"from": geo.name(m[0]), "to": geo.name(m[1])} for m in legal]})
        return
    if not legal:
        settings.console.print(t("kilkenny.cli.no_moves"), soft_wrap=True)
        return
    settings.console.print(
        t("kilkenny.cli.legal", moves=", ".join(position.notation(m) for m in legal))
    )


def _print_chances(position: Position, legal: list[Move], found: list[dict[str, Any]]) -> None:
    """The legal moves as a table with their chances."""
    console = settings.console
    if not legal:
        console.print(t("kilkenny.cli.no_moves"), soft_wrap=True)
        return
    table = Table(title=t("kilkenny.cli.odds_title"), title_justify="left")
    table.add_column(t("kilkenny.cli.odds_move"))
    table.add_column(t("kilkenny.cli.odds_captured"), justify="right")
    table.add_column(t("kilkenny.cli.odds_enter"), justify="right")
    for move, chances in zip(legal, found, strict=True):
        cells = [position.notation(move)]
        for key in ("captured", "enter"):
            share = chances[key]
            cells.append(
                t("kilkenny.cli.odds_ends")
                if share is None
                else f"{percent(share['probability'])} ({share['exact']})"
            )
        table.add_row(*cells)
    console.print(table)
    console.print(t("kilkenny.cli.odds_note"), soft_wrap=True, style="dim")


# -- match -----------------------------------------------------------------------------------


@kilkenny_app.command("match", help=help_text("cli.help.kilkenny.match"))
def match(
    a: Annotated[str, typer.Option("--a", help=help_text("cli.help.kilkenny.opt.a"))],
    b: Annotated[str, typer.Option("--b", help=help_text("cli.help.kilkenny.opt.b"))],
    games: Annotated[
        int, typer.Option("--games", help=help_text("cli.help.kilkenny.opt.games"))
    ] = 100,
    seed: Annotated[int, typer.Option("--seed", help=help_text("cli.help.kilkenny.opt.seed"))] = 0,
    players: Annotated[
        int, typer.Option("--players", help=help_text("cli.help.kilkenny.opt.players"))
    ] = 2,
    budget: Annotated[
        int | None, typer.Option("--budget", help=help_text("cli.help.kilkenny.opt.budget"))
    ] = None,
    seconds: Annotated[
        float | None, typer.Option("--seconds", help=help_text("cli.help.kilkenny.opt.seconds"))
    ] = None,
    max_plies: Annotated[
        int, typer.Option("--max-plies", help=help_text("cli.help.kilkenny.opt.max_plies"))
    ] = 2000,
    as_json: Annotated[
        bool, typer.Option("--json", help=help_text("cli.help.kilkenny.opt.json"))
    ] = False,
) -> None:
    """Play AI against AI, alternating who starts, and report the tally."""
    try:
        if games < 1:
            raise RuleError("kilkenny.bad_games", value=games)
        if budget is not None and budget < 1:
            raise RuleError("kilkenny.bad_budget", value=budget, max=MAX_BUDGET)
        if seconds is not None and seconds <= 0:
            raise RuleError("kilkenny.bad_seconds", value=seconds)
        if max_plies < 1:
            raise RuleError("kilkenny.bad_options", value="max_plies", detail=str(max_plies))
        make_player(a, budget)
        make_player(b, budget)
        get_layout("default").seats_for(players)
    except SpieltischError as error:
        fail(error, as_json=as_json)
    progress = Progress(
        TextColumn(t("kilkenny.cli.match_progress")),
        BarColumn(),
        MofNCompleteColumn(),
        console=Console(stderr=True),
        transient=True,
        disable=as_json,
    )
    with progress:
        task = progress.add_task("match", total=games)

        def advance(done: int, _: MatchResult) -> None:
            progress.update(task, completed=done)

        result = play_match(
            lambda: make_player(a, budget, seconds),
            lambda: make_player(b, budget, seconds),
            games,
            seed=seed,
            players=players,
            max_plies=max_plies,
            progress=advance,
        )
    if as_json:
        emit_json(result.as_json())
        return
    low, high = result.interval_a()
    console = settings.console
    console.print(t("kilkenny.cli.match_title", a=a, b=b, games=result.games), soft_wrap=True)
    console.print(t("kilkenny.cli.match_result", name=f"A {a}", wins=result.wins_a), soft_wrap=True)
    console.print(t("kilkenny.cli.match_result", name=f"B {b}", wins=result.wins_b), soft_wrap=True)
    console.print(
        t("kilkenny.cli.match_draws", draws=result.draws, capped=result.capped), soft_wrap=True
    )
    console.print(
        t(
            "kilkenny.cli.match_score",
            a=a,
            score=result.score_a,
            low=low,
            high=high,
            seconds=result.seconds_per_move(0),
        ),
        soft_wrap=True,
    )
