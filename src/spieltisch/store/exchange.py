"""Export and import of a table: one JSON document (format ``spieltisch-table/1``).

An export carries the table's settings, its fair-dice block, its participants (without tokens)
and its records. :func:`parse_export` checks an export before anything is stored.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from spieltisch.dice.fair import FairDice, FairDiceError, PlayerSeed
from spieltisch.engine.errors import EngineError
from spieltisch.engine.table import Record, Role, Table
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

__all__ = ["EXPORT_FORMAT", "ParsedExport", "check_draws", "export_document", "parse_export"]

EXPORT_FORMAT = "spieltisch-table/1"
"""The ``format`` of a table export."""


def export_document(
    info: TableInfo, table: Table, participants: Iterable[Participant], role: Role | None
) -> dict[str, Any]:
    """The export of ``table`` for a participant in ``role`` (``None``: the administrator).

    The GM and the administrator get the whole log. Others get the records they may see; once
    the seed is revealed, hidden records are added with their raw draws only (no command, no
    events), so the export verifies while the GM's secrets stay his.
    """
    if role is None or role is Role.GM:
        records = table.records
    elif info.revealed:
        records = [
            r.model_copy(update={"command": None, "events": [], "claims": None}) if r.hidden else r
            for r in table.records
        ]
    else:
        records = table.visible(role)
    return {
        "format": EXPORT_FORMAT,
        "table": info.dice_table,
        "system": info.system,
        "options": info.options,
        "language": info.language,
        "title": info.title,
        "fair": info.fair_block(),
        "participants": [{"id": p.id, "name": p.name, "role": p.role.value} for p in participants],
        "records": [r.model_dump(mode="json") for r in records],
    }


@dataclass(frozen=True)
class ParsedExport:
    """An export that passed every check, ready to be stored as a new table."""

    system: str
    options: dict[str, Any]
    language: str
    title: str
    dice_table: str
    commitment: str
    seed: str | None
    player_seeds: tuple[PlayerSeed, ...]
    records: list[Record]
    participants: list[Participant]
    """Everyone but the GM (the importer becomes the GM)."""


def parse_export(data: Any) -> ParsedExport:
    """Check an export: its format, settings, participants, log (folded) and, once the seed is
    revealed, every draw against the seed. Raises a :class:`SpieltischError` naming the fault."""
    if not isinstance(data, Mapping) or data.get("format") != EXPORT_FORMAT:
        value = data.get("format") if isinstance(data, Mapping) else type(data).__name__
        raise InputError("table.bad_format", value=value, expected=EXPORT_FORMAT)
    try:
        system = get_system(str(data["system"]))
        options = check_options(system, data.get("options") or {})
        language = check_language(str(data.get("language", "de")))
        fair = data["fair"]
        commitment = str(fair["commitment"])
        seed = fair.get("seed")
        seeds = tuple(PlayerSeed.parse(p) for p in fair.get("player_seeds") or [])
        records = [Record.model_validate(r) for r in data["records"]]
        dice_table = str(data["table"])
        title = check_text(str(data.get("title", "")), "table.bad_title", MAX_TITLE, True)
        others = [
            Participant(
                check_id(p["id"]),
                check_text(p.get("name", ""), "table.bad_name", MAX_NAME, True),
                Role(p["role"]),
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
    table = Table(system, options, records)  # validates order and folds every event
    if seed is not None:
        try:
            dice = FairDice(bytes.fromhex(str(seed)), dice_table, seeds)
        except ValueError:
            raise EngineError("table.bad_export", detail=f"fair.seed: {seed!r}") from None
        check_draws(dice, commitment, table)
    return ParsedExport(
        system=system.id,
        options=options,
        language=language,
        title=title,
        dice_table=dice_table,
        commitment=commitment,
        seed=None if seed is None else str(seed).lower(),
        player_seeds=seeds,
        records=table.records,
        participants=others,
    )


def check_draws(dice: FairDice, commitment: str, table: Table) -> None:
    """Every draw of ``table`` recomputed from ``dice``; the first that differs is named."""
    if dice.commitment != commitment.lower():
        raise EngineError("table.commitment_mismatch", commitment=commitment)
    expected_index = 0
    for record in table.records:
        for draw in record.draws:
            if draw.index != expected_index:
                raise EngineError("table.draw_mismatch", seq=record.seq, index=draw.index)
            try:
                value = dice.value(draw.index, draw.sides)
            except FairDiceError:
                raise EngineError("table.draw_mismatch", seq=record.seq, index=draw.index) from None
            if value != draw.value:
                raise EngineError("table.draw_mismatch", seq=record.seq, index=draw.index)
            expected_index += 1
