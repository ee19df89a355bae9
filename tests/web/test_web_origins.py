"""Another web site's page, in a real browser, cannot open a table or a socket on the
server; the server's own lobby still does (docs/server.md, "Origins").

The other site is a one-page HTTP server of the test's own, on another port (another
origin). Its page does what any site may: a ``fetch`` in ``no-cors`` mode with a
``text/plain`` body (no CORS preflight: the browser sends it and hides the answer), and a
``WebSocket`` to the server. Headless Chromium against ``cardtable serve``
(tests/browser_pieces.py).
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

import httpx
from playwright.sync_api import Browser, expect

from browser_pieces import (
    CHROMIUM,
    CHROMIUM_ARGS,
    EXPECT_MS,
    bots,
    context,
    open_page,
    open_table,
)

expect.set_options(timeout=EXPECT_MS)

PAGE = b"<!doctype html><html lang='en'><title>another site</title><p>Hello.</p></html>"

# What the other site's page does: a table asked for as any page may (text/plain, a form's
# type), then a socket opened on a table; what became of the socket.
ATTACK = """
async ([base, table, body]) => {
  for (const type of ["text/plain", "application/x-www-form-urlencoded"]) {
    await fetch(`${base}/api/tables`, {
      method: "POST", mode: "no-cors", headers: { "Content-Type": type }, body,
    }).catch(() => undefined);
  }
  return await new Promise((resolve) => {
    const socket = new WebSocket(`${base.replace("http", "ws")}/ws/${table}`);
    socket.onopen = () => { socket.close(); resolve("open"); };
    socket.onclose = (event) => resolve(`closed ${event.code}`);
  });
}
"""


class _Page(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(PAGE)))
        self.end_headers()
        self.wfile.write(PAGE)

    def log_message(self, format: str, *args: object) -> None:
        pass


@contextmanager
def other_site() -> Iterator[str]:
    """A web site of another origin than the server's: one page, on a port of its own."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Page)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def tables(base: str) -> int:
    count: int = httpx.get(f"{base}/health", timeout=10.0).json()["tables"]
    return count


def test_a_page_of_another_site_opens_no_table_and_no_socket(
    web_base: str, chromium: Browser
) -> None:
    table = open_table(web_base, "knockout-whist", [{"kind": "human"}, *bots(1)])["table"]
    before = tables(web_base)
    request = {"game": "neuf", "seats": [{"kind": "human", "name": "Mallory"}] * 3}
    # The browser says in its console that the requests and the handshake were refused.
    refusals = ("Failed to load resource", "WebSocket")
    with other_site() as site, context(chromium, allowed=refusals) as made:
        page = made.new_page()
        page.goto(site)
        expect(page.locator("p")).to_have_text("Hello.")
        outcome = page.evaluate(ATTACK, [web_base, table, json.dumps(request)])
    assert outcome == "closed 1006", outcome  # the handshake failed: no socket
    assert tables(web_base) == before


def test_the_servers_own_lobby_still_opens_a_table(web_base: str, chromium: Browser) -> None:
    before = tables(web_base)
    with context(chromium) as made:
        page = open_page(made, web_base)
        page.click("#play-now-buttons button[data-play-now='knockout-whist']")
        page.wait_for_url(re.compile(r"/t/[^#]+#seat=0&token="))
        page.wait_for_selector("#conn[data-state='connected']")
        expect(page.locator("#turn.mine")).to_be_visible()
    assert tables(web_base) == before + 1


def test_the_lobby_under_a_name_pointed_at_the_server_opens_nothing(
    web_base: str, chromium: Browser
) -> None:
    """DNS rebinding: another site's name made to resolve to the server's address (here by
    Chromium's own resolver rules) serves the server's lobby under that site's origin, whose
    ``Origin`` and ``Host`` agree. The server knows its names (IP addresses, localhost and
    --server-name), so that page's click opens no table."""
    port = urlsplit(web_base).port
    rules = "--host-resolver-rules=MAP rebound.test 127.0.0.1"
    browser = chromium.browser_type.launch(
        executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, rules], headless=True
    )
    before = tables(web_base)
    try:
        page = browser.new_page()
        page.goto(f"http://rebound.test:{port}/")
        page.click("#play-now-buttons button[data-play-now='knockout-whist']")
        status = page.evaluate(REBOUND)
    finally:
        browser.close()
    assert status == [403, "cross_origin"]
    assert tables(web_base) == before


# The page's own request, as the lobby sends it: JSON, from the page's origin.
REBOUND = """
async () => {
  const answer = await fetch("/api/tables", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ game: "neuf", seats: Array(3).fill({ kind: "human" }) }),
  });
  return [answer.status, (await answer.json()).error];
}
"""
