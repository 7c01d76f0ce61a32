"""Export and import of a table: one JSON document (format ``spieltisch-table/3``, or ``/2``
for a table whose draws are numbered across its log).

An export carries the table's settings, its fair-dice block (the chain of seed epochs and the
player seeds), its participants (without tokens) and its records.

This module is also where the two halves of verification meet: the dice check
(:func:`spieltisch.dice.verify.verify_export`: every draw is what its epoch's seed gives) and
the replay (:func:`spieltisch.engine.replay.replay_log`: every record is what the rules make
of its draws). The replay needs the game system from the registry, which sits above the
engine, so the composition lives here in the store: :func:`verify_document` for
``spieltisch verify``, :func:`parse_export` for import. Both read ``spieltisch-table/2`` and
``/1`` exports (one seed) as well.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from spieltisch.dice.fair import Epoch, PlayerSeed
from spieltisch.dice.verify import (
    EXPORT_FORMAT,
    EXPORT_FORMATS,
    LOG_FORMAT,
    Verification,
    VerifyError,
    epochs_of,
    player_seeds_of,
    streams_of,
    verify_export,
)
from spieltisch.engine.errors import EngineError
from spieltisch.engine.replay import ReplayResult, replay_log
from spieltisch.engine.system import upgrade_options
from spieltisch.engine.table import Record, Role, Table, read_record
from spieltisch.engine.upcast import EventShapes, shapes_of
from spieltisch.engine.visibility import Viewer, sees
from spieltisch.errors import InputError, SpieltischError
from spieltisch.store.types import Participant, TableInfo
from spieltisch.store.validation import (
    MAX_NAME,
    MAX_TITLE,
    check_id,
    check_language,
    check_options,
    check_text,
)
from spieltisch.systems.registry import get_system

__all__ = [
    "EXPORT_FORMAT",
    "Checked",
    "ParsedExport",
    "export_document",
    "parse_export",
    "verify_document",
]


def export_document(
    info: TableInfo, table: Table, participants: Iterable[Participant], viewer: Viewer | None
) -> dict[str, Any]:
    """The export of ``table`` for ``viewer`` (``None``: the administrator).

    The GM and the administrator get the whole log. Others get every record, those they do
    not see (:func:`~spieltisch.engine.visibility.sees`: hidden records, whispers they are not
    part of) redacted: no command, no events, and their raw draws only where these fall in a
    revealed epoch (so the export verifies, while the GM's secrets and the values of hidden
    rolls not yet revealed stay his). A redacted whisper names neither sender nor recipient.
    """
    if viewer is None or viewer.is_gm:
        records = table.records
    else:
        records = [r if sees(viewer, r) else _redacted(info, r) for r in table.records]
    return {
        "format": EXPORT_FORMAT if info.streams else LOG_FORMAT,
        "table": info.dice_table,
        "system": info.system,
        "options": info.options,
        "language": info.language,
        "title": info.title,
        "fair": info.fair_block(),
        "participants": [_person(p) for p in participants],
        "records": [r.model_dump(mode="json") for r in records],
        "versions": shapes_of(table.system).describe(),
    }


def _person(participant: Participant) -> dict[str, Any]:
    """A participant in an export: id, name, role; ``removed`` for one who left or was
    removed (an import recreates them as such, without a token)."""
    person: dict[str, Any] = {
        "id": participant.id,
        "name": participant.name,
        "role": participant.role.value,
    }
    if participant.removed:
        person["removed"] = True
    return person


def _redacted(info: TableInfo, record: Record) -> Record:
    # Whom a whisper went to is part of the whisper: an audience becomes nobody (an empty
    # list), and the whisper's sender is not named.
    audience: dict[str, Any] = {} if record.audience is None else {"audience": []}
    if record.undoes is not None:
        return record.model_copy(update=audience)  # an undo names what it reverts, no more
    if record.audience is not None:
        audience["actor"] = ""
        audience["contact"] = False  # a discovery shown to another alone is not named
    shown = info.revealed_draws(record)
    return record.model_copy(
        update={"command": None, "events": [], "draws": shown, "claims": None, **audience}
    )


@dataclass(frozen=True)
class ParsedExport:
    """An export that passed every check, ready to be stored as a new table."""

    system: str
    options: dict[str, Any]
    language: str
    title: str
    dice_table: str
    epochs: tuple[Epoch, ...]
    player_seeds: tuple[PlayerSeed, ...]
    records: list[Record]
    participants: list[Participant]
    """Everyone but the GM (the importer becomes the GM)."""
    streams: bool = False
    """Every record draws from a stream of its own (format 3)."""

    @property
    def next_start(self) -> int:
        """Where an epoch after the log begins: the next record's ``seq`` (streams), else
        the index of the first draw after the log."""
        if self.streams:
            return len(self.records) + 1
        return sum(len(record.draws) for record in self.records)


@dataclass(frozen=True)
class Checked:
    """The verdict of :func:`verify_document`: the dice check and the replay."""

    dice: Verification
    replay: ReplayResult

    @property
    def ok(self) -> bool:
        """Every revealed epoch and draw checks out, and every record replays as logged."""
        return self.dice.ok and self.replay.ok

    def error(self) -> SpieltischError | None:
        """The first problem as an error: the dice's first, else the replay's."""
        problem = self.dice.error()
        if problem is None and self.replay.mismatch is not None:
            return self.replay.mismatch.error()
        return problem

    def to_json(self) -> dict[str, Any]:
        """The stable JSON verdict (the dice verdict plus ``replayed`` and ``replay``)."""
        mismatch = self.replay.mismatch
        return {
            **self.dice.to_json(),
            "ok": self.ok,
            "replayed": self.replay.records,
            "replay": None if mismatch is None else mismatch.to_json(),
        }


def verify_document(data: Any, *, require_revealed: bool = True) -> Checked:
    """Verify an export: its dice (per epoch) and, by replay, every record.

    Raises a :class:`VerifyError` (``verify.*``) for a file that cannot be checked at all:
    another format, a malformed field, no epoch revealed (unless ``require_revealed`` is
    false), an unknown game system or records that are not records.
    """
    dice = verify_export(data, require_revealed=require_revealed)
    system, options, records = _log(data)
    return Checked(dice, replay_log(system, options, records, streams=streams_of(data)))


def _log(data: Mapping[str, Any]) -> tuple[Any, dict[str, Any], list[Record]]:
    try:
        system = get_system(str(data.get("system")))
        options = check_options(system, upgrade_options(system, data.get("options") or {}))
    except SpieltischError as error:
        raise VerifyError(
            "verify.bad_format", field="system", value=str(data.get("system"))
        ) from error
    shapes = shapes_of(system)
    assumed = _versions(data, shapes, system.id)
    records: list[Record] = []
    for number, raw in enumerate(data["records"]):
        where = f"records[{number}]"
        try:
            records.append(read_record(shapes, Record.model_validate(raw), assumed))
        except ValidationError:
            raise VerifyError("verify.bad_format", field=where, value=_short(raw)) from None
        except EngineError as error:  # an event of a newer shape, or a bad version
            if error.code == "table.newer_event":
                raise VerifyError("verify.newer_event", **error.params) from None
            field = f"{where}.events"
            raise VerifyError("verify.bad_format", field=field, value=_short(raw)) from None
    return system, options, records


def _versions(data: Mapping[str, Any], shapes: EventShapes, system: str) -> dict[str, int] | None:
    """The event versions an export declares (``"versions"``; none: every event is version
    1, as in exports written before versions existed). A file of newer rules or event shapes
    than this program knows is refused by name."""
    block = data.get("versions")
    if block is None:
        return None
    events = block.get("events") if isinstance(block, Mapping) else None
    rules = block.get("rules") if isinstance(block, Mapping) else None
    if not isinstance(events, Mapping) or not isinstance(rules, int) or not _positive(rules):
        raise VerifyError("verify.bad_format", field="versions", value=_short(block))
    if rules > shapes.rules:
        raise VerifyError("verify.newer_rules", system=system, version=rules, known=shapes.rules)
    assumed: dict[str, int] = {}
    for kind, version in events.items():
        if not isinstance(kind, str) or not _positive(version):
            raise VerifyError("verify.bad_format", field=f"versions.events.{kind}", value=version)
        known = shapes.versions.get(kind)
        if known is not None and version > known:
            raise VerifyError("verify.newer_event", kind=kind, version=version, known=known)
        assumed[kind] = version
    return assumed


def _positive(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1


def parse_export(data: Any) -> ParsedExport:
    """Check an export before it is stored: format, settings, participants, the dice of every
    revealed epoch and the replay of every record. Raises a :class:`SpieltischError` naming
    the first fault (``verify.mismatch_value``, ``verify.replay_mismatch``, …)."""
    if not isinstance(data, Mapping) or data.get("format") not in EXPORT_FORMATS:
        value = data.get("format") if isinstance(data, Mapping) else type(data).__name__
        raise InputError("table.bad_format", value=value, expected=EXPORT_FORMAT)
    try:
        system = get_system(str(data["system"]))
        options = check_options(system, upgrade_options(system, data.get("options") or {}))
        language = check_language(str(data.get("language", "de")))
        title = check_text(str(data.get("title", "")), "table.bad_title", MAX_TITLE, True)
        others = [
            Participant(
                check_id(p["id"]),
                check_text(p.get("name", ""), "table.bad_name", MAX_NAME, True),
                Role(p["role"]),
                p.get("removed") is True,
            )
            for p in data.get("participants") or []
            if p.get("role") != Role.GM.value
        ]
        ids = [p.id for p in others]
        if len(set(ids)) != len(ids):
            raise EngineError("table.bad_export", detail=f"participants: repeated ids {ids!r}")
    except (AttributeError, KeyError, TypeError, ValueError) as error:
        if isinstance(error, SpieltischError):
            raise
        raise EngineError("table.bad_export", detail=str(error)) from None
    problem = verify_document(data, require_revealed=False).error()
    if problem is not None:
        raise problem
    records = _log(data)[2]  # in today's shape (upcast where they are older)
    streams = streams_of(data)
    # Folds every event and, in format 2, refuses a log with gaps (a player's export that
    # withholds draws of an epoch not yet revealed): stored, it would draw those indexes again.
    # In format 3 every record has its own stream: nothing withheld is drawn again.
    table = Table(system, options, records, streams=streams)
    return ParsedExport(
        system=system.id,
        options=options,
        language=language,
        title=title,
        dice_table=str(data["table"]),
        epochs=tuple(epochs_of(data)),
        player_seeds=tuple(player_seeds_of(data)),
        records=list(table.records),
        participants=others,
        streams=streams,
    )


def _short(value: object) -> object:
    text = repr(value)
    return value if len(text) <= 80 else f"{text[:77]}..."
