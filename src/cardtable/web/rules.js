// /rules/{game}: a short summary of the game's rules, from the locale file's "rules" part.
// Hooks: #rules (section per heading), #games-nav, #play-link, #learn-link (the tutorial), #lang.

import { initI18n, t, tData, applyI18n, langSelect } from "./i18n.js";
import { h } from "./common.js";

const GAMES = ["knockout-whist", "neuf", "kryt-navalivat"];

async function main() {
  // The links lead to this game's table and lesson before the words arrive: a click while
  // the locale loads must not land in the lobby.
  const name = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
  if (GAMES.includes(name)) {
    document.getElementById("play-link").href = `/?game=${encodeURIComponent(name)}`;
    document.getElementById("learn-link").href = `/learn/${encodeURIComponent(name)}`;
  }
  await initI18n();
  applyI18n();
  langSelect(document.getElementById("lang"));
  const nav = document.getElementById("games-nav");
  nav.setAttribute("aria-label", t("rules.other_games"));
  for (const g of GAMES) {
    nav.append(h("a", { href: `/rules/${g}`, "aria-current": g === name ? "page" : null }, t(`games.${g}`)));
  }
  const box = document.getElementById("rules");
  const data = tData(`rules.${name}`);
  if (!data || typeof data !== "object") {
    box.replaceChildren(h("p", {}, t("rules.unknown", { name })));
    return;
  }
  document.title = `${t(`games.${name}`)} · ${t("rules_link")}`;
  document.getElementById("title").textContent = `${t("colon", { label: t("rules_link") })} ${t(`games.${name}`)}`;
  const parts = [h("p", { class: "lead" }, data.intro)];
  for (const sec of data.sections) {
    parts.push(h("section", {}, h("h2", {}, sec.title), h("ul", {}, ...sec.points.map((p) => h("li", {}, p)))));
  }
  box.replaceChildren(...parts);
}

main();
