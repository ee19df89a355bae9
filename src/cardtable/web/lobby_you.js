/*
 * The lobby's "You" panel (#you): who this browser plays as. A guest may keep a name on this
 * device (#you-name, #you-keep: the server makes a player and this browser keeps its key,
 * me.js) or sign in with a passkey made on another device (#you-sign-in); a known player sees
 * their name, a link to their page (#you-page) and the leaderboards (#you-board), and may
 * sign out here (#you-out, which forgets the key on this device only). The open tables'
 * name field (#open-name) starts as the player's name.
 */

import { t } from "./i18n.js";
import { h } from "./common.js";
import { knownPlayer, checkPlayer, makePlayer, forgetPlayer, signInWithPasskey, passkeyBlocker } from "./me.js";

const $ = (id) => document.getElementById(id);
let failed = () => {};

/** `showFailure(text)`: say why something did not work. */
export async function initYou(showFailure) {
  failed = showFailure;
  render();
  await checkPlayer();
  render();
}

function render() {
  const p = knownPlayer();
  const box = $("you-body");
  if (p) {
    if (!$("open-name").value) $("open-name").value = p.name;
    box.replaceChildren(
      h("p", { class: "you-known" }, t("me.playing_as", { name: p.name })),
      h(
        "p",
        { class: "you-links" },
        h("a", { id: "you-page", href: `/players/${encodeURIComponent(p.player)}` }, t("me.your_page")),
        " · ",
        h("a", { id: "you-board", href: "/leaderboard" }, t("me.leaderboards")),
        " · ",
        h("button", { type: "button", id: "you-out", onclick: signOut }, t("me.sign_out")),
      ),
    );
    return;
  }
  const name = h("input", { type: "text", id: "you-name", maxlength: "40", autocomplete: "nickname" });
  const keep = h("button", { type: "button", id: "you-keep", class: "primary" }, t("me.keep"));
  keep.addEventListener("click", () => keepName(name, keep));
  const blocker = passkeyBlocker();
  const signIn = h("button", { type: "button", id: "you-sign-in", disabled: blocker ? "" : null }, t("me.sign_in"));
  signIn.addEventListener("click", () => passkeySignIn(signIn));
  box.replaceChildren(
    h("p", { class: "note" }, t("me.guest_note")),
    h("div", { class: "field you-keep" }, h("label", { for: "you-name" }, t("lobby.your_name")), name, keep),
    h("p", { class: "you-sign-in" }, signIn, " ", h("span", { class: "note" }, t(blocker || "me.sign_in_note"))),
  );
}

async function keepName(input, button) {
  const name = input.value.trim();
  if (!name) {
    input.focus();
    failed(t("me.name_needed"));
    return;
  }
  button.disabled = true;
  try {
    await makePlayer(name);
    render();
  } catch (err) {
    failed(`${t("colon", { label: t("me.keep_failed") })} ${err.message}`);
    button.disabled = false;
  }
}

async function passkeySignIn(button) {
  button.disabled = true;
  try {
    await signInWithPasskey();
    render();
  } catch (err) {
    // The person closing the browser's passkey dialog is no failure to report.
    if (err.name !== "NotAllowedError" && err.name !== "AbortError") {
      failed(`${t("colon", { label: t("me.sign_in_failed") })} ${err.message}`);
    }
    button.disabled = false;
  }
}

function signOut() {
  if (!confirm(t("me.sign_out_confirm"))) return;
  forgetPlayer();
  render();
}
