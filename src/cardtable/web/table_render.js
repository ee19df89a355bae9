/*
 * Drawing the table: the title and turn, whom the table waits for, the seats, the middle,
 * the info panel, the controls and the results (the hand: table_hand.js).
 */
import { t, num } from "./i18n.js";
import { sortHand, cardShort, cardDiv, isRed } from "./cards.js";
import { h, createdInvite, copyField, avatar } from "./common.js";
import { renderChat } from "./chat.js";
import { renderBoard } from "./results.js";
import { renderReview } from "./review.js";
import { GAMES, TABLE, notify, st, $, seatName, showBanner, ctxFor, send, isMyTurn } from "./table_state.js";
import { absentMover, waitingWords } from "./table_events.js";
import { renderVerify } from "./table_fair.js";
import { renderHintPanel } from "./table_hints.js";
import { renderHand, closeMenu, renderActions } from "./table_hand.js";
import { replayWords, renderReplayBar } from "./table_replay.js";

export function render() {
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
  const playing = playFocused();

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
  keepPlayFocus(playing);
  renderVerify();
  renderReplayBar();
  renderReview();
  renderChat();
  notify("rendered", { view: v, seq: st.seq, myTurn, table: st.table });
}

// A keyboard player's focus follows the play. Whether it was on a move (a card of the hand,
// an action's button) or lost with one: a card played, trumps named, the buttons gone.
function playFocused() {
  const el = document.activeElement;
  if (el && el !== document.body) st.lostFocus = false;
  return st.lostFocus || $("hand").contains(el) || $("actions").contains(el);
}

// ...and lands on the next thing to do once the drawing has taken the focused move away:
// the move offered (trumps to name, an exchange), else the hand's card that takes the focus,
// else "Next game". Until one is there (the others still to play), the page remembers.
function keepPlayFocus(playing) {
  const el = document.activeElement;
  if (!playing || (el && el !== document.body && el.isConnected)) return;
  const visible = (b) => b && !b.closest("[hidden]") && b.getClientRects().length > 0;
  const target = [$("actions").querySelector("button"), $("hand").querySelector(".card-btn[tabindex='0']"), $("next-game")].find(visible);
  st.lostFocus = !target;
  if (target) target.focus({ preventScroll: true });
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
    // "(you)", unless the seat is named "You" already (a lesson's learner).
    if (s === st.seat && !st.replay && seatName(s) !== t("tutorial.you_name")) name.append(h("span", { class: "you" }, t("you")));
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
  const krytNavalivat = st.table.game === "kryt-navalivat";
  const counts = st.table.seats.map(() => 0);
  let draws = 0;
  for (const r of results) {
    if (krytNavalivat) {
      if (r.winners.length && r.places.length > 1) for (const s of r.places[r.places.length - 1]) counts[s] += 1;
      else draws += 1;
    } else for (const s of r.winners) counts[s] += 1;
  }
  const dl = h("dl", { id: "session" });
  dl.append(h("dt", {}, t("session.games")), h("dd", {}, num(results.length)));
  dl.append(h("dt", { class: "wide head" }, t(krytNavalivat ? "session.fools" : "session.wins")));
  counts.forEach((n, s) => dl.append(h("dt", {}, seatName(s)), h("dd", { "data-seat": String(s) }, num(n))));
  if (krytNavalivat && draws) dl.append(h("dt", {}, t("session.draws")), h("dd", {}, num(draws)));
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
    sel.replaceChildren(...want.map((n) => h("option", { value: n }, t("game_n", { n: Number(n) }))));
    sel.value = String(st.game);
  }
}
