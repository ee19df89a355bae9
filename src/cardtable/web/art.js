// The pack's drawings, made for cardtable as inline SVG: suit shapes as paths (not font
// glyphs, which differ between systems), pips in the classic places, double-headed court
// figures (King, Queen, Jack) dressed in their suit's colours, and one card back.
//
// Everything is built from elements and presentation attributes, never a style="" attribute,
// so the server's Content-Security-Policy (no 'unsafe-inline') lets every card draw. Faces
// carry no ids and are drawn once per card, then cloned; each back gets its own pattern id.
//
// The card is 60 x 84 units. The corner index (rank over suit) is large because a phone
// shows a card some 48 pixels wide, and in a fanned hand only its left strip.

const NS = "http://www.w3.org/2000/svg";

export const RED_INK = "#c1121f";
export const BLACK_INK = "#1b1b1b";
const GOLD = "#e2b33c";
const GOLD_DARK = "#8a6414";
const SKIN = "#f4d5b8";
const SKIN_LINE = "#6b4b3a";
const PAPER = "#fffdf8";

// Each suit's court wears its own colours, so a King of spades and a King of hearts differ
// at a glance even where only the figure shows.
export const SUIT_DRESS = {
  S: { robe: "#23407f", trim: "#0f1f45", hair: "#3b2a1e" },
  H: { robe: "#b3182a", trim: "#5e0b14", hair: "#8a4b1f" },
  D: { robe: "#d9731a", trim: "#7a3a06", hair: "#c9962e" },
  C: { robe: "#2d6a3e", trim: "#123820", hair: "#2a1c12" },
};

// Suit shapes on a 10-unit square centred on 0,0.
const SUIT_PATH = {
  H: "M0 4.7C-1.3 3.3-5 0.7-5-1.9C-5-3.8-3.6-5-2.3-5C-1.1-5-0.3-4.2 0-3.2C0.3-4.2 1.1-5 2.3-5C3.6-5 5-3.8 5-1.9C5 0.7 1.3 3.3 0 4.7Z",
  D: "M0-5.2Q1.9-2.5 4-0Q1.9 2.5 0 5.2Q-1.9 2.5-4 0Q-1.9-2.5 0-5.2Z",
  S: "M0-5C-1.2-3.6-5-1.2-5 1.3C-5 3-3.7 4-2.5 4C-1.5 4-0.8 3.5-0.4 2.8C-0.5 3.9-1 4.6-1.9 5.2H1.9C1 4.6 0.5 3.9 0.4 2.8C0.8 3.5 1.5 4 2.5 4C3.7 4 5 3 5 1.3C5-1.2 1.2-3.6 0-5Z",
  C: "M-0.55 0.8Q-0.6 3.9-2 5.2H2Q0.6 3.9 0.55 0.8ZM0-5A2.3 2.3 0 1 1 0-0.4A2.3 2.3 0 1 1 0-5ZM-2.6-1.2A2.3 2.3 0 1 1-2.6 3.4A2.3 2.3 0 1 1-2.6-1.2ZM2.6-1.2A2.3 2.3 0 1 1 2.6 3.4A2.3 2.3 0 1 1 2.6-1.2Z",
};

export function suitInk(suit) {
  return suit === "H" || suit === "D" ? RED_INK : BLACK_INK;
}

export function svgEl(name, attrs = {}, text) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

/** A suit shape of `size` units centred at (x, y), upside down when `flip`. */
export function suitShape(suit, x, y, size, { flip = false, fill = suitInk(suit), cls = "pip" } = {}) {
  const turn = flip ? " rotate(180)" : "";
  return svgEl("path", {
    d: SUIT_PATH[suit],
    fill,
    class: cls,
    transform: `translate(${x} ${y}) scale(${size / 10})${turn}`,
  });
}

// Pip centres (x, y) for 2-10: the usual places, the lower half upside down.
const C1 = 21;
const C2 = 30;
const C3 = 39;
const TOP = 17;
const BOTTOM = 67;
const MID = 42;
const Q1 = TOP + (BOTTOM - TOP) / 3;
const Q2 = TOP + (2 * (BOTTOM - TOP)) / 3;
const SIDES = [
  [C1, TOP],
  [C3, TOP],
  [C1, BOTTOM],
  [C3, BOTTOM],
];
const PIPS = {
  2: [
    [C2, TOP],
    [C2, BOTTOM],
  ],
  3: [
    [C2, TOP],
    [C2, MID],
    [C2, BOTTOM],
  ],
  4: SIDES,
  5: [...SIDES, [C2, MID]],
  6: [...SIDES, [C1, MID], [C3, MID]],
  7: [...SIDES, [C1, MID], [C3, MID], [C2, (TOP + MID) / 2]],
  8: [...SIDES, [C1, MID], [C3, MID], [C2, (TOP + MID) / 2], [C2, (MID + BOTTOM) / 2]],
  9: [...SIDES, [C1, Q1], [C3, Q1], [C1, Q2], [C3, Q2], [C2, MID]],
  10: [...SIDES, [C1, Q1], [C3, Q1], [C1, Q2], [C3, Q2], [C2, (TOP + Q1) / 2], [C2, (Q2 + BOTTOM) / 2]],
};

function index(rank, suit) {
  const g = svgEl("g", { class: "index", fill: suitInk(suit) });
  const attrs = { x: 7.5, y: 16, "font-size": 17, "text-anchor": "middle" };
  // "10" is squeezed to the width of one letter, so that the index keeps to its corner.
  if (rank === "10") Object.assign(attrs, { textLength: 13, lengthAdjust: "spacingAndGlyphs" });
  g.append(svgEl("text", attrs, rank));
  g.append(suitShape(suit, 7.5, 24, 9, { cls: "index-pip" }));
  return g;
}

function corners(rank, suit) {
  const g = svgEl("g", { "font-family": "Georgia, 'Times New Roman', serif", "font-weight": 700 });
  const bottom = index(rank, suit);
  bottom.setAttribute("transform", "rotate(180 30 42)");
  g.append(index(rank, suit), bottom);
  return g;
}

function pips(rank, suit) {
  const g = svgEl("g", { class: "pips", "data-pips": rank });
  if (rank === "A") {
    // The ace: one large pip in a ring, the spade's a little grander, as packs have it.
    const big = suit === "S" ? 26 : 22;
    g.append(svgEl("circle", { cx: 30, cy: 42, r: big * 0.78, fill: "none", stroke: GOLD, "stroke-width": 1.2 }));
    g.append(svgEl("circle", { cx: 30, cy: 42, r: big * 0.78 + 2, fill: "none", stroke: suitInk(suit), "stroke-width": 0.5 }));
    g.append(suitShape(suit, 30, 42, big, { cls: "pip ace" }));
    return g;
  }
  for (const [x, y] of PIPS[rank]) g.append(suitShape(suit, x, y, 9, { flip: y > MID + 0.1 }));
  return g;
}

// ---------------------------------------------------------------- court figures

// One half of a double-headed court card, drawn in the upper half of the frame (y 7 to 42);
// the lower half is the same drawing turned about the card's centre.

function shoulders(suit, dress) {
  const g = svgEl("g", { class: "robe" });
  g.append(svgEl("path", { d: "M15.5 42V35.5Q17.5 29.3 24 28.4H36Q42.5 29.3 44.5 35.5V42Z", fill: dress.robe, stroke: dress.trim, "stroke-width": 0.6 }));
  // Gold bands down the front and along the hem of the sleeves.
  g.append(svgEl("path", { d: "M27.6 28.4H32.4V42H27.6Z", fill: GOLD, stroke: GOLD_DARK, "stroke-width": 0.4 }));
  g.append(svgEl("path", { d: "M16.5 37.5Q19 36 21.5 37.5M38.5 37.5Q41 36 43.5 37.5", fill: "none", stroke: GOLD, "stroke-width": 1 }));
  // The suit on the breast, on a white roundel.
  g.append(svgEl("circle", { cx: 30, cy: 36.3, r: 3.3, fill: PAPER, stroke: GOLD_DARK, "stroke-width": 0.4 }));
  g.append(suitShape(suit, 30, 36.3, 4.4, { cls: "badge-pip" }));
  return g;
}

function face(extra = []) {
  const g = svgEl("g", { class: "face" });
  g.append(svgEl("rect", { x: 28, y: 25, width: 4, height: 4, fill: SKIN, stroke: SKIN_LINE, "stroke-width": 0.4 }));
  g.append(svgEl("ellipse", { cx: 30, cy: 21, rx: 4.6, ry: 5.6, fill: SKIN, stroke: SKIN_LINE, "stroke-width": 0.5 }));
  g.append(svgEl("circle", { cx: 28.2, cy: 20.4, r: 0.6, fill: "#2b1d14" }));
  g.append(svgEl("circle", { cx: 31.8, cy: 20.4, r: 0.6, fill: "#2b1d14" }));
  g.append(svgEl("path", { d: "M30 21.2L29.4 23H30.6", fill: "none", stroke: SKIN_LINE, "stroke-width": 0.4 }));
  g.append(...extra);
  return g;
}

function king(suit, dress) {
  const g = svgEl("g", { class: "court king", "data-court": "K", "data-suit": suit });
  // The sceptre behind the shoulder, topped with the suit.
  g.append(svgEl("path", { d: "M40.5 41V15", stroke: GOLD_DARK, "stroke-width": 1.4 }));
  g.append(svgEl("circle", { cx: 40.5, cy: 13.2, r: 3.6, fill: PAPER, stroke: GOLD_DARK, "stroke-width": 0.5 }));
  g.append(suitShape(suit, 40.5, 13.2, 5, { cls: "sceptre-pip" }));
  g.append(shoulders(suit, dress));
  // An ermine collar: white fur with black tails.
  g.append(svgEl("path", { class: "ermine", d: "M20 30.2Q30 34.6 40 30.2L38.6 28.6Q30 31.4 21.4 28.6Z", fill: PAPER, stroke: "#8a8a8a", "stroke-width": 0.3 }));
  for (const x of [23.5, 27.5, 32.5, 36.5]) g.append(svgEl("path", { d: `M${x} 30.3v1.4`, stroke: BLACK_INK, "stroke-width": 0.7 }));
  const beard = svgEl("path", { class: "beard", d: "M25.4 21.5Q25.3 29.5 30 30.6Q34.7 29.5 34.6 21.5Q33 25.2 30 25.2Q27 25.2 25.4 21.5Z", fill: dress.hair, stroke: SKIN_LINE, "stroke-width": 0.3 });
  const moustache = svgEl("path", { d: "M27.6 24Q30 22.6 32.4 24Q30 23.6 27.6 24Z", fill: dress.hair });
  g.append(face([beard, moustache]));
  // A crown of five points with jewels.
  g.append(svgEl("path", { class: "crown", d: "M24.6 16.4L24 9.2L26.6 12.2L28.2 7.8L30 11.3L31.8 7.8L33.4 12.2L36 9.2L35.4 16.4Z", fill: GOLD, stroke: GOLD_DARK, "stroke-width": 0.5 }));
  g.append(svgEl("path", { d: "M24.6 16.4H35.4", stroke: dress.trim, "stroke-width": 1.2 }));
  for (const x of [26.6, 30, 33.4]) g.append(svgEl("circle", { cx: x, cy: 14.3, r: 0.8, fill: suit === "S" || suit === "C" ? "#1f7a4d" : "#1f4e9c" }));
  return g;
}

function queen(suit, dress) {
  const g = svgEl("g", { class: "court queen", "data-court": "Q", "data-suit": suit });
  // Long hair falls to the shoulders behind the face.
  g.append(svgEl("path", { class: "hair", d: "M24.3 22.5Q23.3 13.6 30 13.2Q36.7 13.6 35.7 22.5L37 30L33.3 28Q34.8 23 34.2 19.2Q30 17 25.8 19.2Q25.2 23 26.7 28L23 30Z", fill: dress.hair }));
  g.append(shoulders(suit, dress));
  g.append(svgEl("path", { class: "necklace", d: "M26.2 29.2Q30 32.6 33.8 29.2", fill: "none", stroke: PAPER, "stroke-width": 0.9, "stroke-dasharray": "0.1 1.2", "stroke-linecap": "round" }));
  const lips = svgEl("path", { d: "M29 24Q30 24.8 31 24", fill: "none", stroke: "#b3182a", "stroke-width": 0.6 });
  g.append(face([lips]));
  // A tiara with pearls.
  g.append(svgEl("path", { class: "crown", d: "M25.2 16.2Q25.6 10.2 30 9.6Q34.4 10.2 34.8 16.2Q30 14.4 25.2 16.2Z", fill: GOLD, stroke: GOLD_DARK, "stroke-width": 0.5 }));
  for (const [x, y] of [
    [27, 12.2],
    [30, 10.9],
    [33, 12.2],
  ])
    g.append(svgEl("circle", { cx: x, cy: y, r: 0.8, fill: PAPER, stroke: GOLD_DARK, "stroke-width": 0.2 }));
  // She holds a flower in her suit's colour.
  g.append(svgEl("path", { d: "M19.5 41Q18.6 30 19.5 20", fill: "none", stroke: "#2d6a3e", "stroke-width": 0.9 }));
  g.append(svgEl("path", { d: "M19.2 31Q16.2 29.5 16.6 27Q18.8 28.4 19.2 31Z", fill: "#2d6a3e" }));
  const petals = svgEl("g", { class: "flower" });
  for (const [dx, dy] of [
    [0, -2.1],
    [2, -0.6],
    [1.2, 1.7],
    [-1.2, 1.7],
    [-2, -0.6],
  ])
    petals.append(svgEl("circle", { cx: 19.5 + dx, cy: 18.5 + dy, r: 1.5, fill: suit === "H" || suit === "D" ? RED_INK : dress.robe }));
  petals.append(svgEl("circle", { cx: 19.5, cy: 18.5, r: 1, fill: GOLD }));
  g.append(petals);
  return g;
}

function jack(suit, dress) {
  const g = svgEl("g", { class: "court jack", "data-court": "J", "data-suit": suit });
  // A halberd behind the shoulder.
  g.append(svgEl("path", { d: "M19.5 41V10", stroke: "#6b4b3a", "stroke-width": 1.1 }));
  g.append(svgEl("path", { class: "halberd", d: "M19.5 9L21 12.5L19.5 14.5L23.2 15.5Q23.6 12.6 21 12.5M19.5 14.5L16.6 16Q15.6 13.4 18.3 12.8Z", fill: "#c8ccd2", stroke: "#4d5560", "stroke-width": 0.4 }));
  g.append(shoulders(suit, dress));
  // Short curls at the sides of a young, beardless face.
  g.append(svgEl("path", { class: "hair", d: "M25.2 17.5Q24 21.5 25.5 24.5L26 19.5ZM34.8 17.5Q36 21.5 34.5 24.5L34 19.5Z", fill: dress.hair }));
  const smile = svgEl("path", { d: "M28.8 24.1Q30 24.9 31.2 24.1", fill: "none", stroke: SKIN_LINE, "stroke-width": 0.5 });
  g.append(face([smile]));
  // A cap with a feather.
  g.append(svgEl("path", { class: "cap", d: "M24.3 17.4Q24.4 10.8 31 10.6Q37.6 11 36.2 17.4Q30.2 15.4 24.3 17.4Z", fill: dress.robe, stroke: dress.trim, "stroke-width": 0.5 }));
  g.append(svgEl("path", { d: "M24.3 17.4Q30.2 15.4 36.2 17.4", fill: "none", stroke: GOLD, "stroke-width": 1 }));
  g.append(svgEl("path", { class: "feather", d: "M35.4 13.2Q38.4 8.6 41.6 8.8Q39.4 11 36.6 14.4Z", fill: PAPER, stroke: GOLD_DARK, "stroke-width": 0.4 }));
  return g;
}

const FIGURES = { K: king, Q: queen, J: jack };

function court(rank, suit) {
  const dress = SUIT_DRESS[suit];
  const g = svgEl("g", { class: "court-card", "data-court": rank });
  g.append(svgEl("rect", { x: 14, y: 6.5, width: 32, height: 71, rx: 1.5, fill: "#fbf3df", stroke: suitInk(suit), "stroke-width": 0.8 }));
  // A faint wash of the suit's colour behind the figures.
  g.append(svgEl("rect", { x: 14, y: 6.5, width: 32, height: 71, rx: 1.5, fill: dress.robe, "fill-opacity": 0.08 }));
  const clip = svgEl("g", {});
  const top = FIGURES[rank](suit, dress);
  const bottom = FIGURES[rank](suit, dress);
  bottom.setAttribute("transform", "rotate(180 30 42)");
  clip.append(top, bottom);
  g.append(clip);
  // The line between the two halves, and the frame drawn again over the figures' edges.
  g.append(svgEl("path", { d: "M14 42H46", stroke: GOLD_DARK, "stroke-width": 0.6 }));
  g.append(svgEl("rect", { x: 14, y: 6.5, width: 32, height: 71, rx: 1.5, fill: "none", stroke: suitInk(suit), "stroke-width": 0.8 }));
  return g;
}

// ---------------------------------------------------------------- faces and the back

const drawn = new Map();

function drawFace(rank, suit) {
  const svg = svgEl("svg", { viewBox: "0 0 60 84", class: "card-svg face", role: "img", "data-rank": rank, "data-suit": suit });
  svg.append(svgEl("rect", { x: 0.75, y: 0.75, width: 58.5, height: 82.5, rx: 4.5, fill: PAPER, stroke: "#8a8a8a", "stroke-width": 1.5 }));
  svg.append(FIGURES[rank] ? court(rank, suit) : pips(rank, suit));
  svg.append(corners(rank, suit));
  return svg;
}

/** The face of rank and suit as a new <svg> (each card is drawn once, then copied). */
export function faceSvg(rank, suit) {
  const key = `${rank}${suit}`;
  if (!drawn.has(key)) drawn.set(key, drawFace(rank, suit));
  return drawn.get(key).cloneNode(true);
}

let backs = 0;

/** The back: a lattice of eight-pointed stars in gold on deep red, a white margin, and a
 * medallion of the four suits; it reads as the same at any size and either way up. */
export function backSvg() {
  const id = `ct-back-${++backs}`;
  const svg = svgEl("svg", { viewBox: "0 0 60 84", class: "card-svg back", "data-back": "stars" });
  const defs = svgEl("defs");
  const pat = svgEl("pattern", { id, width: 10, height: 10, patternUnits: "userSpaceOnUse", x: 0, y: 2 });
  pat.append(svgEl("rect", { width: 10, height: 10, fill: "#7a1f2e" }));
  const star = "M5 1.6L6 4L8.4 5L6 6L5 8.4L4 6L1.6 5L4 4Z";
  pat.append(svgEl("path", { d: "M2.6 2.6H7.4V7.4H2.6Z", fill: "none", stroke: "#c9973a", "stroke-width": 0.6 }));
  pat.append(svgEl("path", { d: star, fill: "#e8c15a" }));
  pat.append(svgEl("circle", { cx: 0, cy: 0, r: 1, fill: "#e8c15a" }));
  pat.append(svgEl("circle", { cx: 10, cy: 0, r: 1, fill: "#e8c15a" }));
  pat.append(svgEl("circle", { cx: 0, cy: 10, r: 1, fill: "#e8c15a" }));
  pat.append(svgEl("circle", { cx: 10, cy: 10, r: 1, fill: "#e8c15a" }));
  defs.append(pat);
  svg.append(defs);
  svg.append(svgEl("rect", { x: 0.75, y: 0.75, width: 58.5, height: 82.5, rx: 4.5, fill: PAPER, stroke: "#8a8a8a", "stroke-width": 1.5 }));
  svg.append(svgEl("rect", { class: "field", x: 4, y: 4, width: 52, height: 76, rx: 2.5, fill: `url(#${id})` }));
  svg.append(svgEl("rect", { x: 5.5, y: 5.5, width: 49, height: 73, rx: 1.8, fill: "none", stroke: "#f3dc9a", "stroke-width": 0.6 }));
  // The medallion.
  const medal = svgEl("g", { class: "medallion" });
  medal.append(svgEl("ellipse", { cx: 30, cy: 42, rx: 14, ry: 18, fill: "#5a1320", stroke: "#e8c15a", "stroke-width": 1.4 }));
  medal.append(svgEl("ellipse", { cx: 30, cy: 42, rx: 11.6, ry: 15.6, fill: "none", stroke: "#f3dc9a", "stroke-width": 0.5 }));
  medal.append(suitShape("S", 30, 32.5, 6, { fill: "#f3dc9a", cls: "back-pip" }));
  medal.append(suitShape("H", 30, 51.5, 6, { fill: "#f3dc9a", cls: "back-pip" }));
  medal.append(suitShape("D", 22.5, 42, 6, { fill: "#f3dc9a", cls: "back-pip" }));
  medal.append(suitShape("C", 37.5, 42, 6, { fill: "#f3dc9a", cls: "back-pip" }));
  medal.append(svgEl("path", { d: "M30 38L31.2 40.8L34 42L31.2 43.2L30 46L28.8 43.2L26 42L28.8 40.8Z", fill: "#e8c15a" }));
  svg.append(medal);
  return svg;
}
