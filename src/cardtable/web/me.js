/*
 * Who this browser plays as (docs/server.md, "Players"): a player the server knows, kept in
 * localStorage as {player, name, key}. The key is the device's secret: it goes to the server
 * only in an Authorization header, never in an address. A seat joined by its link becomes
 * the player's (claimSeat), so that the game counts in their history and rating. A passkey
 * (WebAuthn) signs the player in on another device, which then gets a key of its own.
 */

import { num } from "./i18n.js";

const PLAYER = "cardtable.player";

/** A rating as the pages write it: one decimal, in the page's digits. */
export function rating(x) {
  return num(Math.round(x * 10) / 10);
}

/** The player this browser plays as, or null. */
export function knownPlayer() {
  try {
    const p = JSON.parse(localStorage.getItem(PLAYER) || "null");
    return p && typeof p.player === "string" && typeof p.key === "string" ? p : null;
  } catch {
    return null;
  }
}

export function rememberPlayer(answer) {
  localStorage.setItem(PLAYER, JSON.stringify({ player: answer.player, name: answer.name, key: answer.key }));
}

export function forgetPlayer() {
  localStorage.removeItem(PLAYER);
}

function auth() {
  const p = knownPlayer();
  return p ? { Authorization: `Bearer ${p.key}` } : {};
}

/** A JSON request to the API (as this player, if known): the answer's body, or an Error
 * with the server's `code` and words. */
export async function api(path, { method = "GET", body = undefined } = {}) {
  const headers = { ...auth() };
  if (method !== "GET") headers["Content-Type"] = "application/json";
  const r = await fetch(path, { method, headers, body: method === "GET" ? undefined : JSON.stringify(body ?? {}) });
  const data = await r.json().catch(() => ({}));
  if (!r.ok) {
    const err = new Error(data.message || `HTTP ${r.status}`);
    err.code = data.error || String(r.status);
    err.status = r.status;
    throw err;
  }
  return data;
}

/** Become a player named `name` on this device. */
export async function makePlayer(name) {
  const made = await api("/api/players", { method: "POST", body: { name } });
  rememberPlayer(made);
  return made;
}

/** Check with the server that this device's player still exists (an operator may have
 * removed them): the player, or null (forgotten here too). Kept as is if the server does
 * not answer. */
export async function checkPlayer() {
  const p = knownPlayer();
  if (!p) return null;
  try {
    const me = await api("/api/players/me");
    rememberPlayer({ ...p, name: me.name });
    return knownPlayer();
  } catch (err) {
    if (err.status === 401) {
      forgetPlayer();
      return null;
    }
    return p;
  }
}

export async function renamePlayer(name) {
  const p = knownPlayer();
  const done = await api("/api/players/me/name", { method: "POST", body: { name } });
  rememberPlayer({ ...p, name: done.name });
  return done;
}

/** Make the seat this page joined with its link the player's; quietly nothing for a
 * guest, and nothing said if another player's already (that one's history has it). */
export async function claimSeat(table, seat, token) {
  if (!knownPlayer()) return null;
  try {
    return await api(`/api/tables/${encodeURIComponent(table)}/seats/${seat}/player`, {
      method: "POST",
      body: { token },
    });
  } catch {
    return null;
  }
}

/** Why passkeys cannot be used on this page, as an i18n key, or null if they can:
 * WebAuthn needs a secure page reached by name (an IP address has no RP ID). */
export function passkeyBlocker() {
  if (!window.PublicKeyCredential || !PublicKeyCredential.parseCreationOptionsFromJSON) return "me.passkey_unsupported";
  if (/^[\d.]+$|^\[|:/.test(location.hostname)) return "me.passkey_by_name";
  if (!window.isSecureContext) return "me.passkey_insecure";
  return null;
}

/** Add a passkey for this device's player (the browser asks the person to make one). */
export async function addPasskey() {
  const options = await api("/api/passkeys/options", { method: "POST" });
  const made = await navigator.credentials.create({
    publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(options),
  });
  return api("/api/passkeys", { method: "POST", body: made.toJSON() });
}

/** Sign in with a passkey: this device becomes the passkey's player. */
export async function signInWithPasskey() {
  const options = await api("/api/sign-in/options", { method: "POST" });
  const got = await navigator.credentials.get({
    publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(options),
  });
  const answer = await api("/api/sign-in", { method: "POST", body: got.toJSON() });
  rememberPlayer(answer);
  return answer;
}
