/*
 * The lobby (/): pick a game, its options and its seats, create a table, share the links.
 * Hooks: #game, #players, #options [data-option="name"], #seat-rows .seat-row[data-seat="N"]
 * (select.kind, input.name, select.level), #create-table, #created, #invites
 * .invite[data-seat="N"] / .invite[data-spectate] (input.link, button.copy), #go-seat,
 * #banner, #lang. The invitations of each table created here are kept in this browser
 * (common.js, rememberCreated), so that the table page can show its creator an awaited
 * seat's link. #play-now-buttons button[data-play-now="neuf"]: one human seat and bots, straight
 * to the table. "Your tables" (the tables this browser created or joined) is mine.js.
 * A seat's kind may be "open": anyone may take it from the open tables, #open-tables
 * (#open-list .open-table[data-table] button.take[data-seat="N"], #open-name, #open-empty),
 * which the lobby looks at again every OPEN_EVERY ms. A quick match (#quick: #quick-game,
 * #quick-players, #quick-wait, #quick-level, #quick-go) takes a seat at a table waiting
 * for people, or opens one whose other seats go to bots after the wait. Who this browser
 * plays as (#you) is lobby_you.js.
 */

import { t, num, list } from "./i18n.js";
import { h, copyField, createTable, rememberCreated, startPage, showBanner } from "./common.js";
import { initMine, renderMine } from "./mine.js";
import { initYou } from "./lobby_you.js";
import { knownPlayer } from "./me.js";

// "Play now": the bots' level, the one the lobby offers first.
const PLAY_NOW_LEVEL = "medium";
// How often the open tables are looked at again, while the page is shown.
const OPEN_EVERY = 5000;

const $ = (id) => document.getElementById(id);
let games = [];

// Options that are rules of some table sizes only; the server refuses them at the others
// (NEUF-8.4: the four-player partnership game has no exchange and cannot tie).
const ONLY_FOR = { neuf: { dealer_exchanges_first: [3], tie_avoidance: [3] } };

function applies(g, option, players) {
  const only = (ONLY_FOR[g.name] || {})[option];
  return !only || only.includes(players);
}

/** Hides (and disables, so they are neither reached nor sent) the options that do not
 * apply to the chosen number of players. */
function syncOptions() {
  const g = current();
  if (!g) return;
  const n = Number($("players").value);
  for (const opt of g.options || []) {
    const el = document.querySelector(`#options [data-option="${opt.name}"]`);
    if (!el) continue;
    const on = applies(g, opt.name, n);
    el.disabled = !on;
    el.closest(".field").hidden = !on;
  }
}

function current() {
  return games.find((g) => g.name === $("game").value);
}

function optionLabel(game, name) {
  const key = `options.${name}`;
  const s = t(key);
  return s === key ? name : s;
}

function choiceLabel(name, value) {
  const key = `options.values.${name}.${String(value)}`;
  const s = t(key);
  return s === key ? String(value) : s;
}

function renderGame() {
  const g = current();
  if (!g) return;
  $("rules-link").href = `/rules/${g.name}`;
  const players = $("players");
  const prev = Number(players.value) || g.players.default;
  players.replaceChildren();
  for (let n = g.players.min; n <= g.players.max; n++) players.append(h("option", { value: String(n) }, num(n)));
  players.value = String(prev >= g.players.min && prev <= g.players.max ? prev : g.players.default);

  const box = $("options");
  box.replaceChildren();
  for (const opt of g.options || []) {
    const id = `opt-${opt.name}`;
    if (opt.kind === "flag") {
      const input = h("input", { type: "checkbox", id, dataset: { option: opt.name } });
      input.checked = Boolean(opt.default);
      box.append(h("div", { class: "field" }, h("label", { class: "check", for: id }, input, " ", optionLabel(g, opt.name))));
    } else if (opt.kind === "choice") {
      const sel = h("select", { id, dataset: { option: opt.name } });
      opt.choices.forEach((c, i) => {
        const o = h("option", { value: String(i) }, choiceLabel(opt.name, c));
        if (c === opt.default) o.selected = true;
        sel.append(o);
      });
      box.append(h("div", { class: "field" }, h("label", { for: id }, optionLabel(g, opt.name)), sel));
    }
  }
  renderSeats();
}

/** A level's option: its name, and its rating on the levels' common scale where the round
 * robin has rated it ("expert ≈ 31"; the interval and the games behind it in its title). */
function levelOption(l, rating) {
  const name = t(`levels.${l}`);
  if (!rating) return h("option", { value: l }, name);
  const round1 = (x) => Math.round(x * 10) / 10;
  const title = t("lobby.level_rating", { level: name, rating: round1(rating.mu), low: round1(rating.low), high: round1(rating.high), count: rating.games });
  return h("option", { value: l, title }, t("lobby.level_rated", { level: name, rating: Math.round(rating.mu) }));
}

function renderSeats() {
  syncOptions();
  const g = current();
  const random = (g.ratings || {}).random;
  const note = $("ratings-note");
  note.hidden = !random;
  note.textContent = random ? t("lobby.ratings_note", { random: Math.round(random.mu), players: g.ratings_players }) : "";
  const n = Number($("players").value);
  const rows = $("seat-rows");
  const old = [...rows.children].map((r) => ({
    kind: r.querySelector("select.kind").value,
    name: r.querySelector("input.name").value,
    level: r.querySelector("select.level").value,
  }));
  rows.replaceChildren();
  for (let s = 0; s < n; s++) {
    // The first seat is the creator's: named as the player this browser plays as, if any.
    const mine = s === 0 ? (knownPlayer() || {}).name || "" : "";
    const prev = old[s] || { kind: s === 0 ? "human" : "bot", name: mine, level: "medium" };
    const kind = h(
      "select",
      { class: "kind", id: `kind-${s}`, "aria-label": t("lobby.seat_kind", { n: s + 1 }) },
      h("option", { value: "human" }, t("lobby.human")),
      h("option", { value: "open" }, t("lobby.open_seat")),
      h("option", { value: "bot" }, t("lobby.bot")),
    );
    kind.value = prev.kind;
    const name = h("input", { type: "text", class: "name", maxlength: "24", placeholder: t("seat_n", { n: s + 1 }), "aria-label": t("lobby.seat_name", { n: s + 1 }) });
    name.value = prev.name;
    const level = h("select", { class: "level", "aria-label": t("lobby.seat_level", { n: s + 1 }) }, ...(g.levels || ["easy", "medium", "hard"]).map((l) => levelOption(l, (g.ratings || {})[l])));
    level.value = prev.level;
    const sync = () => {
      name.hidden = kind.value !== "human";
      level.hidden = kind.value !== "bot";
    };
    kind.addEventListener("change", sync);
    sync();
    rows.append(h("div", { class: "seat-row", dataset: { seat: String(s) } }, h("label", { class: "seat-label", for: `kind-${s}` }, t("seat_n", { n: s + 1 })), kind, name, level));
  }
}

function collect() {
  const g = current();
  const options = {};
  for (const opt of g.options || []) {
    const el = document.querySelector(`#options [data-option="${opt.name}"]`);
    if (!el || el.disabled) continue;
    options[opt.name] = opt.kind === "flag" ? el.checked : opt.choices[Number(el.value)];
  }
  const seats = [...$("seat-rows").children].map((row, s) => {
    const kind = row.querySelector("select.kind").value;
    if (kind === "bot") return { kind: "bot", level: row.querySelector("select.level").value };
    if (kind === "open") return { kind: "human", open: true };
    const name = row.querySelector("input.name").value.trim() || t("seat_n", { n: s + 1 });
    return { kind: "human", name };
  });
  return { game: g.name, options, seats };
}

function inviteRow(label, url, data) {
  const input = h("input", { type: "text", class: "link", dir: "ltr", readonly: true, value: url, "aria-label": label });
  const button = h("button", { type: "button", class: "copy" }, t("lobby.copy"));
  button.addEventListener("click", () => copyField(input, button, () => showBanner(t("lobby.copy_failed"))));
  const open = h("a", { href: url, target: "_blank", rel: "noopener" }, t("lobby.open"));
  return h("div", { class: "invite", dataset: data }, h("span", { class: "who" }, label), input, button, open);
}

function showCreated(answer, request, mine = null) {
  const box = $("invites");
  box.replaceChildren();
  const abs = (path) => new URL(path, location.origin).href;
  let first = null;
  for (const seat of answer.seats) {
    if (request.seats[seat.seat].open) {
      box.append(h("p", { class: "invite open-seat note", dataset: { seat: String(seat.seat) } }, t("lobby.open_seat_listed", { n: seat.seat + 1 })));
      continue;
    }
    if (seat.kind !== "human" || !seat.invite) continue;
    const name = request.seats[seat.seat].name;
    box.append(inviteRow(`${t("seat_n", { n: seat.seat + 1 })} · ${name}`, abs(seat.invite), { seat: String(seat.seat) }));
    if (first === null) first = seat;
  }
  box.append(inviteRow(t("lobby.spectate"), abs(answer.spectate), { spectate: "" }));
  const go = $("go-seat");
  const own = answer.seats.find((s) => s.seat === (mine ?? 0) && s.invite);
  const target = own || first;
  go.href = target ? target.invite : answer.spectate;
  go.textContent = target ? t("lobby.go_seat", { n: target.seat + 1 }) : t("lobby.go_watch");
  $("created").hidden = false;
  $("created").scrollIntoView({ block: "start" });
}

async function submit(e) {
  e.preventDefault();
  $("banner").hidden = true;
  const body = collect();
  const button = $("create-table");
  button.disabled = true;
  try {
    const answer = await createTable(body);
    rememberCreated(answer, body);
    showCreated(answer, body);
    renderMine();
  } catch (err) {
    showBanner(`${t("colon", { label: t("lobby.create_failed") })} ${err.message}`);
  } finally {
    button.disabled = false;
  }
}

async function main() {
  await startPage();
  initYou(showBanner);
  // The tables kept in this browser are listed even if the list of games fails to load.
  initMine({
    created: (answer, request, mine) => {
      rememberCreated(answer, request, mine);
      showCreated(answer, request, mine);
    },
    failed: showBanner,
  });
  try {
    const res = await fetch("/api/games");
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    games = await res.json();
  } catch (err) {
    showBanner(`${t("colon", { label: t("lobby.games_failed") })} ${err.message}`);
    return;
  }
  const sel = $("game");
  for (const g of games) sel.append(h("option", { value: g.name }, gameTitle(g)));
  const wanted = new URLSearchParams(location.search).get("game");
  if (wanted && games.some((g) => g.name === wanted)) sel.value = wanted;
  sel.addEventListener("change", renderGame);
  $("players").addEventListener("change", renderSeats);
  $("create").addEventListener("submit", submit);
  renderGame();
  renderPlayNow();
  renderQuick();
  lookAtOpenTables();
  setInterval(() => {
    if (!document.hidden) lookAtOpenTables();
  }, OPEN_EVERY);
}

// The open tables: each with its game, who sits where, and a button for each open seat.
async function lookAtOpenTables() {
  let listed;
  try {
    const res = await fetch("/api/open-tables");
    if (!res.ok) return; // looked at again in a moment
    listed = await res.json();
  } catch {
    return;
  }
  const box = $("open-list");
  const key = JSON.stringify(listed);
  if (box.dataset.key === key) return; // as it is: a focused button stays focused
  box.dataset.key = key;
  $("open-empty").hidden = listed.length > 0;
  box.replaceChildren(
    ...listed.map((entry) => {
      const g = games.find((x) => x.name === entry.game);
      const who = entry.seats.map((s) => (s.open ? t("lobby.open_seat_short") : s.kind === "bot" ? t("lobby.open_bot", { level: t(`levels.${s.level}`) }) : s.name));
      const takes = entry.seats.filter((s) => s.open).map((s) => {
        const button = h("button", { type: "button", class: "take primary", dataset: { seat: String(s.seat) } }, t("lobby.take_seat", { n: s.seat + 1 }));
        button.addEventListener("click", () => takeSeat(entry, s.seat, button));
        return button;
      });
      // The rules it is played by: each choice, and each flag that is on.
      const rules = Object.entries(entry.options)
        .filter(([name, value]) => name !== "players" && value !== false)
        .map(([name, value]) => (value === true ? optionLabel(g, name) : choiceLabel(name, value)));
      return h(
        "li",
        { class: "open-table", dataset: { table: entry.table } },
        h("span", { class: "open-game" }, g ? gameTitle(g) : entry.game),
        rules.length ? h("span", { class: "open-rules note" }, list(rules, "unit")) : "",
        " ",
        h("span", { class: "open-who" }, list(who, "unit")),
        " ",
        ...takes,
      );
    }),
  );
}

// A quick match's choices: the game, its number of players, how long to wait for people
// and the level of the bots that take the seats nobody took.
const QUICK_WAITS = [15, 30, 60, 120];

function renderQuick() {
  const game = $("quick-game");
  game.replaceChildren(...games.map((g) => h("option", { value: g.name }, gameTitle(g))));
  const players = () => {
    const g = games.find((x) => x.name === game.value);
    const box = $("quick-players");
    box.replaceChildren();
    for (let n = g.players.min; n <= g.players.max; n++) box.append(h("option", { value: String(n) }, num(n)));
    box.value = String(g.players.default);
  };
  game.addEventListener("change", players);
  players();
  $("quick-wait").replaceChildren(...QUICK_WAITS.map((n) => h("option", { value: String(n) }, t("lobby.quick_seconds", { count: n }))));
  $("quick-wait").value = "30";
  $("quick-level").replaceChildren(...(games[0].levels || [PLAY_NOW_LEVEL]).map((l) => h("option", { value: l }, t(`levels.${l}`))));
  $("quick-level").value = PLAY_NOW_LEVEL;
  $("quick-go").addEventListener("click", quickMatch);
}

async function quickMatch() {
  $("banner").hidden = true;
  const button = $("quick-go");
  button.disabled = true;
  const name = $("open-name").value.trim();
  const body = {
    game: $("quick-game").value,
    players: Number($("quick-players").value),
    wait: Number($("quick-wait").value),
    level: $("quick-level").value,
    ...(name ? { name } : {}),
  };
  try {
    const res = await fetch("/api/quick-match", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const answer = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error(answer.message || `HTTP ${res.status}`);
    location.assign(answer.invite);
  } catch (err) {
    showBanner(`${t("colon", { label: t("lobby.quick_failed") })} ${err.message}`);
    button.disabled = false;
  }
}

async function takeSeat(entry, seat, button) {
  $("banner").hidden = true;
  button.disabled = true;
  const name = $("open-name").value.trim();
  try {
    const res = await fetch(`/api/tables/${encodeURIComponent(entry.table)}/seats/${seat}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(name ? { name } : {}),
    });
    const answer = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error(res.status === 409 ? t("lobby.seat_gone") : answer.message || `HTTP ${res.status}`);
    location.assign(answer.invite);
  } catch (err) {
    showBanner(`${t("colon", { label: t("lobby.take_failed") })} ${err.message}`);
    button.disabled = false;
    lookAtOpenTables();
  }
}

function gameTitle(g) {
  const s = t(`games.${g.name}`);
  return s === `games.${g.name}` ? g.title : s;
}

// One click to a game against bots: the game's default number of players, one person (this
// browser) and the rest bots, its options as they come; the page goes straight to the seat.
function renderPlayNow() {
  const box = $("play-now-buttons");
  box.replaceChildren(
    ...games.map((g) => {
      const button = h("button", { type: "button", class: "primary", dataset: { playNow: g.name } }, t("lobby.play_now", { game: gameTitle(g) }));
      button.addEventListener("click", () => playNow(g, button));
      return button;
    }),
  );
}

async function playNow(g, button) {
  $("banner").hidden = true;
  const seats = [{ kind: "human", name: (knownPlayer() || {}).name || t("lobby.player") }];
  for (let s = 1; s < g.players.default; s++) seats.push({ kind: "bot", level: PLAY_NOW_LEVEL });
  const body = { game: g.name, options: {}, seats };
  button.disabled = true;
  try {
    const answer = await createTable(body);
    rememberCreated(answer, body, 0);
    location.assign(answer.seats[0].invite);
  } catch (err) {
    showBanner(`${t("colon", { label: t("lobby.play_now_failed") })} ${err.message}`);
    button.disabled = false;
  }
}

main();
