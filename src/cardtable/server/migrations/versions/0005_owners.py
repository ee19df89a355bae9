"""Table owners: which server process holds each table in memory, and until when.

Several server processes on one database each serve the tables they own; a lease expires
unless its process renews it, so the tables of a process that died are taken over
(docs/hosting.md, "Many processes"). No foreign key: a tutorial table (in memory only,
never stored) has an owner too, so that another process can send its seats there.

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "owners",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("process", sa.String(32), nullable=False),
        sa.Column("address", sa.String(128), nullable=True),
        sa.Column("until", sa.Float(), nullable=False),
    )
    op.create_index("owners_process", "owners", ["process"])
    op.create_index("owners_until", "owners", ["until"])


def downgrade() -> None:
    op.drop_table("owners")
