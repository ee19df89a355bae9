"""Knockout Whist (SPEC §3): 2–7 players, seven hands of 7 down to 1 card."""

from cardtable.rules.knockout_whist.game import KnockoutWhist
from cardtable.rules.knockout_whist.state import KnockoutWhistState

__all__ = ["KnockoutWhist", "KnockoutWhistState"]
