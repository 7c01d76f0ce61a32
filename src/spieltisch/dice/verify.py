"""Recompute the fair dice of an exported table and report whether every draw matches.

Pure: :func:`verify_export` takes the parsed export (``format`` ``spieltisch-table/1``) and
returns a :class:`Verification`; it reads no files and prints nothing. The checks, in order:

1. the revealed server seed hashes (SHA-256) to the published commitment;
2. the raw draws of all records, in log order, are numbered 0, 1, 2, … without gaps;
3. every draw's logged value equals the value :class:`~spieltisch.dice.fair.FairDice`
   derives for its index and number of sides.

A file that cannot be checked at all (not JSON, another format, seed not revealed yet) raises
a :class:`VerifyError` with a ``verify.*`` code naming the offending value.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, TypeGuard

from spieltisch.dice.fair import MAX_SIDES, FairDice, FairDiceError, PlayerSeed

__all__ = [
    "EXPORT_FORMAT",
    "Mismatch",
    "MismatchKind",
    "Verification",
    "VerifyError",
    "parse_export",
    "verify_export",
]

EXPORT_FORMAT = "spieltisch-table/1"
"""The value of the ``format`` field of a table export this module understands."""

_HEX = re.compile(r"(?:[0-9a-fA-F]{2})+")


class VerifyError(FairDiceError):
    """An export that cannot be verified: not JSON, another format, seed not revealed."""


class MismatchKind(StrEnum):
    """What is wrong with a draw."""

    VALUE = "value"
    """The logged value differs from the value derived from the seed."""
    INDEX = "index"
    """The draw is not numbered where it stands: a draw was removed, doubled or moved."""


@dataclass(frozen=True)
class Mismatch:
    """The first draw of a log that does not check out.

    For :attr:`MismatchKind.VALUE`, ``expected`` and ``logged`` are die values; for
    :attr:`MismatchKind.INDEX` they are draw indexes (``index`` is then the logged one).
    """

    kind: MismatchKind
    seq: int
    """The record that holds the draw."""
    index: int
    """The draw index as logged."""
    sides: int
    expected: int
    logged: int

    def to_json(self) -> dict[str, Any]:
        """JSON form: ``{"kind", "seq", "index", "sides", "expected", "logged"}``."""
        return {
            "kind": self.kind.value,
            "seq": self.seq,
            "index": self.index,
            "sides": self.sides,
            "expected": self.expected,
            "logged": self.logged,
        }


@dataclass(frozen=True)
class Verification:
    """The verdict on an export's dice."""

    table: str
    commitment: str
    """The commitment published in the export."""
    computed_commitment: str
    """SHA-256 of the revealed seed, hex."""
    draws: int
    """How many draws were recomputed (all draws of the log)."""
    mismatch: Mismatch | None
    """The first draw that does not check out, in log order; ``None`` if all do."""
    mismatches: int
    """How many draws do not check out."""

    @property
    def commitment_ok(self) -> bool:
        """Whether the revealed seed is the one committed to."""
        return self.commitment.lower() == self.computed_commitment

    @property
    def ok(self) -> bool:
        """Everything matches: the commitment and every draw."""
        return self.commitment_ok and self.mismatch is None

    def to_json(self) -> dict[str, Any]:
        """The stable JSON verdict ``{"ok", "draws", "mismatch", "mismatches", ...}``."""
        return {
            "ok": self.ok,
            "draws": self.draws,
            "mismatch": None if self.mismatch is None else self.mismatch.to_json(),
            "mismatches": self.mismatches,
            "commitment_ok": self.commitment_ok,
            "commitment": self.commitment,
            "computed_commitment": self.computed_commitment,
            "table": self.table,
        }


@dataclass(frozen=True)
class _Draw:
    seq: int
    index: int
    sides: int
    value: int


def parse_export(content: str | bytes) -> Mapping[str, Any]:
    """Parse the content of an export file (UTF-8 JSON object).

    ``verify.not_text`` / ``verify.not_json`` name where it breaks; a JSON value that is not
    an object is a ``verify.bad_format``.
    """
    if isinstance(content, bytes):
        try:
            content = content.decode("utf-8-sig")
        except UnicodeDecodeError as error:
            raise VerifyError("verify.not_text", position=error.start) from None
    try:
        data = json.loads(content)
    except json.JSONDecodeError as error:
        raise VerifyError("verify.not_json", line=error.lineno, column=error.colno) from None
    except RecursionError:
        raise VerifyError("verify.not_json", line=1, column=1) from None
    if not isinstance(data, Mapping):
        raise VerifyError("verify.bad_format", field="$", value=_short(data))
    return data


def verify_export(data: Mapping[str, Any]) -> Verification:
    """Check the fair dice of a table export (see the module docs for what is checked)."""
    if not isinstance(data, Mapping):
        raise VerifyError("verify.bad_format", field="$", value=_short(data))
    if data.get("format") != EXPORT_FORMAT:
        raise VerifyError("verify.wrong_format", value=data.get("format"), expected=EXPORT_FORMAT)
    table = _field(data, "table", str)
    fair = _field(data, "fair", Mapping)
    commitment = _field(fair, "commitment", str, prefix="fair.")
    seed = fair.get("seed")
    if seed is None:
        raise VerifyError("verify.not_revealed", table=table, commitment=commitment)
    if not isinstance(seed, str) or not _HEX.fullmatch(seed):
        raise VerifyError("verify.bad_format", field="fair.seed", value=_short(seed))
    dice = FairDice.from_hex(seed, table, _player_seeds(fair))
    draws = _draws(data)

    first: Mismatch | None = None
    count = 0
    for position, draw in enumerate(draws):
        problem = _check(dice, position, draw)
        if problem is not None:
            count += 1
            first = first or problem
    return Verification(
        table=table,
        commitment=commitment,
        computed_commitment=hashlib.sha256(dice.server_seed).hexdigest(),
        draws=len(draws),
        mismatch=first,
        mismatches=count,
    )


def _player_seeds(fair: Mapping[str, Any]) -> list[PlayerSeed]:
    raw = fair.get("player_seeds", [])
    if not isinstance(raw, Sequence) or isinstance(raw, str):
        raise VerifyError("verify.bad_format", field="fair.player_seeds", value=_short(raw))
    seeds: list[PlayerSeed] = []
    for position, item in enumerate(raw):
        try:
            seeds.append(PlayerSeed.parse(item))
        except FairDiceError:
            field = f"fair.player_seeds[{position}]"
            raise VerifyError("verify.bad_format", field=field, value=_short(item)) from None
    return seeds


def _check(dice: FairDice, position: int, draw: _Draw) -> Mismatch | None:
    if draw.index != position:
        return Mismatch(MismatchKind.INDEX, draw.seq, draw.index, draw.sides, position, draw.index)
    expected = dice.value(draw.index, draw.sides)
    if expected != draw.value:
        return Mismatch(MismatchKind.VALUE, draw.seq, draw.index, draw.sides, expected, draw.value)
    return None


def _draws(data: Mapping[str, Any]) -> list[_Draw]:
    records = _field(data, "records", Sequence)
    if isinstance(records, str):
        raise VerifyError("verify.bad_format", field="records", value=_short(records))
    draws: list[_Draw] = []
    for number, record in enumerate(records):
        where = f"records[{number}]"
        if not isinstance(record, Mapping):
            raise VerifyError("verify.bad_format", field=where, value=_short(record))
        seq = _field(record, "seq", int, prefix=f"{where}.")
        raw = record.get("draws", [])
        if not isinstance(raw, Sequence) or isinstance(raw, str):
            raise VerifyError("verify.bad_format", field=f"{where}.draws", value=_short(raw))
        for position, item in enumerate(raw):
            here = f"{where}.draws[{position}]."
            if not isinstance(item, Mapping):
                raise VerifyError("verify.bad_format", field=here[:-1], value=_short(item))
            index = _field(item, "index", int, prefix=here)
            sides = _field(item, "sides", int, prefix=here)
            value = _field(item, "value", int, prefix=here)
            if not 1 <= sides <= MAX_SIDES:
                raise VerifyError("verify.bad_format", field=f"{here}sides", value=sides)
            draws.append(_Draw(seq, index, sides, value))
    return draws


def _field(data: Mapping[str, Any], name: str, kind: type[Any], *, prefix: str = "") -> Any:
    value = data.get(name)
    if not _is_a(value, kind):
        raise VerifyError("verify.bad_format", field=f"{prefix}{name}", value=_short(value))
    return value


def _is_a(value: object, kind: type[Any]) -> TypeGuard[Any]:
    if kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, kind)


def _short(value: object) -> object:
    """The offending value for a message, cut short if it is a long container or text."""
    text = repr(value)
    return value if len(text) <= 80 else f"{text[:77]}..."
