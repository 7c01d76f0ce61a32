"""Dice streams: every record of a new table draws from a stream of its own (format 3).

Adds ``tables.dice_format``: 2 for the tables that exist (their draws are numbered across the
whole log and they keep that derivation for ever, so their dice verify as before), 3 for
tables made from now on (each record's dice come from its own stream, epochs begin at a
record and are chained, see docs/fair-dice.md).

Revision ID: 0005_dice_streams
Revises: 0004_people
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005_dice_streams"
down_revision = "0004_people"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the dice format; every existing table keeps format 2."""
    op.add_column(
        "tables", sa.Column("dice_format", sa.Integer(), nullable=False, server_default="2")
    )


def downgrade() -> None:
    """Drop it again (tables of format 3 then no longer roll or verify correctly)."""
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("dice_format")
