"""Players the server knows, in the page (docs/server.md, "Players"): a guest keeps a name in
the lobby, plays a game to its end, and finds it on their page with a rating; they add a
passkey (Chromium's virtual authenticator) and sign in with it in a second browser, which
then sees their history and rating; the game's replay opens from the history; the
leaderboard lists them beside the bots' levels; "Play again" deals the next game at the
same seats, which the second browser rejoins from the player's list of games to finish.
Headless Chromium against `cardtable serve`, reached as ``localhost`` (a passkey has no RP
ID for an IP address)."""

from __future__ import annotations

import random
from typing import Any

import httpx
from playwright.sync_api import Browser, BrowserContext, CDPSession, Page, expect

from browser_pieces import (
    EXPECT_MS,
    bots,
    context,
    english,
    last_seq,
    open_page,
    open_table,
    wait_past,
)
from test_web_open_tables import click_a_move

expect.set_options(timeout=EXPECT_MS)


def authenticator(made: BrowserContext, page: Page) -> tuple[CDPSession, str]:
    """A virtual platform authenticator (a passkey store that says its user is verified) on
    ``page``: its CDP session and id."""
    cdp = made.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    added = cdp.send(
        "WebAuthn.addVirtualAuthenticator",
        {
            "options": {
                "protocol": "ctap2",
                "transport": "internal",
                "hasResidentKey": True,
                "hasUserVerification": True,
                "isUserVerified": True,
                "automaticPresenceSimulation": True,
            }
        },
    )
    return cdp, str(added["authenticatorId"])


def play_alone_to_the_end(page: Page, rng: random.Random) -> None:
    """Random legal moves on this page's turns, the bots playing theirs, until the results."""
    for _ in range(500):
        page.wait_for_function(
            "() => document.querySelector('#turn.mine')"
            " || !document.getElementById('results').hidden"
        )
        if page.locator("#results").is_visible():
            return
        seq = last_seq(page)
        click_a_move(page, rng)
        wait_past(page, seq)
    raise AssertionError("the game did not end")


def test_a_player_keeps_a_name_plays_and_signs_in_with_a_passkey_on_a_second_browser(
    web_base: str, chromium: Browser
) -> None:
    words: dict[str, Any] = english()
    me = words["me"]
    base = web_base.replace("127.0.0.1", "localhost")
    with context(chromium) as first, context(chromium) as second:
        lobby = open_page(first, base)
        expect(lobby.locator("#you-sign-in")).to_be_enabled()
        lobby.fill("#you-name", "Ana")
        lobby.click("#you-keep")
        expect(lobby.locator("#you-body .you-known")).to_have_text(
            me["playing_as"].replace("{name}", "Ana")
        )
        expect(lobby.locator("#open-name")).to_have_value("Ana")
        player = lobby.locator("#you-page").get_attribute("href")
        assert player is not None and player.startswith("/players/")
        player_id = player.removeprefix("/players/")

        # A game of Knockout Whist against an easy bot, joined by its link: the seat becomes
        # Ana's, and its end rates her.
        opened = open_table(base, "knockout-whist", [{"kind": "human", "name": "Ana"}, *bots(1)])
        table = opened["table"]
        lobby.goto(f"{base}{opened['seats'][0]['invite']}")
        expect(lobby.locator("#seats .seat.me[data-seat='0']")).to_be_visible()
        play_alone_to_the_end(lobby, random.Random(4))
        page_data = httpx.get(f"{base}/api/players/{player_id}").json()
        assert [g["table"] for g in page_data["games"]] == [table]

        # "Play again": the next game at the same seats, Ana's still.
        lobby.click("#next-game")
        expect(lobby.locator("#seats .seat.me[data-seat='0']")).to_contain_text("Ana")
        described = httpx.get(f"{base}/api/tables/{table}").json()
        assert described["games"] == 2
        assert [(s["kind"], s["name"]) for s in described["seats"]] == [
            ("human", "Ana"),
            ("bot", opened["seats"][1]["name"]),
        ]

        # Her page: the rating and the finished game; she adds a passkey.
        mine = open_page(first, f"{base}{player}")
        cdp, authenticator_id = authenticator(first, mine)
        expect(mine.locator("#title")).to_have_text("Ana")
        expect(mine.locator("#ratings-list tbody tr[data-game='knockout-whist']")).to_be_visible()
        row = mine.locator(f"#history-list tbody tr[data-table='{table}']")
        expect(row).to_be_visible()
        expect(row.locator("td.place")).not_to_be_empty()
        expect(mine.locator("#mine")).to_be_visible()
        mine.click("#passkey-add")
        expect(mine.locator("#passkey-said")).to_have_text(me["passkey_added"])
        credentials = cdp.send("WebAuthn.getCredentials", {"authenticatorId": authenticator_id})
        (credential,) = credentials["credentials"]
        assert credential["isResidentCredential"] and credential["rpId"] == "localhost"

        # Another browser, which knows nothing of Ana, signs in with the passkey (the same
        # credential in its own authenticator, as a synced passkey would be).
        other = open_page(second, base)
        other_cdp, other_id = authenticator(second, other)
        other_cdp.send(
            "WebAuthn.addCredential", {"authenticatorId": other_id, "credential": credential}
        )
        expect(other.locator("#you-name")).to_be_visible()
        other.click("#you-sign-in")
        expect(other.locator("#you-body .you-known")).to_have_text(
            me["playing_as"].replace("{name}", "Ana")
        )
        other.click("#you-page")
        expect(other.locator("#title")).to_have_text("Ana")
        expect(other.locator("#mine")).to_be_visible()
        expect(other.locator("#ratings-list tbody tr[data-game='knockout-whist']")).to_be_visible()
        other.locator(f"#history-list tbody tr[data-table='{table}'] a.replay").click()
        expect(other.locator("#replay-bar")).to_be_visible()

        # The game "Play again" dealt is under way: her page on this browser lists it to
        # finish, and rejoining seats her here.
        other.goto(f"{base}{player}")
        waiting = other.locator(f"#unfinished-list tbody tr[data-table='{table}']")
        expect(waiting).to_be_visible()
        waiting.locator("button.rejoin").click()
        expect(other.locator("#seats .seat.me[data-seat='0']")).to_be_visible()
        assert other.url.split("#")[0] == f"{base}/t/{table}"

        # The leaderboard lists her, marked as this browser's player, among the levels.
        board = open_page(second, f"{base}/leaderboard/knockout-whist")
        expect(board.locator(f"#board tr.person.me[data-player='{player_id}']")).to_contain_text(
            "Ana"
        )
        expect(board.locator("#board tr.level")).to_have_count(5)
        expect(board.locator("#board-empty")).to_be_hidden()
