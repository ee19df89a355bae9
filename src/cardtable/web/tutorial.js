/*
 * The tutorial page: /learn/{game}. A "Learn to play" guided game at a tutorial table of
 * the server's (docs/tutorials.md): the table page (table.js) plays it, this module opens
 * the table at the stored step and shows the lessons the server sends to the learner's seat.
 * Hooks for browser tests:
 *
 *   #lesson              the lesson panel (data-step, data-steps, data-done="true" at the end,
 *                        data-expect: the move asked for, a card of the learner's own hand)
 *   #lesson-text         the rules the step is the first to show (empty at most steps)
 *   #lesson-move         names the move awaited; #lesson-reason says why it is the move
 *   #lesson-why          why the last move was refused (role="alert"), hidden otherwise: the
 *                        move the lesson wants instead, in words, and the step's reason
 *   #lesson-rules        the SPEC rules the lesson explains
 *   #lesson-tips         once the script is done: "how to play well", one idea at a time
 *                        (#lesson-tip, data-tip; #lesson-next-tip shows the next one)
 *   #lesson-restart      starts the tutorial again from its first move
 *   #lesson-dock         the hand and the move buttons (kept in view on a phone, where the
 *                        middle of the table is kept above it)
 *   .lesson-move         the card (#hand) or button (#actions) the lesson asks for
 *
 * Progress: localStorage["cardtable.tutorials"] = {game: {step, done}}, saved after every
 * lesson message; a reload (or a new table after a server restart) resumes at that step.
 */

import { initI18n, t, list } from "./i18n.js";
import { startTable, moveWords, refusalWords } from "./table.js";
import { storedObject } from "./common.js";

const CARD_VERBS = new Set(["play", "lead", "beat", "cover"]);
const PROGRESS = "cardtable.tutorials";
const GAME = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");

const $ = (id) => document.getElementById(id);
let lesson = null;
let tip = 0;

function progressAll() {
  return storedObject(PROGRESS);
}

function saved() {
  const entry = progressAll()[GAME];
  return entry && Number.isInteger(entry.step) && entry.step >= 0 ? entry : { step: 0, done: false };
}

function save(step, done) {
  const all = progressAll();
  all[GAME] = { step, done };
  try {
    localStorage.setItem(PROGRESS, JSON.stringify(all));
  } catch {
    // Storage full or refused: the lesson goes on, it is only not resumed after a reload.
  }
}

function say(text) {
  const live = $("live");
  if (!text || !live) return;
  live.append(Object.assign(document.createElement("p"), { textContent: text }));
  while (live.childElementCount > 6) live.firstElementChild.remove();
}

function showLesson() {
  const box = $("lesson");
  if (!lesson) return;
  box.dataset.step = String(lesson.step);
  box.dataset.steps = String(lesson.steps);
  box.dataset.done = String(lesson.done);
  box.dataset.expect = lesson.expect || "";
  $("lesson-progress").textContent = lesson.done
    ? t("tutorial.complete")
    : t("tutorial.progress", { n: Math.min(lesson.step + 1, lesson.steps), total: lesson.steps });
  $("lesson-intro").textContent = lesson.step === 0 ? t(`tutorial.${short()}.intro`) : "";
  let text = "";
  let move = "";
  let reason = "";
  if (lesson.done) text = t(`tutorial.${short()}.done`);
  else if (lesson.expect) {
    text = lesson.lesson ? t(lesson.lesson) : "";
    move = t("tutorial.your_move", { move: moveWords(lesson.expect) });
    reason = lesson.why ? t(lesson.why) : "";
  } else move = t("tutorial.bot_moves");
  const changed = $("lesson-move").textContent !== move || $("lesson-text").textContent !== text;
  $("lesson-text").textContent = text;
  $("lesson-move").textContent = move;
  $("lesson-reason").textContent = reason;
  $("lesson-rules").textContent = lesson.rules.length ? t("tutorial.rules", { ids: list(lesson.rules, "unit") }) : "";
  $("lesson-play").hidden = !lesson.done;
  showTip();
  if (changed && (lesson.expect || lesson.done)) say([text, move, reason].filter(Boolean).join(" "));
  mark();
}

// On a phone (the dock fixed at the window's foot, style in screens.css): each step's words
// are shown from where they begin in the lesson's box, once, and the middle of the table (the
// cards the lesson speaks of) is scrolled above the dock where the window is too short for
// the lesson's box, the table and the dock together.
let placedWords = null;
let placedMiddle = null;

function place() {
  const dock = $("lesson-dock");
  if (!lesson || getComputedStyle(dock).position !== "fixed") return;
  if (placedWords !== lesson.step) {
    placedWords = lesson.step;
    const box = $("lesson");
    const first = ["lesson-intro", "lesson-text", "lesson-move"].map($).find((el) => el.textContent);
    if (first && box.scrollHeight > box.clientHeight) {
      box.scrollTop += first.getBoundingClientRect().top - box.getBoundingClientRect().top - 6;
    }
  }
  if (placedMiddle === lesson.step) return;
  const cards = [...document.querySelectorAll("#center .card")].map((c) => c.getBoundingClientRect()).filter((r) => r.width);
  if (!cards.length) return;
  const top = Math.min(...cards.map((r) => r.top));
  const below = Math.max(...cards.map((r) => r.bottom)) - (dock.getBoundingClientRect().top - 6);
  const header = document.querySelector("header.top");
  const above = Math.max(0, header ? header.getBoundingClientRect().bottom : 0);
  if (below > 0 || top < above) {
    placedMiddle = lesson.step;
    window.scrollBy(0, below > 0 ? Math.min(below, top - above - 6) : top - above - 6);
  }
}

/** Once the script is done: the lesson's ideas of good play, one at a time. */
function showTip() {
  const tips = (lesson && lesson.done && lesson.tips) || [];
  const box = $("lesson-tips");
  box.hidden = !tips.length;
  if (!tips.length) return;
  tip %= tips.length;
  box.dataset.tip = String(tip);
  $("lesson-tip-progress").textContent = t("tutorial.tip_progress", { n: tip + 1, total: tips.length });
  $("lesson-tip").textContent = t(tips[tip]);
  $("lesson-next-tip").hidden = tips.length < 2;
}

function short() {
  return { "knockout-whist": "kow", neuf: "neuf", "kryt-navalivat": "kryt" }[GAME] || GAME;
}

/** Marks the card or the button of the move the lesson asks for. */
function mark() {
  for (const el of document.querySelectorAll(".lesson-move")) el.classList.remove("lesson-move");
  place();
  if (!lesson || !lesson.expect) return;
  const [verb, arg] = lesson.expect.split(" ");
  const target =
    arg && CARD_VERBS.has(verb)
      ? document.querySelector(`#hand [data-card="${arg}"]`)
      : document.querySelector(`#actions [data-action="${lesson.expect}"]`);
  if (!target) return;
  target.classList.add("lesson-move");
  // A phone's dock scrolls once the hand and the buttons are taller than it may be (13
  // cards on a small phone): the move asked for is scrolled into the dock's view.
  const dock = $("lesson-dock");
  if (getComputedStyle(dock).position !== "fixed") return;
  const d = dock.getBoundingClientRect();
  const r = target.getBoundingClientRect();
  if (r.bottom > d.bottom) dock.scrollTop += r.bottom - d.bottom + 6;
  else if (r.top < d.top) dock.scrollTop -= d.top - r.top + 6;
}

function onLesson(msg) {
  if (msg.tutorial !== GAME) return;
  lesson = msg;
  $("lesson-why").hidden = true;
  save(msg.step, msg.done);
  showLesson();
}

function onRefused(msg) {
  if (msg.code === "no_table") {
    // The server forgot the table (a restart): a new one at the stored step.
    location.reload();
    return;
  }
  if (!lesson || !lesson.expect) return;
  let why = "";
  if (msg.code === "not_the_lesson") {
    // The move wanted, in words (the refusal's details), and why this step wants it.
    why = [refusalWords(msg) || t("tutorial.wrong"), lesson.why ? t(lesson.why) : ""].filter(Boolean).join(" ");
  } else if (msg.code === "illegal" || msg.code === "invalid_action") {
    why = `${t("tutorial.illegal")} ${t("tutorial.try_again", { move: moveWords(lesson.expect) })}`;
  }
  if (!why) return;
  const box = $("lesson-why");
  box.textContent = why;
  box.hidden = false;
}

async function open(step) {
  const res = await fetch(`/api/tutorials/${encodeURIComponent(GAME)}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ step }),
  });
  const body = await res.json();
  if (!res.ok) throw new Error(body.message || body.error || String(res.status));
  return body;
}

async function main() {
  await initI18n();
  document.addEventListener("cardtable:lesson", (e) => onLesson(e.detail));
  document.addEventListener("cardtable:refused", (e) => onRefused(e.detail));
  document.addEventListener("cardtable:rendered", () => mark());
  $("lesson-next-tip").addEventListener("click", () => {
    tip += 1;
    showTip();
  });
  // On a phone the hand and the move buttons are docked at the foot of the window (CSS):
  // the page keeps room below its last line for them.
  const dock = $("lesson-dock");
  new ResizeObserver(() => {
    const docked = getComputedStyle(dock).position === "fixed";
    document.body.style.setProperty("--dock-height", docked ? `${dock.offsetHeight}px` : "0px");
  }).observe(dock);
  $("lesson-restart").addEventListener("click", () => {
    save(0, false);
    location.reload();
  });
  $("lesson-play").href = `/?game=${encodeURIComponent(GAME)}`;
  let opened;
  try {
    opened = await open(saved().step);
  } catch {
    opened = await open(0); // a step the script no longer has: from the start
  }
  const token = new URLSearchParams(opened.invite.split("#")[1] || "").get("token");
  await startTable(opened.table, token);
}

main();
