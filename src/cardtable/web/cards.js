// Cards as inline SVG (drawn in art.js): no image files, so they scale with the CSS
// variable --cw and stay sharp on a phone; hand sorting.

import { cardName, parseCard } from "./i18n.js";
import { faceSvg, backSvg } from "./art.js";

export const SUIT_SYMBOL = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
const RED = new Set(["D", "H"]);
const RANK_ORDER = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
// Alternating colours, so neighbouring suits in a sorted hand are easy to tell apart.
const SUIT_ORDER = ["C", "D", "S", "H"];

export function isRed(card) {
  return RED.has(parseCard(card).suit);
}

export function rankValue(card) {
  return RANK_ORDER.indexOf(parseCard(card).rank);
}

/** A hand sorted by suit (trumps last, at the right) and by rank within a suit. */
export function sortHand(cards, trump) {
  const suitKey = (s) => (s === trump ? 10 : SUIT_ORDER.indexOf(s));
  return [...cards].sort((a, b) => {
    const sa = suitKey(parseCard(a).suit);
    const sb = suitKey(parseCard(b).suit);
    return sa - sb || rankValue(a) - rankValue(b);
  });
}

/** The face of `card` ("7D", "10S") as an <svg> (art.js draws it), labelled with its name. */
export function cardFace(card) {
  const { rank, suit } = parseCard(card);
  const svg = faceSvg(rank, suit);
  svg.setAttribute("aria-label", cardName(card));
  return svg;
}

/** The back of a card (art.js), labelled when it stands for something (the stock). */
export function cardBack(label = "") {
  const svg = backSvg();
  if (label) {
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", label);
  } else svg.setAttribute("aria-hidden", "true");
  return svg;
}

/** A non-interactive card: <div class="card" data-card="7D">. */
export function cardDiv(card, extraClass = "") {
  const div = document.createElement("div");
  div.className = `card ${extraClass}`.trim();
  div.dataset.card = card;
  div.append(cardFace(card));
  return div;
}

export function backDiv(label = "", extraClass = "") {
  const div = document.createElement("div");
  div.className = `card back ${extraClass}`.trim();
  div.append(cardBack(label));
  return div;
}

/** The short text of a card with its suit symbol, e.g. "10♥". */
export function cardShort(card) {
  const { rank, suit } = parseCard(card);
  return `${rank}${SUIT_SYMBOL[suit]}`;
}
