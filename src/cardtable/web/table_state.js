/*
 * What the table page's modules share: its table, token and seed, the state of the seat
 * and of what is shown (`st`), the games' renderers, the words, banner, live region and
 * log everything reports through, sending on the socket, and redrawing the table.
 *
 * The page's modules import downwards only: table.js, then the connection, then the
 * drawing (table_render.js), then what it draws (the hand, the hints, the replay bar),
 * then this module. A module below the drawing that changes what is shown calls redraw(),
 * which runs the drawing table.js registers when the page starts (setRenderer).
 */
import { t, cardName, cardWords, setReader } from "./i18n.js";
import { h, seatPositions } from "./common.js";
import { freshSeed } from "./fair.js";
import kow from "./knockout_whist.js";
import neuf from "./neuf.js";
import krytNavalivat from "./kryt_navalivat.js";

export const GAMES = { "knockout-whist": kow, neuf, "kryt-navalivat": krytNavalivat };
export const CARD_VERBS = new Set(["play", "lead", "beat", "cover"]);
// The actions that put something in a trick (Knockout Whist, Neuf).
export const TRICK_VERBS = new Set(["play", "knock"]);

// The tutorial page (tutorial.js) opens its table first and starts the page with startTable.
export const TUTORIAL_PAGE = document.body.classList.contains("tutorial-page");
export let TABLE = TUTORIAL_PAGE ? "" : decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
const FRAG = new URLSearchParams(location.hash.slice(1));
export let TOKEN = FRAG.get("token") || null;
// This page's own seed for the deals (docs/fairness.md), kept for the seat so that a reload
// gives the same one; set when the page starts (pageSeed). A tutorial's page has none: its
// first game's decks are the lesson's script, and nothing is derived from a seed there.
export let MY_SEED = null;

export function pageSeed() {
  if (!TOKEN || TUTORIAL_PAGE) return null;
  const key = `cardtable.seed.${TABLE}.${FRAG.get("seat")}`;
  const seed = localStorage.getItem(key) || freshSeed();
  localStorage.setItem(key, seed);
  return seed;
}

/** Tells the page's other modules (tutorial.js) what the table shows or refused. */
export function notify(name, detail) {
  document.dispatchEvent(new CustomEvent(`cardtable:${name}`, { detail }));
}

export const st = {
  ws: null,
  seat: null,
  seq: 0, // the last event the page has drawn (a reconnection asks for those after it)
  // The last event of the change whose view is shown: each event of one change comes with
  // the view after the whole change, so the page shows it from the change's first event on,
  // while the rest are still being told. A move is sent against it (docs/server.md).
  shown: 0,
  joined: false,
  joining: false, // a join sent, its snapshot not yet come
  table: null,
  game: null,
  view: null,
  watch: null, // the fair deals' checks (fairwatch.js), made when the page starts
  hints: null,
  waitingKey: null,
  pending: false,
  queue: [],
  busy: false,
  backoff: 500,
  stop: false,
  replay: null,
  lastTurnKey: null,
  skip: null,
  lostFocus: false, // the keyboard's focus went with a move, and waits for the next one
};

export const $ = (id) => document.getElementById(id);

export function skipAnimations() {
  for (const a of document.getAnimations ? document.getAnimations() : []) a.finish();
  if (st.skip) st.skip();
}

export function pause(ms) {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      st.skip = null;
      resolve();
    }
    st.skip = done;
  });
}

export function seatName(i) {
  const s = st.table && st.table.seats ? st.table.seats[i] : null;
  // Bots get a numbered name in the reader's language; two "medium bot"s would be ambiguous.
  if (s && s.kind === "bot") return t("bot_name", { n: i + 1 });
  if (s && s.name) return s.name;
  // A lesson's learner has no name: the page calls them "you" (the log: "You play …").
  if (TUTORIAL_PAGE && i === st.seat && st.seat !== null) {
    setReader(t("tutorial.you_name"));
    return t("tutorial.you_name");
  }
  return t("seat_n", { n: i + 1 });
}

export function showBanner(text, code = "") {
  $("banner-text").textContent = text;
  $("banner").dataset.code = code;
  $("banner").hidden = false;
}

export function announce(text) {
  if (!text) return;
  const live = $("live");
  live.append(h("p", {}, text));
  while (live.childElementCount > 6) live.firstElementChild.remove();
}

export function log(text, seq = null, cls = "") {
  const li = h("li", { class: cls, dataset: seq ? { seq: String(seq) } : {} }, text);
  const list = $("log");
  list.prepend(li);
  while (list.childElementCount > 300) list.lastElementChild.remove();
}

export function setConn(state, seconds = 0) {
  const el = $("conn");
  el.dataset.state = state;
  el.textContent = t(`conn.${state}`, { s: seconds });
}

/** Sends a message on the table's socket; false (and the offline banner) when it is not
 * open, so that nothing is taken for sent that was not. */
export function send(obj) {
  if (!st.ws || st.ws.readyState !== WebSocket.OPEN) {
    showBanner(t("error.offline"), "offline");
    return false;
  }
  st.ws.send(JSON.stringify(obj));
  return true;
}

let renderer = () => {};

/** Registers the table's drawing (table_render.js's render), once, as the page starts. */
export function setRenderer(draw) {
  renderer = draw;
}

/** Draws the table again from `st`: the modules the drawing itself draws, and the
 * connection, call this rather than import the drawing. */
export function redraw() {
  renderer();
}

/** Whether the seat may act now: its turn, with legal actions, nothing sent and unanswered,
 * no events waiting to be shown, not replaying and not stopped. */
export function isMyTurn(v) {
  return (
    !st.replay &&
    st.seat !== null &&
    v.to_move === st.seat &&
    Array.isArray(v.legal_actions) &&
    v.legal_actions.length > 0 &&
    !st.pending &&
    st.queue.length === 0 &&
    !st.stop
  );
}

export function game() {
  return st.view ? GAMES[st.view.game] : null;
}

export function ctxFor(view, extra = {}) {
  const bottom = st.seat ?? 0;
  return {
    mySeat: st.replay ? null : st.seat,
    name: seatName,
    positions: seatPositions(view.players, bottom),
    ids: true,
    ...extra,
  };
}

export function actionWords(action) {
  const g = game();
  const [verb, arg] = action.split(" ");
  if (arg && CARD_VERBS.has(verb)) {
    return g.verbLabel ? g.verbLabel(verb, cardWords(arg)) : cardName(arg);
  }
  return g.actionLabel(action, st.view);
}

/** The table and the seat's token the page is at: set by startTable (the tutorial page). */
export function setTable(table, token) {
  TABLE = table;
  TOKEN = token;
}

/** This page's own seed for the deals, set when the page starts (pageSeed). */
export function setSeed(seed) {
  MY_SEED = seed;
}
