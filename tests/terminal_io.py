"""Driving the real ``cardtable`` command from the terminal tests, with piped input."""

from __future__ import annotations

import os
import re
import subprocess
import sys

from cardtable.cards import Card

PROMPT = "Your move:"


def run_cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """``python -m cardtable.cli ARGS`` with ``stdin`` piped in: no TTY, so no colour codes."""
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "TTY_COMPATIBLE")}
    env |= {"PYTHONIOENCODING": "utf-8", "COLUMNS": "120"}
    return subprocess.run(
        [sys.executable, "-m", "cardtable.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=env,
        timeout=60,
        check=False,
    )


def first_screen(output: str) -> str:
    """What the person sees before their first answer."""
    return output.split(PROMPT, 1)[0]


def mentions(text: str, card: str) -> bool:
    """Whether ``card`` appears as notation (``7C``) or as a symbol (``7♣``)."""
    symbol = Card.parse(card).symbol
    return bool(re.search(rf"(?<![0-9A-Za-z]){card}(?![0-9A-Za-z])", text)) or symbol in text


# The web table's hand order (src/cardtable/web/cards.js, sortHand): clubs, diamonds,
# spades, hearts, the trump suit moved last, each suit low to high. Written out here
# rather than taken from the terminal, which these tests check against it.
WEB_SUITS = "CDSH"
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
SHOWN_CARD = re.compile(r"(?<![0-9A-Za-z])(10|[2-9JQKA])([♣♦♥♠])")
LETTER = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}
MENU_LINE = re.compile(r"^\s+\d+\. (.*)$", re.MULTILINE)


def web_order(cards: list[str], trump: str | None) -> list[str]:
    """``cards`` as the web table sorts a hand, trumps last."""

    def key(card: str) -> tuple[int, int]:
        rank, suit = card[:-1], card[-1]
        return (9 if suit == trump else WEB_SUITS.index(suit)), RANKS.index(rank)

    return sorted(cards, key=key)


def shown_cards(text: str) -> list[str]:
    """The cards ``text`` draws (``7♦``), in order, in notation (``7D``)."""
    return [rank + LETTER[suit] for rank, suit in SHOWN_CARD.findall(text)]


def hand_line(screen: str) -> list[str]:
    """The cards of the last "Your hand:" line of ``screen``, in the order shown."""
    line = [ln for ln in screen.splitlines() if ln.startswith("Your hand:")][-1]
    return shown_cards(line)


def menu_entries(screen: str) -> list[str]:
    """The entries of the numbered menu that ends ``screen`` (before the hint below it)."""
    lines = screen.splitlines()
    while lines and not MENU_LINE.match(lines[-1]):
        lines.pop()  # the hint below the menu
    entries: list[str] = []
    while lines and (entry := MENU_LINE.match(lines[-1])) is not None:
        entries.insert(0, entry[1])
        lines.pop()
    return entries
