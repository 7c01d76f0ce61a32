"""Sample commands per game system for the leak suite (``test_leaks.py``).

A system joins the suite with one entry in :data:`SAMPLES`: the visible set-up of a table,
the GM's commands that can be issued hidden (each carrying :data:`CANARY` in every text and
id it has), every kind of command a player can issue, and probes: a player's command naming
a hidden record's id beside the same command naming an id nobody made.

A step is a command, or a function from the state the issuer sees to a command (for moves
that depend on the dice), or :data:`UNDO_LAST` (the GM undoes the record before, hidden too),
or a :class:`Whisper` between the GM and the *confidant* (a second player; the player whose
channels are read is a third party). Chat is every table's, so :data:`WHISPERS` and the
player's ``say`` join every system's entry.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

CANARY = "zqcanary"
"""Marks every text and id of a hidden sample; it must never reach a player or spectator."""

UNKNOWN = "zz-nobody"
"""An id no record ever made (a probe's twin of a hidden id)."""

UNDO_LAST = {"undo": "last"}
"""A step: the GM undoes the record just made."""


@dataclass(frozen=True)
class Whisper:
    """A step: ``sender`` (``"gm"`` or ``"confidant"``) whispers ``text`` to ``to``."""

    sender: str
    to: str
    text: str


Step = dict[str, Any] | Callable[[dict[str, Any]], dict[str, Any]] | Whisper
Who = str
"""``"gm"`` or ``"player"``."""


@dataclass(frozen=True)
class Probe:
    """A player's command naming ``hidden_id`` (made by the hidden sample ``after``).

    Its twin names :data:`UNKNOWN` instead; both must get the same answer.
    """

    after: str
    command: dict[str, Any]
    hidden_id: str


@dataclass(frozen=True)
class Samples:
    """What the leak suite plays at a table of one system."""

    system: str
    setup: list[tuple[Who, Step]]
    hidden: dict[str, list[Step]]
    player: dict[str, Step]
    options: dict[str, Any] = field(default_factory=dict)
    probes: list[Probe] = field(default_factory=list)


def _first_move(state: dict[str, Any]) -> dict[str, Any]:
    moves = state.get("moves") or [{"from": "?", "to": "?"}]
    return {"kind": "move", **moves[0]}


def _bonus_choice(state: dict[str, Any]) -> dict[str, Any]:
    return {"kind": "choose_outcome", "entry": "bonus.second_goal"}


_KITTY_BASE: dict[str, Any] = {
    "kind": "create_kitty",
    "attributes": {"cute": 3, "cunning": 2, "fierce": 1},
    "talents": ["Climbing"],
    "powers": [{"name": "Teleport"}],
    "flaw": "Lazy",
}
_HIDDEN_FOE = {
    "kind": "create_foe",
    "id": f"{CANARY}-foe",
    "name": f"{CANARY} Rat",
    "difficulty": 6,
    "aua_limit": 7,
}
_HIDDEN_KITTY = {
    **_KITTY_BASE,
    "id": f"{CANARY}-kit",
    "name": f"{CANARY} Cat",
    "talents": [f"{CANARY} talent"],
    "powers": [{"name": f"{CANARY} power", "features": [f"{CANARY} feature"]}],
    "flaw": f"{CANARY} flaw",
    "human": {
        "name": f"{CANARY} human",
        "problems": [{"id": f"{CANARY}-p", "text": f"{CANARY} problem", "rank": 2}],
    },
}
_ATTACK_HIDDEN = {"kind": "check", "kitty": "tom", "attribute": "fierce", "foe": f"{CANARY}-foe"}

KITTIES = Samples(
    system="magical-kitties",
    setup=[
        ("player", {**_KITTY_BASE, "id": "mia", "name": "Mia"}),
        ("gm", {**_KITTY_BASE, "id": "tom", "name": "Tom"}),
        ("gm", {"kind": "create_foe", "id": "rat", "name": "Rat"}),
        ("gm", {"kind": "edit_kitty", "kitty": "mia", "changes": {"xp": 5}}),
        ("gm", {"kind": "start_episode"}),
        ("gm", {"kind": "start_scene"}),
        ("player", {"kind": "check", "kitty": "mia", "attribute": "cute"}),
    ],
    hidden={
        "foe": [_HIDDEN_FOE],
        "problems": [
            {"kind": "add_problem", "id": f"{CANARY}-town", "text": f"{CANARY} flood"},
            {"kind": "add_problem", "kitty": "mia", "id": f"{CANARY}-hum", "text": f"{CANARY} x"},
        ],
        "kitty": [_HIDDEN_KITTY],
        "attack": [_HIDDEN_FOE, _ATTACK_HIDDEN, {"kind": "reroll", "dice": [0]}],
        "check_players_kitty": [{"kind": "check", "kitty": "mia", "attribute": "fierce"}],
        "sheets": [
            {"kind": "award_treat", "kitty": "tom", "reason": f"{CANARY} reason"},
            {"kind": "edit_kitty", "kitty": "tom", "changes": {"name": f"{CANARY} Tom"}},
            {"kind": "give_aua", "kitty": "mia"},
            {"kind": "give_aua", "foe": "rat"},
        ],
        "scene": [{"kind": "end_scene"}],
        "undo": [_HIDDEN_FOE, UNDO_LAST],
    },
    player={
        "create_kitty": {**_KITTY_BASE, "id": "lu", "name": "Lu"},
        "check": {"kind": "check", "kitty": "mia", "attribute": "cunning"},
        "attack": {"kind": "check", "kitty": "mia", "attribute": "fierce", "foe": "rat"},
        "reroll": {"kind": "reroll", "dice": [0, 1]},
        "accept_failure": {"kind": "accept_failure"},
        "choose_outcome": _bonus_choice,
        "avoid_injury": {"kind": "avoid_injury", "kitty": "mia"},
        "spend_treat": {"kind": "spend_treat", "kitty": "mia", "purpose": "story", "detail": "A"},
        "level_up": {"kind": "level_up", "kitty": "mia", "list": "levels_2_4", "entry": "treats"},
    },
    probes=[
        Probe("foe", {**_ATTACK_HIDDEN, "kitty": "mia"}, f"{CANARY}-foe"),
        Probe(
            "kitty",
            {"kind": "check", "kitty": f"{CANARY}-kit", "attribute": "cute"},
            f"{CANARY}-kit",
        ),
        Probe("kitty", {"kind": "avoid_injury", "kitty": f"{CANARY}-kit"}, f"{CANARY}-kit"),
    ],
)

KILKENNY = Samples(
    system="kilkenny",
    options={"players": 2, "seats": [{"player": "human"}, {"player": "human"}]},
    setup=[("gm", {"kind": "sit", "seat": "N"}), ("player", {"kind": "sit", "seat": "S"})],
    hidden={"roll": [{"kind": "roll"}], "roll_and_move": [{"kind": "roll"}, _first_move]},
    player={"sit": {"kind": "sit", "seat": "N"}, "roll": {"kind": "roll"}, "move": _first_move},
)

FREE_DICE = Samples(
    system="free-dice",
    setup=[("player", {"kind": "roll", "expression": "2d6", "label": "open"})],
    hidden={
        "roll": [{"kind": "roll", "expression": "3d6+1", "label": f"{CANARY} label"}],
        "undo": [{"kind": "roll", "expression": "1d20", "label": f"{CANARY} gone"}, UNDO_LAST],
    },
    player={"roll": {"kind": "roll", "expression": "1d6", "label": "mine"}},
)

WHISPERS: dict[str, list[Step]] = {
    "whisper": [Whisper("gm", "confidant", f"{CANARY} psst\nzweite Zeile")],
    "whisper_roll": [Whisper("confidant", "gm", f"/r 2W6+3 # {CANARY} Schaden")],
    "whisper_undo": [Whisper("gm", "confidant", f"/r W20 # {CANARY} ups"), UNDO_LAST],
}
"""Whispers the third party must never see, at every table."""

SAY: dict[str, Step] = {"say": {"kind": "say", "text": "/r 1W6 # mine"}}
"""The player's chat command, at every table."""


def _with_chat(samples: Samples) -> Samples:
    return replace(
        samples,
        hidden={**samples.hidden, **WHISPERS},
        player={**samples.player, **SAY},
    )


SAMPLES: list[Samples] = [_with_chat(s) for s in (KITTIES, KILKENNY, FREE_DICE)]
"""Every system the leak suite covers; a new system adds its entry here."""
