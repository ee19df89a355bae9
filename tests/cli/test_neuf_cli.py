"""``cardtable play neuf`` and Neuf replays (DESIGN.md "Layers"), driven through a pipe.

The expected facts (winners, scores, who holds which cards) come from the SPEC's rules
and from the engine's state for the same seed, never from the command's own output.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from rich.console import Console

import cardtable
from cardtable.cards import Card
from cardtable.core import Action, State
from cardtable.errors import CardtableError
from cardtable.rules.neuf.state import NeufState
from cardtable.rules.tricks import cards_text
from cardtable.terminal import screen_for
from cardtable.terminal.neuf import NeufScreen
from cardtable.terminal.session import play_names, read_entry
from terminal_io import PROMPT, first_screen, hand_line, mentions, menu_entries, run_cli, web_order

GAME = "neuf"
SEED = 5
# Dealer 2 of 3 makes seat 0, the person, first to decide (NEUF-3.1) and first to lead
# (NEUF-4.1). This seeded game lasts three deals: 126 actions, 42 of them the person's.
TABLE = ["--seed", str(SEED), "--dealer", "2"]
# Dealer 3 of 4 puts seat 0 on the first lead (NEUF-8.4, NEUF-4.1); five deals.
TABLE_4 = ["--players", "4", "--seed", str(SEED), "--dealer", "3"]
ANSWERS = "1\n" * 400
HINT_LINE = "(exchange, keep"
NARRATED = re.compile(r"^seat \d+(?: \(you\))? (leads|plays|exchanges|keeps)\b", re.MULTILINE)


def start_state() -> NeufState:
    """The state the command deals for ``TABLE``: the same game, seed and dealer."""
    state = cardtable.make(GAME, players=3, dealer=2).new_state(seed=SEED)
    assert isinstance(state, NeufState)
    return state


@pytest.fixture(scope="module")
def finished_game(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    """A whole seeded 3-player game, answering every question with "1"."""
    record = tmp_path_factory.mktemp("neuf") / "game.json"
    done = run_cli("play", GAME, *TABLE, "--record", str(record), stdin=ANSWERS)
    assert done.returncode == 0, done.stderr
    return done.stdout, record


def result_line(final: State) -> str:
    """NEUF-6.2/6.3 or NEUF-8.4: the winner line the engine's winners call for."""
    assert final.result is not None
    winners = final.result.winners
    names = play_names(final.game.num_players)
    if final.game.num_players == 4:
        return f"Team {winners[0] % 2} ({' and '.join(names[s] for s in winners)}) wins the game."
    if len(winners) > 1:
        return f"{' and '.join(names[s] for s in winners)} share the win."
    return f"{names[winners[0]]} wins the game."


def sheet_rows(output: str) -> list[list[str]]:
    """The rows of the last score sheet drawn in ``output``, split into cells."""
    block = output.rsplit("Score sheet", 1)[1].split("The game is over.", 1)[0]
    return [
        line.split()
        for line in block.splitlines()
        if line.strip() and (line.split()[0] == "start" or line.split()[0].isdigit())
    ]


# A whole game -----------------------------------------------------------------------------


def test_whole_game_ends_with_the_winners_and_final_scores(
    finished_game: tuple[str, Path],
) -> None:
    """NEUF-6: the game ends when a score reaches 0 or below; the lowest such score wins."""
    output, record = finished_game
    final = cardtable.replay(record.read_text(encoding="utf-8"))
    assert final.is_over and final.result is not None
    scores = final.view(None)["scores"]
    assert min(scores) <= 0
    assert [s for s in range(3) if scores[s] == min(scores)] == list(final.result.winners)
    assert result_line(final) in output
    finals = ", ".join(f"{play_names(3)[s]} {scores[s]}" for s in range(3))
    assert f"Final scores: {finals}." in output
    assert "\x1b[" not in output and "Traceback" not in output


def test_whole_game_narrates_every_action(finished_game: tuple[str, Path]) -> None:
    """NEUF-3.2, NEUF-4.2: every exchange, keep and card played gets a line as it happens."""
    output, record = finished_game
    actions = json.loads(record.read_text(encoding="utf-8"))["actions"]
    told = NARRATED.findall(output)
    assert len(told) == len(actions)
    decisions = [a for a in actions if a in ("exchange", "keep")]
    assert [t for t in told if t in ("exchanges", "keeps")] == [
        "exchanges" if d == "exchange" else "keeps" for d in decisions
    ]


def test_each_deal_ends_with_its_tricks_scores_and_revealed_spare(
    finished_game: tuple[str, Path],
) -> None:
    """NEUF-5.2 and N-5: each deal's result gives the scores and shows the final spare,
    13 cards (NEUF-3.4) that nobody played in that deal."""
    output, record = finished_game
    final = cardtable.replay(record.read_text(encoding="utf-8"))
    deals = len(final.view(None)["ledger"])
    assert len(re.findall(r"^Deal \d+ ends\. Tricks: ", output, re.MULTILINE)) == deals
    spares = re.findall(r"^The final spare was: (.*)\.$", output, re.MULTILINE)
    assert len(spares) == deals
    last = final.view(None)["previous_deal"]
    assert last is not None
    played = {c for trick in last["tricks"] for _, c in trick["plays"]}
    assert len(played) == 39
    assert sorted(spares[-1].split()) == sorted(Card.parse(c).symbol for c in last["spare"])
    assert not played & set(last["spare"])


def test_score_sheet_has_a_row_per_deal_and_the_total_falls_by_one(
    finished_game: tuple[str, Path],
) -> None:
    """NEUF-5.5: start at 9 each and 27 in all; each row gives the deal's trump (HDCS-NT,
    NEUF-2.1), its dealer (NEUF-2.2: passing left from seat 2), the scores and the total,
    which falls by one per row (NEUF-5.4)."""
    _, record = finished_game
    done = run_cli("replay", str(record))
    assert done.returncode == 0, done.stderr
    rows = sheet_rows(done.stdout)
    assert rows[0] == ["start", "9", "9", "9", "27"]
    deals = rows[1:]
    assert len(deals) >= 1
    for number, row in enumerate(deals, 1):
        deal, trump, _seat, dealer, *scores, total = row
        assert int(deal) == number
        cycle = ["♥", "♦", "♣", "♠", "NT"]
        assert trump == cycle[(number - 1) % 5]
        assert int(dealer) == (2 + number - 1) % 3
        assert int(total) == 27 - number
        assert sum(int(s) for s in scores) == int(total)


def test_same_seed_and_answers_replay_the_same_game(
    finished_game: tuple[str, Path], tmp_path: Path
) -> None:
    """--seed fixes the deals and the bots' choices: the same answers give the same record."""
    _, record = finished_game
    again = tmp_path / "again.json"
    done = run_cli("play", GAME, *TABLE, "--record", str(again), stdin=ANSWERS)
    assert done.returncode == 0, done.stderr
    assert json.loads(again.read_text(encoding="utf-8")) == json.loads(
        record.read_text(encoding="utf-8")
    )


def test_replay_shows_every_action_and_the_result(finished_game: tuple[str, Path]) -> None:
    """A saved Neuf game steps through action by action to the same winner, from the
    spectator's view (NEUF-9): no hand is shown."""
    _, record = finished_game
    final = cardtable.replay(record.read_text(encoding="utf-8"))
    total = len(final.record().actions)
    done = run_cli("replay", str(record))
    assert done.returncode == 0, done.stderr
    numbered = re.findall(rf"^\s*(\d+)/{total} ", done.stdout, re.MULTILINE)
    assert [int(n) for n in numbered] == list(range(1, total + 1))
    assert result_line(final).replace(" (you)", "") in done.stdout
    assert "Your hand" not in done.stdout


# The four-player game and the variants ----------------------------------------------------


def test_four_player_game_plays_to_a_team_win(tmp_path: Path) -> None:
    """NEUF-8.4: partners opposite, no exchange, the first team at 0 or below wins."""
    record = tmp_path / "four.json"
    done = run_cli("play", GAME, *TABLE_4, "--record", str(record), stdin=ANSWERS)
    assert done.returncode == 0, done.stderr
    final = cardtable.replay(record.read_text(encoding="utf-8"))
    assert final.is_over and final.result is not None
    assert result_line(final) in done.stdout
    assert "exchange" not in json.loads(record.read_text(encoding="utf-8"))["actions"]
    assert "Quota: 6 tricks a team" in done.stdout
    assert len(NARRATED.findall(done.stdout)) == len(final.record().actions)
    rows = sheet_rows(run_cli("replay", str(record)).stdout)
    assert rows[0] == ["start", "9", "9", "18"]


def test_dealer_exchanges_first_with_four_players_is_a_clear_usage_error() -> None:
    """NEUF-8.2 is a rule of the exchange, which the 4-player game has not (NEUF-8.4)."""
    done = run_cli("play", GAME, "--players", "4", "--dealer-exchanges-first")
    assert done.returncode == 2
    assert "dealer_exchanges_first" in done.stderr and "4-player" in done.stderr
    assert "Traceback" not in done.stdout + done.stderr


@pytest.mark.parametrize(
    ("args", "flag"),
    [
        (["--trump-sequence", "HDCS"], "--trump-sequence"),
        (["--dealer-exchanges-first"], "--dealer-exchanges-first"),
        (["--tie-avoidance"], "--tie-avoidance"),
    ],
)
def test_neuf_options_are_refused_for_knockout_whist(args: list[str], flag: str) -> None:
    """NEUF-8.1-8.3 are Neuf's variants: Knockout Whist refuses them, naming the flag."""
    done = run_cli("play", "knockout-whist", *args)
    assert done.returncode == 2
    assert f"{flag} is an option of neuf" in done.stderr
    assert "Traceback" not in done.stdout + done.stderr


def test_unknown_trump_sequence_is_a_clear_usage_error() -> None:
    """NEUF-8.1 / N-1: only the preset cycles are accepted; the message lists them."""
    done = run_cli("play", GAME, "--trump-sequence", "HHHH")
    assert done.returncode == 2
    assert "unknown trump_sequence 'HHHH'" in done.stderr and "SHDC-NT" in done.stderr
    assert "Traceback" not in done.stdout + done.stderr


def test_variant_options_reach_the_game(tmp_path: Path) -> None:
    """NEUF-8.1: SHDC-NT makes spades trumps in deal 1. NEUF-8.2: with dealer 2 deciding
    first, seats 2 and then 0 decide before seat 1. NEUF-8.3 is kept in the record."""
    record = tmp_path / "variant.json"
    args = ["--trump-sequence", "SHDC-NT", "--dealer-exchanges-first", "--tie-avoidance"]
    done = run_cli("play", GAME, *TABLE, *args, "--record", str(record), stdin="quit\n")
    assert done.returncode == 0, done.stderr
    screen = first_screen(done.stdout)
    assert "trumps: ♠ spades" in screen
    assert re.search(r"^seat 2 (keeps|exchanges)", screen, re.MULTILINE)
    assert "seat 1 keeps" not in screen and "seat 1 exchanges" not in screen
    options = json.loads(record.read_text(encoding="utf-8"))["options"]
    assert options["trump_sequence"] == "SHDC-NT"
    assert options["dealer_exchanges_first"] is True and options["tie_avoidance"] is True


# Entries and what the person sees ---------------------------------------------------------


def test_bad_entries_are_explained_and_asked_again(tmp_path: Path) -> None:
    """NEUF-3.2: in the exchange only EXCHANGE or KEEP is legal; anything else is explained
    and the question asked again, until a good entry is played."""
    record = tmp_path / "game.json"
    stdin = "play 7d\nbanana\n9\nkeep\nquit\n"
    done = run_cli("play", GAME, *TABLE, "--record", str(record), stdin=stdin)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    # The refusal writes the card as the screen does: 7♦, not 7D.
    assert "play 7♦ is not legal now.\n" in out and "play 7D" not in out
    assert "cannot read 'banana'" in out
    assert "there is no action 9; enter 1-2" in out
    assert out.count("Choose one of:") == 3
    assert "seat 0 (you) keeps their hand." in out
    assert json.loads(record.read_text(encoding="utf-8"))["actions"][0] == "keep"


def test_after_the_exchange_the_prompt_offers_cards_in_the_hands_order() -> None:
    """NEUF-3: once every player has exchanged or kept, the hint below the menu no longer
    offers 'exchange' or 'keep'; the menu of cards (NEUF-4.1: seat 0 leads, any card) and
    "Your hand" list the cards in one order, the web table's, trumps last."""
    state = start_state()
    view = state.view(0)
    done = run_cli("play", GAME, *TABLE, stdin="help\nkeep\nquit\n")
    assert done.returncode == 0, done.stderr
    deciding, playing = done.stdout.split(f"{PROMPT} keep", 1)
    hints = [ln for ln in deciding.splitlines() if ln.startswith("Enter ")]
    assert hints == ["Enter a number (1-2), an action (exchange, keep), 'help' or 'quit'."]
    assert any(
        line.split()[:1] == ["exchange"] and "NEUF-3.2" in line for line in deciding.splitlines()
    ), "help explains the exchange"
    (hint,) = [ln for ln in playing.splitlines() if ln.startswith("Enter ")]
    assert "exchange" not in hint and "keep" not in hint
    expected = web_order(view["hand"], view["trump"])
    assert hint.startswith(f"Enter a number (1-13), an action (play {expected[0].lower()})")
    screen = playing.split(PROMPT, 1)[0]
    assert hand_line(screen) == expected
    assert menu_entries(screen) == [f"play {Card.parse(c).symbol}" for c in expected]
    assert expected[-1].endswith(view["trump"])  # hearts, trumps of deal 1 (NEUF-2.1)


def test_first_screen_shows_own_hand_and_neither_other_hands_nor_the_spare() -> None:
    """NEUF-9 and NEUF-3.5: seat 0 sees its 13 cards; the other hands and the spare, 26 +
    13 cards, stay hidden."""
    state = start_state()
    done = run_cli("play", GAME, *TABLE, stdin="quit\n")
    assert done.returncode == 0, done.stderr
    screen = "\n".join(
        line for line in first_screen(done.stdout).splitlines() if HINT_LINE not in line
    )
    own = state.view(0)["hand"]
    assert len(own) == 13 and all(mentions(screen, c) for c in own)
    assert state.view(0)["phase"] == "exchange"
    spare = cards_text(state.spare)
    hidden = state.view(1)["hand"] + state.view(2)["hand"] + spare
    assert len(set(hidden)) == 39
    assert [c for c in hidden if mentions(screen, c)] == []


def test_read_entry_takes_neuf_words_cards_and_numbers() -> None:
    """NEUF-3.2 and NEUF-4.2 actions by word, notation, shorthand (``7d``) or number."""
    game = cardtable.make(GAME)
    screen = NeufScreen()
    legal = [Action("exchange"), Action("keep")]
    assert read_entry("exchange", legal, game, screen) == Action("exchange")
    assert read_entry("KEEP", legal, game, screen) == Action("keep")
    assert read_entry("2", legal, game, screen) == Action("keep")
    assert read_entry("7d", legal, game, screen) == game.parse_action("play 7D")
    assert read_entry("play 10h", legal, game, screen) == game.parse_action("play 10H")
    assert read_entry("quit", legal, game, screen) is None
    with pytest.raises(CardtableError, match="cannot read"):
        read_entry("trump h", legal, game, screen)


def test_table_renderer_draws_a_seat_or_a_spectator() -> None:
    """NEUF-9: a seat's view shows its hand; a spectator's view shows no hand at all."""
    state = start_state()
    screen = screen_for(GAME)
    names = play_names(3)

    def draw(seat: int | None) -> str:
        console = Console(file=io.StringIO(), width=120, no_color=True)
        console.print(screen.table(state.view(seat), names))
        text = console.file.getvalue()  # type: ignore[attr-defined]
        assert isinstance(text, str)
        return text

    own = draw(0)
    assert "Your hand" in own and all(mentions(own, c) for c in state.view(0)["hand"])
    spectator = draw(None)
    assert "Your hand" not in spectator
    for seat in range(3):
        assert not any(mentions(spectator, c) for c in state.view(seat)["hand"])
    assert "Dealer: seat 2" in spectator and "trumps: ♥ hearts" in spectator
    assert "seat 0 (you) to decide" in own


def test_the_hand_put_down_is_shown_with_who_took_it() -> None:
    """NEUF-9: a player who exchanged knows the hand they put down and, once a later player
    exchanges (NEUF-3.3: that player takes it), who holds it now."""
    state = start_state()
    dealt = state.view(0)["hand"]
    state.apply("exchange")
    state.apply("keep")
    state.apply("exchange")  # seat 2 takes the hand seat 0 put down
    console = Console(file=io.StringIO(), width=200, no_color=True)
    console.print(NeufScreen().table(state.view(0), play_names(3)))
    text = console.file.getvalue()  # type: ignore[attr-defined]
    assert isinstance(text, str)
    (line,) = [ln for ln in text.splitlines() if ln.startswith("You put down:")]
    assert line.endswith("(taken by seat 2)")
    assert all(mentions(line, c) for c in dealt)
    assert not any(mentions(line, c) for c in state.view(0)["hand"])
