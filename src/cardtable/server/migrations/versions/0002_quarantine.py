"""A table whose record no longer replays is set aside: ``tables.quarantined`` says why.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A nullable column with no default: both SQLite and PostgreSQL add it in place.
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("quarantined", sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("quarantined")
