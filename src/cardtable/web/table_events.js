/*
 * The table's events in words: the log (rebuilt from every event when the page opens), the
 * tricks' winners, whose turn it is and whom the table waits for.
 */
import { t, currentLang } from "./i18n.js";
import { noteForResults } from "./results.js";
import { GAMES, TRICK_VERBS, st, seatName, announce, log, game, ctxFor } from "./table_state.js";

// Events missed while away, or on a page opened anew every event of the table, come bare:
// the snapshot's view is the state after them. Each is logged as it was when it happened;
// which trick a play won its event says (`won`), and for events stored before they said so
// it is read from the view's tricks (this hand's and the one before).
export function catchUp(missed, gameNo) {
  const events = missed.map((m) => m.event || m).filter((ev) => ev && ev.seq > st.seq);
  const won = trickWinners(events, gameNo, st.view);
  for (const ev of events) noteEvent(ev, ev.seq, null, null, false, { game: gameNo, won: won.get(ev.seq) });
}

/** Event number -> the seat that won the trick the play completed, for the plays of the
 * current hand and the one before it among `events`, matched from the end with the view's
 * tricks (a play that does not match, or an older hand, gets nothing). */
function trickWinners(events, gameNo, view) {
  const won = new Map();
  const g = view ? GAMES[view.game] : null;
  if (!g || !g.hasTricks) return won;
  const hands = [[]];
  for (const ev of events) {
    if (ev.game !== gameNo) continue;
    if (ev.kind === "deal" && ev.reshuffle == null) hands.push([]);
    else if (ev.kind === "action" && TRICK_VERBS.has(ev.action.split(" ")[0])) hands[hands.length - 1].push(ev);
  }
  const flat = (tricks, open = []) => [
    ...(tricks || []).flatMap((tr) => tr.plays.map((play, i) => ({ play, winner: i === tr.plays.length - 1 ? tr.winner : null }))),
    ...open.map((play) => ({ play, winner: null })),
  ];
  const pairs = [
    [hands[hands.length - 1], flat(view.tricks, view.trick)],
    [hands.length > 1 ? hands[hands.length - 2] : [], flat(g.previousTricks(view))],
  ];
  for (const [plays, known] of pairs) {
    if (plays.length > known.length) continue;
    const tail = known.slice(known.length - plays.length);
    const same = plays.every((ev, i) => {
      const [verb, arg] = ev.action.split(" ");
      return tail[i].play[0] === ev.seat && tail[i].play[1] === (verb === "knock" ? "knock" : arg);
    });
    if (!same) continue;
    plays.forEach((ev, i) => tail[i].winner !== null && tail[i].winner !== undefined && won.set(ev.seq, tail[i].winner));
  }
  return won;
}

/** Logs one event (and verifies reveals); returns the words for the live region. `known`
 * holds what an event caught up on (bare, without its view) cannot tell: the number of the
 * game the view is of, and the seat that won the trick a play completed. */
export function noteEvent(ev, seq, before, given, live, known = null) {
  // Events missed while away come without a view; the snapshot's current view names the
  // seats and the game just as well.
  const view = given || st.view;
  const g = view ? GAMES[view.game] : null;
  let text = "";
  switch (ev.kind) {
    case "game":
      st.game = ev.game;
      text = t("log.game", { n: ev.game });
      break;
    case "deal":
      // A reshuffle of cut cards is told by the cuts themselves; a deal names its hand
      // (Neuf: its deal), and the deck's commitment stays in the fair-deals details.
      if (ev.reshuffle != null) break;
      text = view && view.game === "neuf" ? t("log.deal_neuf", { n: ev.hand }) : t("log.deal", { hand: ev.hand });
      break;
    case "reveal":
    case "seed":
      // The fair deals' machinery: checked by the watch, shown behind the badge.
      break;
    case "action": {
      if (g && view) text = g.describe(ev, before, view, ctxFor(view));
      else text = `${t("colon", { label: seatName(ev.seat) })} ${ev.action}`;
      if (ev.by === "stand-in") text += ` ${t("log.by_stand_in")}`;
      // The play that completes a trick also says who took it: the event says so (the same
      // words live and in a log rebuilt from the events); an event stored before events
      // said so is read from the views.
      if (typeof ev.won === "number") {
        text += ` ${t("won_trick", { name: seatName(ev.won) })}.`;
      } else if (g && g.hasTricks && before && view && before.trick.length && !view.trick.length) {
        const last = g.lastTrick(view);
        if (last) text += ` ${t("won_trick", { name: seatName(last.winner) })}.`;
      } else if (known && known.won !== undefined) {
        text += ` ${t("won_trick", { name: seatName(known.won) })}.`;
      }
      break;
    }
    case "over": {
      // An earlier game's end is told from its result; the view is of a later game.
      const earlier = known && known.game !== ev.game;
      // The event's own final view (a watcher's) tells it the same live and in a log rebuilt
      // later; an event stored before events held it is told from its result or the view.
      let lines = [];
      if (g && ev.final) lines = g.results(ev.final, ctxFor(ev.final));
      else if (g && view && earlier && ev.result) lines = g.resultOf(ev.result, view, ctxFor(view));
      else if (g && view && g.isOver(view)) lines = g.results(view, ctxFor(view));
      text = [t("game_over"), ...lines].join(" ");
      break;
    }
    default:
      text = JSON.stringify(ev);
  }
  noteForResults(ev);
  if (text) log(text, seq, `ev-${ev.kind}`);
  return text;
}

export function turnKey() {
  const v = st.view;
  return v ? `${v.to_move}|${v.phase || v.mode}|${game().isOver(v)}` : "";
}

export function turnWords() {
  const v = st.view;
  if (!v) return "";
  return waitingWords(v) || game().turnText(v, ctxFor(v));
}

/** The seat to move when it is a person's with nobody at it and no bot standing in:
 * {seat, awaited, open} (awaited: its invited player has never come; open: the seat is
 * anyone's to take, from the lobby's open tables), else null. */
export function absentMover(v) {
  if (st.replay || !v || v.to_move === null || v.to_move === undefined || GAMES[v.game].isOver(v)) return null;
  const info = st.table && st.table.seats ? st.table.seats[v.to_move] : null;
  if (!info || info.kind !== "human" || info.connected || info.stand_in) return null;
  return { seat: v.to_move, awaited: Boolean(info.awaited), open: Boolean(info.open), until: info.open_until, level: info.level };
}

export function waitingWords(v) {
  const absent = absentMover(v);
  if (!absent) return "";
  if (absent.open && absent.until) {
    const time = new Date(absent.until * 1000).toLocaleTimeString(currentLang(), { timeStyle: "medium" });
    return t("waiting.open_until", { n: absent.seat + 1, time, level: t(`levels.${absent.level}`) });
  }
  if (absent.open) return t("waiting.open", { n: absent.seat + 1 });
  return t(absent.awaited ? "waiting.join" : "waiting.back", { name: seatName(absent.seat) });
}

export function announceTurn(force) {
  const key = turnKey();
  if (force || key !== st.lastTurnKey) announce(turnWords());
  st.lastTurnKey = key;
}
