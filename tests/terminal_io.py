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
