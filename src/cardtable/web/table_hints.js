/*
 * Hints (docs/server.md): the best action marked, each action's value or gap, the reason.
 */
import { t, num, pct, cardWords, Forms, currentLang } from "./i18n.js";
import { h } from "./common.js";
import { st, $, seatName, announce, actionWords, redraw } from "./table_state.js";

/** A hint: the best action marked, each action's value in the game's unit (or its gap to
 * the best), and the reason in words. A forced move (the only legal action) is not valued. */
export function onHint(msg) {
  const forced = msg.actions.length === 1;
  const actions = new Map(msg.actions.map((a) => [a.action, a]));
  const best = actions.has(msg.best) ? msg.best : msg.actions[0].action;
  st.hints = { actions, best, forced, unit: msg.unit, reason: msg.reason };
  redraw();
  if (forced) announce(t("hint_forced_said", { action: actionNamed(best) }));
  else {
    const value = actions.get(best).value;
    // An unrated best (too few samples) has no value to say: the sentence leaves it out.
    if (typeof value === "number") announce(t("hints.said", { action: actionNamed(best), value: hintValue(value, true), why: hintWhy() }));
    else announce(t("hints.said_plain", { action: actionNamed(best), why: hintWhy() }));
  }
}

/** An action as the hint's sentences name it, after a colon: a button's label ("Beat with
 * …", "Pick up 1 card") goes on in lower case, as a card's name does ("the ten of spades"). */
function actionNamed(action) {
  return actionWords(action).replace(/^([^\p{L}\p{N}]*)(\p{Lu})/u, (_, lead, first) => lead + first.toLocaleLowerCase(currentLang()));
}

// To a tenth, and never a negative zero: Intl writes -0 as "-0".
const round1 = (x) => Math.round(x * 10) / 10 || 0;

/** An action's value in the hint's unit: "2.4 tricks" (`long`: "2.4 tricks this hand"). */
function hintValue(value, long) {
  const unit = st.hints.unit;
  if (unit === "not_fool") return long ? t("hints.value.not_fool", { chance: pct(value) }) : pct(value);
  const count = round1(value);
  if (unit === "points") {
    // Neuf's value is the tricks the seat expects over its quota this deal (NEUF-5.2): said
    // as tricks over or short of the quota, never as points, whose sign reads backwards in
    // a game where the lower score wins.
    const side = count > 0 ? "over" : count < 0 ? "under" : "even";
    // The badge's short words count no noun ("1.3 over"): their number is {n}, no plural.
    return t(`hints.${long ? "value" : "short"}.quota_${side}`, { count: Math.abs(count), n: Math.abs(count) });
  }
  return t(long ? "hints.value.tricks" : "tricks_n", { count });
}

/** An action's gap to the best in the hint's unit, signed: "-0.8", "-5%" (an action tied
 * with the best is "≈ best", chanceBadge). */
function hintGap(gap) {
  const shown = shownGap(gap);
  return st.hints.unit === "not_fool" ? pct(shown, { signed: true }) : num(shown, { signed: true });
}

/** A gap in words, for the ear: "worse than the best move by 0.8 tricks". */
function gapWords(gap) {
  const shown = shownGap(gap);
  const size = Math.abs(shown);
  const by = st.hints.unit === "not_fool" ? pct(size) : t("tricks_n", { count: size });
  return t(shown < 0 ? "hints.worse" : "hints.better", { gap: by });
}

/** A gap as the badge writes it: to a tenth of the unit, or of a percent (0 when it rounds
 * to nothing, either side of it). */
function shownGap(gap) {
  return st.hints.unit === "not_fool" ? Math.round(gap * 1000) / 1000 || 0 : round1(gap);
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
export function hintBest(action) {
  return !!st.hints && !st.hints.forced && st.hints.best === action;
}

// A hint's badge on a card or button: the best action's value, the others' gap to it,
// "forced" for the only legal move, a dash for an action the search did not rate. A card
// with several actions shows its best one's.
export function chanceBadge(actions) {
  if (!st.hints) return null;
  const known = actions.filter((a) => st.hints.actions.has(a));
  if (!known.length) return null;
  const rate = (a) => {
    const value = st.hints.actions.get(a).value;
    return a === st.hints.best ? Infinity : typeof value === "number" ? value : -Infinity;
  };
  const shown = known.reduce((x, y) => (rate(y) > rate(x) ? y : x));
  if (st.hints.forced) return h("span", { class: "chance forced", dataset: { action: shown }, "aria-label": t("hint_forced") }, t("forced"));
  const { value, gap, tie } = st.hints.actions.get(shown);
  if (typeof value !== "number") return h("span", { class: "chance unrated", dataset: { action: shown }, "aria-label": t("not_rated") }, "–");
  const dataset = { action: shown, value: String(value), gap: String(gap) };
  if (shown === st.hints.best) {
    return h("span", { class: "chance best", dataset, "aria-label": `${t("colon", { label: t("hints.best") })} ${hintValue(value, true)}` }, hintValue(value, false));
  }
  // An action the analysis cannot tell from the best (its gap within the noise of the
  // sampled deals, or too small to matter) is as good as the best: no gap is claimed.
  if (tie === true || shownGap(gap) === 0) {
    dataset.tie = "true";
    // Its sign and its word may go on two lines over a narrow card (style.css), though a
    // no-break space holds them together in some languages.
    const near = t("hints.near_best");
    const cut = near.search(/\s/);
    const words = cut > 0 ? [near.slice(0, cut), h("wbr"), near.slice(cut)] : [near];
    return h("span", { class: "chance tie", dataset, "aria-label": near }, ...words);
  }
  return h("span", { class: "chance", dataset, "aria-label": gapWords(gap) }, hintGap(gap));
}

/** The hint's sentence and the best action's value, under the controls. */
export function renderHintPanel() {
  const panel = $("hint-panel");
  const hint = st.hints;
  panel.hidden = !hint || hint.forced || !!st.replay;
  if (panel.hidden) return;
  panel.dataset.unit = hint.unit || "";
  panel.dataset.best = hint.best;
  panel.dataset.reason = (hint.reason && hint.reason.key) || "";
  $("hint-why").textContent = hintWhy();
  const value = hint.actions.get(hint.best).value;
  $("hint-value").textContent = typeof value === "number" ? t("hints.summary", { action: actionNamed(hint.best), value: hintValue(value, true) }) : "";
}
