"""The headers every HTTP response carries (docs/server.md, "Security headers")."""

from __future__ import annotations

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["API_DOCS", "CONTENT_SECURITY_POLICY", "SECURITY_HEADERS", "SecurityHeaders"]

# Every response's headers (docs/server.md, "Security headers"). The pages load their
# scripts, styles and locale files from the server alone and set no inline script or style
# attribute; the favicon is a data: URL. The websocket is the page's own origin ('self'
# covers ws: and wss: there).
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
# FastAPI's API explorer is a page of inline scripts from a CDN: it keeps the other headers.
API_DOCS = "/api/docs"


class SecurityHeaders:
    """Adds :data:`SECURITY_HEADERS` to every HTTP response (ASGI middleware)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        docs = str(scope.get("path", "")).startswith(API_DOCS)

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS.items():
                    if not (docs and name == "Content-Security-Policy"):
                        headers[name] = value
            await send(message)

        await self.app(scope, receive, sending)
