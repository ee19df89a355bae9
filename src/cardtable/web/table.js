/*
 * The table page: /t/{table}#seat=N&token=... (no token: watch as a spectator).
 * Protocol: docs/server.md. Hooks for browser tests (stable ids and attributes):
 *
 *   #title               game title                #conn        connection state (data-state)
 *   #turn                whose turn, .mine when it is this seat's turn (data-to-move)
 *   #table-area          the table (dir="ltr")     #seats .seat[data-seat="N"]  one box per seat
 *                        (.to-move, .me, .offline, .stand-in; .seat-count = cards held)
 *   #center              the middle: #trick (KOW, Neuf), #spare (Neuf: data-count, data-from,
 *                        .aside) or #pile and #stock (Kryt)
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
 *   #chat                preset messages (chat.js has its hooks); #chat-toggle folds them
 *                        (#chat-body; #chat-unread[data-count] while folded), #log-toggle
 *                        folds #log-body (panels.js)
 *   #menu-btn            the header's menu (aria-expanded): #menu holds #rules-link,
 *                        #no-anim, #sound and #lang
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
import { initI18n, t, applyI18n, langSelect } from "./i18n.js";
import { initChat } from "./chat.js";
import { initPanels } from "./panels.js";
import { fitTable } from "./table_fit.js";
import { FairWatch } from "./fairwatch.js";
import { applyMotionSetting } from "./motion.js";
import { initSound } from "./sound.js";
import { initReview, askReview } from "./review.js";
import { TUTORIAL_PAGE, TABLE, MY_SEED, pageSeed, st, $, skipAnimations, seatName, showBanner, announce, setConn, setTable, setSeed, send, setRenderer } from "./table_state.js";
import { connect } from "./table_connection.js";
import { render } from "./table_render.js";
import { fitHand, onHandKey, closeMenu } from "./table_hand.js";
import { openReplay, closeReplay } from "./table_replay.js";

// The tutorial page (tutorial.js) takes these from here, with startTable.
export { moveWords, refusalWords } from "./table_connection.js";

// ---------------------------------------------------------------- start

// The modules below the drawing (the connection, the hand, the hints, the replay bar) redraw
// the table through this, before anything can ask them to.
setRenderer(render);

function wire() {
  initPanels();
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
  // A player's page links each finished game as /t/<table>#replay=<n>: that game's replay
  // opens once the table is first shown.
  const asked = Number(new URLSearchParams(location.hash.slice(1)).get("replay"));
  if (asked > 0) document.addEventListener("cardtable:rendered", () => openReplay(asked), { once: true });
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
  window.addEventListener("resize", () => (closeMenu(false), fitHand(), fitTable()));
  // The seats' boxes and the middle kept apart after each drawing, before anything else on
  // the page (tutorial.js) looks at where they are: the window sees the event first.
  window.addEventListener("cardtable:rendered", fitTable, { capture: true });
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
  setSeed(pageSeed());
  st.watch = new FairWatch({ table: TABLE, seed: MY_SEED });
  $("title").textContent = t("loading");
  setConn("connecting");
  connect();
}

/** Starts the page at `table` with the seat of `token` (the tutorial page's way in). */
export function startTable(table, token) {
  setTable(table, token);
  return main();
}

if (!TUTORIAL_PAGE) main();
