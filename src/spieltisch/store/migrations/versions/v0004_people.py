"""People at a table: removing a participant, and rate limits shared by every worker.

Adds ``participants.removed`` (a removed participant or one who left: their token no longer
works, they stay named in the log), ``tables.people`` (bumped whenever someone joins, leaves
or is removed, so every worker's write turn sees who is at the table now) and the table
``rate_hits`` (one row per request counted against a limit, kept while it is inside the
limit's moving window: rate limits that hold across workers on PostgreSQL, see
``spieltisch.web.limits``).

Revision ID: 0004_people
Revises: 0003_images
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004_people"
down_revision = "0003_images"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the removal flag, the people counter and the rate counters."""
    op.add_column(
        "participants",
        sa.Column("removed", sa.Boolean(), nullable=False, server_default=sa.false()),
    )
    op.add_column("tables", sa.Column("people", sa.Integer(), nullable=False, server_default="0"))
    op.create_table(
        "rate_hits",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), primary_key=True),
        sa.Column("key", sa.String(200), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("expires", sa.Float(), nullable=False),
    )
    op.create_index("ix_rate_hits_key_at", "rate_hits", ["key", "at"])
    op.create_index("ix_rate_hits_expires", "rate_hits", ["expires"])


def downgrade() -> None:
    """Drop them again (removed participants come back with a token nobody knows)."""
    op.drop_index("ix_rate_hits_expires", table_name="rate_hits")
    op.drop_index("ix_rate_hits_key_at", table_name="rate_hits")
    op.drop_table("rate_hits")
    op.drop_column("tables", "people")
    with op.batch_alter_table("participants") as batch:
        batch.drop_column("removed")
