"""The page's four languages say the same things (``web/README.md``: every locale has the
keys and placeholders of ``en.json``): a key missing in a locale falls back to English in
the middle of another language, and a placeholder missing or misspelled shows ``{name}``
to the reader instead of the name. And each says them as its speakers do: counts in the
plural forms of the language, a card's name in the grammatical case the sentence needs
(``{card:ins}``, ``web/i18n.js``), one word for one thing, its own digits and punctuation;
the last tests run ``i18n.js`` itself in Chromium."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from browser_pieces import bots, context, invite, last_seq, open_table, seated_page, wait_past

LOCALES = Path(__file__).resolve().parents[2] / "src" / "cardtable" / "web" / "locales"
# A placeholder: {name}, or {name:case} for a grammatical case of it (i18n.js).
PLACEHOLDER = re.compile(r"\{(\w+)(?::\w+)?\}")
CASED = re.compile(r"\{(\w+):(\w+)\}")


PLURAL_FORMS = {"zero", "one", "two", "few", "many", "other"}
"""CLDR's plural categories: an object of these keys is one text in the language's plural
forms (``web/i18n.js``'s ``t``), each language with its own."""

# The categories each language's counts fall in (CLDR, as Intl.PluralRules has them).
CATEGORIES = {
    "en": {"one", "other"},
    "fr": {"one", "many", "other"},
    "ru": {"one", "few", "many", "other"},
    "fa": {"one", "other"},
}


CASES = {"nom", "acc", "gen", "ins"}
"""The grammatical cases a word may have forms in (``web/i18n.js``): an object of these keys
is one word, {card:ins} asks for its instrumental."""


def plural(value: Any) -> bool:
    return isinstance(value, dict) and "other" in value and set(value) <= PLURAL_FORMS


def cased(value: Any) -> bool:
    return isinstance(value, dict) and "nom" in value and set(value) <= CASES


def leaves(value: Any, path: str = "") -> Iterator[tuple[str, str]]:
    """Every text of a locale with its dotted path (lists indexed); a text in plural forms
    is one text, its forms joined."""
    if plural(value) or cased(value):
        yield path, " | ".join(str(value[form]) for form in sorted(value))
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from leaves(item, f"{path}.{key}" if path else key)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from leaves(item, f"{path}[{index}]")
    else:
        yield path, str(value)


def texts(lang: str) -> dict[str, str]:
    return dict(leaves(json.loads((LOCALES / f"{lang}.json").read_text(encoding="utf-8"))))


OTHERS = sorted(p.stem for p in LOCALES.glob("*.json") if p.stem != "en")


def differences(english: dict[str, str], other: dict[str, str]) -> list[str]:
    """What ``other`` lacks, adds, or fills differently."""
    found = [f"missing {k}" for k in english if k not in other]
    found += [f"not in English: {k}" for k in other if k not in english]
    for key, text in english.items():
        if key in other and set(PLACEHOLDER.findall(text)) != set(PLACEHOLDER.findall(other[key])):
            found.append(f"placeholders of {key}: {other[key]!r} against {text!r}")
    return found


def test_there_are_four_languages() -> None:
    assert OTHERS == ["fa", "fr", "ru"]


@pytest.mark.parametrize("lang", OTHERS)
def test_each_locale_has_the_english_keys_and_placeholders(lang: str) -> None:
    assert differences(texts("en"), texts(lang)) == []


def test_the_check_finds_a_missing_key_and_a_misspelled_placeholder() -> None:
    english = texts("en")
    key = next(k for k, v in english.items() if PLACEHOLDER.search(v))
    broken = dict(texts("fr"))
    broken[key] = PLACEHOLDER.sub("{nom}", broken[key])
    del broken[next(iter(english))]
    found = differences(english, broken)
    assert any(f.startswith("missing ") for f in found)
    assert any(f.startswith(f"placeholders of {key}") for f in found)


def plurals(value: Any, path: str = "") -> Iterator[tuple[str, dict[str, str]]]:
    """Every text in plural forms of a locale, with its dotted path."""
    if plural(value):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from plurals(item, f"{path}.{key}" if path else key)


def locale(lang: str) -> Any:
    return json.loads((LOCALES / f"{lang}.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("lang", ["en", *OTHERS])
def test_plural_texts_have_forms_of_their_language_with_the_same_placeholders(lang: str) -> None:
    """A form missing falls back to ``other``: right in English for ``many`` (there is no
    such English count), wrong in Russian for 5 (``ошибок``, not ``ошибки``). Persian and
    English ``fine`` write every count one way, so ``other`` alone may serve. French has
    ``many`` for the millions ("de"), which no count here reaches: it may go without."""
    found = dict(plurals(locale(lang)))
    assert found, "no text in plural forms"
    for path, forms in found.items():
        assert set(forms) <= CATEGORIES[lang], (path, sorted(forms))
        if len(forms) > 1 or lang == "ru":
            # Russian counts need each of their forms; others' "other" alone means alike.
            wanted = CATEGORIES[lang] - ({"many"} if lang == "fr" else set())
            assert wanted <= set(forms), (path, sorted(forms))
        names = {frozenset(PLACEHOLDER.findall(text)) for text in forms.values()}
        assert len(names) == 1, path
        assert "count" in next(iter(names)), path


# The texts that say how many of something there are: each is in plural forms in every
# language, its number in {count}.
COUNTED = [
    "tricks_n",
    "cards_held",
    "your_hand",
    "chance",
    "verify.decks",
    "verify.reshuffles",
    "verify.decks_of",
    "verify.reshuffles_of",
    "fair.ok",
    "fair.ok_reshuffles",
    "kow.hand_of",
    "neuf.ledger",
    "kryt.pile_n",
    "kryt.would_take",
    "kryt.says_take_n",
    "kryt.take_button",
    "results.chart_desc",
    "review.progress",
    "review.count.decisions",
    "review.count.fine",
    "review.count.inaccuracy",
    "review.count.mistake",
    "review.hint_agrees_tricks",
    "hints.value.tricks",
    "hints.value.quota_over",
    "hints.value.quota_under",
    "hints.why.trump_suit",
    "hints.why.take_few",
]

# A number placeholder followed by the thing it counts ("{n} cards"), in English.
COUNTED_NOUN = re.compile(
    r"\{(\w+)\} (cards?|tricks?|decks?|deals?|decisions?|mistakes?|inaccurac(?:y|ies)|"
    r"points?|games?|hands?|percent)\b"
)
# A word whose plural is left to the reader: "deck(s)", "взял(а)", "(e)s".
HEDGED = re.compile(r"\w\((?:s|es|e|а|и|ы)\)")


def value_at(data: Any, key: str) -> Any:
    for part in key.split("."):
        data = data[part]
    return data


@pytest.mark.parametrize("lang", ["en", *OTHERS])
def test_a_count_is_said_in_the_plural_forms_of_the_language(lang: str) -> None:
    """ "1 mistakes" and "5 ошибки" come from a text that does not know its number: every
    text that counts is in plural forms, and {count} appears nowhere else."""
    data = locale(lang)
    for key in COUNTED:
        assert plural(value_at(data, key)), (lang, key)
    in_forms = {path for path, _ in plurals(data)}
    for path, text in leaves(data):
        assert "{count}" not in text or path in in_forms, (lang, path)
        assert not HEDGED.search(text), (lang, path, text)


def test_english_counts_nothing_outside_plural_forms() -> None:
    """The check behind COUNTED: an English "{n} cards" anywhere but in plural forms, under
    {count}, is a count the list above missed."""
    in_forms = {path for path, _ in plurals(locale("en"))}
    for path, text in leaves(locale("en")):
        for name, _noun in COUNTED_NOUN.findall(text):
            assert name == "count" and path in in_forms, (path, text)


def test_the_count_checks_find_a_count_outside_plural_forms() -> None:
    assert COUNTED_NOUN.search("Pile: {n} cards")
    assert HEDGED.search("{n} deck(s) do not match") and HEDGED.search("взял(а)")
    assert not plural("{count} mistakes")


def test_a_placeholder_asks_for_a_case_words_have_and_russian_cards_have_them() -> None:
    """{card:acc} takes the accusative of a word in case forms; a case no word has would
    fall back to the nominative ("положить дама пик"). Russian ranks have every case the
    Russian texts ask for; the other languages need none (their ranks are plain)."""
    for lang in ["en", *OTHERS]:
        data = locale(lang)
        asked = {case for _, text in leaves(data) for _, case in CASED.findall(text)}
        assert asked <= CASES, (lang, asked)
        for rank, word in data["ranks"].items():
            if lang == "ru":
                assert cased(word) and asked <= set(word), (rank, word)
            else:
                assert isinstance(word, str), (lang, rank)
    russian = locale("ru")
    assert {case for _, text in leaves(russian) for _, case in CASED.findall(text)} >= {
        "acc",
        "gen",
        "ins",
    }
    assert russian["ranks"]["Q"] == {"nom": "дама", "acc": "даму", "gen": "дамы", "ins": "дамой"}
    assert russian["ranks"]["K"]["acc"] == "короля"


def test_persian_names_each_thing_one_way_in_persian_digits() -> None:
    """Clubs is «خاج» everywhere (never «گشنیز» beside it); a trick is «دست», a hand or deal
    «دور», and the cards one holds «کارت‌ها» (never «دست», which would read as a trick); every
    digit is Persian."""
    data = locale("fa")
    assert data["suits"]["C"] == data["suits_of"]["C"] == "خاج"
    assert data["trick"] == "دست"
    for path, text in leaves(data):
        assert "گشنیز" not in text, path
        assert not re.search(r"[0-9]", text), (path, text)
        assert not re.search(r"دست(?:م|ش|تان|مان|ی که کنار| یدک| کامل)(?!\w)", text), (path, text)
        assert "جان سگ" not in text, path  # the dog's life is «زندگی سگی»
        for trick in re.finditer(r"\{trick\}", text):
            assert text[: trick.start()].endswith("دست "), (path, text)
        for hand in re.finditer(r"\{(?:hand|deal|k)\}", text):
            assert text[: hand.start()].endswith("دور "), (path, text)
    assert data["review"]["where"] == "حرکت {i} (دور {hand}، دست {trick})"


def test_french_typography() -> None:
    """French sets a no-break space before « : » and a narrow one before « ; ! ? », inside
    the guillemets too, and writes the apostrophe ’ (the game's name keeps its
    transliteration, Kryt'-navalivat')."""
    for path, text in leaves(locale("fr")):
        assert not re.search(r" [:;!?»]|« ", text), (path, text)
        assert "'" not in text.replace("Kryt'-navalivat'", ""), (path, text)
    assert "levée" not in json.dumps(locale("fr"), ensure_ascii=False)  # a trick is a pli


# ---------------------------------------------------------------- i18n.js itself, in Chromium

SPOKEN = """async ([]) => {
  const m = await import("/static/i18n.js");
  await m.initI18n();
  const card = (c) => m.cardWords(c);
  return {
    plays: m.t("says.plays", { name: "Ana", card: card("QS") }),
    beat: m.t("kryt.verb.beat", { card: card("QS") }),
    lead: m.t("kryt.says_lead", { name: "Ana", card: card("KH") }),
    not_in_hand: m.t("refusal.not_in_hand", { card: card("KH") }),
    cannot_beat: m.t("refusal.cannot_beat", { card: card("7D"), top: card("AS") }),
    tutorial: m.t("tutorial.verb.play", { card: card("KH") }),
    nominative: m.cardName("QS"),
    mistakes: [0, 1, 2, 5, 21, 22].map((count) => m.t("review.count.mistake", { count })),
    tricks: [1, 3].map((count) => m.t("tricks_n", { count })),
    game: m.t("game_n", { n: 12 }),
    negative: m.num(-1),
    percent: m.pct(0.25),
    list: m.list(["Ana", "Bo", "Cy"]),
  };
}"""


@pytest.mark.parametrize("lang", ["en", "fr", "ru", "fa"])
def test_i18n_says_cases_counts_numbers_and_lists_as_the_language_does(
    web_base: str, chromium: Browser, lang: str
) -> None:
    with context(chromium, lang=lang) as made:
        page = made.new_page()
        page.goto(f"{web_base}/")
        said = page.evaluate(SPOKEN, [])
    expected = {
        "en": {
            "plays": "Ana plays the queen of spades.",
            "beat": "Beat with the queen of spades",
            "mistakes": [
                "0 mistakes",
                "1 mistake",
                "2 mistakes",
                "5 mistakes",
                "21 mistakes",
                "22 mistakes",
            ],
            "tricks": ["1 trick", "3 tricks"],
            "game": "Game 12",
            "negative": "-1",
            "percent": "25%",
            "list": "Ana, Bo, and Cy",
        },
        "fr": {
            "plays": "Ana joue la dame de pique.",
            "not_in_hand": "Vous n’avez pas le roi de cœur en main.",
            "mistakes": [
                "0 erreur",
                "1 erreur",
                "2 erreurs",
                "5 erreurs",
                "21 erreurs",
                "22 erreurs",
            ],
            "tricks": ["1 pli", "3 plis"],
            "list": "Ana, Bo et Cy",
        },
        "ru": {
            "plays": "Ana ходит дамой пик.",
            "beat": "Побить дамой пик",
            "lead": "Ana заходит с короля червей.",
            "not_in_hand": "У вас нет короля червей.",
            "cannot_beat": "семёрка бубен не бьёт туза пик.",
            "tutorial": "положить короля червей",
            "nominative": "дама пик",
            "mistakes": ["0 ошибок", "1 ошибка", "2 ошибки", "5 ошибок", "21 ошибка", "22 ошибки"],
            "tricks": ["1 взятка", "3 взятки"],
            "list": "Ana, Bo и Cy",
        },
        "fa": {
            "plays": "Ana بی‌بی پیک را بازی می‌کند.",
            "tricks": ["۱ دست", "۳ دست"],
            "game": "بازی ۱۲",
        },
    }[lang]
    for key, value in expected.items():
        assert said[key] == value, (key, said[key])
    if lang == "fa":
        # A negative number keeps its sign before its digit, read right to left too.
        assert "۱" in said["negative"] and said["negative"].index("−") < said["negative"].index("۱")
        assert "۲۵" in said["percent"] and "٪" in said["percent"]
        # The Persian comma (and the right-to-left mark Intl sets after a Latin name).
        assert said["list"].replace("\u200f", "") == "Ana، Bo، و Cy"


def test_the_table_says_a_russian_card_in_its_case_and_persian_numbers_in_persian(
    web_base: str, chromium: Browser
) -> None:
    """At a table: the log says "Ana ходит дамой пик." (the instrumental the sentence
    needs, not "играет: дама пик"), and in Persian every number shown, the seats' card
    counts and the hand's number and size among them, is in Persian digits."""
    opened = open_table(web_base, "knockout-whist", [{"kind": "human", "name": "Ana"}, *bots(1)])
    link = invite(web_base, opened, 0)
    russian = locale("ru")
    with context(chromium, lang="ru") as made:
        page = seated_page(made, link)
        expect(page.locator("#turn.mine")).to_be_visible()
        button = page.locator("#hand .card-btn.legal").first
        card = button.get_attribute("data-card") or ""
        rank, suit = card[:-1], card[-1]
        seq = last_seq(page)
        button.click()
        wait_past(page, seq)
        said = f"Ana ходит {russian['ranks'][rank]['ins']} {russian['suits_of'][suit]}."
        expect(page.locator("#log")).to_contain_text(said)
    with context(chromium, lang="fa") as made:
        page = seated_page(made, link)
        counts = page.locator("#seats .seat-count").all_inner_texts()
        assert counts and all(re.fullmatch(r"[۰-۹]+", c.strip()) for c in counts), counts
        expect(page.locator("#info")).to_contain_text("دور ۱ از ۷ (۷ کارت)")
        # Every number the panel says is in Persian digits; a card's face keeps its index.
        words = page.evaluate(
            "(() => { const box = document.querySelector('#info').cloneNode(true);"
            " box.querySelectorAll('svg').forEach((s) => s.remove()); return box.textContent; })()"
        )
        assert not re.search(r"[0-9]", words), words


def swapped_kryt_navalivat() -> tuple[str, int, str, dict[str, Any]]:
    """A two-player game of Kryt'-navalivat' played by the server's table code until a seat
    swaps the six of trumps for the turned card (KRYT-6.1) before taking anything from the
    pile: the table, the seat, the turned card now in its hand, and the seat's snapshot."""
    import random

    from cardtable.server.table import Table

    rng = random.Random(2)
    for _ in range(200):
        seats = [{"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Bo"}]
        table, _tokens, change = Table.open("kryt-navalivat", {"trump_mode": "turned"}, seats)
        table.commit(change)
        for _move in range(30):
            state = table.state
            legal = [str(a) for a in state.legal_actions()]
            seat = state.to_move
            assert seat is not None
            if "swap" in legal:
                turned = table.view(seat)["trump_card"]
                table.commit(table.act(seat, "swap", "human"))
                if table.view(seat)["known"][seat] == [turned]:
                    events = table.held_since(0)
                    assert events is not None
                    return table.id, seat, turned, table.snapshot(seat, events)
                break
            table.commit(
                table.act(seat, rng.choice([a for a in legal if a != "take"] or legal), "human")
            )
            if state.is_over:
                break
    pytest.fail("no game of 200 had a swap before a pick-up")


@pytest.mark.parametrize("lang", ["en", *OTHERS])
def test_the_known_cards_key_covers_the_turned_card_too(
    web_base: str, chromium: Browser, lang: str
) -> None:
    """KRYT-9, KRYT-6.1: every player knows where the turned card went, so the hand marks it
    as known (the view's ``known``) although nobody picked it up from the pile; the key under
    the hand says what the mark means, the turned card included."""
    from test_web_fairness import recorded_page

    table, _seat, turned, snapshot = swapped_kryt_navalivat()
    with context(chromium, lang=lang) as made:
        page = recorded_page(made, web_base, table, [json.dumps(snapshot)])
        expect(page.locator(f"#hand .card-btn.known[data-card='{turned}']")).to_be_visible()
        expect(page.locator("#hand .card-btn.known")).to_have_count(1)
        key = page.locator("#hand-key")
        words = locale(lang)["kryt"]
        expect(key).to_have_text(words["known_key"])
        # The key names the turned card as the info panel names it.
        assert words["trump_card"].lower() in words["known_key"], words["known_key"]


def test_french_sets_a_no_break_space_before_a_colon_the_page_writes(
    web_base: str, chromium: Browser
) -> None:
    """A label the page puts before a colon itself ("Donne 1 : en attente du dévoilement" in
    the fair deals' list) takes French's no-break space too, never "Donne 1:"."""
    opened = open_table(web_base, "knockout-whist", [{"kind": "human", "name": "Ana"}, *bots(1)])
    with context(chromium, lang="fr") as made:
        page = seated_page(made, invite(web_base, opened, 0))
        page.click("#fair-badge")
        item = page.locator("#verify li[data-hand='1']")
        expect(item).to_have_text(re.compile("^Donne 1\u00a0: "))


def test_no_module_of_the_page_writes_a_colon_after_words_of_its_own() -> None:
    """A label followed by a colon is written through the ``colon`` text, which French
    writes with its no-break space ("Donne 1 :"): no module puts ": " after a text it was
    given (``${name}: ${…}``) itself."""
    written = re.compile(r"\$\{[^}]*\}: ")
    found = [
        f"{path.name}:{number}: {line.strip()}"
        for path in sorted(LOCALES.parent.glob("*.js"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if written.search(line) and "new Error(" not in line  # a developer's, in English
    ]
    assert found == [], "\n".join(found)


# What a card's name must never make of a sentence: French articles after a possessive or
# a preposition ("votre le roi", "de le valet"), and in Persian the nine written «نه», which
# reads as "no" ("نه نه خشت را": "not not diamonds").
BROKEN = {
    "fr": re.compile(r"\b(?:votre|notre|mon|ton|son|ce|cette|de|à) (?:le|la|les|l’)(?=\W)"),
    "fa": re.compile(r"(?:^|\s)نه (?:خاج|خشت|دل|پیک)"),
}


def card_name(data: dict[str, Any], card: str, case: str | None) -> str:
    """A card's name as the page builds it (i18n.js): the rank and the suit in the template
    ``card_name``, each in the case the sentence asks for where the language has cases."""
    rank, suit = card[:-1], card[-1]
    word = data["ranks"][rank]
    if isinstance(word, dict):
        word = word.get(case or "nom", word["nom"])
    return str(data["card_name"]).replace("{rank}", word).replace("{suit}", data["suits_of"][suit])


@pytest.mark.parametrize("lang", sorted(BROKEN))
def test_every_sentence_that_names_a_card_reads_with_every_card(lang: str) -> None:
    """Every text with a ``{card}`` (or ``{chosen}``, a refusal's other card) filled with each
    of the 52 cards: none breaks the language's grammar as the two patterns above do."""
    data = locale(lang)
    named = re.compile(r"\{(card|chosen)(?::(\w+))?\}")
    cards = [rank + suit for rank in data["ranks"] for suit in "CDHS"]
    broken = []
    for path, text in leaves(data):
        if not named.search(text):
            continue
        for card in cards:

            def fill(found: re.Match[str], card: str = card) -> str:
                return card_name(data, card, found.group(2))

            said = named.sub(fill, text)
            if BROKEN[lang].search(said):
                broken.append(f"{path}: {said}")
                break
    assert broken == [], "\n".join(broken)


def test_a_russian_list_without_a_conjunction_has_commas(web_base: str, chromium: Browser) -> None:
    """Russian lists of units have no separator at all in the browser's own data ("KOW-4.1
    KOW-4.2"): the page joins them with the comma, as the lesson's rules and Neuf's final
    scores need ("Правила: KOW-4.1, KOW-4.2")."""
    joined = """async () => {
      const m = await import("/static/i18n.js");
      await m.initI18n();
      return [m.list(["KOW-4.1", "KOW-4.2", "KOW-4.3"], "unit"), m.list(["a", "b"], "unit")];
    }"""
    said = {}
    for lang in ("ru", "en", "fa"):
        with context(chromium, lang=lang) as made:
            page = made.new_page()
            page.goto(f"{web_base}/")
            said[lang] = page.evaluate(joined)
    assert said["ru"] == ["KOW-4.1, KOW-4.2, KOW-4.3", "a, b"]
    assert said["en"] == ["KOW-4.1, KOW-4.2, KOW-4.3", "a, b"]
    assert "،" in said["fa"][0]
    with context(chromium, lang="ru") as made:
        page = made.new_page()
        page.goto(f"{web_base}/learn/knockout-whist")
        rules = page.locator("#lesson-rules")
        expect(rules).to_have_text(re.compile(r"^Правила: KOW-[\d.]+(, KOW-[\d.]+)+"))
