/*
 * The tutorial page: /learn/{game}. A "Learn to play" guided game at a tutorial table of
 * the server's (docs/tutorials.md): the table page (table.js) plays it, this module opens
 * the table at the stored step and shows the lessons the server sends to the learner's seat.
 * Hooks for browser tests:
 *
 *   #lesson              the lesson panel (data-step, data-steps, data-done="true" at the end,
 *                        data-expect: the move asked for, a card of the learner's own hand)
 *   #lesson-text         the lesson of the move awaited; #lesson-move names the move
 *   #lesson-why          why the last move was refused (role="alert"), hidden otherwise
 *   #lesson-rules        the SPEC rules the lesson explains
 *   #lesson-restart      starts the tutorial again from its first move
 *   .lesson-move         the card (#hand) or button (#actions) the lesson asks for
 *
 * Progress: localStorage["cardtable.tutorials"] = {game: {step, done}}, saved after every
 * lesson message; a reload (or a new table after a server restart) resumes at that step.
 */

import { initI18n, t, cardWords, list } from "./i18n.js";
import { startTable } from "./table.js";
import kow from "./knockout_whist.js";
import neuf from "./neuf.js";
import kryt from "./kryt.js";

const GAMES = { "knockout-whist": kow, neuf, "kryt-navalivat": kryt };
const CARD_VERBS = new Set(["play", "lead", "beat", "cover"]);
const PROGRESS = "cardtable.tutorials";
const GAME = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");

const $ = (id) => document.getElementById(id);
let lesson = null;
let view = null;

function progressAll() {
  try {
    const all = JSON.parse(localStorage.getItem(PROGRESS) || "{}");
    return all && typeof all === "object" && !Array.isArray(all) ? all : {};
  } catch {
    return {};
  }
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

/** The words for a move: "play the ace of spades", "knock", "exchange". */
function moveWords(action) {
  const [verb, arg] = action.split(" ");
  if (arg && CARD_VERBS.has(verb)) return t(`tutorial.verb.${verb}`, { card: cardWords(arg) });
  const g = GAMES[GAME];
  return g && view ? g.actionLabel(action, view) : action;
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
  if (lesson.done) text = t(`tutorial.${short()}.done`);
  else if (lesson.expect) {
    text = lesson.lesson ? t(lesson.lesson) : "";
    move = t("tutorial.your_move", { move: moveWords(lesson.expect) });
  } else move = t("tutorial.bot_moves");
  const changed = $("lesson-text").textContent !== text || $("lesson-move").textContent !== move;
  $("lesson-text").textContent = text;
  $("lesson-move").textContent = move;
  $("lesson-rules").textContent = lesson.rules.length ? t("tutorial.rules", { ids: list(lesson.rules, "unit") }) : "";
  $("lesson-play").hidden = !lesson.done;
  if (changed && (lesson.expect || lesson.done)) say([text, move].filter(Boolean).join(" "));
  mark();
}

function short() {
  return { "knockout-whist": "kow", neuf: "neuf", "kryt-navalivat": "kryt" }[GAME] || GAME;
}

/** Marks the card or the button of the move the lesson asks for. */
function mark() {
  for (const el of document.querySelectorAll(".lesson-move")) el.classList.remove("lesson-move");
  if (!lesson || !lesson.expect) return;
  const [verb, arg] = lesson.expect.split(" ");
  const target =
    arg && CARD_VERBS.has(verb)
      ? document.querySelector(`#hand [data-card="${arg}"]`)
      : document.querySelector(`#actions [data-action="${lesson.expect}"]`);
  if (target) target.classList.add("lesson-move");
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
  if (msg.code === "not_the_lesson") why = t(lesson.wrong || "tutorial.wrong");
  else if (msg.code === "illegal" || msg.code === "invalid_action") why = t("tutorial.illegal");
  if (!why) return;
  const box = $("lesson-why");
  box.textContent = `${why} ${t("tutorial.try_again", { move: moveWords(lesson.expect) })}`;
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
  document.addEventListener("cardtable:rendered", (e) => {
    view = e.detail.view;
    mark();
  });
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
