// Motion that explains play: the hand dealt from the dealer's seat, a card travelling from
// its player to the middle, a finished trick gathered to its winner, a Kryt'-navalivat'
// pick-up carried from the pile to the one who takes it, cards drawn from the stock.
//
// The page is always drawn in its true state first; the animations only move what is
// already in place (or copies of what has just left it, in an aria-hidden layer), so tests
// and screen readers never wait for them. Off with the "No animations" setting
// (localStorage "cardtable.noanim") and with prefers-reduced-motion; a click, Escape or
// one's own move finishes them at once (table.js).

import { cardDiv, backDiv } from "./cards.js";

const NO_ANIM = "cardtable.noanim";
const FLY_MS = 320;
const GATHER_MS = 420;
// A finished trick lies where it was played this long before it is gathered, long enough to
// read who played what: with two players the reply and the gathering would otherwise follow
// the player's own card within a second.
const REST_MS = 1100;
const DEAL_STEP_MS = 45;
const EASE = "cubic-bezier(.2,.7,.3,1)";
// Verbs that move a card from a hand to the middle.
const CARD_VERBS = new Set(["play", "lead", "beat", "cover"]);

export function motionOn() {
  if (localStorage.getItem(NO_ANIM) === "1") return false;
  return !matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** Marks the page when motion is off, so that its CSS transitions stop too. */
export function applyMotionSetting() {
  document.documentElement.classList.toggle("no-motion", !motionOn());
}

function centre(r) {
  return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
}

function seatRect(seat) {
  const el = document.querySelector(`#seats .seat[data-seat="${seat}"]`);
  return el ? el.getBoundingClientRect() : null;
}

/** Where things are before the event is drawn: the card leaving a hand or seat, the part
 * of the Kryt'-navalivat' pile a pick-up takes, the stock. */
export function capture(ev, mySeat) {
  const seen = { from: null, pile: [], stock: null };
  if (ev.kind !== "action") return seen;
  const [verb, card] = ev.action.split(" ");
  if (CARD_VERBS.has(verb) && card) {
    const own = ev.seat === mySeat ? document.querySelector(`#hand [data-card="${card}"]`) : null;
    seen.from = own ? own.getBoundingClientRect() : seatRect(ev.seat);
  }
  if (verb === "take") {
    seen.pile = [...document.querySelectorAll("#center .pile .card.would-take")].map((el) => ({
      card: el.dataset.card,
      rect: el.getBoundingClientRect(),
    }));
  }
  const stock = document.querySelector("#stock .card");
  if (stock) seen.stock = stock.getBoundingClientRect();
  return seen;
}

function layer() {
  let el = document.getElementById("motion-layer");
  if (!el) {
    el = document.createElement("div");
    el.id = "motion-layer";
    el.className = "motion-layer";
    el.setAttribute("aria-hidden", "true");
    document.body.append(el);
  }
  return el;
}

/** A copy of a card (or a back) placed over `rect`, removed when its flight ends. */
function ghost(card, rect) {
  const node = card ? cardDiv(card, "ghost") : backDiv("", "ghost");
  node.removeAttribute("data-card");
  for (const svg of node.querySelectorAll("svg")) svg.removeAttribute("aria-label");
  node.style.left = `${rect.left + window.scrollX}px`;
  node.style.top = `${rect.top + window.scrollY}px`;
  node.style.width = `${rect.width}px`;
  node.style.height = `${rect.height}px`;
  layer().append(node);
  return node;
}

function fly(node, from, to, { id, delay = 0, duration = FLY_MS, scale = 0.85, fade = false, fill = "none" } = {}) {
  if (!node.animate) return null;
  const a = centre(from);
  const b = centre(to);
  const start = { transform: `translate(${a.x - b.x}px, ${a.y - b.y}px) scale(${scale})`, opacity: fade ? 1 : 0.6 };
  const end = { transform: "none", opacity: 1 };
  return node.animate([start, end], { id, duration, delay, easing: EASE, fill });
}

/** A copy of a card carried from `from` to `to`, fading as it arrives, then removed. It
 * waits `delay` ms where it starts (shown), or, with `hidden`, unseen. */
function carry(card, from, to, { id, delay = 0, duration = GATHER_MS, hidden = false } = {}) {
  const node = ghost(card, from);
  const a = centre(from);
  const b = centre(to);
  const total = delay + duration;
  const w = total ? delay / total : 0;
  const gone = { transform: `translate(${b.x - a.x}px, ${b.y - a.y}px) scale(0.5)`, opacity: 0, offset: 1 };
  const frames = hidden
    ? [{ opacity: 0, offset: 0 }, { opacity: 0, offset: w }, { transform: "none", opacity: 1, offset: w }, gone]
    : [{ transform: "none", opacity: 1, offset: 0 }, { transform: "none", opacity: 1, offset: w }, gone];
  const anim = node.animate(frames, { id, duration: total, easing: "ease-in", fill: "both" });
  const drop = () => node.remove();
  anim.onfinish = drop;
  anim.oncancel = drop;
  return anim;
}

function playedCard(ev, seen) {
  const card = ev.action.split(" ")[1];
  const dest = [...document.querySelectorAll(`#center [data-card="${card}"]`)].pop();
  if (dest && seen.from) fly(dest, seen.from, dest.getBoundingClientRect(), { id: "play" });
}

function lastOf(list) {
  return list && list.length ? list[list.length - 1] : null;
}

/** The seat that took the trick `ev` completed, or null when it completed none. */
function trickWinner(ev, before, after) {
  if (!Array.isArray(before.trick) || !before.trick.length || !Array.isArray(after.trick) || after.trick.length) return null;
  if (typeof ev.won === "number") return ev.won;
  const earlier = after.previous_hand || after.previous_deal;
  const last = lastOf(after.tricks) || (earlier ? lastOf(earlier.tricks) : null);
  return last ? last.winner : null;
}

// The trick's cards rest where they lie, then go to the winner's seat; the trick as it
// stays on show (faded, until the next lead) comes back once they have left.
function gather(winner) {
  const to = seatRect(winner);
  const cards = [...document.querySelectorAll("#center .trick .card[data-card]")];
  if (!to || !cards.length) return;
  const wait = FLY_MS + REST_MS;
  for (const el of cards) {
    carry(el.dataset.card, el.getBoundingClientRect(), to, { id: "gather", delay: wait, hidden: true });
    const total = wait + GATHER_MS + 250;
    el.animate(
      [
        { opacity: 1, offset: 0 },
        { opacity: 1, offset: wait / total },
        { opacity: 0, offset: wait / total },
        { opacity: 0, offset: (wait + GATHER_MS) / total },
        { opacity: 1, offset: 1 },
      ],
      { id: "gather", duration: total },
    );
  }
}

function pickUp(ev, seen, mySeat) {
  const to = ev.seat === mySeat ? null : seatRect(ev.seat);
  seen.pile.forEach(({ card, rect }, i) => {
    const mine = ev.seat === mySeat ? document.querySelector(`#hand [data-card="${card}"]`) : null;
    const target = mine ? mine.getBoundingClientRect() : to;
    if (!target) return;
    if (mine) fly(mine, rect, target, { id: "pick-up", delay: i * 30, scale: 1, fill: "backwards" });
    else carry(card, rect, target, { id: "pick-up", delay: i * 30 });
  });
}

// Cards new in one's hand that were not picked up from the pile came from the stock.
function drawn(before, after, seen, taken) {
  if (!seen.stock || !Array.isArray(before.hand) || !Array.isArray(after.hand)) return;
  const had = new Set([...before.hand, ...taken]);
  after.hand
    .filter((c) => !had.has(c))
    .forEach((card, i) => {
      const el = document.querySelector(`#hand [data-card="${card}"]`);
      if (el) fly(el, seen.stock, el.getBoundingClientRect(), { id: "draw", delay: FLY_MS + i * DEAL_STEP_MS, scale: 0.6, fill: "backwards" });
    });
}

// A card-sized box centred on `rect` (a seat's box is wider than a card).
function cardBoxAt(rect) {
  // Not Neuf's spare (neuf.js): its backs are drawn small, out of the way.
  const probe = document.querySelector("#hand .card-btn .card-svg, #center .card:not(.spare .card)");
  const size = probe ? probe.getBoundingClientRect() : { width: 48, height: 67 };
  const c = centre(rect);
  return { left: c.x - size.width / 2, top: c.y - size.height / 2, width: size.width, height: size.height };
}

// One's own cards come from the dealer's seat face up, in the order they are held; a back
// goes to each other seat dealt to.
function dealt(after, mySeat) {
  const from = typeof after.dealer === "number" ? seatRect(after.dealer) : null;
  if (!from) return;
  [...document.querySelectorAll("#hand .card-btn")].forEach((el, i) => {
    fly(el, from, el.getBoundingClientRect(), { id: "deal", delay: i * DEAL_STEP_MS, scale: 0.5, fill: "backwards" });
  });
  const start = cardBoxAt(from);
  (after.hand_sizes || []).forEach((n, seat) => {
    const to = seat !== mySeat && n > 0 ? seatRect(seat) : null;
    if (to) carry(null, start, cardBoxAt(to), { id: "deal", delay: seat * DEAL_STEP_MS, duration: 360 });
  });
}

/** Starts the motion of `ev`, drawn already (its view `after`, the one before `before`);
 * returns how long (ms) the page may let it be seen before the next event. */
export function play(ev, seen, before, after, mySeat) {
  if (!after) return 0;
  if (ev.kind === "deal") {
    if (ev.reshuffle != null) return 0;
    dealt(after, mySeat);
    return 300 + DEAL_STEP_MS * ((after.hand || []).length || 0);
  }
  if (ev.kind !== "action" || !before) return 0;
  const verb = ev.action.split(" ")[0];
  // The trick is measured for its gathering before the last card's flight moves that card.
  const winner = trickWinner(ev, before, after);
  if (winner !== null) gather(winner);
  if (seen.from) playedCard(ev, seen);
  if (verb === "take") pickUp(ev, seen, mySeat);
  if (ev.seat === mySeat && after.game === "kryt-navalivat") drawn(before, after, seen, seen.pile.map((p) => p.card));
  return winner !== null ? FLY_MS + REST_MS + GATHER_MS + 200 : 450;
}
