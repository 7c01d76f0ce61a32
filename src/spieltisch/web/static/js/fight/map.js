// @ts-check
// The battle map every fighting game draws: an SVG grid of named squares (a1 is the bottom
// left), terrain, an optional background image, overlays (a route, reach, marks) and the
// tokens by footprint. It knows no rules: a game hands in the squares, tokens and overlays
// from its view and gets the clicks, drags and arrow keys back as square names.
import { el, svg, t } from "../core.js";
import { zoomFrame } from "../zoom.js";

/**
 * A token on the map (see `battleMap`).
 * @typedef {{ id: string, name: string, position?: string | null, squares?: number, colour?: string,
 *   movable?: boolean, classes?: string[], label?: string, secret?: boolean,
 *   hp?: { value: number, max: number } | null, conditions?: string[] }} MapToken
 */

/** The ruler of a dragged token (see `battleMap`).
 * @typedef {{ from: string, to: string, text?: string | null, warning?: string | null }} Ruler */

/**
 * What a game hands `battleMap` (described there).
 * @typedef {{
 *   prefix: string, width: number, height: number,
 *   terrain?: Record<string, string>, terrainText?: (kind: string) => string,
 *   ground?: Record<string, number>, groundText?: (height: number) => string,
 *   image?: string | null, marks?: Record<string, string>, label?: string,
 *   tokens?: MapToken[], ruler?: Ruler | null,
 *   onSquare?: (name: string) => void, onToken?: (token: MapToken) => void,
 *   onStep?: (token: MapToken, name: string) => void, onDrop?: (token: MapToken, name: string) => void,
 *   onDrag?: (token: MapToken, name: string) => void, onHover?: (name: string) => void,
 * }} MapOptions
 */

/** Pixels per square. */
export const CELL = 40;

/** @param {number} x */
function fileName(x) {
  let letters = "";
  let n = x + 1;
  while (n) { const rest = (n - 1) % 26; letters = String.fromCharCode(97 + rest) + letters; n = Math.floor((n - 1) / 26); }
  return letters;
}

/** The name of square (x, y): a1 is the bottom left.
 * @param {number} x @param {number} y
 * @returns {string} */
export function squareName(x, y) {
  return fileName(x) + (y + 1);
}

/** The coordinates of a square's name, or null for anything else.
 * @param {string | null | undefined} name
 * @returns {{ x: number, y: number } | null} */
export function parseSquare(name) {
  const m = /^([a-z]+)(\d+)$/.exec(name || "");
  if (!m) return null;
  let x = 0;
  for (const ch of m[1]) x = x * 26 + (ch.charCodeAt(0) - 96);
  return { x: x - 1, y: Number(m[2]) - 1 };
}

/** The square one step from `name` by an arrow key, or null (off the map or another key).
 * @param {string | null | undefined} name @param {string} key
 * @returns {string | null} */
export function stepFrom(name, key) {
  /** @type {Record<string, number[]>} */
  const steps = { ArrowUp: [0, 1], ArrowDown: [0, -1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
  const step = steps[key];
  const at = parseSquare(name);
  if (!step || !at) return null;
  const to = { x: at.x + step[0], y: at.y + step[1] };
  return to.x < 0 || to.y < 0 ? null : squareName(to.x, to.y);
}

/** A name's initials: the first letters of its first two words ("Giant Rat" → "GR"), or
 * its first letter for one word.
 * @param {string | null | undefined} name
 * @returns {string} */
export function initials(name) {
  const words = String(name || "?").split(/[\s\-_]+/u).filter(Boolean);
  const letters = words.slice(0, 2).map((w) => [...w][0]);
  return (letters.join("") || "?").toUpperCase();
}

/**
 * The short mark on each token, by token id: its initials; where tokens of different names
 * share initials, a one-word name shows its first two letters ("Go", "Gn"); tokens of the same
 * name are numbered (two goblins: "G1", "G2"). Open tokens are numbered before secret ones, so a
 * player (who sees only the open ones) reads the same marks as the GM.
 * @param {MapToken[]} tokens
 * @returns {Map<string, string>}
 */
export function tokenMarks(tokens) {
  const ordered = [...tokens].sort((a, b) => Number(Boolean(a.secret)) - Number(Boolean(b.secret)));
  const base = new Map(ordered.map((tk) => [tk.id, initials(tk.name)]));
  /** @type {Map<string | undefined, Set<string>>} */
  const namesBy = new Map();
  for (const tk of ordered) {
    const names = namesBy.get(base.get(tk.id)) || new Set();
    names.add(tk.name);
    namesBy.set(base.get(tk.id), names);
  }
  for (const tk of ordered) {
    const words = String(tk.name || "").split(/[\s\-_]+/u).filter(Boolean);
    if ((namesBy.get(base.get(tk.id))?.size ?? 0) > 1 && words.length === 1) {
      const letters = [...words[0]];
      base.set(tk.id, letters[0].toUpperCase() + (letters[1] || "").toLowerCase());
    }
  }
  /** @type {Map<string, number>} */
  const count = new Map();
  for (const tk of ordered) count.set(tk.name, (count.get(tk.name) || 0) + 1);
  /** @type {Map<string, number>} */
  const seen = new Map();
  /** @type {Map<string, string>} */
  const out = new Map();
  for (const tk of ordered) {
    const mark = /** @type {string} */ (base.get(tk.id));
    if ((count.get(tk.name) ?? 0) > 1) {
      const n = (seen.get(tk.name) || 0) + 1;
      seen.set(tk.name, n);
      out.set(tk.id, mark + n);
    } else out.set(tk.id, mark);
  }
  return out;
}

// A drag in progress, kept across re-renders (a live preview redraws the map while a token is
// dragged): the map's prefix, the dragged token's id and the square under the pointer.
/** @type {{ prefix: string, id: string, over: string | null | undefined } | null} */
let drag = null;
window.addEventListener("pointerup", () => { drag = null; });
window.addEventListener("pointercancel", () => { drag = null; });

/** The square under the pointer of event `e`, or null.
 * @param {PointerEvent} e
 * @returns {string | null} */
function squareAt(e) {
  const under = document.elementFromPoint(e.clientX, e.clientY);
  const square = /** @type {HTMLElement | SVGElement | null | undefined} */ (under?.closest?.("[data-square]"));
  return square?.dataset?.square || null;
}

/** The HP bar under a token (two lines: the whole and what is left).
 * @param {{ value: number, max: number }} hp @param {number} x @param {number} y @param {number} width */
function hpBar(hp, x, y, width) {
  const share = Math.max(0, Math.min(1, hp.value / Math.max(hp.max, 1)));
  const level = share > 0.5 ? "is-high" : share > 0.25 ? "is-mid" : "is-low";
  return [
    svg("line", { x1: x, y1: y, x2: x + width, y2: y, class: "map-hp-bar" }),
    share > 0 ? svg("line", { x1: x, y1: y, x2: x + width * share, y2: y, class: "map-hp-left " + level }) : null,
  ];
}

/** The badge of a token's conditions: their number in a circle at its top right.
 * @param {number} count @param {number} x @param {number} y */
function badge(count, x, y) {
  return [
    svg("circle", { cx: x, cy: y, r: 8, class: "map-badge" }),
    svg("text", { x, y, class: "map-badge-text", "text-anchor": "middle", "dominant-baseline": "central" }, String(count)),
  ];
}

/** The ruler of a dragged token: a line from its square to the one under the pointer, and the
 * game's words for the route (its cost, the movement left, a warning).
 * @param {Ruler} ruler @param {number} h */
function rulerLayer(ruler, h) {
  const a = parseSquare(ruler.from); const b = parseSquare(ruler.to);
  if (!a || !b) return null;
  /** @typedef {{ x: number, y: number }} Point */
  const cx = (/** @type {Point} */ p) => p.x * CELL + CELL / 2; const cy = (/** @type {Point} */ p) => (h - p.y - 1) * CELL + CELL / 2;
  const lines = (ruler.text ? [ruler.text] : []).concat(ruler.warning ? [ruler.warning] : []);
  return svg("g", { class: "map-ruler" + (ruler.warning ? " is-warning" : ""), "aria-hidden": "true" },
    svg("line", { x1: cx(a), y1: cy(a), x2: cx(b), y2: cy(b), class: "map-ruler-line" }),
    ...lines.map((text, i) => svg("text", { x: cx(b), y: cy(b) - CELL * 0.7 - (lines.length - 1 - i) * 16, class: "map-ruler-text" + (i && ruler.warning ? " is-warning" : ""), "text-anchor": "middle" }, text)));
}

/**
 * The map as an SVG element.
 *
 * `options`: `prefix` (ids: `<prefix>-sq-<square>`, `<prefix>-token-<id>`), `width`, `height`,
 * `terrain` ({square: kind}), `terrainText(kind)`, `ground` ({square: height in metres}: a
 * small number in the square's corner) with `groundText(height)` (its words), `image` (a URL
 * or null), `marks` ({square: class names}, e.g. a route or a reach), `label` (the map's
 * accessible name),
 * `tokens` ([{id, name, position, squares, colour, movable, classes, label, secret, hp,
 * conditions}]: `hp` {value, max} draws an HP bar and `conditions` (words) a badge — a game
 * hands in only what the viewer may see), `ruler` ({from, to, text, warning} while a token
 * is dragged), `onSquare(name)`, `onToken(token)`, `onStep(token, name)` (arrow keys),
 * `onDrop(token, name)` (a drag), `onDrag(token, name)` (the square under a dragged token,
 * for a live ruler), `onHover(name)` (a square under the pointer, for previews).
 * Each token shows its mark (see `tokenMarks`).
 * @param {MapOptions} options
 * @returns {SVGElement}
 */
export function battleMap(options) {
  const { prefix, width: w, height: h } = options;
  const terrain = options.terrain || {};
  const marks = options.marks || {};
  const ground = options.ground || {};
  const top = (/** @type {number} */ y, side = 1) => (h - y - side) * CELL;
  const layer = [];
  const tokenList = options.tokens || [];
  const short = tokenMarks(tokenList);
  if (options.image) {
    layer.push(svg("image", { href: options.image, x: 0, y: 0, width: w * CELL, height: h * CELL, preserveAspectRatio: "none", class: "map-image", id: `${prefix}-image` }));
  }
  for (let y = 0; y < h; y += 1) {
    for (let x = 0; x < w; x += 1) {
      const name = squareName(x, y);
      const kind = terrain[name];
      const height = Number(ground[name] || 0);
      const title = name + (kind ? " · " + (options.terrainText ? options.terrainText(kind) : kind) : "")
        + (height ? " · " + (options.groundText ? options.groundText(height) : height) : "");
      layer.push(svg("rect", {
        x: x * CELL, y: top(y), width: CELL, height: CELL, id: `${prefix}-sq-${name}`,
        class: ["map-square", kind ? "terrain-" + kind : "", marks[name] || ""].filter(Boolean).join(" "),
        dataset: { square: name },
        onclick: () => options.onSquare?.(name),
        onpointerenter: options.onHover ? () => options.onHover?.(name) : null,
      }, svg("title", {}, title)));
      if (height) {
        layer.push(svg("text", {
          x: x * CELL + 3, y: top(y) + 11, class: "map-ground" + (height < 0 ? " is-pit" : ""), id: `${prefix}-ground-${name}`,
          "pointer-events": "none", "aria-hidden": "true",
        }, height.toLocaleString(document.documentElement.lang || undefined)));
      }
    }
  }
  for (const token of tokenList) {
    const at = parseSquare(token.position);
    if (!at) continue;
    const side = token.squares || 1;
    const mark = short.get(token.id) || "?";
    const size = side * CELL;
    const fontSize = Math.round(Math.min(18 * side, (size - 10) / Math.max(mark.length * 0.62, 1)));
    const conditions = token.conditions || [];
    const label = (token.label || `${token.name} · ${token.position}`) + (mark !== initials(token.name) ? ` (${mark})` : "");
    layer.push(svg("g", {
      id: `${prefix}-token-${token.id}`, class: ["map-token", ...(token.classes || [])].join(" "),
      tabindex: token.movable ? 0 : null, role: token.movable ? "button" : "img",
      "aria-label": label,
      dataset: { combatant: token.id, square: token.position, mark },
      onclick: (/** @type {MouseEvent} */ e) => { e.stopPropagation(); options.onToken?.(token); },
      onkeydown: (/** @type {KeyboardEvent} */ e) => {
        if (!token.movable || !options.onStep) return;
        const to = stepFrom(token.position, e.key);
        if (!to) return;
        e.preventDefault();
        options.onStep(token, to);
      },
      onpointerdown: (/** @type {PointerEvent} */ e) => {
        if (!token.movable || !options.onDrop) return;
        drag = { prefix, id: token.id, over: token.position };
        /** @type {Element} */ (e.target).releasePointerCapture?.(e.pointerId);
      },
    },
    svg("rect", { x: at.x * CELL + 3, y: top(at.y, side) + 3, width: size - 6, height: size - 6, rx: size / 2, fill: token.colour || "#666", class: "map-token-body" }),
    svg("text", { x: (at.x + side / 2) * CELL, y: top(at.y, side) + size / 2, class: "map-token-text", "font-size": fontSize, "text-anchor": "middle", "dominant-baseline": "central" }, mark),
    token.hp ? hpBar(token.hp, at.x * CELL + 6, top(at.y, side) + size - 4, size - 12) : null,
    conditions.length ? badge(conditions.length, at.x * CELL + size - 7, top(at.y, side) + 7) : null,
    svg("title", {}, [token.name, ...conditions].join(" · "))));
  }
  if (options.ruler) layer.push(rulerLayer(options.ruler, h));
  const dragged = () => {
    const now = drag;
    return now && now.prefix === prefix ? tokenList.find((tk) => tk.id === now.id) : null;
  };
  return svg("svg", {
    id: `${prefix}-map`, class: "map", viewBox: `0 0 ${w * CELL} ${h * CELL}`, role: "group",
    "aria-label": options.label || "",
    onpointermove: (/** @type {PointerEvent} */ e) => {
      const token = dragged();
      if (!token || !drag) return;
      const square = squareAt(e);
      if (!square || square === drag.over) return;
      drag.over = square;
      if (square !== token.position) options.onDrag?.(token, square);
    },
    onpointerup: (/** @type {PointerEvent} */ e) => {
      const token = dragged();
      drag = null;
      if (!token) return;
      const square = squareAt(e);
      if (square && square !== token.position) options.onDrop?.(token, square);
    },
  }, ...layer);
}

/** The legend of the terrain kinds under a map.
 * @param {string[]} kinds @param {(kind: string) => string} text */
export function terrainLegend(kinds, text) {
  return el("ul", { class: "map-legend" }, ...kinds.map((kind) => el("li", {}, el("span", { class: "map-key terrain-" + kind, "aria-hidden": "true" }), text(kind))));
}

/** A map in its scrolling frame: on a phone each square is at least 44 px and the frame pans;
 * `centre` (a token's element id, see `centreToken`) is where it opens.
 * @param {SVGElement} map a map `battleMap` made
 * @param {string | null} [centre] */
export function mapFrame(map, centre = null) {
  const box = map.getAttribute("viewBox");
  if (!box) throw new Error(`the map #${map.id} has no viewBox`);
  const cells = Number(box.split(" ")[2]) / CELL;
  return zoomFrame(map.id + "-frame", map, cells, { extraClass: "map-wrap", label: "web.layout.zoom_whole_map", centre });
}

/** The words for a token's square, shared by the games.
 * @param {string} name @param {string} square */
export function tokenLabel(name, square) {
  return t("web.map.token", { name, square });
}

/** The element id of the token a map opens on: the one whose turn it is, else the first of
 * `own` (the viewer's pieces) on the map, else none.
 * @param {string} prefix @param {MapToken[]} tokens @param {string | null | undefined} current
 * @param {string[]} [own]
 * @returns {string | null} */
export function centreToken(prefix, tokens, current, own = []) {
  const placed = new Set(tokens.filter((tk) => tk.position).map((tk) => tk.id));
  const id = current && placed.has(current) ? current : own.find((x) => placed.has(x));
  return id ? `${prefix}-token-${id}` : null;
}
