"""Alembic's environment: migrations run on the connection :func:`cardtable.server.store.migrate`
hands over, so the server upgrades its own database when it starts."""

from alembic import context

from cardtable.server.store import Base

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
