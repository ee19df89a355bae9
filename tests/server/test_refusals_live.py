"""A refused action says why, wherever it is played: over a live server's websocket (the
error's ``reason`` and ``details``, docs/server.md) and at the terminal (in words, with the
screen's card symbols). The reasons themselves are tested in ``test_refusals.py``."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

import cardtable
from cardtable.bots import make_bot
from cardtable.cards import Card, Suit
from live_pieces import LiveSocket, live_server, open_live_table, tokens
from served import ServerProcess
from terminal_io import PROMPT, run_cli


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with live_server(tmp_path_factory.mktemp("refusals")) as running:
        yield running


def seated(
    server: ServerProcess, game: str, players: int
) -> tuple[dict[int, LiveSocket], dict[int, dict[str, Any]]]:
    """Every seat of a new table of humans joined: the sockets and each seat's snapshot."""
    opened = open_live_table(server, game, [{"kind": "human"}] * players)
    sockets, snapshots = {}, {}
    for seat, token in tokens(opened).items():
        sockets[seat] = LiveSocket(server, opened["table"])
        snapshots[seat] = sockets[seat].join(token)
    for socket in sockets.values():  # past the presence notices of the seats joined later
        socket.send(json.dumps({"type": "ping"}))
        socket.until("pong")
    return sockets, snapshots


def refused(socket: LiveSocket, action: str, seq: int) -> dict[str, Any]:
    answer = socket.ask(json.dumps({"type": "action", "action": action, "seq": seq}))
    assert answer["type"] == "error", answer
    socket.quiet()
    return answer


def test_a_live_refusal_carries_the_rules_reason_and_its_details(server: ServerProcess) -> None:
    """NEUF-3.1: at the start of a deal every seat decides on the exchange before any card is
    played; NEUF-10: only the seat to move acts. The errors say so as codes a client can
    put in words, next to the unchanged code and message."""
    sockets, snapshots = seated(server, "neuf", 3)
    try:
        mover, seq = snapshots[0]["view"]["to_move"], snapshots[0]["seq"]
        assert snapshots[mover]["view"]["phase"] == "exchange"
        card = snapshots[mover]["view"]["hand"][0]
        answer = refused(sockets[mover], f"play {card}", seq)
        assert answer["code"] == "illegal"
        assert answer["reason"] == "must_decide_exchange"
        assert answer["details"] == {"card": card}
        other = next(s for s in sockets if s != mover)
        answer = refused(sockets[other], "keep", seq)
        assert answer["code"] == "not_your_turn"
        assert (answer["reason"], answer["details"]) == (
            "not_your_turn",
            {"seat": other, "to_move": mover},
        )
    finally:
        for socket in sockets.values():
            socket.close()


def test_kryt_navalivat_says_there_is_nothing_to_pick_up_on_the_first_lead(
    server: ServerProcess,
) -> None:
    """KRYT-4.1: the hand opens on an empty pile; a pick-up there is refused with its
    reason, and an action that is no action of the game has none."""
    sockets, snapshots = seated(server, "kryt-navalivat", 2)
    try:
        mover, seq = snapshots[0]["view"]["to_move"], snapshots[0]["seq"]
        answer = refused(sockets[mover], "take", seq)
        assert (answer["code"], answer["reason"], answer["details"]) == (
            "illegal",
            "nothing_to_pick_up",
            {},
        )
        answer = refused(sockets[mover], "jump", seq)
        assert answer["code"] == "invalid_action"
        assert "reason" not in answer and "details" not in answer
    finally:
        for socket in sockets.values():
            socket.close()


# ---------------------------------------------------------------- the terminal


def kow_seed_where_seat_0_must_follow() -> tuple[int, str, str]:
    """A seed whose first trick (dealer 1 of 3, so seat 2 leads, KOW-4.1) has the random bot
    lead a suit that seat 0 holds with another: the seed, the suit led and a card of seat 0
    that does not follow. The bot draws as the terminal's session draws for seat 2."""
    for seed in range(1, 200):
        state = cardtable.make("knockout-whist", players=3, dealer=1).new_state(seed=seed)
        bot = make_bot("random", "knockout-whist")
        rng = random.Random(f"{seed}:bot:2")
        state.apply(bot.choose(state.view(2), state.legal_actions(), rng), seat=2)
        led = state.view(0)["trick"][0][1][-1]
        hand = state.view(0)["hand"]
        other = [c for c in hand if c[-1] != led]
        if other and len(other) < len(hand):
            return seed, led, other[0]
    raise AssertionError("no seed in 1-199 makes seat 0 follow a suit it holds")


def test_the_terminal_says_why_a_card_cannot_be_played_in_its_symbols() -> None:
    """KOW-4.2: holding the suit led, seat 0 types a card of another suit; the terminal says
    it must follow suit, naming the suit with its symbol, and asks again."""
    seed, led, stray = kow_seed_where_seat_0_must_follow()
    table = ["--players", "3", "--seed", str(seed), "--dealer", "1", "--bot", "random"]
    done = run_cli("play", "knockout-whist", *table, stdin=f"play {stray.lower()}\nquit\n")
    assert done.returncode == 0, done.stderr
    out = done.stdout.split(f"{PROMPT} play {stray.lower()}", 1)[1]
    suit = Suit.parse(led)
    shown = Card.parse(stray).symbol
    assert f"play {shown} is not legal now." in out
    assert (
        f"You must follow suit: you hold {suit.symbol} {suit.name.lower()} (the suit led)." in out
    )
    assert "Choose one of:" in out


def test_the_terminal_says_the_exchange_comes_first() -> None:
    """NEUF-3.1: dealer 2, so seat 0 decides first; a card typed then is refused with why."""
    table = ["--players", "3", "--seed", "4", "--dealer", "2", "--bot", "random"]
    done = run_cli("play", "neuf", *table, stdin="2c\nquit\n")
    assert done.returncode == 0, done.stderr
    out = done.stdout.split(f"{PROMPT} 2c", 1)[1]
    assert "First decide: exchange your hand for the spare, or keep it (NEUF-3.1)." in out
