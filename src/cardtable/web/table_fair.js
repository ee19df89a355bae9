/*
 * The fair deals: the badge beside the title and the details in its dialog.
 */
import { t, list } from "./i18n.js";
import { h } from "./common.js";
import { st, $, announce } from "./table_state.js";

// What this page saw of the deals, and whether they check out, is kept by a FairWatch
// (fairwatch.js, pure and tested apart from the page); here it is announced and shown: one
// badge beside the table's title, and the details in a dialog the badge opens.

export function fairNews(news, live) {
  for (const { kind, entry } of news) {
    if (kind === "deck" && (live || entry.status === "bad")) {
      announce(t(entry.status === "ok" ? "verify.ok_said" : "verify.bad_said", { hand: entry.hand }));
    }
    if (kind === "game" && (live || entry.status === "bad")) {
      announce(t(entry.status === "ok" ? "fair.ok_said" : "fair.bad_said", { n: entry.game }));
    }
  }
  if (news.length) renderVerify();
}

/** The badge's state for the game shown: "bad" if any check failed, "ok" once the game's
 * deals are proven (or, at a table without fair deals, its revealed decks all match), else
 * "checking" while the server's seed is still secret. */
function fairState() {
  const watch = st.watch;
  const decks = [...watch.decks.values()].filter((d) => d.game === st.game);
  const game = watch.games.get(st.game);
  if (decks.some((d) => d.status === "bad") || (game && game.status === "bad")) return "bad";
  if (game && game.commitment) return game.status === "ok" ? "ok" : "checking";
  return decks.length && decks.every((d) => d.status === "ok") ? "ok" : "checking";
}

function renderFair() {
  const box = $("verify");
  const entry = st.watch.games.get(st.game);
  // Made here, inside the box, so not one of the page's fixed elements.
  let el = box.querySelector("#fair");
  if (!entry || !entry.commitment) {
    if (el) el.remove();
    return;
  }
  const { decks, reshuffles = 0, seen } = entry.checked;
  // The decks and the reshuffles, counted as the summary above counts them.
  const proven = [t("fair.ok", { count: decks, seen }), reshuffles ? t("fair.ok_reshuffles", { count: reshuffles }) : ""].filter(Boolean).join(" ");
  const words = entry.status === "pending" ? t("fair.pending") : entry.status === "ok" ? proven : t("fair.bad");
  const problems = entry.problems.map(([what, hand]) =>
    h("li", { dataset: { problem: what, hand: String(hand ?? "") } }, t(`fair.problem.${what}`, { hand: hand ?? "" })),
  );
  const fresh = h(
    "div",
    { id: "fair", class: `fair ${entry.status}`, dataset: { game: String(entry.game), state: entry.status } },
    h("p", {}, words),
    h("ul", {}, ...problems),
  );
  if (el) el.replaceWith(fresh);
  else box.append(fresh);
  el = fresh;
}

export function renderVerify() {
  const box = $("verify");
  const entries = [...st.watch.decks.values()]
    .filter((d) => d.game === st.game)
    .sort((a, b) => b.hand - a.hand || (b.reshuffle ?? -1) - (a.reshuffle ?? -1));
  const ok = entries.filter((d) => d.status === "ok").length;
  const bad = entries.filter((d) => d.status === "bad").length;
  const state = fairState();
  box.dataset.state = bad ? "bad" : ok ? "ok" : "pending";
  const badge = $("fair-badge");
  // A table without fair deals (a tutorial's) has no badge, unless a deck's own check failed.
  const fair = st.watch.games.get(st.game);
  badge.hidden = !entries.length || (!(fair && fair.commitment) && state !== "bad");
  badge.dataset.state = state;
  // A phone's bar has room for the short words alone; the button is named by the long.
  badge.setAttribute("aria-label", t(`badge.${state}`));
  badge.replaceChildren(h("span", { class: "long", "aria-hidden": "true" }, t(`badge.${state}`)), h("span", { class: "short", "aria-hidden": "true" }, t(`badge_short.${state}`)));
  // The list scrolls once it is long: focusable, so that the keyboard can scroll it too. A
  // deck's commitment is in its title, for whoever wants to compare it by hand.
  const list = h(
    "ul",
    { tabindex: "0", "aria-label": t("verify.title") },
    ...entries.map((d) =>
      h(
        "li",
        { class: d.status, dataset: { game: String(d.game), hand: String(d.hand) }, title: d.commitment },
        `${t("colon", { label: dealLabel(d) })} `,
        h("strong", {}, t(d.reshuffle !== null && d.status === "ok" ? "verify.ok_reshuffle" : `verify.${d.status}`)),
      ),
    ),
  );
  box.replaceChildren(
    h("p", { class: "verify-intro" }, t("verify.intro")),
    h(
      "p",
      { class: "verify-summary" },
      bad
        ? t("verify.warning", { what: counted(entries.filter((d) => d.status === "bad")) })
        : ok
          ? t("verify.summary", { what: counted(entries, ok < entries.length) })
          : t("verify.waiting", { what: counted(entries) }),
    ),
    list,
  );
  renderFair();
}

/** The hands' decks and the reshuffles among `entries`, each by its name and in its plural
 * forms ("6 decks and 1 reshuffle"; no reshuffles, no words for them); `partly`: how many of
 * each are verified ("5 of 6 decks"). */
function counted(entries, partly = false) {
  const parts = [];
  for (const kind of ["decks", "reshuffles"]) {
    const some = entries.filter((d) => (d.reshuffle === null) === (kind === "decks"));
    if (!some.length && (kind === "reshuffles" || entries.length)) continue;
    const ok = some.filter((d) => d.status === "ok").length;
    parts.push(t(partly ? `verify.${kind}_of` : `verify.${kind}`, { ok, count: some.length }));
  }
  return list(parts);
}

// Neuf calls a hand a deal, as its info panel does ("Deal 3"); the other games say hand.
function dealLabel(d) {
  if (d.reshuffle !== null) return t("verify.reshuffle", { hand: d.hand });
  return st.view && st.view.game === "neuf" ? t("neuf.deal_n", { n: d.hand }) : t("verify.hand", { hand: d.hand });
}
