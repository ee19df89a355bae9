/*
 * A player's page (/players/{id}): their name, their rating in each game (with the bots'
 * level they play like) and their finished games, newest first, each with who sat where,
 * their place, whether the deals were committed to in advance (the replay's fairness check
 * proves them) and a link to its replay. Only what every seat may see once a game is over.
 * On the player's own device (me.js) it also lets them rename themselves and add a passkey.
 *
 * The player's own page also lists the games they left half-way (#unfinished): "Rejoin"
 * moves their seat to this device (a new link; the old one holds it no more) and opens it.
 *
 * Hooks: #title, #since, #mine (#rename, #rename-go, #passkey-add, #passkey-said),
 * #unfinished-list tbody tr[data-table] button.rejoin,
 * #ratings-list tbody tr[data-game], #ratings-empty, #history-list tbody tr[data-table]
 * (td.place, a.replay), #history-empty, #banner.
 */

import { t, num } from "./i18n.js";
import { h, startPage, showBanner, dateTime } from "./common.js";
import { api, knownPlayer, renamePlayer, addPasskey, passkeyBlocker, rating } from "./me.js";

const $ = (id) => document.getElementById(id);
const ID = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");

/** A moment the server gives (seconds since 1970) as a date and time. */
function when(seconds, dateStyle = "short") {
  return dateTime(seconds * 1000, dateStyle);
}

function seatWords(s) {
  return s.kind === "bot" ? t("lobby.open_bot", { level: t(`levels.${s.level}`) }) : s.name;
}

function ratingRow(r) {
  return h(
    "tr",
    { dataset: { game: r.game } },
    h("td", {}, h("a", { href: `/leaderboard/${r.game}` }, t(`games.${r.game}`))),
    h("td", { class: "num" }, rating(r.ordinal)),
    h("td", { class: "num skill" }, t("me.skill_value", { mu: rating(r.mu), spread: rating(2 * r.sigma) })),
    h("td", { class: "num" }, num(r.games)),
    h("td", {}, r.near ? t(`levels.${r.near}`) : "—"),
  );
}

function placeWords(g) {
  const params = { place: num(g.place + 1), players: num(g.seats.length) };
  if (g.won) return t(g.tied ? "me.won_shared" : "me.won", params);
  return t(g.tied ? "me.place_shared" : "me.place", params);
}

/** The seats' names, the page's player's in bold (the page may be anyone's, read by anyone). */
function seatsCell(seats, mine) {
  const names = seats.map((s) => (s.seat === mine ? h("strong", {}, s.name) : seatWords(s)));
  return h("td", {}, names.flatMap((n, i) => (i ? [t("me.list_sep"), n] : [n])));
}

function gameRow(g) {
  return h(
    "tr",
    { dataset: { table: g.table, game: String(g.number) } },
    h("td", { class: "when" }, when(g.ended)),
    h("td", {}, t(`games.${g.game}`)),
    seatsCell(g.seats, g.seat),
    h("td", { class: `place${g.won ? " won" : ""}` }, placeWords(g)),
    h("td", {}, g.fair ? t("me.fair_yes") : t("me.fair_no")),
    h("td", {}, h("a", { class: "replay", href: `/t/${encodeURIComponent(g.table)}#replay=${g.number}` }, t("me.replay"))),
  );
}

function unfinishedRow(u) {
  const button = h("button", { type: "button", class: "rejoin" }, t("me.rejoin"));
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      const moved = await api(`/api/players/me/tables/${encodeURIComponent(u.table)}/seats/${u.seat}`, { method: "POST" });
      location.assign(moved.invite);
    } catch (err) {
      showBanner(`${t("colon", { label: t("me.rejoin_failed") })} ${err.message}`);
      button.disabled = false;
    }
  });
  return h(
    "tr",
    { dataset: { table: u.table } },
    h("td", { class: "when" }, when(u.moved)),
    h("td", {}, t(`games.${u.game}`)),
    seatsCell(u.seats, u.seat),
    h("td", {}, button),
  );
}

async function renderUnfinished() {
  try {
    const tables = await api("/api/players/me/tables");
    $("unfinished").hidden = tables.length === 0;
    $("unfinished-list").querySelector("tbody").replaceChildren(...tables.map(unfinishedRow));
  } catch (err) {
    showBanner(`${t("colon", { label: t("me.load_failed") })} ${err.message}`);
  }
}

function renderMine(page) {
  const me = knownPlayer();
  if (!me || me.player !== page.player) return;
  $("mine").hidden = false;
  renderUnfinished();
  $("rename").value = page.name;
  $("rename-go").addEventListener("click", async () => {
    try {
      const done = await renamePlayer($("rename").value.trim());
      $("title").textContent = done.name;
    } catch (err) {
      showBanner(`${t("colon", { label: t("me.rename_failed") })} ${err.message}`);
    }
  });
  const blocker = passkeyBlocker();
  const button = $("passkey-add");
  if (blocker) {
    button.disabled = true;
    $("passkey-said").textContent = t(blocker);
    return;
  }
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      await addPasskey();
      $("passkey-said").textContent = t("me.passkey_added");
    } catch (err) {
      if (err.name !== "NotAllowedError" && err.name !== "AbortError") {
        showBanner(`${t("colon", { label: t("me.passkey_failed") })} ${err.message}`);
      }
    }
    button.disabled = false;
  });
}

async function main() {
  await startPage();
  let page;
  try {
    page = await api(`/api/players/${encodeURIComponent(ID)}`);
  } catch (err) {
    $("title").textContent = t("me.player_title");
    showBanner(err.status === 404 ? t("me.no_player") : `${t("colon", { label: t("me.load_failed") })} ${err.message}`);
    return;
  }
  document.title = `${page.name} · ${t("app_name")}`;
  $("title").textContent = page.name;
  $("since").textContent = t("me.since", { date: when(page.since, "long") });
  renderMine(page);
  $("ratings-empty").hidden = page.ratings.length > 0;
  $("ratings-list").hidden = page.ratings.length === 0;
  $("ratings-list").querySelector("tbody").replaceChildren(...page.ratings.map(ratingRow));
  $("history-empty").hidden = page.games.length > 0;
  $("history-list").hidden = page.games.length === 0;
  $("history-list").querySelector("tbody").replaceChildren(...page.games.map(gameRow));
}

main();
