// Cards drawn as inline SVG: no image files, so they scale with the CSS variable --card-w
// and stay sharp on a phone.

import { cardName, parseCard } from "./i18n.js";

export const SUIT_SYMBOL = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
const RED = new Set(["D", "H"]);
const NS = "http://www.w3.org/2000/svg";
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

function el(name, attrs, text) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

/** The face of `card` ("7D", "10S") as an <svg>, labelled with its name. */
export function cardFace(card) {
  const { rank, suit } = parseCard(card);
  const svg = el("svg", { viewBox: "0 0 60 84", class: "card-svg", role: "img" });
  svg.setAttribute("aria-label", cardName(card));
  const colour = RED.has(suit) ? "#c1121f" : "#1b1b1b";
  svg.append(el("rect", { x: 0.75, y: 0.75, width: 58.5, height: 82.5, rx: 5, fill: "#fffdf8", stroke: "#8a8a8a", "stroke-width": 1.5 }));
  const g = el("g", { fill: colour, "font-family": "system-ui, sans-serif", "font-weight": 700 });
  const small = rank === "10" ? 13 : 15;
  g.append(el("text", { x: 4, y: 16, "font-size": small, "letter-spacing": rank === "10" ? -1.5 : 0 }, rank));
  g.append(el("text", { x: 5, y: 29, "font-size": 13 }, SUIT_SYMBOL[suit]));
  const corner = el("g", { transform: "rotate(180 30 42)" });
  corner.append(el("text", { x: 4, y: 16, "font-size": small, "letter-spacing": rank === "10" ? -1.5 : 0 }, rank));
  corner.append(el("text", { x: 5, y: 29, "font-size": 13 }, SUIT_SYMBOL[suit]));
  g.append(corner);
  const face = ["J", "Q", "K"].includes(rank);
  if (face) {
    g.append(el("rect", { x: 16, y: 18, width: 28, height: 48, rx: 3, fill: "none", stroke: colour, "stroke-width": 1.2 }));
    g.append(el("text", { x: 30, y: 40, "font-size": 16, "text-anchor": "middle" }, rank));
    g.append(el("text", { x: 30, y: 59, "font-size": 16, "text-anchor": "middle" }, SUIT_SYMBOL[suit]));
  } else {
    g.append(el("text", { x: 30, y: 54, "font-size": rank === "A" ? 34 : 28, "text-anchor": "middle" }, SUIT_SYMBOL[suit]));
  }
  svg.append(g);
  return svg;
}

/** The back of a card: a lattice, so face-down piles read as such at any size. */
export function cardBack(label = "") {
  const svg = el("svg", { viewBox: "0 0 60 84", class: "card-svg back", role: "img" });
  if (label) svg.setAttribute("aria-label", label);
  else svg.setAttribute("aria-hidden", "true");
  const defs = el("defs", {});
  const pat = el("pattern", { id: "ct-lattice", width: 8, height: 8, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" });
  pat.append(el("rect", { width: 8, height: 8, fill: "#1d4e89" }));
  pat.append(el("path", { d: "M0 0H8M0 0V8", stroke: "#7fa7d9", "stroke-width": 1.4 }));
  defs.append(pat);
  svg.append(defs);
  svg.append(el("rect", { x: 0.75, y: 0.75, width: 58.5, height: 82.5, rx: 5, fill: "#fffdf8", stroke: "#8a8a8a", "stroke-width": 1.5 }));
  svg.append(el("rect", { x: 4, y: 4, width: 52, height: 76, rx: 3, fill: "url(#ct-lattice)" }));
  svg.append(el("circle", { cx: 30, cy: 42, r: 9, fill: "#fffdf8", stroke: "#1d4e89", "stroke-width": 2 }));
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
