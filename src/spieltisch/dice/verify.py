"""Recompute the fair dice of an exported table and report whether every draw matches.

Pure: :func:`verify_export` takes the parsed export (``format`` ``spieltisch-table/3``, or the
older ``/2`` and ``/1``) and returns a :class:`Verification`; it reads no files and prints
nothing. The log's draws fall into *epochs* (one per server seed, see
:class:`~spieltisch.dice.fair.Epoch`).

In format 3 every record draws from a stream of its own (its draws are numbered 0, 1, … and
derived with :meth:`~spieltisch.dice.fair.FairDice.stream_value`), epochs begin at records and
each carries the link that chains it to its place (:func:`~spieltisch.dice.fair.chain_link`):
the epochs must tile the records and every link must be the one recomputed, else the chain
is broken (:class:`ChainBreak`). The checks of formats 1 and 2, in order:

1. every revealed epoch's server seed hashes (SHA-256) to its published commitment;
2. the raw draws of all records, in log order, are numbered 0, 1, 2, … without gaps (a
   player's export may leave out the draws of the GM's hidden records in an epoch that is not
   revealed yet: these are counted as *withheld*);
3. every draw in a revealed epoch has the value :class:`~spieltisch.dice.fair.FairDice`
   derives for its index and number of sides with that epoch's seed; draws in the epoch not
   revealed yet are *pending*.

Whether the events of each record follow from its draws is checked by replaying the log
(:mod:`spieltisch.engine.replay`, composed with this check in :mod:`spieltisch.store.exchange`).

A file that cannot be checked at all (not JSON, another format, no seed revealed yet) raises
a :class:`VerifyError` with a ``verify.*`` code naming the offending value.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import pairwise
from typing import Any, TypeGuard

from spieltisch import safejson
from spieltisch.dice.fair import (
    MAX_SIDES,
    Epoch,
    FairDice,
    FairDiceError,
    PlayerSeed,
    epoch_at,
    link_epochs,
)

__all__ = [
    "EXPORT_FORMAT",
    "EXPORT_FORMATS",
    "LOG_FORMAT",
    "ChainBreak",
    "ChainKind",
    "EpochCheck",
    "EpochStatus",
    "Mismatch",
    "MismatchKind",
    "Verification",
    "VerifyError",
    "epochs_of",
    "parse_export",
    "player_seeds_of",
    "streams_of",
    "verify_export",
]

EXPORT_FORMAT = "spieltisch-table/3"
"""The ``format`` of a table export as written now: a stream per record, a chain of epochs."""

LOG_FORMAT = "spieltisch-table/2"
"""The format of tables whose draws are numbered across the log (made before streams)."""

EXPORT_FORMATS = ("spieltisch-table/1", LOG_FORMAT, EXPORT_FORMAT)
"""Every export format this module reads; ``/1`` has one seed in ``fair.commitment/seed``."""

_HEX = re.compile(r"(?:[0-9a-fA-F]{2})+")


class VerifyError(FairDiceError):
    """An export that cannot be verified, or one that does not check out (on import)."""


class MismatchKind(StrEnum):
    """What is wrong with a draw."""

    VALUE = "value"
    """The logged value differs from the value derived from the seed."""
    INDEX = "index"
    """The draw is not numbered where it stands: a draw was removed, doubled or moved."""
    SPLIT = "split"
    """An epoch starts inside one log entry's draws (a new seed only starts between entries);
    ``index`` is that epoch's start, ``expected`` the entry's first draw."""


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
    epoch: int = 1
    """The number of the epoch (from 1) the draw's place falls in."""

    def to_json(self) -> dict[str, Any]:
        """JSON form: ``{"kind", "seq", "index", "sides", "expected", "logged", "epoch"}``."""
        return {
            "kind": self.kind.value,
            "seq": self.seq,
            "index": self.index,
            "sides": self.sides,
            "expected": self.expected,
            "logged": self.logged,
            "epoch": self.epoch,
        }

    def error(self) -> VerifyError:
        """This mismatch as an error (``verify.mismatch_value``, ``_index`` or ``_split``)."""
        code = f"verify.mismatch_{self.kind.value}"
        return VerifyError(
            code,
            seq=self.seq,
            index=self.index,
            sides=self.sides,
            expected=self.expected,
            logged=self.logged,
        )


class EpochStatus(StrEnum):
    """The verdict on one epoch's seed."""

    OK = "ok"
    """Revealed, and the seed hashes to the commitment."""
    BAD = "bad_commitment"
    """Revealed, but the seed does not hash to the commitment."""
    PENDING = "pending"
    """Not revealed yet: its draws are checked once it is."""


@dataclass(frozen=True)
class EpochCheck:
    """One epoch of an export and what it covers."""

    number: int
    """Position in the chain, from 1."""
    start: int
    """Index of its first draw."""
    end: int | None
    """Index after its last draw (the next epoch's start); ``None`` for the open last epoch."""
    commitment: str
    computed_commitment: str | None
    """SHA-256 of the revealed seed; ``None`` while pending."""
    draws: int
    """How many draws of the log fall in this epoch."""
    first_seq: int | None
    """The first record with a draw in this epoch (``None``: no draws)."""
    last_seq: int | None
    """The last record with a draw in this epoch."""
    chain: str | None = None
    """Format 3: the epoch's link as the file gives it."""

    @property
    def status(self) -> EpochStatus:
        """Pending, or whether the revealed seed is the one committed to."""
        if self.computed_commitment is None:
            return EpochStatus.PENDING
        if self.commitment.lower() == self.computed_commitment:
            return EpochStatus.OK
        return EpochStatus.BAD

    def to_json(self) -> dict[str, Any]:
        """``{"number", "start", "end", "status", "commitment", "computed_commitment", "draws",
        "first_seq", "last_seq"}``."""
        return {
            "number": self.number,
            "start": self.start,
            "end": self.end,
            "status": self.status.value,
            "commitment": self.commitment,
            "computed_commitment": self.computed_commitment,
            "draws": self.draws,
            "first_seq": self.first_seq,
            "last_seq": self.last_seq,
            "chain": self.chain,
        }


class ChainKind(StrEnum):
    """How the chain of epochs is broken."""

    OPEN = "open"
    """Formats 1 and 2: a revealed epoch covers no draw while the pending one after it holds
    draws (a boundary moved back over revealed draws makes them unverifiable)."""
    TILING = "tiling"
    """Format 3: an epoch begins where it cannot: the first not at record 1, a later one not
    after the one before it, or beyond the record after the log (a gap, an overlap, a
    doubled or reordered epoch)."""
    LINK = "link"
    """Format 3: an epoch's link is not the one its boundary, commitment and the links before
    it give (a boundary moved, an epoch dropped, doubled or replaced after it was made)."""


@dataclass(frozen=True)
class ChainBreak:
    """Where the chain of epochs does not close over the log (see :class:`ChainKind`).

    In formats 1 and 2 (``OPEN``): a table closes an epoch without draws only when its first
    seed is revealed before anything was rolled (a second reveal before the next draw answers
    the same epoch); such a table looks the same until its next reveal.
    """

    epoch: int
    """The epoch where the chain breaks (from 1)."""
    start: int
    """Its start as the file says."""
    pending: int = 0
    """``OPEN``: how many draws the pending epoch after it holds."""
    kind: ChainKind = ChainKind.OPEN
    expected: int | str | None = None
    """``TILING``: the first record it may begin at; ``LINK``: the recomputed link."""
    found: int | str | None = None
    """``TILING``: the last record it may begin at; ``LINK``: the link in the file."""

    def error(self) -> VerifyError:
        """This break as ``verify.chain_open``, ``verify.chain_tiling`` or ``verify.chain_link``."""
        if self.kind is ChainKind.TILING:
            return VerifyError(
                "verify.chain_tiling",
                epoch=self.epoch,
                start=self.start,
                low=self.expected,
                high=self.found,
            )
        if self.kind is ChainKind.LINK:
            return VerifyError(
                "verify.chain_link",
                epoch=self.epoch,
                start=self.start,
                computed=self.expected,
                chain=self.found,
            )
        return VerifyError(
            "verify.chain_open",
            epoch=self.epoch,
            start=self.start,
            next=self.epoch + 1,
            pending=self.pending,
        )

    def to_json(self) -> dict[str, Any]:
        """``{"kind", "epoch", "start", "pending", "expected", "found"}``."""
        return {
            "kind": self.kind.value,
            "epoch": self.epoch,
            "start": self.start,
            "pending": self.pending,
            "expected": self.expected,
            "found": self.found,
        }


@dataclass(frozen=True)
class Verification:
    """The verdict on an export's dice."""

    table: str
    epochs: tuple[EpochCheck, ...]
    draws: int
    """How many draws were recomputed (the draws in revealed epochs)."""
    pending: int
    """How many draws lie in the epoch not revealed yet (their order is checked, not values)."""
    withheld: int
    """How many draws a player's export leaves out (hidden records of the pending epoch)."""
    mismatch: Mismatch | None
    """The first draw that does not check out, in log order; ``None`` if all do."""
    mismatches: int
    """How many draws do not check out."""
    chain: ChainBreak | None = None
    """Where the chain of epochs does not close over the draws (``None``: it does)."""
    streams: bool = False
    """Format 3: epochs begin at records (``start``/``end`` of an epoch are record ``seq``)."""

    @property
    def commitment_ok(self) -> bool:
        """Whether every revealed seed is the one committed to."""
        return all(e.status is not EpochStatus.BAD for e in self.epochs)

    @property
    def revealed(self) -> int:
        """How many epochs are revealed."""
        return sum(e.status is not EpochStatus.PENDING for e in self.epochs)

    @property
    def ok(self) -> bool:
        """Everything that can be checked matches: every revealed commitment, the chain of
        epochs and every draw."""
        return self.commitment_ok and self.chain is None and self.mismatch is None

    def announced(self, link: str) -> int | None:
        """The number of the epoch whose link is ``link`` (a link the table announced), or
        ``None``. Links chain, so a match proves that epoch and every one before it are as
        the table made them (when the chain holds, :attr:`chain` is ``None``)."""
        for epoch in self.epochs:
            if epoch.chain is not None and epoch.chain.lower() == link.strip().lower():
                return epoch.number
        return None

    def error(self) -> VerifyError | None:
        """The first problem as an error (a bad commitment, then an open chain, then a bad
        draw), or ``None``."""
        for epoch in self.epochs:
            if epoch.status is EpochStatus.BAD:
                return VerifyError(
                    "verify.commitment_mismatch",
                    epoch=epoch.number,
                    computed=epoch.computed_commitment,
                    commitment=epoch.commitment,
                )
        if self.chain is not None:
            return self.chain.error()
        return None if self.mismatch is None else self.mismatch.error()

    def to_json(self) -> dict[str, Any]:
        """The stable JSON verdict on the dice (see docs/fair-dice.md)."""
        return {
            "ok": self.ok,
            "draws": self.draws,
            "pending_draws": self.pending,
            "withheld_draws": self.withheld,
            "mismatch": None if self.mismatch is None else self.mismatch.to_json(),
            "mismatches": self.mismatches,
            "commitment_ok": self.commitment_ok,
            "chain": None if self.chain is None else self.chain.to_json(),
            "epochs": [e.to_json() for e in self.epochs],
            "table": self.table,
        }


@dataclass(frozen=True)
class _Draw:
    seq: int
    index: int
    sides: int
    value: int


@dataclass(frozen=True)
class _Record:
    seq: int
    redacted: bool
    """A hidden record of a player's export: no command, no events (draws maybe withheld)."""
    draws: tuple[_Draw, ...]


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
        data = safejson.loads(content)
    except safejson.JsonLimitError as error:
        raise VerifyError(error.code, **error.params) from None
    except json.JSONDecodeError as error:
        raise VerifyError("verify.not_json", line=error.lineno, column=error.colno) from None
    if not isinstance(data, Mapping):
        raise VerifyError("verify.bad_format", field="$", value=_short(data))
    return data


def verify_export(data: Mapping[str, Any], *, require_revealed: bool = True) -> Verification:
    """Check the fair dice of a table export (see the module docs for what is checked).

    With ``require_revealed`` (the default) an export whose epochs are all still secret is a
    ``verify.not_revealed`` error; otherwise it is checked as far as it can be (the order).
    """
    if not isinstance(data, Mapping):
        raise VerifyError("verify.bad_format", field="$", value=_short(data))
    if data.get("format") not in EXPORT_FORMATS:
        raise VerifyError("verify.wrong_format", value=data.get("format"), expected=EXPORT_FORMAT)
    table = _field(data, "table", str)
    epochs = epochs_of(data)
    if require_revealed and not any(e.revealed for e in epochs):
        raise VerifyError("verify.not_revealed", table=table, commitment=epochs[-1].commitment)
    seeds = player_seeds_of(data)
    dice = [e.dice(table, seeds) if e.revealed else None for e in epochs]
    records = _records(data)
    if streams_of(data):
        return _verify_streams(table, epochs, dice, records)
    pending_from = None if epochs[-1].revealed else epochs[-1].start

    first: Mismatch | None = None
    count = checked = pending = withheld = 0
    covered: list[list[int]] = [[] for _ in epochs]
    expected = 0
    gap = False  # a redacted record without draws stands before the next draw
    for record in records:
        if record.redacted and not record.draws:
            gap = True
            continue
        if record.draws:
            low, high = record.draws[0].index, record.draws[-1].index
            for number, epoch in enumerate(epochs[1:], start=2):
                if low < epoch.start <= high:
                    count += 1
                    first = first or Mismatch(
                        MismatchKind.SPLIT,
                        record.draws[0].seq,
                        epoch.start,
                        record.draws[0].sides,
                        low,
                        epoch.start,
                        number,
                    )
        for draw in record.draws:
            if (
                draw.index > expected
                and gap
                and pending_from is not None
                and expected >= pending_from
            ):
                withheld += draw.index - expected
                expected = draw.index
            gap = False
            number = epoch_at(epochs, expected)
            problem: Mismatch | None = None
            if draw.index != expected:
                problem = Mismatch(
                    MismatchKind.INDEX,
                    draw.seq,
                    draw.index,
                    draw.sides,
                    expected,
                    draw.index,
                    number + 1,
                )
            else:
                covered[number].append(draw.seq)
                source = dice[number]
                if source is None:
                    pending += 1
                else:
                    checked += 1
                    value = source.value(draw.index, draw.sides)
                    if value != draw.value:
                        problem = Mismatch(
                            MismatchKind.VALUE,
                            draw.seq,
                            draw.index,
                            draw.sides,
                            value,
                            draw.value,
                            number + 1,
                        )
            if problem is not None:
                count += 1
                first = first or problem
            expected += 1
    return Verification(
        table=table,
        epochs=_checks(epochs, dice, covered),
        draws=checked,
        pending=pending,
        withheld=withheld,
        mismatch=first,
        mismatches=count,
        chain=_chain_break(epochs, [len(seqs) for seqs in covered]),
    )


def _checks(
    epochs: Sequence[Epoch], dice: Sequence[FairDice | None], covered: Sequence[Sequence[int]]
) -> tuple[EpochCheck, ...]:
    """Each epoch with its verdict; ``covered``: per epoch, the ``seq`` of each draw in it."""
    return tuple(
        EpochCheck(
            number=number + 1,
            start=epoch.start,
            end=epochs[number + 1].start if number + 1 < len(epochs) else None,
            commitment=epoch.commitment,
            computed_commitment=None
            if source is None
            else hashlib.sha256(source.server_seed).hexdigest(),
            draws=len(covered[number]),
            first_seq=covered[number][0] if covered[number] else None,
            last_seq=covered[number][-1] if covered[number] else None,
            chain=epoch.chain,
        )
        for number, (epoch, source) in enumerate(zip(epochs, dice, strict=True))
    )


def _verify_streams(
    table: str, epochs: Sequence[Epoch], dice: Sequence[FairDice | None], records: list[_Record]
) -> Verification:
    """Format 3: every draw of record ``seq`` is draw 0, 1, … of its own stream, derived with
    the seed of the epoch the record falls in; the epochs tile the records and chain."""
    first: Mismatch | None = None
    count = checked = pending = 0
    covered: list[list[int]] = [[] for _ in epochs]
    for record in records:
        number = epoch_at(epochs, record.seq)
        source = dice[number]
        for position, draw in enumerate(record.draws):
            problem: Mismatch | None = None
            if draw.index != position:
                problem = Mismatch(
                    MismatchKind.INDEX,
                    draw.seq,
                    draw.index,
                    draw.sides,
                    position,
                    draw.index,
                    number + 1,
                )
            elif source is None:
                pending += 1
            else:
                checked += 1
                value = source.stream_value(draw.seq, draw.index, draw.sides)
                if value != draw.value:
                    problem = Mismatch(
                        MismatchKind.VALUE,
                        draw.seq,
                        draw.index,
                        draw.sides,
                        value,
                        draw.value,
                        number + 1,
                    )
            if problem is None:
                covered[number].append(draw.seq)
            else:
                count += 1
                first = first or problem
    after = records[-1].seq + 1 if records else 1
    return Verification(
        table=table,
        epochs=_checks(epochs, dice, covered),
        draws=checked,
        pending=pending,
        withheld=0,
        mismatch=first,
        mismatches=count,
        chain=_tiling_break(epochs, after) or _link_break(table, epochs),
        streams=True,
    )


def _tiling_break(epochs: Sequence[Epoch], after: int) -> ChainBreak | None:
    """The first epoch that does not begin where the tiling lets it (format 3).

    Epoch 1 begins at record 1. Epoch 2 begins at the earliest there (epoch 1 is empty when
    the table revealed its first seed before any record), every later epoch after the one
    before it; none begins after ``after``, the record after the log.
    """
    for number, epoch in enumerate(epochs, start=1):
        if number == 1:
            low, high = 1, 1
        else:
            previous = epochs[number - 2].start
            low, high = (previous if number == 2 else previous + 1), after
        if not low <= epoch.start <= high:
            return ChainBreak(number, epoch.start, kind=ChainKind.TILING, expected=low, found=high)
    return None


def _link_break(table: str, epochs: Sequence[Epoch]) -> ChainBreak | None:
    """The first epoch whose link in the file is not the one recomputed (format 3)."""
    for number, (epoch, linked) in enumerate(
        zip(epochs, link_epochs(table, epochs), strict=True), start=1
    ):
        if (epoch.chain or "").lower() != linked.chain:
            return ChainBreak(
                number, epoch.start, kind=ChainKind.LINK, expected=linked.chain, found=epoch.chain
            )
    return None


def _chain_break(epochs: Sequence[Epoch], covered: Sequence[int]) -> ChainBreak | None:
    """The first revealed epoch without draws whose successor is pending and holds draws."""
    for number, (epoch, after) in enumerate(pairwise(epochs)):
        if epoch.revealed and not covered[number] and not after.revealed and covered[number + 1]:
            return ChainBreak(number + 1, epoch.start, covered[number + 1])
    return None


def streams_of(data: Mapping[str, Any]) -> bool:
    """Whether an export draws a stream per record (format 3)."""
    return data.get("format") == EXPORT_FORMAT


def epochs_of(data: Mapping[str, Any]) -> list[Epoch]:
    """The chain of epochs of an export, checked for shape (``verify.bad_format`` otherwise).

    ``spieltisch-table/1`` has one epoch from draw 0 (``fair.commitment``, ``fair.seed``).
    In ``/2`` the epochs start at 0 and in order, and only the last may be unrevealed. In
    ``/3`` each has its ``chain`` link; where they begin is checked by :func:`verify_export`
    (a broken chain is a verdict, not a malformed file).
    """
    fair = _field(data, "fair", Mapping)
    if data.get("format") == EXPORT_FORMATS[0]:
        commitment = _field(fair, "commitment", str, prefix="fair.")
        return [Epoch(0, commitment, _seed(fair.get("seed"), "fair.seed"))]
    raw = _field(fair, "epochs", Sequence, prefix="fair.")
    if isinstance(raw, str) or not raw:
        raise VerifyError("verify.bad_format", field="fair.epochs", value=_short(raw))
    epochs: list[Epoch] = []
    for number, item in enumerate(raw):
        where = f"fair.epochs[{number}]"
        if not isinstance(item, Mapping):
            raise VerifyError("verify.bad_format", field=where, value=_short(item))
        start = _field(item, "start", int, prefix=f"{where}.")
        chain = None
        if streams_of(data):
            if start < 1:
                raise VerifyError("verify.bad_format", field=f"{where}.start", value=start)
            chain = _field(item, "chain", str, prefix=f"{where}.")
            if not _HEX.fullmatch(chain):
                raise VerifyError("verify.bad_format", field=f"{where}.chain", value=_short(chain))
        elif start < (epochs[-1].start if epochs else 0) or (not epochs and start != 0):
            raise VerifyError("verify.bad_format", field=f"{where}.start", value=start)
        commitment = _field(item, "commitment", str, prefix=f"{where}.")
        seed = _seed(item.get("seed"), f"{where}.seed")
        if seed is None and number + 1 < len(raw):
            # Only the open epoch may be secret: a closed one was closed by its reveal.
            raise VerifyError("verify.bad_format", field=f"{where}.seed", value=None)
        epochs.append(Epoch(start, commitment, seed, chain))
    return epochs


def _seed(value: object, field: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or not _HEX.fullmatch(value):
        raise VerifyError("verify.bad_format", field=field, value=_short(value))
    return value


def player_seeds_of(data: Mapping[str, Any]) -> list[PlayerSeed]:
    """The player seeds of an export's ``fair`` block, in order (``verify.bad_format``)."""
    fair = _field(data, "fair", Mapping)
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


def _records(data: Mapping[str, Any]) -> list[_Record]:
    records = _field(data, "records", Sequence)
    if isinstance(records, str):
        raise VerifyError("verify.bad_format", field="records", value=_short(records))
    parsed: list[_Record] = []
    for number, record in enumerate(records):
        where = f"records[{number}]"
        if not isinstance(record, Mapping):
            raise VerifyError("verify.bad_format", field=where, value=_short(record))
        seq = _field(record, "seq", int, prefix=f"{where}.")
        raw = record.get("draws", [])
        if not isinstance(raw, Sequence) or isinstance(raw, str):
            raise VerifyError("verify.bad_format", field=f"{where}.draws", value=_short(raw))
        draws: list[_Draw] = []
        for position, item in enumerate(raw):
            here = f"{where}.draws[{position}]."
            if not isinstance(item, Mapping):
                raise VerifyError("verify.bad_format", field=here[:-1], value=_short(item))
            index = _field(item, "index", int, prefix=here)
            sides = _field(item, "sides", int, prefix=here)
            value = _field(item, "value", int, prefix=here)
            if not 1 <= sides <= MAX_SIDES:
                raise VerifyError("verify.bad_format", field=f"{here}sides", value=sides)
            if index < 0:
                raise VerifyError("verify.bad_format", field=f"{here}index", value=index)
            if not 1 <= value <= sides:
                # Checked for every draw, revealed or not: no die shows 0, -1 or 7 of 6.
                raise VerifyError(
                    "verify.impossible_value",
                    field=f"{here}value",
                    value=_short(value),
                    sides=sides,
                )
            draws.append(_Draw(seq, index, sides, value))
        redacted = (
            record.get("hidden") is True
            and record.get("command") is None
            and record.get("undoes") is None
        )
        parsed.append(_Record(seq, redacted, tuple(draws)))
    return parsed


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
