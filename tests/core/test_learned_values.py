"""The learned estimate Knockout Whist's search ends its rollouts with (``rollout=learned``)
and the inference that weighs the search's deals (``belief``, ``choice``).

The table is learnt by ``benchmarks/knockout_whist_values.py`` and compiled into the core;
here: the core holds the very table the repository ships, reads every cell of it, and its
estimate changes the search's choice where the built-in share cannot see the difference
(who names the next trumps, KOW-3.2).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import cardtable
from cardtable import _core, compiled
from cardtable.bots import make_bot
from cardtable.bots.ismcts import IsmctsBot
from cardtable.errors import InvalidBudgetError

SHIPPED = Path(__file__).resolve().parents[2] / "crates/core/src/knockout_whist/values.json"
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


def test_the_core_holds_the_shipped_table_and_reads_every_cell() -> None:
    compiled_in = _core.learned_values("knockout-whist")
    assert compiled_in is not None
    text, cells = compiled_in
    assert text == SHIPPED.read_text(encoding="utf-8"), "values.json changed: rebuild the core"
    table = json.loads(text)
    assert table["format"] == "cardtable-knockout-whist-values"
    assert cells == len(table["cells"]) > 0
    assert all(0.0 <= row[7] <= 1.0 for row in table["cells"])
    # The tables of record are three players: every hand after the first has cells.
    assert {row[1] for row in table["cells"] if row[0] == 3} == set(range(1, 7))
    assert _core.learned_values("neuf") is None


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
