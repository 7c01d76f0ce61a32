// @ts-check
// The free-dice table: roll any notation (with its exact odds first), and a generic fight —
// a combat tracker and a battle map — for any game.
import { LANG, el, t } from "../../core.js";
import { renderDice, rollResult } from "../../dice.js";
import { checkField, fieldLabel } from "../../forms.js";
import { oddsChart } from "../../odds.js";
import { renderMap } from "./map.js";
import { renderTools } from "./tools.js";
import { renderTracker } from "./tracker.js";
import { pieceTurn } from "../../notices.js";

/** @typedef {import("./shared.js").Ctx} Ctx */
/** An event of the free table as the log and the state hold it. @typedef {Record<string, any>} GameEvent */

// `odds`: the roll whose odds were asked for ("show odds"), drawn from the page's odds cache.
/** @type {{ expression: string, label: string, hidden: boolean, odds: Record<string, unknown> | null }} */
const draft = { expression: "3d6", label: "", hidden: false, odds: null };

/**
 * The record that logged `event` (a roll shown from the state), for the notation as typed.
 * @param {Ctx} ctx
 * @param {GameEvent} event
 * @returns {any}
 */
function recordOf(ctx, event) {
  const dice = JSON.stringify(event.dice);
  const records = [...(ctx.records || [])].sort((a, b) => b.seq - a.seq);
  return records.find((/** @type {any} */ r) => r.command?.kind === "roll"
    && r.events?.[0]?.expression === event.expression && JSON.stringify(r.events[0].dice) === dice) || null;
}

/** @param {Ctx} ctx */
function lastRoll(ctx) {
  const rolls = ctx.state.rolls || [];
  const last = rolls[rolls.length - 1];
  return el("div", { id: "fd-last", "aria-live": "polite" }, last ? [
    el("p", {}, describe(last, ctx, recordOf(ctx, last))),
    renderDice(last.dice, { size: 48 }),
    (last.hints || []).map((/** @type {string} */ code) => el("p", { class: "muted small-print hint" }, t("dice.hint." + code))),
  ] : el("p", { class: "muted" }, t("web.freedice.none")));
}

/** @param {Ctx} ctx */
function rollForm(ctx) {
  const odds = draft.odds && ctx.oddsNow(draft.odds);
  const chart = el("div", { id: "odds", class: "odds", "aria-live": "polite" },
    !odds ? null : odds.error ? el("p", { class: "muted", role: "status" }, odds.error) : oddsChart(odds));
  const expr = el("input", { id: "fd-expression", value: draft.expression, required: true, autocomplete: "off", oninput: (/** @type {any} */ e) => (draft.expression = e.target.value) });
  const label = el("input", { id: "fd-label", value: draft.label, autocomplete: "off", oninput: (/** @type {any} */ e) => (draft.label = e.target.value) });
  const command = () => ({ kind: "roll", expression: draft.expression.trim(), label: draft.label.trim() || null });
  return el("section", { class: "card", id: "fd-roll" },
    el("h2", {}, t("web.freedice.heading")),
    el("form", { class: "form", onsubmit: async (/** @type {SubmitEvent} */ e) => {
      e.preventDefault();
      // Hidden is chosen per roll: the box is cleared once the roll is made.
      if (await ctx.send(command(), { hidden: draft.hidden || undefined })) {
        draft.hidden = false;
        const box = /** @type {HTMLInputElement | null} */ (document.getElementById("fd-hidden"));
        if (box) box.checked = false;
      }
    } },
      el("div", { class: "field" }, fieldLabel(expr, t("web.freedice.expression")), expr),
      el("div", { class: "field" }, el("label", { for: "fd-label" }, t("web.freedice.label")), label),
      ctx.isGm ? checkField("fd-hidden", t("web.gm.hidden_roll"), draft.hidden, { onchange: (/** @type {any} */ e) => { draft.hidden = e.target.checked; } }) : null,
      el("div", { class: "row" },
        el("button", { type: "button", onclick: () => { draft.odds = command(); ctx.rerender(); } }, t("web.odds.show")),
        el("button", { type: "submit", class: "primary" }, t("web.freedice.roll")))),
    chart);
}

/** Render the map, the roll form and the last roll (the scene), and return the tracker
 * (sheets) and the tools (see docs/web-table.md, "Regions").
 * @param {HTMLElement} body
 * @param {Ctx} ctx
 */
export function render(body, ctx) {
  const spectator = ctx.me.role === "spectator";
  // The map is the middle of the table: first in the scene, the roll form below it.
  body.replaceChildren(
    renderMap(ctx),
    el("div", { class: "fd-roll-row" },
      spectator ? null : rollForm(ctx),
      el("section", { class: "card" }, el("h2", {}, t("web.freedice.last")), lastRoll(ctx))));
  return { sheets: renderTracker(ctx), tools: renderTools(ctx) };
}

/**
 * @param {Ctx | null | undefined} ctx
 * @param {string} id
 * @returns {string}
 */
function nameOf(ctx, id) {
  return (ctx?.state?.combatants || []).find((/** @type {any} */ c) => c.id === id)?.name || id;
}

/**
 * @param {Ctx | null | undefined} ctx
 * @param {{ name: string, target: string }[] | undefined} expired
 */
function expiredText(ctx, expired) {
  if (!expired || !expired.length) return "";
  return " " + t("web.freedice.ev.expired", { effects: expired.map((x) => `${x.name} (${nameOf(ctx, x.target)})`).join(", ") });
}

/**
 * What a contact ran into, in words ("Spy (e5), a wall (c3)").
 * @param {GameEvent} event
 */
function touchedText(event) {
  /** @type {string[]} */
  const parts = (event.combatants || []).map((/** @type {any} */ c) => t("web.freedice.ev.discovered_token", { name: c.creature.name, square: c.position || "–" }));
  if ((event.walls || []).length) parts.push(t("web.freedice.ev.discovered_wall", { squares: event.walls.join(", ") }));
  if (event.width != null) parts.push(t("web.freedice.ev.discovered_edge", { width: event.width, height: event.height }));
  if (event.rough) parts.push(t("web.freedice.ev.discovered_rough"));
  return new Intl.ListFormat(LANG, { type: "conjunction" }).format(parts);
}

/** A roll for people: the notation as typed (from its record), the result, a compared
 * total's verdict, the labelled terms and group members, the comment.
 * @param {GameEvent} event
 * @param {string | null} written
 */
function rollText(event, written) {
  const expression = written || event.expression;
  let text = t("web.freedice.rolled", { expression, result: rollResult(event) });
  if (event.comment) text += " " + t("web.freedice.comment", { comment: event.comment });
  return text;
}

/**
 * One line per event for the log (`record`: the record that logged it, when known).
 * @param {GameEvent} event
 * @param {Ctx | null | undefined} ctx
 * @param {any} [record]
 * @returns {string | null}
 */
export function describe(event, ctx, record = null) {
  const k = "web.freedice.ev.";
  switch (event.kind) {
    case "rolled": {
      const written = record?.command?.kind === "roll" ? record.command.expression : null;
      const roll = rollText(event, written);
      return event.label ? t("web.freedice.rolled_label", { roll, label: event.label }) : roll;
    }
    case "combatant_added": return t(k + "added", { name: event.creature.name });
    case "claimed": return t(k + "claimed", { name: nameOf(ctx, event.combatant) });
    case "combatant_removed": return t(k + "removed", { name: event.name });
    case "initiative_rolled":
      return t(k + "initiative", { rolls: event.rolls.map((/** @type {any} */ r) => `${r.name} ${r.result}`).join(", ") });
    case "fight_advanced":
      return t(k + "advanced", { round: event.round, name: event.current ? nameOf(ctx, event.current) : "–" }) + expiredText(ctx, event.expired);
    case "fight_ended": return t(k + "ended") + expiredText(ctx, event.expired);
    case "effect_applied": return t(k + "effect", { name: event.name, target: nameOf(ctx, event.target) });
    case "effect_removed": return t(k + "effect_removed", { name: event.name, target: nameOf(ctx, event.target) });
    case "track_changed":
      return t(k + "track", { name: nameOf(ctx, event.combatant), track: event.track, current: event.current, maximum: event.maximum });
    case "moved": return t(k + "moved", { name: nameOf(ctx, event.combatant), to: event.path[event.path.length - 1], count: event.cost });
    case "map_set": return t(k + "map", { width: event.width, height: event.height });
    case "terrain_painted": return t(k + "painted", { count: event.squares.length, terrain: t("web.map.terrain." + (event.terrain || "plain")) });
    case "image_set": return t(event.image ? k + "image" : k + "no_image");
    case "discovered":
      return t(event.at ? k + "discovered" : k + "discovered_unplaced", { name: event.name, what: touchedText(event), at: event.at, to: event.to });
    default: return null;
  }
}

/**
 * Initiative rolls carry their dice in `rolls`.
 * @param {GameEvent} event
 * @returns {unknown[] | null}
 */
export function diceOf(event) {
  if (event.kind === "initiative_rolled") return event.rolls.flatMap((/** @type {any} */ r) => r.dice || []);
  return null;
}

/**
 * Whose turn it is in the fight (the decisions contract, docs/web-table.md).
 * @param {Ctx} ctx
 */
export function turn(ctx) {
  const current = ctx.state.fight?.current;
  return current ? pieceTurn(ctx, current, nameOf(ctx, current), `fd-c-${current}`) : null;
}
