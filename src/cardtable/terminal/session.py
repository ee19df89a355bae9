"""Playing and replaying games in the terminal.

A play session seats the person at seat 0 against bots. The screen is drawn from
``state.view(0)`` only; each bot chooses from its own seat's view. A replay steps a
record through the spectator's view, ``state.view(None)``.

Kryt'-navalivat' is played as hands in a row (a game is one hand, SPEC §0.1): a
:class:`HandsPlay` runs one :class:`PlaySession` per hand of a
:class:`~cardtable.session.Session`, shows the tally of fools after
each and asks whether to deal another; its saved file replays hand by hand.

Input is read a line at a time through :meth:`rich.console.Console.input`, which falls
back to plain ``input()``, so a session can be driven through a pipe.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

import cardtable
from cardtable.bots import Bot
from cardtable.cards import Card, Suit
from cardtable.core import Action, Record, State
from cardtable.errors import CardtableError, InvalidActionError
from cardtable.session import Session
from cardtable.terminal import GameScreen, screen_for
from cardtable.terminal.cards import SUIT_ORDER, hand_key, with_symbols
from cardtable.terminal.refusals import refusal_words

__all__ = [
    "HandsPlay",
    "PlaySession",
    "help_table",
    "hint_line",
    "menu_order",
    "play_names",
    "read_entry",
    "replay_record",
    "replay_session",
    "save_record",
    "save_session",
    "tally_line",
]

QUIT_WORDS = frozenset({"quit", "exit", "q"})
HELP_WORDS = frozenset({"help", "?"})
TABLE_WORDS = frozenset({"table"})
YES_WORDS = frozenset({"", "y", "yes"})
NO_WORDS = frozenset({"n", "no", *QUIT_WORDS})
# What any game's prompt takes besides its actions (``help`` lists them with the game's own).
ENTRY_HELP = (
    ("a number", "the action with that number in the list"),
    ("an action", "as the list words it, typed with letters for suits: play 7d, beat qs"),
    ("a card alone", "7d: the one action that uses that card, when only one does"),
    ("table", "show the table again"),
    ("help or ?", "this help"),
    ("quit", "stop here (with --record the game so far is saved)"),
)


def play_names(players: int, you: int = 0) -> list[str]:
    """Seat labels for a play session: ``["seat 0 (you)", "seat 1", …]``."""
    return [f"seat {s} (you)" if s == you else f"seat {s}" for s in range(players)]


def read_entry(
    text: str, legal: Sequence[Action], game: cardtable.Game, screen: GameScreen
) -> Action | None:
    """The action a typed entry names: a number from the menu, action text such as
    ``play 7D``, a card alone when exactly one legal action uses it (``9c`` for ``beat 9C``),
    or a short form such as ``7d`` that the game's screen expands.

    ``None`` means the player asked to quit. An entry that names no action raises a
    :class:`CardtableError`; whether the action is legal is left to the state.
    """
    entry = text.strip()
    if entry.lower() in QUIT_WORDS:
        return None
    if entry.isdigit():
        number = int(entry)
        if not 1 <= number <= len(legal):
            raise InvalidActionError(f"there is no action {number}; enter 1-{len(legal)}")
        return legal[number - 1]
    if not entry:
        raise InvalidActionError("enter the number of an action, or the action itself")
    card = _bare_card(entry)
    if card is not None:
        uses = [a for a in legal if a.arg == card]
        if len(uses) == 1:
            return uses[0]
        if uses:
            either = " or ".join(f"'{a}'" for a in uses)
            raise InvalidActionError(f"{entry!r} could be {either}; type the one you mean")
        if screen.shorthand(entry) is None:
            raise InvalidActionError(f"no legal action uses {card} now")
    try:
        return game.parse_action(entry)
    except CardtableError as exc:
        expanded = screen.shorthand(entry)
        if expanded is None:
            raise InvalidActionError(f"cannot read {entry!r}: {exc}") from exc
        return game.parse_action(expanded)


def menu_order(legal: Sequence[Action], trump: str | None) -> list[Action]:
    """The legal actions in the order of the menu: each verb where the engine first lists
    it, and the cards within a verb in the order "Your hand" shows them (trumps last,
    :func:`cardtable.terminal.cards.hand_key`)."""
    verbs: dict[str, int] = {}
    for action in legal:
        verbs.setdefault(action.verb, len(verbs))

    def key(action: Action) -> tuple[int, int, int]:
        if isinstance(action.arg, Card):
            return (verbs[action.verb], *hand_key(action.arg, trump))
        if isinstance(action.arg, Suit):
            return verbs[action.verb], SUIT_ORDER.index(action.arg), 0
        return verbs[action.verb], 0, 0

    return sorted(legal, key=key)  # stable: actions with no card keep the engine's order


def _typed(action: Action) -> str:
    """An action as a person types it: ``beat qs``, ``trump h``, ``take``."""
    if isinstance(action.arg, Card):
        return f"{action.verb} {str(action.arg).lower()}"
    if isinstance(action.arg, Suit):
        return f"{action.verb} {action.arg.letter.lower()}"
    return action.verb


def hint_line(legal: Sequence[Action]) -> str:
    """What the prompt takes now, with examples from the actions legal now only."""
    examples: dict[str, str] = {}
    for action in legal:
        examples.setdefault(action.verb, _typed(action))
    forms = ", ".join(examples.values())
    card = next((a.arg for a in legal if isinstance(a.arg, Card)), None)
    suit = next((a.arg for a in legal if isinstance(a.arg, Suit)), None)
    alone = f", a card alone ({str(card).lower()})" if card is not None else ""
    alone += f", a suit alone ({suit.letter.lower()})" if suit is not None else ""
    if len(legal) == 1:
        return f"Enter 1 or {forms}, 'help' or 'quit'."
    return f"Enter a number (1-{len(legal)}), an action ({forms}){alone}, 'help' or 'quit'."


def help_table(screen: GameScreen) -> Table:
    """``help``: the game's actions (a screen's ``commands``) and what else the prompt takes,
    each with what it does."""
    table = Table.grid(padding=(0, 2))
    table.add_column(no_wrap=True)
    table.add_column()
    for form, meaning in [*getattr(screen, "commands", ()), *ENTRY_HELP]:
        table.add_row(Text(form), Text(meaning))
    return table


def _bare_card(entry: str) -> Card | None:
    """The card a one-word entry names, if it names one."""
    if " " in entry:
        return None
    try:
        return Card.parse(entry)
    except CardtableError:
        return None


@dataclass
class PlaySession:
    """One game at the terminal: the person at seat ``you`` and bots everywhere else."""

    console: Console
    state: State
    bots: dict[int, Bot]
    seed: int
    you: int = 0
    echo_input: bool = False  # print what was read when stdin is a pipe, for a readable log
    screen: GameScreen = field(init=False)
    names: list[str] = field(init=False)
    rngs: dict[int, random.Random] = field(init=False)

    def __post_init__(self) -> None:
        self.screen = screen_for(self.state.game.name)
        self.names = play_names(self.state.game.num_players, self.you)
        # One generator per seat, seeded from the game's seed, so --seed replays the bots too.
        self.rngs = {s: random.Random(f"{self.seed}:bot:{s}") for s in self.bots}

    def _print_lines(self, lines: Sequence[str]) -> None:
        for line in lines:
            self.console.print(line)

    def _warn(self, message: str) -> None:
        # Unwrapped, so an error's list of legal actions stays on one line.
        self.console.print(Text(message, style="yellow"), soft_wrap=True)

    def run(self) -> bool:
        """Play until the game ends (True) or the player quits (False)."""
        state = self.state
        self._print_lines(self.screen.opening(state.view(self.you), self.names))
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            before = state.view(self.you)
            if seat == self.you:
                chosen = self._ask()
                if chosen is None:
                    return False
                action = chosen
            else:
                bot = self.bots[seat]
                action = bot.choose(state.view(seat), state.legal_actions(), self.rngs[seat])
                state.apply(action, seat=seat)
            after = state.view(self.you)
            self._print_lines(self.screen.narrate(before, seat, action, after, self.names))
        self.console.print()
        self._print_lines(self.screen.result(state.view(self.you), self.names))
        return True

    def _menu(self, legal: Sequence[Action]) -> None:
        for number, action in enumerate(legal, 1):
            self.console.print(f"  {number:>2}. {self.screen.action_text(action)}")

    def _ask(self) -> Action | None:
        """The player's legal action, asking again until there is one; ``None`` to quit."""
        state = self.state
        view = state.view(self.you)
        legal = menu_order(state.legal_actions(), view.get("trump"))
        self.console.print()
        self.console.print(self.screen.table(view, self.names))
        self._menu(legal)
        self.console.print(hint_line(legal), style="dim", markup=False)
        while True:
            text = self._read("Your move: ")
            if text is None:
                return None
            word = text.strip().lower()
            if word in HELP_WORDS:
                self.console.print("You can enter:")
                self.console.print(Padding(help_table(self.screen), (0, 0, 0, 2)))
                self.console.print("Now:")
                self._menu(legal)
                continue
            if word in TABLE_WORDS:
                self.console.print(self.screen.table(view, self.names))
                self._menu(legal)
                continue
            try:
                action = read_entry(text, legal, state.game, self.screen)
            except CardtableError as exc:
                self._refuse(with_symbols(str(exc)), text, legal)
                continue
            if action is None:
                return None
            if action not in legal:
                message = f"{with_symbols(str(action))} is not legal now."
                self._refuse(message, text, legal, action)
                continue
            return state.apply(action, seat=self.you)

    def _refuse(
        self, message: str, text: str, legal: Sequence[Action], action: Action | None = None
    ) -> None:
        """An entry that cannot be played: why, in the screen's card symbols, and the menu."""
        self._warn(message)
        view = self.state.view(self.you)
        tried = action if action is not None else self._tried(text, legal)
        reason = None
        if tried is not None and tried not in legal:
            # The rules say why (cardtable.refusals), from the state: the person is the
            # seat to move, so nothing is said that its own view does not show.
            refusal = self.state.refusal(self.state.game.number_of(tried))
            reason = refusal_words(refusal, self.names)
        else:
            # An entry that names no action: a screen may still say why, in its rules'
            # words (Kryt'-navalivat' does).
            explain = getattr(self.screen, "explain", None)
            reason = explain(text, view) if explain is not None else None
        if reason:
            self.console.print(reason)
        self.console.print("Choose one of:")
        self._menu(legal)

    def _tried(self, text: str, legal: Sequence[Action]) -> Action | None:
        """The action a card typed alone would be, when no legal action uses it: the verb
        the legal card actions use now (a beat, if any), else the game's first card verb."""
        card = _bare_card(text.strip())
        if card is None:
            return None
        verbs = [a.verb for a in legal if isinstance(a.arg, Card)]
        if verbs:
            verb = "beat" if "beat" in verbs else verbs[0]
        else:
            verb = next(a.verb for a in self.state.game.actions if isinstance(a.arg, Card))
            if verb == "lead" and self.state.view(self.you).get("pile"):
                verb = "beat"
        try:
            return self.state.game.parse_action(f"{verb} {card}")
        except CardtableError:
            return None

    def _read(self, prompt: str) -> str | None:
        """A line of input, or ``None`` when the input has ended."""
        try:
            text = self.console.input(prompt)
        except EOFError:
            self.console.print()
            return None
        if self.echo_input:
            self.console.print(text, markup=False, highlight=False)
        return text


def save_record(state: State, path: Path) -> None:
    """Write the game's record as indented JSON."""
    path.write_text(state.record().to_json(indent=2) + "\n", encoding="utf-8")


def replay_record(
    console: Console,
    record: Record,
    *,
    step: bool,
    read_line: Callable[[str], str],
) -> State:
    """Show a record action by action through the spectator's view.

    Every action is checked first (the whole record is replayed), so a bad record fails
    with :class:`cardtable.InvalidRecordError` before anything is shown. With ``step``
    it waits for Enter between actions; ``q`` or the end of input shows the rest at once.
    """
    final = cardtable.replay(record)
    screen = screen_for(record.game)
    state = cardtable.replay(replace(record, actions=[]))
    names = [f"seat {s}" for s in range(state.game.num_players)]
    total = len(record.actions)
    options = ", ".join(f"{k}={v}" for k, v in final.game.options.items())
    console.print(f"Replaying {record.game} ({options}), seed {record.seed}: {total} actions.")
    for line in screen.opening(state.view(None), names):
        console.print(line)
    console.print(screen.table(state.view(None), names))
    for number, text in enumerate(record.actions, 1):
        if step:
            try:
                answer = read_line("Enter for the next action, q to run to the end: ")
            except EOFError:
                answer = "q"
            if answer.strip().lower() in QUIT_WORDS:
                step = False
        seat = state.to_move
        assert seat is not None
        before = state.view(None)
        action = state.apply(text)
        after = state.view(None)
        lines = screen.narrate(before, seat, action, after, names)
        console.print(f"{number:>3}/{total} {lines[0]}")
        for line in lines[1:]:
            console.print(f"        {line}")
        if step or screen.milestone(before, after):
            console.print(screen.table(after, names))
    console.print()
    if state.is_over:
        for line in screen.result(state.view(None), names):
            console.print(line)
    else:
        console.print("The record ends here: the game is unfinished.")
    return state


def tally_line(tally: dict[str, Any], names: Sequence[str]) -> str:
    """KRYT-7.4: no scores, only who was the fool how often, and the draws."""
    fools = ", ".join(f"{names[s]} {n}" for s, n in enumerate(tally["losses"]))
    hands = tally["hands"]
    return (
        f"Tally after {hands} hand{'s' * (hands != 1)}: times the fool: {fools}; "
        f"draws: {tally['draws']}."
    )


@dataclass
class HandsPlay:
    """Kryt'-navalivat' hands in a row at the terminal: the person at seat ``you``.

    After each hand the result and the tally are shown; with ``hands`` set the session
    stops after that many hands, otherwise it asks whether to deal another. The fool deals
    the next hand, or after a draw the same dealer again (KRYT-2.1, KRYT-7.5, K-8).
    """

    console: Console
    session: Session
    bots: dict[int, Bot]
    you: int = 0
    echo_input: bool = False
    hands: int | None = None
    names: list[str] = field(init=False)

    def __post_init__(self) -> None:
        self.names = play_names(len(self.session.losses), self.you)

    def run(self) -> bool:
        """Play hands until the session ends (True) or the player quits mid-hand (False)."""
        session = self.session
        while True:
            number = len(session.hands)
            total = "" if self.hands is None else f" of {self.hands}"
            self.console.print()
            self.console.print(f"[bold]Hand {number}{total}[/bold]")
            state = session.state
            # Each hand's own seed seeds its bots, so a session replays from --seed.
            hand = PlaySession(
                console=self.console,
                state=state,
                bots=self.bots,
                seed=session.seeds[-1],
                you=self.you,
                echo_input=self.echo_input,
            )
            if not hand.run():
                return False
            self.console.print(tally_line(session.tally, self.names))
            if self.hands is not None:
                if number >= self.hands:
                    return True
            elif not self._another():
                return True
            fool = session.fool
            session.next_hand()
            dealer = self.names[session.dealers[-1]]
            if fool is None:
                self.console.print(f"After the draw {dealer} deals again (KRYT-7.5).")
            else:
                self.console.print(f"{dealer}, the fool, deals the next hand (KRYT-2.1).")

    def _another(self) -> bool:
        """Whether to deal another hand; the end of input says no."""
        while True:
            try:
                text = self.console.input("Play another hand? [Y/n] ")
            except EOFError:
                self.console.print()
                return False
            if self.echo_input:
                self.console.print(text, markup=False, highlight=False)
            answer = text.strip().lower()
            if answer in YES_WORDS:
                return True
            if answer in NO_WORDS:
                return False
            self.console.print(Text(f"Answer y or n, not {text.strip()!r}.", style="yellow"))


def save_session(session: Session, path: Path) -> None:
    """Write the session (every hand's record, format ``cardtable-session``) as JSON."""
    path.write_text(session.to_json(indent=2) + "\n", encoding="utf-8")


def replay_session(
    console: Console,
    session: Session,
    *,
    step: bool,
    read_line: Callable[[str], str],
) -> Session:
    """Show a saved session hand by hand, each as :func:`replay_record` shows a record,
    and the tally at the end. ``session`` was loaded with every hand checked."""
    names = [f"seat {s}" for s in range(len(session.losses))]
    count = len(session.hands)
    options = ", ".join(f"{k}={v}" for k, v in session.options.items())
    console.print(
        f"Replaying a session of {session.state.game.name} "
        f"({options}), seed {session.seed}: {count} hand{'s' * (count != 1)}."
    )
    for number, hand in enumerate(session.hands, 1):
        console.print()
        console.print(f"[bold]Hand {number} of {count}[/bold]")
        replay_record(console, hand.record(), step=step, read_line=read_line)
    console.print()
    console.print(tally_line(session.tally, names))
    return session
