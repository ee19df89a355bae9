/*
 * The seats' boxes and the middle of the table kept apart. A seat's box is placed by its
 * centre, in percent of the table area, and grows with what it shows (the fan of backs,
 * badges, the cards known to be in a Kryt'-navalivat' hand), most of all in a phone's
 * narrow boxes; the middle's place is a share of the area. After each drawing (and when the
 * window changes) a box that would stick out of the area is moved back inside it, and the
 * middle's top and bottom are moved in, in pixels, past the boxes above and below it (the
 * seats at either side keep to their columns: the middle's room between them is the CSS's).
 */

const $ = (id) => document.getElementById(id);
// Pixels kept between a box and what it must not touch.
const GAP = 4;

export function fitTable() {
  const area = $("table-area");
  const center = $("center");
  if (!area || !center || !area.getClientRects().length) return;
  const seats = [...document.querySelectorAll("#seats .seat")];
  center.style.top = "";
  center.style.bottom = "";
  for (const seat of seats) {
    seat.style.translate = "";
    // A seat at the top of the table has no neighbour at its sides: a phone's CSS gives its
    // box the width of the person's own, and fewer lines.
    const x = parseFloat(seat.style.left);
    const y = parseFloat(seat.style.top);
    seat.classList.toggle("at-top", Math.abs(x - 50) < 5 && y < 30);
  }
  const a = area.getBoundingClientRect();
  for (const seat of seats) {
    const r = seat.getBoundingClientRect();
    if (r.height >= a.height) continue;
    if (r.top < a.top) seat.style.translate = `0 ${a.top - r.top}px`;
    else if (r.bottom > a.bottom) seat.style.translate = `0 ${a.bottom - r.bottom}px`;
  }
  // With nobody at either side (two players), the pile's labels may take the felt's width.
  const sides = seats.some((seat) => Math.abs(parseFloat(seat.style.left) - 50) >= 5);
  const pile = center.querySelector(".pile-area");
  if (pile && !sides) pile.style.setProperty("--room", "92%");
  const c = center.getBoundingClientRect();
  let top = c.top;
  let bottom = c.bottom;
  let above = null;
  for (const seat of seats) {
    const r = seat.getBoundingClientRect();
    // A seat at the top or the bottom of the table (its centre in the middle third).
    if (Math.abs((r.left + r.right) / 2 - (a.left + a.right) / 2) > a.width / 6) continue;
    if ((r.top + r.bottom) / 2 < (a.top + a.bottom) / 2) {
      if (r.bottom + GAP > top) [top, above] = [r.bottom + GAP, seat];
    } else bottom = Math.min(bottom, r.top - GAP);
  }
  if (bottom - top < 40) return; // nothing sensible left: the CSS's place stands
  if (top > c.top) center.style.top = `${top - a.top}px`;
  if (bottom < c.bottom) center.style.bottom = `${a.bottom - bottom}px`;
  // What the middle shows may still be taller than its place (Kryt'-navalivat''s pile, its
  // labels and the stock, in a short table): the box above it then goes up to the area's top.
  const shown = [...center.querySelectorAll(".card, .knock-chip, .pile-label, .would-take-label, .stock")]
    .map((el) => el.getBoundingClientRect())
    .filter((r) => r.height);
  if (!above || !shown.length) return;
  const reach = Math.min(...shown.map((r) => r.top));
  const r = above.getBoundingClientRect();
  const lift = Math.min(r.bottom + GAP - reach, r.top - a.top);
  if (lift > 0) above.style.translate = `0 ${-lift}px`;
}
