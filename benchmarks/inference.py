"""Does weighting the sampled deals by the others' plays find their cards? The measurement
that comes before policy-based inference in the search bots (docs/bots.md, "Inference").

The search bots sample the hidden cards uniformly among the deals consistent with a seat's
view. Weighting each sampled deal by how well it explains what the other players did in
the current hand, under a model of their play, should put more of the sample's weight on
the deal that is true. This script measures that, in Knockout Whist or Neuf (``--game``;
in Neuf the hand's plays are those after the exchange) on the Python engine:

1. It plays games with ``--players`` bots of one spec (``--played-by``; ``medium`` by
   default, a searcher, so that the model below is not the players' own policy) and picks
   positions mid-hand where the seat to move has seen at least one play by another seat
   in this hand.
2. At each, it draws ``--samples`` deals from the seat's knowledge (its view alone), and
   weights each by the likelihood of the other seats' plays in this hand: the hand is
   replayed from its first trick with the sampled hands (each seat's cards now, and those
   it played since), and each play by another seat has probability
   ``(1 - eps)·[it is the model's choice] + eps/|legal|`` under the model ``--model``
   (``easy``: each game's rules of thumb) with ``eps`` ``--epsilon``.
3. For every card another seat really holds, it reads the probability, uniform and
   weighted, that the sample puts it in that seat's hand, and their logs (clipped at
   half a sample).

With ``--model core`` (Knockout Whist) the weights are the compiled core's, the very ones
the search bots weigh their deals by (``ismcts:…,belief=B,choice=C``; ``--belief`` and
``--choice``): the plays under the guided rollout policy (a play is its card with chance
``belief``), and the trumps a seat named for this hand (KOW-3.2) under a softmax of
``choice`` times the guided policy's score of each suit in its dealt hand. ``--hands-
after-the-first`` keeps only positions whose trumps a seat named (hands 2 to 7).

It prints the means over positions with 95% intervals, uniform and weighted, and their
paired difference; ``--json`` writes them. Only the current hand's plays count: each hand
is a fresh deal (KOW-5.5, NEUF-7). Kryt'-navalivat' is not measured: its hands change
within a deal (the stock's cards drawn, the pile taken), so the plays cannot be replayed
from the hands as they are now and those played since.

    .venv/bin/python benchmarks/inference.py --positions 200 --samples 200
    .venv/bin/python benchmarks/inference.py --played-by hard --model core --choice 1
    .venv/bin/python benchmarks/inference.py --game neuf --played-by hard
"""

from __future__ import annotations

import argparse
import json
import math
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import cardtable
from cardtable import compiled
from cardtable.arena.stats import mean_interval
from cardtable.bots import make_bot
from cardtable.bots.base import Bot
from cardtable.cards import Card
from cardtable.core import Game, Knowledge
from cardtable.rules.knockout_whist.state import KnockoutWhistState
from cardtable.rules.neuf.state import NeufState
from cardtable.rules.tricks import bits

GAMES = ("knockout-whist", "neuf")
TrickState = KnockoutWhistState | NeufState


@dataclass(frozen=True)
class Position:
    """The hand's state at its first trick, the plays since (seat, action number), the
    state now, and the seat to move, whose knowledge is sampled."""

    start: TrickState
    plays: tuple[tuple[int, int], ...]
    now: TrickState
    knower: int


def positions(
    game: Game, spec: str, count: int, rng: random.Random, named: bool = False
) -> Iterator[Position]:
    """``count`` positions of games played by ``spec`` bots at every seat (``named``: only
    where a seat named this hand's trumps)."""
    bot = make_bot(spec, game.name)
    found = 0
    while found < count:
        state = game.new_state(seed=rng.getrandbits(63))
        assert isinstance(state, TrickState)
        start: TrickState | None = None
        plays: list[tuple[int, int]] = []
        while not state.is_over and found < count:
            seat = state.to_move
            assert seat is not None
            hand_start = state.phase == "play" and not state.done and not state.trick
            if hand_start:
                start, plays = state.copy(), []
            others = start is not None and any(s != seat for s, _ in plays)
            chosen = (
                isinstance(state, KnockoutWhistState)
                and state.chooser is not None
                and state.turned is None
            )
            wanted = others and state.phase == "play" and (chosen or not named)
            if wanted and rng.random() < 0.2:
                assert start is not None
                yield Position(start, tuple(plays), state.copy(), seat)
                found += 1
            legal = state.legal_actions()
            action = bot.choose(state.view(seat), legal, rng)
            number = game.action_to_int(action)
            if state.phase == "play":
                plays.append((seat, number))
            state.apply_id(number)


def log_weight(
    game: Game, position: Position, hands: list[int], model: Bot, epsilon: float
) -> float:
    """The log-likelihood of the other seats' plays this hand if they held ``hands`` now."""
    played = [0] * game.num_players
    for seat, number in position.plays:
        action = game.actions[number]
        if isinstance(action.arg, Card):  # a dog's knock plays no card (KOW-6.3)
            played[seat] |= action.arg.bit
    state = position.start.copy()
    state.hands = [
        state.hands[s] if s == position.knower else hands[s] | played[s]
        for s in range(game.num_players)
    ]
    total = 0.0
    for seat, number in position.plays:
        legal = state.legal_action_ids()
        if seat != position.knower:
            if number not in legal:
                return -math.inf
            actions = [game.actions[i] for i in legal]
            choice = game.action_to_int(model.choose(state.view(seat), actions, random.Random(0)))
            chosen = 1.0 if choice == number else 0.0
            total += math.log((1 - epsilon) * chosen + epsilon / len(legal))
        state.apply_id(number)
    return total


def sampled(knowledge: Knowledge, rng: random.Random) -> TrickState:
    """One deal drawn uniformly from what a seat knows."""
    state = knowledge.sample(rng)
    assert isinstance(state, TrickState)
    return state


@dataclass
class Measured:
    uniform: float
    weighted: float
    uniform_log: float
    weighted_log: float
    effective: float
    """The weights' effective sample size (Kish), out of the samples."""


@dataclass(frozen=True)
class CoreModel:
    """The core's weights, as the search bots use them."""

    belief: float
    choice: float

    def logs(self, game: Game, position: Position, drawn: list[TrickState]) -> list[float]:
        twin = compiled.core_game(game, always=True)
        assert twin is not None
        view = json.dumps(position.now.view(position.knower))
        texts = [game.position_of(d) for d in drawn]
        return twin.log_likelihoods(view, texts, self.belief, self.choice)


def measure(
    game: Game,
    position: Position,
    samples: int,
    model: Bot | CoreModel,
    epsilon: float,
    rng: random.Random,
) -> Measured | None:
    """The sample's probabilities on the truth, uniform and weighted; ``None`` when the
    other seats hold no card (the hand's last plays)."""
    knowledge = game.knowledge(position.now.view(position.knower))
    drawn = [sampled(knowledge, rng) for _ in range(samples)]
    if isinstance(model, CoreModel):
        logs = model.logs(game, position, drawn)
    else:
        logs = [log_weight(game, position, d.hands, model, epsilon) for d in drawn]
    top = max(logs)
    weights = [math.exp(x - top) for x in logs]
    total = sum(weights)
    effective = total**2 / sum(w * w for w in weights)
    held = [
        (seat, card)
        for seat in range(game.num_players)
        if seat != position.knower
        for card in bits(position.now.hands[seat])
    ]
    if not held:
        return None
    floor = 0.5 / samples
    uniform = weighted = uniform_log = weighted_log = 0.0
    for seat, card in held:
        inside = [d.hands[seat] >> card & 1 for d in drawn]
        p_u = sum(inside) / samples
        p_w = sum(w for w, x in zip(weights, inside, strict=True) if x) / total
        uniform += p_u
        weighted += p_w
        uniform_log += math.log(max(p_u, floor))
        weighted_log += math.log(max(p_w, floor))
    n = len(held)
    return Measured(uniform / n, weighted / n, uniform_log / n, weighted_log / n, effective)


def interval(values: Sequence[float]) -> tuple[float, float, float]:
    """The mean and its 95% interval (Student's t, as the arena's)."""
    found = mean_interval(values)
    return (
        found.mean,
        found.mean if found.low is None else found.low,
        found.mean if found.high is None else found.high,
    )


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--game", choices=GAMES, default=GAMES[0])
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--played-by", default="medium", help="the players' bot spec")
    parser.add_argument(
        "--model", default="easy", help="the bot spec the weights assume, or core (the search's)"
    )
    parser.add_argument("--epsilon", type=float, default=0.1)
    parser.add_argument("--belief", type=float, default=0.0, help="--model core: the plays")
    parser.add_argument("--choice", type=float, default=0.0, help="--model core: the trumps")
    parser.add_argument(
        "--hands-after-the-first", action="store_true", help="only hands whose trumps were named"
    )
    parser.add_argument("--positions", type=int, default=100)
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--json", help="write the results here")
    args = parser.parse_args(argv)
    if args.model == "core" and args.game != "knockout-whist":
        parser.error("--model core: the core weighs deals in Knockout Whist only")
    game = cardtable.make(args.game, engine="python", players=args.players)
    model = (
        CoreModel(args.belief, args.choice)
        if args.model == "core"
        else make_bot(args.model, args.game)
    )
    rng = random.Random(args.seed)
    named = args.hands_after_the_first
    measured = (
        measure(game, p, args.samples, model, args.epsilon, rng)
        for p in positions(game, args.played_by, args.positions, rng, named)
    )
    found = [m for m in measured if m is not None]
    report: dict[str, Any] = {"arguments": vars(args), "measured": len(found)}
    for name in ("uniform", "weighted", "uniform_log", "weighted_log", "effective"):
        report[name] = interval([getattr(m, name) for m in found])
    report["difference"] = interval([m.weighted - m.uniform for m in found])
    report["difference_log"] = interval([m.weighted_log - m.uniform_log for m in found])
    for name, value in report.items():
        if name not in ("arguments", "measured"):
            print(f"{name:>15}: {value[0]:+.4f} [{value[1]:+.4f}, {value[2]:+.4f}]")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump(report, handle, indent=2)
    return report


if __name__ == "__main__":
    main()
