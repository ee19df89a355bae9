/*
 * The lobby's "Your tables": every table this browser created or joined (common.js keeps
 * their links in localStorage, so closing a tab never loses a seat), each with its game,
 * players, when it was created and whether its game is still going on (the server's public
 * description), a link back to one's seat, "play again" and "forget".
 *
 * Hooks: #my-tables-list tbody tr[data-table] (td.state[data-state="playing" | "finished" |
 * "gone" | "checking"], a.rejoin, button.again, button.forget), #my-tables-empty.
 *
 * "Play again" opens a new table with the same game, options and seats (the people by name,
 * the bots at their levels) and shows its new links: the lobby is not at the old table, whose
 * seats may be gone or its other players elsewhere. At the table itself, the results'
 * "Play again" is the server's next game at the same table (`next`), where everyone keeps
 * their link and the table keeps its tally.
 */

import { t, list } from "./i18n.js";
import { h, knownTables, forgetTable, createTable, dateTime } from "./common.js";

const $ = (id) => document.getElementById(id);
let hooks = null;

/** `created(answer, request, mine)`: show and keep a new table; `failed(text)`: say why not. */
export function initMine(given) {
  hooks = given;
  renderMine();
}

function gameName(game) {
  const key = `games.${game}`;
  const s = t(key);
  return s === key ? game : s;
}

function seatWords(seat, s) {
  return s.kind === "bot" ? t("bot_name", { n: seat + 1 }) : s.name || t("seat_n", { n: seat + 1 });
}

/** Names as a list in the reader's language ("Ana, Bo, Bot 3"; "Ana، Bo، ربات 3"). */
function listOf(names) {
  try {
    return list(names, "unit");
  } catch {
    return names.join(", ");
  }
}

/** State of a table from its public description: its current game over (every game played
 * has its line in `results`) or not. */
function stateOf(described) {
  if (!described) return "gone";
  return (described.results || []).length >= described.games ? "finished" : "playing";
}

export function renderMine() {
  const known = knownTables();
  const list = $("my-tables-list");
  $("my-tables-empty").hidden = known.length > 0;
  list.hidden = known.length === 0;
  const body = list.querySelector("tbody");
  body.replaceChildren(...known.map(row));
  for (const entry of known) describe(entry);
}

function row(entry) {
  const game = gameName(entry.game);
  const cells = [
    h("td", { class: "game" }, game),
    h("td", { class: "players" }, t("lobby.checking")),
    h("td", { class: "created" }, dateTime(entry.at)),
    h("td", { class: "state", dataset: { state: "checking" } }, t("lobby.checking")),
  ];
  const actions = h("td", { class: "row-actions" });
  const target = entry.link || `/t/${encodeURIComponent(entry.table)}`;
  const label = entry.link ? t("lobby.rejoin_label", { game, n: (entry.seat ?? 0) + 1 }) : t("lobby.watch_label", { game });
  actions.append(h("a", { class: "rejoin button-link", href: target, "aria-label": label }, entry.link ? t("lobby.rejoin") : t("lobby.watch")));
  const again = h("button", { type: "button", class: "again", disabled: true, "aria-label": t("lobby.again_label", { game }) }, t("next_game"));
  again.addEventListener("click", () => playAgain(entry, again));
  const forget = h("button", { type: "button", class: "forget", "aria-label": t("lobby.forget_label", { game }) }, t("lobby.forget"));
  forget.addEventListener("click", () => {
    forgetTable(entry.table);
    renderMine();
    $("my-tables-title").focus();
  });
  actions.append(again, forget);
  return h("tr", { dataset: { table: entry.table } }, ...cells, actions);
}

const described = new Map();

async function describe(entry) {
  let answer = null;
  try {
    const res = await fetch(`/api/tables/${encodeURIComponent(entry.table)}`);
    if (res.ok) answer = await res.json();
    else if (res.status !== 404) throw new Error(`HTTP ${res.status}`);
  } catch {
    answer = undefined; // not known now (the server unreachable): said as such
  }
  const tr = document.querySelector(`#my-tables-list tr[data-table="${CSS.escape(entry.table)}"]`);
  if (!tr) return;
  const state = answer === undefined ? "unknown" : stateOf(answer);
  const cell = tr.querySelector(".state");
  cell.dataset.state = state;
  cell.textContent = t(`lobby.state_${state}`);
  tr.querySelector(".players").textContent = answer ? listOf(answer.seats.map((s) => seatWords(s.seat, s))) : "—";
  if (answer) {
    // The server's own time of creation; until it answers, when this browser first saw it.
    if (typeof answer.created === "number") tr.querySelector(".created").textContent = dateTime(answer.created * 1000);
    described.set(entry.table, answer);
    tr.querySelector(".again").disabled = false;
  }
}

/** A new table like `entry`'s: the same game, options and seats. */
async function playAgain(entry, button) {
  const old = described.get(entry.table);
  if (!old) return;
  const request = {
    game: old.game,
    options: old.options || {},
    seats: old.seats.map((s) => (s.kind === "bot" ? { kind: "bot", level: s.level || "medium" } : { kind: "human", name: s.name })),
  };
  button.disabled = true;
  try {
    const answer = await createTable(request);
    hooks.created(answer, request, entry.seat);
    renderMine();
  } catch (err) {
    hooks.failed(`${t("colon", { label: t("lobby.again_failed") })} ${err.message}`);
    button.disabled = false;
  }
}
