/*
 * The seat's hand and its moves: the cards laid out to fit, the keyboard, a card's menu of
 * actions, the other actions' buttons, and sending a move.
 */
import { t, list, cardName } from "./i18n.js";
import { cardFace, sortHand } from "./cards.js";
import { h } from "./common.js";
import { CARD_VERBS, st, $, skipAnimations, game, send, redraw, isMyTurn } from "./table_state.js";
import { hintBest, chanceBadge } from "./table_hints.js";

export function renderHand(v, g, myTurn) {
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
export function fitHand() {
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

export function onHandKey(e) {
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

export function closeMenu(refocus) {
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

export function renderActions(v, g, myTurn) {
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

/** The legal actions by the card they name (upper case), and the others. */
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

function sendAction(action) {
  skipAnimations();
  if (st.pending) return;
  if (send({ type: "action", action, seq: st.shown })) {
    st.pending = true;
    $("banner").hidden = true;
    redraw();
  }
}
