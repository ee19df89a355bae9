// A finished game's replay: frames fetched once, then stepped through; the table page
// draws each frame with the game's own renderer.

export async function fetchReplay(table, game) {
  const res = await fetch(`/api/tables/${encodeURIComponent(table)}/replay/${game}`);
  const body = await res.json().catch(() => ({}));
  if (!res.ok) {
    const err = new Error(body.message || `HTTP ${res.status}`);
    err.code = body.error || String(res.status);
    throw err;
  }
  if (!Array.isArray(body.frames)) throw new Error("replay without frames");
  return body;
}

export class Replay {
  constructor(game, data, onChange) {
    this.game = game;
    this.frames = data.frames;
    this.record = data.record;
    this.index = 0;
    this.onChange = onChange;
  }

  get frame() {
    return this.frames[this.index];
  }

  get previous() {
    return this.index > 0 ? this.frames[this.index - 1] : null;
  }

  go(i) {
    const clamped = Math.max(0, Math.min(this.frames.length - 1, i));
    if (clamped !== this.index) {
      this.index = clamped;
      this.onChange(this);
    }
  }

  step(d) {
    this.go(this.index + d);
  }

  /** Arrow keys step, Home/End jump; returns whether the key was used. */
  key(event) {
    const map = { ArrowLeft: -1, ArrowRight: 1, PageUp: -10, PageDown: 10 };
    if (event.key in map) this.step(map[event.key]);
    else if (event.key === "Home") this.go(0);
    else if (event.key === "End") this.go(this.frames.length - 1);
    else return false;
    return true;
  }
}
