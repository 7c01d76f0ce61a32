"""``spieltisch verify FILE``: recompute the fair dice of an exported table.

Exit status: 0 when the seed matches its commitment and every draw matches; 1 when something
does not check out; 2 when the file cannot be checked at all (unreadable, not an export,
seed not revealed yet).
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
    Mismatch,
    MismatchKind,
    Verification,
    VerifyError,
    parse_export,
    verify_export,
)

__all__ = ["read_export", "render_verdict", "verify"]

EXIT_MISMATCH = 1
"""Exit status when the export was checked and something does not match."""


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


def render_verdict(verdict: Verification) -> list[tuple[bool, str]]:
    """The verdict as lines of text, each marked good (``True``) or bad."""
    if verdict.ok:
        text = t(
            "verify.ok", draws=verdict.draws, table=verdict.table, commitment=verdict.commitment
        )
        return [(True, text)]
    lines: list[tuple[bool, str]] = []
    if not verdict.commitment_ok:
        text = t(
            "verify.commitment_mismatch",
            computed=verdict.computed_commitment,
            commitment=verdict.commitment,
        )
        lines.append((False, text))
    if verdict.mismatch is None:
        lines.append((True, t("verify.summary_draws_ok", draws=verdict.draws)))
    else:
        lines.append((False, _mismatch_line(verdict.mismatch)))
        text = t("verify.summary_failed", mismatches=verdict.mismatches, draws=verdict.draws)
        lines.append((False, text))
    return lines


@app.command("verify", help=help_text("cli.help.verify"))
def verify(
    file: Annotated[
        str, typer.Argument(metavar="FILE", help=help_text("cli.help.verify.opt.file"))
    ],
    as_json: Annotated[
        bool, typer.Option("--json", help=help_text("cli.help.verify.opt.json"))
    ] = False,
) -> None:
    """Check the fair dice of an exported table against its revealed seed."""
    try:
        verdict = verify_export(parse_export(read_export(file)))
    except VerifyError as error:
        fail(error, as_json=as_json)
    if as_json:
        emit_json(verdict.to_json())
    else:
        for good, text in render_verdict(verdict):
            mark = "[bold green]✓[/]" if good else "[bold red]✗[/]"
            line = f"{mark} {escape(text)}"
            settings.console.print(line, markup=True, soft_wrap=True, highlight=False)
    if not verdict.ok:
        raise typer.Exit(EXIT_MISMATCH)
