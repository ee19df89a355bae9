"""Type stubs of ``cardtable._core``, the compiled core (crates/python)."""

from collections.abc import Sequence
from typing import Self, final

import numpy as np
import numpy.typing as npt

__all__ = [
    "KnockoutWhist",
    "KnockoutWhistState",
    "KrytNavalivat",
    "KrytNavalivatState",
    "Neuf",
    "NeufState",
    "broken_rule",
    "state_sizes",
]

def state_sizes() -> list[tuple[str, int]]:
    """Each game's name and the size in bytes of its state in the core."""

def broken_rule() -> bool:
    """Whether this build breaks a rule on purpose (the ``broken-rule`` cargo feature)."""

class _State:
    @property
    def to_move(self) -> int | None: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def num_players(self) -> int: ...
    def legal_action_ids(self) -> list[int]: ...
    def legal_mask(self) -> int: ...
    def is_legal(self, action: int) -> bool: ...
    def apply(self, action: int) -> None: ...
    def position(self) -> str: ...
    def returns(self) -> list[float] | None: ...
    def playout(self, seed: int) -> list[int]: ...
    def playouts(self, count: int, seed: int) -> tuple[npt.NDArray[np.float64], int]: ...

class _Game:
    @property
    def name(self) -> str: ...
    @property
    def num_players(self) -> int: ...
    @property
    def num_distinct_actions(self) -> int: ...
    def random_games(self, seeds: Sequence[int]) -> tuple[npt.NDArray[np.float64], int]: ...

@final
class KnockoutWhistState(_State):
    def copy(self) -> KnockoutWhistState: ...
    def __copy__(self) -> KnockoutWhistState: ...

@final
class KnockoutWhist(_Game):
    def __new__(cls, **options: object) -> Self: ...
    def new_state(
        self,
        seed: int,
        dealer: int | None = None,
        decks: Sequence[Sequence[int]] | None = None,
        reshuffles: Sequence[Sequence[int]] | None = None,
    ) -> KnockoutWhistState: ...
    def state_from_position(self, text: str) -> KnockoutWhistState: ...

@final
class NeufState(_State):
    def copy(self) -> NeufState: ...
    def __copy__(self) -> NeufState: ...

@final
class Neuf(_Game):
    def __new__(cls, **options: object) -> Self: ...
    def new_state(
        self,
        seed: int,
        dealer: int | None = None,
        decks: Sequence[Sequence[int]] | None = None,
        reshuffles: Sequence[Sequence[int]] | None = None,
    ) -> NeufState: ...
    def state_from_position(self, text: str) -> NeufState: ...

@final
class KrytNavalivatState(_State):
    def copy(self) -> KrytNavalivatState: ...
    def __copy__(self) -> KrytNavalivatState: ...

@final
class KrytNavalivat(_Game):
    def __new__(cls, **options: object) -> Self: ...
    def new_state(
        self,
        seed: int,
        dealer: int | None = None,
        decks: Sequence[Sequence[int]] | None = None,
        reshuffles: Sequence[Sequence[int]] | None = None,
    ) -> KrytNavalivatState: ...
    def state_from_position(self, text: str) -> KrytNavalivatState: ...
