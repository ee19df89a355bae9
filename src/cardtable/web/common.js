// Helpers shared by the three games' renderers: seat geometry, the trick in the middle,
// small DOM builders.

import { t, cardName, cardWords, suitName, initI18n, applyI18n, langSelect, currentLang } from "./i18n.js";
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
      node.setAttribute("title", `${t("colon", { label: ctx.name(seat) })} ${cardName(card)}`);
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
  return t(verbKey, { name, card: cardWords(card) });
}

// ---------------------------------------------------------------- kept in this browser

/** The object kept in localStorage under `key`: {} when there is none, or what is there is
 * not an object (written by hand, or by an older page). */
export function storedObject(key) {
  try {
    const all = JSON.parse(localStorage.getItem(key) || "{}");
    return all && typeof all === "object" && !Array.isArray(all) ? all : {};
  } catch {
    return {};
  }
}

// ---------------------------------------------------------------- tables this browser created

// The invitations of the tables created in this browser, newest first (the tokens are in the
// server's answer to the table's creation only: docs/server.md). The table page shows the
// creator an awaited seat's link from here.
const CREATED = "cardtable.created";
const CREATED_KEPT = 30;

// POST /api/tables with `request` (docs/server.md): the server's answer (the table and its
// seats' invitations), or an Error carrying the server's message.
export async function createTable(request) {
  const res = await fetch("/api/tables", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(request),
  });
  const answer = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(answer.message || answer.error || `HTTP ${res.status}`);
  return answer;
}

export function createdTables() {
  try {
    const list = JSON.parse(localStorage.getItem(CREATED) || "[]");
    return Array.isArray(list) ? list.filter((x) => x && typeof x.table === "string") : [];
  } catch {
    return [];
  }
}

/** Keeps a created table's invitations: `answer` is the server's, `request` what was sent;
 * `mine` is the seat this browser takes (the lobby's "rejoin" link). */
export function rememberCreated(answer, request, mine = null) {
  const seats = answer.seats.map((s) => ({
    seat: s.seat,
    kind: s.kind,
    name: s.kind === "human" ? request.seats[s.seat].name : null,
    level: s.kind === "bot" ? s.level || null : null,
    invite: s.invite || null,
  }));
  const own = mine ?? (seats.find((s) => s.invite) || {}).seat ?? null;
  const entry = { table: answer.table, game: request.game, at: Date.now(), spectate: answer.spectate, seats, mine: own };
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

// ---------------------------------------------------------------- tables this browser joined

// The seats this browser has taken, newest first: each with its own link (the token is in
// its fragment), so that closing the tab never loses a seat. The lobby lists these with the
// tables created here.
const JOINED = "cardtable.joined";

export function joinedTables() {
  try {
    const list = JSON.parse(localStorage.getItem(JOINED) || "[]");
    return Array.isArray(list) ? list.filter((x) => x && typeof x.table === "string" && typeof x.link === "string") : [];
  } catch {
    return [];
  }
}

/** Keeps the seat `seat` of `table`, reached at `link` (path and fragment), playing `game`. */
export function rememberJoined(table, seat, link, game) {
  const old = joinedTables().find((x) => x.table === table);
  const entry = { table, seat, link, game, at: old ? old.at : Date.now() };
  const list = [entry, ...joinedTables().filter((x) => x.table !== table)].slice(0, CREATED_KEPT);
  try {
    localStorage.setItem(JOINED, JSON.stringify(list));
  } catch {
    // Storage full or refused: the seat's link is still in the address bar.
  }
}

/** Every table this browser created or joined, newest first: {table, game, at, link (the
 * seat's own, or null), seat, created (the creation's entry, or null)}. */
export function knownTables() {
  const byId = new Map();
  for (const c of createdTables()) {
    const mine = c.seats && c.seats.find((s) => s && s.seat === c.mine && s.invite);
    byId.set(c.table, { table: c.table, game: c.game, at: c.at, link: mine ? mine.invite : null, seat: mine ? mine.seat : null, created: c });
  }
  for (const j of joinedTables()) {
    const known = byId.get(j.table);
    if (known) Object.assign(known, { link: j.link, seat: j.seat, at: Math.min(known.at, j.at) });
    else byId.set(j.table, { table: j.table, game: j.game, at: j.at, link: j.link, seat: j.seat, created: null });
  }
  return [...byId.values()].sort((a, b) => b.at - a.at);
}

/** Forgets a table: its seat's link and the invitations kept for it. */
export function forgetTable(table) {
  try {
    localStorage.setItem(CREATED, JSON.stringify(createdTables().filter((x) => x.table !== table)));
    localStorage.setItem(JOINED, JSON.stringify(joinedTables().filter((x) => x.table !== table)));
  } catch {
    // Nothing kept could be rewritten: nothing to forget either.
  }
}

// ---------------------------------------------------------------- seat badges

/** A seat's round badge: a bot glyph for a bot, else the initials of the name (its first
 * letter, and the first of its last word: "Ana Lima" AL, "Player 2" P2), in any script. The
 * colour comes from the seat number, so a seat keeps it in every language and window. The
 * name is written beside it: the badge is hidden from screen readers. */
export function avatar(seat, name, bot) {
  const node = h("span", { class: `avatar${bot ? " bot" : ""}`, "aria-hidden": "true", dataset: { seat: String(seat) } });
  node.style.backgroundColor = `hsl(${(seat * 137 + 200) % 360} 50% 30%)`;
  if (bot) node.append(botGlyph());
  else node.append(h("bdi", {}, initials(name)));
  return node;
}

function firstLetter(word) {
  if (typeof Intl !== "undefined" && Intl.Segmenter) {
    for (const { segment } of new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(word)) return segment;
  }
  return Array.from(word)[0] || "";
}

export function initials(name) {
  const words = String(name || "").trim().split(/\s+/).filter(Boolean);
  if (!words.length) return "?";
  const first = firstLetter(words[0]).toLocaleUpperCase();
  if (words.length === 1) return first;
  const last = words[words.length - 1];
  return first + (/^\d+$/.test(last) ? last : firstLetter(last).toLocaleUpperCase());
}

const SVG = "http://www.w3.org/2000/svg";

export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) node.setAttribute(k, String(v));
  for (const c of children.flat()) if (c !== null && c !== undefined) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

/** A robot's head, drawn: the same in every font and language. */
function botGlyph() {
  return svg(
    "svg",
    { viewBox: "0 0 24 24", width: "18", height: "18", class: "bot-glyph", focusable: "false" },
    svg("line", { x1: 12, y1: 2.5, x2: 12, y2: 6, stroke: "currentColor", "stroke-width": 1.8 }),
    svg("circle", { cx: 12, cy: 2.5, r: 1.6, fill: "currentColor" }),
    svg("rect", { x: 4, y: 6, width: 16, height: 13, rx: 3.5, fill: "none", stroke: "currentColor", "stroke-width": 1.8 }),
    svg("circle", { cx: 9, cy: 11.5, r: 1.8, fill: "currentColor" }),
    svg("circle", { cx: 15, cy: 11.5, r: 1.8, fill: "currentColor" }),
    svg("line", { x1: 9, y1: 15.5, x2: 15, y2: 15.5, stroke: "currentColor", "stroke-width": 1.8, "stroke-linecap": "round" }),
  );
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

/** A page of the lobby's kind starts: its words in the reader's language, the language
 * chooser (#lang), and its banner (#banner) closed by #banner-close. */
export async function startPage() {
  await initI18n();
  applyI18n();
  langSelect(document.getElementById("lang"));
  document.getElementById("banner-close").addEventListener("click", () => (document.getElementById("banner").hidden = true));
}

/** Says `text` in the page's banner (#banner, #banner-text). */
export function showBanner(text) {
  document.getElementById("banner-text").textContent = text;
  document.getElementById("banner").hidden = false;
}

/** A moment (ms since 1970) as the reader's language writes a date and time. */
export function dateTime(ms, dateStyle = "medium") {
  try {
    return new Date(ms).toLocaleString(currentLang(), { dateStyle, timeStyle: "short" });
  } catch {
    return new Date(ms).toISOString();
  }
}
