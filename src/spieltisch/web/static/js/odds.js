// @ts-check
// The exact odds of a command as an accessible bar chart (a table read by screen readers).
import { percent } from "./helpers.js";
import { el, t } from "./core.js";

/** @typedef {{ value: unknown, probability: number, exact?: string }} Outcome */
/** @typedef {(value: unknown) => unknown} Labeler */

/**
 * A chance in words where the number misleads: "impossible" for 0, "below 0.1 %" for a sliver.
 * @param {Outcome} outcome
 */
function chance(outcome) {
  const p = outcome.probability;
  if (p <= 0) return el("span", { class: "impossible" }, t("web.odds.impossible"));
  const exact = outcome.exact ? el("span", { class: "exact" }, " (" + outcome.exact + ")") : null;
  if (p < 0.0005) return [t("web.odds.below", { percent: percent(0.001) }), exact];
  return [percent(p), exact];
}

/**
 * The label of an outcome value (numbers, labels, symbol counts).
 * @param {unknown} value
 * @param {Labeler | null} [labeler]
 * @returns {unknown}
 */
export function outcomeLabel(value, labeler) {
  if (labeler) {
    const text = labeler(value);
    if (text) return text;
  }
  if (value && typeof value === "object") {
    return Object.entries(value).map(([k, n]) => t("web.dice.symbol." + k, { n })).join(", ");
  }
  return String(value);
}

/**
 * A bar chart of `odds.outcomes`; `labeler(value)` may name the outcomes.
 * @param {{ outcomes: Outcome[], mean?: number, hints?: string[] }} odds
 * @param {{ labeler?: Labeler | null, caption?: unknown }} [options]
 * @returns {any}
 */
export function oddsChart(odds, { labeler = null, caption = null } = {}) {
  const max = Math.max(...odds.outcomes.map((o) => o.probability), 1e-12);
  const rows = odds.outcomes.map((o) => el("tr", {},
    el("th", { scope: "row" }, outcomeLabel(o.value, labeler)),
    el("td", { class: "bar-cell" },
      el("span", { class: "bar", style: `width:${((100 * o.probability) / max).toFixed(1)}%` })),
    el("td", { class: "num" }, chance(o))));
  const table = el("table", { class: "odds-chart" },
    el("caption", {}, caption || t("web.odds.caption")),
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("web.odds.outcome")), el("th", { scope: "col" }, el("span", { class: "visually-hidden" }, t("web.odds.bar"))), el("th", { scope: "col" }, t("web.odds.chance")))),
    el("tbody", {}, rows));
  const extra = [];
  if (typeof odds.mean === "number") extra.push(el("p", { class: "muted small-print" }, t("web.odds.mean", { mean: odds.mean.toLocaleString(document.documentElement.lang, { maximumFractionDigits: 2, minimumFractionDigits: 2 }) })));
  for (const code of odds.hints || []) extra.push(el("p", { class: "muted small-print hint" }, t("dice.hint." + code)));
  return el("div", { class: "odds-wrap" }, table, extra);
}

// -- one cache of odds for the whole page ------------------------------------------------------
//
// The odds of a command depend on the command and on the view the page holds: each is asked
// of the server once per view (a new view empties the cache), and a command asked again while
// its answer is on its way shares that request. Every game asks through `ctx.odds` (a promise)
// or `ctx.oddsNow` (the answer now, and the page is drawn again when it arrives). While a new
// view's answer is on its way, `oddsNow` gives the command's answer of the view before, so
// the odds on the page do not vanish and come back (moving what is below them) each time a
// record arrives; `shownEarlier()` tells the page it showed one, to mark its game busy.

/** @typedef {(command: unknown) => Promise<any>} OddsFetch */
/** @typedef {{promise: Promise<any>, answer: any, redraw: boolean}} Entry */

/** @type {Map<string, Entry>} */
const asked = new Map();
/** @type {unknown} */
let askedFor = undefined;  // the view the cached answers belong to
/** The last answer of each command in an earlier view (refusals are not kept).
 * @type {Map<string, any>} */
const earlier = new Map();
const EARLIER_KEPT = 200;
let earlierShown = false;

/**
 * @param {unknown} state
 * @param {string} key the command as JSON
 * @param {unknown} command
 * @param {OddsFetch} fetch
 * @returns {Entry}
 */
function entryOf(state, key, command, fetch) {
  if (state !== askedFor) {
    for (const [key, entry] of asked) {
      if (!entry.answer) continue;
      earlier.delete(key);  // re-added last: the map keeps the newest answers in order
      if (!entry.answer.error) earlier.set(key, entry.answer);
    }
    for (const key of earlier.keys()) {
      if (earlier.size <= EARLIER_KEPT) break;
      earlier.delete(key);
    }
    asked.clear();
    askedFor = state;
  }
  let known = asked.get(key);
  if (!known) {
    /** @type {Entry} */
    const entry = { promise: Promise.resolve(), answer: null, redraw: false };
    entry.promise = fetch(command).then((answer) => {
      entry.answer = answer || { error: t("web.odds.none") };
      return answer;
    }, (/** @type {any} */ error) => {
      // A refusal stays the answer for this view: asking again would be refused again.
      entry.answer = { error: error?.message || t("web.odds.none") };
      throw error;
    });
    entry.promise.catch(() => {});
    asked.set(key, entry);
    known = entry;
  }
  return known;
}

/**
 * The odds of `command` for the view `state`, asked with `fetch(command)` once: a promise.
 * @param {unknown} state
 * @param {unknown} command
 * @param {OddsFetch} fetch
 * @returns {Promise<any>}
 */
export function askOdds(state, command, fetch) {
  return entryOf(state, JSON.stringify(command), command, fetch).promise;
}

/** The odds of `command` for the view `state` if known (the answer, or `{error}` when refused);
 * else they are asked for, `redraw()` runs once they arrive (while the view holds), and the
 * answer meanwhile is the command's answer in an earlier view, or null if there is none.
 * @param {unknown} state
 * @param {unknown} command
 * @param {OddsFetch} fetch
 * @param {() => void} redraw
 * @returns {any}
 */
export function oddsNow(state, command, fetch, redraw) {
  const key = JSON.stringify(command);
  const entry = entryOf(state, key, command, fetch);
  if (!entry.answer && !entry.redraw) {
    entry.redraw = true;
    const again = () => { if (asked.get(key) === entry) redraw(); };
    entry.promise.then(again, again);
  }
  if (entry.answer) return entry.answer;
  const before = earlier.get(key) ?? null;
  if (before) earlierShown = true;
  return before;
}

/** Whether `oddsNow` gave an earlier view's answer since the last call (and forget it).
 * @returns {boolean} */
export function shownEarlier() {
  const shown = earlierShown;
  earlierShown = false;
  return shown;
}
