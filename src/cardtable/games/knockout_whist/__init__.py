"""Knockout Whist (SPEC §3): 2–7 players, seven hands of 7 down to 1 card."""

from cardtable.games.knockout_whist.game import KnockoutWhist
from cardtable.games.knockout_whist.rules import KnockoutWhistState

__all__ = ["KnockoutWhist", "KnockoutWhistState"]
