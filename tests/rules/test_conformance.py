"""The conformance suite over Knockout Whist (KOW-11; SPEC §0.4 and §5), and the proof
that the suite and the KOW-11 invariants catch broken games.

The sweep plays 150 random games for each player count 2-7 (KOW-1.1). The rest of the
file breaks Knockout Whist on purpose, one promise at a time, with subclasses defined
here, and checks that the suite refuses each broken game with an ``AssertionError``
naming what broke.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from typing import Any, ClassVar, Self

import pytest

import cardtable
from cardtable.cards import Card
from cardtable.core import Action, Game, Result
from cardtable.errors import IllegalActionError
from cardtable.rules.knockout_whist import KnockoutWhist, KnockoutWhistState
from cardtable.rules.knockout_whist.invariants import check_state, check_transition
from cardtable.rules.knockout_whist.state import (
    ACTIVE,
    DOG,
    HANDS,
    KNOCK,
    KNOCKED,
    OUT,
    OVER,
    PLAY,
    STATUS_NAMES,
    TRUMP,
)
from cardtable.testing import (
    check_copy_independent,
    check_illegal_actions_rejected,
    check_legal_actions,
    check_random_game,
    check_redeal,
    check_replay,
    run_conformance,
)

PLAYER_COUNTS = range(2, 8)
GAMES = 150
DEEP_RATE = 0.01  # about one mid-game deep step a game, besides the first and last states


def sweep_seed(players: int) -> int:
    return 1000 * players


def kow_action_bound(players: int) -> int:
    """The most actions a game can take: 28 cards each over the seven hands (KOW-2.2), one
    trump choice in each of hands 2-7 (KOW-3.2), and at most 6 knocks for each of the
    n - 1 players who can be on the dog's life in its one hand (KOW-6.3, KOW-5.1)."""
    return 28 * players + (HANDS - 1) + 6 * (players - 1)


# The sweep ------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_kow_11_conformance_sweep(players: int) -> None:
    """KOW-11 items 1-10 and SPEC §0.4 (2)-(5) after every action of 150 random games, for
    each player count of KOW-1.1; every game ends within the bound KOW-2.2 gives."""
    game = cardtable.make("knockout-whist", engine="python", players=players)
    bound = kow_action_bound(players)
    report = run_conformance(
        game, games=GAMES, seed=sweep_seed(players), max_actions=bound, deep_rate=DEEP_RATE
    )
    assert report.games == GAMES
    assert 0 < report.longest <= bound
    assert report.deep_steps >= 2 * GAMES  # the first and last state of every game
    # KOW-1.3: the dealer is drawn from the seed, so over 150 games every seat wins some.
    assert all(report.wins), report


def test_kow_conformance_with_a_fixed_first_dealer() -> None:
    """KOW-1.3 / W-11: the suite also holds with the first dealer given as an option."""
    for players in (3, 6):
        game = cardtable.make(
            "knockout-whist", engine="python", players=players, dealer=players - 1
        )
        report = run_conformance(game, games=10, seed=7, max_actions=kow_action_bound(players))
        assert report.games == 10


def sweep_games(players: int) -> Iterator[list[tuple[KnockoutWhistState, int]]]:
    """The sweep's games again, replayed fast: the moves depend on the seed alone."""
    game = cardtable.make("knockout-whist", engine="python", players=players)
    for seed in range(sweep_seed(players), sweep_seed(players) + GAMES):
        play = random.Random(seed)
        state = game.new_state(seed=seed)
        assert isinstance(state, KnockoutWhistState)
        steps = []
        while not state.is_over:
            number = play.choice(state.legal_action_ids())
            steps.append((state.copy(), number))
            state.apply_id(number)
        steps.append((state, -1))
        yield steps


def test_kow_conformance_sweep_reaches_every_rule() -> None:
    """The sweep's random games reach the rules KOW-11 is about: the dog's life (KOW-6),
    knocks and forced plays on the last trick (KOW-6.3, W-3), a dog declining the lead
    (KOW-6.4), a dog winning a trick (KOW-6.5), cuts and re-cuts (KOW-5.3, W-2), a
    knocked-out dealer (KOW-5.4, W-5), early ends (KOW-5.2) and hand 7 (W-7)."""
    seen: set[str] = set()
    for players in PLAYER_COUNTS:
        for steps in sweep_games(players):
            for before, number in steps:
                if number < 0:  # the finished game
                    seen.add("hand 7" if before.hand_no == HANDS else "early end")
                    continue
                p = before.to_move
                assert p is not None
                if before.status[p] == DOG:
                    if number == KNOCK:
                        seen.add("knock")
                        if not before.trick:
                            seen.add("dog declines the lead")
                    elif len(before.done) == HANDS - before.hand_no:
                        seen.add("dog plays on the last trick")
                if before.cuts:
                    seen.add("cut")
                    if len(before.cuts) > 1:
                        seen.add("re-cut")
                if before.phase == TRUMP and before.status[before.dealer] == OUT:
                    seen.add("knocked-out dealer")
                if DOG in before.status:
                    seen.add("dog's life")
                if before.status.count(DOG) > 1:
                    seen.add("two dogs at once")
                if any(before.status[s] == DOG and before.tricks_won[s] for s in range(players)):
                    seen.add("dog won a trick")
    wanted = {
        "hand 7",
        "early end",
        "knock",
        "dog declines the lead",
        "dog plays on the last trick",
        "cut",
        "re-cut",
        "knocked-out dealer",
        "dog's life",
        "two dogs at once",
        "dog won a trick",
    }
    assert wanted <= seen, f"never reached: {sorted(wanted - seen)}"


# The KOW-11 invariants on their own ------------------------------------------------------------

Transition = tuple[KnockoutWhistState, int, KnockoutWhistState]


def transitions(players: int, seeds: Sequence[int] = range(60)) -> Iterator[Transition]:
    game = cardtable.make("knockout-whist", engine="python", players=players)
    for seed in seeds:
        play = random.Random(seed)
        state = game.new_state(seed=seed)
        assert isinstance(state, KnockoutWhistState)
        while not state.is_over:
            before = state.copy()
            number = play.choice(state.legal_action_ids())
            state.apply_id(number)
            yield before, number, state.copy()


def find(
    players: int, wanted: Callable[[KnockoutWhistState, int, KnockoutWhistState], bool]
) -> Transition:
    for before, number, after in transitions(players):
        if wanted(before, number, after):
            return before, number, after
    raise AssertionError("no such transition in the sample games")  # pragma: no cover


def hand_end(b: KnockoutWhistState, number: int, a: KnockoutWhistState) -> bool:
    return a.phase == TRUMP and a.hand_no == b.hand_no + 1


def trick_taken(b: KnockoutWhistState, number: int, a: KnockoutWhistState) -> bool:
    return a.phase == PLAY and len(a.done) == len(b.done) + 1


def mid_trick(b: KnockoutWhistState, number: int, a: KnockoutWhistState) -> bool:
    return a.phase == PLAY and len(a.trick) >= 1 and b.phase == PLAY


def test_kow_11_invariants_accept_the_engine() -> None:
    """KOW-11: the invariants hold across real play (the sweep checks many more)."""
    count = 0
    for before, number, after in transitions(5, range(5)):
        check_transition(before, number, after)
        count += 1
    assert count > 100


def corrupt_duplicate(b: KnockoutWhistState, number: int, a: KnockoutWhistState) -> None:
    assert a.to_move is not None
    a.hands[a.to_move] |= 1 << a.stock[0]


def corrupt_lost_card(b: KnockoutWhistState, number: int, a: KnockoutWhistState) -> None:
    a.stock.pop()


def corrupt_share(b: KnockoutWhistState, number: int, a: KnockoutWhistState) -> None:
    seat = next(s for s in range(a.players) if a.status[s] == ACTIVE)
    card = a.hands[seat].bit_length() - 1
    a.hands[seat] ^= 1 << card
    a.stock.append(card)


def corrupt_trick_winner(b: KnockoutWhistState, number: int, a: KnockoutWhistState) -> None:
    winner = a.tricks_won.index(max(a.tricks_won))
    a.tricks_won[winner] -= 1
    a.tricks_won[(winner + 1) % a.players] += 1


def corrupt_resurrect(b: KnockoutWhistState, number: int, a: KnockoutWhistState) -> None:
    a.status[b.status.index(OUT)] = ACTIVE


def corrupt_dealer(b: KnockoutWhistState, number: int, a: KnockoutWhistState) -> None:
    a.dealer = next(s for s in range(a.players) if s != a.dealer and a.status[s] != OUT)


def corrupt_chooser(b: KnockoutWhistState, number: int, a: KnockoutWhistState) -> None:
    other = next(s for s in range(a.players) if s != a.chooser and a.status[s] != OUT)
    a.chooser = a.to_move = other


def corrupt_cut_winner(b: KnockoutWhistState, number: int, a: KnockoutWhistState) -> None:
    a.chooser = a.to_move = next(s for s, _ in a.cuts[0] if s != a.chooser)


def corrupt_previous_hand(b: KnockoutWhistState, number: int, a: KnockoutWhistState) -> None:
    assert a.previous is not None
    a.previous = (a.previous[0], a.previous[1][:-1])


def corrupt_hand_1_trump(b: KnockoutWhistState, number: int, a: KnockoutWhistState) -> None:
    assert b.trump is not None
    b.trump = (b.trump + 1) % 4


def corrupt_turned_card(b: KnockoutWhistState, number: int, a: KnockoutWhistState) -> None:
    assert b.turned is not None
    same = next(c for c in b.stock if c // 13 == b.turned // 13)
    b.stock[b.stock.index(same)] = b.turned
    b.turned = same


def corrupt_hand_8(b: KnockoutWhistState, number: int, a: KnockoutWhistState) -> None:
    a.hand_no = HANDS + 1


def corrupt_mover(b: KnockoutWhistState, number: int, a: KnockoutWhistState) -> None:
    a.to_move = next(s for s in range(a.players) if s != a.to_move and a.hands[s])


def corrupt_deal_order(b: KnockoutWhistState, number: int, a: KnockoutWhistState) -> None:
    first, second = [s for s in range(a.players) if a.status[s] == ACTIVE][:2]
    low = a.hands[first] & -a.hands[first]
    other = a.hands[second] & -a.hands[second]
    a.hands[first] ^= low | other
    a.hands[second] ^= low | other


def corrupt_void(b: KnockoutWhistState, number: int, a: KnockoutWhistState) -> None:
    """Give back a card of the led suit to a seat that showed void in it."""
    seat, suit = showed_void(a)
    card = next(c for c in a.stock if c // 13 == suit)
    mine = a.hands[seat] & -a.hands[seat]
    a.hands[seat] ^= mine | 1 << card
    a.stock[a.stock.index(card)] = mine.bit_length() - 1


def showed_void(a: KnockoutWhistState) -> tuple[int, int]:
    """A seat that failed to follow suit in the trick just taken, and the suit led."""
    trick = a.done[-1]
    led = next(c for _, c in trick if c != KNOCKED) // 13
    for s, c in trick:
        if c != KNOCKED and c // 13 != led and a.hands[s]:
            return s, led
    raise LookupError


def has_void(b: KnockoutWhistState, number: int, a: KnockoutWhistState) -> bool:
    if not trick_taken(b, number, a):
        return False
    try:
        _, suit = showed_void(a)
    except LookupError:
        return False
    return any(c // 13 == suit for c in a.stock)


def unique_most(b: KnockoutWhistState, number: int, a: KnockoutWhistState) -> bool:
    return hand_end(b, number, a) and not a.cuts


def tied_most(b: KnockoutWhistState, number: int, a: KnockoutWhistState) -> bool:
    return hand_end(b, number, a) and bool(a.cuts)


def someone_out(b: KnockoutWhistState, number: int, a: KnockoutWhistState) -> bool:
    return OUT in b.status


def first_action(b: KnockoutWhistState, number: int, a: KnockoutWhistState) -> bool:
    return not b.history


def three_alive(b: KnockoutWhistState, number: int, a: KnockoutWhistState) -> bool:
    return hand_end(b, number, a) and sum(1 for s in a.status if s != OUT) >= 3


def two_active_at_start(b: KnockoutWhistState, number: int, a: KnockoutWhistState) -> bool:
    return hand_end(b, number, a) and a.status.count(ACTIVE) >= 2 and a.hand_no < HANDS


CORRUPTIONS = [
    ("KOW-11.1", mid_trick, corrupt_duplicate),
    ("KOW-11.1", mid_trick, corrupt_lost_card),
    ("KOW-11.2", two_active_at_start, corrupt_share),
    ("KOW-11.4", trick_taken, corrupt_trick_winner),
    ("KOW-11.4", has_void, corrupt_void),
    ("KOW-11.5", someone_out, corrupt_resurrect),
    ("KOW-5.4", three_alive, corrupt_dealer),
    ("KOW-11.7", unique_most, corrupt_chooser),
    ("KOW-9", unique_most, corrupt_previous_hand),
    ("W-2", tied_most, corrupt_cut_winner),
    ("KOW-11.7", first_action, corrupt_hand_1_trump),
    ("KOW-3.1", first_action, corrupt_turned_card),
    ("KOW-11.8", mid_trick, corrupt_hand_8),
    ("KOW-11.9", mid_trick, corrupt_mover),
    ("KOW-2.3", two_active_at_start, corrupt_deal_order),
]


@pytest.mark.parametrize(
    ("rule", "where", "corrupt"),
    CORRUPTIONS,
    ids=[f"{rule}-{corrupt.__name__}" for rule, _, corrupt in CORRUPTIONS],
)
def test_kow_11_invariants_name_the_broken_rule(
    rule: str,
    where: Callable[[KnockoutWhistState, int, KnockoutWhistState], bool],
    corrupt: Callable[[KnockoutWhistState, int, KnockoutWhistState], None],
) -> None:
    """KOW-11: a state corrupted against one rule fails the invariants, and the message
    starts with that rule's ID."""
    before, number, after = find(4, where)
    check_transition(before, number, after)  # sound before the corruption
    corrupt(before, number, after)
    with pytest.raises(AssertionError, match=f"^{rule}[:]"):
        check_transition(before, number, after)


def test_kow_11_6_a_dog_who_wins_hand_7_is_no_longer_a_dog() -> None:
    """KOW-11.6: a player on a dog's life at the start of a hand is ACTIVE or OUT at its
    end, hand 7 included (W-7 awards no new dog's life, but the winner of the last trick
    is not left on one)."""
    for players in (2, 3, 4):
        for before, _, after in transitions(players, range(300)):
            if before.hand_no != HANDS or after.phase != OVER or after.result is None:
                continue
            winner = after.result.winners[0]
            if before.status[winner] == DOG:
                assert after.status[winner] == ACTIVE, (
                    f"seat {winner} was a DOG in hand 7 and won the game, but its final "
                    f"status is {STATUS_NAMES[after.status[winner]]} (KOW-11.6)"
                )
                return
    raise AssertionError("no sample game has a DOG win hand 7")  # pragma: no cover


def test_kow_11_check_state_accepts_a_rebuilt_position() -> None:
    """KOW-11 holds for a state rebuilt from its position (SPEC §0.4 (1)), which has no
    deal history to lean on."""
    game = cardtable.make("knockout-whist", engine="python", players=5)
    for before, _, _ in transitions(5, range(3)):
        rebuilt = game.state_from_position(before.position())
        assert isinstance(rebuilt, KnockoutWhistState)
        check_state(rebuilt)


# Broken games the suite must refuse ------------------------------------------------------------


class BrokenGame(KnockoutWhist):
    """Knockout Whist whose states are of ``state_class``, a broken subclass."""

    state_class: ClassVar[type[KnockoutWhistState]] = KnockoutWhistState

    def new_state(self, seed: int | None = None, decks: Any = None) -> KnockoutWhistState:
        state = super().new_state(seed=seed, decks=decks)
        state.__class__ = self.state_class
        return state


def broken(state_class: type[KnockoutWhistState], players: int = 4) -> KnockoutWhist:
    game_class = type(f"Broken{state_class.__name__}", (BrokenGame,), {"state_class": state_class})
    game: KnockoutWhist = game_class(players=players)
    return game


def refuse(game: Game, match: str, seeds: int = 40, **options: Any) -> None:
    """The suite must raise AssertionError, with ``match`` in its message, within ``seeds``
    games."""
    with pytest.raises(AssertionError, match=match):
        for seed in range(seeds):
            check_random_game(game, seed, **options)


class UnsortedActions(KnockoutWhistState):
    __slots__ = ()

    def legal_action_ids(self) -> list[int]:
        return super().legal_action_ids()[::-1]


class SeatPeeksLeft(KnockoutWhistState):
    __slots__ = ()

    def view(self, seat: int | None) -> dict[str, Any]:
        view = super().view(seat)
        if seat is not None:
            view["left_hand"] = self.hands[(seat + 1) % self.players]
        return view


class SpectatorSeesStock(KnockoutWhistState):
    __slots__ = ()

    def view(self, seat: int | None) -> dict[str, Any]:
        view = super().view(seat)
        if seat is None:
            view["next_card"] = str(Card.from_index(self.stock[0])) if self.stock else None
        return view


class SharedHands(KnockoutWhistState):
    __slots__ = ()

    def copy(self) -> Self:
        other = super().copy()
        other.hands = self.hands
        return other


class TrumpBlind(KnockoutWhistState):
    """Takes each trick with the highest card of the suit led, ignoring trumps."""

    __slots__ = ()

    def _finish_trick(self) -> None:
        led = next(c for _, c in self.trick if c != KNOCKED) // 13
        trump = self.trump
        # Taking the trick as if the suit led were trumps makes real trumps count for nothing.
        self.trump = led
        super()._finish_trick()
        if self.trump == led:  # still this hand (a new hand has no trumps yet)
            self.trump = trump


class KnockOnLastTrick(KnockoutWhistState):
    __slots__ = ()

    def legal_action_ids(self) -> list[int]:
        ids = super().legal_action_ids()
        p = self.to_move
        if p is not None and self.phase == PLAY and self.status[p] == DOG and KNOCK not in ids:
            ids.append(KNOCK)
        return ids


class NoFollowSuit(KnockoutWhistState):
    __slots__ = ()

    def legal_action_ids(self) -> list[int]:
        p = self.to_move
        if p is None or self.phase != PLAY or self.status[p] != ACTIVE:
            return super().legal_action_ids()
        return [c for c in range(52) if self.hands[p] >> c & 1]


class DealerLeads(KnockoutWhistState):
    __slots__ = ()

    def _first_leader(self) -> int:
        return self.dealer if self.status[self.dealer] != OUT else super()._first_leader()


class DogsLifeEveryHand(KnockoutWhistState):
    __slots__ = ()

    def _finish_hand(self, last_winner: int) -> None:
        self.dog_used = False
        super()._finish_hand(last_winner)


class AcceptsAnything(KnockoutWhistState):
    __slots__ = ()

    def apply(self, action: Action | str | int, *, seat: int | None = None) -> Action:
        try:
            return super().apply(action, seat=seat)
        except IllegalActionError:
            if self.is_over or isinstance(action, int):
                raise
            parsed = self.game.parse_action(action) if isinstance(action, str) else action
            if parsed.verb != "play" or not isinstance(parsed.arg, Card):
                raise
            self.apply_id(parsed.arg.index)
            return parsed


class RefusalChangesSeed(KnockoutWhistState):
    __slots__ = ()

    def apply(self, action: Action | str | int, *, seat: int | None = None) -> Action:
        try:
            return super().apply(action, seat=seat)
        except IllegalActionError:
            self.seed += 1
            raise


class IgnoresSeat(KnockoutWhistState):
    __slots__ = ()

    def apply(self, action: Action | str | int, *, seat: int | None = None) -> Action:
        return super().apply(action)


class WrongGameOverError(KnockoutWhistState):
    __slots__ = ()

    def apply(self, action: Action | str | int, *, seat: int | None = None) -> Action:
        if self.is_over:
            raise IllegalActionError("nothing is legal now")
        return super().apply(action, seat=seat)


class LazyResample(KnockoutWhistState):
    __slots__ = ()

    def resample_hidden(self, seat: int | None, rng: random.Random) -> Self:
        return self.copy()


class ResampleOwnHand(KnockoutWhistState):
    __slots__ = ()

    def resample_hidden(self, seat: int | None, rng: random.Random) -> Self:
        return super().resample_hidden(None, rng)


class RecordDropsLastAction(KnockoutWhistState):
    __slots__ = ()

    def record(self) -> cardtable.Record:
        record = super().record()
        del record.actions[-1:]
        return record


class EarlyResult(KnockoutWhistState):
    __slots__ = ()

    @property
    def result(self) -> Result | None:
        return super().result or Result((0,), ((0,),), (0.0,), "seat 0 wins")


class PositionForgetsTurnedCard(KnockoutWhistState):
    __slots__ = ()

    def position(self) -> str:
        text = super().position()
        if self.turned is None:
            return text
        return text.replace(f"turned={Card.from_index(self.turned)}", "turned=-")


class TupleView(KnockoutWhistState):
    __slots__ = ()

    def view(self, seat: int | None) -> dict[str, Any]:
        view = super().view(seat)
        view["tricks_won"] = tuple(view["tricks_won"])
        return view


class AliasedView(KnockoutWhistState):
    __slots__ = ()

    def view(self, seat: int | None) -> dict[str, Any]:
        view = super().view(seat)
        view["tricks_won"] = self.tricks_won
        return view


class LegalByNumberDisagrees(KnockoutWhistState):
    __slots__ = ()

    def is_legal(self, number: int) -> bool:
        return number == KNOCK or super().is_legal(number)


class CheckedApplyDiffers(KnockoutWhistState):
    __slots__ = ()

    def apply(self, action: Action | str | int, *, seat: int | None = None) -> Action:
        done = super().apply(action, seat=seat)
        self.seed += 1
        return done


BROKEN = [
    (UnsortedActions, "ascending", {}),
    (SeatPeeksLeft, "changed its view", {}),
    (SpectatorSeesStock, "the spectator cannot see changed its view", {}),
    (SharedHands, "copy changed the original", {}),
    (TrumpBlind, "KOW-11.4|rebuilt from its position", {}),
    (KnockOnLastTrick, "W-3", {}),
    (NoFollowSuit, "KOW-4.2", {}),
    (DealerLeads, "KOW-11.9", {}),
    (DogsLifeEveryHand, "KOW-11.6: seats .* a second award", {}),
    (AcceptsAnything, "was accepted", {}),
    (RefusalChangesSeed, "changed the position", {}),
    (IgnoresSeat, "accepted for seat", {}),
    (WrongGameOverError, "not GameOverError", {}),
    (LazyResample, "re-deals nothing", {}),
    (ResampleOwnHand, "changed its view", {}),
    (RecordDropsLastAction, "replayed state", {}),
    (EarlyResult, "not over but result", {}),
    (PositionForgetsTurnedCard, "state_from_position", {}),
    (TupleView, "JSON", {}),
    (AliasedView, "view taken earlier changed", {"deep_rate": 1.0}),
    (CheckedApplyDiffers, "apply_id", {"deep_rate": 1.0}),
    (LegalByNumberDisagrees, "is_legal", {}),
]


@pytest.mark.parametrize(
    ("state_class", "match", "options"), BROKEN, ids=[cls.__name__ for cls, _, _ in BROKEN]
)
def test_conformance_suite_refuses_a_broken_game(
    state_class: type[KnockoutWhistState], match: str, options: dict[str, Any]
) -> None:
    """SPEC §0.4 / §5: each broken promise (sorted legal actions, hidden information,
    independent copies, KOW-4.3 trick winners, W-3, KOW-4.2, KOW-4.1, KOW-11.6, refusals
    and their errors, re-deals, records, results, positions, JSON views) is caught."""
    refuse(broken(state_class), match, **options)


def test_conformance_suite_refuses_a_game_that_does_not_end() -> None:
    """SPEC §5: termination. A bound shorter than any Knockout Whist game must fail."""
    game = cardtable.make("knockout-whist", engine="python", players=3)
    refuse(game, "did not end within 20 actions", seeds=1, max_actions=20)


def test_individual_checks_pass_on_sound_states_and_fail_on_broken_ones() -> None:
    """SPEC §0.4 (2)-(4): the checks are usable one by one from a test."""
    rng = random.Random(3)
    sound = cardtable.make("knockout-whist", engine="python", players=4).new_state(seed=3)
    assert check_legal_actions(sound) == sound.legal_action_ids()
    assert check_illegal_actions_rejected(sound) == 57 - len(sound.legal_action_ids())
    check_copy_independent(sound, rng)
    assert check_redeal(sound, rng) == {None, 0, 1, 2, 3}
    check_replay(sound)

    leaky = broken(SeatPeeksLeft).new_state(seed=3)
    with pytest.raises(AssertionError, match="seat 0 cannot see changed its view"):
        check_redeal(leaky, rng, seats=[0])
    with pytest.raises(AssertionError, match="ascending"):
        check_legal_actions(broken(UnsortedActions).new_state(seed=3))
    with pytest.raises(AssertionError, match="changed the original"):
        check_copy_independent(broken(SharedHands).new_state(seed=3), rng)
