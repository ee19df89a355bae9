// "Review my game": a seat's review of a finished game (docs/server.md, "Game reviews").
// Asked for over the table's socket; the server works it out in the background and sends
// its progress, then the review, to this seat alone. It is shown beside the game's replay:
// each of the seat's decisions marked fine, inaccuracy or mistake, the better choice, and a
// chart of the expected return over the game (an SVG drawn here).
//
// Hooks for browser tests: #review-open (results), #review (the panel): #review-status
// (data-state "working" | "done"), #review-step (the decision at the replay's frame,
// data-verdict), #review-chart svg (circle[data-index][data-verdict] per decision),
// #review-list li[data-index][data-verdict] (the worst first), each a button to its frame.

import { t } from "./i18n.js";
import { h } from "./common.js";

const SVG = "http://www.w3.org/2000/svg";
const reviews = new Map(); // game number -> review
let hooks = null;
let asked = null; // the game whose review is being worked out

/** `given`: send(message), openReplay(game) (a promise), replay() (the open replay or
 * null), words(action) (an action in the reader's words). */
export function initReview(given) {
  hooks = given;
}

export function askReview(game) {
  const known = reviews.get(game);
  if (known) {
    show(game);
    return;
  }
  if (hooks.send({ type: "review", game })) {
    asked = game;
    status("working", t("review.asked", { n: game }));
    $("review").hidden = false;
  }
}

export function onReviewMessage(msg) {
  if (msg.type === "review_progress") {
    asked = msg.game;
    $("review").hidden = false;
    status("working", t("review.progress", { n: msg.game, done: msg.done, total: msg.total }));
    return;
  }
  if (msg.type === "review" && msg.review && Array.isArray(msg.review.decisions)) {
    reviews.set(msg.game, msg.review);
    if (asked === null || asked === msg.game) show(msg.game);
    asked = null;
  }
}

async function show(game) {
  await hooks.openReplay(game);
  renderReview();
}

function $(id) {
  return document.getElementById(id);
}

function status(state, text) {
  const box = $("review-status");
  box.dataset.state = state;
  box.textContent = text;
}

/** Redraws the panel for the replay now open (called on every render of the page). */
export function renderReview() {
  const panel = $("review");
  if (!panel || !hooks) return;
  const replay = hooks.replay();
  const review = replay ? reviews.get(replay.game) : null;
  if (!review) {
    if (asked === null) panel.hidden = true;
    return;
  }
  panel.hidden = false;
  const counts = review.counts || {};
  status(
    "done",
    t("review.summary", {
      n: replay.game,
      decisions: t("review.count.decisions", { count: review.decisions.length }),
      fine: t("review.count.fine", { count: counts.fine || 0 }),
      inaccuracy: t("review.count.inaccuracy", { count: counts.inaccuracy || 0 }),
      mistake: t("review.count.mistake", { count: counts.mistake || 0 }),
    }),
  );
  if (panel.dataset.game !== String(replay.game)) {
    panel.dataset.game = String(replay.game);
    $("review-chart").replaceChildren(chart(review));
    $("review-list").replaceChildren(...worst(review).map((d) => item(d)));
  }
  const current = review.decisions.find((d) => d.index === replay.index - 1);
  const step = $("review-step");
  for (const node of document.querySelectorAll("#review-chart circle, #review-list li")) {
    node.classList.toggle("current", !!current && node.dataset.index === String(current.index));
  }
  if (!current) {
    step.dataset.verdict = "";
    step.textContent = t("review.no_choice");
    return;
  }
  step.dataset.verdict = current.verdict;
  step.textContent = said(current);
}

function said(d) {
  const verdict = t(`review.verdict.${d.verdict}`);
  const played = t("review.played", { action: hooks.words(d.chosen), verdict });
  if (d.best === d.chosen || d.verdict === "fine") return played;
  return `${played} ${t("review.better", { action: hooks.words(d.best), loss: d.loss.toFixed(2) })}`;
}

function worst(review) {
  return [...review.decisions].sort((a, b) => (b.loss ?? -1) - (a.loss ?? -1) || a.index - b.index);
}

function item(d) {
  const where = d.hand === null ? t("review.move", { i: d.index + 1 }) : t("review.where", { i: d.index + 1, hand: d.hand, trick: d.trick ?? "" });
  const button = h("button", { type: "button", class: "link" }, `${where}: ${said(d)}`);
  button.addEventListener("click", () => {
    const replay = hooks.replay();
    if (replay) replay.go(d.index + 1);
  });
  return h("li", { dataset: { index: String(d.index), verdict: d.verdict }, class: `verdict-${d.verdict}` }, button);
}

function node(tag, attrs) {
  const made = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) made.setAttribute(k, String(v));
  return made;
}

/** The expected return at each decision: the best action's line and the chosen one's,
 * a dot per decision coloured by its verdict. */
function chart(review) {
  const width = 320;
  const height = 120;
  const pad = 8;
  const rated = review.decisions.filter((d) => d.loss !== null);
  const value = (d, action) => (d.actions.find((a) => a.action === action) || {}).value;
  const values = rated.flatMap((d) => [value(d, d.best), value(d, d.chosen)]).filter((v) => typeof v === "number");
  const low = Math.min(-1, ...values);
  const high = Math.max(1, ...values);
  const x = (i) => pad + (rated.length > 1 ? (i * (width - 2 * pad)) / (rated.length - 1) : (width - 2 * pad) / 2);
  const y = (v) => pad + ((high - v) * (height - 2 * pad)) / (high - low);
  const svg = node("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", class: "review-chart" });
  const title = node("title", {});
  title.textContent = t("review.chart");
  svg.append(title);
  svg.append(node("line", { x1: pad, x2: width - pad, y1: y(0), y2: y(0), class: "axis" }));
  for (const [action, cls] of [
    ["best", "line-best"],
    ["chosen", "line-chosen"],
  ]) {
    const points = rated.map((d, i) => `${x(i).toFixed(1)},${y(value(d, d[action])).toFixed(1)}`).join(" ");
    svg.append(node("polyline", { points, class: cls, fill: "none" }));
  }
  rated.forEach((d, i) => {
    const dot = node("circle", { cx: x(i), cy: y(value(d, d.chosen)), r: d.verdict === "fine" ? 2.5 : 4, class: `verdict-${d.verdict}` });
    dot.dataset.index = String(d.index);
    dot.dataset.verdict = d.verdict;
    svg.append(dot);
  });
  return svg;
}
