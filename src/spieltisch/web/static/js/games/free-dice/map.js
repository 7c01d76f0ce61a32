// The battle map: an SVG grid with terrain, the background image and the tokens. Owners (or
// the GM) select a token and click a square, drag it there, or move it with the arrow keys;
// the server decides, a refused move shows its reason. The GM paints terrain by clicking.
import { el, svg, t } from "../../core.js";
import { byId, mayAct, sendFor } from "./shared.js";

const CELL = 40;
export const mapUi = { selected: null, paint: null };
const images = new Map();  // image id -> blob URL (or a pending promise)

function fileName(x) {
  let letters = "";
  let n = x + 1;
  while (n) { const rest = (n - 1) % 26; letters = String.fromCharCode(97 + rest) + letters; n = Math.floor((n - 1) / 26); }
  return letters;
}

/** The name of square (x, y): a1 is the bottom left. */
export function squareName(x, y) {
  return fileName(x) + (y + 1);
}

function parseSquare(name) {
  const m = /^([a-z]+)(\d+)$/.exec(name || "");
  if (!m) return null;
  let x = 0;
  for (const ch of m[1]) x = x * 26 + (ch.charCodeAt(0) - 96);
  return { x: x - 1, y: Number(m[2]) - 1 };
}

async function imageUrl(ctx, id) {
  if (images.has(id)) return images.get(id);
  const pending = fetch(`/api/tables/${ctx.table}/images/${id}`, { headers: { Authorization: "Bearer " + ctx.token } })
    .then((r) => (r.ok ? r.blob() : null))
    .then((blob) => { const url = blob ? URL.createObjectURL(blob) : null; images.set(id, url); ctx.rerender(); return url; });
  images.set(id, pending);
  return pending;
}

function moveTo(ctx, c, name) {
  mapUi.selected = null;
  return sendFor(ctx, c, { kind: "move", combatant: c.id, to: name });
}

function onSquare(ctx, name) {
  if (mapUi.paint && ctx.isGm) {
    return ctx.send({ kind: "paint", squares: [name], terrain: mapUi.paint === "plain" ? null : mapUi.paint });
  }
  const c = mapUi.selected && byId(ctx).get(mapUi.selected);
  if (c) return moveTo(ctx, c, name);
  return null;
}

/** The map panel. */
export function renderMap(ctx) {
  const map = ctx.state.map;
  const w = map.width;
  const h = map.height;
  const top = (y, side = 1) => (h - y - side) * CELL;
  const layer = [];
  const url = map.image ? images.get(map.image) : null;
  if (map.image && !images.has(map.image)) imageUrl(ctx, map.image);
  if (typeof url === "string") {
    layer.push(svg("image", { href: url, x: 0, y: 0, width: w * CELL, height: h * CELL, preserveAspectRatio: "none", class: "fd-image", id: "fd-image" }));
  }
  for (let y = 0; y < h; y += 1) {
    for (let x = 0; x < w; x += 1) {
      const name = squareName(x, y);
      const terrain = map.terrain[name];
      layer.push(svg("rect", {
        x: x * CELL, y: top(y), width: CELL, height: CELL, id: "fd-sq-" + name,
        class: "fd-square" + (terrain ? " terrain-" + terrain : ""), dataset: { square: name },
        onclick: () => onSquare(ctx, name),
      }, svg("title", {}, name + (terrain ? " · " + t("web.freedice.terrain." + terrain) : ""))));
    }
  }
  for (const c of ctx.state.combatants || []) {
    if (!c.position) continue;
    const at = parseSquare(c.position);
    const side = c.squares;
    const movable = mayAct(ctx, c);
    const current = ctx.state.fight?.current === c.id;
    const token = svg("g", {
      id: "fd-token-" + c.id, class: "fd-token" + (mapUi.selected === c.id ? " is-selected" : "") + (current ? " is-current" : "") + (c.secret ? " is-secret" : ""),
      tabindex: movable ? 0 : null, role: movable ? "button" : "img",
      "aria-label": t("web.freedice.token", { name: c.name, square: c.position }),
      dataset: { combatant: c.id, square: c.position },
      onclick: (e) => {
        e.stopPropagation();
        if (mapUi.paint && ctx.isGm) return onSquare(ctx, c.position);
        if (movable) { mapUi.selected = mapUi.selected === c.id ? null : c.id; ctx.rerender(); }
        else if (mapUi.selected) onSquare(ctx, c.position);
        return null;
      },
      onkeydown: (e) => {
        if (!movable) return;
        const step = { ArrowUp: [0, 1], ArrowDown: [0, -1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] }[e.key];
        if (!step) return;
        e.preventDefault();
        const to = { x: at.x + step[0], y: at.y + step[1] };
        if (to.x < 0 || to.y < 0) return;
        moveTo(ctx, c, squareName(to.x, to.y)).then(() => document.getElementById("fd-token-" + c.id)?.focus());
      },
      onpointerdown: (e) => { if (movable && !mapUi.paint) { mapUi.dragging = c.id; e.target.releasePointerCapture?.(e.pointerId); } },
    },
    svg("rect", { x: at.x * CELL + 3, y: top(at.y, side) + 3, width: side * CELL - 6, height: side * CELL - 6, rx: side * CELL / 2, fill: c.colour, class: "fd-token-body" }),
    svg("text", { x: (at.x + side / 2) * CELL, y: top(at.y, side) + side * CELL / 2, class: "fd-token-text", "text-anchor": "middle", "dominant-baseline": "central" }, (c.name || "?").slice(0, 1).toUpperCase()),
    svg("title", {}, c.name));
    layer.push(token);
  }
  const board = svg("svg", {
    id: "fd-map", class: "fd-map", viewBox: `0 0 ${w * CELL} ${h * CELL}`, role: "group",
    "aria-label": t("web.freedice.map_label", { width: w, height: h }),
    onpointerup: (e) => {
      const dragged = mapUi.dragging;
      mapUi.dragging = null;
      if (!dragged) return;
      const square = e.target?.dataset?.square || e.target?.closest?.("[data-square]")?.dataset?.square;
      const c = byId(ctx).get(dragged);
      if (c && square && square !== c.position) moveTo(ctx, c, square);
    },
  }, ...layer);
  const hint = mapUi.selected ? t("web.freedice.pick_square", { name: byId(ctx).get(mapUi.selected)?.name || "" })
    : mapUi.paint && ctx.isGm ? t("web.freedice.painting", { terrain: t("web.freedice.terrain." + mapUi.paint) })
      : t("web.freedice.map_hint");
  return el("section", { class: "card", id: "fd-map-box", "aria-labelledby": "fd-map-heading" },
    el("h2", { id: "fd-map-heading" }, t("web.freedice.map")),
    el("p", { class: "muted small-print", id: "fd-map-hint" }, hint, " ", t("web.freedice.map_scale", { m: map.square_m, diagonal: t("web.freedice.diagonal." + map.diagonal) })),
    el("div", { class: "fd-map-wrap" }, board),
    el("ul", { class: "fd-legend" }, ...map.terrain_kinds.map((kind) => el("li", {}, el("span", { class: "fd-key terrain-" + kind, "aria-hidden": "true" }), t("web.freedice.terrain." + kind)))));
}
