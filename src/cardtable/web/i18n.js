// Strings come from locales/<lang>.json; every visible word goes through t() so that the
// four locales stay complete. The chosen language is remembered in localStorage.
//
// How a locale's text says what its placeholders need:
//
// - Counts: a text whose wording follows a number is an object of plural forms, the CLDR
//   categories of its language ({"one": "{count} card", "other": "{count} cards"}; Russian
//   one/few/many/other, French one/many/other, Persian and English one/other), chosen by
//   params.count under Intl.PluralRules. Every count goes in {count}; "(s)" never.
// - Numbers: a number given as a parameter is written by num() (Persian digits, the sign
//   of a negative on the correct side); numbers shown outside t() go through num() too.
// - Grammatical case: {card:acc} asks for the accusative form of the card's name, {card:ins}
//   the instrumental, {card:gen} the genitive, {card} (or {card:nom}) the nominative. A
//   word with case forms is an object in the locale ({"nom": "дама", "acc": "даму",
//   "gen": "дамы", "ins": "дамой"}); a language without cases writes a plain string, and
//   every form asked of it is that string. cardWords() gives a card's name in all its
//   forms, to pass as a parameter; cardName() one form as a string.
// - Lists: list() joins names in the language's way (its comma, "and"): Intl.ListFormat.

export const LANGS = ["en", "fr", "ru", "fa"];
const RTL = new Set(["fa"]);
const KEY = "cardtable.lang";

let strings = {};
let fallback = {};
let lang = "en";
// The name that stands for the reader at a seat with no name of its own (a lesson's learner:
// "You"), or null: a text said of that seat ({name}) takes its second-person form, if any.
let reader = null;

/** Names the reader's seat `name` ("You"): `t(key, {name})` then says `key`'s second-person
 * form, `{key}_you` ("says.plays_you": "You play {card}."), where the language has one. */
export function setReader(name) {
  reader = name;
}

function pick() {
  const saved = localStorage.getItem(KEY);
  if (saved && LANGS.includes(saved)) return saved;
  for (const l of navigator.languages || [navigator.language || "en"]) {
    const short = String(l).slice(0, 2).toLowerCase();
    if (LANGS.includes(short)) return short;
  }
  return "en";
}

async function load(code) {
  const res = await fetch(`/static/locales/${code}.json`);
  if (!res.ok) throw new Error(`locale ${code}: ${res.status}`);
  return res.json();
}

export async function initI18n() {
  lang = pick();
  fallback = await load("en");
  strings = lang === "en" ? fallback : await load(lang).catch(() => fallback);
  document.documentElement.lang = lang;
  document.documentElement.dir = RTL.has(lang) ? "rtl" : "ltr";
  return lang;
}

export function currentLang() {
  return lang;
}

export function setLang(code) {
  localStorage.setItem(KEY, code);
  location.reload();
}

function lookup(obj, key) {
  let cur = obj;
  for (const part of key.split(".")) {
    if (cur == null || typeof cur !== "object") return undefined;
    cur = cur[part];
  }
  return cur;
}

/** A number as the page's language writes it: its digits, and a negative's sign on the
 * correct side in a right-to-left language (a bare "-1" in Persian text reads "1-"). `signed`
 * writes a positive's "+" too, and zero with no sign (a gap: "+0.5", "-1.2", "0"). */
export function num(n, { signed = false } = {}) {
  return new Intl.NumberFormat(lang, signed ? { signDisplay: "exceptZero" } : {}).format(n);
}

/** A fraction (0.4) as a percentage in the page's language: "40%", "40 %", "۴۰٪"; two
 * significant digits below 10% ("2.5%"); `signed` as in num(). */
export function pct(x, { signed = false } = {}) {
  const small = Math.abs(x) < 0.1 && x !== 0;
  const digits = small ? { maximumSignificantDigits: 2 } : { maximumFractionDigits: 0 };
  const sign = signed ? { signDisplay: "exceptZero" } : {};
  return new Intl.NumberFormat(lang, { style: "percent", ...digits, ...sign }).format(x);
}

/** Names (or other words) joined as the page's language lists them: "Ana, Bob and Carl",
 * "Ana، Bob و Carl". `type` "unit" joins without a conjunction ("Ana 3, Bob 5"). */
export function list(items, type = "conjunction") {
  const strings = items.map(String);
  const made = new Intl.ListFormat(lang, { style: "long", type });
  // Russian unit lists have no separator at all ("KOW-4.1 KOW-4.2"): the language's comma
  // then, as its conjunction lists write it ("a, b и c").
  if (type !== "unit" || made.format(["a", "b"]) !== "a b") return made.format(strings);
  const comma = new Intl.ListFormat(lang, { style: "long", type: "conjunction" }).format(["a", "b", "c"]);
  return strings.join(comma.slice(1, comma.indexOf("b")));
}

export const CASES = ["nom", "acc", "gen", "ins"];

/** A word in each of its grammatical cases: `form("ins")`, and itself as the nominative
 * wherever it is used as a plain string. */
export class Forms {
  constructor(pick) {
    this.pick = pick;
  }

  form(grammaticalCase) {
    return this.pick(grammaticalCase || "nom");
  }

  toString() {
    return this.pick("nom");
  }
}

/** The form of a locale word in a case: its case object's form, else the plain string. */
function wordForm(value, grammaticalCase) {
  if (value !== null && typeof value === "object" && typeof value.nom === "string") return value[grammaticalCase] ?? value.nom;
  return value;
}

function filled(value, grammaticalCase) {
  if (value instanceof Forms) return value.form(grammaticalCase);
  if (typeof value === "number") return num(value);
  return String(value);
}

/** The string at `key` with {name} placeholders filled from `params` ({name:case}: that
 * case of a Forms parameter, above). A key whose value is an object of plural forms ({one,
 * few, many, other}: the language's CLDR categories) is chosen by `params.count` under the
 * page language's plural rules. Numbers are written by num(). */
export function t(key, params = {}) {
  let s = lookup(strings, key);
  if (s === undefined) s = lookup(fallback, key);
  if (s === undefined) return key;
  if (reader !== null && params.name === reader) s = lookup(strings, `${key}_you`) ?? lookup(fallback, `${key}_you`) ?? s;
  if (s !== null && typeof s === "object" && typeof s.other === "string" && typeof params.count === "number") {
    s = s[new Intl.PluralRules(lang).select(params.count)] ?? s.other;
  }
  s = wordForm(s, "nom");
  if (typeof s !== "string") return s;
  return s.replace(/\{(\w+)(?::(\w+))?\}/g, (m, name, form) => (name in params ? filled(params[name], form) : m));
}

/** Raw (non-string) locale data, e.g. the rules summaries. */
export function tData(key) {
  const s = lookup(strings, key);
  return s === undefined ? lookup(fallback, key) : s;
}

/** Fills every [data-i18n] element's text and [data-i18n-attr="attr:key"] attributes. */
export function applyI18n(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-attr]")) {
    for (const pair of el.dataset.i18nAttr.split(";")) {
      const [attr, key] = pair.split(":");
      el.setAttribute(attr, t(key));
    }
  }
}

/** A <select id="lang"> listing the languages in their own names. */
export function langSelect(select) {
  select.innerHTML = "";
  for (const code of LANGS) {
    const o = document.createElement("option");
    o.value = code;
    o.textContent = t(`lang_names.${code}`);
    if (code === lang) o.selected = true;
    select.append(o);
  }
  select.addEventListener("change", () => setLang(select.value));
}

export function parseCard(card) {
  return { rank: card.slice(0, -1), suit: card.slice(-1) };
}

/** "the seven of diamonds" in the current language, in a grammatical case ("nom", "acc",
 * "gen", "ins": "даму пик" for "acc") where the language has them. */
export function cardName(card, grammaticalCase = "nom") {
  const { rank, suit } = parseCard(card);
  const word = (key) => wordForm(tData(key), grammaticalCase);
  return t("card_name", { rank: word(`ranks.${rank}`), suit: word(`suits_of.${suit}`) });
}

/** A card's name in every case, for a placeholder that says which ({card:ins}). */
export function cardWords(card) {
  return new Forms((grammaticalCase) => cardName(card, grammaticalCase));
}

export function suitName(suit) {
  return t(`suits.${suit}`);
}
