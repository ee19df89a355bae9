// What one page saw of a table's deals, and whether it checks out (docs/fairness.md).
//
// A FairWatch is fed the messages a page's websocket receives, in order (the join's
// snapshot, then each event with the view after it), and keeps what the fairness check needs:
// each deck's salted commitment and its reveal, each game's commitment and server seed, and
// every card the page's seat was shown: dealt, turned, cut, drawn from the stock, taken by a
// swap or an exchange. Once a game's server seed is revealed it derives every deck and
// reshuffle itself (fair.js) and follows each card from the deck to where the page saw it,
// through every move the rules allow (KRYT-4.4 draws, KRYT-6 the six of trumps' swap,
// KOW-5.3 cuts and their reshuffles, NEUF-3 exchanges).
//
// It is pure: no DOM, no network, no clock. The table page drives one, and a property test
// drives this same code in Chromium over thousands of random games, which it must call fair
// (a wrong alarm is a defect like a missed cheat) and whose tampered copies it must refuse.

import { sha256Bytes } from "./sha256.js";
import { CHAIN_LENGTH, cardIndex, commitmentOfSeed, fairShuffle, packOf } from "./fair.js";

const PACK_SIZE = { "knockout-whist": 52, neuf: 52, "kryt-navalivat": 36 };
const encoder = new TextEncoder();

/** The salted commitment of one deck (docs/server.md): SHA-256 of "salt:cards", as hex. */
export function deckCommitment(salt, deck) {
  return sha256Bytes(encoder.encode(`${salt}:${deck.join(" ")}`));
}

const sorted = (cards) => [...cards].sort((a, b) => a - b);
const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);
const indices = (cards) => (cards || []).map(cardIndex);

// Where a deck puts the cards ------------------------------------------------------------

/** Knockout Whist (KOW-2.3, KOW-3.1): the deck positions of each seat's cards, the turned
 * card's (or -1), and where the undealt remainder starts, read from a view of the hand. */
function whistDeal(view) {
  const n = view.players;
  const status = view.statuses;
  const order = [...Array(n).keys()].map((i) => (view.dealer + 1 + i) % n).filter((s) => status[s] !== "out");
  const hands = Array.from({ length: n }, () => []);
  let pos = 0;
  for (let round = 0; round < view.hand_size; round++) {
    for (const s of order) {
      if (round === 0 || status[s] !== "dog") hands[s].push(pos++);
    }
  }
  const turned = view.hand_number === 1 ? pos : -1;
  return { hands, turned, remainder: turned >= 0 ? pos + 1 : pos };
}

/** Neuf (NEUF-2.3, NEUF-8.4): the four 13-card piles, by the seat that receives each (the
 * spare, with 3 players, under key "spare"). */
function neufPiles(deck, view) {
  const n = view.players;
  const d = view.dealer;
  const receivers = n === 3 ? [(d + 1) % 3, (d + 2) % 3, d, "spare"] : [0, 1, 2, 3].map((i) => (d + 1 + i) % 4);
  const piles = new Map(receivers.map((r) => [r, []]));
  deck.forEach((card, i) => piles.get(receivers[i % 4]).push(card));
  return piles;
}

/** Kryt'-navalivat' (KRYT-2.3, KRYT-2.4): the deck positions of each seat's three cards. */
function krytNavalivatHands(view) {
  const n = view.players;
  const hands = Array.from({ length: n }, () => []);
  for (let i = 0; i < 3 * n; i++) hands[(view.dealer + 1 + i) % n].push(i);
  return hands;
}

/** Kryt'-navalivat': the card under the stock. It is the turned card, position 3N of the
 * deck (KRYT-2.4, KRYT-2.5), or the six of trumps once a player swapped it in (KRYT-6.1). */
function krytNavalivatUnder(deck, players, swapped) {
  const turned = deck[3 * players];
  return swapped ? Math.floor(turned / 13) * 13 + 4 : turned;
}

/** Kryt'-navalivat': the card the k-th draw (from 0) takes from a stock that began with
 * `start` cards: from the top in deck order, the card under it last (KRYT-4.4). */
function krytNavalivatDraw(deck, players, turned, swapped, start, k) {
  const dealt = 3 * players;
  if (!turned) return deck[dealt + k];
  return k < start - 1 ? deck[dealt + 1 + k] : krytNavalivatUnder(deck, players, swapped);
}

// The watch -------------------------------------------------------------------------------

export class FairWatch {
  /** `table`: the table's id; `seed`: the seed this page gave with its join (or null). */
  constructor({ table, seed = null }) {
    this.table = table;
    this.mySeed = seed;
    this.seat = null;
    this.seedSince = null; // deals after this event number hold this page's seed
    this.view = null; // the last view received
    this.kind = null; // the table's game
    this.decks = new Map(); // "game:hand:deck" or "game:reshuffle:commitment" -> one deck's salted commitment
    this.games = new Map(); // game number -> what the page saw of that game's deals
  }

  // Feeding -------------------------------------------------------------------------------

  /** The join's snapshot (docs/server.md): what the page missed, then the view now. Returns
   * the checks it decided ({kind: "deck" | "game", entry}). */
  snapshot(msg) {
    const news = [];
    this.seat = msg.seat ?? null;
    this.kind = (msg.view && msg.view.game) || (msg.table && msg.table.game) || this.kind;
    if (this.mySeed && this.seedSince === null) this.seedSince = msg.seq;
    const missed = (msg.missed || []).map((m) => m.event || m).filter(Boolean);
    for (const d of msg.deals || []) this.#deck(d, news);
    for (const ev of missed) this.#record(ev, ev.seq, news);
    if (msg.fair) {
      const game = this.#game(msg.fair.game);
      game.commitment = game.commitment || msg.fair.commitment;
      if (msg.fair.construction) game.construction = msg.fair.construction;
      if (msg.fair.dealer != null) game.dealer = msg.fair.dealer;
      if (msg.fair.server_seed && !game.serverSeed) game.serverSeed = msg.fair.server_seed;
    }
    const view = msg.view;
    if (view && view.game) {
      const ofGame = missed.filter((ev) => ev.game === msg.game);
      const at = ofGame.findLastIndex((ev) => ev.kind === "deal" && ev.reshuffle == null);
      const acted = ofGame.slice(at + 1).some((ev) => ev.kind === "action" && ev.seat === this.seat);
      if (at >= 0 && !this.#over(view)) {
        const game = this.#game(msg.game);
        // A hand the seat has not played in since its deal is still as dealt; the cuts and
        // the hands held (Neuf) stay in the view all hand long.
        this.#sawDeal(game, ofGame[at].hand, view, !acted);
      } else if (at >= 0 && view.game === "knockout-whist" && (view.cuts || []).length) {
        // A game over still shows its last hand's cuts. Its seats' statuses are the end's,
        // not the deal's, but every card dealt in that hand was played: its tricks count
        // them (a dog's knock is a play without a card), and the remainder the cuts came
        // from starts after them.
        const game = this.#game(msg.game);
        game.kind = view.game;
        const cards = (trick) => trick.plays.filter(([, card]) => card !== "knock").length;
        const dealt = (view.tricks || []).reduce((n, trick) => n + cards(trick), 0);
        const remainder = dealt + (view.hand_number === 1 ? 1 : 0);
        game.seen.push({ kind: "cuts", hand: ofGame[at].hand, view, remainder });
      }
    }
    this.view = view || this.view;
    for (const game of this.games.values()) this.#verify(game, news);
    return news;
  }

  /** One event and the view after its change (docs/server.md). Returns the checks it decided. */
  event(msg) {
    const news = [];
    const ev = msg.event;
    const before = this.view;
    const after = msg.view || before;
    this.#record(ev, msg.seq, news);
    if (ev.kind === "deal" && ev.reshuffle == null && msg.view) this.#sawDeal(this.#game(ev.game), ev.hand, after, true);
    if (ev.kind === "action" && before && msg.view && before.game === after.game) this.#sawAction(ev, before, after);
    // The card under the Kryt'-navalivat' stock, each time it changes (a swap puts the six
    // of trumps there, KRYT-6.1): every page sees it, a spectator's too.
    if (msg.view && after.game === "kryt-navalivat" && after.trump_card && (!before || before.trump_card !== after.trump_card)) {
      const game = this.#game(ev.game);
      game.seen.push({ kind: "under", hand: 1, card: after.trump_card, swapped: game.swapped, players: after.players });
    }
    this.view = after;
    if (ev.kind === "over" || ev.kind === "reveal") {
      const game = this.games.get(ev.game);
      if (game) this.#verify(game, news);
    }
    return news;
  }

  #game(number) {
    let game = this.games.get(number);
    if (!game) {
      game = {
        game: number,
        kind: null, // the game's name, from its first view
        commitment: null,
        construction: 1, // 2: every deck derived from the first dealer too
        dealer: null, // the game's first dealer
        serverSeed: null,
        draws: [], // each deal event: {hand, reshuffle, commitment, seeds, seq, deck}
        seen: [], // what the seat saw, checked against the derived decks
        swapped: false, // Kryt'-navalivat': a six of trumps lies under the stock
        status: "pending",
        problems: [],
        checked: { decks: 0, seen: 0 },
      };
      this.games.set(number, game);
    }
    return game;
  }

  #over(view) {
    return view.phase === "over" || view.mode === "over";
  }

  /** What an event tells whatever the view: commitments, reveals, seeds, the server seed. */
  #record(ev, seq, news) {
    switch (ev.kind) {
      case "game":
        if (ev.commitment) {
          const game = this.#game(ev.game);
          game.commitment = ev.commitment;
          game.construction = ev.construction || 1;
          game.dealer = ev.dealer;
        }
        break;
      case "deal":
        this.#deck({ ...ev, deck: null, salt: null }, news);
        if (ev.seeds) this.#game(ev.game).draws.push({ hand: ev.hand, reshuffle: ev.reshuffle ?? null, commitment: ev.commitment, seeds: ev.seeds, seq, deck: null });
        break;
      case "reveal":
        this.#deck(ev, news);
        for (const d of this.#game(ev.game).draws) if (d.commitment === ev.commitment) d.deck = ev.deck;
        break;
      case "action":
        if (String(ev.action) === "swap") this.#game(ev.game).swapped = true;
        break;
      case "over":
        if (ev.server_seed) this.#game(ev.game).serverSeed = ev.server_seed;
        break;
      default:
    }
  }

  /** A deck's salted commitment, and once revealed, its check: the cards hash to what was
   * committed at the deal, and a hand's deck is the whole pack. */
  #deck(d, news) {
    // A hand's deck is known by its hand. A reshuffle is known by the commitment its deal
    // published, and numbered here from 0 in the order of the deals, as the game's record
    // numbers them: the event's own `reshuffle` is that number, but events stored before it
    // was hold the reshuffle's place among all the game's decks (docs/server.md).
    const extra = d.reshuffle != null;
    const key = extra ? `${d.game}:reshuffle:${d.commitment}` : `${d.game}:${d.hand}:deck`;
    let entry = this.decks.get(key);
    if (!entry) {
      const number = extra ? [...this.decks.values()].filter((e) => e.game === d.game && e.reshuffle !== null).length : null;
      entry = { game: d.game, hand: d.hand, reshuffle: number, commitment: d.commitment, status: "pending" };
      this.decks.set(key, entry);
      if (extra && d.kind === "reveal") {
        // A reshuffle revealed whose commitment no deal published.
        entry.status = "bad";
        entry.deck = d.deck;
        news.push({ kind: "deck", entry });
        return;
      }
    }
    if (!d.deck || !d.salt || entry.status !== "pending") return;
    entry.deck = d.deck;
    const kind = this.kind;
    const distinct = new Set(d.deck).size === d.deck.length;
    const whole = distinct && (extra || !kind || d.deck.length === PACK_SIZE[kind]);
    entry.status = deckCommitment(d.salt, d.deck) === (entry.commitment || d.commitment) && whole ? "ok" : "bad";
    news.push({ kind: "deck", entry });
  }

  /** The view of a hand just dealt, or opened on: `asDealt` when the seat's hand is still
   * the one dealt to it. */
  #sawDeal(game, hand, view, asDealt) {
    game.kind = view.game;
    game.seen.push({ kind: "deal", hand, view, asDealt, swapped: game.swapped, seat: this.seat });
  }

  /** An action's change as this seat saw it: cards that reached its hand from the stock,
   * a swap's turned card, a hand taken by an exchange. */
  #sawAction(ev, before, after) {
    const game = this.#game(ev.game);
    game.kind = after.game;
    if (this.seat === null) return;
    if (after.game === "kryt-navalivat" && typeof before.stock === "number") {
      const had = new Set([...(before.hand || []), ...(before.pile || []).flat(2)].map(String));
      const gained = (after.hand || []).filter((c) => !had.has(String(c)));
      if (String(ev.action) === "swap") {
        if (ev.seat === this.seat) game.seen.push({ kind: "swap", hand: 1, got: gained, players: after.players });
      } else if (gained.length || after.stock < before.stock) {
        // Only the seat whose turn ended draws (KRYT-4.4): every card new in this seat's
        // hand came from the stock's top, in this seat's own turn.
        game.seen.push({
          kind: "drawn",
          hand: 1,
          cards: ev.seat === this.seat ? gained : [],
          mine: ev.seat === this.seat,
          stray: ev.seat === this.seat ? [] : gained,
          before: before.stock,
          after: after.stock,
          players: after.players,
          turned: after.trump_mode === "turned",
          swapped: game.swapped,
        });
      }
    }
    if (after.game === "neuf" && ev.seat === this.seat && String(ev.action) === "exchange") {
      game.seen.push({ kind: "deal", hand: after.deal_number, view: after, asDealt: false, swapped: false, seat: this.seat });
    }
  }

  // Checking ------------------------------------------------------------------------------

  #verify(game, news) {
    if (!game.serverSeed || !game.commitment || game.status !== "pending") return;
    const problems = this.check(game);
    game.problems = problems;
    game.status = problems.length ? "bad" : "ok";
    news.push({ kind: "game", entry: game });
  }

  /** Every check of one game whose server seed is revealed: a list of [what, hand]. */
  check(game) {
    const problems = [];
    const seed = game.serverSeed;
    if (!/^[0-9a-f]{64}$/.test(seed) || commitmentOfSeed(seed) !== game.commitment) return [["commitment"]];
    const previous = this.games.get(game.game - 1);
    if (previous && previous.serverSeed && (game.game - 1) % CHAIN_LENGTH !== 0 && previous.serverSeed !== game.commitment) {
      return [["chain"]];
    }
    const kind = game.kind || this.kind;
    const dealer = game.construction === 2 ? game.dealer : null;
    const derive = (label, seeds, cards) => fairShuffle(seed, this.table, game.game, label, seeds, cards, dealer);
    const decks = new Map();
    const reshuffles = game.draws.filter((d) => d.reshuffle !== null);
    // The reshuffles' cards as the cuts the page saw make them; the others as revealed.
    const shuffled = new Map();
    for (const d of game.draws) {
      if (d.reshuffle === null) {
        const derived = derive(`hand ${d.hand}`, d.seeds, packOf(kind));
        decks.set(d.hand, derived);
        if (!d.deck || !same(indices(d.deck), derived)) problems.push(["deck", d.hand]);
      }
      if (this.mySeed && this.seat !== null && this.seedSince !== null && d.seq > this.seedSince && d.seeds[this.seat] !== this.mySeed) {
        problems.push(["seed", d.hand]);
      }
    }
    let seen = 0;
    for (const obs of game.seen) {
      const deck = decks.get(obs.hand);
      if (!deck) continue;
      seen += 1;
      let wrong = [];
      if (obs.kind === "deal" && kind === "knockout-whist") wrong = this.#whist(obs, deck, reshuffles, derive, shuffled);
      else if (obs.kind === "deal" && kind === "neuf") wrong = this.#neuf(obs, deck);
      else if (obs.kind === "deal") wrong = this.#krytNavalivat(obs, deck);
      else if (obs.kind === "drawn") wrong = this.#drawn(obs, deck);
      else if (obs.kind === "cuts") wrong = this.#cuts(obs, deck.slice(obs.remainder), reshuffles, derive, shuffled);
      else if (obs.kind === "under") wrong = cardIndex(obs.card) === krytNavalivatUnder(deck, obs.players, obs.swapped) ? [] : ["turned"];
      else if (obs.kind === "swap") wrong = same(indices(obs.got), [krytNavalivatUnder(deck, obs.players, false)]) ? [] : ["swap"];
      for (const what of wrong) problems.push([what, obs.hand]);
    }
    reshuffles.forEach((d, number) => {
      const cards = shuffled.get(number) || indices(d.deck);
      const derived = derive(`reshuffle ${number}`, d.seeds, cards);
      if (!d.deck || !same(indices(d.deck), derived)) problems.push(["deck", d.hand]);
    });
    game.checked = { decks: decks.size, reshuffles: reshuffles.length, seen };
    // One line a check and hand, in the order found.
    const keys = new Set();
    return problems.filter((p) => !keys.has(p.join()) && keys.add(p.join()));
  }

  /** Knockout Whist: the seat's hand, the turned card, and every cut card, following the
   * cuts through the remainder and the reshuffles of the set-aside cut cards (KOW-5.3). */
  #whist(obs, deck, reshuffles, derive, shuffled) {
    const wrong = [];
    const view = obs.view;
    const { hands, turned, remainder } = whistDeal(view);
    if (obs.asDealt && obs.seat !== null && !same(sorted(hands[obs.seat].map((p) => deck[p])), sorted(indices(view.hand)))) {
      wrong.push("hand");
    }
    if (turned >= 0 && view.turned && deck[turned] !== cardIndex(view.turned)) wrong.push("turned");
    return [...wrong, ...this.#cuts(obs, deck.slice(remainder), reshuffles, derive, shuffled)];
  }

  /** Knockout Whist: every cut card of the hand the view shows is the remainder's next card
   * (``stock``), through the reshuffles of the set-aside cut cards (KOW-5.3). */
  #cuts(obs, stock, reshuffles, derive, shuffled) {
    const ofHand = reshuffles.map((d, number) => ({ d, number })).filter(({ d }) => d.hand === obs.hand);
    let aside = [];
    for (const round of obs.view.cuts || []) {
      if (stock.length < round.length) {
        // The set-aside cut cards, shuffled, go beneath what is left (KOW-5.3).
        const next = ofHand.shift();
        if (!next) return ["cut"];
        shuffled.set(next.number, sorted(aside));
        stock.push(...derive(`reshuffle ${next.number}`, next.d.seeds, aside));
        aside = [];
      }
      for (const [, card] of round) {
        const want = stock.shift();
        if (want !== cardIndex(card)) return ["cut"];
        aside.push(want);
      }
    }
    return [];
  }

  /** Neuf: each hand the seat held this deal is the pile the deal and the exchanges so far
   * give it (NEUF-2.3, NEUF-3.2: an exchange swaps the seat's hand with the current spare). */
  #neuf(obs, deck) {
    const view = obs.view;
    if (obs.seat === null) return [];
    const piles = neufPiles(deck, view);
    const holder = new Map([...piles.keys()].map((k) => [k, k])); // who -> pile
    const held = [holder.get(obs.seat)];
    for (const [seat, choice] of view.exchanges || []) {
      if (choice !== "exchange") continue;
      const spare = holder.get("spare");
      holder.set("spare", holder.get(seat));
      holder.set(seat, spare);
      if (seat === obs.seat) held.push(spare);
    }
    // A view shows every hand the seat held this deal (NEUF-9); a 4-player deal has no
    // exchange, and its hand is the one dealt until the seat plays.
    const shown = view.held || (obs.asDealt ? [view.hand] : []);
    const wanted = held.map((pile) => sorted(piles.get(pile)));
    if (view.held && shown.length !== wanted.length) return ["hand"];
    if (shown.some((cards, i) => !same(sorted(indices(cards)), wanted[i]))) return ["hand"];
    return [];
  }

  /** Kryt'-navalivat': the seat's three cards, and the turned card under the stock: the deck's,
   * or the six of trumps once swapped in (KRYT-6.1). */
  #krytNavalivat(obs, deck) {
    const wrong = [];
    const view = obs.view;
    const hands = krytNavalivatHands(view);
    if (obs.asDealt && obs.seat !== null && !same(sorted(hands[obs.seat].map((p) => deck[p])), sorted(indices(view.hand)))) {
      wrong.push("hand");
    }
    if (view.trump_mode === "turned" && view.trump_card && cardIndex(view.trump_card) !== krytNavalivatUnder(deck, view.players, obs.swapped)) {
      wrong.push("turned");
    }
    return wrong;
  }

  /** Kryt'-navalivat': the cards this seat drew in one turn are the ones the stock's top
   * (and last its bottom) held; another seat's turn brings it none. */
  #drawn(obs, deck) {
    if (obs.stray.length) return ["drawn"];
    if (!obs.mine) return [];
    const start = 36 - 3 * obs.players;
    const taken = [];
    for (let k = start - obs.before; k < start - obs.after; k++) taken.push(krytNavalivatDraw(deck, obs.players, obs.turned, obs.swapped, start, k));
    return same(sorted(indices(obs.cards)), sorted(taken)) ? [] : ["drawn"];
  }
}

