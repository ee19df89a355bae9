// The page of an address that leads nowhere (the server answers it with 404): a mistyped
// table link, a game with no rules, any other page. It says which, in the reader's
// language, and leads back to the lobby.
// Hooks: #title, #notfound-text (data-kind: "table", "rules" or "page"), #lobby-link, #lang.

import { initI18n, t, applyI18n, langSelect } from "./i18n.js";

function kind() {
  const first = location.pathname.split("/").filter(Boolean)[0];
  if (first === "t") return "table";
  if (first === "rules") return "rules";
  return "page";
}

async function main() {
  await initI18n();
  applyI18n();
  langSelect(document.getElementById("lang"));
  const which = kind();
  const text = document.getElementById("notfound-text");
  text.dataset.kind = which;
  text.textContent = t(`notfound.${which}`);
  document.title = `${t("notfound.title")} · ${t("app_name")}`;
}

main();
