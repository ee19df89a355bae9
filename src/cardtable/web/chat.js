/*
 * Preset messages between the players (docs/server.md, "Preset messages"): a seated player
 * picks one from a menu; the server relays its id to everyone at the table, and each page
 * says it in its reader's language. Watchers see them but cannot send.
 *
 * Hooks: #chat; #chat-open (the menu's button; hidden for a watcher), #chat-menu
 * button[data-message="good_game"], #chat-log li[data-seat][data-message] (newest first; its
 * words in span.words); for a moment, #table-area .chat-bubble[data-seat] by the seat's box.
 */

import { t } from "./i18n.js";
import { h, avatar } from "./common.js";

// The ids the server knows (cardtable/server/chat.py PRESETS), in the menu's order.
export const PRESETS = ["hello", "good_luck", "good_game", "well_played", "thanks", "nice_trick", "oops", "sorry", "hurry_up", "bye"];
const KEPT = 20;

let page = null;
const $ = (id) => document.getElementById(id);

/** `send(obj)` sends a message; `name(seat)`, `isBot(seat)`; `announce(text)` speaks in the
 * live region; `seated()` whether this page holds a seat. */
export function initChat(hooks) {
  // The tutorial's page has no players to talk to, and no #chat.
  if (!$("chat")) return;
  page = hooks;
  const open = $("chat-open");
  const menu = $("chat-menu");
  menu.replaceChildren(
    ...PRESETS.map((id) => {
      const b = h("button", { type: "button", role: "menuitem", dataset: { message: id } }, t(`chat.messages.${id}`));
      b.addEventListener("click", () => {
        page.send({ type: "chat", id });
        close(true);
      });
      return b;
    }),
  );
  open.addEventListener("click", () => (menu.hidden ? show() : close(true)));
  menu.addEventListener("keydown", (e) => {
    const items = [...menu.querySelectorAll("button")];
    const at = items.indexOf(document.activeElement);
    if (e.key === "Escape") {
      e.stopPropagation();
      close(true);
    } else if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      const step = e.key === "ArrowDown" ? 1 : -1;
      items[(at + step + items.length) % items.length].focus();
    }
  });
  document.addEventListener("pointerdown", (e) => {
    if (!menu.hidden && !menu.contains(e.target) && e.target !== open) close(false);
  });
}

function show() {
  $("chat-menu").hidden = false;
  $("chat-open").setAttribute("aria-expanded", "true");
  $("chat-menu").querySelector("button").focus();
}

function close(refocus) {
  $("chat-menu").hidden = true;
  $("chat-open").setAttribute("aria-expanded", "false");
  if (refocus) $("chat-open").focus();
}

/** A relayed message: {type: "chat", seat, id}. An id this page has no words for (a newer
 * server's) is not shown. */
export function onChatMessage(msg) {
  if (!page || typeof msg.seat !== "number" || !PRESETS.includes(msg.id)) return;
  const name = page.name(msg.seat);
  const words = t(`chat.messages.${msg.id}`);
  const item = h(
    "li",
    { dataset: { seat: String(msg.seat), message: msg.id } },
    avatar(msg.seat, name, page.isBot(msg.seat)),
    " ",
    h("span", { class: "words" }, t("chat.said", { name, message: words })),
  );
  const list = $("chat-log");
  list.prepend(item);
  while (list.childElementCount > KEPT) list.lastElementChild.remove();
  $("chat-empty").hidden = true;
  page.announce(t("chat.said", { name, message: words }));
  bubble(msg.seat, words);
}

const BUBBLE_MS = 4000;

/** The message for a moment beside its seat's box (the seat boxes are redrawn often, so the
 * bubble sits in the table area, where the box is). Said already in the live region. */
function bubble(seat, words) {
  const area = $("table-area");
  const box = document.querySelector(`#seats .seat[data-seat="${seat}"]`);
  if (!area || !box) return;
  for (const old of area.querySelectorAll(`.chat-bubble[data-seat="${seat}"]`)) old.remove();
  const note = h("div", { class: "chat-bubble", "aria-hidden": "true", dir: document.documentElement.dir || "ltr", dataset: { seat: String(seat) } }, words);
  note.style.left = box.style.left;
  note.style.top = box.style.top;
  // Above a box in the lower half of the table, below one in the upper half: inside the area.
  if (parseFloat(box.style.top) < 40) note.classList.add("below");
  area.append(note);
  setTimeout(() => note.remove(), BUBBLE_MS);
}

/** Shows the menu's button to a seated player only. */
export function renderChat() {
  if (!page) return;
  const seated = page.seated();
  $("chat-open").hidden = !seated;
  if (!seated) $("chat-menu").hidden = true;
}
