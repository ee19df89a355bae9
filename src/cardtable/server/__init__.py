"""The web table: a FastAPI application whose tables live in a database as their records.

``create_app(database_url)`` builds the application; ``cardtable serve`` runs it under
uvicorn. The protocol is documented in ``docs/server.md``.
"""

from cardtable.server.app import create_app

__all__ = ["create_app"]
