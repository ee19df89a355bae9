/*
 * A game's leaderboard (/leaderboard/{game}; /leaderboard shows the first game's): the
 * server's players by rating, best first, with the bots' levels where they stand on the same
 * scale (their rows marked, unranked). Hooks: #games-nav a[aria-current], #board tbody
 * tr.person[data-player] / tr.level[data-level], #board-empty, #banner.
 */

import { t, num } from "./i18n.js";
import { h, startPage, showBanner } from "./common.js";
import { api, knownPlayer, rating } from "./me.js";

const GAMES = ["knockout-whist", "neuf", "kryt-navalivat"];
const $ = (id) => document.getElementById(id);

function row(entry, me) {
  const skill = t("me.skill_value", { mu: rating(entry.mu), spread: rating(2 * entry.sigma) });
  if (entry.level) {
    return h(
      "tr",
      { class: "level", dataset: { level: entry.level } },
      h("td", {}, "—"),
      h("td", {}, entry.level === "random" ? t("me.random_row") : t("me.level_row", { level: t(`levels.${entry.level}`) })),
      h("td", { class: "num" }, rating(entry.ordinal)),
      h("td", { class: "num skill" }, skill),
      h("td", { class: "num" }, num(entry.games)),
    );
  }
  const name = h("a", { href: `/players/${encodeURIComponent(entry.player)}` }, entry.name);
  return h(
    "tr",
    { class: `person${entry.player === me ? " me" : ""}`, dataset: { player: entry.player } },
    h("td", { class: "num" }, num(entry.rank)),
    h("td", {}, name, entry.player === me ? ` ${t("me.you_tag")}` : ""),
    h("td", { class: "num" }, rating(entry.ordinal)),
    h("td", { class: "num skill" }, skill),
    h("td", { class: "num" }, num(entry.games)),
  );
}

async function main() {
  await startPage();
  const game = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || GAMES[0]);
  const nav = $("games-nav");
  nav.setAttribute("aria-label", t("me.leaderboards"));
  for (const g of GAMES) {
    nav.append(h("a", { href: `/leaderboard/${g}`, "aria-current": g === game ? "page" : null }, t(`games.${g}`)));
  }
  const title = t("me.board_title", { game: t(`games.${game}`) });
  $("title").textContent = title;
  document.title = `${title} · ${t("app_name")}`;
  try {
    const board = await api(`/api/leaderboard/${encodeURIComponent(game)}`);
    const me = (knownPlayer() || {}).player;
    $("board").querySelector("tbody").replaceChildren(...board.entries.map((e) => row(e, me)));
    $("board-empty").hidden = board.entries.some((e) => e.player);
  } catch (err) {
    showBanner(`${t("colon", { label: t("me.load_failed") })} ${err.message}`);
  }
}

main();
