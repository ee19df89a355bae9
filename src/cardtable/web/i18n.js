// Strings come from locales/<lang>.json; every visible word goes through t() so that the
// four locales stay complete. The chosen language is remembered in localStorage.

export const LANGS = ["en", "fr", "ru", "fa"];
const RTL = new Set(["fa"]);
const KEY = "cardtable.lang";

let strings = {};
let fallback = {};
let lang = "en";

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
 * correct side in a right-to-left language (a bare "-1" in Persian text reads "1-"). */
export function num(n) {
  return new Intl.NumberFormat(lang).format(n);
}

/** The string at `key` with {name} placeholders filled from `params`. A key whose value is
 * an object of plural forms ({one, few, many, other}: the language's CLDR categories) is
 * chosen by `params.count` under the page language's plural rules, and {count} is written
 * by num(). */
export function t(key, params = {}) {
  let s = lookup(strings, key);
  if (s === undefined) s = lookup(fallback, key);
  if (s === undefined) return key;
  if (s !== null && typeof s === "object" && typeof s.other === "string" && typeof params.count === "number") {
    s = s[new Intl.PluralRules(lang).select(params.count)] ?? s.other;
    params = { ...params, count: num(params.count) };
  }
  if (typeof s !== "string") return s;
  return s.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
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

/** "the seven of diamonds" in the current language. */
export function cardName(card) {
  const { rank, suit } = parseCard(card);
  return t("card_name", { rank: t(`ranks.${rank}`), suit: t(`suits_of.${suit}`) });
}

export function suitName(suit) {
  return t(`suits.${suit}`);
}

export function pct(x) {
  return `${Math.round(x * 100)}%`;
}
