"""The conformance suite over Kryt'-navalivat' (KRYT-11; SPEC §0.4 and §5), and the proof
that the suite and the KRYT-11 invariants catch broken games.

Design of the sweep. Every player count of K-2 (2-6) in both trump modes (KRYT-2.4,
KRYT-8) is played for ``GAMES`` = 300 random games, with the turn cap of KRYT-7.7 / K-14
(``CAP`` actions; a game that reaches it is listed by the report and fails the sweep). A
random game runs to about a thousand actions, so the sweep mixes the suite's two kinds of
game (``cardtable.testing``): every ``FULL_EVERY``-th game gets every check, at low deep
and snapshot rates; the others get the fast checks. Every game, of either kind, has the
KRYT-11 invariants checked after every action, its actions applied through the checked
``apply``, and its result checked.

What the games reach (swaps, the free card, every kind of pick-up, a loser in every seat,
…) is counted while each sweep plays them, through the suite's ``watch``, and asserted
by that sweep. Draws are rare (4 in the 3,000 games), so a test of their own replays the
sweep's games that end in one.

The rest of the file checks the invariants on their own, against corrupted states, and
breaks the engine on purpose, one rule at a time, with subclasses defined here: the suite
must refuse each broken game with an ``AssertionError`` naming the rule that broke.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any, ClassVar

import pytest

import cardtable
from cardtable.cards import card_text
from cardtable.core import Game, State, View
from cardtable.rules.kryt_navalivat.beating import NO_SUIT, PERMANENT_TRUMP, beaters
from cardtable.rules.kryt_navalivat.game import KrytNavalivat
from cardtable.rules.kryt_navalivat.invariants import (
    beats,
    check_state,
    check_transition,
    legal_ids,
    taken,
)
from cardtable.rules.kryt_navalivat.state import (
    BEAT,
    COVERING,
    FREE,
    NUMBER,
    OVER,
    RESPONDING,
    SWAP,
    TAKE,
    KrytNavalivatState,
)
from cardtable.rules.tricks import BIT, bits
from cardtable.testing import (
    CappedGameError,
    check_fast_game,
    check_random_game,
    run_conformance,
)

PLAYER_COUNTS = range(2, 7)
MODES = ("turned", "permanent")
COMBINATIONS = [(players, mode) for players in PLAYER_COUNTS for mode in MODES]
GAMES = 300
FULL_EVERY = 50  # 6 games of every 300 get every check
DEEP_RATE = 0.002
SNAPSHOT_RATE = 0.02
CAP = 10_000  # KRYT-7.7's example cap
SIX, ACE = 4, 12
SPADES = 3
AS = 13 * SPADES + ACE


def sweep_seed(players: int, mode: str) -> int:
    return 1000 * players + (0 if mode == "turned" else 500)


def game_of(players: int, mode: str) -> KrytNavalivat:
    game = cardtable.make("kryt-navalivat", engine="python", players=players, trump_mode=mode)
    assert isinstance(game, KrytNavalivat)
    return game


# The sweep ------------------------------------------------------------------------------------


def observe(seen: Counter[str], losers: set[int]) -> Callable[[State, int, State], None]:
    """A ``watch`` counting what the sweep's games reach into ``seen`` and ``losers``."""

    def watch(before: State, number: int, after: State) -> None:
        assert isinstance(before, KrytNavalivatState) and isinstance(after, KrytNavalivatState)
        pile = before.pile
        if number == SWAP:
            seen["swap"] += 1
        elif number == TAKE:
            k = len(pile) - len(after.pile)
            if k == 1 and len(pile) > 1:
                seen["pick up 1 of a bigger pile"] += 1
                if pile[-1] == AS and before.anti == SPADES:
                    seen["AS picked up alone (K-11)"] += 1
            elif k == 3 and len(pile) > 3:
                seen["pick up 3 of a bigger pile"] += 1
            elif k == len(pile) > 3:
                seen["pick up a whole pile of 4+"] += 1
        elif BEAT <= number < BEAT + 36 and pile[-1] // 13 == SPADES == before.anti:
            seen["anti-trump beaten by a higher spade"] += 1
        if before.mode == FREE:
            seen["free mode"] += 1
            if number < BEAT:
                seen["free lead"] += 1
        if before.faceup >= 0 > after.faceup:
            seen["turned card drawn"] += 1
            if before.faceup % 13 == SIX and before.history.count(SWAP):
                seen["six of trumps drawn last after a swap"] += 1
        if after.mode == OVER:
            if after.loser is None:
                seen["draw"] += 1
            else:
                losers.add(after.loser)
                seen[f"loser after a {'beat' if BEAT <= number < 72 else 'lead or cover'}"] += 1

    return watch


def sweep(players: int, mode: str) -> None:
    seen: Counter[str] = Counter()
    losers: set[int] = set()
    report = run_conformance(
        game_of(players, mode),
        games=GAMES,
        seed=sweep_seed(players, mode),
        max_actions=CAP,
        deep_rate=DEEP_RATE,
        snapshot_rate=SNAPSHOT_RATE,
        full_every=FULL_EVERY,
        allow_capped=True,
        watch=observe(seen, losers),
    )
    assert report.capped == (), str(report)  # KRYT-7.7: the report names capped seeds
    assert report.games == GAMES and report.full_games == GAMES // FULL_EVERY
    assert 0 < report.longest < CAP
    assert report.deep_steps >= 2 * report.full_games  # first and last of each full game
    assert all(report.wins), report  # KRYT-2.1: the dealer is drawn from the seed
    assert losers == set(range(players)), (players, mode, losers)  # KRYT-7.2
    wanted = {
        "pick up 1 of a bigger pile",
        "pick up 3 of a bigger pile",
        "pick up a whole pile of 4+",
        "loser after a beat",
        "loser after a lead or cover",
    }
    if players >= 3:
        wanted |= {"free mode", "free lead"}  # KRYT-4.3 needs two others holding cards
    if mode == "turned":
        wanted |= {"swap", "turned card drawn", "six of trumps drawn last after a swap"}
        assert seen["turned card drawn"] == GAMES  # every hand draws the whole stock
    else:
        wanted |= {"anti-trump beaten by a higher spade", "AS picked up alone (K-11)"}
        assert not seen["swap"] and not seen["turned card drawn"]  # KRYT-8.1
    missing = sorted(wanted - set(seen))
    assert not missing, f"{players}p {mode} never reaches {missing}"


@pytest.mark.parametrize(
    ("players", "mode"), COMBINATIONS, ids=[f"{p}p-{m}" for p, m in COMBINATIONS]
)
def test_kryt_navalivat_11_conformance_sweep(players: int, mode: str) -> None:
    """KRYT-11 items 1-8 after every action, SPEC §0.4 (2)-(5), and termination under the
    KRYT-7.7 cap, over 300 random games of each player count (K-2) and trump mode; the
    games reach swaps of the six (KRYT-6), the free card (KRYT-4.3, K-6), a loser in every
    seat (KRYT-7.2), pick-ups of one card, of three and of a whole pile (KRYT-5, KRYT-8.3),
    the turned card drawn last (KRYT-2.5), and in the permanent mode spades beaten only by
    spades and the ace of spades picked up alone (KRYT-8.2, KRYT-8.3, K-11)."""
    sweep(players, mode)


# Seeds of the sweep whose games end in a draw (KRYT-7.3): (players, seed), turned trumps.
DRAWN_SWEEP_GAMES = [(4, 4274), (5, 5037), (5, 5063), (6, 6001)]


@pytest.mark.parametrize(("players", "seed"), DRAWN_SWEEP_GAMES)
def test_kryt_navalivat_7_3_the_sweep_reaches_draws(players: int, seed: int) -> None:
    """KRYT-7.3, K-7: these sweep games end in a draw, which the invariants accept (the
    last player out put a card to beat, and the one left holds a single card that beats
    it): nobody is the fool, and every seat shares the one place."""
    seen: Counter[str] = Counter()
    report = check_fast_game(
        game_of(players, "turned"), seed, max_actions=CAP, watch=observe(seen, set())
    )
    assert seen["draw"] == 1
    assert report.result.winners == ()
    assert report.result.places == (tuple(range(players)),)


# The cap --------------------------------------------------------------------------------------


def bare_length(game: Game, seed: int) -> int:
    """The length of the suite's game for ``seed``, played again without checks."""
    play = random.Random(seed)
    state = game.new_state(seed=seed)
    while not state.is_over:
        state.apply_id(play.choice(state.legal_action_ids()))
    return len(state.record().actions)


def test_kryt_navalivat_7_7_the_cap_reports_every_game_that_reaches_it() -> None:
    """KRYT-7.7 / K-14: with a tiny cap, every game longer than the cap is stopped there
    and listed (its seed printed in the report), the others finish; without
    ``allow_capped`` the run fails naming the seeds; a single game fails at the cap."""
    game = game_of(3, "turned")
    cap = 900
    lengths = {seed: bare_length(game, seed) for seed in range(20, 26)}
    over = tuple(seed for seed, length in lengths.items() if length > cap)
    assert 0 < len(over) < len(lengths)  # the sample has games on both sides of the cap
    report = run_conformance(
        game, games=6, seed=20, max_actions=cap, full_every=3, allow_capped=True
    )
    assert report.capped == over
    assert f"seeds {', '.join(map(str, over))}" in str(report)
    assert report.longest == cap
    assert sum(report.wins) == 2 * (len(lengths) - len(over))  # two winners a finished game
    with pytest.raises(AssertionError, match=f"reached the cap of {cap} actions") as raised:
        run_conformance(game, games=6, seed=20, max_actions=cap, full_every=3)
    assert all(str(seed) in str(raised.value) for seed in over)
    with pytest.raises(CappedGameError, match=rf"seed {over[0]}: .* within {cap} actions"):
        check_fast_game(game, over[0], max_actions=cap)
    with pytest.raises(CappedGameError, match="at position 'kryt/1 "):
        check_random_game(game, over[0], max_actions=cap, deep_rate=0.0)


def test_fast_and_full_checks_play_the_same_game() -> None:
    """SPEC §5: a seed names one game whichever checks it gets, so the sweep's fast and
    full games are games of the same random play."""
    game = game_of(4, "permanent")
    for seed in (3, 4):
        fast = check_fast_game(game, seed)
        full = check_random_game(game, seed, deep_rate=0.0, snapshot_rate=0.0)
        assert fast.actions == full.actions == bare_length(game, seed)
        assert fast.result == full.result
        assert not fast.full and full.full


# The KRYT-11 invariants on their own -----------------------------------------------------------

Transition = tuple[KrytNavalivatState, int, KrytNavalivatState]


def transitions(players: int, mode: str, seeds: range = range(6)) -> Iterator[Transition]:
    game = game_of(players, mode)
    for seed in seeds:
        play = random.Random(seed)
        state = game.new_state(seed=seed)
        while not state.is_over:
            before = state.copy()
            number = play.choice(state.legal_action_ids())
            state.apply_id(number)
            yield before, number, state.copy()


def test_kryt_navalivat_beat_relation_and_pick_up_counts() -> None:
    """KRYT-3.1, KRYT-8.2, KRYT-5, KRYT-8.3: the invariants' own beat relation and
    pick-up counts, on cards named in the rules (the engine's are checked elsewhere)."""
    c = {name: i for i in range(52) if (name := card_text(i))}
    hearts, diamonds = 2, 1
    assert beats(c["7H"], c["6H"], hearts) and not beats(c["6H"], c["7H"], hearts)
    assert beats(c["6H"], c["AC"], hearts)  # any trump beats a plain card
    assert not beats(c["AC"], c["6H"], hearts)  # a plain card never beats a trump
    assert not beats(c["AS"], c["6C"], hearts)  # nor another plain suit
    assert not any(beats(x, c["AH"], hearts) for x in range(52))  # KRYT-3.2
    # KRYT-8.2: diamonds trumps, spades anti-trumps.
    assert not beats(c["6D"], c["7S"], diamonds, SPADES) and beats(c["8S"], c["7S"], diamonds, 3)
    assert beats(c["6D"], c["AH"], diamonds, SPADES) and not beats(c["AS"], c["6H"], diamonds, 3)
    assert not any(beats(x, c["AS"], diamonds, SPADES) for x in range(52))
    assert taken(5, c["KC"], hearts) == 1 and taken(5, c["KH"], hearts) == 3
    assert taken(2, c["KH"], hearts) == 2 and taken(7, c["AH"], hearts) == 7
    assert taken(7, c["AS"], diamonds) == 1 and taken(7, c["AD"], diamonds) == 7  # K-11


def test_kryt_navalivat_11_invariants_accept_the_engine() -> None:
    """KRYT-11: the invariants and the whole-state check hold across real play of every
    player count and both modes, and the rules' legal actions are the engine's."""
    count = 0
    for players, mode in COMBINATIONS:
        for before, number, after in transitions(players, mode, range(2)):
            check_transition(before, number, after)
            count += 1
            if count % 7 == 0:
                check_state(after)
                assert legal_ids(after) == after.legal_action_ids()
    assert count > 10_000


def test_kryt_navalivat_11_check_state_accepts_rebuilt_and_redealt_states() -> None:
    """KRYT-11 holds for states rebuilt from their positions (SPEC §0.4 (1)) and for
    re-deals (SPEC §0.4 (4)), which have no deck to check the deal against."""
    game = game_of(4, "turned")
    rng = random.Random(1)
    for before, _, _ in list(transitions(4, "turned", range(2)))[::53]:
        rebuilt = game.state_from_position(before.position())
        assert isinstance(rebuilt, KrytNavalivatState)
        check_state(rebuilt)
        check_state(before.resample_hidden(before.to_move, rng))


def find(
    players: int, mode: str, wanted: Callable[[KrytNavalivatState, int, KrytNavalivatState], bool]
) -> Transition:
    for before, number, after in transitions(players, mode, range(40)):
        if wanted(before, number, after):
            return before, number, after
    raise AssertionError("no such transition in the sample games")  # pragma: no cover


def lead_while_stock(b: KrytNavalivatState, n: int, a: KrytNavalivatState) -> bool:
    return n < BEAT and len(a.stock) > 2 and b.mode != FREE


def drew(b: KrytNavalivatState, n: int, a: KrytNavalivatState) -> bool:
    return bool(b.history) and len(a.stock) < len(b.stock) and len(a.stock) > 3


def take_of_3(b: KrytNavalivatState, n: int, a: KrytNavalivatState) -> bool:
    return n == TAKE and len(b.pile) - len(a.pile) == 3 and len(a.pile) > 0


def bad_beat_possible(b: KrytNavalivatState, n: int, a: KrytNavalivatState) -> bool:
    if not BEAT <= n < BEAT + 36 or b.to_move is None:
        return False
    return any(not beats(c, b.pile[-1], b.trump, b.anti) for c in bits(b.hands[b.to_move]))


def someone_out(b: KrytNavalivatState, n: int, a: KrytNavalivatState) -> bool:
    p = b.to_move
    if p is None or n >= BEAT or not a.hands[p]:
        return False
    return any(not a.hands[s] for s in range(a.players) if s != p)


def draw_end(b: KrytNavalivatState, n: int, a: KrytNavalivatState) -> bool:
    return a.mode == OVER and a.loser is None


def swap(b: KrytNavalivatState, n: int, a: KrytNavalivatState) -> bool:
    return n == SWAP


def first(b: KrytNavalivatState, n: int, a: KrytNavalivatState) -> bool:
    return not b.history


def corrupt_duplicate(b: KrytNavalivatState, n: int, a: KrytNavalivatState) -> None:
    other = next(s for s in range(a.players) if s != b.to_move)
    a.hands[other] |= BIT[a.stock[0]]


def corrupt_stock_order(b: KrytNavalivatState, n: int, a: KrytNavalivatState) -> None:
    p = b.to_move
    assert p is not None
    got = a.hands[p] & ~b.hands[p]
    card = got.bit_length() - 1
    a.hands[p] ^= BIT[card] | BIT[a.stock[0]]
    a.stock[0] = card


def corrupt_short_hand(b: KrytNavalivatState, n: int, a: KrytNavalivatState) -> None:
    p = b.to_move
    assert p is not None
    card = b.hands[p].bit_length() - 1
    b.hands[p] ^= BIT[card]
    b.stock.insert(0, card)


def corrupt_take_more(b: KrytNavalivatState, n: int, a: KrytNavalivatState) -> None:
    p = b.to_move
    assert p is not None
    a.hands[p] |= BIT[a.pile.pop()]


def corrupt_out_gets_card(b: KrytNavalivatState, n: int, a: KrytNavalivatState) -> None:
    p = b.to_move
    assert p is not None
    out = next(s for s in range(a.players) if s != p and not a.hands[s])
    card = a.hands[p].bit_length() - 1
    a.hands[p] ^= BIT[card]
    a.hands[out] |= BIT[card]


def corrupt_out_acts(b: KrytNavalivatState, n: int, a: KrytNavalivatState) -> None:
    b.to_move = next(s for s in range(b.players) if not b.hands[s])


def corrupt_trump(b: KrytNavalivatState, n: int, a: KrytNavalivatState) -> None:
    a.trump = (a.trump + 1) % 4


def corrupt_early_end(b: KrytNavalivatState, n: int, a: KrytNavalivatState) -> None:
    a.mode, a.to_move, a.loser = OVER, None, 0


def corrupt_known(b: KrytNavalivatState, n: int, a: KrytNavalivatState) -> None:
    p = b.to_move
    assert p is not None
    a.known[p] = a.hands[p]


def corrupt_next_player(b: KrytNavalivatState, n: int, a: KrytNavalivatState) -> None:
    assert a.to_move is not None
    a.to_move = next(s for s in range(a.players) if s != a.to_move and a.hands[s])


def corrupt_next_mode(b: KrytNavalivatState, n: int, a: KrytNavalivatState) -> None:
    a.mode = COVERING


def corrupt_draw_result(b: KrytNavalivatState, n: int, a: KrytNavalivatState) -> None:
    a.loser = next(s for s in range(a.players) if a.hands[s])
    a.drawn = False


def corrupt_swap_ends_turn(b: KrytNavalivatState, n: int, a: KrytNavalivatState) -> None:
    assert a.to_move is not None
    a.to_move = (a.to_move + 1) % a.players


def corrupt_deal(b: KrytNavalivatState, n: int, a: KrytNavalivatState) -> None:
    low0, low1 = b.hands[0] & -b.hands[0], b.hands[1] & -b.hands[1]
    b.hands[0] ^= low0 | low1
    b.hands[1] ^= low0 | low1


Corruption = tuple[
    str, int, str, Callable[[KrytNavalivatState, int, KrytNavalivatState], bool], Any
]
CORRUPTIONS: list[Corruption] = [
    ("KRYT-11.1", 3, "turned", lead_while_stock, corrupt_duplicate),
    ("KRYT-11.2", 3, "turned", drew, corrupt_stock_order),
    ("KRYT-11.3", 3, "turned", drew, corrupt_short_hand),
    ("KRYT-11.4", 3, "turned", take_of_3, corrupt_take_more),
    ("KRYT-11.6", 4, "permanent", someone_out, corrupt_out_gets_card),
    ("KRYT-11.6", 4, "permanent", someone_out, corrupt_out_acts),
    ("KRYT-11.7", 2, "permanent", lead_while_stock, corrupt_trump),
    ("KRYT-11.8", 2, "turned", lead_while_stock, corrupt_early_end),
    ("KRYT-9", 2, "turned", drew, corrupt_known),
    ("KRYT-4.5", 3, "turned", lead_while_stock, corrupt_next_player),
    ("KRYT-4.5", 3, "permanent", take_of_3, corrupt_next_mode),
    ("KRYT-7.3", 4, "turned", draw_end, corrupt_draw_result),
    ("KRYT-6.3", 2, "turned", swap, corrupt_swap_ends_turn),
    ("KRYT-2.3", 2, "turned", first, corrupt_deal),
]


@pytest.mark.parametrize(
    ("rule", "players", "mode", "where", "corrupt"),
    CORRUPTIONS,
    ids=[f"{c[0]}-{c[4].__name__}" for c in CORRUPTIONS],
)
def test_kryt_navalivat_11_invariants_name_the_broken_rule(
    rule: str,
    players: int,
    mode: str,
    where: Callable[[KrytNavalivatState, int, KrytNavalivatState], bool],
    corrupt: Callable[[KrytNavalivatState, int, KrytNavalivatState], None],
) -> None:
    """KRYT-11: a transition corrupted against one rule fails the invariants, and the
    message starts with that rule's ID."""
    if rule == "KRYT-7.3":  # draws are rare (module docstring): a seed known to end in one
        steps = [t for t in transitions(4, "turned", range(4274, 4275)) if where(*t)]
        before, number, after = steps[0]
    else:
        before, number, after = find(players, mode, where)
    check_transition(before, number, after)  # sound before the corruption
    corrupt(before, number, after)
    with pytest.raises(AssertionError, match=f"^{rule}:"):
        check_transition(before, number, after)


def test_kryt_navalivat_11_5_a_beat_that_does_not_beat_is_named() -> None:
    """KRYT-11.5: a beat with a card that does not beat the top card (KRYT-3)."""
    before, _, after = find(3, "turned", bad_beat_possible)
    p = before.to_move
    assert p is not None
    card = next(c for c in bits(before.hands[p]) if not beats(c, before.pile[-1], before.trump))
    with pytest.raises(AssertionError, match=r"^KRYT-11\.5:"):
        check_transition(before, BEAT + NUMBER[card], after)


def test_kryt_navalivat_9_known_cards_must_be_held() -> None:
    """KRYT-9 / K-10: the cards a seat is known to hold are in its hand."""
    _, _, after = find(2, "turned", drew)
    after.known[0] |= after.hands[1] & -after.hands[1]
    with pytest.raises(AssertionError, match=r"^KRYT-9:"):
        check_state(after)


# Broken games the suite must refuse ------------------------------------------------------------


class BrokenState(KrytNavalivatState):
    """A KrytNavalivatState with one rule broken; ``prepare`` adjusts a new state."""

    __slots__ = ()

    def prepare(self) -> None:
        pass


class BrokenGame(KrytNavalivat):
    """Kryt'-navalivat' whose states are of ``state_class``, a broken subclass."""

    state_class: ClassVar[type[BrokenState]] = BrokenState

    def new_state(self, seed: int | None = None, decks: Any = None) -> KrytNavalivatState:
        state = super().new_state(seed=seed, decks=decks)
        state.__class__ = self.state_class
        assert isinstance(state, BrokenState)
        state.prepare()
        return state


def broken(state_class: type[BrokenState], players: int, mode: str = "turned") -> KrytNavalivat:
    name = f"Broken{state_class.__name__}"
    game_class = type(name, (BrokenGame,), {"state_class": state_class})
    game: KrytNavalivat = game_class(players=players, trump_mode=mode)
    return game


def refuse(game: Game, match: str, seed: int = 0, games: int = 30, *, full: bool = False) -> None:
    """The suite must fail, with ``match`` in its message, within ``games`` games from
    ``seed``: under the fast checks that most of the sweep's games get (the KRYT-11
    invariants are the same in both kinds), or with ``full`` under every check."""
    with pytest.raises(AssertionError, match=match):
        for offset in range(games):
            if full:
                check_random_game(
                    game, seed + offset, deep_rate=DEEP_RATE, snapshot_rate=SNAPSHOT_RATE
                )
            else:
                check_fast_game(game, seed + offset, max_actions=CAP)


class AnyHigherRankBeats(BrokenState):
    """Lets any higher-ranked card beat, whatever its suit."""

    __slots__ = ()

    def legal_action_ids(self) -> list[int]:
        ids = super().legal_action_ids()
        p = self.to_move
        if p is None or self.mode not in (RESPONDING, FREE):
            return ids
        top = self.pile[-1]
        extra = {BEAT + NUMBER[c] for c in bits(self.hands[p]) if c % 13 > top % 13}
        return sorted(set(ids) | extra)

    def is_legal(self, number: int) -> bool:
        return number in self.legal_action_ids()


class DiamondsBeatSpades(BrokenState):
    """Permanent trumps with no anti-trump: diamonds beat spades (against KRYT-8.2)."""

    __slots__ = ()

    def prepare(self) -> None:
        self.beaters = beaters(PERMANENT_TRUMP, NO_SUIT)


class DrawsBeforeCover(BrokenState):
    """Draws a card between the beat and the cover (against K-1)."""

    __slots__ = ()

    def apply_id(self, number: int) -> None:
        p = self.to_move
        super().apply_id(number)
        if self.mode == COVERING and self.stock and p is not None:
            self.hands[p] |= BIT[self.stock.pop()]


class TurnedCardFirst(BrokenState):
    """Draws the turned card before the face-down stock (against KRYT-2.5)."""

    __slots__ = ()

    def _end_turn(self, p: int, led: bool, *, beat_last: bool = False) -> None:
        if self.faceup >= 0 and self.stock and self.hands[p].bit_count() < 3:
            self.stock[-1], self.faceup = self.faceup, self.stock[-1]
        super()._end_turn(p, led, beat_last=beat_last)


class TakesOneUnderTrumps(BrokenState):
    """Picks up one card whatever the top card (against KRYT-5)."""

    __slots__ = ()

    def apply_id(self, number: int) -> None:
        p = self.to_move
        if number != TAKE or p is None:
            super().apply_id(number)
            return
        self.history.append(number)
        card = self.pile.pop()
        self.hands[p] |= BIT[card]
        self.known[p] |= BIT[card]
        self._end_turn(p, False)


class AceOfSpadesTakesAll(BrokenState):
    """Permanent trumps, but a pick-up under the ace of spades takes the whole pile, as
    if spades were trumps (against KRYT-8.3, K-11)."""

    __slots__ = ()

    def apply_id(self, number: int) -> None:
        if number == TAKE and self.pile[-1] == AS:
            trump, self.trump = self.trump, SPADES
            super().apply_id(number)
            self.trump = trump
            return
        super().apply_id(number)


class SwapEndsTurn(BrokenState):
    """Passes the turn after a swap of the six (against KRYT-6.3, K-9)."""

    __slots__ = ()

    def apply_id(self, number: int) -> None:
        super().apply_id(number)
        if number == SWAP:
            assert self.to_move is not None
            self._end_turn(self.to_move, False)


class ForgetsADraw(BrokenState):
    """Puts back on the stock one of the cards a player draws (against KRYT-4.4)."""

    __slots__ = ()

    def _end_turn(self, p: int, led: bool, *, beat_last: bool = False) -> None:
        held = self.hands[p]
        super()._end_turn(p, led, beat_last=beat_last)
        drawn = self.hands[p] & ~held
        if drawn and self.faceup >= 0:
            card = drawn.bit_length() - 1
            self.hands[p] ^= BIT[card]
            self.stock.append(card)


class SkipsNobody(BrokenState):
    """Passes the turn to the next seat even when it holds no cards (against KRYT-4.5)."""

    __slots__ = ()

    def _end_turn(self, p: int, led: bool, *, beat_last: bool = False) -> None:
        super()._end_turn(p, led, beat_last=beat_last)
        if self.to_move is not None and self.mode != COVERING:
            self.to_move = (p + 1) % self.players


class NeverFree(BrokenState):
    """Makes the next player beat after a beat with a last card (against KRYT-4.3)."""

    __slots__ = ()

    def _end_turn(self, p: int, led: bool, *, beat_last: bool = False) -> None:
        super()._end_turn(p, led, beat_last=beat_last)
        if self.mode == FREE:
            self.mode = RESPONDING


class EndsWithTwoLeft(BrokenState):
    """Ends the hand when a player goes out and two others still hold cards."""

    __slots__ = ()

    def _end_turn(self, p: int, led: bool, *, beat_last: bool = False) -> None:
        others = [s for s in range(self.players) if s != p and self.hands[s]]
        if not self.hands[p] and not self.stock and self.faceup < 0 and len(others) == 2:
            self._finish(others[0], put_to_beat=False)
            return
        super()._end_turn(p, led, beat_last=beat_last)


class NoDraws(BrokenState):
    """Makes the last player the fool even in the draw pattern (against KRYT-7.3, K-7)."""

    __slots__ = ()

    def _finish(self, last: int, *, put_to_beat: bool) -> None:
        super()._finish(last, put_to_beat=False)


class KnowsDrawnCards(BrokenState):
    """Marks the cards a player draws from the stock as known to all (against KRYT-9)."""

    __slots__ = ()

    def _end_turn(self, p: int, led: bool, *, beat_last: bool = False) -> None:
        held = self.hands[p]
        super()._end_turn(p, led, beat_last=beat_last)
        self.known[p] |= self.hands[p] & ~held


class ShowsTheStockTop(BrokenState):
    """Shows every seat the top card of the face-down stock (against KRYT-9)."""

    __slots__ = ()

    def view(self, seat: int | None) -> View:
        view = super().view(seat)
        view["next_card"] = card_text(self.stock[-1]) if self.stock else None
        return view


BROKEN: list[tuple[type[BrokenState], str, int, str, int]] = [
    (AnyHigherRankBeats, "KRYT-11.5", 2, "turned", 0),
    (DiamondsBeatSpades, "KRYT-11.5", 3, "permanent", 0),
    (DrawsBeforeCover, "KRYT-4.4", 2, "turned", 0),
    (TurnedCardFirst, "KRYT-11.2", 3, "turned", 0),
    (TakesOneUnderTrumps, "KRYT-11.4", 2, "turned", 0),
    (AceOfSpadesTakesAll, "KRYT-11.4", 2, "permanent", 0),
    (SwapEndsTurn, "KRYT-6.3", 2, "turned", 0),
    (ForgetsADraw, "KRYT-11.3", 4, "turned", 0),
    (SkipsNobody, "KRYT-11.6", 4, "permanent", 0),
    (NeverFree, "KRYT-4.5", 4, "turned", 0),
    (EndsWithTwoLeft, "KRYT-11.8", 3, "permanent", 0),
    (NoDraws, "KRYT-7.3", 4, "turned", 4274),
    (KnowsDrawnCards, "KRYT-9", 2, "turned", 0),
    (ShowsTheStockTop, "cannot see changed its view", 2, "turned", -1),
]


@pytest.mark.parametrize(
    ("state_class", "match", "players", "mode", "seed"),
    BROKEN,
    ids=[f"{b[0].__name__}-{b[2]}p-{b[3]}" for b in BROKEN],
)
def test_conformance_suite_refuses_a_broken_kryt_navalivat(
    state_class: type[BrokenState], match: str, players: int, mode: str, seed: int
) -> None:
    """KRYT-11 (and SPEC §0.4 (4)): each broken rule is caught by the sweep's harness and
    the message names it: beats that do not beat (KRYT-3, KRYT-8.2, KRYT-11.5), a draw
    between beat and cover (K-1), the turned card drawn first (KRYT-11.2), wrong pick-up
    counts (KRYT-5, KRYT-8.3, KRYT-11.4), a swap that ends the turn (K-9), a draw skipped
    (KRYT-11.3), a seat with no cards to move (KRYT-11.6), no free card (KRYT-4.3), an
    early end (KRYT-11.8), no draws (KRYT-7.3), drawn cards made public, and a view that
    shows the stock (KRYT-9)."""
    full = seed < 0  # a view is checked by the full checks only
    refuse(broken(state_class, players, mode), rf"\b{match}", seed=max(seed, 0), full=full)
