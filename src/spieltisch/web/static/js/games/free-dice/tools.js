// @ts-check
// The tools below the map: add a combatant (the GM) or one's own character (a player), put an
// effect on a combatant, and the GM's map settings, terrain painting and background image.
import { slug } from "../../helpers.js";
import { ApiError, clearAlert, el, showAlert, t } from "../../core.js";
import { checkField, field, numberInput, readInt, select, textInput } from "../../forms.js";
import { mapUi } from "./map.js";
import { live, on } from "../../morph.js";
import { mayAct, sendFor } from "./shared.js";
import { commandForm } from "../../schemaform.js";

/** @typedef {import("./shared.js").Ctx} Ctx */
/** @typedef {import("./shared.js").Combatant} Combatant */

/** What the forms hold between redraws (as typed, strings where the input gives one).
 * @type {Record<string, any>} */
const draft = {
  name: "", side: "foes", initiative: "1W20", tiebreak: "", tracks: "LeP 30", colour: "#cc3333", size: "medium", at: "", speed: 6,
  secret: false, claimable: false,
  effect: { target: "", name: "", until: "rounds", rounds: 1, who: "", level: "" },
};

const SIZES = ["tiny", "small", "medium", "large", "huge", "gargantuan"];

/**
 * `LeP 30, AsP 12/20` → tracks; throws a localized error for a part it cannot read.
 * @param {string} text
 * @returns {{ name: string, current?: number, maximum: number }[]}
 */
export function parseTracks(text) {
  const tracks = [];
  for (const part of text.split(",").map((/** @type {string} */ p) => p.trim()).filter(Boolean)) {
    const m = /^(.+?)\s+(-?\d+)(?:\s*\/\s*(\d+))?$/.exec(part);
    if (!m) throw new Error(t("web.freedice.bad_tracks", { part }));
    const first = Number(m[2]);
    tracks.push(m[3] != null ? { name: m[1], current: first, maximum: Number(m[3]) } : { name: m[1], maximum: first });
  }
  return tracks;
}

/**
 * Keep `draft[key]` as the input is changed.
 * @template {HTMLElement} E
 * @param {E} input
 * @param {string} key
 * @param {(e: any) => unknown} [read]
 * @returns {E}
 */
function bind(input, key, read = (e) => e.target.value) {
  on(input, "input", (/** @type {Event} */ e) => { draft[key] = read(e); });
  on(input, "change", (/** @type {Event} */ e) => { draft[key] = read(e); });
  return input;
}

/** @param {Ctx} ctx */
function addForm(ctx) {
  const gm = ctx.isGm;
  const fields = [
    field(t("web.freedice.f.name"), bind(textInput("fd-add-name", draft.name, { maxlength: 80, required: true }), "name")),
    gm ? field(t("web.freedice.f.side"), bind(textInput("fd-add-side", draft.side, { maxlength: 80 }), "side")) : null,
    field(t("web.freedice.f.initiative"), bind(textInput("fd-add-ini", draft.initiative, { maxlength: 100 }), "initiative")),
    field(t("web.freedice.f.tracks"), bind(textInput("fd-add-tracks", draft.tracks, { maxlength: 200 }), "tracks")),
    field(t("web.freedice.f.colour"), bind(el("input", { id: "fd-add-colour", type: "color", value: draft.colour }), "colour")),
    field(t("web.freedice.f.size"), bind(select("fd-add-size", SIZES.map((s) => [s, t("web.freedice.size." + s)]), draft.size), "size")),
    field(t("web.freedice.f.at"), bind(textInput("fd-add-at", draft.at, { maxlength: 8, placeholder: "a1" }), "at")),
    gm ? field(t("web.freedice.f.speed"), bind(numberInput("fd-add-speed", draft.speed, { min: 0, max: 100 }), "speed")) : null,
    field(t("web.freedice.f.tiebreak"), bind(numberInput("fd-add-tiebreak", draft.tiebreak, { min: -1000, max: 1000 }), "tiebreak")),
    gm ? checkField("fd-add-secret", t("web.freedice.f.secret"), draft.secret, { onchange: (/** @type {any} */ e) => { draft.secret = e.target.checked; } }) : null,
    gm ? checkField("fd-add-claimable", t("web.freedice.f.claimable"), draft.claimable, { onchange: (/** @type {any} */ e) => { draft.claimable = e.target.checked; } }) : null,
  ];
  const submit = async (/** @type {SubmitEvent} */ e) => {
    e.preventDefault();
    clearAlert();
    let tracks;
    try { tracks = parseTracks(draft.tracks); } catch (error) { showAlert(/** @type {Error} */ (error).message); return; }
    const name = draft.name.trim();
    if (!name) { showAlert(t("web.freedice.name_missing")); return; }
    const command = {
      kind: gm ? "add_combatant" : "add_character",
      id: slug(name, new Set((ctx.state.combatants || []).map((/** @type {Combatant} */ c) => c.id)), "c"),
      name, initiative: draft.initiative.trim() || "1d20", tracks, colour: draft.colour, size: draft.size,
      at: draft.at.trim().toLowerCase() || null,
      tiebreak: readInt({ value: String(draft.tiebreak) }),
    };
    if (gm) Object.assign(command, { side: draft.side.trim() || "foes", speed: Number(draft.speed) || 0, secret: draft.secret, claimable: draft.claimable });
    const answer = await ctx.send(command, draft.secret && gm ? { hidden: true } : {});
    if (answer) { draft.name = ""; ctx.rerender(); }
  };
  return el("form", { class: "form", id: "fd-add", onsubmit: submit },
    el("h3", {}, t(gm ? "web.freedice.add_combatant" : "web.freedice.add_character")), ...fields,
    el("button", { type: "submit", class: "primary", id: "fd-add-submit" }, t("web.freedice.add")));
}

/** @param {Ctx} ctx */
function effectForm(ctx) {
  /** @type {Combatant[]} */
  const mine = (ctx.state.combatants || []).filter((/** @type {Combatant} */ c) => mayAct(ctx, c));
  if (!mine.length) return null;
  const e = draft.effect;
  if (!mine.some((c) => c.id === e.target)) e.target = mine[0].id;
  /** @type {Combatant[]} */
  const everyone = ctx.state.combatants || [];
  const set = (/** @type {string} */ key) => (/** @type {any} */ ev) => { e[key] = ev.target.value; if (key === "until") ctx.rerender(); };
  const fields = [
    field(t("web.freedice.f.target"), select("fd-eff-target", mine.map((c) => [c.id, c.name]), e.target, { onchange: set("target") })),
    field(t("web.freedice.f.effect"), textInput("fd-eff-name", e.name, { maxlength: 80, required: true, oninput: set("name") })),
    field(t("web.freedice.f.until"), select("fd-eff-until", ["rounds", "turn_start", "turn_end", "removed"].map((u) => [u, t("web.freedice.duration." + u)]), e.until, { onchange: set("until") })),
    e.until === "rounds" ? field(t("web.freedice.f.rounds"), numberInput("fd-eff-rounds", e.rounds, { min: 1, max: 1000, oninput: set("rounds") })) : null,
    e.until === "turn_start" || e.until === "turn_end"
      ? field(t("web.freedice.f.who"), select("fd-eff-who", [["", t("web.freedice.f.who_target")], ...everyone.map((c) => /** @type {[string, string]} */ ([c.id, c.name]))], e.who, { onchange: set("who") })) : null,
    field(t("web.freedice.f.level"), numberInput("fd-eff-level", e.level, { min: 1, max: 99, oninput: set("level") })),
  ];
  const submit = async (/** @type {SubmitEvent} */ ev) => {
    ev.preventDefault();
    const name = e.name.trim();
    if (!name) { showAlert(t("web.freedice.effect_missing")); return; }
    const target = everyone.find((c) => c.id === e.target);
    /** @type {Record<string, unknown>} */
    const duration = { until: e.until };
    if (e.until === "rounds") duration.rounds = Math.max(1, Number(e.rounds) || 1);
    if ((e.until === "turn_start" || e.until === "turn_end") && e.who) duration.who = e.who;
    const level = e.level === "" ? null : Number(e.level);
    const answer = await sendFor(ctx, target, { kind: "apply_effect", target: e.target, name, level, duration });
    if (answer) { e.name = ""; ctx.rerender(); }
  };
  return el("form", { class: "form", id: "fd-effect-form", onsubmit: submit },
    el("h3", {}, t("web.freedice.add_effect")), ...fields,
    el("button", { type: "submit", id: "fd-eff-submit" }, t("web.freedice.apply_effect")));
}

/**
 * @param {Ctx} ctx
 * @param {HTMLInputElement} input
 */
async function upload(ctx, input) {
  const file = input.files && input.files[0];
  if (!file) { showAlert(t("web.freedice.no_file")); return; }
  clearAlert();
  const response = await fetch(`/api/tables/${ctx.table}/images?lang=${document.documentElement.lang || "en"}`, {
    method: "POST", body: file, headers: { Authorization: "Bearer " + ctx.token, "Content-Type": "application/octet-stream" },
  });
  const answer = await response.json().catch(() => null);
  if (!response.ok) {
    const error = answer?.error;
    showAlert(error?.message || t("web.freedice.upload_failed"));
    return;
  }
  await ctx.send({ kind: "set_image", image: answer.id });
}

/** @param {Ctx} ctx */
function mapTools(ctx) {
  const map = ctx.state.map;
  const file = el("input", { id: "fd-image-file", type: "file", accept: "image/png,image/jpeg,image/webp" });
  const paint = select("fd-paint", [["", t("web.freedice.paint_off")], ...["plain", ...map.terrain_kinds].map((/** @type {string} */ k) => /** @type {[string, string]} */ ([k, t("web.map.terrain." + k)]))], mapUi.paint || "", {
    "data-draft": "off",  // a mode of the map, not a form being filled in
    onchange: (/** @type {any} */ e) => { mapUi.paint = e.target.value || null; mapUi.selected = null; ctx.rerender(); },
  });
  // the map's settings: the form of the command `set_map`, drawn from its schema
  const settings = commandForm({
    system: "free-dice", kind: "set_map", id: "fd-map-form", prefix: "fd-map-", inline: false,
    title: el("h3", {}, t("web.freedice.map_settings")), submit: t("web.freedice.apply_map"),
    values: { width: map.width, height: map.height, square_m: map.square_m, diagonal: map.diagonal },
    labels: { width: "web.freedice.f.width", height: "web.freedice.f.height", square_m: "web.freedice.f.square", diagonal: "web.freedice.f.diagonal" },
    choices: (_path, value) => "web.map.diagonal." + value,
    send: (command) => ctx.send(command),
  });
  return el("div", { class: "fd-gm" },
    settings,
    field(t("web.freedice.f.paint"), paint),
    el("div", { class: "form" }, el("h3", {}, t("web.freedice.image")),
      field(t("web.freedice.f.image"), file),
      el("div", { class: "row" },
        el("button", { type: "button", id: "fd-image-upload", onclick: () => upload(ctx, live(file)).catch((error) => showAlert(error instanceof ApiError ? error.message : String(error))) }, t("web.freedice.upload")),
        map.image ? el("button", { type: "button", id: "fd-image-remove", class: "link", onclick: () => ctx.send({ kind: "set_image", image: null }) }, t("web.freedice.remove_image")) : null)));
}

/**
 * The tools panel (nothing for spectators).
 * @param {Ctx} ctx
 */
export function renderTools(ctx) {
  if (ctx.me.role === "spectator") return el("div", { id: "fd-tools" });
  return el("section", { class: "card", id: "fd-tools", "aria-labelledby": "fd-tools-heading" },
    el("h2", { id: "fd-tools-heading" }, t(ctx.isGm ? "web.freedice.gm_tools" : "web.freedice.tools")),
    el("div", { class: "fd-tool-grid" }, addForm(ctx), effectForm(ctx), ctx.isGm ? mapTools(ctx) : null));
}
