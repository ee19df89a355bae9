// Sounds, on by default at a gentle volume; the "Sounds" box mutes them, and the choice is
// remembered (localStorage "cardtable.sound": "0" muted). A card played, a trick won, one's
// turn, the game's end. Each is synthesized with the Web Audio API, so there are no audio
// files to fetch.
//
// Browsers start audio only after a gesture: nothing is made before the first click or key
// on the page. Each sound that starts is recorded in window.cardtableSounds ({name, state,
// volume}), which the browser tests read.

const KEY = "cardtable.sound";
// Every sound passes through one gain: gentle, below the page's other media.
const VOLUME = 0.35;
let audio = null;
let master = null;
let woken = false;

export function soundOn() {
  return localStorage.getItem(KEY) !== "0";
}

function context() {
  if (!woken) return null;
  if (!audio) {
    const Made = window.AudioContext || window.webkitAudioContext;
    if (!Made) return null;
    audio = new Made();
    master = audio.createGain();
    master.gain.value = VOLUME;
    master.connect(audio.destination);
  }
  if (audio.state === "suspended") audio.resume().catch(() => {});
  return audio;
}

/** Wires the settings box `box` (a checkbox: ticked, sounds on) to the stored choice. */
export function initSound(box) {
  window.cardtableSounds = window.cardtableSounds || [];
  box.checked = soundOn();
  box.addEventListener("change", () => {
    localStorage.setItem(KEY, box.checked ? "1" : "0");
    if (box.checked) context();
  });
  const wake = () => {
    woken = true;
    if (soundOn()) context();
  };
  document.addEventListener("pointerdown", wake, { capture: true });
  document.addEventListener("keydown", wake, { capture: true });
}

function tone(ac, { freq, at, length, type = "sine", gain = 0.18, slide = null }) {
  const osc = ac.createOscillator();
  const amp = ac.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, at);
  if (slide) osc.frequency.exponentialRampToValueAtTime(slide, at + length);
  amp.gain.setValueAtTime(0.0001, at);
  amp.gain.exponentialRampToValueAtTime(gain, at + 0.012);
  amp.gain.exponentialRampToValueAtTime(0.0001, at + length);
  osc.connect(amp).connect(master);
  osc.start(at);
  osc.stop(at + length + 0.02);
}

// A card laid on cloth: a short burst of filtered noise.
function snap(ac, at) {
  const length = 0.09;
  const buffer = ac.createBuffer(1, Math.ceil(ac.sampleRate * length), ac.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < data.length; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / data.length) ** 3;
  const source = ac.createBufferSource();
  source.buffer = buffer;
  const filter = ac.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.value = 1800;
  filter.Q.value = 0.8;
  const amp = ac.createGain();
  amp.gain.value = 0.5;
  source.connect(filter).connect(amp).connect(master);
  source.start(at);
}

const SOUNDS = {
  card: (ac, at) => snap(ac, at),
  trick: (ac, at) => {
    tone(ac, { freq: 587, at, length: 0.12, type: "triangle" });
    tone(ac, { freq: 880, at: at + 0.09, length: 0.18, type: "triangle" });
  },
  turn: (ac, at) => {
    tone(ac, { freq: 988, at, length: 0.5, gain: 0.12 });
    tone(ac, { freq: 1482, at, length: 0.3, gain: 0.04 });
  },
  over: (ac, at) => {
    [523, 659, 784, 1047].forEach((freq, i) => tone(ac, { freq, at: at + i * 0.12, length: 0.3, type: "triangle", gain: 0.14 }));
  },
};

/** Plays sound `name` (card, trick, turn, over) when sounds are on. */
export function playSound(name, delay = 0) {
  if (!soundOn() || !SOUNDS[name]) return;
  const ac = context();
  if (!ac) return;
  SOUNDS[name](ac, ac.currentTime + delay / 1000);
  window.cardtableSounds.push({ name, state: ac.state, volume: master.gain.value });
}

// Verbs that lay a card down.
const CARD_VERBS = new Set(["play", "lead", "beat", "cover", "knock"]);

/** The sounds of one event as it happens: `before` and `after` are the views around it;
 * `mine`, whether this seat is to move after it, `changed`, whether the turn changed hands. */
export function cueSounds(ev, before, after, { mine, changed }) {
  if (ev.kind === "action" && CARD_VERBS.has(ev.action.split(" ")[0])) playSound("card");
  const tricks = before && after && Array.isArray(before.trick) && Array.isArray(after.trick);
  const won = ev.kind === "action" && (typeof ev.won === "number" || (tricks && before.trick.length > 0 && !after.trick.length));
  if (won) playSound("trick", 250);
  if (ev.kind === "over") playSound("over", 300);
  // One's turn, also when one has just won a trick and leads the next.
  else if (mine && (changed || won)) playSound("turn", 150);
}
