"""Players the server knows (docs/server.md, "Players"): a player's row (an id and a name),
the hashes of the keys their devices hold, their passkeys (WebAuthn credentials: an id and
a public key), the challenges of passkey ceremonies under way, their ratings per game, and
each seat's player (null for a guest's seat, a bot's, and every seat stored before).

Revision ID: 0008
Revises: 0007
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("created", sa.Float(), nullable=False),
    )
    op.create_table(
        "player_keys",
        sa.Column("digest", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("created", sa.Float(), nullable=False),
    )
    op.create_index("player_keys_player", "player_keys", ["player_id"])
    op.create_table(
        "passkeys",
        sa.Column("id", sa.String(512), primary_key=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("public_key", sa.Text(), nullable=False),
        sa.Column("sign_count", sa.Integer(), nullable=False),
        sa.Column("created", sa.Float(), nullable=False),
    )
    op.create_index("passkeys_player", "passkeys", ["player_id"])
    op.create_table(
        "challenges",
        sa.Column("digest", sa.String(64), primary_key=True),
        sa.Column("purpose", sa.String(16), nullable=False),
        sa.Column("player_id", sa.String(32), nullable=True),
        sa.Column("expires", sa.Float(), nullable=False),
    )
    op.create_index("challenges_expires", "challenges", ["expires"])
    op.create_table(
        "ratings",
        sa.Column("who", sa.String(40), primary_key=True),
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated", sa.Float(), nullable=False),
    )
    op.create_index("ratings_game", "ratings", ["game"])
    with op.batch_alter_table("seats") as seats:
        seats.add_column(sa.Column("player_id", sa.String(32), nullable=True))
        seats.create_index("seats_player", ["player_id"])


def downgrade() -> None:
    with op.batch_alter_table("seats") as seats:
        seats.drop_index("seats_player")
        seats.drop_column("player_id")
    for table in ("ratings", "challenges", "passkeys", "player_keys", "players"):
        op.drop_table(table)
