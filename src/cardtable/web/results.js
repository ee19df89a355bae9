/*
 * The end of a game: the results screen inside #results (table_render.js shows it when the game
 * is over). Built only from what every seat may see: the table's public `results` (places), the
 * game's `over` event with its final view as a watcher sees it (scores, the score sheet, who
 * went out when), and the public `action` events that say who won each trick (`won`).
 *
 * Hooks: #results-board; #results-places tr[data-seat][data-place] (.me: this seat);
 * #results-tricks (Knockout Whist, Neuf: tricks per hand, td[data-seat][data-hand]);
 * #results-chart svg (Neuf's score sheet: polyline[data-side] per seat or team, the points
 * circle[data-deal]); #results-legend li[data-side].
 */

import { num, t } from "./i18n.js";
import { h, svg, avatar } from "./common.js";

// Per game number: {over: the `over` event, hands: Map hand -> tricks won per seat, hand}.
const games = new Map();

function entry(game) {
  if (!games.has(game)) games.set(game, { over: null, hands: new Map(), hand: 1 });
  return games.get(game);
}

/** Notes one event of the table (live, or caught up on when the page opened). */
export function noteForResults(ev) {
  if (!ev || typeof ev.game !== "number") return;
  const g = entry(ev.game);
  if (ev.kind === "deal" && ev.reshuffle == null) g.hand = ev.hand;
  else if (ev.kind === "over") g.over = ev;
  else if (ev.kind === "action" && typeof ev.won === "number") {
    const row = g.hands.get(g.hand) || [];
    row[ev.won] = (row[ev.won] || 0) + 1;
    g.hands.set(g.hand, row);
  }
}

/** Hue of a seat, as its badge (common.js avatar) has it. */
function hue(seat) {
  return (seat * 137 + 200) % 360;
}

/** The board of game `gameNo`: `view` is the page's last view of it, `table` the public
 * description, `name(seat)` a seat's name, `mySeat` this page's seat (null: a watcher). */
export function renderBoard(box, { view, table, gameNo, name, mySeat }) {
  const g = entry(gameNo);
  // The watcher's final view from the `over` event; a game from before events held it is
  // read from the page's own view of its end.
  const final = (g.over && g.over.final) || view;
  const published = (table && (table.results || []).find((r) => r.game === gameNo)) || (g.over && g.over.result) || null;
  const parts = [];
  if (published) parts.push(places(final, published, g, name, mySeat, table));
  const tricks = tricksTable(final, g, name);
  if (tricks) parts.push(tricks);
  if (final.game === "neuf" && Array.isArray(final.ledger) && final.ledger.length) parts.push(...scoreChart(final, name));
  box.replaceChildren(...parts);
  // The screen comes into sight once, when the game ends (or the page opens on its end).
  if (!g.shown) {
    g.shown = true;
    const section = box.closest("section");
    if (section && section.scrollIntoView) section.scrollIntoView({ block: "nearest" });
  }
}

function teamOf(final, seat) {
  return final.game === "neuf" && final.players === 4 ? seat % 2 : null;
}

function places(final, result, g, name, mySeat, table) {
  const head = [t("results.place"), t("results.player")];
  const game = final.game;
  const counted = g.hands.size > 0;
  if (game === "knockout-whist") {
    if (counted) head.push(t("results.tricks"));
    head.push(t("results.knocked_out"));
  } else if (game === "neuf") {
    head.push(t("results.score"));
    if (counted) head.push(t("results.tricks"));
  } else head.push(t("results.cards_left"));
  const total = (seat) => [...g.hands.values()].reduce((n, row) => n + (row[seat] || 0), 0);
  const rows = [];
  result.places.forEach((group, i) => {
    for (const seat of group) {
      const info = table && table.seats ? table.seats[seat] : null;
      const cells = [
        h("td", { class: "place" }, t("results.place_n", { n: i + 1 })),
        h("th", { scope: "row", class: "who" }, avatar(seat, name(seat), info && info.kind === "bot"), " ", h("bdi", {}, name(seat))),
      ];
      if (game === "knockout-whist") {
        if (counted) cells.push(h("td", {}, num(total(seat))));
        const out = (final.eliminated || []).find(([s]) => s === seat);
        cells.push(h("td", {}, out ? t("results.out_in_hand", { hand: out[1] }) : result.winners.includes(seat) ? t("winner") : "—"));
      } else if (game === "neuf") {
        const team = teamOf(final, seat);
        cells.push(h("td", {}, num(final.scores[team === null ? seat : team])));
        if (counted) cells.push(h("td", {}, num(total(seat))));
      } else {
        const left = final.hand_sizes ? final.hand_sizes[seat] : 0;
        const fool = final.loser === seat;
        cells.push(h("td", {}, fool ? t("results.fool_with", { n: left }) : num(left)));
      }
      const classes = [i === 0 && result.winners.includes(seat) ? "won" : "", seat === mySeat ? "me" : ""].filter(Boolean).join(" ");
      rows.push(h("tr", { class: classes || null, dataset: { seat: String(seat), place: String(i + 1) } }, ...cells));
    }
  });
  return h(
    "table",
    { id: "results-places", class: "results-places" },
    h("caption", {}, t("results.places")),
    h("thead", {}, h("tr", {}, ...head.map((x) => h("th", { scope: "col" }, x)))),
    h("tbody", {}, ...rows),
  );
}

/** Tricks won in each hand (Knockout Whist's hands, Neuf's deals), from the `won` of the
 * public action events this page has seen. It must fit a phone's width: with up to four
 * players each hand is a row and each player a column (a Neuf game may have thirty deals);
 * with more, each player is a row and the hands' columns are headed by their numbers alone
 * (the full "Hand 3" for screen readers), at most seven of them. */
function tricksTable(final, g, name) {
  if (final.game === "kryt-navalivat" || !g.hands.size) return null;
  const hands = [...g.hands.keys()].sort((a, b) => a - b);
  const label = (n) => (final.game === "neuf" ? t("neuf.deal_n", { n }) : t("results.hand_n", { n }));
  const seats = [...Array(final.players).keys()];
  // A seat knocked out (Knockout Whist) plays no later hand: a dash, not a nought.
  const out = new Map((final.eliminated || []).map(([seat, hand]) => [seat, hand]));
  const outBefore = (seat, hand) => out.has(seat) && hand > out.get(seat);
  const cell = (s, n) => h("td", { dataset: { seat: String(s), hand: String(n) } }, outBefore(s, n) ? "—" : num((g.hands.get(n) || [])[s] || 0));
  const byHand = seats.length <= 4;
  const head = byHand
    ? [h("th", { scope: "col" }, t(final.game === "neuf" ? "results.deal" : "results.hand")), ...seats.map((s) => h("th", { scope: "col" }, h("bdi", {}, name(s))))]
    : [
        h("th", { scope: "col" }, t("results.player")),
        ...hands.map((n) => h("th", { scope: "col", class: "number" }, h("span", { class: "sr-only" }, label(n)), h("span", { "aria-hidden": "true" }, num(n)))),
      ];
  const rows = byHand
    ? hands.map((n) => h("tr", {}, h("th", { scope: "row" }, label(n)), ...seats.map((s) => cell(s, n))))
    : seats.map((s) => h("tr", {}, h("th", { scope: "row" }, h("bdi", {}, name(s))), ...hands.map((n) => cell(s, n))));
  return h(
    "div",
    { class: "results-scroll", tabindex: "0", role: "region", "aria-labelledby": "results-tricks-caption" },
    h(
      "table",
      { id: "results-tricks", class: `results-tricks ${byHand ? "by-hand" : "by-player"}` },
      h("caption", { id: "results-tricks-caption" }, t(final.game === "neuf" ? "results.tricks_by_deal" : "results.tricks_by_hand")),
      h("thead", {}, h("tr", {}, ...head)),
      h("tbody", {}, ...rows),
    ),
  );
}

const DASHES = ["", "6 3", "2 3", "8 3 2 3"];

/** Neuf's score sheet as a line chart (inline SVG): each seat's (or team's) score after each
 * deal, with its own colour, dash and point shape, and a legend. */
function scoreChart(final, name) {
  const teams = final.players === 4;
  const sides = teams ? [0, 1] : [...Array(final.players).keys()];
  const sideName = (i) => (teams ? t("neuf.team_of", { a: name(i), b: name(i + 2) }) : name(i));
  const rows = final.ledger;
  const values = rows.flatMap((r) => r.scores);
  const lo = Math.min(0, ...values);
  const hi = Math.max(0, ...values);
  const W = 480;
  const H = 220;
  const pad = { left: 36, right: 12, top: 12, bottom: 30 };
  const x = (i) => pad.left + (rows.length === 1 ? 0.5 : i / (rows.length - 1)) * (W - pad.left - pad.right);
  const y = (v) => pad.top + (hi === lo ? 0.5 : (hi - v) / (hi - lo)) * (H - pad.top - pad.bottom);
  const colour = (side) => `hsl(${hue(side)} 55% 38%)`;
  const title = t("results.chart_title");
  const parts = [svg("title", { id: "results-chart-title" }, title), svg("desc", { id: "results-chart-desc" }, t("results.chart_desc", { count: rows.length }))];
  // The axis lines: the lowest and highest score, and zero.
  for (const v of [...new Set([lo, 0, hi])]) {
    parts.push(svg("line", { x1: pad.left, x2: W - pad.right, y1: y(v), y2: y(v), class: v === 0 ? "axis zero" : "axis" }));
    parts.push(svg("text", { x: pad.left - 6, y: y(v) + 4, "text-anchor": "end", class: "tick" }, num(v)));
  }
  const every = Math.max(1, Math.ceil(rows.length / 12));
  rows.forEach((r, i) => {
    if (i % every === 0 || i === rows.length - 1) parts.push(svg("text", { x: x(i), y: H - pad.bottom + 16, "text-anchor": "middle", class: "tick" }, num(r.deal)));
  });
  parts.push(svg("text", { x: (W + pad.left) / 2, y: H - 2, "text-anchor": "middle", class: "axis-label" }, t("results.deal_axis")));
  for (const side of sides) {
    const points = rows.map((r, i) => `${x(i).toFixed(1)},${y(r.scores[side]).toFixed(1)}`).join(" ");
    parts.push(svg("polyline", { points, fill: "none", stroke: colour(side), "stroke-width": 2.5, "stroke-dasharray": DASHES[side % DASHES.length] || null, "data-side": side, class: "line" }));
    rows.forEach((r, i) => {
      parts.push(
        svg(
          "circle",
          { cx: x(i).toFixed(1), cy: y(r.scores[side]).toFixed(1), r: 3.2, fill: colour(side), "data-side": side, "data-deal": r.deal },
          svg("title", {}, t("results.chart_point", { deal: r.deal, name: sideName(side), score: num(r.scores[side]) })),
        ),
      );
    });
  }
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, dir: "ltr", direction: "ltr", role: "img", "aria-labelledby": "results-chart-title results-chart-desc", class: "score-chart", focusable: "false" }, ...parts);
  const legend = h(
    "ul",
    { id: "results-legend", class: "results-legend" },
    ...sides.map((side) => {
      const swatch = h("span", { class: "swatch", "aria-hidden": "true" });
      swatch.style.backgroundColor = colour(side);
      const last = rows[rows.length - 1].scores[side];
      return h("li", { dataset: { side: String(side) } }, swatch, h("bdi", {}, sideName(side)), ` ${t("results.final_score", { n: num(last) })}`);
    }),
  );
  return [h("figure", { id: "results-chart", class: "results-chart" }, h("figcaption", {}, title), chart, legend)];
}
