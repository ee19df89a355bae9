"""Provably fair deals (docs/fairness.md): the construction, its statistics, the table's use of
it, and ``cardtable verify`` catching every kind of tampering."""

from __future__ import annotations

import copy
import hashlib
import hmac
import json
import random
from pathlib import Path
from typing import Any

import pytest
from scipy.stats import chi2  # type: ignore[import-untyped]
from typer.testing import CliRunner

import cardtable
from cardtable.cards import Card, card_text
from cardtable.cli import app
from cardtable.fairness import (
    CHAIN_LENGTH,
    FairnessError,
    bot_seed,
    chain_seed,
    commitment_of,
    fair_shuffle,
    verify_record,
)
from cardtable.server.table import Table, TableError

SEED = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
KRYT_NAVALIVAT_PACK = [c for c in range(52) if c % 13 >= 4]  # 6 to ace


def _reference(
    server_seed: str,
    table: str,
    game: int,
    label: str,
    seeds: list[str | None],
    size: int,
    dealer: int | None,
) -> list[int]:
    """The construction as docs/fairness.md words it, written out plainly: the HMAC stream
    as bytes, each draw a 4-byte word, rejection above the largest multiple, Fisher–Yates
    from the last position down. Returns the permutation of positions 0…size-1."""
    key = bytes.fromhex(server_seed)
    joined = ",".join("" if s is None else s for s in seeds)
    head = f"cardtable-deal:{table}:{game}"
    if dealer is not None:  # construction 2 names the game's first dealer
        head = f"cardtable-deal-2:{table}:{game}:{dealer}"
    stream = b""
    used = 0

    def word() -> int:
        nonlocal stream, used
        if used + 4 > len(stream):
            block = len(stream) // 32
            message = f"{head}:{label}:{joined}:{block}"
            stream += hmac.new(key, message.encode("utf-8"), hashlib.sha256).digest()
        value = int.from_bytes(stream[used : used + 4], "big")
        used += 4
        return value

    deck = list(range(size))
    for i in reversed(range(1, size)):
        bound = (2**32 // (i + 1)) * (i + 1)
        while (w := word()) >= bound:
            pass
        j = w % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def _text(cards: list[int]) -> str:
    return " ".join(card_text(c) for c in cards)


# The construction ---------------------------------------------------------------------------


def test_known_answer_vectors() -> None:
    """Vectors computed once; any implementation (the page's fair.js among them) must give
    these decks for these inputs: construction 2 (the game's first dealer in the message),
    then construction 1 (without it), which games dealt before it still verify by."""
    seeds: list[str | None] = [None, "alice-seed", ""]
    assert _text(fair_shuffle(SEED, "TBL", 1, "hand 1", seeds, range(52), 0)) == (
        "3C 4S 9S 10D JC QH QD JH 9H AC 6D 7H 4C 7D KS 6H AS 5H 6S 8D 4D 5D AH 3D 6C 7S 5S "
        "3S 2D AD KH 10H 8C 10C 8H QS 9C 5C 8S 4H 2S 3H 2C 2H 7C JS 10S 9D KC KD QC JD"
    )
    pack = KRYT_NAVALIVAT_PACK
    assert _text(fair_shuffle(SEED, "TBL", 2, "hand 3", ["x", None], pack, 1)) == (
        "9C 7S 9H 9D 7H AH QD 10H QH 8H AS 6S 10C 6C KH JH AC AD 10D 8S JD 8D 9S KS JC 6D "
        "JS 10S 8C 7C QC KD KC QS 7D 6H"
    )
    # A reshuffle starts from its cards in index order, whatever order they come in.
    assert _text(fair_shuffle(SEED, "TBL", 1, "reshuffle 0", seeds, [31, 5, 18], 0)) == ("7D 7C 7H")
    assert _text(fair_shuffle(SEED, "TBL", 1, "hand 1", seeds, range(52), None)) == (
        "8C 10C 3C JH 3S QH 8S 7S 6D 9S 3D KH JD AH QC 4C 3H 4S AC 5D KC 7H 2S 6S 2C AD 7C "
        "JC 10H 2H 5H JS 7D QD 5C 6H 2D 8D 9C 9H 6C 5S 10D 10S QS 4H KD AS 8H 9D KS 4D"
    )
    assert _text(fair_shuffle(SEED, "TBL", 2, "hand 3", ["x", None], pack, None)) == (
        "QC 7C 8S QD 10D 9S 8C JC 7S AD 6H AS 6S 9C 10H KD KH QS JD 10S AC AH 8D 7H 8H JH "
        "9H KC 6D 9D 6C 7D JS QH 10C KS"
    )
    assert _text(fair_shuffle(SEED, "TBL", 1, "reshuffle 0", seeds, [31, 5, 18], None)) == (
        "7C 7H 7D"
    )
    assert chain_seed(SEED, 1) == (
        "b2b7da83861e2accd6a920f477fcc52df0dbc1f196625c2cefdcd72706af4f97"
    )
    assert commitment_of(chain_seed(SEED, 1)) == (
        "763306c4e41ef1de02173c37e1fbc7728d5d808ffb28c69cb6d3d11fdf400e65"
    )
    assert bot_seed(SEED, 7) == 12735376511662197423


@pytest.mark.parametrize("case", range(40))
def test_the_construction_matches_a_plain_reimplementation(case: int) -> None:
    rng = random.Random(case)
    server_seed = rng.randbytes(32).hex()
    seeds = [
        rng.choice([None, "", "abc", rng.randbytes(8).hex()]) for _ in range(rng.randint(2, 7))
    ]
    pack = list(range(52)) if case % 2 else KRYT_NAVALIVAT_PACK
    label = rng.choice(["hand 1", "hand 7", "reshuffle 2"])
    dealer = None if case % 3 == 0 else rng.randrange(len(seeds))
    positions = _reference(server_seed, "t-1_x", case + 1, label, seeds, len(pack), dealer)
    expected = [pack[p] for p in positions]
    assert fair_shuffle(server_seed, "t-1_x", case + 1, label, seeds, pack, dealer) == expected


def test_every_input_changes_the_deck() -> None:
    base = fair_shuffle(SEED, "T", 1, "hand 1", ["a", None], range(52), 0)
    other = "ff" + SEED[2:]
    assert fair_shuffle(other, "T", 1, "hand 1", ["a", None], range(52), 0) != base
    assert fair_shuffle(SEED, "U", 1, "hand 1", ["a", None], range(52), 0) != base
    assert fair_shuffle(SEED, "T", 2, "hand 1", ["a", None], range(52), 0) != base
    assert fair_shuffle(SEED, "T", 1, "hand 2", ["a", None], range(52), 0) != base
    assert fair_shuffle(SEED, "T", 1, "hand 1", ["b", None], range(52), 0) != base
    assert fair_shuffle(SEED, "T", 1, "hand 1", [None, "a"], range(52), 0) != base
    # The first dealer: the same cards to other seats would be another deal.
    assert fair_shuffle(SEED, "T", 1, "hand 1", ["a", None], range(52), 1) != base
    assert fair_shuffle(SEED, "T", 1, "hand 1", ["a", None], range(52), None) != base


def test_each_game_seed_is_committed_by_the_one_before() -> None:
    """The chain: sha256(seed of game n) is the seed of game n-1, within a chain of
    CHAIN_LENGTH games; a new chain begins after it."""
    for game in (2, 3, 500, CHAIN_LENGTH):
        assert commitment_of(chain_seed(SEED, game)) == chain_seed(SEED, game - 1)
    assert commitment_of(chain_seed(SEED, CHAIN_LENGTH + 1)) != chain_seed(SEED, CHAIN_LENGTH)
    assert commitment_of(chain_seed(SEED, CHAIN_LENGTH + 2)) == chain_seed(SEED, CHAIN_LENGTH + 1)


@pytest.mark.parametrize(("pack", "decks"), [(list(range(52)), 5200), (KRYT_NAVALIVAT_PACK, 3600)])
def test_card_positions_pass_a_chi_square_test(pack: list[int], decks: int) -> None:
    """Over many server seeds, every card is equally likely at every position: the counts of
    (card, position) pass Pearson's chi-square test at the 0.1% level, as a whole table and
    position by position (with a Bonferroni bound). A shuffle that leaves the tail of the deck
    near sorted (stopped early, as the engine's own Knockout Whist shuffle may) fails it."""
    size = len(pack)
    where = {card: i for i, card in enumerate(pack)}
    counts = [[0] * size for _ in range(size)]
    for n in range(decks):
        server_seed = hashlib.sha256(f"chi {n}".encode()).hexdigest()
        deck = fair_shuffle(server_seed, "T", 1, "hand 1", ["s", None], pack, 0)
        for position, card in enumerate(deck):
            counts[position][where[card]] += 1
    expected = decks / size
    cells = [[(c - expected) ** 2 / expected for c in row] for row in counts]
    total = sum(map(sum, cells))
    assert total < chi2.ppf(0.999, (size - 1) ** 2), total
    per_position = chi2.ppf(1 - 0.001 / size, size - 1)
    for position, row in enumerate(cells):
        assert sum(row) < per_position, (position, sum(row))

    # The same test tells a partial shuffle apart: Fisher–Yates stopped after 10 positions.
    stopped = [[0] * size for _ in range(size)]
    rng = random.Random(5)
    for _ in range(decks):
        deck = pack[:]
        for i in range(10):
            j = rng.randrange(i, size)
            deck[i], deck[j] = deck[j], deck[i]
        for position, card in enumerate(deck):
            stopped[position][where[card]] += 1
    partial = sum((c - expected) ** 2 / expected for row in stopped for c in row)
    assert partial > chi2.ppf(0.999, (size - 1) ** 2)


# The table ----------------------------------------------------------------------------------


def _play(table: Table, rng: random.Random) -> None:
    while not table.state.is_over:
        mover = table.state.to_move
        assert mover is not None
        legal = [str(a) for a in table.state.legal_actions()]
        action = rng.choice([a for a in legal if a != "take"] or legal)
        table.commit(table.act(mover, action, "human", table.seq))


def _open(game: str, seats: list[dict[str, Any]]) -> Table:
    table, _tokens, change = Table.open(game, {}, seats)
    table.commit(change)
    return table


def _give(table: Table, seat: int, seed: str) -> None:
    change = table.seed_change(seat, seed)
    assert change is not None
    table.commit(change)


GAMES = [
    ("knockout-whist", [{"kind": "human"}, {"kind": "human"}, {"kind": "bot"}]),
    ("neuf", [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}]),
    ("kryt-navalivat", [{"kind": "human"}, {"kind": "bot"}, {"kind": "human"}]),
]


@pytest.mark.parametrize(("game", "seats"), GAMES)
def test_a_table_deals_the_derived_decks_and_reveals_the_seed_at_the_end(
    game: str, seats: list[dict[str, Any]]
) -> None:
    table = _open(game, seats)
    _give(table, 0, "seat-zero-seed")
    _play(table, random.Random(3))
    assert table.state.is_over
    events = table.events
    over = [e for e in events if e["kind"] == "over"]
    assert len(over) == 1 and over[0]["server_seed"] == table.run.server_seed
    # The server seed appears in no event before the game's end.
    assert table.run.server_seed is not None
    before = json.dumps(events[: events.index(over[0])])
    assert table.run.server_seed not in before
    started = next(e for e in events if e["kind"] == "game")
    assert started["commitment"] == commitment_of(table.run.server_seed)
    assert started["construction"] == 2 and started["dealer"] == table.run.dealer
    deals = [e for e in events if e["kind"] == "deal"]
    # The first hand was dealt before the seat gave its seed; the later ones after it.
    assert deals[0]["seeds"] == [None, None, None]
    for deal in deals[1:]:
        assert deal["seeds"][0] == "seat-zero-seed"
    document = table.replay(1)["record"]
    verified = verify_record(document)
    assert verified.decks == len(document["decks"]) >= 1 and verified.covers_dealer
    assert document["fair"]["construction"] == 2
    # Every deck is a full permutation of the pack from the construction (Knockout Whist's
    # small hands included, which the engine's own shuffle leaves near sorted).
    pack = cardtable.make(game, players=3).pack
    for item, deck in zip(document["fair"]["decks"], document["decks"], strict=True):
        label = f"hand {item['hand']}"
        dealer = document["options"]["dealer"]
        derived = fair_shuffle(
            table.run.server_seed, table.id, 1, label, item["seeds"], pack, dealer
        )
        assert [Card.parse(c).index for c in deck] == derived


def test_the_next_game_is_committed_by_the_last_seed_and_bots_use_the_secret() -> None:
    table = _open("knockout-whist", GAMES[0][1])
    _play(table, random.Random(1))
    # The finished game's events leave memory with the next game: read its seed first.
    first_seed = next(e for e in table.events if e["kind"] == "over")["server_seed"]
    table.commit(table.next_game())
    second = [e for e in table.events if e["kind"] == "game"][-1]
    assert second["commitment"] == first_seed
    from cardtable.server.bots import move_seed

    assert table.secret is not None
    assert move_seed(table, 5) == bot_seed(table.secret, 5)
    assert move_seed(table, 5) != int.from_bytes(
        hashlib.sha256(f"{table.id}:5".encode()).digest()[:8], "big"
    )


def test_a_seed_is_checked_and_a_repeated_seed_adds_nothing() -> None:
    table = _open("neuf", GAMES[1][1])
    for bad in ("", "a" * 65, "has space", "a:b", 7, None, "é"):
        with pytest.raises(TableError) as caught:
            table.seed_change(1, bad)
        assert caught.value.code == "malformed"
    change = table.seed_change(1, "abc")
    assert change is not None and change.events[0] == {
        "seq": table.seq + 1,
        "kind": "seed",
        "seat": 1,
        "seed": "abc",
    }
    table.commit(change)
    assert table.seed_change(1, "abc") is None
    assert table.seats[1].seed == "abc"


def test_a_seed_given_meanwhile_does_not_make_an_action_stale() -> None:
    """docs/server.md: a ``seed`` event changes no game, so a click sent before it stands;
    one sent before an action is still refused."""
    table = _open("neuf", GAMES[1][1])
    seen = table.seq
    _give(table, 1, "late-seed")
    mover = table.state.to_move
    assert mover is not None
    first = str(table.state.legal_actions()[0])
    table.commit(table.act(mover, first, "human", seen))
    mover = table.state.to_move
    assert mover is not None
    with pytest.raises(TableError) as caught:
        table.act(mover, str(table.state.legal_actions()[0]), "human", seen)
    assert caught.value.code == "stale"


def test_the_snapshot_fairness_hides_the_seed_until_the_end() -> None:
    table = _open("kryt-navalivat", GAMES[2][1])
    shown = table.fairness()
    assert shown is not None and shown["server_seed"] is None
    _play(table, random.Random(2))
    shown = table.fairness()
    assert shown is not None and shown["server_seed"] == table.run.server_seed


# Tampering --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def finished() -> dict[str, Any]:
    table = _open("knockout-whist", GAMES[0][1])
    _give(table, 1, "bob")
    _play(table, random.Random(8))
    document: dict[str, Any] = table.replay(1)["record"]
    return document


def _swap_deck(doc: dict[str, Any]) -> None:
    deck = doc["decks"][-1]
    deck[0], deck[1] = deck[1], deck[0]


def _seed(doc: dict[str, Any]) -> None:
    seed = doc["fair"]["server_seed"]
    doc["fair"]["server_seed"] = ("0" if seed[0] != "0" else "1") + seed[1:]


def _commitment(doc: dict[str, Any]) -> None:
    doc["fair"]["commitment"] = "0" * 64


def _client_seed(doc: dict[str, Any]) -> None:
    doc["fair"]["decks"][-1]["seeds"][1] = "mallory"


def _hand_number(doc: dict[str, Any]) -> None:
    doc["fair"]["decks"][-1]["hand"] = 1


def _one_deck_less(doc: dict[str, Any]) -> None:
    doc["fair"]["decks"].pop()


def _first_dealer(doc: dict[str, Any]) -> None:
    # The same decks from the next seat on: every card another seat's, the winner changed.
    doc["options"]["dealer"] = (doc["options"]["dealer"] + 1) % 3


def _downgrade(doc: dict[str, Any]) -> None:
    # Claimed to be of construction 1, whose decks do not name the dealer: they do not match.
    del doc["fair"]["construction"]


TAMPERING = {
    "deck": (_swap_deck, "is not the derived one"),
    "server seed": (_seed, "does not match the commitment"),
    "commitment": (_commitment, "does not match the commitment"),
    "client seed": (_client_seed, "is not the derived one"),
    "hand number": (_hand_number, "must say"),
    "missing entry": (_one_deck_less, "lists"),
    "first dealer": (_first_dealer, "is not the derived one"),
    "construction": (_downgrade, "is not the derived one"),
}


def test_an_untouched_record_verifies(finished: dict[str, Any]) -> None:
    assert verify_record(finished).game == "knockout-whist"


@pytest.mark.parametrize("kind", sorted(TAMPERING))
def test_tampering_is_caught(finished: dict[str, Any], kind: str) -> None:
    change, words = TAMPERING[kind]
    document = copy.deepcopy(finished)
    change(document)
    with pytest.raises(FairnessError, match=words):
        verify_record(document)


def test_a_changed_first_dealer_is_caught_even_where_the_game_still_replays(
    finished: dict[str, Any],
) -> None:
    """The forgery that construction 1 let through: the decks untouched, the first dealer
    changed, so that every hand goes to the seat after its own and the record still
    replays (the same cards, dealt round from another seat). Construction 2 derives every
    deck from the dealer too, so the decks no longer match."""
    document = copy.deepcopy(finished)
    _first_dealer(document)
    cardtable.replay(cardtable.Record.from_dict(document))  # still a game the rules accept
    with pytest.raises(FairnessError, match="deck of hand 1 is not the derived one"):
        verify_record(document)


def _construction_one_record(dealer: int) -> dict[str, Any]:
    """A finished Knockout Whist game dealt as a table dealt before construction 2, with the
    fair block such a table wrote (no ``construction``)."""
    server_seed = chain_seed(SEED, 1)
    seeds: list[str | None] = [None, "bob", None]

    def shuffle(label: str, cards: list[int]) -> list[int]:
        return fair_shuffle(server_seed, "OLD", 1, label, seeds, cards, None)

    game = cardtable.make("knockout-whist", players=3, dealer=dealer)
    first = [card_text(c) for c in shuffle("hand 1", list(game.pack))]
    state = game.new_state(seed=1, decks=[first])
    state.shuffler = shuffle
    rng = random.Random(4)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    document = state.record().to_dict()
    document["fair"] = {
        "table": "OLD",
        "game": 1,
        "commitment": commitment_of(server_seed),
        "server_seed": server_seed,
        "decks": [{"hand": n + 1, "seeds": seeds} for n in range(len(document["decks"]))],
        "reshuffles": [{"number": n, "seeds": seeds} for n in range(len(document["reshuffles"]))],
    }
    return document


def test_a_record_of_construction_1_verifies_its_decks_and_says_no_more(tmp_path: Path) -> None:
    document = _construction_one_record(dealer=2)
    verified = verify_record(document)
    assert verified.decks == len(document["decks"]) and not verified.covers_dealer
    path = tmp_path / "old.json"
    path.write_text(json.dumps(document))
    result = CliRunner().invoke(app, ["verify", str(path)])
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())
    assert "so the proof covers the decks alone, not which seat each hand went to" in said
    document["fair"]["construction"] = 3
    with pytest.raises(FairnessError, match="'construction' is 1 or 2"):
        verify_record(document)


def test_a_record_without_fair_data_is_refused() -> None:
    document = {**_open("neuf", GAMES[1][1]).state.record().to_dict()}
    with pytest.raises(FairnessError, match="no 'fair' block"):
        verify_record(document)


# cardtable verify --------------------------------------------------------------------------


def test_the_command_verifies_a_replay_document(finished: dict[str, Any], tmp_path: Path) -> None:
    path = tmp_path / "replay.json"
    path.write_text(json.dumps({"game": 1, "record": finished, "frames": []}))
    result = CliRunner().invoke(app, ["verify", str(path)])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("verified: knockout-whist, ")
    dealer = finished["options"]["dealer"]
    said = " ".join(result.output.split())
    assert f"and the first dealer (seat {dealer}): every card went to the seat" in said


@pytest.mark.parametrize("kind", sorted(TAMPERING))
def test_the_command_catches_tampering(finished: dict[str, Any], tmp_path: Path, kind: str) -> None:
    change, words = TAMPERING[kind]
    document = copy.deepcopy(finished)
    change(document)
    path = tmp_path / "record.json"
    path.write_text(json.dumps(document))
    result = CliRunner().invoke(app, ["verify", str(path)])
    assert result.exit_code == 1
    assert words in result.output
    assert result.output.count("\n") == 1 and "Traceback" not in result.output


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (None, "cannot read"),
        ("{not json", "is not JSON"),
        ('{"format": "cardtable-record", "version": 1}', "record field"),
        ("[1, 2]", "must be a JSON object"),
    ],
)
def test_the_command_explains_a_bad_file(tmp_path: Path, content: str | None, words: str) -> None:
    path = tmp_path / "bad.json"
    if content is not None:
        path.write_text(content)
    result = CliRunner().invoke(app, ["verify", str(path)])
    assert result.exit_code == 1
    assert words in result.output and "Traceback" not in result.output


def test_a_database_from_before_gives_each_stored_table_a_secret(tmp_path: Path) -> None:
    """Migration 0003, after the quarantine's 0002: a table stored before fair deals gets a
    secret of its own, so the games it starts from now on are dealt fairly; a table set
    aside stays set aside, for the same reason."""
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import create_engine, text

    from cardtable.server import store

    url = f"sqlite:///{tmp_path / 'old.db'}"
    engine = create_engine(url)
    config = Config()
    config.set_main_option("script_location", str(Path(store.__file__).with_name("migrations")))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0002")
        for name, reason in (("old-a", None), ("old-b", None), ("old-c", "ValueError: x")):
            connection.execute(
                text(
                    "INSERT INTO tables (id, game, options, created, quarantined) "
                    "VALUES (:id, 'neuf', '{}', 0, :reason)"
                ),
                {"id": name, "reason": reason},
            )
    engine.dispose()
    opened = store.Store(url)
    try:
        loaded = [opened.load(name) for name in ("old-a", "old-b")]
        secrets = [table.secret for table in loaded if table is not None]
        assert opened.quarantined_ids() == {"old-c"}
        with opened.engine.connect() as connection:
            version = connection.execute(text("SELECT version_num FROM alembic_version")).scalar()
    finally:
        opened.close()
    assert version == "0008"  # the head: fair deals, reviews, owners, allowances, seats, players
    assert len(secrets) == 2 and all(isinstance(s, str) and len(s) == 64 for s in secrets)
    assert secrets[0] != secrets[1]


def test_kow_5_3_a_reshuffle_of_cut_cards_is_the_known_answer_of_docs_fairness() -> None:
    """KOW-5.3, docs/fairness.md ("A reshuffle's deck"): all seven tie in hand 1 and cut from
    hand 2's remainder, AS AH AD AC 2C 3C 4C KS KH 5C; four aces tie, and the second round
    needs four cards where three are left, so the seven set-aside cut cards, taken in card
    index order and shuffled with label ``reshuffle 0`` and the seeds of that moment, go
    beneath KS KH 5C: the vector of the document (construction 2, first dealer seat 6),
    which the engine deals at a fair table."""
    from test_knockout_whist_rules import SEVEN_PLAY, play, seven_player_game

    seeds: list[str | None] = ["", "alice-seed", "", "", "", "", ""]
    state = seven_player_game()
    # Construction 2, with the game's first dealer, seat 6.
    state.shuffler = lambda label, cards: fair_shuffle(SEED, "TBL", 1, label, seeds, cards, 6)
    play(state, *SEVEN_PLAY)
    record = state.record()
    assert record.reshuffles == [["AC", "AH", "3C", "4C", "2C", "AS", "AD"]]
    cuts = state.view(None)["cuts"]
    assert cuts[0] == [
        [s, c] for s, c in zip([1, 2, 3, 4, 5, 6, 0], "AS AH AD AC 2C 3C 4C".split(), strict=True)
    ]
    assert cuts[1:] == [[[1, "KS"], [2, "KH"], [3, "5C"], [4, "AC"]]]
    assert state.to_move == 4  # the ace of the reshuffle wins the cut, and names trumps
