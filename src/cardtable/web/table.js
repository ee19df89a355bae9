/*
 * The table page: /t/{table}#seat=N&token=... (no token: watch as a spectator).
 * Protocol: docs/server.md. Hooks for browser tests (stable ids and attributes):
 *
 *   #title               game title                #conn        connection state (data-state)
 *   #turn                whose turn, .mine when it is this seat's turn (data-to-move)
 *   #table-area          the table (dir="ltr")     #seats .seat[data-seat="N"]  one box per seat
 *                        (.to-move, .me, .offline, .stand-in; .seat-count = cards held)
 *   #center              the middle: #trick (KOW, Neuf) or #pile and #stock (Kryt)
 *                        cards in them: .card[data-card="7D"]
 *   #hand                own hand: button.card-btn[data-card="7D"], .legal when playable
 *                        (aria-disabled otherwise); arrows / Home / End move, Enter plays
 *   #hand-key            the key to the .known dots of the hand (Kryt'), shown when it has one
 *   #card-menu           menu for a card with several actions: button[data-action="beat 7D"]
 *   #actions             non-card actions: button[data-action="knock"|"trump H"|"take"|...]
 *   #hint                ask for a hint; then .chance[data-action] badges show each action's
 *                        value (the best's, .best) or its gap to the best (data-value,
 *                        data-gap), "forced" when the move is forced (.forced: #hint itself
 *                        says so); the best action's card or button has data-hint="best";
 *                        #hint-panel (data-unit, data-best, data-reason): #hint-why, the
 *                        reason in words, and #hint-value, the best action and its value
 *   #waiting             shown while the seat to move is a person nobody is at
 *                        (data-seat, data-awaited): #waiting-text, #waiting-invite (the
 *                        creator's browser: input.link, button.copy), #stand-in-btn
 *   #last-trick-btn      toggles #last-trick (KOW, Neuf)
 *   #results             shown when the game is over; #next-game ("Play again": the next game
 *                        at this table, same seats), #replay-open, #replay-game, #review-open
 *                        (a seat's "Review my game": review.js has its hooks); #results-board:
 *                        places, tricks per hand, Neuf's chart (results.js has its hooks)
 *   #chat                preset messages (chat.js has its hooks)
 *   .seat .avatar        each seat's round badge: initials, or .bot's glyph
 *   #replay-bar          replay controls: #replay-first/-prev/-next/-last/-exit, #replay-pos,
 *                        #replay-step; arrow keys step while it is open
 *   #info                trump, hand/deal number, #scores and #ledger (Neuf), stock (Kryt);
 *                        #session: games finished at the table, dd[data-seat] wins (or fools)
 *   #verify              deal commitments: li[data-game][data-hand] .ok / .bad / .pending;
 *                        #fair[data-game][data-state=ok|bad|pending]: the game's fair deals
 *                        (docs/fairness.md), li[data-problem] for each thing that fails
 *   #log                 everything that happened, li per event (data-seq); a page opened
 *                        anew rebuilds it from every event of the table (join with since 0)
 *   #live                aria-live="polite" region: plays, turns, results, in words
 *   #banner              errors (#banner-text, data-code; data-reason: why the rules refused
 *                        a move, said in words), dismissed by #banner-close; a card that
 *                        cannot be played, clicked on one's turn, is sent to learn why
 *   #lang                language select       #no-anim   "no animations" checkbox
 *   #sound               "sounds" checkbox (off by default); window.cardtableSounds lists each
 *                        sound played ({name, state}: sound.js)
 *   #motion-layer        copies of cards in flight (aria-hidden; motion.js)
 *   #rules-link          this game's rules page
 */

import { initI18n, t, num, pct, list, applyI18n, langSelect, cardName, cardWords, Forms } from "./i18n.js";
import { cardFace, sortHand, cardShort, cardDiv, isRed } from "./cards.js";
import { h, seatPositions, createdInvite, copyField, rememberJoined, avatar } from "./common.js";
import { initChat, onChatMessage, renderChat } from "./chat.js";
import { noteForResults, renderBoard } from "./results.js";
import { freshSeed } from "./fair.js";
import { FairWatch } from "./fairwatch.js";
import { fetchReplay, Replay } from "./replay.js";
import { motionOn, applyMotionSetting, capture, play } from "./motion.js";
import { initSound, cueSounds } from "./sound.js";
import { initReview, askReview, onReviewMessage, renderReview } from "./review.js";
import kow from "./knockout_whist.js";
import neuf from "./neuf.js";
import krytNavalivat from "./kryt_navalivat.js";

const GAMES = { "knockout-whist": kow, neuf, "kryt-navalivat": krytNavalivat };
const CARD_VERBS = new Set(["play", "lead", "beat", "cover"]);
// The actions that put something in a trick (Knockout Whist, Neuf).
const TRICK_VERBS = new Set(["play", "knock"]);

// The tutorial page (tutorial.js) opens its table first and starts the page with startTable.
const TUTORIAL_PAGE = document.body.classList.contains("tutorial-page");
let TABLE = TUTORIAL_PAGE ? "" : decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
const FRAG = new URLSearchParams(location.hash.slice(1));
let TOKEN = FRAG.get("token") || null;
// This page's own seed for the deals (docs/fairness.md), kept for the seat so that a reload
// gives the same one; set when the page starts (pageSeed). A tutorial's page has none: its
// first game's decks are the lesson's script, and nothing is derived from a seed there.
let MY_SEED = null;

function pageSeed() {
  if (!TOKEN || TUTORIAL_PAGE) return null;
  const key = `cardtable.seed.${TABLE}.${FRAG.get("seat")}`;
  const seed = localStorage.getItem(key) || freshSeed();
  localStorage.setItem(key, seed);
  return seed;
}

/** Tells the page's other modules (tutorial.js) what the table shows or refused. */
function notify(name, detail) {
  document.dispatchEvent(new CustomEvent(`cardtable:${name}`, { detail }));
}

const st = {
  ws: null,
  seat: null,
  seq: 0,
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
};

const $ = (id) => document.getElementById(id);

// ---------------------------------------------------------------- settings, animation

function skipAnimations() {
  for (const a of document.getAnimations ? document.getAnimations() : []) a.finish();
  if (st.skip) st.skip();
}

function pause(ms) {
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

// ---------------------------------------------------------------- names, banner, live

function seatName(i) {
  const s = st.table && st.table.seats ? st.table.seats[i] : null;
  // Bots get a numbered name in the reader's language; two "medium bot"s would be ambiguous.
  if (s && s.kind === "bot") return t("bot_name", { n: i + 1 });
  if (s && s.name) return s.name;
  return t("seat_n", { n: i + 1 });
}

function showBanner(text, code = "") {
  $("banner-text").textContent = text;
  $("banner").dataset.code = code;
  $("banner").hidden = false;
}

function announce(text) {
  if (!text) return;
  const live = $("live");
  live.append(h("p", {}, text));
  while (live.childElementCount > 6) live.firstElementChild.remove();
}

function log(text, seq = null, cls = "") {
  const li = h("li", { class: cls, dataset: seq ? { seq: String(seq) } : {} }, text);
  const list = $("log");
  list.prepend(li);
  while (list.childElementCount > 300) list.lastElementChild.remove();
}

function setConn(state, seconds = 0) {
  const el = $("conn");
  el.dataset.state = state;
  el.textContent = t(`conn.${state}`, { s: seconds });
}

// ---------------------------------------------------------------- websocket

let pinger = null;

function send(obj) {
  if (!st.ws || st.ws.readyState !== WebSocket.OPEN) {
    showBanner(t("error.offline"), "offline");
    return false;
  }
  st.ws.send(JSON.stringify(obj));
  return true;
}

function sendJoin(ws) {
  // A page that has not joined yet asks for every event (since 0), to rebuild the log.
  const join = { type: "join", token: TOKEN, since: st.joined ? st.seq : 0 };
  if (MY_SEED) join.seed = MY_SEED;
  st.joining = true;
  ws.send(JSON.stringify(join));
}

function connect() {
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
      render();
      break;
    case "hint":
      if (msg.seq === st.seq && Array.isArray(msg.actions)) onHint(msg);
      break;
    case "error":
      onError(msg);
      break;
    case "lesson":
      notify("lesson", msg);
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
  render();
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
  render();
  announceTurn(true);
}

async function pump() {
  if (st.busy) return;
  st.busy = true;
  while (st.queue.length) {
    const msg = st.queue.shift();
    if (msg.seq <= st.seq) continue;
    const ev = msg.event;
    // Motion (motion.js) for the events it explains, not for a long backlog.
    const paced = motionOn() && st.queue.length < 8 && (ev.kind === "action" || ev.kind === "deal") && !st.replay;
    const seen = paced ? capture(ev, st.seat) : null;
    const before = st.view;
    st.seq = msg.seq;
    if (msg.table) st.table = msg.table;
    if (msg.view) st.view = msg.view;
    st.hints = null;
    st.pending = false;
    const said = noteEvent(ev, msg.seq, before, st.view, true);
    fairNews(st.watch.event(msg), true);
    render();
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
  render();
}

// ---------------------------------------------------------------- events

// Events missed while away, or on a page opened anew every event of the table, come bare:
// the snapshot's view is the state after them. Each is logged as it was when it happened;
// which trick a play won its event says (`won`), and for events stored before they said so
// it is read from the view's tricks (this hand's and the one before).
function catchUp(missed, gameNo) {
  const events = missed.map((m) => m.event || m).filter((ev) => ev && ev.seq > st.seq);
  const won = trickWinners(events, gameNo, st.view);
  for (const ev of events) noteEvent(ev, ev.seq, null, null, false, { game: gameNo, won: won.get(ev.seq) });
}

/** Event number -> the seat that won the trick the play completed, for the plays of the
 * current hand and the one before it among `events`, matched from the end with the view's
 * tricks (a play that does not match, or an older hand, gets nothing). */
function trickWinners(events, gameNo, view) {
  const won = new Map();
  const g = view ? GAMES[view.game] : null;
  if (!g || !g.hasTricks) return won;
  const hands = [[]];
  for (const ev of events) {
    if (ev.game !== gameNo) continue;
    if (ev.kind === "deal" && ev.reshuffle == null) hands.push([]);
    else if (ev.kind === "action" && TRICK_VERBS.has(ev.action.split(" ")[0])) hands[hands.length - 1].push(ev);
  }
  const flat = (tricks, open = []) => [
    ...(tricks || []).flatMap((tr) => tr.plays.map((play, i) => ({ play, winner: i === tr.plays.length - 1 ? tr.winner : null }))),
    ...open.map((play) => ({ play, winner: null })),
  ];
  const pairs = [
    [hands[hands.length - 1], flat(view.tricks, view.trick)],
    [hands.length > 1 ? hands[hands.length - 2] : [], flat(g.previousTricks(view))],
  ];
  for (const [plays, known] of pairs) {
    if (plays.length > known.length) continue;
    const tail = known.slice(known.length - plays.length);
    const same = plays.every((ev, i) => {
      const [verb, arg] = ev.action.split(" ");
      return tail[i].play[0] === ev.seat && tail[i].play[1] === (verb === "knock" ? "knock" : arg);
    });
    if (!same) continue;
    plays.forEach((ev, i) => tail[i].winner !== null && tail[i].winner !== undefined && won.set(ev.seq, tail[i].winner));
  }
  return won;
}

function game() {
  return st.view ? GAMES[st.view.game] : null;
}

function ctxFor(view, extra = {}) {
  const bottom = st.seat ?? 0;
  return {
    mySeat: st.replay ? null : st.seat,
    name: seatName,
    positions: seatPositions(view.players, bottom),
    ids: true,
    ...extra,
  };
}

function actionWords(action) {
  const g = game();
  const [verb, arg] = action.split(" ");
  if (arg && CARD_VERBS.has(verb)) {
    return g.verbLabel ? g.verbLabel(verb, cardWords(arg)) : cardName(arg);
  }
  return g.actionLabel(action, st.view);
}

/** Logs one event (and verifies reveals); returns the words for the live region. `known`
 * holds what an event caught up on (bare, without its view) cannot tell: the number of the
 * game the view is of, and the seat that won the trick a play completed. */
function noteEvent(ev, seq, before, given, live, known = null) {
  // Events missed while away come without a view; the snapshot's current view names the
  // seats and the game just as well.
  const view = given || st.view;
  const g = view ? GAMES[view.game] : null;
  let text = "";
  switch (ev.kind) {
    case "game":
      st.game = ev.game;
      text = t("log.game", { n: ev.game });
      break;
    case "deal":
      // A reshuffle of cut cards is told by the cuts themselves; a deal names its hand
      // (Neuf: its deal), and the deck's commitment stays in the fair-deals details.
      if (ev.reshuffle != null) break;
      text = view && view.game === "neuf" ? t("log.deal_neuf", { n: ev.hand }) : t("log.deal", { hand: ev.hand });
      break;
    case "reveal":
    case "seed":
      // The fair deals' machinery: checked by the watch, shown behind the badge.
      break;
    case "action": {
      if (g && view) text = g.describe(ev, before, view, ctxFor(view));
      else text = `${seatName(ev.seat)}: ${ev.action}`;
      if (ev.by === "stand-in") text += ` ${t("log.by_stand_in")}`;
      // The play that completes a trick also says who took it: the event says so (the same
      // words live and in a log rebuilt from the events); an event stored before events
      // said so is read from the views.
      if (typeof ev.won === "number") {
        text += ` ${t("won_trick", { name: seatName(ev.won) })}.`;
      } else if (g && g.hasTricks && before && view && before.trick.length && !view.trick.length) {
        const last = g.lastTrick(view);
        if (last) text += ` ${t("won_trick", { name: seatName(last.winner) })}.`;
      } else if (known && known.won !== undefined) {
        text += ` ${t("won_trick", { name: seatName(known.won) })}.`;
      }
      break;
    }
    case "over": {
      // An earlier game's end is told from its result; the view is of a later game.
      const earlier = known && known.game !== ev.game;
      // The event's own final view (a watcher's) tells it the same live and in a log rebuilt
      // later; an event stored before events held it is told from its result or the view.
      let lines = [];
      if (g && ev.final) lines = g.results(ev.final, ctxFor(ev.final));
      else if (g && view && earlier && ev.result) lines = g.resultOf(ev.result, view, ctxFor(view));
      else if (g && view && g.isOver(view)) lines = g.results(view, ctxFor(view));
      text = [t("game_over"), ...lines].join(" ");
      break;
    }
    default:
      text = JSON.stringify(ev);
  }
  noteForResults(ev);
  if (text) log(text, seq, `ev-${ev.kind}`);
  return text;
}

function turnKey() {
  const v = st.view;
  return v ? `${v.to_move}|${v.phase || v.mode}|${game().isOver(v)}` : "";
}

function turnWords() {
  const v = st.view;
  if (!v) return "";
  return waitingWords(v) || game().turnText(v, ctxFor(v));
}

/** The seat to move when it is a person's with nobody at it and no bot standing in:
 * {seat, awaited} (awaited: its invited player has never come), else null. */
function absentMover(v) {
  if (st.replay || !v || v.to_move === null || v.to_move === undefined || GAMES[v.game].isOver(v)) return null;
  const info = st.table && st.table.seats ? st.table.seats[v.to_move] : null;
  if (!info || info.kind !== "human" || info.connected || info.stand_in) return null;
  return { seat: v.to_move, awaited: Boolean(info.awaited) };
}

function waitingWords(v) {
  const absent = absentMover(v);
  if (!absent) return "";
  return t(absent.awaited ? "waiting.join" : "waiting.back", { name: seatName(absent.seat) });
}

function announceTurn(force) {
  const key = turnKey();
  if (force || key !== st.lastTurnKey) announce(turnWords());
  st.lastTurnKey = key;
}

// ---------------------------------------------------------------- the end of a game

/** The game's end in the middle of the table: who won (in Kryt'-navalivat', who is the
 * fool), with a short flourish unless motion is off; the results sheet is below it. The
 * live region has already said it, so this is for the eyes alone. A click dismisses it. */
function celebrate(ev) {
  const final = ev.final || st.view;
  if (!final) return;
  let words;
  let mine = false;
  if (final.game === "kryt-navalivat") {
    const fool = final.loser;
    mine = fool !== null && fool !== undefined && st.seat !== null && fool !== st.seat;
    words = fool === null || fool === undefined ? t("celebrate.draw") : fool === st.seat ? t("celebrate.you_fool") : t("celebrate.fool", { name: seatName(fool) });
  } else {
    const winners = (ev.result && ev.result.winners) || [];
    mine = st.seat !== null && winners.includes(st.seat);
    words = mine
      ? t("celebrate.you_win")
      : winners.length === 1
        ? t("celebrate.wins", { name: seatName(winners[0]) })
        : t("celebrate.win_together", { names: list(winners.map(seatName)) });
  }
  showOverTable(words, { mine, sparks: true, game: ev.game });
}

/** A hand (Neuf: a deal) just ended: who took the most tricks, for a moment over the table. */
function celebrateHand(view) {
  if (!view || (view.game !== "knockout-whist" && view.game !== "neuf")) return;
  const previous = view.game === "neuf" ? view.previous_deal : view.previous_hand;
  if (!previous || !Array.isArray(previous.tricks)) return;
  const counts = Array(view.players).fill(0);
  for (const trick of previous.tricks) if (typeof trick.winner === "number") counts[trick.winner] += 1;
  const top = Math.max(...counts);
  if (top <= 0) return;
  const leaders = counts.flatMap((c, seat) => (c === top ? [seat] : []));
  const number = view.game === "neuf" ? view.deal_number - 1 : previous.hand_number;
  const label = view.game === "neuf" ? t("neuf.deal_n", { n: number }) : t("results.hand_n", { n: number });
  const words =
    leaders.length === 1
      ? t("celebrate.hand_to", { label, name: seatName(leaders[0]), count: top })
      : t("celebrate.hand_tied", { label, names: list(leaders.map(seatName)), count: top });
  showOverTable(words, { mine: leaders.includes(st.seat), hand: true, sparks: false });
}

/** Words over the middle of the table, for the eyes (the live region says it already); a
 * click puts them away, and a hand's go by themselves. */
function showOverTable(words, { mine = false, hand = false, sparks = false, game = null } = {}) {
  const old = $("table-area").querySelector(".celebration");
  if (old) old.remove();
  const shine =
    sparks && motionOn()
      ? [...Array(12).keys()].map((i) => {
          const spark = h("span", { class: "spark" });
          spark.style.setProperty("--k", String(i));
          return spark;
        })
      : [];
  const box = h(
    "div",
    // The table area is left to right (the seating never mirrors); the words are the page's.
    { class: `celebration${mine ? " mine" : ""}${hand ? " hand" : ""}`, dir: document.documentElement.dir || "ltr", "aria-hidden": "true", dataset: { game: String(game ?? "") } },
    ...shine,
    h("p", { class: "celebration-words" }, words),
  );
  box.addEventListener("click", () => box.remove());
  $("table-area").append(box);
  if (hand) setTimeout(() => box.remove(), 2600);
}

// ---------------------------------------------------------------- fair deals

// What this page saw of the deals, and whether they check out, is kept by a FairWatch
// (fairwatch.js, pure and tested apart from the page); here it is announced and shown: one
// badge beside the table's title, and the details in a dialog the badge opens.

function fairNews(news, live) {
  for (const { kind, entry } of news) {
    if (kind === "deck" && (live || entry.status === "bad")) {
      announce(t(entry.status === "ok" ? "verify.ok_said" : "verify.bad_said", { hand: entry.hand }));
    }
    if (kind === "game" && (live || entry.status === "bad")) {
      announce(t(entry.status === "ok" ? "fair.ok_said" : "fair.bad_said", { n: entry.game }));
    }
  }
  if (news.length) renderVerify();
}

/** The badge's state for the game shown: "bad" if any check failed, "ok" once the game's
 * deals are proven (or, at a table without fair deals, its revealed decks all match), else
 * "checking" while the server's seed is still secret. */
function fairState() {
  const watch = st.watch;
  const decks = [...watch.decks.values()].filter((d) => d.game === st.game);
  const game = watch.games.get(st.game);
  if (decks.some((d) => d.status === "bad") || (game && game.status === "bad")) return "bad";
  if (game && game.commitment) return game.status === "ok" ? "ok" : "checking";
  return decks.length && decks.every((d) => d.status === "ok") ? "ok" : "checking";
}

function renderFair() {
  const box = $("verify");
  const entry = st.watch.games.get(st.game);
  // Made here, inside the box, so not one of the page's fixed elements.
  let el = box.querySelector("#fair");
  if (!entry || !entry.commitment) {
    if (el) el.remove();
    return;
  }
  const words =
    entry.status === "pending"
      ? t("fair.pending")
      : entry.status === "ok"
        ? t("fair.ok", { count: entry.checked.decks, seen: entry.checked.seen })
        : t("fair.bad");
  const problems = entry.problems.map(([what, hand]) =>
    h("li", { dataset: { problem: what, hand: String(hand ?? "") } }, t(`fair.problem.${what}`, { hand: hand ?? "" })),
  );
  const fresh = h(
    "div",
    { id: "fair", class: `fair ${entry.status}`, dataset: { game: String(entry.game), state: entry.status } },
    h("p", {}, words),
    h("ul", {}, ...problems),
  );
  if (el) el.replaceWith(fresh);
  else box.append(fresh);
  el = fresh;
}

function renderVerify() {
  const box = $("verify");
  const entries = [...st.watch.decks.values()]
    .filter((d) => d.game === st.game)
    .sort((a, b) => b.hand - a.hand || (b.reshuffle ?? -1) - (a.reshuffle ?? -1));
  const ok = entries.filter((d) => d.status === "ok").length;
  const bad = entries.filter((d) => d.status === "bad").length;
  const state = fairState();
  box.dataset.state = bad ? "bad" : ok ? "ok" : "pending";
  const badge = $("fair-badge");
  // A table without fair deals (a tutorial's) has no badge, unless a deck's own check failed.
  const fair = st.watch.games.get(st.game);
  badge.hidden = !entries.length || (!(fair && fair.commitment) && state !== "bad");
  badge.dataset.state = state;
  // A phone's bar has room for the short words alone; the button is named by the long.
  badge.setAttribute("aria-label", t(`badge.${state}`));
  badge.replaceChildren(h("span", { class: "long", "aria-hidden": "true" }, t(`badge.${state}`)), h("span", { class: "short", "aria-hidden": "true" }, t(`badge_short.${state}`)));
  // The list scrolls once it is long: focusable, so that the keyboard can scroll it too. A
  // deck's commitment is in its title, for whoever wants to compare it by hand.
  const list = h(
    "ul",
    { tabindex: "0", "aria-label": t("verify.title") },
    ...entries.map((d) =>
      h(
        "li",
        { class: d.status, dataset: { game: String(d.game), hand: String(d.hand) }, title: d.commitment },
        `${dealLabel(d)}: `,
        h("strong", {}, t(`verify.${d.status}`)),
      ),
    ),
  );
  box.replaceChildren(
    h("p", { class: "verify-intro" }, t("verify.intro")),
    h(
      "p",
      { class: "verify-summary" },
      bad ? t("verify.warning", { count: bad }) : ok ? t("verify.summary", { ok, count: entries.length }) : t("verify.waiting", { count: entries.length }),
    ),
    list,
  );
  renderFair();
}

// ---------------------------------------------------------------- rendering

function render() {
  const v = st.replay ? st.replay.frame.view : st.view;
  if (!v) return;
  const g = GAMES[v.game];
  const hands = st.replay ? v.hands : null;
  const ctx = ctxFor(v, { hands });
  document.title = `${t(`games.${v.game}`)} · cardtable`;
  $("title").textContent = t(`games.${v.game}`);
  $("rules-link").href = `/rules/${v.game}`;
  document.body.dataset.game = v.game;
  const menuOpen = !$("card-menu").hidden;
  if (menuOpen) closeMenu(false);

  const myTurn = isMyTurn(v);
  const turn = $("turn");
  // Whom the table waits for is said in the waiting box beside it, once.
  let words = st.replay ? replayWords() : st.stop ? "" : g.turnText(v, ctx);
  const lastTrick = g.hasTricks && !v.trick.length ? g.lastTrick(v) : null;
  if (lastTrick && v.tricks.length && !st.replay) words = `${t("won_trick", { name: seatName(lastTrick.winner) })}. ${words}`;
  turn.textContent = words;
  turn.classList.toggle("mine", myTurn);
  turn.dataset.toMove = v.to_move ?? "";

  renderWaiting(v);
  renderSeats(v, g, ctx);
  const center = g.center(v, ctx);
  $("center").replaceChildren(center);
  renderHand(v, g, myTurn);
  renderActions(v, g, myTurn);
  renderInfo(v, g, ctx);
  renderControls(v, g, myTurn);
  renderResults(v, g, ctx);
  renderVerify();
  renderReplayBar();
  renderReview();
  renderChat();
  notify("rendered", { view: v, seq: st.seq, myTurn, table: st.table });
}

// Who the table waits for, the creator's copy of their invitation (kept by the lobby in this
// browser), and, for a seated player, a bot to play for them until they come.
function renderWaiting(v) {
  const box = $("waiting");
  const absent = absentMover(v);
  box.hidden = !absent;
  if (!absent) {
    st.waitingKey = null;
    return;
  }
  const name = seatName(absent.seat);
  const key = `${absent.seat}|${absent.awaited}|${st.seat}|${name}`;
  if (key === st.waitingKey) return; // kept as it is: a focused button or a selected link stays
  st.waitingKey = key;
  box.dataset.seat = String(absent.seat);
  box.dataset.awaited = String(absent.awaited);
  const parts = [h("p", { id: "waiting-text" }, waitingWords(v))];
  const link = createdInvite(TABLE, absent.seat);
  if (link) {
    const input = h("input", { type: "text", class: "link", dir: "ltr", readonly: true, value: link, "aria-label": t("waiting.invite_label", { name }) });
    const copy = h("button", { type: "button", class: "copy" }, t("lobby.copy"));
    copy.addEventListener("click", () => copyField(input, copy, () => showBanner(t("lobby.copy_failed"), "copy")));
    parts.push(h("div", { id: "waiting-invite", class: "invite" }, h("span", { class: "who" }, t("waiting.invite", { name })), input, copy));
  }
  if (st.seat !== null) {
    const button = h("button", { type: "button", id: "stand-in-btn", dataset: { seat: String(absent.seat) } }, t("waiting.stand_in", { name }));
    button.addEventListener("click", () => {
      if (send({ type: "stand_in", seat: absent.seat })) button.disabled = true;
    });
    parts.push(h("p", { class: "stand-in-offer" }, button, " ", h("span", { class: "note" }, t("waiting.stand_in_note", { name }))));
  }
  box.replaceChildren(...parts);
}

// Neuf calls a hand a deal, as its info panel does ("Deal 3"); the other games say hand.
function dealLabel(d) {
  if (d.reshuffle !== null) return t("verify.reshuffle", { hand: d.hand });
  return st.view && st.view.game === "neuf" ? t("neuf.deal_n", { n: d.hand }) : t("verify.hand", { hand: d.hand });
}

function isMyTurn(v) {
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

function renderSeats(v, g, ctx) {
  const box = $("seats");
  box.replaceChildren();
  for (let s = 0; s < v.players; s++) {
    const info = st.table && st.table.seats ? st.table.seats[s] : null;
    const p = ctx.positions[s];
    const human = !info || info.kind === "human";
    const classes = ["seat"];
    if (v.to_move === s && !g.isOver(v)) classes.push("to-move");
    if (s === st.seat && !st.replay) classes.push("me");
    if (info && human && !info.connected) classes.push("offline");
    if (info && info.stand_in) classes.push("stand-in");
    const dot = human
      ? h("span", { class: `dot ${info && info.connected ? "on" : "off"}`, title: t(info && info.connected ? "connected" : "disconnected") })
      : h("span", { class: "dot bot", title: t("bot") });
    const name = h("div", { class: "seat-name" }, avatar(s, seatName(s), !human), dot, h("span", { class: "n" }, seatName(s)));
    if (s === st.seat && !st.replay) name.append(h("span", { class: "you" }, t("you")));
    const count = v.hand_sizes ? v.hand_sizes[s] : 0;
    const meta = h(
      "div",
      { class: "seat-meta" },
      // A name on a plain span is ignored by screen readers: the count is an image, named.
      h("span", { class: "seat-count", role: "img", title: t("cards_held", { count }), "aria-label": t("cards_held", { count }) }, h("span", { class: "mini-back", "aria-hidden": "true" }), num(count)),
      ...g.seatLines(v, s, ctx),
    );
    if (info && info.stand_in) meta.append(h("span", { class: "badge stand-in" }, t("stand_in")));
    if (info && !human) meta.append(h("span", { class: "badge level" }, t(`levels.${info.level}`)));
    // The table area is left to right so that the seating never mirrors; a seat's own
    // words follow the page's language.
    const el = h("div", { class: classes.join(" "), dir: document.documentElement.dir || "ltr", dataset: { seat: String(s) } }, name, meta);
    // The others' hands as card backs, fanned above their boxes: how many they hold at a
    // glance (the count beside it is what a screen reader is told).
    if (s !== st.seat && !(ctx.hands && ctx.hands[s]) && count > 0) {
      const shown = Math.min(count, 13);
      // Custom properties set through the CSSOM: the policy allows no style attribute.
      const backs = [...Array(shown).keys()].map((i) => {
        const back = h("span", { class: "mini-back" });
        back.style.setProperty("--i", String(i - (shown - 1) / 2));
        return back;
      });
      el.prepend(h("div", { class: "seat-backs", "aria-hidden": "true", dataset: { count: String(count) } }, ...backs));
    }
    if (ctx.hands && ctx.hands[s]) {
      const chips = sortHand(ctx.hands[s], g.trump(v)).map((c) => h("span", { class: `chip ${isRed(c) ? "red" : ""}` }, cardShort(c)));
      el.append(h("div", { class: "seat-hand" }, ...chips));
    }
    el.style.left = `${p.x}%`;
    el.style.top = `${p.y}%`;
    box.append(el);
  }
}

function splitActions(v) {
  const byCard = new Map();
  const other = [];
  for (const a of v.legal_actions || []) {
    const [verb, arg] = a.split(" ");
    if (arg && CARD_VERBS.has(verb)) {
      const key = arg.toUpperCase();
      if (!byCard.has(key)) byCard.set(key, []);
      byCard.get(key).push(a);
    } else other.push(a);
  }
  return { byCard, other };
}

// ---------------------------------------------------------------- hints (docs/server.md)

/** A hint: the best action marked, each action's value in the game's unit (or its gap to
 * the best), and the reason in words. A forced move (the only legal action) is not valued. */
function onHint(msg) {
  const forced = msg.actions.length === 1;
  const actions = new Map(msg.actions.map((a) => [a.action, a]));
  const best = actions.has(msg.best) ? msg.best : msg.actions[0].action;
  st.hints = { actions, best, forced, unit: msg.unit, reason: msg.reason };
  render();
  if (forced) announce(t("hint_forced_said", { action: actionWords(best) }));
  else {
    const value = actions.get(best).value;
    const words = typeof value === "number" ? hintValue(value, true) : "";
    announce(t("hints.said", { action: actionWords(best), value: words, why: hintWhy() }));
  }
}

const round1 = (x) => Math.round(x * 10) / 10;

/** An action's value in the hint's unit: "2.4 tricks" (`long`: "2.4 tricks this hand"). */
function hintValue(value, long) {
  const unit = st.hints.unit;
  if (unit === "not_fool") return long ? t("hints.value.not_fool", { chance: pct(value) }) : pct(value);
  const count = round1(value);
  if (unit === "points") return t(long ? "hints.value.points" : "hints.short.points", { count });
  return t(long ? "hints.value.tricks" : "tricks_n", { count });
}

/** An action's gap to the best in the hint's unit: "-0.8", "-5%". */
function hintGap(gap) {
  return st.hints.unit === "not_fool" ? pct(gap) : num(round1(gap));
}

/** The reason the server gave, in the reader's words: its cards in the case the text asks
 * for, its suit, the seat it names. */
function hintWhy() {
  const reason = st.hints.reason;
  if (!reason || typeof reason.key !== "string" || !reason.key.startsWith("hints.why.")) return "";
  const params = {};
  for (const [name, value] of Object.entries(reason.params || {})) {
    if (name === "card") params.card = cardWords(String(value));
    else if (name === "suit") params.suit = new Forms((c) => t(c === "gen" ? `suits_of.${value}` : `suits.${value}`));
    else if (name === "seat") params.name = seatName(value);
    else if (name === "count" && typeof value === "number") params.count = value;
  }
  return t(reason.key, params);
}

/** Whether `action` is the hint's best: its card or button is marked data-hint="best". */
function hintBest(action) {
  return !!st.hints && !st.hints.forced && st.hints.best === action;
}

// A hint's badge on a card or button: the best action's value, the others' gap to it,
// "forced" for the only legal move, a dash for an action the search did not rate. A card
// with several actions shows its best one's.
function chanceBadge(actions) {
  if (!st.hints) return null;
  const known = actions.filter((a) => st.hints.actions.has(a));
  if (!known.length) return null;
  const rate = (a) => {
    const value = st.hints.actions.get(a).value;
    return a === st.hints.best ? Infinity : typeof value === "number" ? value : -Infinity;
  };
  const shown = known.reduce((x, y) => (rate(y) > rate(x) ? y : x));
  if (st.hints.forced) return h("span", { class: "chance forced", dataset: { action: shown }, "aria-label": t("hint_forced") }, t("forced"));
  const { value, gap } = st.hints.actions.get(shown);
  if (typeof value !== "number") return h("span", { class: "chance unrated", dataset: { action: shown }, "aria-label": t("not_rated") }, "–");
  const dataset = { action: shown, value: String(value), gap: String(gap) };
  if (shown === st.hints.best) {
    return h("span", { class: "chance best", dataset, "aria-label": `${t("hints.best")}: ${hintValue(value, true)}` }, hintValue(value, false));
  }
  return h("span", { class: "chance", dataset, "aria-label": t("hints.gap", { gap: hintGap(gap) }) }, hintGap(gap));
}

/** The hint's sentence and the best action's value, under the controls. */
function renderHintPanel() {
  const panel = $("hint-panel");
  const hint = st.hints;
  panel.hidden = !hint || hint.forced || !!st.replay;
  if (panel.hidden) return;
  panel.dataset.unit = hint.unit || "";
  panel.dataset.best = hint.best;
  panel.dataset.reason = (hint.reason && hint.reason.key) || "";
  $("hint-why").textContent = hintWhy();
  const value = hint.actions.get(hint.best).value;
  $("hint-value").textContent = typeof value === "number" ? t("hints.summary", { action: actionWords(hint.best), value: hintValue(value, true) }) : "";
}

function renderHand(v, g, myTurn) {
  const hand = $("hand");
  const wrap = $("hand-wrap");
  const seated = st.seat !== null && !st.replay && Array.isArray(v.hand);
  wrap.hidden = !seated;
  // "Skip to your hand" is there only when there is a hand to skip to.
  document.querySelector(".skip").hidden = !seated;
  document.body.classList.toggle("stopped", st.stop);
  if (!seated) {
    hand.replaceChildren();
    return;
  }
  const focused = hand.contains(document.activeElement) ? document.activeElement.dataset.card : null;
  const focusIndex = focused ? [...hand.querySelectorAll(".card-btn")].findIndex((b) => b.dataset.card === focused) : -1;
  const { byCard } = splitActions(v);
  const cardTurn = myTurn && byCard.size > 0;
  const cards = sortHand(v.hand, g.trump(v));
  const buttons = cards.map((card) => {
    const acts = myTurn ? byCard.get(card) || [] : [];
    const legal = acts.length > 0;
    const known = Array.isArray(v.known) && (v.known[st.seat] || []).includes(card);
    const label = list([cardName(card), legal ? t("playable") : "", known ? t("kryt.known_mine") : ""].filter(Boolean), "unit");
    const b = h(
      "button",
      {
        type: "button",
        class: `card-btn card ${legal ? "legal" : cardTurn ? "dimmed" : ""}`.trim(),
        dataset: { card },
        "aria-label": label,
        "aria-disabled": legal ? null : "true",
        tabindex: "-1",
      },
      cardFace(card),
      chanceBadge(acts),
    );
    if (known) {
      b.classList.add("known");
      b.title = t("kryt.known_mine");
    }
    if (acts.some(hintBest)) {
      b.dataset.hint = "best";
      b.title = t("hints.best");
    }
    b.addEventListener("click", () => onCard(b, card, acts));
    return b;
  });
  hand.replaceChildren(...buttons);
  hand.setAttribute("aria-label", t("your_hand", { count: cards.length }));
  fitHand();
  const key = $("hand-key");
  key.hidden = !buttons.some((b) => b.classList.contains("known"));
  if (!key.hidden) key.replaceChildren(h("span", { class: "known-dot", "aria-hidden": "true" }), t("kryt.known_key"));
  if (!buttons.length) return;
  let target = buttons.find((b) => b.dataset.card === focused);
  if (!target && focusIndex >= 0) target = buttons[Math.min(focusIndex, buttons.length - 1)];
  if (!target) target = buttons.find((b) => b.classList.contains("legal")) || buttons[0];
  target.tabIndex = 0;
  if (focused || focusIndex >= 0) target.focus({ preventScroll: true });
}

// Cards overlap only as much as the room asks: side by side with a small gap when they fit,
// else fanned, each card's button as wide as the strip of it that shows, never narrower than
// a finger's tap target; a hand that would need narrower strips (a Kryt' pick-up, Neuf on a
// phone) is laid out in rows of equal length. Buttons never overlap one another.
const GAP = 4;
const TAP = 44;
function fitHand() {
  const hand = $("hand");
  for (const br of hand.querySelectorAll(".hand-break")) br.remove();
  const buttons = [...hand.querySelectorAll(".card-btn")];
  if (!buttons.length) return;
  for (const b of buttons) b.classList.remove("row-end");
  const n = buttons.length;
  // The card's width as the style sets it: a turned card's box is wider than the card.
  const cw = parseFloat(getComputedStyle(hand).getPropertyValue("--cw")) || TAP;
  // A pixel to spare: a row that fits to the pixel wraps its last card on rounding.
  const wide = Math.max(cw, $("hand-wrap").clientWidth - 8 - 1);
  const layout = (room) => {
    const perRow = Math.max(1, Math.floor((room - cw) / Math.min(TAP, cw)) + 1);
    const per = Math.ceil(n / Math.ceil(n / perRow));
    const pitch = per > 1 ? Math.min(cw + GAP, (room - cw) / (per - 1)) : cw + GAP;
    return { per, pitch };
  };
  let { per, pitch } = layout(wide);
  // Cards that overlap are held as a fan, whose outer cards turn out past the row's ends:
  // the row is laid out again with room for them.
  const fanned = per > 1 && pitch < cw;
  if (fanned) ({ per, pitch } = layout(Math.max(cw, wide - 0.4 * cw)));
  hand.style.setProperty("--pitch", `${Math.min(pitch, cw)}px`);
  hand.style.setProperty("--gap", `${Math.max(0, pitch - cw)}px`);
  for (let i = per - 1; i < n; i += per) {
    buttons[i].classList.add("row-end");
    if (i < n - 1) buttons[i].after(h("span", { class: "hand-break", "aria-hidden": "true" }));
  }
  // An overlapping row turns a little from the middle out, as a hand of cards is held; every
  // row dips at its ends (style.css turns --fan and --dip into rotate and translate).
  const step = fanned ? Math.min(3, 30 / per) : 0;
  buttons.forEach((b, i) => {
    const row = Math.floor(i / per);
    const inRow = Math.min(per, n - row * per);
    const k = (i % per) - (inRow - 1) / 2;
    b.style.setProperty("--fan", String(k * step));
    b.style.setProperty("--dip", String(k * k * (fanned ? step * 0.18 : 0.6)));
  });
}

function onHandKey(e) {
  const buttons = [...$("hand").querySelectorAll("button.card-btn")];
  const i = buttons.indexOf(document.activeElement);
  if (i < 0) return;
  let j = null;
  if (e.key === "ArrowRight" || e.key === "ArrowDown") j = Math.min(buttons.length - 1, i + 1);
  else if (e.key === "ArrowLeft" || e.key === "ArrowUp") j = Math.max(0, i - 1);
  else if (e.key === "Home") j = 0;
  else if (e.key === "End") j = buttons.length - 1;
  if (j === null) return;
  e.preventDefault();
  buttons[i].tabIndex = -1;
  buttons[j].tabIndex = 0;
  buttons[j].focus();
}

function onCard(button, card, acts) {
  skipAnimations();
  if (!acts.length) {
    // A card that cannot be played now: on one's turn the server's refusal says why (the
    // rules live there), in the reader's words.
    if (isMyTurn(st.view)) sendAction(`${refusedVerb(st.view)} ${card}`);
    return;
  }
  if (acts.length === 1) sendAction(acts[0]);
  else openMenu(button, acts);
}

/** The verb a card that cannot be played would be tried with: the verb the legal card
 * actions use now (a beat when the pile has a card to answer), else the game's own. */
function refusedVerb(v) {
  const { byCard } = splitActions(v);
  const used = [...byCard.values()].flat().map((a) => a.split(" ")[0]);
  if (used.length) return used.includes("beat") ? "beat" : used[0];
  if (v.game === "kryt-navalivat") return Array.isArray(v.pile) && v.pile.length ? "beat" : "lead";
  return "play";
}

function openMenu(anchor, acts) {
  const g = game();
  const menu = $("card-menu");
  const items = acts.map((a) =>
    h(
      "button",
      { type: "button", role: "menuitem", dataset: { action: a }, onclick: () => (closeMenu(false), sendAction(a)) },
      g.actionLabel(a, st.view),
      chanceBadge([a]),
    ),
  );
  for (const item of items) if (hintBest(item.dataset.action)) item.dataset.hint = "best";
  menu.replaceChildren(...items, h("button", { type: "button", class: "cancel", role: "menuitem", onclick: () => closeMenu(true) }, t("cancel")));
  menu.hidden = false;
  menu.dataset.card = anchor.dataset.card;
  const r = anchor.getBoundingClientRect();
  const mw = menu.offsetWidth;
  const left = Math.max(4, Math.min(window.innerWidth - mw - 4, r.left + r.width / 2 - mw / 2));
  menu.style.left = `${left + window.scrollX}px`;
  menu.style.top = `${r.top + window.scrollY - menu.offsetHeight - 6}px`;
  items[0].focus();
}

function closeMenu(refocus) {
  const menu = $("card-menu");
  if (menu.hidden) return;
  const card = menu.dataset.card;
  menu.hidden = true;
  menu.replaceChildren();
  if (refocus) {
    const b = document.querySelector(`#hand [data-card="${card}"]`);
    if (b) b.focus();
  }
}

function renderActions(v, g, myTurn) {
  const box = $("actions");
  const { other } = splitActions(v);
  const buttons = myTurn
    ? other.map((a) => {
        const [verb, arg] = a.split(" ");
        const label = g.actionLabel(a, v);
        const b = h("button", { type: "button", class: `action verb-${verb}`, dataset: { action: a } }, label, chanceBadge([a]));
        if (verb === "trump" && (arg === "D" || arg === "H")) b.classList.add("red");
        if (hintBest(a)) b.dataset.hint = "best";
        b.addEventListener("click", () => sendAction(a));
        return b;
      })
    : [];
  const focusedAction = box.contains(document.activeElement) ? document.activeElement.dataset.action : null;
  box.replaceChildren(...buttons);
  box.hidden = buttons.length === 0;
  if (focusedAction) {
    const again = box.querySelector(`[data-action="${focusedAction}"]`);
    if (again) again.focus();
  }
}

function sendAction(action) {
  skipAnimations();
  if (st.pending) return;
  if (send({ type: "action", action, seq: st.seq })) {
    st.pending = true;
    $("banner").hidden = true;
    render();
  }
}

function renderInfo(v, g, ctx) {
  const rows = g.info(v, ctx);
  const dl = h("dl", {});
  for (const [label, value] of rows) {
    if (value === null) dl.append(h("dt", { class: "wide head" }, label));
    else if (label === null) dl.append(h("dd", { class: "wide" }, value));
    else dl.append(h("dt", {}, label), h("dd", {}, value));
  }
  $("info").replaceChildren(h("h2", {}, t("info_title")), dl, ...renderSession());
}

// The tally of the games finished at this table (docs/server.md, the table's "results"):
// wins, or in Kryt'-navalivat' how often each seat was the fool, and the draws.
function renderSession() {
  const results = (st.table && st.table.results) || [];
  if (!results.length) return [];
  const kryt = st.table.game === "kryt-navalivat";
  const counts = st.table.seats.map(() => 0);
  let draws = 0;
  for (const r of results) {
    if (kryt) {
      if (r.winners.length && r.places.length > 1) for (const s of r.places[r.places.length - 1]) counts[s] += 1;
      else draws += 1;
    } else for (const s of r.winners) counts[s] += 1;
  }
  const dl = h("dl", { id: "session" });
  dl.append(h("dt", {}, t("session.games")), h("dd", {}, num(results.length)));
  dl.append(h("dt", { class: "wide head" }, t(kryt ? "session.fools" : "session.wins")));
  counts.forEach((n, s) => dl.append(h("dt", {}, seatName(s)), h("dd", { "data-seat": String(s) }, num(n))));
  if (kryt && draws) dl.append(h("dt", {}, t("session.draws")), h("dd", {}, num(draws)));
  return [h("h2", {}, t("session.title")), dl];
}

function renderControls(v, g, myTurn) {
  const hint = $("hint");
  hint.hidden = st.seat === null || !!st.replay || g.isOver(v) || st.stop;
  hint.disabled = !myTurn;
  // One legal action: the button says the move is forced (a hint marks it so, unsearched).
  const forced = myTurn && v.legal_actions.length === 1;
  hint.classList.toggle("forced", forced);
  hint.textContent = t(forced ? "hint_forced" : "hint");
  if (forced) hint.title = t("hint_forced_title");
  else hint.removeAttribute("title");
  renderHintPanel();
  const btn = $("last-trick-btn");
  const last = g.lastTrick(v);
  btn.hidden = !g.hasTricks || !!st.replay;
  btn.disabled = !last;
  const panel = $("last-trick");
  if (!last || btn.hidden) {
    panel.hidden = true;
    btn.setAttribute("aria-expanded", "false");
  }
  if (!panel.hidden && last) {
    const row = h(
      "div",
      { class: "last-row" },
      ...last.plays.map(([s, c]) =>
        h(
          "figure",
          { class: s === last.winner ? "winner" : "" },
          c === "knock" ? h("div", { class: "knock-chip" }, t("knock")) : cardDiv(c),
          h("figcaption", {}, seatName(s)),
        ),
      ),
    );
    panel.replaceChildren(h("p", {}, t("won_trick", { name: seatName(last.winner) })), row);
  }
}

function renderResults(v, g, ctx) {
  const box = $("results");
  const over = g.isOver(v) && !st.replay;
  box.hidden = !over;
  if (!over) return;
  $("results-lines").replaceChildren(...g.results(v, ctx).map((line) => h("li", {}, line)));
  const board = $("results-board");
  if (board) renderBoard(board, { view: v, table: st.table, gameNo: st.game, name: seatName, mySeat: st.seat });
  $("next-game").hidden = st.seat === null;
  $("review-open").hidden = st.seat === null;
  const sel = $("replay-game");
  const games = (st.table && st.table.games) || st.game || 1;
  const want = [...Array(games).keys()].map((i) => String(i + 1));
  if ([...sel.options].map((o) => o.value).join() !== want.join()) {
    sel.replaceChildren(...want.map((n) => h("option", { value: n }, t("game_n", { n }))));
    sel.value = String(st.game);
  }
}

// ---------------------------------------------------------------- replay

function replayWords() {
  const r = st.replay;
  const f = r.frame;
  const v = f.view;
  const g = GAMES[v.game];
  const said = f.action ? g.describe({ seat: f.seat, action: f.action }, r.previous ? r.previous.view : null, v, ctxFor(v)) : "";
  return `${t("replay.title", { n: r.game })}: ${said}`;
}

function renderReplayBar() {
  const bar = $("replay-bar");
  bar.hidden = !st.replay;
  document.body.classList.toggle("replaying", !!st.replay);
  if (!st.replay) return;
  $("replay-pos").textContent = t("replay.pos", { i: st.replay.index + 1, n: st.replay.frames.length });
  $("replay-step").textContent = replayWords();
}

async function openReplay(gameNo) {
  try {
    const data = await fetchReplay(TABLE, gameNo);
    if (!data.frames.length) throw new Error(t("replay.empty"));
    st.replay = new Replay(gameNo, data, () => {
      render();
      announce($("replay-step").textContent);
    });
    render();
    $("replay-next").focus();
  } catch (err) {
    showBanner(`${t("replay.failed")}: ${err.message}`, err.code || "replay");
  }
}

function closeReplay() {
  st.replay = null;
  render();
  $("replay-open").focus();
}

// ---------------------------------------------------------------- start

function wire() {
  $("banner-close").addEventListener("click", () => ($("banner").hidden = true));
  $("fair-badge").addEventListener("click", () => $("fair-dialog").showModal());
  // The skip link moves the focus to the hand itself (its card that takes the focus), and
  // leaves the address alone: the seat's token is in the fragment.
  document.querySelector(".skip").addEventListener("click", (event) => {
    event.preventDefault();
    const target = $("hand").querySelector(".card-btn[tabindex='0']") || $("hand").querySelector(".card-btn");
    if (!target) return;
    target.focus();
    target.scrollIntoView({ block: "nearest" });
  });
  $("fair-close").addEventListener("click", () => $("fair-dialog").close());
  $("hand").addEventListener("keydown", onHandKey);
  $("hint").addEventListener("click", () => {
    if (send({ type: "hint" })) $("hint").classList.add("asked");
  });
  $("next-game").addEventListener("click", () => send({ type: "next" }));
  $("last-trick-btn").addEventListener("click", () => {
    const panel = $("last-trick");
    panel.hidden = !panel.hidden;
    $("last-trick-btn").setAttribute("aria-expanded", String(!panel.hidden));
    render();
  });
  $("replay-open").addEventListener("click", () => openReplay(Number($("replay-game").value || st.game)));
  $("replay-first").addEventListener("click", () => st.replay && st.replay.go(0));
  $("replay-prev").addEventListener("click", () => st.replay && st.replay.step(-1));
  $("replay-next").addEventListener("click", () => st.replay && st.replay.step(1));
  $("replay-last").addEventListener("click", () => st.replay && st.replay.go(st.replay.frames.length - 1));
  $("replay-exit").addEventListener("click", closeReplay);
  initReview({ send, openReplay, replay: () => st.replay });
  initChat({
    send,
    name: seatName,
    isBot: (seat) => Boolean(st.table && st.table.seats && st.table.seats[seat] && st.table.seats[seat].kind === "bot"),
    announce,
    seated: () => st.seat !== null && !TUTORIAL_PAGE,
  });
  $("review-open").addEventListener("click", () => askReview(Number($("replay-game").value || st.game)));
  const noAnim = $("no-anim");
  noAnim.checked = localStorage.getItem("cardtable.noanim") === "1";
  noAnim.addEventListener("change", () => {
    localStorage.setItem("cardtable.noanim", noAnim.checked ? "1" : "0");
    applyMotionSetting();
    if (noAnim.checked) skipAnimations();
  });
  applyMotionSetting();
  matchMedia("(prefers-reduced-motion: reduce)").addEventListener("change", applyMotionSetting);
  initSound($("sound"));
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape") {
      skipAnimations();
      if (!$("card-menu").hidden) closeMenu(true);
      else if (st.replay) closeReplay();
      return;
    }
    const tag = (e.target && e.target.tagName) || "";
    if (st.replay && !["INPUT", "SELECT", "TEXTAREA"].includes(tag) && st.replay.key(e)) e.preventDefault();
  });
  document.addEventListener("pointerdown", (e) => {
    const menu = $("card-menu");
    if (!menu.hidden && !menu.contains(e.target)) closeMenu(false);
    if (!e.target.closest("button")) skipAnimations();
  });
  window.addEventListener("resize", () => (closeMenu(false), fitHand()));
}

async function main() {
  await initI18n();
  applyI18n();
  langSelect($("lang"));
  wire();
  if (!TABLE) {
    showBanner(t("error.no_table"), "no_table");
    return;
  }
  MY_SEED = pageSeed();
  st.watch = new FairWatch({ table: TABLE, seed: MY_SEED });
  $("title").textContent = t("loading");
  setConn("connecting");
  connect();
}

/** Starts the page at `table` with the seat of `token` (the tutorial page's way in). */
export function startTable(table, token) {
  TABLE = table;
  TOKEN = token;
  return main();
}

if (!TUTORIAL_PAGE) main();
