"""The ``cardtable`` command: terminal play against bots and replays (DESIGN.md "Layers").

Most tests drive the real command through a pipe, as a person at a terminal would:
``python -m cardtable.cli`` with input written to its stdin. The expected facts (legal
actions, winners, who went out) come from the engine, never from the command's output.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
import typer
from rich.console import Console
from typer.core import TyperGroup
from typer.testing import CliRunner

import cardtable
from cardtable.cards import Card, Suit
from cardtable.cli import app
from cardtable.core import Action, State
from cardtable.errors import CardtableError
from cardtable.terminal.knockout_whist import KnockoutWhistScreen
from cardtable.terminal.session import menu_order, play_names, read_entry
from terminal_io import (
    PROMPT,
    first_screen,
    hand_line,
    mentions,
    menu_entries,
    run_cli,
    shown_cards,
    web_order,
)

GAME = "knockout-whist"
SEED = 5
# Dealer 2 of 3 puts seat 0, the person, on the lead of the first trick (KOW-4.1).
TABLE = ["--players", "3", "--seed", str(SEED), "--dealer", "2"]
WINNER = re.compile(r"^(seat \d+)(?: \(you\))? wins the game\.$", re.MULTILINE)
ELIMINATED = re.compile(r"^Elimination order: (.*)\.$", re.MULTILINE)


def start_state() -> State:
    """The state the command deals for ``TABLE``: the same game, seed and dealer."""
    return cardtable.make(GAME, players=3, dealer=2).new_state(seed=SEED)


@pytest.fixture(scope="module")
def finished_game(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    """A whole seeded 3-player game, answering every question with "1"."""
    record = tmp_path_factory.mktemp("play") / "game.json"
    done = run_cli("play", GAME, *TABLE, "--record", str(record), stdin="1\n" * 400)
    assert done.returncode == 0, done.stderr
    return done.stdout, record


# A whole game -----------------------------------------------------------------------------


def test_whole_game_ends_with_the_winner_and_elimination_order(
    finished_game: tuple[str, Path],
) -> None:
    """KOW-7: the result is the winner plus the elimination order, as the engine has it."""
    output, record = finished_game
    final = cardtable.replay(record.read_text(encoding="utf-8"))
    assert final.is_over and final.result is not None
    winners = WINNER.findall(output)
    assert winners == [f"seat {final.result.winners[0]}"]
    eliminated = final.view(None)["eliminated"]
    groups: dict[int, list[int]] = {}
    for seat, hand in eliminated:
        groups.setdefault(hand, []).append(seat)
    expected = "; ".join(
        f"hand {h}: " + ", ".join(play_names(3)[s] for s in groups[h]) for h in sorted(groups)
    )
    assert ELIMINATED.findall(output) == [expected]
    assert len(eliminated) == 2  # three players, one winner


def test_whole_game_output_is_plain_text_when_piped(finished_game: tuple[str, Path]) -> None:
    """Piped output carries no escape codes, and no traceback."""
    output, _ = finished_game
    assert "\x1b[" not in output
    assert "Traceback" not in output


def test_whole_game_narrates_every_bot_action(finished_game: tuple[str, Path]) -> None:
    """Every action is told as it happens: each play, knock and trump naming gets a line."""
    output, record = finished_game
    actions = json.loads(record.read_text(encoding="utf-8"))["actions"]
    told = re.findall(r"^seat \d+(?: \(you\))? (?:leads|plays|knocks|names) ", output, re.M)
    assert len(told) == len(actions)


def test_same_seed_replays_the_same_game(finished_game: tuple[str, Path], tmp_path: Path) -> None:
    """--seed fixes the deals and the bots' choices: the same answers give the same record."""
    _, record = finished_game
    again = tmp_path / "again.json"
    done = run_cli("play", GAME, *TABLE, "--record", str(again), stdin="1\n" * 400)
    assert done.returncode == 0, done.stderr
    assert json.loads(again.read_text(encoding="utf-8")) == json.loads(
        record.read_text(encoding="utf-8")
    )


# Entries: numbers, notation, mistakes, quitting -------------------------------------------


def test_malformed_and_illegal_entries_are_explained_and_asked_again(tmp_path: Path) -> None:
    """Bad input gets the engine's specific error, the legal list, and a new prompt."""
    state = start_state()
    legal = state.legal_actions()
    held_by_seat_1 = state.view(1)["hand"][0]
    record = tmp_path / "game.json"
    stdin = f"play 99X\nplay {held_by_seat_1}\n1\nquit\n"
    done = run_cli("play", GAME, *TABLE, "--record", str(record), stdin=stdin)
    assert done.returncode == 0, done.stderr
    assert "cannot read 'play 99X': unknown rank '99'" in done.stdout
    # The refusal writes the card as the screen does (7♣, not 7C), and says why.
    shown = Card.parse(held_by_seat_1).symbol
    assert f"play {shown} is not legal now.\nYou do not hold {shown}.\n" in done.stdout
    assert f"play {held_by_seat_1} is not legal" not in done.stdout
    before_first_play = done.stdout.split("seat 0 (you) leads", 1)[0]
    assert before_first_play.count(PROMPT) == 3
    actions = json.loads(record.read_text(encoding="utf-8"))["actions"]
    first = menu_order(legal, state.view(0)["trump"])[0]
    assert actions[0] == str(first)  # the game went on with the valid third entry


@pytest.mark.parametrize("entry", ["full", "short", "number"])
def test_actions_by_notation_shorthand_or_number(entry: str, tmp_path: Path) -> None:
    """DESIGN.md "Canonical notation": 'play 9C', '9c' or its number in the menu all work."""
    state = start_state()
    chosen = menu_order(state.legal_actions(), state.view(0)["trump"])[2]
    assert isinstance(chosen.arg, Card)
    typed = {"full": str(chosen), "short": str(chosen.arg).lower(), "number": "3"}[entry]
    record = tmp_path / "game.json"
    runner = CliRunner()
    result = runner.invoke(
        app, ["play", GAME, *TABLE, "--record", str(record)], input=f"{typed}\nq\n"
    )
    assert result.exit_code == 0, result.output
    assert json.loads(record.read_text(encoding="utf-8"))["actions"][0] == str(chosen)


def test_end_of_input_mid_game_saves_a_replayable_record(tmp_path: Path) -> None:
    """Nothing is lost: at the end of input the record so far is saved and replays."""
    record = tmp_path / "game.json"
    done = run_cli("play", GAME, *TABLE, "--record", str(record), stdin="1\n1\n")
    assert done.returncode == 0, done.stderr
    assert "Game stopped unfinished" in done.stdout
    state = cardtable.replay(record.read_text(encoding="utf-8"))
    assert not state.is_over
    assert state.record().actions[0] == str(start_state().legal_actions()[0])
    assert state.to_move == 0  # it stopped waiting for the person's third answer


def test_read_entry_forms() -> None:
    """The entry reader: numbers from the menu, action text, short forms and quit."""
    game = cardtable.make(GAME, players=3)
    screen = KnockoutWhistScreen()
    legal = [Action("play", Card.parse(c)) for c in ("7D", "9D", "2S")]
    assert read_entry("2", legal, game, screen) == legal[1]
    assert read_entry("play 7D", legal, game, screen) == legal[0]
    assert read_entry(" 7d ", legal, game, screen) == legal[0]
    assert read_entry("7♦", legal, game, screen) == legal[0]
    assert read_entry("lead 2S", legal, game, screen) == legal[2]
    assert read_entry("knock", legal, game, screen) == Action("knock")
    assert read_entry("trump h", legal, game, screen) == Action("trump", Suit.HEARTS)
    assert read_entry("h", legal, game, screen) == Action("trump", Suit.HEARTS)
    assert read_entry("quit", legal, game, screen) is None
    for bad, words in [("4", "no action 4; enter 1-3"), ("0", "no action 0"), ("jump", "jump")]:
        with pytest.raises(CardtableError, match=words):
            read_entry(bad, legal, game, screen)


# What the person sees ---------------------------------------------------------------------


def test_first_screen_shows_own_hand_and_no_other_hand() -> None:
    """KOW-9: the screen is drawn from seat 0's view; other hands stay hidden."""
    state = start_state()
    done = run_cli("play", GAME, *TABLE, stdin="quit\n")
    assert done.returncode == 0, done.stderr
    # The input hint's examples are the person's own cards, typed in lowercase.
    screen = "\n".join(
        line for line in first_screen(done.stdout).splitlines() if not line.startswith("Enter ")
    )
    assert all(mentions(screen, c) for c in state.view(0)["hand"])
    hidden = state.view(1)["hand"] + state.view(2)["hand"]
    assert len(hidden) == 14
    shown = [c for c in hidden if mentions(screen, c)]
    assert shown == []
    turned = state.view(None)["turned"]
    assert Card.parse(turned).symbol in screen  # public: the turned card (KOW-3.1)


def test_menu_and_hand_list_the_cards_in_one_order_trumps_last() -> None:
    """The menu of actions and "Your hand" agree, in the web table's order: clubs,
    diamonds, spades, hearts, the trump suit (KOW-3.1) last, low to high; the numbers
    follow that order."""
    state = start_state()
    view = state.view(0)
    done = run_cli("play", GAME, *TABLE, stdin="1\nquit\n")
    assert done.returncode == 0, done.stderr
    screen = first_screen(done.stdout)
    expected = web_order(view["hand"], view["trump"])
    assert hand_line(screen) == expected
    # Seat 0 leads the first trick (KOW-4.1, KOW-4.2): every card is an action.
    assert menu_entries(screen) == [f"play {Card.parse(c).symbol}" for c in expected]
    assert any(c.endswith(view["trump"]) for c in expected)  # so the trumps come last
    assert shown_cards(menu_entries(screen)[-1])[0][-1] == view["trump"]
    assert f"seat 0 (you) leads {Card.parse(expected[0]).symbol}." in done.stdout


def test_help_explains_each_command() -> None:
    """'help' says what each entry does, then shows the actions again; 'table' redraws."""
    done = run_cli("play", GAME, *TABLE, stdin="help\ntable\nquit\n")
    assert done.returncode == 0, done.stderr
    after = done.stdout.split(f"{PROMPT} help", 1)[1].split(f"{PROMPT} table", 1)[0]
    lines = [" ".join(line.split()) for line in after.splitlines()]
    for form, words in [
        ("play CARD", "follow suit if you can (KOW-4.2)"),
        ("knock", "keep your one card for a later trick (KOW-6.3)"),
        ("trump SUIT", "name the trump suit"),
        ("a number", "the action with that number"),
        ("table", "show the table again"),
        ("quit", "stop here"),
    ]:
        assert any(line.startswith(form) and words in line for line in lines), form
    legal = menu_entries(after)
    assert len(legal) == len(start_state().legal_actions())
    redrawn = done.stdout.split(f"{PROMPT} table", 1)[1]
    assert "Knockout Whist · hand 1 of 7" in redrawn and "Your hand:" in redrawn


def test_hint_names_only_actions_legal_now() -> None:
    """The line under the menu gives examples of what can be typed now, from the person's
    own legal actions, and nothing that cannot be played (no knock, no trump naming)."""
    state = start_state()
    done = run_cli("play", GAME, *TABLE, stdin="quit\n")
    hint = [ln for ln in first_screen(done.stdout).splitlines() if ln.startswith("Enter ")]
    first = web_order(state.view(0)["hand"], state.view(0)["trump"])[0].lower()
    count = len(state.legal_actions())
    assert hint == [
        f"Enter a number (1-{count}), an action (play {first}), a card alone ({first}), "
        "'help' or 'quit'."
    ]


def test_table_renderer_draws_a_view() -> None:
    """The renderer takes a view: a seat's view shows its hand, a spectator's view none."""
    state = start_state()
    screen = KnockoutWhistScreen()
    names = play_names(3)

    def draw(seat: int | None) -> str:
        console = Console(file=io.StringIO(), width=120, no_color=True)
        console.print(screen.table(state.view(seat), names))
        text = console.file.getvalue()  # type: ignore[attr-defined]
        assert isinstance(text, str)
        return text

    own = draw(0)
    assert "Your hand" in own
    assert all(mentions(own, c) for c in state.view(0)["hand"])
    assert not any(mentions(own, c) for c in state.view(1)["hand"])
    spectator = draw(None)
    assert "Your hand" not in spectator
    for seat in range(3):
        assert not any(mentions(spectator, c) for c in state.view(seat)["hand"])
    assert "Trumps:" in spectator and "Dealer: seat 2" in spectator


def test_help_lists_the_commands() -> None:
    result = CliRunner().invoke(app, ["--help"])
    assert result.exit_code == 0
    assert "play" in result.output and "replay" in result.output


COMMANDS = ["play", "replay", "serve", "arena"]


def test_top_level_help_says_what_each_command_is_for() -> None:
    """The description above the list names every command, the web table's too."""
    result = CliRunner().invoke(app, ["--help"], env={"COLUMNS": "100"})
    assert result.exit_code == 0
    description = result.output.split("Usage:", 1)[1].split("\n", 1)[1].split("╭", 1)[0]
    for command in COMMANDS:
        assert f"({command})" in description, command
    assert "web table" in description


@pytest.mark.parametrize("command", [[], *([c] for c in COMMANDS)])
def test_help_shows_no_type_beside_a_flag(command: list[str]) -> None:
    """A flag takes no value: '--help' and '--tie-avoidance' are listed with no '<bool>'."""
    result = CliRunner().invoke(app, [*command, "--help"], env={"COLUMNS": "120"})
    assert result.exit_code == 0
    assert "--help" in result.output
    assert "<bool>" not in result.output
    if command == ["play"]:
        row = next(ln for ln in result.output.splitlines() if "--tie-avoidance" in ln)
        assert re.search(r"--tie-avoidance\s+Neuf, 3 players", row), row
    if command == ["serve"]:
        assert "<int>" in result.output  # options that take a value keep their type


def test_help_paragraphs_are_not_cut_mid_sentence() -> None:
    """Every command's help is sentences that wrap to the terminal, not to the source:
    on a wide terminal each paragraph is one line, in the list of commands and in the
    command's own help."""
    wide = {"COLUMNS": "400"}
    group = typer.main.get_command(app)
    assert isinstance(group, TyperGroup)
    listing = CliRunner().invoke(app, ["--help"], env=wide).output
    for name, command in group.commands.items():
        paragraphs = (command.help or "").split("\n\n")
        assert all("\n" not in p.strip() for p in paragraphs), name
        own = CliRunner().invoke(app, [name, "--help"], env=wide).output
        for paragraph in paragraphs:
            assert any(line.strip() == paragraph.strip() for line in own.splitlines()), name
        row = next(ln for ln in listing.splitlines() if ln.startswith(f"│ {name} "))
        assert paragraphs[0] in row and row.rstrip(" │").endswith("."), row


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["play", "chess"], "unknown game 'chess'"),
        (["play", GAME, "--players", "9"], "2 to 7 players"),
        (["play", GAME, "--players", "3", "--dealer", "3"], "dealer must be a seat 0-2"),
        (["play", GAME, "--bot", "ismcts:iterations=0"], "must be a positive whole number"),
        (["play", GAME, "--bot", "genius"], "unknown bot 'genius'"),
        (["play", GAME, "--bot", "cheater"], "plays only in the arena"),
    ],
)
def test_bad_game_or_option_is_a_clear_usage_error(args: list[str], words: str) -> None:
    """Bad input: a one-line explanation, exit status 2, no traceback."""
    done = run_cli(*args)
    assert done.returncode == 2
    assert words in done.stderr
    assert "Traceback" not in done.stdout + done.stderr


def test_bad_option_in_process() -> None:
    """The same through Typer's test runner: a usage error, not an exception."""
    result = CliRunner().invoke(app, ["play", GAME, "--players", "1"])
    assert result.exit_code == 2
    assert "2 to 7 players" in result.stderr


# Replays ----------------------------------------------------------------------------------


def test_replay_shows_every_action_and_the_result(finished_game: tuple[str, Path]) -> None:
    """A saved game steps through action by action to the same winner."""
    _, record = finished_game
    final = cardtable.replay(record.read_text(encoding="utf-8"))
    assert final.result is not None
    actions = final.record().actions
    done = run_cli("replay", str(record))
    assert done.returncode == 0, done.stderr
    numbered = re.findall(rf"^\s*(\d+)/{len(actions)} ", done.stdout, re.MULTILINE)
    assert [int(n) for n in numbered] == list(range(1, len(actions) + 1))
    assert WINNER.findall(done.stdout) == [f"seat {final.result.winners[0]}"]
    assert "Your hand" not in done.stdout  # the spectator's view (KOW-9)


def test_replay_step_waits_and_runs_on_at_end_of_input(finished_game: tuple[str, Path]) -> None:
    """--step waits for Enter between actions; when the input ends, the rest is shown."""
    _, record = finished_game
    total = len(json.loads(record.read_text(encoding="utf-8"))["actions"])
    done = run_cli("replay", str(record), "--step", stdin="\n\n")
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("Enter for the next action") == 3
    assert re.search(rf"^\s*{total}/{total} ", done.stdout, re.MULTILINE)


def test_replay_of_an_unfinished_game_says_so(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    run_cli("play", GAME, *TABLE, "--record", str(record), stdin="1\n")
    done = run_cli("replay", str(record))
    assert done.returncode == 0, done.stderr
    assert "the game is unfinished" in done.stdout


@pytest.mark.parametrize("damage", ["truncated", "bad action", "missing"])
def test_replay_of_a_bad_record_is_a_clear_error(
    damage: str, finished_game: tuple[str, Path], tmp_path: Path
) -> None:
    """Truncated or tampered records and missing files: a message, exit 1, no traceback."""
    _, record = finished_game
    text = record.read_text(encoding="utf-8")
    broken = tmp_path / "broken.json"
    if damage == "truncated":
        broken.write_text(text[: len(text) // 2], encoding="utf-8")
        words = "not valid JSON"
    elif damage == "bad action":
        data = json.loads(text)
        data["actions"][1] = "knock"  # nobody is a dog in hand 1
        broken.write_text(json.dumps(data), encoding="utf-8")
        words = "does not replay"
    else:
        words = "cannot read"
    done = run_cli("replay", str(broken))
    assert done.returncode == 1
    assert words in done.stderr
    assert "Traceback" not in done.stdout + done.stderr


def test_verify_counts_one_deck_and_one_reshuffle_in_the_singular(tmp_path: Path) -> None:
    """``cardtable verify`` says "1 deck" (a game of Kryt'-navalivat' is one deal, KRYT-2.3)
    and "1 reshuffle" (Knockout Whist's cut cards reshuffled once, KOW-5.3), never "1 decks"
    or "1 reshuffles"; more are plural."""
    import random

    from fair_games import play_fair_game

    rng = random.Random(3)
    kryt = play_fair_game("kryt-navalivat", {"players": 2, "trump_mode": "turned"}, rng)
    assert kryt is not None
    whist = None
    while whist is None or whist.reshuffles != 1:
        whist = play_fair_game("knockout-whist", {"players": 7}, rng, reshuffle=True)
    said = {}
    for name, game in (("kryt", kryt), ("whist", whist)):
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(game.record))
        result = CliRunner().invoke(app, ["verify", str(path)])
        assert result.exit_code == 0, result.output
        said[name] = result.output
    assert said["kryt"].startswith("verified: kryt-navalivat, 1 deck derived from the server seed")
    decks = len(whist.record["decks"])
    assert decks > 1
    assert said["whist"].startswith(
        f"verified: knockout-whist, {decks} decks and 1 reshuffle derived from the server seed"
    )
