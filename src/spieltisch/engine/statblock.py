"""Parsing the stat lines a GM types: a grammar, a transformer, limits and positioned errors.

A system writes a lark grammar for its stat lines (HeXXen's ``(N) Klauenhieb Angriff 10,
Schaden 3``) and a transformer that turns the tree into its own data, and builds a
:class:`StatParser` with :func:`make_parser`. The parser

- refuses text past its :class:`Limits` before lark sees it (``toolkit.statblock.too_long``)
  and blank text (``toolkit.statblock.empty``);
- uses lark's LALR parser only, which runs in time linear in the text;
- turns every lark error into a :class:`StatLineError` with the position (0-based), line,
  column, the text found there and the expected tokens (``toolkit.statblock.unexpected``, or
  ``toolkit.statblock.end`` at the end of the text, ``toolkit.statblock.trailing`` for text
  after a complete line);
- lets a transformer refuse a value with a positioned error of its own (:func:`fail`).

Whatever text it is given, :meth:`StatParser.parse` returns the transformer's result or raises
:class:`StatLineError` — never another error. The messages come from the codes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from lark import Lark, Token, Transformer
from lark.exceptions import (
    UnexpectedCharacters,
    UnexpectedEOF,
    UnexpectedInput,
    UnexpectedToken,
    VisitError,
)
from lark.lexer import PatternStr

from spieltisch.engine.errors import EngineError
from spieltisch.errors import InputError

__all__ = ["Limits", "StatLineError", "StatParser", "fail", "make_parser"]

T = TypeVar("T")

_END = frozenset({"$END", "<END-OF-FILE>"})
"""How lark names the end of the text among expected tokens (never shown: see the codes)."""


class StatLineError(EngineError, InputError, ValueError):
    """A stat line that cannot be read.

    Params: ``value`` (the whole text), ``position`` (0-based), ``line`` and ``column`` (from
    1), ``found`` (the text at the position, empty at the end) and ``expected`` (the expected
    tokens joined by `` | ``), plus whatever the code adds. :attr:`expected_tokens` keeps
    them as a tuple.
    """

    def __init__(
        self,
        code: str,
        /,
        *,
        value: str,
        position: int,
        found: str = "",
        expected: tuple[str, ...] = (),
        **params: Any,
    ) -> None:
        line, column = _line_column(value, position)
        super().__init__(
            code,
            value=value,
            position=position,
            line=line,
            column=column,
            found=found,
            expected=" | ".join(expected),
            **params,
        )
        self.expected_tokens = expected

    @property
    def position(self) -> int:
        """0-based index of the offending character."""
        return int(self.params["position"])


def _line_column(text: str, position: int) -> tuple[int, int]:
    position = min(max(position, 0), len(text))
    line = text.count("\n", 0, position) + 1
    column = position - (text.rfind("\n", 0, position) + 1) + 1
    return line, column


class _Refusal(Exception):
    """Raised by :func:`fail` inside a transformer; the parser adds the text."""

    def __init__(self, code: str, position: int, found: str, params: dict[str, Any]) -> None:
        super().__init__(code)
        self.code = code
        self.position = position
        self.found = found
        self.params = params


def fail(code: str, token: Token | None, **params: Any) -> Exception:
    """An error for a transformer to raise: ``code`` at ``token``'s position.

    ``raise fail("hexxen.statblock.too_many_dice", token, limit=20)`` becomes a
    :class:`StatLineError` naming the whole text, the position and ``found`` = the token.
    """
    position = token.start_pos if token is not None and token.start_pos is not None else 0
    return _Refusal(code, position, str(token) if token is not None else "", params)


@dataclass(frozen=True)
class Limits:
    """Guards for text typed by users."""

    max_length: int = 2000
    """Characters per text."""
    max_lines: int = 60
    """Lines per text."""


@dataclass(frozen=True)
class StatParser(Generic[T]):
    """A grammar and a transformer, ready to parse text within :class:`Limits`."""

    lark: Lark
    transformer: Callable[[], Transformer[Token, T]]
    limits: Limits = field(default_factory=Limits)
    names: Mapping[str, str] = field(default_factory=dict)
    """Display names of terminals in ``expected`` (default: literal text, else the name)."""

    def parse(self, text: str) -> T:
        """The transformer's value for ``text``; :class:`StatLineError` for anything else."""
        if not isinstance(text, str) or not text.strip():
            raise StatLineError("toolkit.statblock.empty", value=str(text), position=0)
        if len(text) > self.limits.max_length or text.count("\n") >= self.limits.max_lines:
            raise StatLineError(
                "toolkit.statblock.too_long",
                value=text[:40],
                position=0,
                found=text[:10],
                length=len(text),
                limit=self.limits.max_length,
                lines=text.count("\n") + 1,
                max_lines=self.limits.max_lines,
            )
        try:
            tree = self.lark.parse(text)
        except UnexpectedInput as error:
            raise self._syntax_error(text, error) from None
        try:
            return self.transformer().transform(tree)
        except VisitError as error:
            inner = error.orig_exc
            if isinstance(inner, _Refusal):
                raise StatLineError(
                    inner.code,
                    value=text,
                    position=inner.position,
                    found=inner.found,
                    **inner.params,
                ) from None
            if isinstance(inner, StatLineError):
                raise inner from None
            raise

    def _display(self, terminal: str) -> str:
        if terminal in self.names:
            return self.names[terminal]
        try:
            pattern = self.lark.get_terminal(terminal).pattern
        except KeyError:
            return terminal
        return repr(pattern.value) if isinstance(pattern, PatternStr) else terminal

    def _syntax_error(self, text: str, error: UnexpectedInput) -> StatLineError:
        expected: set[str] = set()
        position = len(text)
        found = ""
        if isinstance(error, UnexpectedCharacters):
            expected = set(error.allowed or ())
            if error.pos_in_stream is not None:
                position = error.pos_in_stream
            found = text[position : position + 1]
        elif isinstance(error, UnexpectedToken):
            expected = set(error.expected)
            if error.token.type != "$END" and error.token.start_pos is not None:
                position = error.token.start_pos
                found = str(error.token)
        elif isinstance(error, UnexpectedEOF):
            expected = set(error.expected)
        position = min(max(position, 0), len(text))
        tokens = tuple(sorted({self._display(name) for name in expected - _END}))
        if not found:
            code = "toolkit.statblock.end"
        elif tokens:
            code = "toolkit.statblock.unexpected"
        else:
            code = "toolkit.statblock.trailing"
        return StatLineError(code, value=text, position=position, found=found, expected=tokens)


def make_parser(
    grammar: str,
    transformer: Callable[[], Transformer[Token, T]],
    *,
    start: str = "start",
    limits: Limits | None = None,
    names: Mapping[str, str] | None = None,
) -> StatParser[T]:
    """Build a :class:`StatParser` from a lark grammar and a transformer factory.

    ``transformer`` makes a fresh transformer per text (a transformer class will do). The
    grammar is compiled once, with LALR and the contextual lexer; ``names`` maps terminal names
    to what ``expected`` should show for them.
    """
    lark = Lark(grammar, start=start, parser="lalr", maybe_placeholders=False)
    return StatParser(
        lark=lark, transformer=transformer, limits=limits or Limits(), names=names or {}
    )
