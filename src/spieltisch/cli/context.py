"""What every command shares: the chosen language, a console and the one way to fail."""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from typing import Any, NoReturn

import typer
from rich.console import Console

from spieltisch.errors import SpieltischError
from spieltisch.i18n import default_language, error_message, translate

__all__ = ["Settings", "emit_json", "fail", "settings", "t"]


@dataclass
class Settings:
    """Global options of one invocation."""

    lang: str = field(default_factory=default_language)
    console: Console = field(default_factory=lambda: Console(highlight=False))


settings = Settings()
"""The options of the running invocation (set by the top-level callback)."""


def t(key: str, /, **params: Any) -> str:
    """Translate ``key`` into the invocation's language."""
    return translate(key, settings.lang, **params)


def emit_json(data: Any) -> None:
    """Print ``data`` as JSON on standard output (stable, documented formats)."""
    sys.stdout.write(json.dumps(data, ensure_ascii=False) + "\n")


def fail(error: SpieltischError, *, as_json: bool = False, exit_code: int = 2) -> NoReturn:
    """Report a deliberate error as one localized line (or JSON) and exit non-zero."""
    message = error_message(error, settings.lang)
    if as_json:
        emit_json({"error": {"code": error.code, "message": message}})
    else:
        Console(stderr=True, highlight=False).print(
            f"[bold red]{t('cli.error')}:[/] {message}", markup=True, soft_wrap=True
        )
    raise typer.Exit(exit_code)
