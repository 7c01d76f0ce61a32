import { legal } from "../../legal.js";

// What the free table's panels share: who may act for a combatant, and sending for it.

/** The combatants by id. */
export function byId(ctx) {
  return new Map((ctx.state.combatants || []).map((c) => [c.id, c]));
}

/** Whether this viewer may act for combatant `c` (its owner or the GM). */
export function mayAct(ctx, c) {
  return ctx.isGm || (ctx.me.role === "player" && c.mine);
}

/** Send a command about combatant `c`: a secret combatant's commands stay hidden. */
export function sendFor(ctx, c, command) {
  return ctx.send(command, c && c.secret ? { hidden: true } : {});
}

/** `legal()` for a command about combatant `c`, asked as `sendFor` would send it. */
export function legalFor(ctx, c, button, command) {
  return legal(ctx, button, command, { hidden: Boolean(c && c.secret) });
}
