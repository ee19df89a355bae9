/*
 * The table page's websocket: joining (with `since`), reconnecting with backoff, and the
 * server's messages (snapshots, the queue of events, refusals in words).
 */
import { t, cardWords } from "./i18n.js";
import { h, rememberJoined } from "./common.js";
import { onChatMessage } from "./chat.js";
import { motionOn, capture, play } from "./motion.js";
import { cueSounds } from "./sound.js";
import { onReviewMessage } from "./review.js";
import { claimSeat } from "./me.js";
import { CARD_VERBS, TUTORIAL_PAGE, TABLE, TOKEN, MY_SEED, notify, st, $, pause, seatName, showBanner, announce, log, setConn, game, redraw } from "./table_state.js";
import { catchUp, noteEvent, turnKey, turnWords, announceTurn } from "./table_events.js";
import { celebrate, celebrateHand } from "./table_celebrate.js";
import { fairNews, renderVerify } from "./table_fair.js";
import { onHint } from "./table_hints.js";

let pinger = null;

function sendJoin(ws) {
  // A page that has not joined yet asks for every event (since 0), to rebuild the log.
  const join = { type: "join", token: TOKEN, since: st.joined ? st.seq : 0 };
  if (MY_SEED) join.seed = MY_SEED;
  st.joining = true;
  ws.send(JSON.stringify(join));
}

export function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws/${encodeURIComponent(TABLE)}`);
  st.ws = ws;
  setConn("connecting");
  ws.onopen = () => {
    sendJoin(ws);
    clearInterval(pinger);
    pinger = setInterval(() => ws.readyState === WebSocket.OPEN && ws.send('{"type":"ping"}'), 25000);
  };
  ws.onmessage = (e) => {
    let msg;
    try {
      msg = JSON.parse(e.data);
    } catch {
      return;
    }
    onMessage(msg);
  };
  ws.onclose = () => {
    if (st.ws !== ws) return;
    st.ws = null;
    clearInterval(pinger);
    if (st.stop) {
      setConn("closed");
      return;
    }
    const delay = st.backoff;
    st.backoff = Math.min(delay * 2, 15000);
    setConn("reconnecting", Math.ceil(delay / 1000));
    setTimeout(connect, delay + Math.random() * 300);
  };
}

function onMessage(msg) {
  switch (msg.type) {
    case "snapshot":
      onSnapshot(msg);
      break;
    case "event":
      st.queue.push(msg);
      pump();
      break;
    case "presence":
      if (msg.table) st.table = msg.table;
      redraw();
      break;
    case "hint":
      if (msg.seq === st.shown && Array.isArray(msg.actions)) onHint(msg);
      break;
    case "error":
      onError(msg);
      break;
    case "lesson":
      // A lesson comes after its change's events: it waits for them to be shown, so that
      // the lesson and the table move on together.
      st.queue.push(msg);
      pump();
      break;
    case "review_progress":
    case "review":
    case "review_failed":
      onReviewMessage(msg);
      break;
    case "chat":
      onChatMessage(msg);
      break;
    default:
      break;
  }
}

// A refusal's details (docs/server.md) by what they name: cards and suits in notation,
// seats by number; each becomes words before it fills the reason's sentence.
const CARD_DETAILS = new Set(["card", "top", "six", "chosen"]);
const SUIT_DETAILS = new Set(["suit", "trump", "anti_trump"]);
const SEAT_DETAILS = new Set(["seat", "to_move"]);
// A tutorial's refusal of a move that is not the lesson's names moves ("play 4H", "knock").
const MOVE_DETAILS = new Set(["asked", "played"]);

/** A move as a verb phrase in the reader's language: "play the ace of spades", "knock". */
export function moveWords(action) {
  const [verb, arg] = action.split(" ");
  if (arg && CARD_VERBS.has(verb)) return t(`tutorial.verb.${verb}`, { card: cardWords(arg) });
  const key = `tutorial.verb.${verb}`;
  const text = arg ? t(key, { suit: t(`suits.${arg}`) }) : t(key);
  return text === key ? action : text;
}

/** Why the rules refused an action, in the reader's language (locales' "refusal"); null
 * when the error names no reason this page knows. */
export function refusalWords(msg) {
  if (typeof msg.reason !== "string") return null;
  const key = `refusal.${msg.reason}`;
  const params = {};
  for (const [name, value] of Object.entries(msg.details || {})) {
    if (CARD_DETAILS.has(name)) params[name] = cardWords(String(value));
    else if (SUIT_DETAILS.has(name)) params[name] = t(`suits.${value}`);
    else if (SEAT_DETAILS.has(name)) params[name] = seatName(Number(value));
    else if (MOVE_DETAILS.has(name)) params[name] = moveWords(String(value));
    else params[name] = String(value);
  }
  const text = t(key, params);
  if (typeof text !== "string" || text === key) return null;
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function onError(msg) {
  st.pending = false;
  st.waitingKey = null; // a refused stand-in request: its button is offered again
  const known = t(`error.${msg.code}`);
  const why = refusalWords(msg);
  // A code this page knows is said in the reader's words alone: the server's message is
  // English, and mostly the same sentence again.
  const text = why || (known === `error.${msg.code}` ? msg.message || msg.code : known);
  showBanner(text, msg.code || "");
  $("banner").dataset.reason = why ? msg.reason : "";
  notify("refused", msg);
  // A join whose new seed the database could not store yet (busy) joined nothing: it is
  // sent again in a moment, as a reconnection would.
  if (msg.code === "unavailable" && st.joining) {
    const ws = st.ws;
    setTimeout(() => ws && st.ws === ws && ws.readyState === WebSocket.OPEN && sendJoin(ws), 1000);
  }
  // Nothing a reconnection would change: the page stops trying. ("unavailable" is not one:
  // a busy database refused one change, and the same move may be sent again.)
  if (msg.code === "replaced" || msg.code === "bad_token" || msg.code === "quarantined") {
    st.stop = true;
    if (st.ws) st.ws.close();
    // This window plays no more: its hand and buttons go, and one message says why.
    st.hints = null;
    if (msg.code === "bad_token") showInvalidInvite();
  }
  redraw();
}

/** A link whose token holds no seat here (mistyped, cut short, or from another table): the
 * page says so and offers to watch the table, or to go to the lobby. */
function showInvalidInvite() {
  document.title = `${t("invite_invalid.title")} · cardtable`;
  $("title").textContent = t("invite_invalid.title");
  $("banner").hidden = true;
  const box = $("invalid");
  box.hidden = false;
  box.replaceChildren(
    h("h2", {}, t("invite_invalid.title")),
    h("p", {}, t("invite_invalid.text")),
    h(
      "p",
      { class: "invalid-links" },
      h("a", { id: "watch-instead", class: "button primary", href: `/t/${encodeURIComponent(TABLE)}` }, t("invite_invalid.watch")),
      " ",
      h("a", { class: "button", href: "/" }, t("invite_invalid.lobby")),
    ),
  );
}

function onSnapshot(msg) {
  const wasJoined = st.joined;
  st.seat = msg.seat ?? null;
  st.table = msg.table;
  st.game = msg.game;
  st.view = msg.view;
  catchUp(msg.missed || [], msg.game);
  const news = st.watch.snapshot(msg);
  st.seq = msg.seq;
  st.shown = msg.seq;
  st.view = msg.view;
  st.queue = [];
  st.hints = null;
  st.pending = false;
  st.joined = true;
  st.joining = false;
  st.backoff = 500;
  fairNews(news, false);
  renderVerify();
  setConn("connected");
  if (!wasJoined) log(st.seat === null ? t("log.watching") : t("log.seated", { name: seatName(st.seat) }));
  // The lobby lists the seats this browser has taken, with their links (common.js).
  if (TOKEN && !TUTORIAL_PAGE && st.seat !== null) rememberJoined(TABLE, st.seat, location.pathname + location.hash, msg.table.game);
  // A player this browser plays as (me.js) is the seat's from now: its games count for them.
  if (TOKEN && !TUTORIAL_PAGE && st.seat !== null && !wasJoined) claimSeat(TABLE, st.seat, TOKEN);
  redraw();
  announceTurn(true);
}

async function pump() {
  if (st.busy) return;
  st.busy = true;
  while (st.queue.length) {
    const msg = st.queue.shift();
    if (msg.type === "lesson") {
      notify("lesson", msg);
      continue;
    }
    if (msg.seq <= st.seq) continue;
    const ev = msg.event;
    // Motion (motion.js) for the events it explains, not for a long backlog.
    const paced = motionOn() && st.queue.length < 8 && (ev.kind === "action" || ev.kind === "deal") && !st.replay;
    const seen = paced ? capture(ev, st.seat) : null;
    const before = st.view;
    // The first event of a change brings the view after all of it: what is shown, and what
    // a move or a hint is about, changes there; the change's other events only tell it.
    const fresh = msg.seq > st.shown;
    st.seq = msg.seq;
    if (fresh) {
      st.shown = Math.max(msg.seq, (msg.table && msg.table.seq) || 0);
      st.hints = null;
      st.pending = false;
    }
    if (msg.table) st.table = msg.table;
    if (msg.view) st.view = msg.view;
    const said = noteEvent(ev, msg.seq, before, st.view, true);
    fairNews(st.watch.event(msg), true);
    redraw();
    const shown = paced ? play(ev, seen, before, st.view, st.seat) : 0;
    const turn = turnWords();
    const turnChanged = turnKey() !== st.lastTurnKey;
    announce([said, turn && turnChanged ? turn : ""].filter(Boolean).join(" "));
    const v = st.view;
    const mine = !st.replay && st.seat !== null && v && v.to_move === st.seat && !game().isOver(v);
    cueSounds(ev, before, v, { mine, changed: turnChanged });
    st.lastTurnKey = turnKey();
    if (shown) await pause(shown);
    if (ev.kind === "over" && !st.replay) celebrate(ev);
    else if (ev.kind === "deal" && ev.reshuffle == null && !st.replay) celebrateHand(st.view);
  }
  st.busy = false;
  redraw();
}
