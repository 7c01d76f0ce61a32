"""Alembic migrations of the event store; :func:`spieltisch.store.db.migrate` runs them."""
