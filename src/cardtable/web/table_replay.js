/*
 * Replay mode: a finished game's frames stepped through in place of the table.
 */
import { t } from "./i18n.js";
import { fetchReplay, Replay } from "./replay.js";
import { GAMES, TABLE, st, $, showBanner, announce, ctxFor, redraw } from "./table_state.js";

export function replayWords() {
  const r = st.replay;
  const f = r.frame;
  const v = f.view;
  const g = GAMES[v.game];
  const said = f.action ? g.describe({ seat: f.seat, action: f.action }, r.previous ? r.previous.view : null, v, ctxFor(v)) : "";
  return `${t("colon", { label: t("replay.title", { n: r.game }) })} ${said}`;
}

export function renderReplayBar() {
  const bar = $("replay-bar");
  bar.hidden = !st.replay;
  document.body.classList.toggle("replaying", !!st.replay);
  if (!st.replay) return;
  $("replay-pos").textContent = t("replay.pos", { i: st.replay.index + 1, n: st.replay.frames.length });
  $("replay-step").textContent = replayWords();
}

export async function openReplay(gameNo) {
  try {
    const data = await fetchReplay(TABLE, gameNo);
    if (!data.frames.length) throw new Error(t("replay.empty"));
    st.replay = new Replay(gameNo, data, () => {
      redraw();
      announce($("replay-step").textContent);
    });
    // The game's end shown over the table (table_celebrate.js) is the live table's, not the
    // replay's: it would stand over every frame, the first one's deal included.
    for (const over of $("table-area").querySelectorAll(".celebration")) over.remove();
    redraw();
    $("replay-next").focus();
  } catch (err) {
    showBanner(`${t("colon", { label: t("replay.failed") })} ${err.message}`, err.code || "replay");
  }
}

export function closeReplay() {
  st.replay = null;
  redraw();
  $("replay-open").focus();
}
