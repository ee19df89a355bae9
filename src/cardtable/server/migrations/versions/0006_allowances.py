"""Each client's allowance of new tables, kept in the database so that every server process
on it counts the same tables (docs/server.md, "Limits"): a token bucket per client, filled
at the allowed rate, from which each table opened takes one. The client is kept as a hash
of its address; a row whose bucket has been full for a while is removed.

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "allowances",
        sa.Column("client", sa.String(64), primary_key=True),
        sa.Column("tokens", sa.Float(), nullable=False),
        sa.Column("updated", sa.Float(), nullable=False),
    )
    op.create_index("allowances_updated", "allowances", ["updated"])


def downgrade() -> None:
    op.drop_table("allowances")
