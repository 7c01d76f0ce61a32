"""Alembic environment: runs the migrations on the connection the store hands over."""

from __future__ import annotations

from alembic import context
from sqlalchemy.engine import Connection

from spieltisch.store.models import Base

connection: Connection | None = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - the store always passes its connection
    raise RuntimeError("run the migrations through spieltisch.store.db.migrate")

context.configure(
    connection=connection,
    target_metadata=Base.metadata,
    render_as_batch=connection.dialect.name == "sqlite",
)
with context.begin_transaction():
    context.run_migrations()
