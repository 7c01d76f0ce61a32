// @ts-check
// The free table's battle map: owners (or the GM) select a token and click a square, drag it
// there, or move it with the arrow keys; the server decides, a refused move shows its reason.
// The GM paints terrain by clicking. The drawing is the shared battle map's.
import { el, t } from "../../core.js";
import { battleMap, centreToken, mapFrame, terrainLegend } from "../../fight/map.js";
import { byId, mayAct, sendFor } from "./shared.js";

/** @typedef {import("./shared.js").Ctx} Ctx */
/** @typedef {import("./shared.js").Combatant} Combatant */

/** @type {{ selected: string | null, paint: string | null }} */
export const mapUi = { selected: null, paint: null };
/** @type {Map<string, string | null | Promise<string | null>>} */
const images = new Map();  // image id -> blob URL (or a pending promise)

/**
 * @param {Ctx} ctx
 * @param {string} id
 * @returns {Promise<string | null | undefined>}
 */
async function imageUrl(ctx, id) {
  if (images.has(id)) return images.get(id);
  const pending = fetch(`/api/tables/${ctx.table}/images/${id}`, { headers: { Authorization: "Bearer " + ctx.token } })
    .then((r) => (r.ok ? r.blob() : null))
    .then((blob) => { const url = blob ? URL.createObjectURL(blob) : null; images.set(id, url); ctx.rerender(); return url; });
  images.set(id, pending);
  return pending;
}

/**
 * @param {Ctx} ctx
 * @param {Combatant} c
 * @param {string} name
 */
function moveTo(ctx, c, name) {
  mapUi.selected = null;
  return sendFor(ctx, c, { kind: "move", combatant: c.id, to: name });
}

/**
 * @param {Ctx} ctx
 * @param {string} name
 */
function onSquare(ctx, name) {
  if (mapUi.paint && ctx.isGm) {
    return ctx.send({ kind: "paint", squares: [name], terrain: mapUi.paint === "plain" ? null : mapUi.paint });
  }
  const c = mapUi.selected && byId(ctx).get(mapUi.selected);
  if (c) return moveTo(ctx, c, name);
  return null;
}

/** @param {Ctx} ctx */
function tokens(ctx) {
  return (ctx.state.combatants || []).filter((/** @type {Combatant} */ c) => c.position).map((/** @type {Combatant} */ c) => ({
    id: c.id, name: c.name, position: c.position, squares: c.squares, colour: c.colour, movable: mayAct(ctx, c),
    classes: [mapUi.selected === c.id ? "is-selected" : "", ctx.state.fight?.current === c.id ? "is-current" : "", c.secret ? "is-secret" : ""].filter(Boolean),
    label: t("web.map.token", { name: c.name, square: c.position }),
    secret: Boolean(c.secret), conditions: (c.effects || []).map((/** @type {{ name: string }} */ x) => x.name),
  }));
}

/**
 * @param {Ctx} ctx
 * @param {Record<string, any>} token
 */
function onToken(ctx, token) {
  if (mapUi.paint && ctx.isGm) return onSquare(ctx, token.position);
  if (token.movable) { mapUi.selected = mapUi.selected === token.id ? null : token.id; ctx.rerender(); }
  else if (mapUi.selected) onSquare(ctx, token.position);
  return null;
}

/**
 * The map panel.
 * @param {Ctx} ctx
 */
export function renderMap(ctx) {
  const map = ctx.state.map;
  if (map.image && !images.has(map.image)) imageUrl(ctx, map.image);
  const url = map.image ? images.get(map.image) : null;
  const board = battleMap({
    prefix: "fd", width: map.width, height: map.height, terrain: map.terrain,
    terrainText: (/** @type {string} */ kind) => t("web.map.terrain." + kind), image: typeof url === "string" ? url : null,
    label: t("web.map.map_label", { width: map.width, height: map.height }),
    tokens: tokens(ctx),
    onSquare: (/** @type {string} */ name) => onSquare(ctx, name),
    onToken: (/** @type {Record<string, any>} */ token) => onToken(ctx, token),
    onStep: (/** @type {Record<string, any>} */ token, /** @type {string} */ to) => moveTo(ctx, /** @type {Combatant} */ (byId(ctx).get(token.id)), to).then(() => document.getElementById("fd-token-" + token.id)?.focus()),
    onDrop: (/** @type {Record<string, any>} */ token, /** @type {string} */ to) => { if (!mapUi.paint) moveTo(ctx, /** @type {Combatant} */ (byId(ctx).get(token.id)), to); },
  });
  const hint = mapUi.selected ? t("web.freedice.pick_square", { name: byId(ctx).get(mapUi.selected)?.name || "" })
    : mapUi.paint && ctx.isGm ? t("web.freedice.painting", { terrain: t("web.map.terrain." + mapUi.paint) })
      : t("web.freedice.map_hint");
  return el("section", { class: "card", id: "fd-map-box", "aria-labelledby": "fd-map-heading" },
    el("h2", { id: "fd-map-heading" }, t("web.freedice.map")),
    el("p", { class: "muted small-print", id: "fd-map-hint" }, hint, " ", t("web.map.map_scale", { m: map.square_m, diagonal: t("web.map.diagonal." + map.diagonal) })),
    // The shared map module takes the centre untyped so far.
    mapFrame(board, /** @type {any} */ (centreToken("fd", ctx.state.combatants || [], ctx.state.fight?.current, ctx.isGm ? [] : (ctx.state.combatants || []).filter((/** @type {Combatant} */ c) => c.mine).map((/** @type {Combatant} */ c) => c.id)))),
    terrainLegend(map.terrain_kinds, (/** @type {string} */ kind) => t("web.map.terrain." + kind)));
}
