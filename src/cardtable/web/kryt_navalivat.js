// Kryt'-navalivat': one pile, the stock with its turned card, the cards everybody knows a
// player holds, and turns of lead / beat-and-cover / take.

import { t, num, cardName, cardWords } from "./i18n.js";
import { cardDiv, backDiv, cardShort } from "./cards.js";
import { h, suitSpan, badge, playText } from "./common.js";

const SHOWN = 14;

// The turn's phase. A view stored before the views said "phase" (a finished game's last
// view, in its record) says "mode".
const phase = (v) => v.phase ?? v.mode;

export default {
  name: "kryt-navalivat",
  hasTricks: false,

  isOver: (v) => phase(v) === "over",
  trump: (v) => v.trump,

  seatLines(v, seat, ctx) {
    const out = [];
    if (v.out.includes(seat)) out.push(badge(t("kryt.out"), "status-out"));
    if (phase(v) === "over" && v.loser === seat) out.push(badge(t("kryt.fool"), "fool"));
    if (v.dealer === seat) out.push(badge(t("dealer_short"), "dealer"));
    // One's own known cards are marked in the hand instead (table_hand.js), to keep the box small.
    const known = seat === ctx.mySeat ? [] : v.known[seat] || [];
    if (known.length) {
      const cards = known.flatMap((c) => [" ", h("bdi", { dir: "ltr" }, cardShort(c))]);
      out.push(h("span", { class: "known", title: t("kryt.known") }, t("colon", { label: t("kryt.known_short") }), ...cards));
    }
    return out;
  },

  center(v, ctx) {
    const box = h("div", { id: ctx.ids ? "pile" : null, class: "pile-area", role: "group", "aria-label": t("kryt.pile") });
    const pileWrap = h("div", { class: "pile" });
    const take = v.would_take.length;
    const start = Math.max(0, v.pile.length - SHOWN);
    if (start > 0) pileWrap.append(h("span", { class: "more" }, t("kryt.more", { n: start })));
    v.pile.slice(start).forEach((card, i) => {
      const idx = start + i;
      const inTake = take > 0 && idx >= v.pile.length - take;
      const node = cardDiv(card, inTake ? "would-take" : "");
      node.setAttribute("title", cardName(card));
      pileWrap.append(node);
    });
    if (!v.pile.length) pileWrap.append(h("span", { class: "empty" }, t("kryt.pile_empty")));
    box.append(h("div", { class: "pile-label" }, t("kryt.pile_n", { count: v.pile.length })), pileWrap);
    if (take) box.append(h("div", { class: "would-take-label" }, t("kryt.would_take", { count: take })));
    const stock = h("div", { id: ctx.ids ? "stock" : null, class: "stock" });
    if (v.trump_card) stock.append(cardDiv(v.trump_card, "trump-card sideways"));
    if (v.stock > (v.trump_card ? 1 : 0)) stock.append(backDiv(t("kryt.stock_n", { n: v.stock })));
    stock.append(h("div", { class: "stock-count" }, t("kryt.stock_n", { n: v.stock })));
    box.append(stock);
    return box;
  },

  info(v) {
    const rows = [
      [t("kryt.mode_label"), t(`kryt.mode.${phase(v)}`)],
      [t("trump"), suitSpan(v.trump)],
    ];
    if (v.anti_trump) rows.push([t("kryt.anti_trump"), suitSpan(v.anti_trump)]);
    rows.push([t("kryt.trump_mode"), t(`kryt.trump_mode_${v.trump_mode}`)]);
    if (v.trump_card) rows.push([t("kryt.trump_card"), cardDiv(v.trump_card, "mini")]);
    rows.push([t("kryt.stock"), num(v.stock)]);
    return rows;
  },

  lastTrick: () => null,
  previousTricks: () => null,

  describe(ev, before, v, ctx) {
    const [verb, arg] = ev.action.split(" ");
    const name = ctx.name(ev.seat);
    if (verb === "lead") return playText("kryt.says_lead", name, arg);
    if (verb === "beat") return playText("kryt.says_beat", name, arg);
    if (verb === "cover") return playText("kryt.says_cover", name, arg);
    if (verb === "take") {
      const n = before && before.would_take ? before.would_take.length : 0;
      return n ? t("kryt.says_take_n", { name, count: n }) : t("kryt.says_take", { name });
    }
    if (verb === "swap") {
      const card = before && before.trump_card;
      return card ? t("kryt.says_swap_card", { name, card: cardWords(card) }) : t("kryt.says_swap", { name });
    }
    return `${t("colon", { label: name })} ${ev.action}`;
  },

  turnText(v, ctx) {
    if (phase(v) === "over") return t("game_over");
    const who = v.to_move;
    const mode = t(`kryt.mode.${phase(v)}`);
    return who === ctx.mySeat ? t("kryt.your_turn", { mode }) : t("kryt.turn_of", { name: ctx.name(who), mode });
  },

  actionLabel(action, v) {
    if (action === "take") {
      const n = v && v.would_take ? v.would_take.length : 0;
      return n ? t("kryt.take_button", { count: n }) : t("kryt.take");
    }
    if (action === "swap") return v.trump_card ? t("kryt.swap_button", { card: cardShort(v.trump_card) }) : t("kryt.swap");
    const [verb, arg] = action.split(" ");
    if (arg) return t(`kryt.verb.${verb}`, { card: cardShort(arg) });
    return action;
  },

  /** "Beat with the queen of spades": a card action in words (`card`: cardWords). */
  verbLabel: (verb, card) => t(`kryt.verb.${verb}`, { card }),

  /** A finished game's result as its `over` event gives it (an earlier game at the table):
   * the last place is the fool; no winners, a draw. */
  resultOf(result, v, ctx) {
    if (!result.winners.length || result.places.length < 2) return [t("kryt.draw")];
    return result.places[result.places.length - 1].map((s) => t("kryt.is_fool", { name: ctx.name(s) }));
  },

  results(v, ctx) {
    if (v.draw) return [t("kryt.draw")];
    if (v.loser !== null && v.loser !== undefined) return [t("kryt.is_fool", { name: ctx.name(v.loser) })];
    return [];
  },
};

