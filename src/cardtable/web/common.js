// Helpers shared by the three games' renderers: seat geometry, the trick in the middle,
// small DOM builders.

import { t, cardName, suitName } from "./i18n.js";
import { cardDiv, SUIT_SYMBOL } from "./cards.js";

export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(node.dataset, v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

/**
 * Where each seat sits, in percent of the table area: `bottom` at the bottom, then the
 * others clockwise (seat numbers run clockwise), so the player to one's left is drawn on
 * the left. The geometry is the same in every language.
 */
export function seatPositions(n, bottom) {
  const out = {};
  for (let s = 0; s < n; s++) {
    const k = (s - bottom + n) % n;
    const angle = Math.PI / 2 + (k * 2 * Math.PI) / n;
    out[s] = { x: 50 + 38 * Math.cos(angle), y: 50 + 39 * Math.sin(angle), angle };
  }
  return out;
}

export function suitLabel(suit) {
  if (!suit || suit === "NT") return t("no_trump");
  return `${SUIT_SYMBOL[suit]} ${suitName(suit)}`;
}

export function suitSpan(suit) {
  if (!suit || suit === "NT") return h("span", { class: "suit nt" }, t("no_trump"));
  const red = suit === "D" || suit === "H";
  return h("span", { class: `suit ${red ? "red" : "black"}`, dataset: { suit } }, suitLabel(suit));
}

/** The cards of one trick, each placed toward the seat that played it. */
export function trickNode(plays, ctx, { winner = null, faded = false } = {}) {
  const pos = ctx.positions;
  const wrap = h("div", { class: `trick-cards${faded ? " faded" : ""}` });
  for (const [seat, card] of plays) {
    const p = pos[seat];
    const x = 50 + 0.62 * (p.x - 50);
    const y = 50 + 0.5 * (p.y - 50);
    let node;
    if (card === "knock") {
      node = h("div", { class: "knock-chip", title: t("knock") }, t("knock"));
    } else {
      node = cardDiv(card, winner === seat ? "winner" : "");
      node.setAttribute("title", `${ctx.name(seat)}: ${cardName(card)}`);
    }
    node.classList.add("placed");
    node.dataset.seat = seat;
    node.style.left = `${x}%`;
    node.style.top = `${y}%`;
    wrap.append(node);
  }
  return wrap;
}

/** The trick area for KOW and Neuf: the trick in progress, or the one just won. */
export function trickArea(view, ctx) {
  const box = h("div", { id: ctx.ids ? "trick" : null, class: "trick", role: "group", "aria-label": t("trick") });
  if (view.trick.length) {
    box.append(trickNode(view.trick, ctx));
  } else if (view.tricks.length) {
    const last = view.tricks[view.tricks.length - 1];
    box.append(
      trickNode(last.plays, ctx, { winner: last.winner, faded: true }),
    );
  }
  return box;
}

export function lastOf(list) {
  return list && list.length ? list[list.length - 1] : null;
}

export function badge(text, cls = "") {
  return h("span", { class: `badge ${cls}`.trim() }, text);
}

/** "Ana plays the seven of diamonds" etc. for a play of a card. */
export function playText(verbKey, name, card) {
  return t(verbKey, { name, card: cardName(card) });
}

// ---------------------------------------------------------------- tables this browser created

// The invitations of the tables created in this browser, newest first (the tokens are in the
// server's answer to the table's creation only: docs/server.md). The table page shows the
// creator an awaited seat's link from here.
const CREATED = "cardtable.created";
const CREATED_KEPT = 30;

export function createdTables() {
  try {
    const list = JSON.parse(localStorage.getItem(CREATED) || "[]");
    return Array.isArray(list) ? list.filter((x) => x && typeof x.table === "string") : [];
  } catch {
    return [];
  }
}

/** Keeps a created table's invitations: `answer` is the server's, `request` what was sent. */
export function rememberCreated(answer, request) {
  const seats = answer.seats.map((s) => ({
    seat: s.seat,
    kind: s.kind,
    name: s.kind === "human" ? request.seats[s.seat].name : null,
    invite: s.invite || null,
  }));
  const entry = { table: answer.table, game: request.game, at: Date.now(), spectate: answer.spectate, seats };
  const list = [entry, ...createdTables().filter((x) => x.table !== answer.table)].slice(0, CREATED_KEPT);
  try {
    localStorage.setItem(CREATED, JSON.stringify(list));
  } catch {
    // Storage full or refused: the links are still on the lobby's screen.
  }
}

/** The absolute invitation link of `seat` at `table`, if this browser created the table. */
export function createdInvite(table, seat) {
  const entry = createdTables().find((x) => x.table === table);
  const found = entry && Array.isArray(entry.seats) ? entry.seats.find((s) => s && s.seat === seat) : null;
  return found && typeof found.invite === "string" ? new URL(found.invite, location.origin).href : null;
}

/** Copies a read-only field's text; the button says so for a moment. */
export function copyField(input, button, failed) {
  const done = () => {
    button.textContent = t("lobby.copied");
    setTimeout(() => (button.textContent = t("lobby.copy")), 1500);
  };
  const fallback = () => {
    input.focus();
    input.select();
    try {
      document.execCommand("copy");
      done();
    } catch {
      failed();
    }
  };
  // navigator.clipboard needs a secure context; a LAN address over http falls back.
  if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(input.value).then(done, fallback);
  else fallback();
}
