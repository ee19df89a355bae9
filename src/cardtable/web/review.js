// "Review my game": a seat's review of a finished game (docs/server.md, "Game reviews").
// Asked for over the table's socket; the server works it out in the background and sends
// its progress, then the review, to this seat alone. It is shown beside the game's replay:
// each of the seat's decisions marked fine, inaccuracy or mistake, the better choice and what
// it would have kept, in the game's unit (the review's `unit`, version 2: tricks this hand in
// Knockout Whist, tricks toward the quota this deal in Neuf, the chance of not being the fool
// in Kryt'-navalivat'), and a chart of the values over the game (an SVG drawn here, its axes
// and key in the reader's language).
//
// A review that does not come (`review_failed`: the server could not store it in time, or
// it failed) is said in the panel, with a button to ask for it again.
//
// Hooks for browser tests: #review-open (results), #review (the panel): #review-status
// (data-state "working" | "done" | "failed"), #review-again (a failed review's "Ask
// again"), #review-step (the decision at the replay's frame,
// data-verdict), #review-chart svg (circle[data-index][data-verdict] per decision),
// #review-list li[data-index][data-verdict] (the worst first), each a button to its frame;
// #review-legend (the chart's key); .review-hint in a list item and in #review-step (a fault
// on a move the hint would have suggested: the two disagree).

import { t, num, pct, cardWords, suitName } from "./i18n.js";
import { h } from "./common.js";

const SVG = "http://www.w3.org/2000/svg";
const reviews = new Map(); // game number -> review
let hooks = null;
let asked = null; // the game whose review is being worked out
let failed = null; // the game whose review did not come, until it is asked for again

/** `given`: send(message), openReplay(game) (a promise), replay() (the open replay or
 * null). */
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
    failed = null;
    status("working", t("review.asked", { n: game }));
    $("review").hidden = false;
  }
}

export function onReviewMessage(msg) {
  if (msg.type === "review_progress") {
    asked = msg.game;
    $("review").hidden = false;
    status("working", t("review.progress", { n: msg.game, done: msg.done, count: msg.total }));
    return;
  }
  if (msg.type === "review" && msg.review && Array.isArray(msg.review.decisions)) {
    reviews.set(msg.game, msg.review);
    if (asked === null || asked === msg.game) show(msg.game);
    asked = null;
    if (failed === msg.game) failed = null;
    return;
  }
  if (msg.type === "review_failed" && Number.isInteger(msg.game)) {
    asked = null;
    failed = msg.game;
    sayFailed(msg.game, msg.code);
  }
}

/** The review of `game` did not come: why, in the reader's words ("unavailable": it was
 * made, and the server stores it when asked again), and a button to ask again. */
function sayFailed(game, code) {
  $("review").hidden = false;
  status("failed", t(code === "unavailable" ? "review.unstored" : "review.failed", { n: game }));
  const again = h("button", { type: "button", id: "review-again", class: "link", onclick: () => askReview(game) }, t("review.again"));
  $("review-status").append(" ", again);
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
    if (asked === null && failed === null) panel.hidden = true;
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
    $("review-chart").replaceChildren(chart(review), legend());
    $("review-list").replaceChildren(...worst(review).map((d) => item(d, review)));
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
  const note = hintNote(current, review);
  step.replaceChildren(said(current, review), ...(note ? [" ", note] : []));
}

// Each unit's texts: review.better_<key> and review.axis_<key>.
const UNIT_KEYS = { tricks: "tricks", points: "points", not_fool: "fool" };

/** What the review's values and losses count (review.py's `Review.unit`): "tricks" (tricks
 * expected this hand), "points" (Neuf: tricks over the quota this deal) or "not_fool" (the
 * chance, 0 to 1, of not being the fool). */
function unitOf(review) {
  return Object.hasOwn(UNIT_KEYS, review.unit) ? review.unit : "tricks";
}

// To a tenth, and never a negative zero: Intl writes -0 as "-0".
const round1 = (x) => Math.round(x * 10) / 10 || 0;

/** An action as the review says it: `kind` "did" ("You kept your hand") or "do" ("keep your
 * hand"), its card or suit in the words (and grammatical case) the locale asks for. */
function actionSaid(kind, action) {
  const [verb, arg] = action.split(" ");
  const key = `review.${kind}.${verb}`;
  const params = {};
  if (verb === "trump" && arg) params.suit = suitName(arg.toUpperCase());
  else if (arg) params.card = cardWords(arg.toUpperCase());
  const text = t(key, params);
  return text === key ? action : text;
}

function said(d, review) {
  const verdict = t(`review.verdict.${d.verdict}`);
  const played = t("review.played", { did: actionSaid("did", d.chosen), verdict });
  if (d.best === d.chosen || d.verdict === "fine" || d.loss === null) return played;
  const unit = unitOf(review);
  const action = actionSaid("do", d.best);
  // A chance as a percentage; tricks to a tenth, in the plural their number asks for.
  const loss = unit === "not_fool" ? { chance: pct(d.loss) } : { count: round1(d.loss) };
  return `${played} ${t(`review.better_${UNIT_KEYS[unit]}`, { action, ...loss })}`;
}

/** Where the move played was the one the table's hint would have suggested, or as good as
 * it at the hint's budget (the decision's `hint_agrees`), and the review still finds it at
 * fault: a line that says the two disagree, with the review's better move and what it would
 * have kept (.review-hint); null elsewhere, a review stored without the field included. */
function hintNote(d, review) {
  if (d.hint_agrees !== true || d.loss === null || d.best === d.chosen) return null;
  if (d.verdict !== "inaccuracy" && d.verdict !== "mistake") return null;
  const action = actionSaid("do", d.best);
  const words = unitOf(review) === "not_fool" ? t("review.hint_agrees_fool", { action, chance: pct(d.loss) }) : t("review.hint_agrees_tricks", { action, count: round1(d.loss) });
  return h("span", { class: "review-hint" }, words);
}

function worst(review) {
  return [...review.decisions].sort((a, b) => (b.loss ?? -1) - (a.loss ?? -1) || a.index - b.index);
}

function item(d, review) {
  // Neuf's hands are deals, as the table says; a decision before the first trick (Neuf's
  // exchange, Knockout Whist's choice of trumps) has no trick.
  const key = (review.game === "neuf" ? "review.where_deal" : "review.where") + (d.trick === null ? "_start" : "");
  const where = d.hand === null ? t("review.move", { i: d.index + 1 }) : t(key, { i: d.index + 1, hand: d.hand, trick: d.trick });
  const button = h("button", { type: "button", class: "link" }, t("review.item", { where, said: said(d, review) }));
  button.addEventListener("click", () => {
    const replay = hooks.replay();
    if (replay) replay.go(d.index + 1);
  });
  return h("li", { dataset: { index: String(d.index), verdict: d.verdict }, class: `verdict-${d.verdict}` }, button, hintNote(d, review));
}

function node(tag, attrs) {
  const made = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) made.setAttribute(k, String(v));
  return made;
}

/** Each decision's value in the review's unit, with the best action and with the chosen one:
 * two lines over the seat's rated decisions, a dot per decision coloured by its verdict, the
 * axes labelled in the reader's language. The chance of not being the fool runs from 0 to
 * 100%; tricks over the values' own range, rounded out to whole tricks. */
export function chart(review) {
  const width = 360;
  const height = 170;
  const unit = unitOf(review);
  // The side label, on two lines when one would run past the plot's height ("Шанс не
  // остаться в дураках"), with room for the second line left of the ticks.
  const sideLines = axisLines(t(`review.axis_${UNIT_KEYS[unit]}`));
  const pad = { left: sideLines.length > 1 ? 66 : 54, right: 10, top: 8, bottom: 34 };
  const rated = review.decisions.filter((d) => d.loss !== null);
  const value = (d, action) => {
    const v = (d.actions.find((a) => a.action === action) || {}).value;
    return typeof v === "number" ? v : 0;
  };
  const scale = unit === "not_fool" ? { low: 0, high: 1, ticks: [0, 0.5, 1], said: (v) => pct(v) } : trickScale(rated.flatMap((d) => [value(d, d.best), value(d, d.chosen)]));
  const plotW = width - pad.left - pad.right;
  const plotH = height - pad.top - pad.bottom;
  const x = (i) => pad.left + (rated.length > 1 ? (i * plotW) / (rated.length - 1) : plotW / 2);
  const y = (v) => pad.top + (1 - (Math.min(scale.high, Math.max(scale.low, v)) - scale.low) / (scale.high - scale.low)) * plotH;
  const svg = node("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", class: "review-chart", dir: "ltr", direction: "ltr" });
  const title = node("title", {});
  title.textContent = t("review.chart");
  svg.append(title);
  for (const v of scale.ticks) {
    svg.append(node("line", { x1: pad.left, x2: width - pad.right, y1: y(v), y2: y(v), class: v === scale.low ? "axis base" : "axis" }));
    svg.append(text(scale.said(v), { x: pad.left - 4, y: y(v) + 3.5, "text-anchor": "end", class: "tick" }));
  }
  const shown = rated.length > 1 ? [...new Set([0, Math.floor((rated.length - 1) / 2), rated.length - 1])] : [0];
  for (const i of rated.length ? shown : []) svg.append(text(num(i + 1), { x: x(i), y: height - pad.bottom + 13, "text-anchor": "middle", class: "tick" }));
  svg.append(text(t("review.axis_decisions"), { x: pad.left + plotW / 2, y: height - 4, "text-anchor": "middle", class: "axis-label" }));
  const side = node("text", { x: 0, y: 0, "text-anchor": "middle", class: "axis-label" });
  sideLines.forEach((line, i) => {
    const span = node("tspan", { x: 0, dy: i ? 11 : 0 });
    span.textContent = line;
    side.append(span);
  });
  side.setAttribute("transform", `translate(11 ${pad.top + plotH / 2}) rotate(-90)`);
  svg.append(side);
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

/** A scale of tricks for `values`: their range rounded out to whole tricks (at least one
 * wide), ticks at whole steps, at most five of them, the top one at the top. */
function trickScale(values) {
  const low = values.length ? Math.floor(Math.min(...values)) : 0;
  const top = values.length ? Math.ceil(Math.max(...values)) : 1;
  const step = Math.max(1, Math.ceil((top - low) / 4));
  const steps = Math.max(1, Math.ceil((top - low) / step));
  const ticks = Array.from({ length: steps + 1 }, (_, k) => low + k * step);
  return { low, high: ticks.at(-1), ticks, said: (v) => num(v) };
}

/** A side label's lines: itself, or, past 20 characters (at 10px, the plot's 128 high), two
 * lines broken at the space nearest its middle. */
function axisLines(words) {
  if (words.length <= 20 || !words.includes(" ")) return [words];
  const middle = words.length / 2;
  let at = -1;
  for (let i = words.indexOf(" "); i >= 0; i = words.indexOf(" ", i + 1)) if (at < 0 || Math.abs(i - middle) < Math.abs(at - middle)) at = i;
  return [words.slice(0, at), words.slice(at + 1)];
}

function text(words, attrs) {
  const made = node("text", attrs);
  made.textContent = words;
  return made;
}

/** The chart's key: its two lines and the colours of its dots. */
function legend() {
  const entry = (cls, words) => h("li", { class: cls }, h("span", { class: "swatch", "aria-hidden": "true" }), words);
  return h(
    "ul",
    { id: "review-legend", class: "review-legend" },
    entry("key-best", t("review.legend_best")),
    entry("key-chosen", t("review.legend_chosen")),
    entry("key-dot key-inaccuracy", t("review.verdict.inaccuracy")),
    entry("key-dot key-mistake", t("review.verdict.mistake")),
  );
}
