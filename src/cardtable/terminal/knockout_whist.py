"""Knockout Whist in the terminal: the table, the narration and short entries.

Only views are read (KOW-9): a seat's own hand when the view is a seat's, and public
facts otherwise: trump, turned and cut cards, the trick, tricks won, statuses, dealer
and chooser.
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

__all__ = ["SCREEN", "KnockoutWhistScreen"]

HANDS = 7
# ``help``: this game's actions, as they are typed.
COMMANDS = (
    ("play CARD", "play a card to the trick: play 7d, or 7d; follow suit if you can (KOW-4.2)"),
    ("knock", "on a dog's life: keep your one card for a later trick (KOW-6.3)"),
    ("trump SUIT", "name the trump suit: trump h, or h alone (KOW-5.3)"),
)


class KnockoutWhistScreen:
    """The :class:`cardtable.terminal.GameScreen` of Knockout Whist."""

    commands = COMMANDS

    def table(self, view: View, names: Sequence[str]) -> RenderableType:
        n = view["players"]
        hand_no = view["hand_number"]
        size = view["hand_size"]
        title = f"Knockout Whist · hand {hand_no} of {HANDS} · {size} card{'s' * (size != 1)}"
        facts: list[str] = []
        if view["trump"] is not None:
            trump = f"Trumps: {suit_markup(view['trump'])}"
            if view["turned"] is not None:
                trump += f" (turned card {card_markup(view['turned'])})"
            elif view["chooser"] is not None:
                trump += f" (named by {names[view['chooser']]})"
            facts.append(trump)
        elif view["phase"] == "trump" and view["chooser"] is not None:
            facts.append(f"Trumps: not named yet; {names[view['chooser']]} chooses")
        facts.append(f"Dealer: {names[view['dealer']]}")
        if view["cuts"]:
            rounds = " / ".join(plays_markup(r, names) for r in view["cuts"])
            facts.append(f"Cut for the trump choice: {rounds}")
        facts.append("Dog's life: " + ("used" if view["dog_used"] else "not used yet"))

        out_hand = {seat: hand for seat, hand in view["eliminated"]}
        in_trick = {int(s): c for s, c in view["trick"]}
        seats = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
        for column in ("seat", "status", "cards", "tricks", "this trick", ""):
            seats.add_column(column)
        for seat in range(n):
            status = view["statuses"][seat]
            if status == "out" and seat in out_hand:
                status = f"out (hand {out_hand[seat]})"
            played = in_trick.get(seat)
            marks = []
            if seat == view["dealer"]:
                marks.append("dealer")
            if seat == view["chooser"]:
                marks.append("chooser")
            if seat == view["to_move"]:
                marks.append("[bold]◀ to move[/bold]")
            seats.add_row(
                names[seat],
                status,
                str(view["hand_sizes"][seat]),
                str(view["tricks_won"][seat]),
                "" if played is None else ("knock" if played == "knock" else card_markup(played)),
                ", ".join(marks),
            )

        lines: list[RenderableType] = [Text.from_markup(f"[bold]{title}[/bold]")]
        lines.extend(Text.from_markup(f) for f in facts)
        lines.append(seats)
        if view["phase"] == "play":
            number = len(view["tricks"]) + 1
            so_far = plays_markup(view["trick"], names) or "no cards yet"
            lines.append(Text.from_markup(f"Trick {number} of {size}: {so_far}"))
        if view.get("hand") is not None:
            hand = hand_markup(view["hand"], view["trump"]) or "no cards"
            lines.append(Text.from_markup(f"Your hand: {hand}"))
        if view["phase"] == "over":
            lines.append(Text("The game is over."))
        elif view["to_move"] is not None:
            mover = view["to_move"]
            doing = "to name trumps" if view["phase"] == "trump" else "to play"
            lines.append(Text.from_markup(f"[bold]{names[mover]}[/bold] {doing}."))
        return Group(*lines)

    def action_text(self, action: Action) -> str:
        if action.verb == "play" and isinstance(action.arg, Card):
            return f"play {card_markup(str(action.arg))}"
        if action.verb == "trump" and action.arg is not None:
            return f"trump {suit_markup(str(action.arg))}"
        return str(action)

    def opening(self, view: View, names: Sequence[str]) -> list[str]:
        hand_no = view["hand_number"]
        size = view["hand_size"]
        dealer = names[view["dealer"]]
        line = f"Hand {hand_no}: {dealer} deals {size} card{'s' * (size != 1)} each"
        dogs = [names[s] for s, st in enumerate(view["statuses"]) if st == "dog"]
        if dogs:
            line += f" (1 to {', '.join(dogs)}, on a dog's life)"
        lines = [line + "."]
        if view["turned"] is not None:
            lines.append(
                f"The turned card is {card_markup(view['turned'])}: "
                f"{suit_markup(view['trump'])} are trumps."
            )
        for round_no, round_ in enumerate(view["cuts"], 1):
            again = " again" if round_no > 1 else ""
            lines.append(f"Tied for most tricks, they cut{again}: {plays_markup(round_, names)}.")
        if view["chooser"] is not None:
            lines.append(f"{names[view['chooser']]} chooses trumps.")
        return lines

    def narrate(
        self, before: View, seat: int, action: Action, after: View, names: Sequence[str]
    ) -> list[str]:
        who = names[seat]
        if action.verb == "trump":
            return [f"{who} names {suit_markup(str(action.arg))} as trumps."]
        led = any(c != "knock" for _, c in before["trick"])
        if action.verb == "knock":
            lines = [f"{who} knocks" + ("." if led else ", passing the lead.")]
            played = "knock"
        else:
            played = str(action.arg)
            lines = [f"{who} {'plays' if led else 'leads'} {card_markup(played)}."]
        if not self._trick_closed(before, after):
            return lines
        trick = [*before["trick"], [seat, played]]
        winner = trick_winner(trick, before["trump"])
        lines.append(f"{names[winner]} wins the trick.")
        if after["phase"] != "over" and after["hand_number"] == before["hand_number"]:
            return lines
        won = list(before["tricks_won"])
        won[winner] += 1
        dealt = [s for s, st in enumerate(before["statuses"]) if st != "out"]
        counts = ", ".join(f"{names[s]} {won[s]}" for s in dealt)
        lines.append(f"Hand {before['hand_number']} ends. Tricks: {counts}.")
        for s in dealt:
            was, now = before["statuses"][s], after["statuses"][s]
            if now == "dog" and was != "dog":
                lines.append(f"{names[s]} took no trick and goes on a dog's life.")
            elif was == "dog" and now == "active":
                lines.append(f"{names[s]} took a trick and is back in the game.")
            elif now == "out":
                why = "took no trick and " if won[s] == 0 else ""
                lines.append(f"{names[s]} {why}is knocked out.")
        if after["phase"] != "over":
            lines.extend(self.opening(after, names))
        return lines

    def result(self, view: View, names: Sequence[str]) -> list[str]:
        winner = view["winner"]
        if winner is None:
            return ["The game is not over."]
        groups: dict[int, list[str]] = {}
        for seat, hand in view["eliminated"]:
            groups.setdefault(hand, []).append(names[seat])
        order = "; ".join(f"hand {h}: {', '.join(groups[h])}" for h in sorted(groups))
        return [
            f"[bold]{names[winner]} wins the game.[/bold]",
            f"Elimination order: {order or 'nobody'}.",
        ]

    def shorthand(self, text: str) -> str | None:
        word = text.strip()
        if not word or " " in word:
            return None
        try:
            Card.parse(word)
            return f"play {word}"
        except InvalidCardError:
            pass
        try:
            Suit.parse(word)
            return f"trump {word}"
        except InvalidCardError:
            return None

    def milestone(self, before: View, after: View) -> bool:
        return self._trick_closed(before, after) or after["phase"] == "over"

    @staticmethod
    def _trick_closed(before: View, after: View) -> bool:
        return (
            after["hand_number"] != before["hand_number"]
            or after["phase"] == "over"
            or len(after["tricks"]) > len(before["tricks"])
        )


SCREEN = KnockoutWhistScreen
"""The game's screen in the terminal (:mod:`cardtable.parts`)."""
