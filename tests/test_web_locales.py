"""The page's four languages say the same things (``web/README.md``: every locale has the
keys and placeholders of ``en.json``): a key missing in a locale falls back to English in
the middle of another language, and a placeholder missing or misspelled shows ``{name}``
to the reader instead of the name."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

LOCALES = Path(__file__).resolve().parent.parent / "src" / "cardtable" / "web" / "locales"
PLACEHOLDER = re.compile(r"\{(\w+)\}")


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


def plural(value: Any) -> bool:
    return isinstance(value, dict) and "other" in value and set(value) <= PLURAL_FORMS


def leaves(value: Any, path: str = "") -> Iterator[tuple[str, str]]:
    """Every text of a locale with its dotted path (lists indexed); a text in plural forms
    is one text, its forms joined."""
    if plural(value):
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


@pytest.mark.parametrize("lang", ["en", *OTHERS])
def test_plural_texts_have_forms_of_their_language_with_the_same_placeholders(lang: str) -> None:
    """A form missing falls back to ``other``: right in English for ``many`` (there is no
    such English count), wrong in Russian for 5 (``ошибок``, not ``ошибки``). Persian and
    English ``fine`` write every count one way, so ``other`` alone may serve."""
    found = dict(plurals(json.loads((LOCALES / f"{lang}.json").read_text(encoding="utf-8"))))
    assert found, "no text in plural forms"
    for path, forms in found.items():
        assert set(forms) <= CATEGORIES[lang], (path, sorted(forms))
        if len(forms) > 1 or lang == "ru":
            # Russian counts need each of their forms; others' "other" alone means alike.
            wanted = CATEGORIES[lang] - ({"many"} if lang == "fr" else set())
            assert set(forms) == wanted, (path, sorted(forms))
        assert {frozenset(PLACEHOLDER.findall(text)) for text in forms.values()} == {
            frozenset({"count"})
        }, path
