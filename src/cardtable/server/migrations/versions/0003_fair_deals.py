"""Each table's secret, from which its server seeds and bots' seeds are derived.

Revision ID: 0003
Revises: 0002

Tables stored before it get a fresh secret: their games in progress keep the decks already
drawn, and the games they start from now on are dealt fairly (docs/fairness.md).
"""

import secrets

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("secret", sa.String(64), nullable=True))
    tables = sa.table("tables", sa.column("id", sa.String), sa.column("secret", sa.String))
    connection = op.get_bind()
    for (table_id,) in connection.execute(sa.select(tables.c.id)).all():
        connection.execute(
            tables.update().where(tables.c.id == table_id).values(secret=secrets.token_hex(32))
        )


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("secret")
