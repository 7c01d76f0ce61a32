"""Initial schema: tables, participants, invites, records, snapshots.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the five tables of the event store."""
    op.create_table(
        "tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("system", sa.String(64), nullable=False),
        sa.Column("title", sa.String(200), nullable=False),
        sa.Column("language", sa.String(8), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("dice_table", sa.String(64), nullable=False),
        sa.Column("server_seed", sa.String(128), nullable=True),
        sa.Column("commitment", sa.String(64), nullable=False),
        sa.Column("revealed", sa.Boolean(), nullable=False),
        sa.Column("player_seeds", sa.JSON(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column(
            "created", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False
        ),
    )
    op.create_table(
        "participants",
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("tables.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
    )
    op.create_table(
        "invites",
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("tables.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("role", sa.String(16), primary_key=True),
        sa.Column("code_hash", sa.String(64), nullable=False),
    )
    op.create_table(
        "records",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("tables.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("hidden", sa.Boolean(), nullable=False),
        sa.Column("data", sa.Text(), nullable=False),
        sa.UniqueConstraint("table_id", "seq", name="uq_records_table_seq"),
    )
    op.create_table(
        "snapshots",
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("tables.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seq", sa.Integer(), primary_key=True),
        sa.Column("system", sa.String(64), nullable=False),
        sa.Column("state", sa.Text(), nullable=False),
    )
    op.create_index("ix_snapshots_table_seq", "snapshots", ["table_id", "seq"])


def downgrade() -> None:
    """Drop the event store."""
    op.drop_index("ix_snapshots_table_seq", table_name="snapshots")
    for name in ("snapshots", "records", "invites", "participants", "tables"):
        op.drop_table(name)
