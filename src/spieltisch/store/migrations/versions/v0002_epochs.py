"""Seed epochs: a table reveals its seed and plays on with a fresh one.

Adds ``tables.epoch_start`` (first draw of the current epoch) and ``tables.epochs`` (the
revealed epochs before it) and drops ``tables.revealed``. Every existing table becomes one
epoch from draw 0; a table that had revealed its seed gets that epoch closed and a fresh
secret seed for the draws after its log, so it rolls on.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import hashlib
import json
import secrets

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the epoch columns, close the revealed seeds, drop the revealed flag."""
    op.add_column(
        "tables", sa.Column("epoch_start", sa.Integer(), nullable=False, server_default="0")
    )
    op.add_column(
        "tables", sa.Column("epochs", sa.JSON(), nullable=False, server_default=sa.text("'[]'"))
    )
    conn = op.get_bind()
    revealed = conn.execute(
        sa.text("SELECT id, server_seed, commitment FROM tables WHERE revealed")
    ).all()
    for table_id, seed, commitment in revealed:
        draws = 0
        for (data,) in conn.execute(
            sa.text("SELECT data FROM records WHERE table_id = :id"), {"id": table_id}
        ):
            draws += len(json.loads(data).get("draws") or [])
        fresh = secrets.token_bytes(32)
        conn.execute(
            sa.text(
                "UPDATE tables SET epochs = :epochs, epoch_start = :start,"
                " server_seed = :seed, commitment = :commitment WHERE id = :id"
            ),
            {
                "epochs": json.dumps([{"start": 0, "commitment": commitment, "seed": seed}]),
                "start": draws,
                "seed": fresh.hex(),
                "commitment": hashlib.sha256(fresh).hexdigest(),
                "id": table_id,
            },
        )
    op.drop_column("tables", "revealed")


def downgrade() -> None:
    """Back to one seed per table: the current epoch's (the revealed ones are dropped)."""
    op.add_column(
        "tables",
        sa.Column("revealed", sa.Boolean(), nullable=False, server_default=sa.false()),
    )
    op.drop_column("tables", "epochs")
    op.drop_column("tables", "epoch_start")
