"""The Kryt'-navalivat' heuristic bot (DESIGN.md "Bots"): legality, determinism, the
tactics of KRYT-12 from constructed positions, and strength against random bots.

Positions are ``kryt/1`` lines (``position.py``); :func:`position` fills in the cards a
test does not name: into the stock while there is one, under the pile once it is empty.
"""

from __future__ import annotations

import random

import pytest

import cardtable
from bot_games import play_bots
from cardtable.bots import Bot, RandomBot, make_bot
from cardtable.bots.kryt_navalivat import KrytNavalivatHeuristic, card_power
from cardtable.bots.reading import card_index
from cardtable.cards import Card
from cardtable.core import State

GAME = "kryt-navalivat"
PACK = [str(Card.from_index(13 * s + r)) for s in range(4) for r in range(4, 13)]
TURN_CAP = 5000  # KRYT-7.7: a harness safeguard, not a rule


def position(
    hands: list[str],
    *,
    trumps: str = "D",
    pile: str = "",
    known: list[str] | None = None,
    turn: str = "respond",
    to_move: int = 0,
    stock: bool = True,
) -> State:
    """A constructed state; unnamed cards go to the stock (with the turned card, a trump,
    at its bottom) or, with ``stock=False``, under the pile."""
    players = len(hands)
    named = [c for h in hands for c in h.split(",") if c] + [c for c in pile.split(",") if c]
    rest = [c for c in PACK if c not in named]
    permanent = trumps == "permanent"
    faceup = "-"
    stock_cards = "-"
    if stock:
        if not permanent:
            faceup = next(c for c in rest if c.endswith(trumps))
            rest.remove(faceup)
        stock_cards = ",".join(rest)
    else:
        pile = ",".join([*rest, *[c for c in pile.split(",") if c]])
    text = (
        f"kryt/1 players={players} trumps={trumps} dealer={(to_move - 1) % players} "
        f"hands={'/'.join(h or '-' for h in hands)} "
        f"known={'/'.join(k or '-' for k in (known or ['-'] * players))} "
        f"pile={pile or '-'} faceup={faceup} stock={stock_cards} turn={turn} "
        f"to_move={to_move} result=- seed=1"
    )
    game = cardtable.make(GAME, players=players, trump_mode="permanent" if permanent else "turned")
    return game.state_from_position(text)


def choice(state: State) -> str:
    seat = state.to_move
    assert seat is not None
    action = KrytNavalivatHeuristic().choose(
        state.view(seat), state.legal_actions(), random.Random(0)
    )
    assert action in state.legal_actions()
    return str(action)


def play_game(
    seed: int, bots: list[Bot], trump_mode: str = "turned", *, json_views: bool = False
) -> State:
    """A whole hand, stopped at the harness cap of KRYT-7.7 (the caller checks the end)."""
    game = cardtable.make(GAME, players=len(bots), trump_mode=trump_mode)
    return play_bots(game, seed, bots, json_views=json_views, cap=TURN_CAP)


# The registry, legality, determinism -----------------------------------------------------


def test_make_bot_builds_the_kryt_navalivat_heuristic() -> None:
    """DESIGN.md "Bots": heuristic and the level easy are the Kryt'-navalivat' heuristic here."""
    assert isinstance(make_bot("heuristic", GAME), KrytNavalivatHeuristic)
    assert isinstance(make_bot("easy", GAME), KrytNavalivatHeuristic)
    assert make_bot("heuristic", GAME).name == "heuristic"


@pytest.mark.parametrize("trump_mode", ["turned", "permanent"])
@pytest.mark.parametrize("players", range(2, 7))
def test_bots_only_choose_legal_actions(players: int, trump_mode: str) -> None:
    """KRYT-4, KRYT-6, KRYT-8 (K-2: 2-6 players): heuristic and random bots, reading JSON
    views, stay legal to the end of the hand."""
    for seed in range(2):
        bots: list[Bot] = [
            make_bot("heuristic" if (s + seed) % 2 else "random", GAME) for s in range(players)
        ]
        state = play_game(seed, bots, trump_mode, json_views=True)
        assert state.result is not None, f"seed {seed} ran past {TURN_CAP} turns"


def test_heuristic_is_deterministic_given_the_rng_seed() -> None:
    """The same seeds give the same hand, action for action."""
    bots: list[Bot] = [make_bot("heuristic", GAME), make_bot("random", GAME)] * 2
    first = play_game(21, bots).record().actions
    assert play_game(21, bots).record().actions == first
    assert play_game(22, bots).record().actions != first


def test_choice_depends_on_the_view_alone() -> None:
    """KRYT-9: re-dealing what seat 0 cannot see (the stock, the other hands' unknown
    cards) changes neither its view nor the bot's choice."""
    game = cardtable.make(GAME, players=3)
    for seed in range(20):
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(1, 40)):
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
            if state.is_over:
                break
        seat = state.to_move
        if seat is None:
            continue
        other = state.resample_hidden(seat, random.Random(seed))
        assert other.view(seat) == state.view(seat)
        assert choice(other) == choice(state)


# Card worth ------------------------------------------------------------------------------


def test_card_power_orders_trumps_above_plain_cards() -> None:
    """KRYT-3, KRYT-8.2: the ace of trumps is worth most, a plain six least; in the
    permanent mode the unbeatable ace of spades is worth more than a plain ace."""
    d, s = 1, 3
    power = {c: card_power(card_index(c), d) for c in ("AD", "6D", "AH", "6H")}
    assert power["AD"] > power["6D"] > power["AH"] > power["6H"]
    assert card_power(card_index("AS"), d, s) > card_power(card_index("AH"), d, s)


# Tactics (KRYT-12 and sound play) ---------------------------------------------------------


def test_beats_with_the_cheapest_card_of_the_suit() -> None:
    """KRYT-3.1: against 8H, 9H beats as well as KH or the trump 7D, and costs least;
    6S is left to cover with."""
    state = position(["9H,KH,7D,6S", "6C,7C,8C"], pile="8H")
    assert choice(state) == "beat 9H"


def test_beats_with_a_plain_card_before_a_trump() -> None:
    """KRYT-3.1: QH and the trump 7D both beat JH; the trump is kept."""
    state = position(["QH,7D,7C", "6C,8C,9C"], pile="JH")
    assert choice(state) == "beat QH"


def test_takes_a_low_plain_card_rather_than_spend_the_ace_of_trumps() -> None:
    """KRYT-5, KRYT-12: early on, 6C costs one card to take; the only beater is the ace
    of trumps, which is kept for the endgame."""
    state = position(["AD,9S,10S", "7H,8H,9H"], pile="6C")
    assert choice(state) == "take"


def test_leads_a_low_side_card_and_keeps_trumps_and_honours() -> None:
    """KRYT-4.1, KRYT-12: while the stock lasts, lead low from a side suit."""
    state = position(["AD,7H,8H,QS", "6C,8C,9C"], turn="lead")
    assert choice(state) in ("lead 7H", "lead 8H")
    assert choice(state) == "lead 7H"


def test_covers_with_a_card_the_next_player_cannot_beat() -> None:
    """KRYT-4.2a, K-10: seat 1 is known to hold exactly 8H, 9H, 10H (picked up). After
    beating 8C with 9C, a cover of 7H would be beaten; 7S cannot be, so seat 1 takes it."""
    state = position(["9C,10C,7H,7S", "8H,9H,10H"], known=["-", "8H,9H,10H"], pile="8C")
    assert choice(state) == "beat 9C"
    state.apply("beat 9C")
    assert choice(state) == "cover 7S"


def test_three_players_pick_up_the_cover_of_the_ace_of_trumps() -> None:
    """KRYT-12: seat 0 (on seat 1's right) beat with AD and covered with 7S. Seat 1 could
    beat 7S with 9S, but taking 7S (one card, KRYT-5) leaves seat 2 facing the ace of
    trumps, which takes the whole pile."""
    state = position(["8C,QC,KC", "9S,KH,10H", "6H,7H,JC"], pile="8H,9H,6C,AD,7S", to_move=1)
    assert "beat 9S" in [str(a) for a in state.legal_actions()]
    assert choice(state) == "take"


def test_swaps_the_six_of_trumps_for_the_turned_card() -> None:
    """KRYT-6.1: the turned card is a higher trump than the six, so the bot swaps first."""
    state = position(["6D,7H,8S", "6C,7C,8C"], turn="lead")
    assert state.view(0)["trump_card"] != "6D"
    assert choice(state) == "swap"


def test_two_players_cover_with_the_ace_the_last_card_cannot_beat() -> None:
    """KRYT-EX-3/EX-4, KRYT-7.3: A (JH 8C AC) beats 9H with JH. Covering with 8C lets B's
    last card KC beat it and leaves A the fool; covering with AC makes B take it."""
    state = position(["JH,8C,AC", "KC"], pile="9H", stock=False)
    assert choice(state) == "beat JH"
    state.apply("beat JH")
    assert choice(state) == "cover AC"


def test_free_mode_leads_a_card_the_next_player_cannot_beat() -> None:
    """KRYT-4.3, K-6: seat 0 went out beating with its last card QH. Seat 1, in FREE mode,
    leads the 7S that seat 2 (known to hold 9C, 10C, 6S) cannot beat, not the 8C it can."""
    state = position(
        ["", "7S,KS,8C", "9C,10C,6S"],
        known=["-", "-", "9C,10C,6S"],
        pile="QH",
        turn="free",
        to_move=1,
        stock=False,
    )
    assert state.view(1)["phase"] == "free"
    assert choice(state) == "lead 7S"


def test_goes_out_by_beating_with_its_last_card() -> None:
    """KRYT-4.3, KRYT-7.1: with one card that beats the top, going out beats taking."""
    state = position(["QH", "7C,8C", "9D,10S"], pile="JH", stock=False)
    assert choice(state) == "beat QH"


# Strength --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "games", "most"), [(2, 300, 0.10), (3, 200, 0.08), (4, 200, 0.06)]
)
def test_heuristic_is_rarely_the_fool_against_random_bots(
    players: int, games: int, most: float
) -> None:
    """KRYT-7.2: one heuristic among random bots, its seat turning with the seed, is the
    fool far less often than its 1/players share.

    Measured on these seeds: 2 players 0.023 (7 of 300), 3 players 0 of 200, 4 players 0
    of 200 (in the permanent mode, 1 of 300, 0 and 0). The thresholds sit far below
    chance (1/2, 1/3, 1/4) and well above the measurements.
    """
    fools = 0
    for seed in range(games):
        seat = seed % players
        bots: list[Bot] = [RandomBot() for _ in range(players)]
        bots[seat] = make_bot("heuristic", GAME)
        state = play_game(seed, bots)
        assert state.result is not None
        fools += state.result.places[-1] == (seat,)
    assert fools / games <= most, f"heuristic was the fool {fools} times in {games}"


@pytest.mark.parametrize("trump_mode", ["turned", "permanent"])
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_heuristics_against_each_other_finish_their_hands(players: int, trump_mode: str) -> None:
    """KRYT-7.2, KRYT-7.7, K-14: a table of heuristics plays each hand to a result. Without
    the bot's endgame variety, two of them could pass the same cards round for ever: seed
    0 with 3 players did, before it was added."""
    for seed in range(2):
        bots: list[Bot] = [make_bot("heuristic", GAME) for _ in range(players)]
        state = play_game(seed, bots, trump_mode)
        assert state.result is not None, f"seed {seed} ran past {TURN_CAP} turns"
