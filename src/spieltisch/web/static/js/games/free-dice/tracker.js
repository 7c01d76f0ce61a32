// @ts-check
// The combat tracker: the initiative order, whose turn it is, the round, each combatant's
// tracks and effects with what remains of them; the GM's turn buttons, an owner's "end turn".
import { el, t } from "../../core.js";
import { legal } from "../../legal.js";
import { byId, legalFor, mayAct, sendFor } from "./shared.js";
import { live } from "../../morph.js";

/** @typedef {import("./shared.js").Ctx} Ctx */
/** @typedef {import("./shared.js").Combatant} Combatant */
/** @typedef {Record<string, any>} Effect */
/** @typedef {{ name: string, current: number, maximum: number }} Track */
/** @typedef {{ order: string[], done: string[], delayed: string[], current: string | null, round: number }} Fight */

/**
 * @param {Ctx} ctx
 * @param {Effect} effect
 */
function effectText(ctx, effect) {
  const who = effect.who ? (byId(ctx).get(effect.who)?.name || effect.who) : "";
  const level = effect.level != null ? " " + t("web.freedice.level", { level: effect.level }) : "";
  const until = effect.until === "removed" ? "" : " · " + t("web.freedice.until." + effect.until, { count: effect.remaining, who });
  return effect.name + level + until;
}

/**
 * @param {Ctx} ctx
 * @param {Combatant} c
 * @param {Effect} effect
 */
function effectChip(ctx, c, effect) {
  const remove = mayAct(ctx, c) ? el("button", {
    type: "button", class: "small link", "aria-label": t("web.freedice.remove_effect", { name: effect.name, target: c.name }),
    onclick: () => sendFor(ctx, c, { kind: "remove_effect", target: c.id, name: effect.name }),
  }, "×") : null;
  return el("li", { class: "fd-effect", dataset: { effect: effect.name } }, effectText(ctx, effect), " ", remove);
}

/**
 * @param {Ctx} ctx
 * @param {Combatant} c
 * @param {Track} track
 * @param {number} index
 */
function trackRow(ctx, c, track, index) {
  const text = `${track.name} ${track.current}/${track.maximum}`;
  const parts = [el("span", { class: "fd-track-value", id: `fd-track-${c.id}-${index}` }, text)];
  if (mayAct(ctx, c)) {
    const amount = el("input", {
      id: `fd-amt-${c.id}-${index}`, type: "number", min: 0, step: 1, value: 1, class: "fd-amount",
      "aria-label": t("web.freedice.amount", { track: track.name, name: c.name }),
    });
    const command = (/** @type {string} */ kind, /** @type {number} */ value) => ({ kind: "change_track", combatant: c.id, track: track.name, change: kind, amount: value });
    const change = (/** @type {string} */ kind) => () => sendFor(ctx, c, command(kind, Math.max(0, Number(live(amount).value) || 0)));
    // Asked with one point: at the floor no damage, at the maximum no healing changes anything.
    parts.push(amount,
      legalFor(ctx, c, el("button", { type: "button", class: "small", id: `fd-dmg-${c.id}-${index}`, onclick: change("damage") }, t("web.freedice.damage")), command("damage", 1)),
      legalFor(ctx, c, el("button", { type: "button", class: "small", id: `fd-heal-${c.id}-${index}`, onclick: change("heal") }, t("web.freedice.heal")), command("heal", 1)));
  }
  return el("div", { class: "fd-track" }, ...parts);
}

/**
 * @param {Ctx} ctx
 * @param {Combatant} c
 * @param {Fight | null} fight
 */
function row(ctx, c, fight) {
  const current = fight && fight.current === c.id;
  const swatch = el("span", { class: "fd-swatch", "aria-hidden": "true" });
  swatch.style.background = c.colour;
  const tools = [];
  if (current && mayAct(ctx, c)) {
    const end = { kind: "end_turn", combatant: c.id };
    const delay = { kind: "delay", combatant: c.id };
    tools.push(legalFor(ctx, c, el("button", { type: "button", class: "small", id: `fd-end-turn-${c.id}`, onclick: () => sendFor(ctx, c, end) }, t("web.freedice.end_turn")), end));
    tools.push(legalFor(ctx, c, el("button", { type: "button", class: "small", id: `fd-delay-${c.id}`, onclick: () => sendFor(ctx, c, delay) }, t("web.freedice.delay")), delay));
  }
  if (ctx.me.role === "player" && c.claimable && !c.mine) {
    tools.push(el("button", { type: "button", class: "small", id: `fd-claim-${c.id}`, onclick: () => ctx.send({ kind: "claim", combatant: c.id }) }, t("web.freedice.claim")));
  }
  if (ctx.isGm) {
    if (fight && fight.order.includes(c.id)) {
      tools.push(el("button", { type: "button", class: "small link", onclick: () => sendFor(ctx, c, { kind: "leave_fight", combatant: c.id }) }, t("web.freedice.leave")));
    }
    tools.push(el("button", { type: "button", class: "small link", "aria-label": t("web.freedice.remove_label", { name: c.name }), onclick: () => sendFor(ctx, c, { kind: "remove_combatant", combatant: c.id }) }, t("web.freedice.remove")));
  }
  const badges = [];
  if (c.secret) badges.push(el("span", { class: "badge hidden-badge" }, t("web.freedice.secret")));
  if (c.mine) badges.push(el("span", { class: "badge" }, t("web.freedice.mine")));
  if (fight && fight.delayed.includes(c.id)) badges.push(el("span", { class: "badge" }, t("web.freedice.delayed")));
  const move = c.move_left != null ? el("span", { class: "muted small-print" }, t("web.freedice.move_left", { count: c.move_left })) : null;
  return el("li", {
    id: `fd-c-${c.id}`, class: "fd-combatant" + (current ? " is-current" : "") + (fight && fight.done.includes(c.id) ? " is-done" : ""),
    "aria-current": current ? "true" : null,
  },
  el("div", { class: "fd-head" }, swatch, el("strong", { class: "fd-name" }, c.name),
    el("span", { class: "muted" }, " · ", c.side), c.roll != null ? el("span", { class: "fd-init", title: c.initiative }, " · ", t("web.freedice.ini", { n: c.roll })) : null,
    ...badges, move),
  ...c.tracks.map((/** @type {Track} */ track, /** @type {number} */ i) => trackRow(ctx, c, track, i)),
  c.effects.length ? el("ul", { class: "fd-effects" }, ...c.effects.map((/** @type {Effect} */ x) => effectChip(ctx, c, x))) : null,
  tools.length ? el("div", { class: "row fd-tools" }, ...tools) : null);
}

/**
 * The tracker panel.
 * @param {Ctx} ctx
 */
export function renderTracker(ctx) {
  /** @type {Fight | null} */
  const fight = ctx.state.fight;
  const all = ctx.state.combatants || [];
  const map = byId(ctx);
  const ordered = fight ? [...fight.order.map((id) => map.get(id)).filter(Boolean), ...all.filter((/** @type {Combatant} */ c) => !fight.order.includes(c.id))] : all;
  const head = fight
    ? el("p", { id: "fd-round", class: "fd-round" }, t("web.freedice.round", { round: fight.round, name: fight.current ? map.get(fight.current)?.name || "–" : "–" }))
    : el("p", { id: "fd-round", class: "muted" }, t("web.freedice.no_fight"));
  const buttons = [];
  if (ctx.isGm) {
    const b = (/** @type {string} */ id, /** @type {string} */ text, /** @type {Record<string, unknown>} */ command, attrs = {}) => legal(ctx, el("button", { type: "button", id, onclick: () => ctx.send(command), ...attrs }, text), command);
    buttons.push(b("fd-roll-init", t("web.freedice.roll_init"), { kind: "roll_initiative" }));
    if (!fight) buttons.push(b("fd-start-fight", t("web.freedice.start_fight"), { kind: "start_fight" }));
    else {
      buttons.push(b("fd-next-turn", t("web.freedice.next_turn"), { kind: "next_turn" }, { class: "primary" }));
      buttons.push(b("fd-next-round", t("web.freedice.next_round"), { kind: "next_round" }));
      buttons.push(b("fd-end-fight", t("web.freedice.end_fight"), { kind: "end_fight" }));
    }
  }
  return el("section", { class: "card", id: "fd-fight", "aria-labelledby": "fd-fight-heading" },
    el("h2", { id: "fd-fight-heading" }, t("web.freedice.tracker")),
    head,
    buttons.length ? el("div", { class: "row" }, ...buttons) : null,
    ordered.length ? el("ol", { id: "fd-tracker", class: "fd-tracker" }, ...ordered.map((/** @type {Combatant} */ c) => row(ctx, c, fight)))
      : el("p", { class: "muted" }, t("web.freedice.nobody")));
}
