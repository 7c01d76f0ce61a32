"""Refusals that teach: forms other dice tools read, answered with the spelling that works here.

When the grammar refuses a text, :func:`teach` looks for a form that Foundry, Roll20, Avrae,
Dice Maiden, AnyDice or a German group would have understood (``3d6e6``, ``4d6p1``,
``/r 1d20``, ``[[1d20+5]]``, ``1d20+5 vs 15``, ``2d20 adv``, ``1d6×2`` …) and turns the error
into ``dice.teach.<form>``: the same position, the text found there, and a ``suggestion``,
the whole expression as it is written here — checked to parse before it is offered. Forms
without a Spieltisch spelling (a character attribute ``@{str}``) say so instead.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from spieltisch.dice.errors import NotationError

__all__ = ["teach"]

Suggest = Callable[[re.Match[str], str], str | None]


@dataclass(frozen=True)
class _Rule:
    code: str
    pattern: re.Pattern[str]
    suggest: Suggest | None
    """The whole text as written here, or ``None`` when there is no such spelling."""


def _cut(match: re.Match[str], text: str, by: str = "") -> str:
    return text[: match.start()] + by + text[match.end() :]


def _explode_e(match: re.Match[str], text: str) -> str:
    target = match.group(2)
    return _cut(match, text, f"xo>={target}" if target else "xo")


def _reroll_ir(match: re.Match[str], text: str) -> str:
    return _cut(match, text, f"rr<={match.group(1)}")


def _drop_p(match: re.Match[str], text: str) -> str:
    side = (match.group(1) or "l").lower()
    return _cut(match, text, f"d{side}{match.group(2) or 1}")


def _anydice_keep(match: re.Match[str], text: str) -> str:
    which, kept, count, sides = match.groups()
    mode = "kh" if which.lower() == "highest" else "kl"
    return _cut(match, text, f"{count or 1}d{sides}{mode}{kept}")


_SYMBOLS = {"×": "*", "·": "*", "÷": "/", "–": "-", "—": "-", "−": "-", "≥": ">=", "≤": "<="}


def _symbol(match: re.Match[str], text: str) -> str:
    return "".join(_SYMBOLS.get(char, char) for char in text)


def _advantage(match: re.Match[str], text: str) -> str | None:
    word = match.group(1).lower()
    rest = _cut(match, text).strip()
    die = re.search(r"(?<![0-9])[12]?([dDwW])20(?![0-9])", rest)
    if die is None:
        return None
    keep = "kl1" if word.startswith(("dis", "nach")) else "kh1"
    letter = die.group(1)
    return rest[: die.start()] + f"2{letter}20{keep}" + rest[die.end() :]


def _decimal(match: re.Match[str], text: str) -> str | None:
    if match.group(1) != "*":
        return None
    factor = Fraction(match.group(2).replace(",", "."))
    return _cut(match, text, f"*{factor.numerator}/{factor.denominator}")


def _versus(match: re.Match[str], text: str) -> str:
    return text[: match.start()].rstrip() + f">={match.group(2)}" + text[match.end() :]


def _spaced(match: re.Match[str], text: str) -> str:
    count, letter, sides = match.groups()
    return _cut(match, text, f"{count}{letter}{sides}")


def _strip_prefix(match: re.Match[str], text: str) -> str:
    return text[match.end() :]


def _inline(match: re.Match[str], text: str) -> str:
    return match.group(1)


def _sort(match: re.Match[str], text: str) -> str:
    return _cut(match, text)


_RULES: tuple[_Rule, ...] = (
    _Rule("dice.teach.command", re.compile(r"^\s*[/!](?:roll|r)(?=\s|$)\s*", re.I), _strip_prefix),
    _Rule("dice.teach.inline", re.compile(r"^\s*\[\[(.*)\]\]\s*$"), _inline),
    _Rule(
        "dice.teach.attribute",
        re.compile(r"@\{[^}]*\}|\?\{[^}]*\}|@[A-Za-z_][\w.]*|%\{[^}]*\}"),
        None,
    ),
    _Rule("dice.teach.anydice", re.compile(r"^\s*output\s+", re.I), _strip_prefix),
    _Rule(
        "dice.teach.anydice",
        re.compile(r"\[\s*(highest|lowest)\s+(\d+)\s+of\s+(\d*)\s*[dD](\d+)\s*\]", re.I),
        _anydice_keep,
    ),
    _Rule("dice.teach.symbol", re.compile("[×·÷–—−≥≤]"), _symbol),
    _Rule(
        "dice.teach.advantage",
        re.compile(r"\b(adv|advantage|dis|disadv|disadvantage|vorteil|nachteil)\b", re.I),
        _advantage,
    ),
    _Rule(
        "dice.teach.versus",
        re.compile(r"\s*\b(vs\.?|versus|gegen|dc|sg)\s*(\d+)", re.I),
        _versus,
    ),
    _Rule("dice.teach.spaced_die", re.compile(r"(\d+)\s+([dDwW])\s*(\d+|%)"), _spaced),
    _Rule("dice.teach.spaced_die", re.compile(r"(\d+)\s*([dDwW])\s+(\d+|%)"), _spaced),
    _Rule("dice.teach.explode_e", re.compile(r"(?<=[0-9%!])\s*(?<![iI])([eE])(\d*)"), _explode_e),
    _Rule("dice.teach.reroll_ir", re.compile(r"(?<=[0-9%])\s*ir(\d+)", re.I), _reroll_ir),
    _Rule("dice.teach.drop_p", re.compile(r"(?<=[0-9%])\s*p([hHlL]?)(\d*)"), _drop_p),
    _Rule("dice.teach.sort", re.compile(r"(?<=[0-9%])s[ad]?(?![a-z])", re.I), _sort),
    _Rule("dice.teach.decimal", re.compile(r"([*+\-/]?)\s*(\d+[.,]\d+)"), _decimal),
)


_depth = 0
"""How deep :func:`teach` is in checking its own suggestions (a suggestion that fails is
taught in turn; two levels suffice for every rule)."""


def _parses(text: str) -> bool:
    from spieltisch.dice.notation import parse

    global _depth
    if _depth > 2:
        return False
    _depth += 1
    try:
        parse(text)
    except NotationError:
        return False
    finally:
        _depth -= 1
    return True


def _comment(text: str, error: NotationError) -> NotationError | None:
    """``1d20+5 Angriff`` (words after the dice, as Avrae and Dice Maiden read a comment):
    the comment is written after ``#`` here."""
    position = error.position
    if not (0 < position < len(text) and text[position].isalpha() and text[position - 1] in " \t"):
        return None
    head = text[:position].rstrip()
    suggestion = f"{head} # {text[position:].strip()}"
    if not head or not _parses(head):
        return None
    return NotationError(
        "dice.teach.comment",
        value=text,
        position=position,
        found=text[position:],
        expected=suggestion,
        suggestion=suggestion,
    )


def teach(text: str, error: NotationError) -> NotationError:
    """``error`` (a syntax error of ``text``) as a teaching refusal when ``text`` holds a form
    another tool reads; otherwise ``error`` itself."""
    if error.code not in ("dice.notation.unexpected", "dice.notation.end"):
        return error
    for rule in _RULES:
        match = rule.pattern.search(text)
        if match is None:
            continue
        found = match.group(0).strip() or match.group(0)
        if rule.suggest is None:
            return NotationError(
                rule.code, value=text, position=match.start(), found=found, expected="0-9 | d6"
            )
        suggestion = rule.suggest(match, text)
        if suggestion is None or suggestion == text or not _parses(suggestion):
            continue
        return NotationError(
            rule.code,
            value=text,
            position=match.start() + len(match.group(0)) - len(match.group(0).lstrip()),
            found=found,
            expected=suggestion.strip(),
            suggestion=suggestion.strip(),
        )
    return _comment(text, error) or error
