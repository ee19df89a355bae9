"""The games cardtable plays, each by its :class:`~cardtable.rules.descriptor.Descriptor`.

A new game is a package of rules beside the others and a descriptor here; nothing else
names it. (The compiled core's Python face, :mod:`cardtable.compiled`, still keeps its own
table of the core's classes; the descriptors' ``core`` says the same.)
"""

from __future__ import annotations

from cardtable.errors import UnknownGameError
from cardtable.rules.descriptor import Descriptor

__all__ = ["DESCRIPTORS", "KNOCKOUT_WHIST", "KRYT_NAVALIVAT", "NEUF", "descriptor"]

KNOCKOUT_WHIST = Descriptor(
    name="knockout-whist",
    title="Knockout Whist",
    game="cardtable.rules.knockout_whist.game:KnockoutWhist",
    core="KnockoutWhist",
    reasons="cardtable.rules.knockout_whist.refusals:KnockoutWhistReason",
    stake="win",
    partnership=None,
    next_dealer="left",
    variants=(),
    sessions=False,
    solver_model="max-n",
    max_n_players=None,
    solves_endgame_only=False,
    hint_unit="tricks",
    hint_judge="tricks",
    hint_given_to_beat=(),
    arena_metric="win",
    per_deal=False,
    view="cardtable.rules.knockout_whist.view:KnockoutWhistView",
)

NEUF = Descriptor(
    name="neuf",
    title="Neuf",
    game="cardtable.rules.neuf.game:Neuf",
    core="Neuf",
    reasons="cardtable.rules.neuf.refusals:NeufReason",
    stake="win",
    partnership=4,
    next_dealer="left",
    variants=("trump_sequence", "dealer_exchanges_first", "tie_avoidance"),
    sessions=False,
    # Neuf's max-n cannot prune, and takes far too long over more than the last few tricks.
    solver_model="paranoid",
    max_n_players=None,
    solves_endgame_only=False,
    hint_unit="points",
    # Valued by hard's search to the end of the deal: PIMC over the paranoid solver played
    # worse than hard (docs/hints.md).
    hint_judge=None,
    hint_given_to_beat=(),
    arena_metric="score",
    per_deal=True,
    view="cardtable.rules.neuf.view:NeufView",
)

KRYT_NAVALIVAT = Descriptor(
    name="kryt-navalivat",
    title="Kryt'-navalivat'",
    game="cardtable.rules.kryt_navalivat.game:KrytNavalivat",
    core="KrytNavalivat",
    reasons="cardtable.rules.kryt_navalivat.refusals:KrytNavalivatReason",
    stake="fool",
    partnership=None,
    # The fool deals the next hand, the same dealer after a draw (K-8).
    next_dealer="fool",
    variants=("trump_mode",),
    # Played as a session of hands (SPEC §0.1, KRYT-2.1).
    sessions=True,
    # Max-n is two players' exact game; with more the solver falls back to paranoid.
    solver_model="max-n",
    max_n_players=2,
    solves_endgame_only=True,
    hint_unit="not_fool",
    hint_judge=None,
    hint_given_to_beat=("lead", "cover"),
    arena_metric="fool",
    per_deal=False,
    view="cardtable.rules.kryt_navalivat.view:KrytNavalivatView",
)

DESCRIPTORS: dict[str, Descriptor] = {
    d.name: d for d in sorted((KNOCKOUT_WHIST, KRYT_NAVALIVAT, NEUF), key=lambda d: d.name)
}
"""Each game's descriptor, by name, in the order of the names."""


def descriptor(name: str) -> Descriptor:
    """The descriptor of the game ``name``; :class:`UnknownGameError` for a name of none."""
    found = DESCRIPTORS.get(name) if isinstance(name, str) else None
    if found is None:
        raise UnknownGameError(f"unknown game {name!r}; known games: {', '.join(DESCRIPTORS)}")
    return found
