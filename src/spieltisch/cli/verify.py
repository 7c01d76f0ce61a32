"""``spieltisch verify FILE``: recompute the fair dice of an exported table and replay its log.

Every revealed epoch's seed is checked against its commitment and every draw in it against
the seed; epochs not revealed yet are reported as pending. Every record is replayed with its
draws (see :func:`spieltisch.store.exchange.verify_document`).

Exit status: 0 when everything that can be checked matches; 1 when something does not check
out; 2 when the file cannot be checked at all (unreadable, not an export, no seed revealed).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from spieltisch.cli.app import app
from spieltisch.cli.context import emit_json, fail, help_text, settings, t
from spieltisch.dice.verify import (
    EpochCheck,
    EpochStatus,
    Mismatch,
    MismatchKind,
    VerifyError,
    parse_export,
)
from spieltisch.store.exchange import Checked, verify_document

__all__ = ["read_export", "render_verdict", "verify"]

EXIT_MISMATCH = 1
"""Exit status when the export was checked and something does not match."""

_MARKS = {True: "[bold green]✓[/]", False: "[bold red]✗[/]", None: "[bold yellow]…[/]"}


def read_export(path: str) -> bytes:
    """The bytes of the export at ``path`` (``-`` for standard input); a ``VerifyError`` else."""
    if path == "-":
        return sys.stdin.buffer.read()
    try:
        return Path(path).read_bytes()
    except FileNotFoundError:
        raise VerifyError("verify.no_file", path=path) from None
    except IsADirectoryError:
        raise VerifyError("verify.is_directory", path=path) from None
    except PermissionError:
        raise VerifyError("verify.no_permission", path=path) from None
    except OSError as error:
        raise VerifyError("verify.unreadable", path=path, detail=error.strerror) from None


def _mismatch_line(mismatch: Mismatch) -> str:
    key = (
        "verify.mismatch_index" if mismatch.kind is MismatchKind.INDEX else "verify.mismatch_value"
    )
    return t(
        key,
        seq=mismatch.seq,
        index=mismatch.index,
        sides=mismatch.sides,
        expected=mismatch.expected,
        logged=mismatch.logged,
    )


def _epoch_line(epoch: EpochCheck, streams: bool) -> tuple[bool | None, str]:
    # A chained epoch (format 3) begins at a record; an older one at a draw of the whole log.
    keys = (
        ("verify.epoch_records", "verify.epoch_no_records", "verify.epoch_records_from")
        if streams
        else ("verify.epoch_draws", "verify.epoch_none", "verify.epoch_from")
    )
    covers = (
        t(keys[0], start=epoch.start, end=epoch.end - 1)
        if epoch.end is not None and epoch.end > epoch.start
        else t(keys[1])
        if epoch.end is not None
        else t(keys[2], start=epoch.start)
    )
    entries = (
        t("verify.epoch_entries", first=epoch.first_seq, last=epoch.last_seq)
        if epoch.first_seq is not None and not streams
        else ""
    )
    where = {"number": epoch.number, "covers": covers, "entries": entries}
    if epoch.status is EpochStatus.PENDING:
        return None, t("verify.epoch_pending", commitment=epoch.commitment, **where)
    if epoch.status is EpochStatus.BAD:
        text = t(
            "verify.epoch_bad",
            computed=epoch.computed_commitment,
            commitment=epoch.commitment,
            **where,
        )
        return False, text
    return True, t("verify.epoch_ok", commitment=epoch.commitment, **where)


def render_verdict(
    verdict: Checked, announced: tuple[str, int | None] | None = None
) -> list[tuple[bool | None, str]]:
    """The verdict as lines of text, each marked good (``True``), bad or pending (``None``).

    ``announced``: a link the table announced and the epoch of the file it is the link of
    (``None``: it is none of them, which fails the verdict)."""
    dice = verdict.dice
    lines = [_epoch_line(epoch, dice.streams) for epoch in dice.epochs]
    if dice.chain is not None:
        error = dice.chain.error()
        lines.append((False, t(error.code, **error.params)))
    if announced is not None:
        lines.append(_announced_line(*announced))
    if dice.mismatch is None:
        lines.append((True, t("verify.summary_draws_ok", draws=dice.draws)))
    else:
        lines.append((False, _mismatch_line(dice.mismatch)))
        text = t("verify.summary_failed", mismatches=dice.mismatches, draws=dice.draws)
        lines.append((False, text))
    if dice.pending or dice.withheld:
        lines.append(
            (None, t("verify.summary_pending", pending=dice.pending, withheld=dice.withheld))
        )
    mismatch = verdict.replay.mismatch
    if mismatch is None:
        lines.append((True, t("verify.replay_ok", records=verdict.replay.records)))
    else:
        lines.append((False, t(mismatch.error().code, **mismatch.error().params)))
    if verdict.ok and (announced is None or announced[1] is not None):
        text = t(
            "verify.ok",
            table=dice.table,
            draws=dice.draws,
            records=verdict.replay.records,
            epochs=dice.revealed,
        )
        lines.append((True, text))
    return lines


@app.command("verify", help=help_text("cli.help.verify"))
def verify(
    file: Annotated[
        str, typer.Argument(metavar="FILE", help=help_text("cli.help.verify.opt.file"))
    ],
    as_json: Annotated[
        bool, typer.Option("--json", help=help_text("cli.help.verify.opt.json"))
    ] = False,
    chain: Annotated[
        str | None,
        typer.Option("--chain", metavar="LINK", help=help_text("cli.help.verify.opt.chain")),
    ] = None,
) -> None:
    """Check the fair dice of an exported table against its revealed seeds, and replay it."""
    try:
        verdict = verify_document(parse_export(read_export(file)))
    except VerifyError as error:
        fail(error, as_json=as_json)
    epoch = None if chain is None else verdict.dice.announced(chain)
    if as_json:
        announced = None if chain is None else {"chain": chain, "epoch": epoch}
        emit_json({**verdict.to_json(), "announced": announced})
    else:
        for good, text in render_verdict(verdict, None if chain is None else (chain, epoch)):
            line = f"{_MARKS[good]} {escape(text)}"
            settings.console.print(line, markup=True, soft_wrap=True, highlight=False)
    if not verdict.ok or (chain is not None and epoch is None):
        raise typer.Exit(EXIT_MISMATCH)


def _announced_line(chain: str, epoch: int | None) -> tuple[bool, str]:
    """Whether a link the table announced is in the file's chain of epochs."""
    if epoch is None:
        return False, t("verify.announced_missing", chain=chain)
    return True, t("verify.announced_ok", chain=chain, epoch=epoch)
