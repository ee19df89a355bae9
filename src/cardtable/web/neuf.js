// Neuf: the exchange, the trump of the deal, scores against the quota and the ledger.

import { t, num, list } from "./i18n.js";
import { cardShort, isRed, backDiv } from "./cards.js";
import { h, trickArea, suitSpan, badge, lastOf, playText } from "./common.js";

function team(seat) {
  return seat % 2;
}

// NEUF-2.3: the pack is dealt in four piles of 13, the fourth the spare (none with four).
const SPARE_SIZE = 13;

/** Whose hand the current spare is (NEUF-3.2, -3.3): the one put down by the last player who
 * exchanged, or null for the spare as dealt. Who exchanged, in order, is public (NEUF-9). */
function spareFrom(v) {
  let from = null;
  for (const [seat, choice] of v.exchanges) if (choice === "exchange") from = seat;
  return from;
}

/** The spare on the felt, face down: in the middle while the players decide (NEUF-3), then
 * set aside for the rest of the deal (NEUF-3.4), out of the tricks' way. */
function spareNode(v, ctx) {
  const aside = v.phase !== "exchange";
  const from = spareFrom(v);
  const pack = h("div", { class: "spare-pack", "aria-hidden": "true" });
  for (let i = 0; i < SPARE_SIZE; i++) {
    const back = backDiv();
    // Custom properties through the CSSOM: the policy allows no style attribute.
    back.style.setProperty("--i", String(i - (SPARE_SIZE - 1) / 2));
    back.style.setProperty("--k", String(i));
    pack.append(back);
  }
  const whose = from === null ? null : from === ctx.mySeat ? t("neuf.spare_yours") : t("neuf.spare_of", { name: ctx.name(from) });
  // The table area is left to right; the label's words follow the page's language (as a seat's).
  const label = h(
    "p",
    { class: "spare-label", dir: document.documentElement.dir || "ltr" },
    h("span", { class: "spare-count" }, t("neuf.spare_n", { count: SPARE_SIZE })),
    aside ? h("span", { class: "spare-note set-aside" }, t("neuf.spare_aside")) : null,
    whose ? h("span", { class: "spare-note" }, whose) : null,
  );
  const dataset = { count: String(SPARE_SIZE), from: from === null ? "" : String(from) };
  return h("div", { id: ctx.ids ? "spare" : null, class: `spare${aside ? " aside" : ""}`, dataset }, pack, label);
}

export default {
  name: "neuf",
  hasTricks: true,

  isOver: (v) => v.phase === "over",
  trump: (v) => (v.trump === "NT" ? null : v.trump),

  seatLines(v, seat) {
    const out = [];
    const teams = v.players === 4;
    const score = teams ? v.scores[team(seat)] : v.scores[seat];
    out.push(badge(t("neuf.score_n", { n: score }), "score"));
    const tricks = teams ? t("tricks_n", { count: v.tricks_won[seat] }) : t("neuf.tricks_of", { n: v.tricks_won[seat], q: v.quota });
    out.push(badge(tricks, "tricks"));
    if (teams) out.push(badge(t("neuf.team_n", { n: team(seat) + 1 }), `team team-${team(seat)}`));
    if (v.dealer === seat) out.push(badge(t("dealer_short"), "dealer"));
    const ex = v.exchanges.find(([s]) => s === seat);
    if (ex) out.push(badge(t(`neuf.${ex[1]}_done`), "exchange"));
    if (v.winners.includes(seat)) out.push(badge(t("winner"), "win"));
    return out;
  },

  center(v, ctx) {
    const area = trickArea(v, ctx);
    // The spare lies on the felt through the deal; the four-player game has none (NEUF-8.4).
    if (v.players !== 3 || v.phase === "over") return area;
    const both = document.createDocumentFragment();
    both.append(area, spareNode(v, ctx));
    return both;
  },

  info(v, ctx) {
    const rows = [
      [t("neuf.deal_n", { n: v.deal_number }), null],
      [t("trump"), suitSpan(v.trump)],
      [t("neuf.sequence"), t(`options.values.trump_sequence.${v.trump_sequence}`)],
      [t("neuf.quota"), num(v.quota)],
    ];
    if (Array.isArray(v.held) && v.held.length > 1) {
      // A player who exchanged knows the hand it put down (NEUF-9): worth keeping in view.
      rows.push([t("neuf.held_before"), null]);
      const chips = v.held[0].map((c) => h("span", { class: `chip ${isRed(c) ? "red" : ""}` }, cardShort(c)));
      rows.push([null, h("span", { class: "held seat-hand" }, ...chips)]);
    }
    const teams = v.players === 4;
    const sides = teams ? [0, 1] : [...Array(v.players).keys()];
    const label = (i) => (teams ? t("neuf.team_of", { a: ctx.name(i), b: ctx.name(i + 2) }) : ctx.name(i));
    const scores = h(
      "table",
      { id: ctx.ids ? "scores" : null, class: "scores" },
      h("caption", {}, t("neuf.scores")),
      ...sides.map((i) => h("tr", {}, h("th", { scope: "row" }, label(i)), h("td", {}, num(v.scores[i])))),
    );
    rows.push([null, scores]);
    if (v.ledger.length) {
      const head = h("tr", {}, h("th", {}, "#"), h("th", {}, t("trump")), ...sides.map((i) => h("th", {}, teams ? t("neuf.team_n", { n: i + 1 }) : ctx.name(i))));
      const body = v.ledger.map((row) =>
        h(
          "tr",
          {},
          h("td", {}, num(row.deal)),
          h("td", {}, suitSpan(row.trump)),
          ...sides.map((i) => h("td", {}, `${num(row.scores[i])} (${num(row.tricks[i])})`)),
        ),
      );
      const det = h(
        "details",
        { id: ctx.ids ? "ledger" : null, class: "ledger" },
        h("summary", {}, t("neuf.ledger", { count: v.ledger.length })),
        h("table", {}, h("thead", {}, head), h("tbody", {}, ...body)),
        h("p", { class: "ledger-key" }, t("neuf.ledger_key")),
      );
      rows.push([null, det]);
    }
    return rows;
  },

  lastTrick(v) {
    return lastOf(v.tricks) || (v.previous_deal ? lastOf(v.previous_deal.tricks) : null);
  },

  previousTricks: (v) => (v.previous_deal ? v.previous_deal.tricks : null),

  describe(ev, before, v, ctx) {
    const [verb, arg] = ev.action.split(" ");
    const name = ctx.name(ev.seat);
    if (verb === "play") return playText("says.plays", name, arg);
    if (verb === "exchange") return t("neuf.says_exchange", { name });
    if (verb === "keep") return t("neuf.says_keep", { name });
    return `${t("colon", { label: name })} ${ev.action}`;
  },

  turnText(v, ctx) {
    if (v.phase === "over") return t("game_over");
    const who = v.to_move;
    if (v.phase === "exchange") return who === ctx.mySeat ? t("neuf.your_exchange") : t("neuf.deciding", { name: ctx.name(who) });
    return who === ctx.mySeat ? t("your_turn") : t("to_play", { name: ctx.name(who) });
  },

  actionLabel(action) {
    if (action === "exchange") return t("neuf.exchange");
    if (action === "keep") return t("neuf.keep");
    return action;
  },

  /** A finished game's result as its `over` event gives it (an earlier game at the table). */
  resultOf(result, v, ctx) {
    const w = result.winners;
    if (v.players === 4 && w.length) return [t("neuf.team_wins", { a: ctx.name(team(w[0])), b: ctx.name(team(w[0]) + 2) })];
    return w.map((s) => t("result.wins", { name: ctx.name(s) }));
  },

  results(v, ctx) {
    const lines = [];
    if (v.players === 4) {
      const w = v.winners.length ? team(v.winners[0]) : null;
      if (w !== null) lines.push(t("neuf.team_wins", { a: ctx.name(w), b: ctx.name(w + 2) }));
      lines.push(t("neuf.final_scores", { scores: list(v.scores.map(num), "unit") }));
    } else {
      for (const s of v.winners) lines.push(t("result.wins", { name: ctx.name(s) }));
      lines.push(t("neuf.final_scores", { scores: list(v.scores.map((x, i) => `${ctx.name(i)} ${num(x)}`), "unit") }));
    }
    return lines;
  },
};
