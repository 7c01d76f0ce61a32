"""Images: the battle-map backgrounds a table's GM uploads.

Revision ID: 0003_images
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_images"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the ``images`` table."""
    op.create_table(
        "images",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("tables.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("content_type", sa.String(32), nullable=False),
        sa.Column("width", sa.Integer(), nullable=False),
        sa.Column("height", sa.Integer(), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("data", sa.LargeBinary(), nullable=False),
        sa.Column(
            "created", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False
        ),
    )
    op.create_index("ix_images_table", "images", ["table_id"])


def downgrade() -> None:
    """Drop the ``images`` table."""
    op.drop_index("ix_images_table", table_name="images")
    op.drop_table("images")
