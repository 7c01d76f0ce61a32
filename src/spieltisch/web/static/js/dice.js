// @ts-check
// Dice drawn as dice: d6 with pips, other dN as numbered shapes, HeXXen dice with symbols.
import { el, svg, t } from "./core.js";

/**
 * A die as every shape of the log reads: its `sides`, its `kind` ("d6", "H", "dF", ...), the
 * `face` shown, whether it was `kept`, `exploded` or `rerolled`, the value it `counts` when
 * that differs from its face, its `label` and whether it was a `success`.
 * @typedef {{ sides: number, kind: string, face: any, kept: boolean, exploded: boolean,
 *   rerolled: boolean, counts: number | null, label: string | null, success?: boolean }} Die
 */

/** A shape drawn in a symbol die at (x, y) with radius r.
 * @typedef {(x: number, y: number, r: number) => SVGElement} SymbolShape */

/** @type {Record<number, number[][]>} */
const PIPS = {
  1: [[50, 50]],
  2: [[28, 28], [72, 72]],
  3: [[28, 28], [50, 50], [72, 72]],
  4: [[28, 28], [72, 28], [28, 72], [72, 72]],
  5: [[28, 28], [72, 28], [50, 50], [28, 72], [72, 72]],
  6: [[28, 26], [72, 26], [28, 50], [72, 50], [28, 74], [72, 74]],
};

// HeXXen die kinds (letters of the notation) and their colours; symbol shapes below.
/** @type {Record<string, string>} */
const SYMBOL_DICE = { H: "hexxen", M: "hexxen", J: "janus", B: "blood", E: "elixir", S: "blessing" };

/** @type {Record<string, SymbolShape>} */
const SYMBOL_SHAPES = {
  successes: (x, y, r) => svg("polygon", { class: "sym sym-success", points: hexagon(x, y, r) }),
  stars: (x, y, r) => svg("polygon", { class: "sym sym-star", points: star(x, y, r) }),
  drops: (x, y, r) => svg("path", {
    class: "sym sym-drop",
    d: `M${x},${y - r} C${x + r * 0.9},${y} ${x + r * 0.8},${y + r} ${x},${y + r} C${x - r * 0.8},${y + r} ${x - r * 0.9},${y} ${x},${y - r} Z`,
  }),
  janus: (x, y, r) => svg("g", { class: "sym sym-janus" },
    svg("circle", { cx: x, cy: y, r, class: "janus-ring" }),
    svg("path", { d: `M${x},${y - r} A${r},${r} 0 0 1 ${x},${y + r} Z`, class: "janus-half" })),
};

/** @param {number} x @param {number} y @param {number} r */
function hexagon(x, y, r) {
  const pts = [];
  for (let i = 0; i < 6; i++) {
    const a = Math.PI / 6 + (i * Math.PI) / 3;
    pts.push(`${(x + r * Math.cos(a)).toFixed(1)},${(y + r * Math.sin(a)).toFixed(1)}`);
  }
  return pts.join(" ");
}

/** @param {number} x @param {number} y @param {number} r */
function star(x, y, r) {
  const pts = [];
  for (let i = 0; i < 10; i++) {
    const a = -Math.PI / 2 + (i * Math.PI) / 5;
    const rr = i % 2 === 0 ? r : r * 0.45;
    pts.push(`${(x + rr * Math.cos(a)).toFixed(1)},${(y + rr * Math.sin(a)).toFixed(1)}`);
  }
  return pts.join(" ");
}

/** Normalise a die from any of the log's shapes (a number, or an object) to a `Die`.
 * @param {any} raw
 * @param {number} [sides]
 * @returns {Die} */
export function normalizeDie(raw, sides = 6) {
  if (typeof raw === "number") {
    return { sides, kind: "d" + sides, face: raw, kept: true, exploded: false, rerolled: false, counts: null, label: null };
  }
  const kind = String(raw.die ?? raw.kind ?? ("d" + (raw.sides ?? sides)));
  const match = /^[dDwW](\d+|%)$/.exec(kind);
  const realSides = raw.sides ?? (match ? (match[1] === "%" ? 100 : Number(match[1])) : 6);
  return {
    sides: realSides,
    kind,
    face: raw.face ?? raw.value ?? null,
    kept: raw.kept !== false && raw.dropped !== true,
    exploded: Boolean(raw.exploded),
    rerolled: Boolean(raw.rerolled),
    counts: raw.face !== undefined && Number.isInteger(raw.value) && raw.value !== raw.face ? raw.value : null,
    label: typeof raw.label === "string" ? raw.label : null,
    success: raw.success,
  };
}

/** The symbols a face shows, by name: a name, a list of names or counts by name.
 * @param {any} face
 * @returns {Record<string, number>} */
function symbolCounts(face) {
  if (face === null || face === undefined || face === "" || face === "blank") return {};
  if (typeof face === "string") return { [face]: 1 };
  if (Array.isArray(face)) {
    /** @type {Record<string, number>} */
    const out = {};
    for (const s of face) out[s] = (out[s] || 0) + 1;
    return out;
  }
  if (typeof face === "object") return face;
  return {};
}

/** @param {Record<string, number>} counts */
function symbolLabel(counts) {
  const parts = Object.entries(counts)
    .filter(([, n]) => n)
    .map(([sym, n]) => t("web.dice.symbol." + sym, { n }));
  return parts.length ? parts.join(", ") : t("web.dice.blank");
}

/** One die as an SVG image with an accessible label.
 * @param {any} raw
 * @param {{ sides?: number, size?: number, extraClass?: string }} [options]
 * @returns {HTMLElement} */
export function renderDie(raw, { sides = 6, size = 40, extraClass = "" } = {}) {
  const die = normalizeDie(raw, sides);
  const symbolKind = SYMBOL_DICE[die.kind];
  const classes = ["die", extraClass];
  if (!die.kept) classes.push("dropped");
  if (die.exploded) classes.push("exploded");
  if (die.success === true) classes.push("hit");
  /** @type {string} */
  let label;
  const image = svg("svg", { viewBox: "0 0 100 100", width: size, height: size, "aria-hidden": "true", focusable: "false" });
  if (die.kind === "dF") {
    // Fate die: minus, blank or plus
    classes.push("symbol-die", "die-fate");
    image.append(svg("rect", { x: 5, y: 5, width: 90, height: 90, rx: 16, class: "die-body" }));
    const sign = die.face > 0 ? "+" : die.face < 0 ? "−" : "";
    if (sign) image.append(svg("text", { x: 50, y: 58, "text-anchor": "middle", "dominant-baseline": "middle", class: "die-num", "font-size": 56 }, sign));
    label = t("web.dice.fate", { face: sign || "0" });
  } else if (symbolKind && typeof die.face !== "number") {
    classes.push("symbol-die", "die-" + symbolKind);
    image.append(svg("rect", { x: 5, y: 5, width: 90, height: 90, rx: 16, class: "die-body" }));
    const counts = symbolCounts(die.face);
    const symbols = Object.entries(counts).flatMap(([sym, n]) => Array(Math.max(0, n)).fill(sym));
    const spots = [[[50, 50]], [[32, 50], [68, 50]], [[30, 34], [70, 34], [50, 70]]][Math.min(symbols.length, 3) - 1] || [];
    const r = symbols.length > 1 ? 15 : 24;
    symbols.slice(0, 3).forEach((sym, i) => {
      const shape = SYMBOL_SHAPES[sym];
      if (shape) image.append(shape(spots[i][0], spots[i][1], r));
    });
    label = t("web.dice.symbol_die", { die: t("web.dice.kind." + symbolKind), face: symbolLabel(counts) });
  } else if (die.sides === 6 && Number.isInteger(die.face) && die.face >= 1 && die.face <= 6) {
    classes.push("d6");
    if (symbolKind) classes.push("die-" + symbolKind);
    image.append(svg("rect", { x: 5, y: 5, width: 90, height: 90, rx: 16, class: "die-body" }));
    for (const [x, y] of PIPS[die.face]) image.append(svg("circle", { cx: x, cy: y, r: 9, class: "pip" }));
    label = t("web.dice.numeric", { sides: 6, face: die.face });
  } else {
    classes.push("dn");
    const shape = die.sides === 4 ? "50,6 94,90 6,90" : die.sides === 8 ? "50,4 94,50 50,96 6,50"
      : die.sides === 20 ? hexagon(50, 50, 46) : die.sides === 10 || die.sides === 100 ? "50,4 94,42 50,96 6,42"
      : null;
    image.append(shape ? svg("polygon", { points: shape, class: "die-body" })
      : svg("rect", { x: 5, y: 5, width: 90, height: 90, rx: 16, class: "die-body" }));
    const text = String(die.face ?? "?");
    image.append(svg("text", { x: 50, y: 58, "text-anchor": "middle", "dominant-baseline": "middle", class: "die-num", "font-size": text.length > 2 ? 28 : 36 }, text));
    label = t("web.dice.numeric", { sides: die.sides, face: text });
  }
  if (die.rerolled) {
    classes.push("rerolled");
    label += " — " + t("web.dice.rerolled");
  } else if (!die.kept) label += " — " + t("web.dice.dropped");
  if (die.counts !== null) label += " — " + t("web.dice.counts", { value: die.counts });
  if (die.exploded) label += " — " + t("web.dice.exploded");
  if (die.label) label += " [" + die.label + "]";
  if (die.success === true) label += " — " + t("web.dice.hit");
  return el("span", { class: classes.filter(Boolean).join(" "), role: "img", "aria-label": label, title: label }, image);
}

/** A rolled value for people: the number, or its symbols by name.
 * @param {any} result
 * @returns {string} */
export function resultText(result) {
  if (result && typeof result === "object") {
    const parts = Object.entries(result).filter(([, n]) => n).map(([k, n]) => t("web.dice.symbol." + k, { n }));
    return parts.length ? parts.join(", ") : t("web.dice.blank");
  }
  return String(result);
}

/** The result of a roll (a table roll or an inline chat roll) for people: the number or
 * symbols, or a compared total with its verdict; then the labelled terms and group members.
 * @param {any} roll
 * @returns {string} */
export function rollResult(roll) {
  const main = Number.isInteger(roll.total)
    ? t("web.dice.verdict", { total: roll.total, verdict: t(roll.result ? "web.dice.met" : "web.dice.not_met") })
    : resultText(roll.result);
  const parts = (roll.parts || []).map((/** @type {any} */ p) => p.kept === false
    ? t("web.dice.part_dropped", { term: p.term, value: resultText(p.value) })
    : t("web.dice.part", { label: p.label ?? p.term, value: resultText(p.value) }));
  return parts.length ? `${main} (${parts.join(", ")})` : main;
}

/** A row of dice.
 * @param {any[]} list
 * @param {{ sides?: number, size?: number, extraClass?: string }} [options]
 * @returns {HTMLElement} */
export function renderDice(list, options = {}) {
  return el("span", { class: "dice" }, list.map((d) => renderDie(d, options)));
}

// -- the dice moment: a short tumble of the rolled dice --------------------------------------

const ROLL_MS = 700;

/** Whether the person asked their system for less motion. */
export function reducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/**
 * Roll the dice drawn in `row` (the elements `renderDice` made from `list`): each tumbles and
 * shows passing faces for a moment, then settles on its real face. Nothing moves when the
 * person prefers reduced motion. Returns the number of dice animated.
 * @param {Element} row
 * @param {any[]} list
 * @param {{ sides?: number, size?: number, extraClass?: string }} [options]
 * @returns {number}
 */
export function animateRoll(row, list, options = {}) {
  if (reducedMotion()) return 0;
  const dice = [...row.querySelectorAll(":scope > .die")];
  dice.forEach((node, i) => {
    const die = normalizeDie(list[i]);
    const duration = ROLL_MS + i * 60;
    node.animate([
      { transform: "translateY(-14px) rotate(-240deg) scale(.8)" },
      { transform: "translateY(0) rotate(-60deg) scale(1.05)", offset: 0.6 },
      { transform: "none" },
    ], { duration, easing: "cubic-bezier(.2, .7, .3, 1)" });
    if (typeof die.face !== "number" || die.sides < 2) return;
    // A die `renderDie` made holds its picture and nothing else.
    const picture = (/** @type {Element} */ d) => /** @type {Node} */ (d.firstChild);
    const real = picture(node);
    const passing = setInterval(() => {
      const face = 1 + Math.floor(Math.random() * die.sides);
      node.replaceChildren(picture(renderDie({ ...list[i], face, value: face }, options)));
    }, 90);
    setTimeout(() => { clearInterval(passing); node.replaceChildren(real); }, duration - 150);
  });
  return dice.length;
}
