"""The learned evaluations the core's search ends its rollouts with (``rollout=learned``):
Knockout Whist's table between hands and Neuf's network at the end of a trick; Knockout
Whist's learned policy prior (``prior=``); and the inference that weighs the search's deals
(``belief``, ``choice``).

The table is learnt by ``benchmarks/knockout_whist_values.py``, the network trained by
``benchmarks/neuf_value_net.py``; both are compiled into the core. Here: the core holds the
very files the repository ships and reads every number of them; Knockout Whist's estimate
changes the search's choice where the built-in share cannot see the difference (who names
the next trumps, KOW-3.2); Neuf's network, worked out again here with NumPy from the shipped
weights and inputs written independently of the core's, gives the core's numbers.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import cardtable
from cardtable import _core, compiled
from cardtable.bots import make_bot
from cardtable.bots.ismcts import IsmctsBot
from cardtable.errors import InvalidBudgetError
from cardtable.rl.observation import encode, layout
from cardtable.rules.neuf.state import NeufState

CORE = Path(__file__).resolve().parents[2] / "crates/core/src"
SHIPPED = CORE / "knockout_whist/values.json"
SHIPPED_NET = CORE / "neuf/value_net.json"
SHIPPED_PRIOR = CORE / "knockout_whist/prior_net.json"
GAME = cardtable.make("knockout-whist", players=3)

# Hand 5 (three cards a seat), clubs trumps, every seat active and the dog's life spent;
# seat 2 has taken the first trick and leads to the last two holding 5♣ and 8♠ (seat 0:
# 6♦ 8♦, seat 1: J♣ A♦, which seat 2 cannot see). Leading the 8♠ takes one of the two
# tricks whatever the others hold here (J♣ trumps it, then A♦ falls to the 5♣; else the
# 5♣ loses to J♣ after): two tricks, the most, and the next hand's trumps. Leading the
# 5♣ into J♣ leaves seat 2 with one. Seat 0 goes out either way, so the share (two active
# seats, even) sees no difference; the learned table says the seat that names the trumps
# of a two-card hand wins about 70% of games.
NAMES_THE_TRUMPS = (
    "kow/1 players=3 hand=5 dealer=1 phase=play trump=C turned=- dog=used status=AAA out=- "
    "won=0,0,1 cuts=- chooser=2 hands=6D,8D/JC,AD/5C,8S "
    "stock=8H,QC,KC,AC,2D,3D,4D,5D,6C,7D,9C,9D,10D,JD,QD,KD,7C,2H,3C,10C,2C,6H,7H,4C,9H,"
    "10H,JH,QH,KH,AH,2S,3S,4S,5S,6S,7S,8C,9S,10S,JS,QS,KS,AS done=2:5H,0:3H,1:4H trick=- "
    "seed=884107995871 chance=5,0 previous=C:1:2D,2:3D,0:3C/1:5H,2:10H/2:10S,1:9S/2:JC,1:KC"
)


def compiled_in(game: str, shipped: Path, prior: bool = False) -> tuple[Any, int]:
    """The learned evaluation (``prior``: policy prior) the core compiled in for ``game``,
    parsed, and how many numbers it read; the very file the repository ships (else the
    core needs rebuilding)."""
    held = _core.learned_prior(game) if prior else _core.learned_values(game)
    assert held is not None
    text, numbers = held
    assert text == shipped.read_text(encoding="utf-8"), f"{shipped.name} changed: rebuild"
    return json.loads(text), numbers


def test_the_core_holds_the_shipped_table_and_reads_every_cell() -> None:
    table, cells = compiled_in("knockout-whist", SHIPPED)
    assert table["format"] == "cardtable-knockout-whist-values"
    assert cells == len(table["cells"]) > 0
    assert all(0.0 <= row[7] <= 1.0 for row in table["cells"])
    # The tables of record are three players: every hand after the first has cells.
    assert {row[1] for row in table["cells"] if row[0] == 3} == set(range(1, 7))
    assert _core.learned_values("kryt-navalivat") is None


def test_the_learned_estimate_leads_for_the_next_trumps() -> None:
    state = GAME.state_from_position(NAMES_THE_TRUMPS)
    assert state.to_move == 2
    twin = compiled.core_game(GAME, always=True)
    assert twin is not None
    view = json.dumps(state.view(2))
    guided = twin.search(view, iterations=20000, seed=1, stop_early=False, rollout="guided")
    learned = twin.search(view, iterations=20000, seed=1, stop_early=False, rollout="learned")
    names = dict(zip(state.legal_action_ids(), map(str, state.legal_actions()), strict=True))
    assert sorted(names.values()) == ["play 5C", "play 8S"]
    assert names[learned[0]] == "play 8S"
    assert names[guided[0]] == "play 5C"
    # Not a coin toss: most of the learned search's iterations went to the 8♠.
    assert learned[1][learned[0]] > 0.8 * 20000


def test_inference_weighs_the_sampled_deals_by_the_others_trump_choices() -> None:
    state = GAME.state_from_position(NAMES_THE_TRUMPS)
    twin = compiled.core_game(GAME, always=True)
    assert twin is not None
    view = json.dumps(state.view(2))
    positions = twin.sample_positions(view, 40, 3)
    plain = twin.log_likelihoods(view, positions, 0.0, 0.0)
    assert plain == [0.0] * 40
    weighed = twin.log_likelihoods(view, positions, 0.5, 1.0)
    assert len(set(weighed)) > 1 and all(w <= 0.0 for w in weighed)
    with pytest.raises(InvalidBudgetError, match="belief"):
        twin.log_likelihoods(view, positions, 1.0, 0.0)
    bot = make_bot("ismcts:iterations=500,belief=0.5,choice=1,deals=200", GAME.name)
    assert isinstance(bot, IsmctsBot) and (bot.belief, bot.choice, bot.deals) == (0.5, 1.0, 200)
    action = bot.choose(state.view(2), state.legal_actions(), random.Random(4))
    assert action in state.legal_actions()


def test_the_core_holds_the_shipped_network_and_reads_every_weight() -> None:
    net, numbers = compiled_in("neuf", SHIPPED_NET)
    shapes = [(len(layer["weights"]), len(layer["weights"][0])) for layer in net["layers"]]
    assert shapes[0][1] == net["inputs"] == 3 * 52 + 1 + 13 and shapes[-1][0] == 3
    assert numbers == sum(o * i + o for o, i in shapes)


def test_the_neuf_networks_samples_are_its_inputs_and_shares() -> None:
    """``value_samples``: a row per trick start of each first deal (13 a deal, NEUF-4.4),
    the hands' cards and the tricks left set among the inputs, targets that are shares of
    the tricks left; refused where the network does not apply."""
    inputs, target = _core.Neuf().value_samples(4, seed=7, rollouts=3)
    assert inputs.shape == (4 * 13, 3 * 52 + 1 + 13) and target.shape == (4 * 13, 3)
    left = 13 - np.arange(4 * 13) % 13
    assert (inputs[:, :156].sum(axis=1) == 3 * left).all()
    assert (np.argmax(inputs[:, -13:], axis=1) + 1 == left).all()
    assert inputs[:, 156].sum() == 0  # deal 1 is played in hearts (NEUF-2.1)
    assert target.sum(axis=1) == pytest.approx(np.ones(4 * 13), abs=1e-6)
    # Shares of whole tricks over three playouts: multiples of 1 / (3 * left).
    whole = target * (3 * left)[:, None]
    assert whole == pytest.approx(np.round(whole), abs=1e-4)
    with pytest.raises(cardtable.errors.InvalidOptionError, match="three players"):
        _core.Neuf(players=4).value_samples(1)
    with pytest.raises(cardtable.errors.InvalidOptionError, match="tie_avoidance"):
        _core.Neuf(tie_avoidance=True).value_samples(1)
    with pytest.raises(ValueError, match="rollouts"):
        _core.Neuf().value_samples(1, rollouts=0)


def neuf_inputs(hands: list[int], leader: int, trump: str, left: int) -> list[int]:
    """The network's inputs that are set, written from the module comment of
    ``crates/core/src/neuf/value.rs`` rather than from its code: each seat's cards from the
    seat to lead, the trump suit's cards first (the other suits in their order), a no-trump
    flag, then the tricks left one-hot."""
    suits = "CDHS"
    order = list(suits) if trump == "NT" else [trump, *(s for s in suits if s != trump)]
    on = []
    for k in range(3):
        hand = hands[(leader + k) % 3]
        for card in range(52):
            if hand >> card & 1:
                suit, rank = divmod(card, 13)
                on.append(52 * k + 13 * order.index(suits[suit]) + rank)
    if trump == "NT":
        on.append(156)
    on.append(157 + left - 1)
    return on


def numpy_tricks(net: dict[str, Any], on: list[int], leader: int, left: int) -> list[float]:
    x = np.zeros(net["inputs"])
    x[on] = 1.0
    layers = net["layers"]
    for k, layer in enumerate(layers):
        x = np.asarray(layer["weights"]) @ x + np.asarray(layer["bias"])
        if k < len(layers) - 1:
            x = np.maximum(x, 0.0)
    share = np.exp(x - x.max()) / np.exp(x - x.max()).sum()
    tricks = [0.0] * 3
    for k in range(3):
        tricks[(leader + k) % 3] = float(share[k]) * left
    return tricks


@pytest.mark.parametrize("seed", [3, 11])
def test_the_neuf_network_is_the_shipped_one_at_every_trick_start(seed: int) -> None:
    """NEUF-4.4: at each trick's start of the first five deals (NEUF-2.1: hearts,
    diamonds, clubs, spades, no trump) the core's learned tricks are the shipped network's
    on the hands as they stand and add up to the tricks left; mid-trick and in the exchange
    (NEUF-3) there are none."""
    net = json.loads(SHIPPED_NET.read_text(encoding="utf-8"))
    game = cardtable.make("neuf", players=3)
    state = game.new_state(seed=seed)
    assert isinstance(state, NeufState)
    rng = random.Random(seed)
    seen = 0
    trumps = set()
    while state.deal_number <= 5 and not state.is_over:
        core = compiled.core_state(state)
        assert isinstance(core, _core.NeufState)
        if state.phase == "play" and not state.trick:
            left = 13 - len(state.done)
            trump = "NT" if state.trump_name == "NT" else "CDHS"[state.trump]
            trumps.add(trump)
            leader = state.to_move
            assert leader is not None
            on = neuf_inputs(list(state.hands), leader, trump, left)
            learned = core.learned_tricks()
            assert learned is not None
            assert learned == pytest.approx(numpy_tricks(net, on, leader, left), abs=1e-4)
            assert sum(learned) == pytest.approx(left, abs=1e-4)
            seen += 1
        else:
            assert core.learned_tricks() is None
        state.apply(rng.choice(state.legal_actions()))
    assert seen == 13 * 5 and trumps == {"H", "D", "C", "S", "NT"}


# Deal 1 (hearts trumps), four tricks left, every hand in view; seat 2 (tricks 2, 1, 6)
# leads from 9♣ 10♣ 10♥ A♠; seat 0 holds 3♣ 3♦ 7♥ K♥, seat 1 5♦ 2♥ 9♥ J♠. The exact solver
# (max-n, NEUF-5.2) gives seat 2 three more tricks leading a club and two leading A♠ or 10♥:
# both others are void in spades and ruff the ace. The guided policy leads the ace, the one
# card no card left beats in its suit, and its playouts carry the search with it; the network
# saw such deals played out many times over and values the club lead.
LEADS_A_CLUB = (
    "neuf/1 players=3 sequence=HDCS-NT first=0 ledger=- phase=play exchanges=1:e,2:e,0:e "
    "piles=4C,7C,8C,QC,KC,6D,8D,9D,10D,JD,3H,AH,7S/2C,9C,10C,JC,2D,7D,10H,JH,QH,5S,10S,QS,AS/"
    "3C,5C,6C,3D,KD,AD,4H,5H,7H,KH,4S,8S,9S/AC,4D,5D,QD,2H,6H,8H,9H,2S,3S,6S,JS,KS "
    "done=1:6S,2:QS,0:9S/2:5S,0:4S,1:3S/2:2C,0:6C,1:AC/1:8H,2:JH,0:4H/2:2D,0:AD,1:4D/"
    "0:KD,1:QD,2:7D/0:8S,1:2S,2:10S/2:QH,0:5H,1:6H/2:JC,0:5C,1:KS trick=- seed=695006455 "
    "chance=1"
)


def test_the_neuf_network_changes_the_search_to_the_solvers_lead() -> None:
    game = cardtable.make("neuf", players=3)
    twin = compiled.core_game(game, always=True)
    assert twin is not None
    state = twin.state_from_position(LEADS_A_CLUB)
    assert state.to_move == 2
    solved = dict(state.solve("max-n")[0])
    names = {a: twin.action_text(a) for a in solved}
    best = {names[a] for a, v in solved.items() if v == max(solved.values())}
    assert best == {"play 9C", "play 10C"}
    found = {}
    for rollout in ("guided", "learned"):
        action, visits, *_ = twin.search_seeing(
            LEADS_A_CLUB, iterations=20000, seed=1, stop_early=False, rollout=rollout
        )
        found[rollout] = names[action]
        # Not a coin toss: most iterations went to the choice.
        assert visits[action] > 0.8 * 20000
    assert found["guided"] == "play AS"
    assert found["learned"] in best


# Hand 1, spades trumps (the 8♠ turned), seat 0 has led the 10♣; seat 1, to play, holds
# Q♦ A♦ J♠ and no club: ruff with the J♠ or throw a diamond. Searched with 50,000
# iterations the seat ruffs; searched with 200 it throws a diamond; the prior, learnt from
# the searchers' own choices, ruffs.
RUFFS = (
    "kow/1 players=3 hand=1 dealer=0 phase=play trump=S turned=8S dog=unused status=AAA "
    "out=- won=1,2,1 cuts=- chooser=- hands=4D,5D/QD,AD,JS/8C,7H,9S stock=JD,6D,KD,9C,2H,3H,"
    "4H,QC,6H,4C,8H,9H,10H,JH,8D,KH,KC,2D,3D,4S,5S,6S,3C,10D,6C,9D,AC,QS,5C,AS "
    "done=1:KS,2:2S,0:3S/1:2C,2:JC,0:7C/2:7S,0:7D,1:10S/1:5H,2:QH,0:AH trick=0:10C "
    "seed=6523572484875218985 chance=1,0"
)


def test_the_core_holds_the_shipped_prior_and_reads_every_weight() -> None:
    net, numbers = compiled_in("knockout-whist", SHIPPED_PRIOR, prior=True)
    shapes = [(len(layer["weights"]), len(layer["weights"][0])) for layer in net["layers"]]
    # The observation's 0/1 blocks in, one logit an action out.
    width = layout(GAME).fields["hand_number"].start
    assert shapes[0][1] == net["inputs"] == width and shapes[-1][0] == len(GAME.actions)
    assert numbers == sum(o * i + o for o, i in shapes)
    assert _core.learned_prior("neuf") is None and _core.learned_prior("kryt-navalivat") is None


def test_the_prior_is_the_shipped_network_on_the_seats_observation() -> None:
    """At every decision of three random games, the core's prior equals the shipped
    network worked out with NumPy on the Python encoder's observation of the seat's view
    (its 0/1 blocks), softmaxed over the legal actions; other player counts have none."""
    twin = _core.KnockoutWhist(players=3)
    net = json.loads(SHIPPED_PRIOR.read_text(encoding="utf-8"))
    weights = [(np.asarray(x["weights"]), np.asarray(x["bias"])) for x in net["layers"]]
    width = net["inputs"]
    rng = random.Random(6)
    checked = 0
    for _ in range(3):
        state = GAME.new_state(seed=rng.getrandbits(63))
        while not state.is_over:
            seat = state.to_move
            legal = state.legal_action_ids()
            x = encode(GAME, state.view(seat))[:width].astype(np.float64)
            assert set(np.unique(x)) <= {0.0, 1.0}
            for k, (w, b) in enumerate(weights):
                x = w @ x + b
                if k < len(weights) - 1:
                    x = np.maximum(x, 0.0)
            logits = x[legal]
            expected = np.exp(logits - logits.max()) / np.exp(logits - logits.max()).sum()
            found = twin.state_from_position(GAME.position_of(state)).learned_prior()
            assert found is not None
            assert [a for a, _ in found] == legal
            assert np.allclose([p for _, p in found], expected, atol=1e-5)
            checked += 1
            state.apply_id(rng.choice(legal))
    assert checked > 100
    assert _core.KnockoutWhist(players=4).new_state(seed=1).learned_prior() is None


def test_the_prior_leads_a_small_search_to_the_big_searchs_ruff() -> None:
    twin = _core.KnockoutWhist(players=3)
    state = GAME.state_from_position(RUFFS)
    view = json.dumps(state.view(1))
    ruff = twin.parse_action("play JS")
    big = twin.search(view, iterations=50000, seed=1, rollout="learned", stop_early=False)
    assert big[0] == ruff
    chances = twin.state_from_position(RUFFS).learned_prior()
    assert chances is not None
    prior = dict(chances)
    assert max(prior, key=prior.__getitem__) == ruff
    for seed in range(4):
        small = twin.search(view, iterations=200, seed=seed, rollout="learned", stop_early=False)
        steered = twin.search(
            view, iterations=200, seed=seed, rollout="learned", stop_early=False, prior=1.0
        )
        assert small[0] != ruff and steered[0] == ruff, seed


def test_the_prior_is_a_search_setting_of_the_core_alone() -> None:
    bot = make_bot("ismcts:iterations=500,prior=1", GAME.name)
    assert isinstance(bot, IsmctsBot) and bot.prior == 1.0
    with pytest.raises(InvalidBudgetError, match="prior must be 0 or more"):
        make_bot("ismcts:iterations=500,prior=-1", GAME.name)
    with pytest.raises(InvalidBudgetError, match="the prior goes with the core's search"):
        make_bot("ismcts:iterations=500,prior=1,engine=python", GAME.name)
    twin = compiled.core_game(GAME, always=True)
    assert twin is not None
    view = json.dumps(GAME.new_state(seed=2).view(0))
    with pytest.raises(InvalidBudgetError, match="prior must be 0 or more, not NaN"):
        twin.search(view, iterations=10, prior=float("nan"))
