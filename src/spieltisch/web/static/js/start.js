// @ts-check
// The start page: create a table, copy its invite links, list the tables this browser holds.
import { api, copyText, el, forgetTable, guarded, initLanguageSwitch, inviteUrl, myTables, saveTable, showAlert, systemName, t, tFirst } from "./core.js";
import { loadGame } from "./games.js";
import { optionFields, readOptions } from "./options.js";

/** @type {import("./options.js").System[]} */
let systems = [];

/**
 * The element of `id` on this page (the page's template holds it).
 * @param {string} id
 * @returns {any}
 */
function byId(id) {
  return document.getElementById(id);
}

/**
 * @param {string} kind
 * @param {string} url
 */
function inviteRow(kind, url) {
  const id = "invite-" + kind;
  const input = el("input", { id, readonly: true, value: url, class: "invite-url" });
  return el("div", { class: "invite" },
    el("label", { for: id }, t("web.invite." + kind)),
    el("div", { class: "row" }, input,
      el("button", { type: "button", onclick: () => copyText(url, input) }, t("web.invite.copy"))));
}

function renderMine() {
  const list = byId("my-tables");
  const entries = Object.entries(myTables()).sort((a, b) => (b[1].saved || 0) - (a[1].saved || 0));
  list.replaceChildren(...entries.map(([id, entry]) =>
    el("li", { class: "table-item" },
      el("a", { href: "/t/" + encodeURIComponent(id) }, entry.title || id),
      el("span", { class: "muted" }, systemName(entry.system || ""), " · ", t("web.role." + (entry.role || "player"))),
      el("button", {
        type: "button", class: "link", "aria-label": t("web.start.forget_label", { title: entry.title || id }),
        onclick: () => { forgetTable(id); renderMine(); },
      }, t("web.start.forget")))));
  byId("my-tables-empty").hidden = entries.length > 0;
}

async function renderOptions() {
  const id = byId("new-system").value;
  const box = byId("new-options");
  const system = systems.find((s) => s.id === id);
  const game = await loadGame(id);
  if (byId("new-system").value !== id) return;  // chosen again meanwhile
  const fields = optionFields(/** @type {import("./options.js").System} */ (system), game);
  box.replaceChildren(...(fields.length ? [el("legend", {}, t("web.start.options")), ...fields] : []));
  box.hidden = fields.length === 0;
  box.dataset.system = id;  // whose options the fields are (tests wait on it)
}

/** @param {SubmitEvent} event */
async function create(event) {
  event.preventDefault();
  const form = /** @type {any} */ (event.target);
  const system = form.system.value;
  const title = form.title.value.trim() || tFirst(["web.start.default_title"], { system: systemName(system) }, systemName(system));
  const language = form.language.value;
  let options;
  try {
    options = readOptions(/** @type {import("./options.js").System} */ (systems.find((s) => s.id === system)), await loadGame(system));
  } catch (error) {
    showAlert(/** @type {Error} */ (error).message);
    return;
  }
  const name = form.name.value.trim();
  const created = await guarded(() => api("POST", "/api/tables", { body: { system, language, title, options, name } }));
  if (!created) return;
  saveTable(created.table, {
    token: created.token, participant: created.participant, role: "gm", title, system,
    invites: created.invites, name,
  });
  const box = byId("created");
  const tableUrl = "/t/" + encodeURIComponent(created.table);
  box.replaceChildren(
    el("h2", {}, t("web.start.created", { title })),
    inviteRow("player", inviteUrl(created.table, created.invites.player)),
    inviteRow("spectator", inviteUrl(created.table, created.invites.spectator)),
    el("p", {}, el("a", { class: "button primary", href: tableUrl, id: "open-table" }, t("web.start.open"))));
  box.hidden = false;
  box.querySelector("#open-table").focus();
  renderMine();
}

async function init() {
  initLanguageSwitch();
  renderMine();
  const select = byId("new-system");
  const answer = await guarded(() => api("GET", "/api/systems"));
  systems = (Array.isArray(answer) ? answer : answer?.systems || []).map((/** @type {string | import("./options.js").System} */ s) => (typeof s === "string" ? { id: s } : s));
  const preferred = ["magical-kitties", "kilkenny"];
  systems.sort((a, b) => {
    const ia = preferred.indexOf(a.id), ib = preferred.indexOf(b.id);
    return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib) || a.id.localeCompare(b.id);
  });
  select.replaceChildren(...systems.map((s) => el("option", { value: s.id }, systemName(s.id))));
  select.addEventListener("change", renderOptions);
  renderOptions();
  byId("new-table").addEventListener("submit", create);
}

init();
