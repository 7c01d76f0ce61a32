"""The database tables of the event store (SQLAlchemy 2 declarative models).

One row per game table, per participant, per invite, per log record and per snapshot. The log
is append-only; ``(table_id, seq)`` is unique, and the table row's ``version`` is a
compare-and-swap guard bumped by every change, so two workers deciding on the same stale state
cannot both commit.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
    UniqueConstraint,
    func,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

__all__ = [
    "Base",
    "ImageRow",
    "InviteRow",
    "ParticipantRow",
    "RateHitRow",
    "RecordRow",
    "SnapshotRow",
    "TableRow",
]


class Base(DeclarativeBase):
    """Declarative base of the store's models."""


class TableRow(Base):
    """A game table: its system, options, fair-dice seed and the head of its log."""

    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    system: Mapped[str] = mapped_column(String(64))
    title: Mapped[str] = mapped_column(String(200), default="")
    language: Mapped[str] = mapped_column(String(8), default="de")
    options: Mapped[dict[str, object]] = mapped_column(JSON, default=dict)
    dice_table: Mapped[str] = mapped_column(String(64))
    """The table id the fair dice are keyed on (differs from ``id`` for imported tables)."""
    server_seed: Mapped[str | None] = mapped_column(String(128), nullable=True)
    """Hex of the current epoch's secret seed; ``None`` when unknown (imported before its
    reveal)."""
    commitment: Mapped[str] = mapped_column(String(64))
    """The current epoch's commitment."""
    dice_format: Mapped[int] = mapped_column(Integer, default=3, server_default="2")
    """3: every record draws from a stream of its own; 2: draws are numbered across the log
    (tables made before streams, and imports of format 1 and 2)."""
    epoch_start: Mapped[int] = mapped_column(Integer, default=0)
    """Where the current epoch begins: its first record's ``seq`` (format 3), its first
    draw's index (format 2)."""
    epochs: Mapped[list[dict[str, object]]] = mapped_column(JSON, default=list)
    """The revealed epochs before the current one: ``[{"start", "commitment", "seed"}]``."""
    player_seeds: Mapped[list[dict[str, object]]] = mapped_column(JSON, default=list)
    seq: Mapped[int] = mapped_column(Integer, default=0)
    """Sequence number of the last record."""
    version: Mapped[int] = mapped_column(Integer, default=0)
    """Bumped by every change; writers compare-and-swap on it."""
    people: Mapped[int] = mapped_column(Integer, default=0)
    """Bumped whenever someone joins, leaves or is removed (a worker then reads the
    participants again)."""
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class ParticipantRow(Base):
    """Someone at a table: a name, a role and the SHA-256 of their secret token."""

    __tablename__ = "participants"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(100))
    role: Mapped[str] = mapped_column(String(16))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    removed: Mapped[bool] = mapped_column(Boolean, default=False)
    """Removed by the GM, or left: the token no longer works (its hash was replaced by one
    of a secret nobody knows); the name stays for the log."""


class InviteRow(Base):
    """An invite code (hashed) that lets someone join a table in a role."""

    __tablename__ = "invites"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    role: Mapped[str] = mapped_column(String(16), primary_key=True)
    code_hash: Mapped[str] = mapped_column(String(64))


class RecordRow(Base):
    """One record of a table's append-only log, as the JSON of ``engine.table.Record``."""

    __tablename__ = "records"
    __table_args__ = (UniqueConstraint("table_id", "seq", name="uq_records_table_seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(String(32), ForeignKey("tables.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    hidden: Mapped[bool] = mapped_column(Boolean, default=False)
    data: Mapped[str] = mapped_column(Text)


class SnapshotRow(Base):
    """The folded state of a table after record ``seq``, for fast loading."""

    __tablename__ = "snapshots"
    __table_args__ = (Index("ix_snapshots_table_seq", "table_id", "seq"),)

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    system: Mapped[str] = mapped_column(String(64))
    state: Mapped[str] = mapped_column(Text)


class ImageRow(Base):
    """An image a table's GM uploaded (a battle map's background), checked and decoded once."""

    __tablename__ = "images"
    __table_args__ = (Index("ix_images_table", "table_id"),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    table_id: Mapped[str] = mapped_column(String(32), ForeignKey("tables.id", ondelete="CASCADE"))
    content_type: Mapped[str] = mapped_column(String(32))
    width: Mapped[int] = mapped_column(Integer)
    height: Mapped[int] = mapped_column(Integer)
    size: Mapped[int] = mapped_column(Integer)
    data: Mapped[bytes] = mapped_column(LargeBinary)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class RateHitRow(Base):
    """One request counted against a rate limit, while it is inside the limit's moving window
    (shared by every worker on PostgreSQL, see :mod:`spieltisch.web.limits`)."""

    __tablename__ = "rate_hits"
    __table_args__ = (
        Index("ix_rate_hits_key_at", "key", "at"),
        Index("ix_rate_hits_expires", "expires"),
    )

    id: Mapped[int] = mapped_column(
        BigInteger().with_variant(Integer(), "sqlite"), primary_key=True, autoincrement=True
    )
    key: Mapped[str] = mapped_column(String(200))
    """The limit and who it counts (kind, token digest or address, amount and period)."""
    at: Mapped[float] = mapped_column(Float)
    """When (seconds since the epoch)."""
    expires: Mapped[float] = mapped_column(Float)
    """When it leaves the window (``at`` plus the limit's period)."""
