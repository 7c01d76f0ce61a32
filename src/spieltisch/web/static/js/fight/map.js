// The battle map every fighting game draws: an SVG grid of named squares (a1 is the bottom
// left), terrain, an optional background image, overlays (a route, reach, marks) and the
// tokens by footprint. It knows no rules: a game hands in the squares, tokens and overlays
// from its view and gets the clicks, drags and arrow keys back as square names.
import { el, svg, t } from "../core.js";
import { zoomFrame } from "../zoom.js";

/** Pixels per square. */
export const CELL = 40;

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

/** The coordinates of a square's name, or null for anything else. */
export function parseSquare(name) {
  const m = /^([a-z]+)(\d+)$/.exec(name || "");
  if (!m) return null;
  let x = 0;
  for (const ch of m[1]) x = x * 26 + (ch.charCodeAt(0) - 96);
  return { x: x - 1, y: Number(m[2]) - 1 };
}

/** The square one step from `name` by an arrow key, or null (off the map or another key). */
export function stepFrom(name, key) {
  const step = { ArrowUp: [0, 1], ArrowDown: [0, -1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] }[key];
  const at = parseSquare(name);
  if (!step || !at) return null;
  const to = { x: at.x + step[0], y: at.y + step[1] };
  return to.x < 0 || to.y < 0 ? null : squareName(to.x, to.y);
}

/**
 * The map as an SVG element.
 *
 * `options`: `prefix` (ids: `<prefix>-sq-<square>`, `<prefix>-token-<id>`), `width`, `height`,
 * `terrain` ({square: kind}), `terrainText(kind)`, `image` (a URL or null), `marks`
 * ({square: class names}, e.g. a route or a reach), `label` (the map's accessible name),
 * `tokens` ([{id, name, position, squares, colour, movable, classes, label}]), `onSquare(name)`,
 * `onToken(token)`, `onStep(token, name)` (arrow keys), `onDrop(token, name)` (a drag),
 * `onHover(name)` (a square under the pointer, for previews).
 */
export function battleMap(options) {
  const { prefix, width: w, height: h } = options;
  const terrain = options.terrain || {};
  const marks = options.marks || {};
  const top = (y, side = 1) => (h - y - side) * CELL;
  const layer = [];
  let dragging = null;
  if (options.image) {
    layer.push(svg("image", { href: options.image, x: 0, y: 0, width: w * CELL, height: h * CELL, preserveAspectRatio: "none", class: "map-image", id: `${prefix}-image` }));
  }
  for (let y = 0; y < h; y += 1) {
    for (let x = 0; x < w; x += 1) {
      const name = squareName(x, y);
      const kind = terrain[name];
      const title = name + (kind ? " · " + (options.terrainText ? options.terrainText(kind) : kind) : "");
      layer.push(svg("rect", {
        x: x * CELL, y: top(y), width: CELL, height: CELL, id: `${prefix}-sq-${name}`,
        class: ["map-square", kind ? "terrain-" + kind : "", marks[name] || ""].filter(Boolean).join(" "),
        dataset: { square: name },
        onclick: () => options.onSquare?.(name),
        onpointerenter: options.onHover ? () => options.onHover(name) : null,
      }, svg("title", {}, title)));
    }
  }
  for (const token of options.tokens || []) {
    const at = parseSquare(token.position);
    if (!at) continue;
    const side = token.squares || 1;
    layer.push(svg("g", {
      id: `${prefix}-token-${token.id}`, class: ["map-token", ...(token.classes || [])].join(" "),
      tabindex: token.movable ? 0 : null, role: token.movable ? "button" : "img",
      "aria-label": token.label || `${token.name} · ${token.position}`,
      dataset: { combatant: token.id, square: token.position },
      onclick: (e) => { e.stopPropagation(); options.onToken?.(token); },
      onkeydown: (e) => {
        if (!token.movable || !options.onStep) return;
        const to = stepFrom(token.position, e.key);
        if (!to) return;
        e.preventDefault();
        options.onStep(token, to);
      },
      onpointerdown: (e) => { if (token.movable && options.onDrop) { dragging = token; e.target.releasePointerCapture?.(e.pointerId); } },
    },
    svg("rect", { x: at.x * CELL + 3, y: top(at.y, side) + 3, width: side * CELL - 6, height: side * CELL - 6, rx: side * CELL / 2, fill: token.colour || "#666", class: "map-token-body" }),
    svg("text", { x: (at.x + side / 2) * CELL, y: top(at.y, side) + side * CELL / 2, class: "map-token-text", "text-anchor": "middle", "dominant-baseline": "central" }, (token.name || "?").slice(0, 1).toUpperCase()),
    svg("title", {}, token.name)));
  }
  return svg("svg", {
    id: `${prefix}-map`, class: "map", viewBox: `0 0 ${w * CELL} ${h * CELL}`, role: "group",
    "aria-label": options.label || "",
    onpointerup: (e) => {
      const token = dragging;
      dragging = null;
      if (!token) return;
      const square = e.target?.dataset?.square || e.target?.closest?.("[data-square]")?.dataset?.square;
      if (square && square !== token.position) options.onDrop(token, square);
    },
  }, ...layer);
}

/** The legend of the terrain kinds under a map. */
export function terrainLegend(kinds, text) {
  return el("ul", { class: "map-legend" }, ...kinds.map((kind) => el("li", {}, el("span", { class: "map-key terrain-" + kind, "aria-hidden": "true" }), text(kind))));
}

/** A map in its scrolling frame: on a phone each square is at least 44 px and the frame pans. */
export function mapFrame(map) {
  const cells = Number(map.getAttribute("viewBox").split(" ")[2]) / CELL;
  return zoomFrame(map.id + "-frame", map, cells, { extraClass: "map-wrap", label: "web.layout.zoom_whole_map" });
}

/** The words for a token's square, shared by the games. */
export function tokenLabel(name, square) {
  return t("web.map.token", { name, square });
}
