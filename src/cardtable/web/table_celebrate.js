/*
 * The end of a game, and of a hand, over the middle of the table.
 */
import { t, list } from "./i18n.js";
import { h } from "./common.js";
import { motionOn } from "./motion.js";
import { st, $, seatName } from "./table_state.js";

/** The game's end in the middle of the table: who won (in Kryt'-navalivat', who is the
 * fool), with a short flourish unless motion is off; the results sheet is below it. The
 * live region has already said it, so this is for the eyes alone. A click dismisses it. */
export function celebrate(ev) {
  const final = ev.final || st.view;
  if (!final) return;
  let words;
  let mine = false;
  if (final.game === "kryt-navalivat") {
    const fool = final.loser;
    mine = fool !== null && fool !== undefined && st.seat !== null && fool !== st.seat;
    words = fool === null || fool === undefined ? t("celebrate.draw") : fool === st.seat ? t("celebrate.you_fool") : t("celebrate.fool", { name: seatName(fool) });
  } else {
    const winners = (ev.result && ev.result.winners) || [];
    mine = st.seat !== null && winners.includes(st.seat);
    words = mine
      ? t("celebrate.you_win")
      : winners.length === 1
        ? t("celebrate.wins", { name: seatName(winners[0]) })
        : t("celebrate.win_together", { names: list(winners.map(seatName)) });
  }
  showOverTable(words, { mine, sparks: true, game: ev.game });
}

/** A hand (Neuf: a deal) just ended: who took the most tricks, for a moment over the table. */
export function celebrateHand(view) {
  if (!view || (view.game !== "knockout-whist" && view.game !== "neuf")) return;
  const previous = view.game === "neuf" ? view.previous_deal : view.previous_hand;
  if (!previous || !Array.isArray(previous.tricks)) return;
  const counts = Array(view.players).fill(0);
  for (const trick of previous.tricks) if (typeof trick.winner === "number") counts[trick.winner] += 1;
  const top = Math.max(...counts);
  if (top <= 0) return;
  const leaders = counts.flatMap((c, seat) => (c === top ? [seat] : []));
  const number = view.game === "neuf" ? view.deal_number - 1 : previous.hand_number;
  const label = view.game === "neuf" ? t("neuf.deal_n", { n: number }) : t("results.hand_n", { n: number });
  const words =
    leaders.length === 1
      ? t("celebrate.hand_to", { label, name: seatName(leaders[0]), count: top })
      : t("celebrate.hand_tied", { label, names: list(leaders.map(seatName)), count: top });
  showOverTable(words, { mine: leaders.includes(st.seat), hand: true, sparks: false });
}

/** Words over the middle of the table, for the eyes (the live region says it already); a
 * click puts them away, and a hand's go by themselves. */
function showOverTable(words, { mine = false, hand = false, sparks = false, game = null } = {}) {
  const old = $("table-area").querySelector(".celebration");
  if (old) old.remove();
  const shine =
    sparks && motionOn()
      ? [...Array(12).keys()].map((i) => {
          const spark = h("span", { class: "spark" });
          spark.style.setProperty("--k", String(i));
          return spark;
        })
      : [];
  const box = h(
    "div",
    // The table area is left to right (the seating never mirrors); the words are the page's.
    { class: `celebration${mine ? " mine" : ""}${hand ? " hand" : ""}`, dir: document.documentElement.dir || "ltr", "aria-hidden": "true", dataset: { game: String(game ?? "") } },
    ...shine,
    h("p", { class: "celebration-words" }, words),
  );
  box.addEventListener("click", () => box.remove());
  $("table-area").append(box);
  if (hand) setTimeout(() => box.remove(), 2600);
}
