"""Neuf in the terminal: the table, the score sheet, the narration and short entries.

Only views are read (NEUF-9): a seat's own hand when the view is a seat's, and public
facts otherwise: trump, dealer, who exchanged or kept, the trick, tricks won, scores and
the ledger. The spare stays hidden during a deal; the last deal's final spare is shown
once that deal is over (N-5).
"""

from __future__ import annotations

from collections.abc import Sequence

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from cardtable.cards import Card, Suit
from cardtable.core import Action, View
from cardtable.errors import InvalidCardError
from cardtable.terminal.cards import (
    card_markup,
    hand_markup,
    plays_markup,
    suit_markup,
    trick_winner,
)

__all__ = ["SCREEN", "NeufScreen", "score_sheet"]

TRICKS = 13
# ``help``: this game's actions, as they are typed.
COMMANDS = (
    ("exchange", "take the spare, unseen, and put your hand down in its place (NEUF-3.2)"),
    ("keep", "play the hand you hold (NEUF-3.2)"),
    ("play CARD", "play a card to the trick: play 7d, or 7d; follow suit if you can (NEUF-4.2)"),
)


def trump_markup(trump: str) -> str:
    """A deal's trump for the table: a suit, or ``no trump`` (NEUF-2.1)."""
    return "no trump" if trump == "NT" else suit_markup(trump)


def _cards_text(cards: Sequence[str]) -> str:
    return " ".join(card_markup(c) for c in sorted(cards, key=lambda c: Card.parse(c)))


def _side_names(players: int, names: Sequence[str], *, short: bool = False) -> list[str]:
    """Who each score belongs to: a seat, or a team of partners opposite (NEUF-8.4)."""
    if players == 3:
        return list(names)
    if short:
        return [f"team {t}" for t in range(2)]
    return [f"team {t} ({names[t]} + {names[t + 2]})" for t in range(2)]


def _side_tricks(view: View) -> list[int]:
    won = [int(t) for t in view["tricks_won"]]
    return won if view["players"] == 3 else [won[0] + won[2], won[1] + won[3]]


def score_sheet(view: View, names: Sequence[str]) -> Table:
    """NEUF-5.5: the ledger as a score sheet, one row per completed deal.

    A first row gives the starting scores; the total column falls by one per deal.
    """
    players = int(view["players"])
    sides = _side_names(players, names, short=True)
    sheet = Table(title="Score sheet", box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    for column in ("deal", "trump", "dealer", *sides, "total"):
        sheet.add_column(column, justify="right" if column not in ("trump", "dealer") else "left")
    start = 9
    sheet.add_row("start", "", "", *(str(start) for _ in sides), str(start * len(sides)))
    for row in view["ledger"]:
        sheet.add_row(
            str(row["deal"]),
            "NT" if row["trump"] == "NT" else Suit.parse(row["trump"]).symbol,
            names[row["dealer"]],
            *(str(s) for s in row["scores"]),
            str(row["total"]),
        )
    return sheet


class NeufScreen:
    """The :class:`cardtable.terminal.GameScreen` of Neuf."""

    commands = COMMANDS

    def table(self, view: View, names: Sequence[str]) -> RenderableType:
        players = int(view["players"])
        quota = int(view["quota"])
        title = f"Neuf · deal {view['deal_number']} · trumps: {trump_markup(view['trump'])}"
        facts = [f"Dealer: {names[view['dealer']]}"]
        if players == 3:
            decided = {int(s): d for s, d in view["exchanges"]}
            order = ", ".join(
                f"{names[s]} {'exchanged' if decided[s] == 'exchange' else 'kept'}"
                if s in decided
                else f"{names[s]} to decide"
                for s in view["exchange_order"]
            )
            facts.append(f"Exchange: {order}")
            facts.append(f"Quota: {quota} tricks each (9 points to start; lower is better)")
        else:
            facts.append(f"Quota: {quota} tricks a team; partners sit opposite (no exchange)")

        in_trick = {int(s): c for s, c in view["trick"]}
        seats = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
        for column in ("seat", "cards", "tricks", "this trick", ""):
            seats.add_column(column)
        for seat in range(players):
            played = in_trick.get(seat)
            marks = []
            if seat == view["dealer"]:
                marks.append("dealer")
            if seat == view["to_move"]:
                marks.append("[bold]◀ to move[/bold]")
            seats.add_row(
                names[seat],
                str(view["hand_sizes"][seat]),
                str(view["tricks_won"][seat]),
                "" if played is None else card_markup(played),
                ", ".join(marks),
            )

        lines: list[RenderableType] = [Text.from_markup(f"[bold]{title}[/bold]")]
        lines.extend(Text.from_markup(f) for f in facts)
        lines.append(seats)
        sides = _side_names(players, names)
        tally = ", ".join(
            f"{side} {won} of {quota}" for side, won in zip(sides, _side_tricks(view), strict=True)
        )
        lines.append(Text.from_markup(f"Tricks against the quota: {tally}"))
        scores = ", ".join(
            f"{side} {score}" for side, score in zip(sides, view["scores"], strict=True)
        )
        lines.append(Text.from_markup(f"Scores: {scores}"))
        if view["phase"] == "play":
            number = len(view["tricks"]) + 1
            so_far = plays_markup(view["trick"], names) or "no cards yet"
            lines.append(Text.from_markup(f"Trick {number} of {TRICKS}: {so_far}"))
        if view.get("hand") is not None:
            hand = hand_markup(view["hand"], view["trump"]) or "no cards"
            lines.append(Text.from_markup(f"Your hand: {hand}"))
            put_down = self._put_down(view, names)
            if put_down:
                lines.append(Text.from_markup(put_down))
        lines.append(score_sheet(view, names))
        if view["phase"] == "over":
            lines.append(Text("The game is over."))
        elif view["to_move"] is not None:
            doing = "to exchange or keep" if view["phase"] == "exchange" else "to play"
            lines.append(Text.from_markup(f"[bold]{names[view['to_move']]}[/bold] {doing}."))
        return Group(*lines)

    @staticmethod
    def _put_down(view: View, names: Sequence[str]) -> str | None:
        """NEUF-9: the hand this seat put down, and where it went (NEUF-3.2, 3.3)."""
        held = view.get("held") or []
        if len(held) < 2:
            return None
        seat = int(view["seat"])
        decisions = [(int(s), str(d)) for s, d in view["exchanges"]]
        mine = next(i for i, (s, d) in enumerate(decisions) if s == seat and d == "exchange")
        takers = [s for s, d in decisions[mine + 1 :] if d == "exchange"]
        where = f"taken by {names[takers[0]]}" if takers else "the spare"
        return f"You put down: {hand_markup(held[-2], view['trump'])} ({where})"

    def action_text(self, action: Action) -> str:
        if action.verb == "play" and isinstance(action.arg, Card):
            return f"play {card_markup(str(action.arg))}"
        if action.verb == "exchange":
            return "exchange (take the spare, unseen; put this hand down)"
        if action.verb == "keep":
            return "keep (play this hand)"
        return str(action)

    def opening(self, view: View, names: Sequence[str]) -> list[str]:
        dealer = names[view["dealer"]]
        trump = trump_markup(view["trump"])
        lines = [f"Deal {view['deal_number']}: {dealer} deals; trumps: {trump}."]
        if view["players"] == 3:
            lines.append(
                "Each player in turn may exchange for the spare or keep: "
                + ", ".join(names[s] for s in view["exchange_order"])
                + "."
            )
        return lines

    def narrate(
        self, before: View, seat: int, action: Action, after: View, names: Sequence[str]
    ) -> list[str]:
        who = names[seat]
        if action.verb == "exchange":
            return [f"{who} exchanges, taking the spare and putting their hand down."]
        if action.verb == "keep":
            return [f"{who} keeps their hand."]
        played = str(action.arg)
        led = bool(before["trick"])
        lines = [f"{who} {'plays' if led else 'leads'} {card_markup(played)}."]
        if not self._trick_closed(before, after):
            return lines
        trick = [*before["trick"], [seat, played]]
        winner = trick_winner(trick, before["trump"])
        lines.append(f"{names[winner]} wins the trick.")
        deal_over = len(after["ledger"]) > len(before["ledger"])
        if not deal_over:
            if after["phase"] == "over":
                # NEUF-8.3 / N-7: the house rule ends the game the moment a score crosses.
                lines.append(
                    f"{names[winner]} takes their score to {after['scores'][winner]} "
                    "and wins at once; the hand is abandoned unscored."
                )
            return lines
        row = after["ledger"][-1]
        sides = _side_names(int(before["players"]), names)
        counts = ", ".join(f"{s} {t}" for s, t in zip(sides, row["tricks"], strict=True))
        scores = ", ".join(f"{s} {p}" for s, p in zip(sides, row["scores"], strict=True))
        lines.append(f"Deal {row['deal']} ends. Tricks: {counts}.")
        lines.append(f"Scores: {scores} (total {row['total']}).")
        previous = after["previous_deal"]
        if previous is not None and previous["spare"] is not None:
            lines.append(f"The final spare was: {_cards_text(previous['spare'])}.")
        if after["phase"] != "over":
            lines.extend(self.opening(after, names))
        return lines

    def result(self, view: View, names: Sequence[str]) -> list[str]:
        winners = [int(s) for s in view["winners"]]
        if view["phase"] != "over" or not winners:
            return ["The game is not over."]
        players = int(view["players"])
        sides = _side_names(players, names)
        if players == 4:
            team = winners[0] % 2
            head = f"Team {team} ({' and '.join(names[s] for s in winners)}) wins the game."
        elif len(winners) > 1:
            # NEUF-6.3: equal scores at or below zero share the win.
            head = f"{' and '.join(names[s] for s in winners)} share the win."
        else:
            head = f"{names[winners[0]]} wins the game."
        scores = ", ".join(f"{s} {p}" for s, p in zip(sides, view["scores"], strict=True))
        return [f"[bold]{head}[/bold]", f"Final scores: {scores}."]

    def shorthand(self, text: str) -> str | None:
        word = text.strip()
        if not word or " " in word:
            return None
        try:
            Card.parse(word)
        except InvalidCardError:
            return None
        return f"play {word}"

    def milestone(self, before: View, after: View) -> bool:
        return self._trick_closed(before, after) or after["phase"] == "over"

    @staticmethod
    def _trick_closed(before: View, after: View) -> bool:
        return (
            after["deal_number"] != before["deal_number"]
            or after["phase"] == "over"
            or len(after["tricks"]) > len(before["tricks"])
        )


SCREEN = NeufScreen
"""The game's screen in the terminal (:mod:`cardtable.parts`)."""
