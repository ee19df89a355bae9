"""Tables, seats, events and deals.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("options", sa.Text(), nullable=False),
        sa.Column("created", sa.Float(), nullable=False),
    )
    op.create_table(
        "seats",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("level", sa.String(16), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True),
    )
    op.create_index("ix_seats_token_hash", "seats", ["token_hash"])
    op.create_table(
        "events",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seq", sa.Integer(), primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("data", sa.Text(), nullable=False),
        sa.Column("created", sa.Float(), nullable=False),
    )
    op.create_table(
        "deals",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("game", sa.Integer(), primary_key=True),
        sa.Column("number", sa.Integer(), primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("hand", sa.Integer(), nullable=False),
        sa.Column("cards", sa.Text(), nullable=False),
        sa.Column("salt", sa.String(64), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("deals")
    op.drop_table("events")
    op.drop_index("ix_seats_token_hash", "seats")
    op.drop_table("seats")
    op.drop_table("tables")
