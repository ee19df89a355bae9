// Knockout Whist: statuses, tricks won, trump choice and the dog's knock.

import { t, num, suitName } from "./i18n.js";
import { cardDiv, SUIT_SYMBOL } from "./cards.js";
import { trickArea, suitSpan, badge, lastOf, playText } from "./common.js";

export default {
  name: "knockout-whist",
  hasTricks: true,

  isOver: (v) => v.phase === "over",
  trump: (v) => v.trump,

  seatLines(v, seat) {
    const out = [];
    const st = v.statuses[seat];
    // "in" is the usual case; only the dog's life and being out need a badge.
    if (st !== "active") out.push(badge(t(`kow.status.${st}`), `status-${st}`));
    if (st !== "out") out.push(badge(t("tricks_n", { count: v.tricks_won[seat] }), "tricks"));
    if (v.dealer === seat) out.push(badge(t("dealer_short"), "dealer"));
    // The chooser names the next hand's trumps: nothing to choose once the game is over.
    if (v.chooser === seat && v.phase !== "over") out.push(badge(t("kow.chooser_short"), "chooser"));
    if (v.winner === seat) out.push(badge(t("winner"), "win"));
    return out;
  },

  center: (v, ctx) => trickArea(v, ctx),

  info(v) {
    const rows = [
      [t("kow.hand_of", { k: v.hand_number, count: v.hand_size }), null],
      [t("trump"), v.trump ? suitSpan(v.trump) : t("kow.trump_pending")],
    ];
    if (v.turned) rows.push([t("kow.turned"), cardDiv(v.turned, "thumb")]);
    rows.push([t("kow.dogs_life"), v.dog_used ? t("kow.dog_used") : t("kow.dog_unused")]);
    if (v.cuts && v.cuts.length) {
      const cuts = v.cuts.map((round) => round.map(([s, c]) => `${num(s + 1)}:${c}`).join(" ")).join(" / ");
      rows.push([t("kow.cuts"), cuts]);
    }
    return rows;
  },

  lastTrick(v) {
    return lastOf(v.tricks) || (v.previous_hand ? lastOf(v.previous_hand.tricks) : null);
  },

  previousTricks: (v) => (v.previous_hand ? v.previous_hand.tricks : null),

  describe(ev, before, v, ctx) {
    const [verb, arg] = ev.action.split(" ");
    const name = ctx.name(ev.seat);
    if (verb === "play" || verb === "lead") return playText("says.plays", name, arg);
    if (verb === "trump") return t("says.names_trump", { name, suit: suitName(arg.toUpperCase()) });
    if (verb === "knock") return t("says.knocks", { name });
    return `${t("colon", { label: name })} ${ev.action}`;
  },

  turnText(v, ctx) {
    if (v.phase === "over") return t("game_over");
    const who = v.to_move;
    if (v.phase === "trump") return who === ctx.mySeat ? t("kow.your_trump") : t("kow.chooses", { name: ctx.name(who) });
    return who === ctx.mySeat ? t("your_turn") : t("to_play", { name: ctx.name(who) });
  },

  actionLabel(action) {
    const [verb, arg] = action.split(" ");
    if (verb === "trump") return `${SUIT_SYMBOL[arg]} ${t("kow.trump_button", { suit: suitName(arg) })}`;
    if (verb === "knock") return t("knock");
    return action;
  },

  /** A finished game's result as its `over` event gives it (an earlier game at the table). */
  resultOf(result, v, ctx) {
    return result.winners.map((s) => t("result.wins", { name: ctx.name(s) }));
  },

  results(v, ctx) {
    const lines = [];
    if (v.winner !== null && v.winner !== undefined) lines.push(t("result.wins", { name: ctx.name(v.winner) }));
    const outs = [...v.eliminated].reverse();
    for (const [seat, hand] of outs) lines.push(t("kow.out_in_hand", { name: ctx.name(seat), hand }));
    return lines;
  },
};

