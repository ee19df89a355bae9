/*
 * The table page's chrome as a card room has it: the settings (the rules, no animations,
 * sounds, the language) in one menu behind a single button of the header, and the messages
 * and the log opened on demand, each under a heading that folds it (the table and the
 * tutorial page alike).
 *
 * Hooks: #menu-btn (aria-expanded) opens #menu, which holds #rules-link, #no-anim, #sound and
 * #lang; Escape or a click elsewhere closes it. #chat-toggle and #log-toggle fold #chat-body
 * and #log-body (aria-expanded); what they fold stays in the page (#chat-log, #log), hidden.
 * While the messages are folded, #chat-unread counts those that came meanwhile (data-count).
 *
 * Folded at first on a narrow window (where the panels are below the table), open on a wide
 * one unless the reader folded them there before (localStorage["cardtable.panels"]).
 */

import { t, num } from "./i18n.js";
import { storedObject } from "./common.js";

const $ = (id) => document.getElementById(id);
const STORE = "cardtable.panels";
// The width under which the side column is laid below the table (style.css).
const NARROW = "(max-width: 900px)";

let unread = 0;

function stored() {
  return storedObject(STORE);
}

function remember(name, open) {
  if (matchMedia(NARROW).matches) return; // a phone's panels start folded each time
  const all = stored();
  all[name] = open;
  try {
    localStorage.setItem(STORE, JSON.stringify(all));
  } catch {
    // Storage refused: the choice holds for this page only.
  }
}

/** The header's menu: a disclosure button and its panel. */
function initMenu() {
  const button = $("menu-btn");
  const panel = $("menu");
  if (!button || !panel) return;
  const show = (open, refocus = false) => {
    panel.hidden = !open;
    button.setAttribute("aria-expanded", String(open));
    if (!open && refocus) button.focus();
  };
  button.addEventListener("click", () => show(panel.hidden));
  // Escape closes the menu alone (the page's own Escape finishes animations, leaves a replay).
  button.parentElement.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && !panel.hidden) {
      e.stopPropagation();
      show(false, true);
    }
  });
  document.addEventListener("pointerdown", (e) => {
    if (!panel.hidden && !panel.contains(e.target) && !button.contains(e.target)) show(false);
  });
  // The focus leaving the menu by the keyboard (Tab past its last control) closes it.
  panel.addEventListener("focusout", (e) => {
    if (e.relatedTarget && !panel.contains(e.relatedTarget) && e.relatedTarget !== button) show(false);
  });
}

/** One folding panel: its heading's button shows or hides its body. */
function fold(name, onOpen) {
  const button = $(`${name}-toggle`);
  const body = $(`${name}-body`);
  if (!button || !body) return null;
  const set = (open) => {
    body.hidden = !open;
    button.setAttribute("aria-expanded", String(open));
    button.closest(".fold").classList.toggle("folded", !open);
    if (open && onOpen) onOpen();
  };
  const saved = stored()[name];
  set(!matchMedia(NARROW).matches && saved !== false);
  button.addEventListener("click", () => {
    const open = body.hidden;
    set(open);
    remember(name, open);
  });
  return set;
}

function showUnread() {
  const badge = $("chat-unread");
  if (!badge) return;
  badge.hidden = unread === 0;
  badge.dataset.count = String(unread);
  // The number on the heading's button; said in words with the heading ("Messages 2 new
  // messages").
  badge.replaceChildren();
  if (!unread) return;
  const shown = document.createElement("span");
  shown.setAttribute("aria-hidden", "true");
  shown.textContent = unread > 9 ? `${num(9)}+` : num(unread);
  const said = document.createElement("span");
  said.className = "sr-only";
  said.textContent = t("chat.unread", { count: unread });
  badge.append(shown, said);
}

/** Counts the messages that come while the panel is folded (chat.js adds them to #chat-log,
 * newest first). */
function watchMessages() {
  const list = $("chat-log");
  const body = $("chat-body");
  if (!list || !body) return;
  new MutationObserver((changes) => {
    if (!body.hidden) return;
    for (const change of changes) unread += change.addedNodes.length;
    showUnread();
  }).observe(list, { childList: true });
}

export function initPanels() {
  initMenu();
  fold("chat", () => {
    unread = 0;
    showUnread();
  });
  fold("log");
  watchMessages();
}
