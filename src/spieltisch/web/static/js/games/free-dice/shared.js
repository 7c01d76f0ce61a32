// @ts-check
import { legal } from "../../legal.js";

// What the free table's panels share: who may act for a combatant, and sending for it.

/**
 * The table page's context of a game (`table.js`: state, viewer, send, ...).
 * @typedef {import("../../legal.js").Ctx & Record<string, any>} Ctx
 * A combatant of the free table as the viewer sees it.
 * @typedef {Record<string, any>} Combatant
 */

/**
 * The combatants by id.
 * @param {Ctx} ctx
 * @returns {Map<string, Combatant>}
 */
export function byId(ctx) {
  return new Map((ctx.state.combatants || []).map((/** @type {Combatant} */ c) => [c.id, c]));
}

/**
 * Whether this viewer may act for combatant `c` (its owner or the GM).
 * @param {Ctx} ctx
 * @param {Combatant} c
 * @returns {boolean}
 */
export function mayAct(ctx, c) {
  return ctx.isGm || (ctx.me.role === "player" && c.mine);
}

/**
 * Send a command about combatant `c`: a secret combatant's commands stay hidden.
 * @param {Ctx} ctx
 * @param {Combatant | null | undefined} c
 * @param {Record<string, unknown>} command
 * @returns {Promise<any>}
 */
export function sendFor(ctx, c, command) {
  return ctx.send(command, c && c.secret ? { hidden: true } : {});
}

/**
 * `legal()` for a command about combatant `c`, asked as `sendFor` would send it.
 * @param {Ctx} ctx
 * @param {Combatant | null | undefined} c
 * @param {HTMLButtonElement} button
 * @param {Record<string, unknown>} command
 */
export function legalFor(ctx, c, button, command) {
  return legal(ctx, button, command, { hidden: Boolean(c && c.secret) });
}
