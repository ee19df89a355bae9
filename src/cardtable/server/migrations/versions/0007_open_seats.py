"""Open seats that go to a bot when no one has taken them in time (docs/server.md, "Open
tables"): a seat's ``open_until``, the moment (seconds since the epoch) at which an open seat
still untaken is given to a bot of the seat's ``level``. Null for every other seat, and for
the seats stored before.

Revision ID: 0007
Revises: 0006
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as seats:
        seats.add_column(sa.Column("open_until", sa.Float(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as seats:
        seats.drop_column("open_until")
