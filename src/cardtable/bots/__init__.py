"""Bots: players that read a seat's view and pick one of the legal actions (DESIGN.md, "Bots").

>>> import random, cardtable
>>> from cardtable.bots import make_bot
>>> state = cardtable.make("knockout-whist", players=3, dealer=0).new_state(seed=7)
>>> bot = make_bot("easy", "knockout-whist")
>>> seat = state.to_move
>>> action = bot.choose(state.view(seat), state.legal_actions(), random.Random(1))
>>> action in state.legal_actions()
True
"""

from __future__ import annotations

from cardtable.bots.base import BOT_NAMES, Bot, UnknownBotError
from cardtable.bots.random_bot import RandomBot
from cardtable.bots.registry import make_bot

__all__ = ["BOT_NAMES", "Bot", "RandomBot", "UnknownBotError", "make_bot"]
