"""The table page across a graceful restart of the server (docs/hosting.md, "Graceful
shutdown"), in a real Chromium: the stopping server closes the page's socket with 1012,
the page says it is reconnecting, finds the new server on the same address and database,
and play goes on from where it was."""

from __future__ import annotations

import os
import random
import signal
from pathlib import Path

from playwright.sync_api import expect
from websockets.exceptions import ConnectionClosed

from browser_pieces import (
    Seat,
    bots,
    context,
    invite,
    launched,
    open_table,
    seated_page,
    token_of,
)
from served import ServerProcess
from test_web_browser import click_a_move


def test_the_page_reconnects_after_a_graceful_restart_and_plays_on(tmp_path: Path) -> None:
    rng = random.Random(7)
    database = tmp_path / "table.db"
    server = ServerProcess(database, tmp_path / "server.log")
    server.start()
    again = ServerProcess(database, tmp_path / "again.log")
    again.port = server.port  # the same address: the page knows no other
    base = server.http
    try:
        opened = open_table(
            base,
            "knockout-whist",
            [{"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Bo"}, *bots(1)],
        )
        table, link = opened["table"], invite(base, opened, 0)
        bo_token = token_of(invite(base, opened, 1))
        bo = Seat(base, table, bo_token)
        errors: list[str] = []
        # Between the two servers nothing listens: the browser logs each refused attempt
        # to connect, which is what the page retries through.
        with (
            launched() as chromium,
            context(chromium, allowed=("net::ERR_CONNECTION_REFUSED",)) as made,
        ):
            page = seated_page(made, link, errors)
            bo.play_until(0, rng)
            expect(page.locator("#turn.mine")).to_be_visible()

            process = server.process
            assert process is not None
            os.kill(process.pid, signal.SIGTERM)
            expect(page.locator("#conn")).to_have_attribute("data-state", "reconnecting")
            try:
                while True:
                    bo.read()
            except ConnectionClosed as closed:
                assert closed.rcvd is not None and closed.rcvd.code == 1012
            bo.close()
            assert process.wait(30) == 0
            server.process = None

            again.start()
            expect(page.locator("#conn")).to_have_attribute(
                "data-state", "connected", timeout=30_000
            )
            bo = Seat(base, table, bo_token)
            expect(page.locator("#turn.mine")).to_be_visible()
            card = click_a_move(page, rng)
            assert bo.action_of(0)["action"].split()[-1] == card
            expect(page.locator("#banner")).to_be_hidden()
            bo.close()
        assert errors == []
    finally:
        server.stop()
        again.stop()
