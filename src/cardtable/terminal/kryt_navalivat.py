"""Kryt'-navalivat' in the terminal: the table, the narration, short entries and the reasons
an entry cannot be played.

Only views are read (KRYT-9): a seat's own hand when the view is a seat's, and public facts
otherwise: the trump suit and the turned card, the stock count, the whole pile (K-10), what
a pick-up would take, every hand's size, the cards each seat is known to hold, who is out.
Narration compares the views before and after an action, so a bot's draw is told as a
count, never as cards.
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
from cardtable.rules.kryt_navalivat.beating import ACE, NO_SUIT, beats
from cardtable.terminal.cards import card_markup, counted, hand_markup, suit_markup

__all__ = ["SCREEN", "KrytNavalivatScreen", "pile_markup", "take_markup"]

# ``help``: this game's actions, as they are typed.
COMMANDS = (
    ("lead CARD", "put any card on the empty pile: lead 7d, or 7d (KRYT-4.1)"),
    (
        "beat CARD",
        "beat the top card with CARD, a higher card of its suit or a trump (KRYT-3), "
        "then cover your beat (KRYT-4.2a)",
    ),
    ("cover CARD", "put any card you hold on your beat (KRYT-4.2a)"),
    ("take", "pick up from the pile instead: 1 card, 3, or the whole pile (KRYT-5)"),
    ("swap", "your six of trumps for the turned card, before your move (KRYT-6)"),
)
VERBS = ("lead", "beat", "cover")


def _cards(cards: Sequence[str]) -> str:
    return " ".join(card_markup(c) for c in cards)


def trump_line(view: View) -> str:
    """KRYT-2.4 or KRYT-8.1: the trump suit, with the turned card or the anti-trump suit."""
    trump = suit_markup(view["trump"])
    if view["anti_trump"] is not None:
        return f"permanent: {trump} trump, {suit_markup(view['anti_trump'])} anti-trump"
    if view["trump_card"] is not None:
        return f"{trump} (turned card {card_markup(view['trump_card'])} under the stock)"
    return f"{trump} (the turned card has been drawn)"


def pile_markup(pile: Sequence[str]) -> str:
    """The whole pile, bottom to top (it is public, K-10)."""
    if not pile:
        return "empty"
    return f"{counted(len(pile), 'card')}, top last: {_cards(pile)}"


def take_markup(view: View) -> str | None:
    """KRYT-5 / KRYT-9: what a pick-up would take now and the card then on top; ``None``
    when nothing can be picked up (an empty pile, or between a beat and its cover)."""
    pile, taken = view["pile"], view["would_take"]
    if not pile or not taken:
        return None
    left = len(pile) - len(taken)
    after = f"then on top: {card_markup(pile[left - 1])}" if left else "then the pile is empty"
    return f"A pick-up now takes {counted(len(taken), 'card')}: {_cards(taken)}; {after}"


class KrytNavalivatScreen:
    """The :class:`cardtable.terminal.GameScreen` of Kryt'-navalivat'."""

    commands = COMMANDS

    def table(self, view: View, names: Sequence[str]) -> RenderableType:
        players = int(view["players"])
        title = f"Kryt'-navalivat' · {players} players · trumps: {trump_line(view)}"
        facts = [
            f"Dealer: {names[view['dealer']]}",
            f"Stock: {counted(int(view['stock']), 'card')}"
            + (" (the turned card included)" if view["trump_card"] is not None else ""),
            f"Pile: {pile_markup(view['pile'])}",
        ]
        takes = take_markup(view)
        if takes is not None:
            facts.append(takes)

        out = {int(s) for s in view["out"]}
        seats = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
        for column in ("seat", "cards", "known to hold", ""):
            seats.add_column(column)
        for seat in range(players):
            marks = []
            if seat in out:
                marks.append("out (safe)")
            if seat == view["dealer"]:
                marks.append("dealer")
            if seat == view["loser"]:
                marks.append("[bold]the fool[/bold]")
            if seat == view["to_move"]:
                marks.append("[bold]◀ to move[/bold]")
            seats.add_row(
                names[seat],
                str(view["hand_sizes"][seat]),
                _cards(view["known"][seat]) or "-",
                ", ".join(marks),
            )

        lines: list[RenderableType] = [Text.from_markup(f"[bold]{title}[/bold]")]
        lines.extend(Text.from_markup(f) for f in facts)
        lines.append(seats)
        if view.get("hand") is not None:
            hand = hand_markup(view["hand"], view["trump"]) or "no cards"
            lines.append(Text.from_markup(f"Your hand: {hand}"))
        lines.append(Text.from_markup(self._turn(view, names)))
        return Group(*lines)

    @staticmethod
    def _turn(view: View, names: Sequence[str]) -> str:
        """Whose turn it is and the mode (KRYT-4.1 … KRYT-4.3)."""
        mode = view["phase"]
        if mode == "over":
            if view["draw"]:
                return "The hand is over: a draw."
            return f"The hand is over: {names[view['loser']]} is the fool."
        who = f"[bold]{names[view['to_move']]}[/bold]"
        if mode == "lead":
            return f"{who} to lead (the pile is empty): any card."
        top = card_markup(view["pile"][-1])
        if mode == "respond":
            return f"{who} to respond: beat {top} and cover the beat, or pick up."
        if mode == "cover":
            return f"{who} to cover the beat {top} with any card."
        return f"{who} has a free card (KRYT-4.3): lead any card, beat {top}, or pick up."

    def action_text(self, action: Action) -> str:
        if action.verb == "lead" and isinstance(action.arg, Card):
            return f"lead {card_markup(str(action.arg))}"
        if action.verb in ("beat", "cover") and isinstance(action.arg, Card):
            # "beat A♥" could read as beating the A♥: the card named is the one played.
            return f"{action.verb} with {card_markup(str(action.arg))}"
        if action.verb == "take":
            return "take (pick up from the pile)"
        if action.verb == "swap":
            return "swap (your six of trumps for the turned card)"
        return str(action)

    def opening(self, view: View, names: Sequence[str]) -> list[str]:
        dealer = names[view["dealer"]]
        lines = [f"{dealer} deals 3 cards each."]
        trump = suit_markup(view["trump"])
        if view["anti_trump"] is not None:
            anti = suit_markup(view["anti_trump"])
            lines.append(f"Permanent trumps (KRYT-8): {trump} trump, {anti} anti-trump.")
        else:
            turned = card_markup(view["trump_card"])
            lines.append(f"The turned card is {turned}: {trump} are trumps.")
        lines.append(f"The stock holds {counted(int(view['stock']), 'card')}.")
        if view["to_move"] is not None:
            lines.append(f"{names[view['to_move']]} is first to lead.")
        return lines

    def narrate(
        self, before: View, seat: int, action: Action, after: View, names: Sequence[str]
    ) -> list[str]:
        who = names[seat]
        card = str(action.arg) if isinstance(action.arg, Card) else ""
        taken: list[str] = []
        if action.verb == "lead":
            if before["phase"] == "free":
                lines = [f"{who} plays a free card: {card_markup(card)} (KRYT-4.3)."]
            else:
                lines = [f"{who} leads {card_markup(card)}."]
        elif action.verb == "beat":
            last = " with their last card" if after["hand_sizes"][seat] == 0 else ""
            top = card_markup(before["pile"][-1])
            lines = [f"{who} beats {top} with {card_markup(card)}{last}."]
        elif action.verb == "cover":
            lines = [f"{who} covers with {card_markup(card)}."]
        elif action.verb == "take":
            taken = list(before["would_take"])
            rest = len(before["pile"]) - len(taken)
            now = f"now on top: {card_markup(before['pile'][rest - 1])}" if rest else "pile empty"
            lines = [f"{who} picks up {counted(len(taken), 'card')}: {_cards(taken)} ({now})."]
        else:
            six = card_markup(f"6{before['trump']}")
            turned = card_markup(before["trump_card"])
            lines = [f"{who} swaps {six} for the turned card {turned} (KRYT-6)."]
            return lines
        lines.extend(self._after_turn(before, seat, after, names, taken))
        return lines

    @staticmethod
    def _after_turn(
        before: View, seat: int, after: View, names: Sequence[str], taken: Sequence[str]
    ) -> list[str]:
        """KRYT-4.4 and KRYT-7: the draw, going out, the stock running out."""
        lines: list[str] = []
        who = names[seat]
        drawn = int(before["stock"]) - int(after["stock"])
        if drawn:
            text = f"{who} draws {counted(drawn, 'card')}"
            if before["trump_card"] is not None and after["trump_card"] is None:
                turned = card_markup(before["trump_card"])
                text += (
                    f", the last of them the turned card {turned}"
                    if drawn > 1
                    else (f": the turned card {turned}")
                )
            mine = after.get("hand")
            if mine is not None and after["seat"] == seat:
                # The player's own view: the cards they drew are theirs to see.
                new = set(mine) - set(before["hand"]) - set(taken)
                text += f": {_cards(sorted(new, key=Card.parse))}"
            lines.append(text + ".")
            if not after["stock"]:
                lines.append("The stock is empty.")
        for gone in sorted(set(after["out"]) - set(before["out"])):
            lines.append(f"{names[gone]} has no cards left and goes out, safe (KRYT-7.1).")
        return lines

    def result(self, view: View, names: Sequence[str]) -> list[str]:
        if view["phase"] != "over":
            return ["The hand is not over."]
        if view["draw"]:
            return [
                "[bold]A draw: nobody is the fool.[/bold] The last card left beat the card "
                "put to it (KRYT-7.3)."
            ]
        loser = names[view["loser"]]
        return [f"[bold]{loser} is the fool[/bold]: the last one holding cards (KRYT-7.2)."]

    def shorthand(self, text: str) -> str | None:
        # A bare card is matched against the legal actions by the entry reader; here the
        # one-word forms of the other actions.
        word = text.strip().lower()
        if word in ("pick", "pickup", "pick up", "t"):
            return "take"
        words = word.split()
        if len(words) == 3 and words[0] in ("beat", "cover") and words[1] == "with":
            return f"{words[0]} {words[2]}"  # as the menu words it: "beat with 9♣"
        return None

    def explain(self, text: str, view: View) -> str | None:
        """Why an entry cannot be played now, in the rules' words; ``None`` when there is
        nothing more to say than the error itself."""
        words = text.strip().lower().split()
        if len(words) == 3 and words[1] == "with":
            del words[1]  # "beat with 9c", as the menu words it
        mode = view["phase"]
        if mode == "over" or not words:
            return None
        top = card_markup(view["pile"][-1]) if view["pile"] else ""
        if words == ["take"]:
            if mode == "lead":
                return "The pile is empty: there is nothing to pick up; lead a card."
            if mode == "cover":
                return f"You have beaten; now cover {top} with any card you hold (KRYT-4.2a)."
            return None
        if words == ["swap"]:
            return self._why_no_swap(view)
        verb, name = (words[0], words[1]) if len(words) == 2 else ("", words[0])
        if len(words) > 2 or (verb and verb not in VERBS):
            return None
        try:
            card = Card.parse(name)
        except InvalidCardError:
            return None
        shown = card_markup(str(card))
        if str(card) not in view.get("hand", []):
            return f"You do not hold {shown}."
        if mode == "lead" and verb != "lead":
            return "The pile is empty: lead a card (KRYT-4.1)."
        if mode == "cover" and verb not in ("", "cover"):
            return f"Cover your beat {top} first: put any card you hold on it (KRYT-4.2a)."
        if mode == "respond" and verb in ("lead", "cover"):
            return f"{top} is on top: beat it (then cover), or pick up (KRYT-4.2)."
        if mode in ("respond", "free") and verb in ("", "beat"):
            return self._why_no_beat(card, view)
        return None

    @staticmethod
    def _why_no_beat(card: Card, view: View) -> str | None:
        """KRYT-3 and KRYT-8.2: what would beat the top card, when ``card`` does not."""
        top = Card.parse(view["pile"][-1])
        trump = int(Suit.parse(view["trump"]))
        anti = NO_SUIT if view["anti_trump"] is None else int(Suit.parse(view["anti_trump"]))
        if beats(card.index, top.index, trump, anti):
            return None
        shown, top_shown = card_markup(str(card)), card_markup(str(top))
        suit = top.suit.name.lower().rstrip("s")  # "a higher heart"
        if top.suit in (trump, anti) and top.index % 13 == ACE:
            what = "nothing beats it (KRYT-3.2, KRYT-8.2)"
        elif top.suit == trump:
            what = f"only a higher {suit} (a trump) beats it (KRYT-3.2)"
        elif top.suit == anti:
            what = f"only a higher {suit} beats an anti-trump (KRYT-8.2)"
        else:
            what = f"a higher {suit} or any trump beats it (KRYT-3.1)"
        return f"{shown} does not beat {top_shown}: {what}."

    @staticmethod
    def _why_no_swap(view: View) -> str:
        """KRYT-6.2 and K-9: when the six of trumps may not be swapped."""
        six = f"6{view['trump']}"
        if view["anti_trump"] is not None:
            return "No card is turned with permanent trumps, so there is no swap (KRYT-8.1)."
        if view["trump_card"] is None:
            return "The turned card has been drawn: there is nothing to swap (KRYT-6.2)."
        if view["trump_card"] == six:
            return "The turned card is the six itself (KRYT-6.2)."
        if six not in view.get("hand", []):
            return f"Only the holder of the six of trumps, {card_markup(six)}, may swap."
        return "Swap before your main action, on your own turn (KRYT-6.3)."

    def milestone(self, before: View, after: View) -> bool:
        """A pick-up that emptied the pile, the stock running out, or the end of the hand."""
        emptied = bool(before["pile"]) and not after["pile"]
        return emptied or (before["stock"] > 0 and after["stock"] == 0) or after["phase"] == "over"


SCREEN = KrytNavalivatScreen
"""The game's screen in the terminal (:mod:`cardtable.parts`)."""
