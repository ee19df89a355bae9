// Fair deals (docs/fairness.md): the page's own implementation of the construction, so that it
// checks the server without trusting it. Pure JS over sha256.js: crypto.subtle exists only in
// secure contexts, and a table reached over plain http on a LAN address must check too.

import { sha256Bytes } from "./sha256.js";

/** Games per hash chain of server seeds: game CHAIN_LENGTH + 1 starts a new chain. */
export const CHAIN_LENGTH = 1000;

const SUITS = "CDHS";
const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
const encoder = new TextEncoder();

export function hexBytes(hex) {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

function concat(a, b) {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/** HMAC-SHA256 (RFC 2104) of `message` bytes under `key` bytes; the digest's bytes. */
export function hmacSha256(key, message) {
  const block = new Uint8Array(64);
  block.set(key.length > 64 ? hexBytes(sha256Bytes(key)) : key);
  const inner = hexBytes(sha256Bytes(concat(block.map((b) => b ^ 0x36), message)));
  return hexBytes(sha256Bytes(concat(block.map((b) => b ^ 0x5c), inner)));
}

/** The commitment of a server seed (hex): SHA-256 of its 32 bytes, as hex. */
export function commitmentOfSeed(serverSeed) {
  return sha256Bytes(hexBytes(serverSeed));
}

/** Card index (suit * 13 + rank - 2, suits C D H S) of card text such as "10S" or "ts". */
export function cardIndex(text) {
  const t = String(text).toUpperCase();
  const suit = SUITS.indexOf(t.slice(-1));
  const rankText = t.slice(0, -1) === "T" ? "10" : t.slice(0, -1);
  const rank = RANKS.indexOf(rankText);
  return suit < 0 || rank < 0 ? -1 : suit * 13 + rank;
}

/** The game's pack in card-index order. */
export function packOf(game) {
  const all = [...Array(52).keys()];
  return game === "kryt-navalivat" ? all.filter((c) => c % 13 >= 4) : all;
}

/** The cards (indices) in the order the construction deals them, index 0 first. `dealer` is
 * the game's first dealer (construction 2), or null for a game of construction 1. */
export function fairShuffle(serverSeed, table, game, label, seeds, cards, dealer) {
  const key = hexBytes(serverSeed);
  const head = dealer == null ? `cardtable-deal:${table}:${game}` : `cardtable-deal-2:${table}:${game}:${dealer}`;
  const prefix = `${head}:${label}:${seeds.map((s) => s ?? "").join(",")}`;
  let block = 0;
  let words = [];
  const next = () => {
    if (!words.length) {
      const digest = hmacSha256(key, encoder.encode(`${prefix}:${block++}`));
      const view = new DataView(digest.buffer);
      words = [0, 4, 8, 12, 16, 20, 24, 28].map((at) => view.getUint32(at));
    }
    return words.shift();
  };
  const order = [...cards].sort((a, b) => a - b);
  for (let i = order.length - 1; i > 0; i--) {
    const m = i + 1;
    const limit = 2 ** 32 - (2 ** 32 % m);
    let word = next();
    while (word >= limit) word = next();
    const j = word % m;
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}

/** A fresh seed for this page: 16 random bytes, base64url. */
export function freshSeed() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
