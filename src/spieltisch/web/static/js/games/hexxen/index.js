// @ts-check
// HeXXen 1733: hunter sheets, NSC from pasted Wertekästen, the combat tracker in INI order
// with the INI-0 phase, the attack the hunter answers (with the odds of each defence),
// checks and comparative checks with Janus dice as bonus or malus, and the battle map.
// The page only asks; every number comes from the view or the odds API.
import { percent, slug } from "../../helpers.js";
import { details, el, t, tFirst } from "../../core.js";
import { renderDice } from "../../dice.js";
import { addressedTo, pieceTurn } from "../../notices.js";
import { oddsChart as chartOf } from "../../odds.js";
import { battleMap, centreToken, mapFrame } from "../../fight/map.js";
import { field, numberInput, readInt, select, textInput, checkField } from "../../forms.js";
import { commandForm } from "../../schemaform.js";

/** @typedef {import("./types.js").View} HexxenView */
/** @typedef {import("./types.js").Hunter} Hunter */
/** @typedef {import("./types.js").Npc} Npc */
/** @typedef {import("./types.js").FieldEvent} FieldEvent */
/** One outcome of an odds answer. @typedef {{ value: any, probability: number }} Outcome */
/** @typedef {import("../../types.js").TableContext<HexxenView>} TableContext */
/** @typedef {import("../../types.js").TableRecord} TableRecord */

const ATTRIBUTES = ["KKR", "ATH", "GES", "SIN", "WIS", "WIL"];
const EFFECTS = ["outer_damage", "inner_damage", "malus", "paralysis"];
const COLOURS = { hunters: "#2f7d4f", npcs: "#8e2b2b" };

/** The odds as a chart (odds.js), as this page calls it.
 * @type {(answer: any, options: { caption?: string, labeler?: (value: any) => string }) => HTMLElement} */
const oddsChart = /** @type {any} */ (chartOf);

// What the person is typing or choosing; kept across re-renders.
/**
 * @type {{
 *   create: { name: string, armour: string, attrs: Record<string, string>, skills: Record<string, string> },
 *   npc: { name: string, kind: string, level: string, block: string, secret: boolean,
 *     error: { message: string, position: number | null } | null },
 *   check: Record<string, string>, defend: Record<string, string>, declare: Record<string, string>,
 *   power: { targets: Set<string> }, gm: Record<string, string>, edit: Record<string, any>,
 *   map: { selected: string | null }, bind: Record<string, string>,
 *   hex: string, tag: string, npcCheck?: { attribute: string, against: string, skill: string },
 * }}
 */
const draft = {
  create: { name: "", armour: "0", attrs: { KKR: "2", ATH: "2", GES: "2", SIN: "2", WIS: "2", WIL: "2" }, skills: {} },
  npc: { name: "", kind: "anfuehrer", level: "1", block: "", secret: false, error: null },
  check: { hunter: "", skill: "", bonus: "0", malus: "0", ap: "0", npc: "" },
  defend: { bonus: "0", malus: "0" },
  declare: { target: "", bonus: "0", malus: "0" },
  power: { targets: new Set() },
  gm: { target: "", effect: "outer_damage", level: "1", lep: "" },
  edit: {},
  map: { selected: null },
  bind: {},
  hex: "1",
  tag: "",
};
let focusResult = false;
/** The dice faces of the view by die letter (the log draws dice before the game renders).
 * @type {Record<string, any[]> | null} */
let FACES = null;

// -- small helpers ----------------------------------------------------------------------------

/** @param {TableContext} ctx */
function pieces(ctx) {
  return new Set(ctx.me.pieces || []);
}

/**
 * @param {TableContext} ctx
 * @param {{ id: string }} hunter
 */
function mayAct(ctx, hunter) {
  return ctx.isGm || (ctx.me.role === "player" && pieces(ctx).has(hunter.id));
}

/** @param {TableContext} ctx
 * @returns {(Hunter | Npc)[]} */
function everyone(ctx) {
  return [...ctx.state.hunters, ...ctx.state.npcs];
}

/** @param {TableContext} ctx */
function byId(ctx) {
  return new Map(everyone(ctx).map((c) => [c.id, c]));
}

/**
 * @param {TableContext} ctx
 * @param {string} id
 */
function nameOf(ctx, id) {
  return byId(ctx).get(id)?.name || t("web.hexxen.someone");
}

/** Send a command about `who`: a secret NSC's commands stay hidden records.
 * @param {TableContext} ctx
 * @param {any} who
 * @param {any} command
 */
function sendFor(ctx, who, command) {
  return ctx.send(command, who && who.secret ? { hidden: true } : {});
}

/**
 * @param {any} value
 * @param {number} [fallback]
 */
function num(value, fallback = 0) {
  const n = Number(value);
  return value !== "" && Number.isInteger(n) ? n : fallback;
}

/** An effect's name; a tagged one (`malus[Furcht]`) names its tag too.
 * @param {any} kind
 */
function effectName(kind) {
  const found = /^(\w+)\[(.+)\]$/.exec(kind);
  return found ? t("web.hexxen.effect_tagged", { effect: t("web.hexxen.effect." + found[1]), tag: found[2] }) : t("web.hexxen.effect." + kind);
}

/** What the number of Blut- or Elixierwürfel gives: damage, or levels of an effect.
 * @param {any} gives
 */
function givesName(gives) {
  return gives === "lep" ? t("web.hexxen.gives_damage") : effectName(gives);
}

/** "2 Blutwürfel" in the page's language.
 * @param {any} count
 * @param {any} die
 */
function diceName(count, die) {
  return t("web.hexxen.dice_count", { count, die: t("web.hexxen.die." + die) });
}

/** A property of an NSC and whether the table applies it ("wirkt: …") or only shows it.
 * @param {any} trait
 */
function traitText(trait) {
  if (!trait.applied) return t("web.hexxen.trait.shown", { text: trait.text });
  const effect = trait.effect ? (trait.does === "immune" ? trait.effect : givesName(trait.effect)) : t("web.hexxen.gives_damage");
  const dice = trait.die ? diceName(trait.count, trait.die) : "";
  return t("web.hexxen.trait." + trait.does, { text: trait.text, count: trait.count, dice, effect: trait.does === "attack_dice" && trait.tag ? `${effect} [${trait.tag}]` : effect });
}

/**
 * @param {string} id
 * @param {any} value
 * @param {(value: string) => void} oninput
 * @param {Record<string, unknown>} [attrs]
 */
function input(id, value, oninput, attrs = {}) {
  return textInput(id, value, { oninput: (/** @type {FieldEvent} */ e) => oninput(e.target.value), ...attrs });
}

/**
 * @param {string} id
 * @param {any} value
 * @param {(value: string) => void} oninput
 * @param {Record<string, unknown>} [attrs]
 */
function numIn(id, value, oninput, attrs = {}) {
  return numberInput(id, value, { oninput: (/** @type {FieldEvent} */ e) => oninput(e.target.value), ...attrs });
}

/**
 * @param {string} id
 * @param {any} value
 * @param {any} choices
 * @param {(value: string) => void} onchange
 * @param {Record<string, unknown>} [attrs]
 */
function pick(id, value, choices, onchange, attrs = {}) {
  return select(id, choices, value, { onchange: (/** @type {FieldEvent} */ e) => onchange(e.target.value), ...attrs });
}

/** A button that cannot work now is disabled and says why.
 * @param {string} id
 * @param {string} text
 * @param {() => void} onclick
 * @param {string | null} [reason]
 * @param {Record<string, unknown>} [attrs]
 */
function button(id, text, onclick, reason = null, attrs = {}) {
  return el("button", { type: "button", id, onclick, disabled: Boolean(reason), title: reason || null, "aria-description": reason || null, ...attrs }, text);
}

// -- odds ---------------------------------------------------------------------------------------

/**
 * @param {any} answer
 * @param {any} test
 */
function chance(answer, test) {
  return (answer.outcomes || []).filter((/** @type {Outcome} */ o) => test(o.value)).reduce((/** @type {number} */ sum, /** @type {Outcome} */ o) => sum + o.probability, 0);
}

/**
 * @param {TableContext} ctx
 * @param {any} command
 * @param {any} options
 */
function oddsBlock(ctx, command, { caption, margin = false, id }) {
  const answer = ctx.oddsNow(command);
  if (!answer) return el("p", { class: "muted", id }, t("web.hexxen.odds_loading"));
  if (answer.error) return el("p", { class: "muted", id }, answer.error);
  const labeler = margin ? (/** @type {number} */ v) => t("web.hexxen.margin_value", { n: v }) : (/** @type {number} */ v) => t("web.hexxen.successes_value", { count: v });
  return el("div", { id, class: "hx-odds" }, oddsChart(answer, { caption, labeler }), ...diceOdds(answer));
}

const DICE_PART = /^(blood|elixir):/;

/** The odds' parts for Blut and Elixier dice (keyed `die:effect`): the chance of each number.
 * @param {any} answer
 * @param {any} [key]
 */
function diceOdds(answer, key = "web.hexxen.dice_odds") {
  return (answer.parts || []).filter((/** @type {any} */ part) => DICE_PART.test(part.key)).map((/** @type {any} */ part) => {
    const [die, gives] = [part.key.slice(0, part.key.indexOf(":")), part.key.slice(part.key.indexOf(":") + 1)];
    const chances = part.odds.outcomes.filter((/** @type {Outcome} */ o) => o.probability > 0).map((/** @type {Outcome} */ o) => `${o.value}: ${percent(o.probability)}`).join(" · ");
    return el("p", { class: "small-print hx-dice-odds", dataset: { dice: part.key } }, t(key, { die: t("web.hexxen.die." + die), gives: givesName(gives), chances }));
  });
}

/** "p/q" as a number.
 * @param {string} text
 */
function eval_fraction(text) {
  const [p, q] = String(text).split("/").map(Number);
  return q ? p / q : p;
}

// -- dice and rolls -----------------------------------------------------------------------------

/**
 * @param {TableContext} ctx
 * @param {any} letter
 * @param {any} values
 */
function dieFaces(ctx, letter, values) {
  const table = ctx.state.faces[letter];
  return values.map((/** @type {number} */ v) => ({ die: letter, face: table[v - 1] }));
}

/**
 * @param {TableContext} ctx
 * @param {any} roll
 */
function janusLine(ctx, roll) {
  if (!roll.net) return null;
  const kind = roll.net > 0 ? "bonus" : "malus";
  return el("span", { class: "hx-janus hx-janus-" + kind, dataset: { kind } },
    t("web.hexxen.janus_" + kind, { n: Math.abs(roll.net), symbols: roll.janus_symbols }), " ",
    renderDice(dieFaces(ctx, "J", roll.janus), { size: 28 }));
}

/**
 * @param {TableContext} ctx
 * @param {any} roll
 * @param {any} who
 * @param {string | null} id
 */
function rollView(ctx, roll, who, id) {
  return el("div", { class: "hx-roll", id },
    el("p", {}, el("strong", {}, who), " · ",
      t(roll.die === "M" ? "web.hexxen.roll_gm" : "web.hexxen.roll_hunter", { count: roll.total, successes: roll.successes, stars: roll.stars })),
    renderDice(dieFaces(ctx, roll.die, roll.dice), { size: 32 }),
    janusLine(ctx, roll));
}

/** @param {TableContext} ctx */
function lastView(ctx) {
  const last = ctx.state.last;
  if (!last) return null;
  const d = last.detail;
  const parts = [];
  let headline = "";
  if (last.kind === "check_rolled") {
    headline = t("web.hexxen.last.check", { name: nameOf(ctx, d.hunter), skill: d.skill, count: d.roll.total });
    parts.push(rollView(ctx, d.roll, nameOf(ctx, d.hunter), "hx-last-roll"));
  } else if (last.kind === "contest_rolled") {
    headline = t(d.margin > 0 ? "web.hexxen.last.contest_won" : "web.hexxen.last.contest_lost", { name: nameOf(ctx, d.hunter), npc: nameOf(ctx, d.npc), skill: d.skill, margin: Math.abs(d.margin) });
    parts.push(rollView(ctx, d.roll, nameOf(ctx, d.hunter), "hx-last-roll"), rollView(ctx, d.npc_roll, nameOf(ctx, d.npc), "hx-last-npc-roll"));
  } else if (last.kind === "attack_rolled") {
    headline = d.hit ? t("web.hexxen.last.hit", { npc: nameOf(ctx, d.npc), attack: d.attack, name: nameOf(ctx, d.target), margin: d.margin, lep: d.lep_lost })
      : t("web.hexxen.last.miss", { npc: nameOf(ctx, d.npc), attack: d.attack, name: nameOf(ctx, d.target), margin: d.margin });
    parts.push(rollView(ctx, d.roll, nameOf(ctx, d.npc), "hx-last-roll"));
    if (d.defense_roll) parts.push(rollView(ctx, d.defense_roll, `${nameOf(ctx, d.target)} · ${t("web.hexxen.defense." + d.defense)}`, "hx-last-defense"));
    if (d.blood.length) parts.push(el("p", {}, t("web.hexxen.blood", { drops: d.drops }), " ", renderDice(dieFaces(ctx, "B", d.blood), { size: 28 })));
    if (d.elixir.length) parts.push(el("p", {}, t("web.hexxen.elixir", { values: d.elixir.join(", ") })));
    for (const s of d.special || []) {
      const text = t("web.hexxen.special_rolled", { die: t("web.hexxen.die." + s.die), value: s.value, gives: givesName(s.effect), source: s.source || d.attack });
      parts.push(el("p", { class: "hx-special" }, text, " ", s.die === "blood" ? renderDice(dieFaces(ctx, "B", s.dice), { size: 28 }) : null));
    }
  } else if (last.kind === "power_used") {
    headline = t("web.hexxen.last.power", { npc: nameOf(ctx, d.npc), power: d.power, hex: d.hex });
    parts.push(rollView(ctx, d.roll, nameOf(ctx, d.npc), "hx-last-roll"));
    for (const r of d.results) {
      const text = r.margin > 0 ? t("web.hexxen.last.power_hits", { name: nameOf(ctx, r.hunter), margin: r.margin, amount: r.amount, effect: r.effect ? effectName(r.effect) : t("web.hexxen.effect.reported") })
        : t("web.hexxen.last.power_fails", { name: nameOf(ctx, r.hunter) });
      const dice = r.dice && r.dice.length ? el("p", { class: "small-print" }, t("web.hexxen.target_dice", { count: r.dice.length, value: r.amount })) : null;
      parts.push(el("div", { class: "hx-target-result", id: `hx-last-target-${r.hunter}` }, el("p", {}, text), dice, rollView(ctx, r.roll, nameOf(ctx, r.hunter), null)));
    }
  }
  const focus = focusResult;
  focusResult = false;
  const box = el("section", { class: "card hx-last", id: "hx-last", tabindex: "-1", "aria-labelledby": "hx-last-heading" },
    el("h2", { id: "hx-last-heading" }, t("web.hexxen.last_heading", { number: ctx.state.checks })),
    el("p", { id: "hx-last-text", class: "hx-headline" }, headline), ...parts);
  if (focus) queueMicrotask(() => document.getElementById("hx-last")?.focus());
  return box;
}

/**
 * @param {TableContext} ctx
 * @param {any} who
 * @param {any} command
 */
async function roll(ctx, who, command) {
  const answer = await sendFor(ctx, who, command);
  if (answer) { focusResult = true; ctx.rerender(); }
  return answer;
}

// -- the tracker --------------------------------------------------------------------------------

/** @param {TableContext} ctx */
function statusLine(ctx) {
  const fight = ctx.state.fight;
  if (!fight) return t("web.hexxen.no_fight");
  return fight.current ? t("web.hexxen.round_turn", { round: fight.round, name: nameOf(ctx, fight.current) }) : t("web.hexxen.round", { round: fight.round });
}

/** @param {any} who */
function effectsOf(who) {
  return Object.entries(who.effects || {}).map(([kind, level]) => t("web.hexxen.effect_level", { effect: effectName(kind), level }));
}

/**
 * @param {TableContext} ctx
 * @param {any} who
 * @param {any} isHunter
 */
function combatantRow(ctx, who, isHunter) {
  const fight = ctx.state.fight;
  const facts = [t("web.hexxen.ini_value", { ini: who.ini }), t("web.hexxen.lep_value", { current: who.lep.current, maximum: who.lep.maximum })];
  if (isHunter) {
    if (fight && who.budgets.ap !== undefined) facts.push(t("web.hexxen.ap_value", { left: who.budgets.ap, round: who.ap_per_round }));
  } else {
    if (who.hex.maximum) facts.push(t("web.hexxen.hex_value", { current: who.hex.current, maximum: who.hex.maximum }));
    if (fight && who.budgets.handlungen !== undefined) facts.push(t("web.hexxen.handlungen_value", { left: who.budgets.handlungen, round: who.handlungen }));
  }
  const mod = who.check_modifier;
  if (mod.bonus || mod.malus) facts.push(t("web.hexxen.modifier_value", mod));
  const badges = [el("span", { class: "badge hx-bound " + (who.bound ? "is-bound" : "is-free"), id: `hx-bound-${who.id}` }, t(who.bound ? "web.hexxen.bound" : "web.hexxen.free"))];
  if (who.defeated) badges.push(el("span", { class: "badge undone-badge", id: `hx-down-${who.id}` }, t(isHunter ? "web.hexxen.down_hunter" : "web.hexxen.down_npc")));
  if (who.secret) badges.push(el("span", { class: "badge hidden-badge" }, t("web.hexxen.secret")));
  const effects = Object.entries(who.effects || {}).map(([kind, level]) => el("li", { class: "hx-effect", dataset: { effect: kind } },
    t("web.hexxen.effect_level", { effect: effectName(kind), level }),
    ctx.isGm ? el("button", { type: "button", class: "small", "aria-label": t("web.hexxen.remove_effect", { effect: effectName(kind), name: who.name }), onclick: () => sendFor(ctx, who, { kind: "remove_effect", target: who.id, effect: kind }) }, "×") : null));
  const tools = [];
  if (ctx.isGm || (isHunter && mayAct(ctx, who))) {
    // Binding is a pair: a hunter with an NSC. Free: from everyone it is bound with.
    const others = (isHunter ? ctx.state.npcs : ctx.state.hunters).filter((o) => !fight || fight.order.includes(o.id));
    const partner = draft.bind[who.id] && others.some((o) => o.id === draft.bind[who.id]) ? draft.bind[who.id] : others[0]?.id;
    if (!who.bound && others.length > 1) {
      tools.push(pick(`hx-bind-with-${who.id}`, partner, others.map((o) => [o.id, o.name]), (v) => { draft.bind[who.id] = v; }, { class: "small", "aria-label": t("web.hexxen.bind_with_label", { name: who.name }) }));
    }
    const command = who.bound ? { kind: "set_bound", target: who.id, bound: false } : { kind: "set_bound", target: who.id, bound: true, other: draft.bind[who.id] || partner };
    tools.push(button(`hx-toggle-bound-${who.id}`, t(who.bound ? "web.hexxen.make_free" : "web.hexxen.make_bound"),
      () => sendFor(ctx, who, command), !who.bound && !partner ? t("web.hexxen.reason.no_partner") : null, { class: "small" }));
  }
  if ((who.bound_with || []).length) facts.push(t("web.hexxen.bound_with", { list: who.bound_with.map((/** @type {string} */ id) => nameOf(ctx, id)).join(", ") }));
  const current = fight && fight.current === who.id;
  return el("li", { id: `hx-c-${who.id}`, class: ["hx-combatant", current ? "is-current" : "", isHunter ? "is-hunter" : "is-npc"].filter(Boolean).join(" "), "aria-current": current ? "true" : null },
    el("div", { class: "hx-c-head" }, el("strong", {}, who.name), ...badges),
    el("p", { class: "hx-facts", id: `hx-facts-${who.id}` }, facts.join(" · ")),
    effects.length ? el("ul", { class: "hx-effects", id: `hx-effects-${who.id}` }, effects) : null,
    tools.length ? el("div", { class: "row" }, tools) : null);
}

/** @param {TableContext} ctx */
function lastTicks(ctx) {
  const records = [...ctx.records].filter((r) => r.undoes == null).sort((a, b) => b.seq - a.seq);
  for (const record of records) {
    const ticks = (record.events || []).filter((e) => e.kind === "effect_ticked");
    if (ticks.length) return ticks;
  }
  return [];
}

/** @param {TableContext} ctx */
function ini0Block(ctx) {
  const fight = /** @type {import("./types.js").Fight} */ (ctx.state.fight);  // drawn in a fight
  const coming = fight.ini0.map((tick) => {
    const base = { name: nameOf(ctx, tick.target), effect: effectName(tick.effect), level: tick.level, amount: tick.amount };
    if (tick.decay === "check") {
      const none = Number(eval_fraction(tick.removed?.["0"] || "0/1"));
      return el("li", { class: "hx-abbau", dataset: { effect: tick.effect } },
        t(tick.amount ? "web.hexxen.ini0_abbau_damage" : "web.hexxen.ini0_abbau", { ...base, dice: tick.dice, chance: percent(1 - none) }));
    }
    return el("li", {}, t(tick.amount ? "web.hexxen.ini0_coming" : "web.hexxen.ini0_decay", base));
  });
  for (const heal of fight.healing || []) {
    const values = Object.keys(heal.chances).map(Number);
    coming.push(el("li", { class: "hx-heal", dataset: { npc: heal.npc } }, t("web.hexxen.ini0_heal", { name: nameOf(ctx, heal.npc), property: heal.property, dice: diceName(heal.dice, heal.die), low: Math.min(...values), high: Math.max(...values) })));
  }
  const past = lastTicks(ctx);
  return el("li", { class: "hx-ini0", id: "hx-ini0" },
    el("div", { class: "hx-c-head" }, el("strong", {}, t("web.hexxen.ini0")), el("span", { class: "muted" }, t("web.hexxen.ini0_hint"))),
    coming.length ? el("ul", { id: "hx-ini0-coming" }, coming) : el("p", { class: "muted", id: "hx-ini0-coming" }, t("web.hexxen.ini0_nothing")),
    past.length ? el("p", { id: "hx-ini0-last", class: "small-print" }, t("web.hexxen.ini0_last", { round: past[0].round }), " ",
      past.map((tick) => t("web.hexxen.ini0_ticked", { name: nameOf(ctx, tick.target), effect: effectName(tick.effect), level: tick.level, amount: tick.amount })).join("; ")) : null);
}

/** @param {TableContext} ctx */
function tracker(ctx) {
  const fight = ctx.state.fight;
  const hunters = new Map(ctx.state.hunters.map((h) => [h.id, h]));
  const npcs = new Map(ctx.state.npcs.map((n) => [n.id, n]));
  const order = fight ? fight.order : [];
  const rows = order.map((id) => combatantRow(ctx, hunters.get(id) || npcs.get(id), hunters.has(id)));
  if (fight) rows.push(ini0Block(ctx));
  const rest = everyone(ctx).filter((c) => !order.includes(c.id)).map((c) => combatantRow(ctx, c, hunters.has(c.id)));
  const pendingReason = fight?.pending ? t("web.hexxen.reason.pending", { name: nameOf(ctx, fight.pending.target) }) : null;
  const controls = [];
  if (ctx.isGm) {
    if (!fight) controls.push(button("hx-start-fight", t("web.hexxen.start_fight"), () => ctx.send({ kind: "start_fight", combatants: everyone(ctx).filter((c) => !c.secret).map((c) => c.id) }),
      everyone(ctx).length ? null : t("web.hexxen.reason.nobody")));
    else {
      controls.push(button("hx-next-turn", t("web.hexxen.next_turn"), () => ctx.send({ kind: "next_turn" }), pendingReason));
      controls.push(button("hx-end-fight", t("web.hexxen.end_fight"), () => ctx.send({ kind: "end_fight" })));
    }
  } else if (fight && fight.current && pieces(ctx).has(fight.current)) {
    controls.push(button("hx-end-turn", t("web.hexxen.end_turn"), () => ctx.send({ kind: "next_turn" }), pendingReason));
  }
  return el("section", { class: "card", id: "hx-tracker", "aria-labelledby": "hx-tracker-heading" },
    el("h2", { id: "hx-tracker-heading" }, t("web.hexxen.tracker")),
    el("p", { id: "hx-round", class: "hx-status" }, statusLine(ctx)),
    fight ? el("p", { class: "muted small-print", id: "hx-jz" }, t("web.hexxen.jz", { jz: fight.jz })) : null,
    el("ol", { class: "hx-order", id: "hx-order" }, rows),
    rest.length ? el("ul", { class: "hx-order hx-rest", id: "hx-rest" }, rest) : null,
    controls.length ? el("div", { class: "row" }, controls) : null);
}

// -- the attack and the defence -------------------------------------------------------------------

/**
 * @param {any} pending
 * @param {any} choice
 */
function defendCommand(pending, choice) {
  return { kind: "defend", hunter: pending.target, defense: choice, bonus: num(draft.defend.bonus), malus: num(draft.defend.malus) };
}

/** @param {TableContext} ctx */
function pendingCard(ctx) {
  const pending = ctx.state.fight?.pending;
  if (!pending) return null;
  const hunter = /** @type {Hunter} */ (byId(ctx).get(pending.target));  // the view names who it shows
  const threshold = ctx.state.options.hit_threshold;
  const head = el("p", { id: "hx-pending-text", class: "hx-headline" }, t("web.hexxen.pending", { npc: nameOf(ctx, pending.npc), attack: pending.attack, name: hunter.name, dice: pending.dice, damage: pending.damage }));
  const npcMod = pending.npc_modifier;
  const parts = [head];
  if (npcMod.bonus || npcMod.malus) parts.push(el("p", { class: "muted" }, t("web.hexxen.npc_modifier", { name: nameOf(ctx, pending.npc), ...npcMod })));
  const owner = ctx.me.role === "player" && pieces(ctx).has(hunter.id);
  const answer = [];
  if (mayAct(ctx, hunter)) {
    answer.push(el("p", {}, t("web.hexxen.pending_ask", { name: hunter.name, ap: pending.choices[1]?.ap ?? 1, left: pending.choices[1]?.ap_left ?? 0 })));
    answer.push(el("div", { class: "row" },
      field(t("web.hexxen.bonus"), numIn("hx-def-bonus", draft.defend.bonus, (v) => { draft.defend.bonus = v; ctx.rerender(); }, { min: 0, max: 5 })),
      field(t("web.hexxen.malus"), numIn("hx-def-malus", draft.defend.malus, (v) => { draft.defend.malus = v; ctx.rerender(); }, { min: 0, max: 5 }))));
    const choices = pending.choices.map((choice) => {
      const command = defendCommand(pending, choice.defense);
      const answer = choice.allowed ? ctx.oddsNow(command) : null;
      const summary = !choice.allowed ? null : !answer ? t("web.hexxen.odds_loading") : answer.error ? answer.error
        : t("web.hexxen.choice_odds", { hit: percent(chance(answer, (/** @type {number} */ v) => v >= threshold)) });
      const reason = choice.allowed ? null : choice.reason === "hexxen.no_ap_for_defense"
        ? t("web.hexxen.reason.no_ap", { name: hunter.name, ap: choice.ap }) : t("web.hexxen.reason.no_skill", { skill: choice.skill });
      const label = choice.defense === "none" ? t("web.hexxen.defense.none")
        : t("web.hexxen.defense_with", { defense: t("web.hexxen.defense." + choice.defense), dice: choice.dice, ap: choice.ap });
      return el("div", { class: "hx-choice", id: `hx-choice-${choice.defense}` },
        button(`hx-defend-${choice.defense}`, label, () => roll(ctx, hunter, command), reason, { class: choice.defense === "none" ? "" : "primary" }),
        el("p", { class: "hx-choice-odds", id: `hx-choice-odds-${choice.defense}` }, summary || reason),
        answer && !answer.error ? details(`hx-choice-chart-${choice.defense}`, t("web.hexxen.margin_chart"), oddsChart(answer, { caption: t("web.hexxen.margin_caption"), labeler: (v) => t("web.hexxen.margin_value", { n: v }) })) : null);
    });
    answer.push(el("div", { class: "hx-choices" }, choices));
  }
  if (owner) parts.push(...answer);
  else {
    parts.push(el("p", { class: "muted", id: "hx-pending-wait" }, t("web.hexxen.pending_wait", { name: hunter.name })));
    // The GM may answer for a hunter whose player is away.
    if (answer.length) parts.push(details("hx-gm-answer", t("web.hexxen.answer_for", { name: hunter.name }), el("div", {}, answer)));
  }
  return el("section", { class: "card hx-pending", id: "hx-pending", "aria-labelledby": "hx-pending-heading", role: "region", tabindex: "-1" },
    el("h2", { id: "hx-pending-heading" }, t("web.hexxen.pending_heading")), ...parts);
}

/** @param {TableContext} ctx */
function npcActions(ctx) {
  const fight = ctx.state.fight;
  if (!ctx.isGm || !fight || !fight.current) return null;
  const npc = ctx.state.npcs.find((n) => n.id === fight.current);
  if (!npc) return null;
  const legal = fight.legal || [];
  const hunters = ctx.state.hunters.filter((h) => fight.order.includes(h.id));
  if (!hunters.some((h) => h.id === draft.declare.target)) draft.declare.target = hunters[0]?.id || "";
  const left = npc.budgets.handlungen ?? 0;
  const reasonFor = (/** @type {any} */ line, /** @type {any} */ kind) => {
    if (fight.pending) return t("web.hexxen.reason.pending", { name: nameOf(ctx, fight.pending.target) });
    if (left < 1) return t("web.hexxen.reason.no_handlung", { name: npc.name });
    if (!legal.some((l) => l.kind === kind && (l.attack === line.name || l.power === line.name))) {
      if (kind === "npc_power" && line.hex > npc.hex.current) return t("web.hexxen.reason.no_hex", { cost: line.hex, left: npc.hex.current });
      // Where binding follows the map, the way to melee is a move next to a hunter.
      const byMap = ctx.state.options.binding_from_map && npc.position;
      return t(npc.bound ? "web.hexxen.reason.needs_free" : byMap ? "web.hexxen.reason.needs_bound_map" : "web.hexxen.reason.needs_bound", { name: npc.name });
    }
    return null;
  };
  const attacks = npc.attacks.map((line, i) => {
    const command = { kind: "declare_attack", npc: npc.id, attack: line.name, target: draft.declare.target, bonus: num(draft.declare.bonus), malus: num(draft.declare.malus) };
    const reason = reasonFor(line, "npc_attack") || (draft.declare.target ? null : t("web.hexxen.reason.no_target"));
    return el("li", { class: "hx-line" },
      el("span", {}, t("web.hexxen.attack_line", { range: line.range.join("|"), name: line.name, attack: line.attack, damage: line.damage })), " ",
      button(`hx-declare-${i}`, t("web.hexxen.declare"), () => sendFor(ctx, npc, command), reason, { class: "primary" }),
      !reason ? details(`hx-declare-odds-${i}`, t("web.hexxen.odds_undefended"), oddsBlock(ctx, command, { caption: t("web.hexxen.margin_caption"), margin: true, id: `hx-declare-chart-${i}` })) : null);
  });
  const ticked = [...draft.power.targets].filter((id) => hunters.some((h) => h.id === id));
  const powers = npc.powers.map((line, i) => {
    // Nothing ticked: a group power takes every hunter of the fight, any other none (the
    // button then says why) — never silently the first hunter.
    const targets = ticked.length ? ticked : line.max_targets === null ? hunters.map((h) => h.id) : [];
    const command = { kind: "npc_power", npc: npc.id, power: line.name, targets };
    const cost = line.hex * (line.hex_per_target ? Math.max(1, targets.length) : 1);
    const reason = reasonFor(line, "npc_power")
      || (targets.length ? null : t("web.hexxen.reason.no_target"))
      || (line.max_targets !== null && targets.length > line.max_targets ? t("web.hexxen.reason.too_many_targets", { count: line.max_targets }) : null)
      || (cost > npc.hex.current ? t("web.hexxen.reason.no_hex", { cost, left: npc.hex.current }) : null);
    return el("li", { class: "hx-line" },
      el("span", {}, t("web.hexxen.power_line", { range: line.range.join("|"), name: line.name, dice: line.dice, against: line.against, amount: line.per_difference.amount, effect: line.per_difference.effect, hex: line.hex })), " ",
      el("span", { class: "muted small-print", id: `hx-power-cost-${i}` }, t("web.hexxen.power_cost", { hex: cost, targets: targets.length })), " ",
      button(`hx-power-${i}`, t("web.hexxen.use_power"), () => roll(ctx, npc, command), reason, { class: "primary" }),
      !reason ? powerOdds(ctx, command, i) : null);
  });
  const check = npcCheck(ctx, npc, hunters);
  return el("section", { class: "card", id: "hx-npc-actions", "aria-labelledby": "hx-npc-actions-heading" },
    el("h2", { id: "hx-npc-actions-heading" }, t("web.hexxen.npc_turn", { name: npc.name })),
    check,
    el("p", { class: "muted" }, t(npc.bound ? "web.hexxen.npc_is_bound" : "web.hexxen.npc_is_free", { name: npc.name })),
    el("div", { class: "row" },
      field(t("web.hexxen.target"), pick("hx-att-target", draft.declare.target, hunters.map((h) => [h.id, h.name]), (v) => { draft.declare.target = v; ctx.rerender(); })),
      field(t("web.hexxen.bonus"), numIn("hx-att-bonus", draft.declare.bonus, (v) => { draft.declare.bonus = v; ctx.rerender(); }, { min: 0, max: 5 })),
      field(t("web.hexxen.malus"), numIn("hx-att-malus", draft.declare.malus, (v) => { draft.declare.malus = v; ctx.rerender(); }, { min: 0, max: 5 }))),
    attacks.length ? el("ul", { class: "hx-lines", id: "hx-attacks" }, attacks) : null,
    powers.length ? el("fieldset", { class: "hx-power-targets" }, el("legend", {}, t("web.hexxen.power_targets")),
      hunters.map((h) => checkField(`hx-power-target-${h.id}`, h.name, ticked.includes(h.id), { onchange: (/** @type {FieldEvent} */ e) => { if (e.target.checked) draft.power.targets.add(h.id); else draft.power.targets.delete(h.id); ctx.rerender(); } }))) : null,
    powers.length ? el("ul", { class: "hx-lines", id: "hx-powers" }, powers) : null);
}

/** The NSC's own check: an Anführer's attribute or a Bande's pool, optionally against a
 * hunter's skill (a comparative check), with its odds; it costs no Handlung here.
 * @param {TableContext} ctx
 * @param {Npc} npc
 * @param {Hunter[]} hunters
 */
function npcCheck(ctx, npc, hunters) {
  const d = (draft.npcCheck ||= { attribute: "", against: "", skill: "Geistesstärke" });
  const attrs = Object.keys(npc.attributes || {});
  const bande = npc.kind === "bande";
  if (!bande && !attrs.includes(d.attribute)) d.attribute = attrs[0] || "";
  if (d.against && !hunters.some((h) => h.id === d.against)) d.against = "";
  const hunter = hunters.find((h) => h.id === d.against);
  const skills = hunter ? Object.keys(hunter.skills).sort((a, b) => a.localeCompare(b)) : [];
  if (hunter && !skills.includes(d.skill)) d.skill = skills[0];
  const command = { kind: "npc_check", npc: npc.id, ...(bande ? {} : { attribute: d.attribute }), ...(hunter ? { against: hunter.id, skill: d.skill } : {}) };
  const reason = bande ? (npc.pool == null ? t("web.hexxen.reason.no_pool") : null) : (attrs.length ? null : t("web.hexxen.reason.no_attributes"));
  return details("hx-npc-check", t("web.hexxen.npc_check"),
    el("div", { class: "form" },
      el("div", { class: "row" },
        bande ? el("p", {}, t("web.hexxen.npc_pool", { dice: npc.pool ?? "–" }))
          : field(t("web.hexxen.attribute"), pick("hx-npc-check-attr", d.attribute, attrs.map((a) => [a, `${a} ${npc.attributes[a]}`]), (v) => { d.attribute = v; ctx.rerender(); })),
        field(t("web.hexxen.against"), pick("hx-npc-check-against", d.against, [["", t("web.hexxen.against_nobody")], ...hunters.map((h) => [h.id, h.name])], (v) => { d.against = v; ctx.rerender(); })),
        hunter ? field(t("web.hexxen.skill"), pick("hx-npc-check-skill", d.skill, skills.map((x) => [x, x]), (v) => { d.skill = v; ctx.rerender(); })) : null),
      button("hx-npc-check-roll", t("web.hexxen.npc_check_roll"), () => roll(ctx, npc, command), reason, { class: "primary" }),
      !reason ? oddsBlock(ctx, command, { caption: t(hunter ? "web.hexxen.margin_caption" : "web.hexxen.npc_check_caption"), margin: Boolean(hunter), id: "hx-npc-check-odds" }) : null));
}

/** The odds of a power: each target's Differenzerfolge (the NSC rolls once for all), and
 * with several targets how many of them it affects.
 * @param {TableContext} ctx
 * @param {any} command
 * @param {any} i
 */
function powerOdds(ctx, command, i) {
  const answer = ctx.oddsNow(command);
  if (!answer) return el("p", { class: "muted", id: `hx-power-chart-${i}` }, t("web.hexxen.odds_loading"));
  if (answer.error) return el("p", { class: "muted", id: `hx-power-chart-${i}` }, answer.error);
  const margin = (/** @type {number} */ v) => t("web.hexxen.margin_value", { n: v });
  const charts = (answer.parts || []).filter((/** @type {any} */ part) => !DICE_PART.test(part.key)).map((/** @type {any} */ part) => el("div", { class: "hx-odds hx-target-odds", id: `hx-power-chart-${i}-${part.key}`, dataset: { target: part.key } },
    oddsChart(part.odds, { caption: t("web.hexxen.power_caption", { name: nameOf(ctx, part.key) }), labeler: margin })));
  if (command.targets.length > 1) {
    charts.unshift(el("div", { class: "hx-odds", id: `hx-power-count-${i}` },
      oddsChart(answer, { caption: t("web.hexxen.power_count_caption"), labeler: (v) => t("web.hexxen.targets_value", { n: v }) })));
  }
  return el("div", { id: `hx-power-chart-${i}` }, charts, ...diceOdds(answer, "web.hexxen.dice_odds_power"));
}

// -- checks and comparative checks ------------------------------------------------------------------

/** @param {TableContext} ctx */
function checkCard(ctx) {
  const mine = ctx.state.hunters.filter((h) => mayAct(ctx, h));
  if (!mine.length) return null;
  const d = draft.check;
  if (!mine.some((h) => h.id === d.hunter)) d.hunter = mine[0].id;
  const hunter = /** @type {Hunter} */ (mine.find((h) => h.id === d.hunter));
  const skills = Object.keys(hunter.skills).sort((a, b) => a.localeCompare(b));
  if (!skills.includes(d.skill)) d.skill = skills.includes("Nahkampf") ? "Nahkampf" : skills[0];
  const npcs = ctx.state.npcs;
  if (d.npc && !npcs.some((n) => n.id === d.npc)) d.npc = "";
  const base = { hunter: hunter.id, skill: d.skill, bonus: num(d.bonus), malus: num(d.malus), ap: num(d.ap) };
  const command = d.npc ? { kind: "hunter_contest", ...base, npc: d.npc } : { kind: "hunter_check", ...base };
  const attr = hunter.skill_attributes[d.skill];
  const pool = Math.min(hunter.attributes[attr] + hunter.skills[d.skill], ctx.state.options.max_pool);
  const mod = hunter.check_modifier;
  const netText = t("web.hexxen.pool", { attribute: attr, skill: d.skill, dice: pool, bonus: mod.bonus + num(d.bonus), malus: mod.malus + num(d.malus) });
  const apLeft = hunter.budgets.ap;
  const reason = num(d.ap) && apLeft === undefined ? t("web.hexxen.reason.ap_outside_fight")
    : num(d.ap) > (apLeft ?? 0) && apLeft !== undefined ? t("web.hexxen.reason.no_ap", { name: hunter.name, ap: num(d.ap) }) : null;
  const caption = d.npc ? t("web.hexxen.contest_caption", { name: hunter.name, npc: nameOf(ctx, d.npc) }) : t("web.hexxen.check_caption", { name: hunter.name });
  return el("section", { class: "card", id: "hx-check", "aria-labelledby": "hx-check-heading" },
    el("h2", { id: "hx-check-heading" }, t("web.hexxen.check_heading")),
    el("form", { class: "form", onsubmit: (/** @type {FieldEvent} */ e) => { e.preventDefault(); if (!reason) roll(ctx, hunter, command); } },
      el("div", { class: "row" },
        field(t("web.hexxen.hunter"), pick("hx-check-hunter", d.hunter, mine.map((h) => [h.id, h.name]), (v) => { d.hunter = v; ctx.rerender(); })),
        field(t("web.hexxen.skill"), pick("hx-check-skill", d.skill, skills.map((s) => [s, `${s} (${hunter.skill_attributes[s]} ${hunter.attributes[hunter.skill_attributes[s]]} + ${hunter.skills[s]})`]), (v) => { d.skill = v; ctx.rerender(); })),
        field(t("web.hexxen.against"), pick("hx-check-npc", d.npc, [["", t("web.hexxen.against_nobody")], ...npcs.map((n) => [n.id, n.name])], (v) => { d.npc = v; ctx.rerender(); }))),
      el("div", { class: "row" },
        field(t("web.hexxen.bonus"), numIn("hx-check-bonus", d.bonus, (v) => { d.bonus = v; ctx.rerender(); }, { min: 0, max: 5 })),
        field(t("web.hexxen.malus"), numIn("hx-check-malus", d.malus, (v) => { d.malus = v; ctx.rerender(); }, { min: 0, max: 5 })),
        field(t("web.hexxen.ap_cost"), numIn("hx-check-ap", d.ap, (v) => { d.ap = v; ctx.rerender(); }, { min: 0, max: 20 }))),
      el("p", { id: "hx-check-pool" }, netText),
      oddsBlock(ctx, command, { caption, margin: Boolean(d.npc), id: "hx-check-odds" }),
      el("button", { type: "submit", id: "hx-roll", class: "primary", disabled: Boolean(reason), title: reason }, t(d.npc ? "web.hexxen.roll_contest" : "web.hexxen.roll_check"))));
}

// -- sheets -------------------------------------------------------------------------------------------

/**
 * @param {TableContext} ctx
 * @param {Hunter} hunter
 */
function hunterSheet(ctx, hunter) {
  const canAct = mayAct(ctx, hunter);
  const skills = Object.entries(hunter.skills).filter(([, v]) => v > 0).sort((a, b) => a[0].localeCompare(b[0]));
  const facts = [
    ["lep", t("web.hexxen.lep"), `${hunter.lep.current} / ${hunter.lep.maximum}`],
    ["ini", t("web.hexxen.ini"), String(hunter.ini)],
    ["armour", t("web.hexxen.armour"), String(hunter.armour)],
    ["ap", t("web.hexxen.ap_round"), String(hunter.ap_per_round)],
    ["resources", t("web.hexxen.resources"), t("web.hexxen.resources_value", { ideen: hunter.ideen, coups: hunter.coups, esprit: hunter.esprit })],
  ];
  return el("article", { class: "sheet hx-sheet", id: `hx-hunter-${hunter.id}`, "aria-labelledby": `hx-hunter-name-${hunter.id}` },
    el("h3", { id: `hx-hunter-name-${hunter.id}` }, hunter.name),
    el("div", { class: "attrs" }, ATTRIBUTES.map((a) => el("div", { class: "attr" }, el("b", { id: `hx-attr-${hunter.id}-${a}` }, hunter.attributes[a]), el("span", {}, t("web.hexxen.attr." + a))))),
    el("dl", {}, facts.flatMap(([key, k, v]) => [el("dt", {}, k), el("dd", { id: `hx-fact-${hunter.id}-${key}` }, v)])),
    el("p", { class: "small-print", id: `hx-skills-${hunter.id}` }, t("web.hexxen.skills"), ": ", skills.map(([s, v]) => `${s} ${v}`).join(", ") || "–"),
    canAct ? editForm(ctx, hunter) : null);
}

/**
 * @param {TableContext} ctx
 * @param {Hunter} hunter
 */
function editForm(ctx, hunter) {
  const key = hunter.id;
  const d = (draft.edit[key] ||= { name: hunter.name, attrs: { ...hunter.attributes }, armour: String(hunter.armour), skill: "Parieren", value: "" });
  const skills = Object.keys(hunter.skills).sort((a, b) => a.localeCompare(b));
  const command = () => ({
    kind: "edit_hunter", hunter: hunter.id, name: d.name.trim() || hunter.name,
    attributes: Object.fromEntries(ATTRIBUTES.map((a) => [a, num(d.attrs[a], hunter.attributes[a])])), armour: num(d.armour, hunter.armour),
  });
  const skillValue = d.value === "" ? String(hunter.skills[d.skill] ?? 0) : d.value;
  return details(`hx-edit-${key}`, t("web.hexxen.edit_sheet"),
    el("div", {},
      el("form", { class: "form", onsubmit: (/** @type {FieldEvent} */ e) => { e.preventDefault(); ctx.send(command()); } },
        field(t("web.hexxen.name"), input(`hx-edit-${key}-name`, d.name, (v) => (d.name = v), { required: true })),
        el("div", { class: "row hx-attr-inputs" }, ATTRIBUTES.map((a) => field(t("web.hexxen.attr." + a), numIn(`hx-edit-${key}-${a}`, d.attrs[a], (v) => (d.attrs[a] = v), { min: 0, max: 20 })))),
        field(t("web.hexxen.armour"), numIn(`hx-edit-${key}-armour`, d.armour, (v) => (d.armour = v), { min: 0, max: 20 })),
        el("button", { type: "submit", id: `hx-edit-${key}-save` }, t("web.hexxen.save_sheet"))),
      el("form", { class: "form inline", onsubmit: (/** @type {FieldEvent} */ e) => { e.preventDefault(); ctx.send({ kind: "set_skill", hunter: hunter.id, skill: d.skill, value: num(skillValue) }).then((a) => { if (a) { d.value = ""; ctx.rerender(); } }); } },
        field(t("web.hexxen.skill"), pick(`hx-skill-${key}-name`, d.skill, skills.map((s) => [s, s]), (v) => { d.skill = v; d.value = ""; ctx.rerender(); })),
        field(t("web.hexxen.value"), numIn(`hx-skill-${key}-value`, skillValue, (v) => (d.value = v), { min: 0, max: 20 })),
        el("button", { type: "submit", id: `hx-skill-${key}-save` }, t("web.hexxen.set_skill")))));
}

/** @param {TableContext} ctx */
function createForm(ctx) {
  if (ctx.me.role === "spectator") return null;
  const d = draft.create;
  const taken = new Set(everyone(ctx).map((c) => c.id));
  const skills = Object.keys(ctx.state.skill_list).sort((a, b) => a.localeCompare(b));
  const submit = (/** @type {FieldEvent} */ e) => {
    e.preventDefault();
    const name = d.name.trim();
    if (!name) { document.getElementById("hx-create-name")?.focus(); return; }
    const chosen = Object.fromEntries(Object.entries(d.skills).filter(([, v]) => v !== "" && num(v)).map(([s, v]) => [s, num(v)]));
    ctx.send({
      kind: "create_hunter", id: slug(name, taken), name,
      attributes: Object.fromEntries(ATTRIBUTES.map((a) => [a, num(d.attrs[a])])), skills: chosen, armour: num(d.armour),
    }).then((answer) => { if (answer) { draft.create = { ...draft.create, name: "", skills: {} }; ctx.rerender(); } });
  };
  return details("hx-create-details", t("web.hexxen.create_hunter"),
    el("form", { class: "form", id: "hx-create", onsubmit: submit },
      field(t("web.hexxen.name"), input("hx-create-name", d.name, (v) => (d.name = v), { required: true, "aria-required": "true" })),
      el("div", { class: "row hx-attr-inputs" }, ATTRIBUTES.map((a) => field(t("web.hexxen.attr." + a), numIn(`hx-create-${a}`, d.attrs[a], (v) => (d.attrs[a] = v), { min: 0, max: 20 })))),
      field(t("web.hexxen.armour"), numIn("hx-create-armour", d.armour, (v) => (d.armour = v), { min: 0, max: 20 })),
      // The skills in one group per attribute, the groups side by side where the region has room.
      el("fieldset", { class: "hx-skill-groups", id: "hx-create-skills" }, el("legend", {}, t("web.hexxen.skills")),
        ATTRIBUTES.filter((a) => skills.some((s) => ctx.state.skill_list[s] === a)).map((a) => el("fieldset", { class: "hx-skill-inputs form-group", id: `hx-create-skills-${a}` },
          el("legend", {}, t("web.hexxen.attr." + a)),
          skills.filter((s) => ctx.state.skill_list[s] === a).map((s) => field(s, numIn(`hx-create-skill-${slug(s, new Set())}`, d.skills[s] ?? "", (v) => (d.skills[s] = v), { min: 0, max: 20 })))))),
      el("button", { type: "submit", id: "hx-create-submit", class: "primary" }, t("web.hexxen.create_submit"))),
    { open: !ctx.state.hunters.some((h) => pieces(ctx).has(h.id)) && !ctx.isGm });
}

/**
 * @param {TableContext} ctx
 * @param {Npc} npc
 */
function npcCard(ctx, npc) {
  const facts = [
    t(npc.kind === "bande" ? "web.hexxen.bande_level" : "web.hexxen.anfuehrer_level", { level: npc.level }),
    t("web.hexxen.lep_value", { current: npc.lep.current, maximum: npc.lep.maximum }),
    t("web.hexxen.ini_value", { ini: npc.ini }),
    t("web.hexxen.hex_value", { current: npc.hex.current, maximum: npc.hex.maximum }),
    t("web.hexxen.handlungen_round", { count: npc.handlungen }),
  ];
  if (npc.widernatuerlich) facts.push(t("web.hexxen.widernatuerlich"));
  const attrs = Object.entries(npc.attributes || {});
  if (attrs.length) facts.push(t("web.hexxen.npc_attributes", { list: attrs.map(([a, v]) => `${a} ${v}`).join(", ") }));
  if (npc.pool != null) facts.push(t("web.hexxen.npc_pool", { dice: npc.pool }));
  if (npc.hex_growth) facts.push(t("web.hexxen.hex_growth", { n: npc.hex_growth }));
  const lines = [
    ...npc.attacks.map((a) => [t("web.hexxen.attack_line", { range: a.range.join("|"), name: a.name, attack: a.attack, damage: a.damage }),
      ...(a.dice_rolled || []).map((use) => t("web.hexxen.attack_dice", { dice: diceName(use.count, use.die), gives: use.gives === "lep" ? t("web.hexxen.gives_damage") : givesName(use.gives) }))].join(", ")),
    ...npc.powers.map((p) => t("web.hexxen.power_line", { range: p.range.join("|"), name: p.name, dice: p.dice, against: p.against, amount: p.per_difference.amount, effect: p.per_difference.effect, hex: p.hex })),
  ];
  return el("article", { class: "sheet hx-npc", id: `hx-npc-${npc.id}`, "aria-labelledby": `hx-npc-name-${npc.id}` },
    el("h3", { id: `hx-npc-name-${npc.id}` }, npc.name, npc.secret ? el("span", { class: "badge hidden-badge" }, t("web.hexxen.secret")) : null),
    el("p", {}, facts.join(" · ")),
    npc.traits && npc.traits.length
      ? el("ul", { class: "small-print hx-traits", id: `hx-traits-${npc.id}`, "aria-label": t("web.hexxen.properties_heading") }, npc.traits.map((trait) => el("li", { class: trait.applied ? "hx-trait-applied" : "hx-trait-shown" }, traitText(trait))))
      : npc.properties.length ? el("p", { class: "small-print" }, t("web.hexxen.properties", { list: npc.properties.join(", ") })) : null,
    lines.length ? el("ul", { class: "hx-lines" }, lines.map((l) => el("li", {}, l))) : null);
}

/** @param {TableContext} ctx */
function npcForm(ctx) {
  if (!ctx.isGm) return null;
  const d = draft.npc;
  const taken = new Set(everyone(ctx).map((c) => c.id));
  const submit = async (/** @type {FieldEvent} */ e) => {
    e.preventDefault();
    const name = d.name.trim();
    if (!name) { document.getElementById("hx-npc-name")?.focus(); return; }
    const command = { kind: "create_npc", id: slug(name, taken), name, npc_kind: d.kind, level: num(d.level, 1), statblock: d.block, secret: d.secret };
    const answer = await ctx.send(command, d.secret ? { hidden: true } : {});
    if (answer) { draft.npc = { ...draft.npc, name: "", block: "", error: null, secret: false }; ctx.rerender(); return; }
    const error = ctx.lastError;
    d.error = error ? { message: error.message, position: error.position } : null;
    ctx.rerender();
    const at = d.error?.position;
    if (typeof at === "number" && Number.isInteger(at)) {
      const area = /** @type {HTMLTextAreaElement | null} */ (document.getElementById("hx-npc-block"));
      area?.focus();
      area?.setSelectionRange(at, Math.min(d.block.length, at + 1));
    }
  };
  return details("hx-npc-details", t("web.hexxen.create_npc"),
    el("form", { class: "form", id: "hx-npc-form", onsubmit: submit },
      el("div", { class: "row" },
        field(t("web.hexxen.name"), input("hx-npc-name", d.name, (v) => (d.name = v), { required: true, "aria-required": "true" })),
        field(t("web.hexxen.npc_kind"), pick("hx-npc-kind", d.kind, [["anfuehrer", t("web.hexxen.anfuehrer")], ["bande", t("web.hexxen.bande")]], (v) => (d.kind = v))),
        field(t("web.hexxen.level"), numIn("hx-npc-level", d.level, (v) => (d.level = v), { min: 1, max: 99 }))),
      field(t("web.hexxen.statblock"), el("textarea", { id: "hx-npc-block", rows: 8, spellcheck: "false", "aria-describedby": "hx-npc-hint hx-npc-error", "aria-invalid": d.error ? "true" : null, oninput: (/** @type {FieldEvent} */ e) => { d.block = e.target.value; } }, d.block)),
      el("p", { class: "muted small-print", id: "hx-npc-hint" }, t("web.hexxen.statblock_hint")),
      d.error ? el("p", { class: "hx-error", id: "hx-npc-error", role: "alert" }, d.error.message) : el("p", { id: "hx-npc-error", hidden: true }),
      checkField("hx-npc-secret", t("web.hexxen.npc_secret"), d.secret, { onchange: (/** @type {FieldEvent} */ e) => { d.secret = e.target.checked; } }),
      el("button", { type: "submit", id: "hx-npc-submit", class: "primary" }, t("web.hexxen.create_npc_submit"))),
    { open: true });
}

/** @param {TableContext} ctx */
function gmTools(ctx) {
  if (!ctx.isGm) return null;
  const all = everyone(ctx);
  if (!all.length) return null;
  const d = draft.gm;
  if (!all.some((c) => c.id === d.target)) d.target = all[0].id;
  const who = /** @type {Hunter | Npc} */ (all.find((c) => c.id === d.target));
  const effects = EFFECTS.filter((e) => e !== "paralysis" || ctx.state.hunters.some((h) => h.id === who.id));
  if (!effects.includes(d.effect)) d.effect = effects[0];
  const lep = readInt(/** @type {HTMLInputElement} */ ({ value: d.lep }));
  return details("hx-gm-details", t("web.hexxen.gm_tools"),
    el("div", { class: "form", id: "hx-gm-tools" },
      field(t("web.hexxen.target"), pick("hx-gm-target", d.target, all.map((c) => [c.id, c.name]), (v) => { d.target = v; ctx.rerender(); })),
      el("div", { class: "row" },
        field(t("web.hexxen.effect"), pick("hx-gm-effect", d.effect, effects.map((e) => [e, effectName(e)]), (v) => (d.effect = v))),
        field(t("web.hexxen.level"), numIn("hx-gm-level", d.level, (v) => (d.level = v), { min: 1, max: 10 })),
        field(t("web.hexxen.effect_tag"), input("hx-gm-tag", draft.tag, (v) => (draft.tag = v), { maxlength: 40 })),
        button("hx-gm-apply", t("web.hexxen.apply_effect"), () => sendFor(ctx, who, { kind: "apply_effect", target: who.id, effect: d.effect, level: num(d.level, 1), ...(draft.tag.trim() ? { tag: draft.tag.trim() } : {}) }))),
      ctx.state.npcs.some((n) => n.id === who.id) ? el("div", { class: "row" },
        field(t("web.hexxen.hex_change"), numIn("hx-gm-hex", draft.hex, (v) => (draft.hex = v), { min: -99, max: 99 })),
        button("hx-gm-add-hex", t("web.hexxen.add_hex"), () => sendFor(ctx, who, { kind: "add_hex", npc: who.id, amount: num(draft.hex, 1) }), num(draft.hex, 0) ? null : t("web.hexxen.reason.amount"))) : null,
      el("div", { class: "row" },
        field(t("web.hexxen.lep_change"), numIn("hx-gm-lep", d.lep, (v) => { d.lep = v; ctx.rerender(); }, { min: 1, max: 99 })),
        button("hx-gm-damage", t("web.hexxen.damage"), () => sendFor(ctx, who, { kind: "change_lep", target: who.id, amount: -(lep ?? 0) }), lep ? null : t("web.hexxen.reason.amount")),
        button("hx-gm-heal", t("web.hexxen.heal"), () => sendFor(ctx, who, { kind: "change_lep", target: who.id, amount: lep }), lep ? null : t("web.hexxen.reason.amount")))),
    { open: Boolean(ctx.state.fight) });
}

// -- the battle map ---------------------------------------------------------------------------------

/** @param {TableContext} ctx */
function mapCard(ctx) {
  const map = ctx.state.map;
  const all = everyone(ctx);
  const hunter = (/** @type {Hunter | Npc} */ c) => ctx.state.hunters.some((h) => h.id === c.id);
  const movable = (/** @type {Hunter | Npc} */ c) => ctx.isGm || (hunter(c) && mayAct(ctx, c));
  const selected = draft.map.selected ? all.find((c) => c.id === draft.map.selected) : undefined;
  const place = (/** @type {Hunter | Npc} */ c, /** @type {string | null} */ square) => { draft.map.selected = null; return sendFor(ctx, c, { kind: "place", target: c.id, to: square }); };
  const tokens = all.filter((c) => c.position).map((c) => {
    const side = hunter(c) ? "hunters" : "npcs";
    const state = t(c.bound ? "web.hexxen.bound" : "web.hexxen.free");
    return {
      id: c.id, name: c.name, position: c.position, colour: COLOURS[side], movable: movable(c),
      classes: [c.bound ? "is-bound" : "is-free", selected?.id === c.id ? "is-selected" : "", ctx.state.fight?.current === c.id ? "is-current" : "", c.secret ? "is-secret" : "", c.defeated ? "is-defeated" : ""].filter(Boolean),
      label: t("web.hexxen.token", { name: c.name, square: c.position, state }),
      // Only who this person may see is in the view, with the LeP their card shows.
      secret: Boolean(c.secret), hp: c.lep ? { value: c.lep.current, max: c.lep.maximum } : null,
    };
  });
  const board = battleMap({
    prefix: "hx", width: map.width, height: map.height, label: t("web.hexxen.map_label", { width: map.width, height: map.height }), tokens,
    onSquare: (name) => (selected ? place(selected, name) : null),
    onToken: (token) => {
      if (token.movable && (!selected || selected.id === token.id)) { draft.map.selected = selected?.id === token.id ? null : token.id; ctx.rerender(); }
      return null;
    },
    onStep: (token, to) => place(/** @type {Hunter | Npc} */ (byId(ctx).get(token.id)), to).then(() => document.getElementById("hx-token-" + token.id)?.focus()),
    onDrop: (token, to) => place(/** @type {Hunter | Npc} */ (byId(ctx).get(token.id)), to),
  });
  const pickers = all.filter(movable).map((c) => el("button", {
    type: "button", id: `hx-pick-${c.id}`, class: "small" + (selected?.id === c.id ? " primary" : ""), "aria-pressed": selected?.id === c.id ? "true" : "false",
    onclick: () => { draft.map.selected = selected?.id === c.id ? null : c.id; ctx.rerender(); },
  }, c.position ? t("web.hexxen.move_token", { name: c.name }) : t("web.hexxen.place_token", { name: c.name })));
  const hint = selected ? t("web.hexxen.pick_square", { name: selected.name }) : t("web.hexxen.map_hint");
  // the map's size: the form of the command `set_map`, drawn from its schema
  const sizeForm = ctx.isGm ? commandForm({
    system: "hexxen", kind: "set_map", id: "hx-map-form", prefix: "hx-map-", submit: t("web.hexxen.map_apply"),
    values: { width: map.width, height: map.height },
    labels: { width: "web.hexxen.map_width", height: "web.hexxen.map_height" },
    send: (command) => ctx.send(command),
  }) : null;
  return el("section", { class: "card", id: "hx-map-box", "aria-labelledby": "hx-map-heading" },
    el("h2", { id: "hx-map-heading" }, t("web.hexxen.map")),
    el("p", { class: "muted small-print", id: "hx-map-hint" }, hint),
    pickers.length ? el("div", { class: "row hx-pickers" }, pickers) : null,
    mapFrame(board, centreToken("hx", tokens, ctx.state.fight?.current, ctx.isGm ? [] : ctx.me.pieces || [])),
    el("ul", { class: "map-legend" },
      el("li", {}, el("span", { class: "map-key hx-key-bound", "aria-hidden": "true" }), t("web.hexxen.legend_bound")),
      el("li", {}, el("span", { class: "map-key hx-key-free", "aria-hidden": "true" }), t("web.hexxen.legend_free"))),
    sizeForm);
}

// -- the page -------------------------------------------------------------------------------------

/** Render the HeXXen table into `body`.
 * @param {HTMLElement} body
 * @param {TableContext} ctx
 */
export function render(body, ctx) {
  FACES = ctx.state.faces;
  const hunters = ctx.state.hunters.map((h) => hunterSheet(ctx, h));
  const npcs = ctx.state.npcs.map((n) => npcCard(ctx, n));
  body.replaceChildren(el("div", { class: "hx-table", id: "hx-table" },
    pendingCard(ctx),
    mapCard(ctx),
    tracker(ctx),
    npcActions(ctx),
    lastView(ctx),
    checkCard(ctx)));
  // The fight in the scene, hunters and NSC as the sheets, the GM's effects and LeP as the tools.
  const tools = gmTools(ctx);
  return {
    sheets: el("div", { class: "hx-table" },
      el("section", { class: "card", id: "hx-sheets", "aria-labelledby": "hx-sheets-heading" },
        el("h2", { id: "hx-sheets-heading" }, t("web.hexxen.hunters")),
        hunters.length ? el("div", { class: "sheets" }, hunters) : el("p", { class: "muted" }, t("web.hexxen.no_hunters")),
        createForm(ctx)),
      el("section", { class: "card", id: "hx-npcs", "aria-labelledby": "hx-npcs-heading" },
        el("h2", { id: "hx-npcs-heading" }, t("web.hexxen.npcs")),
        npcs.length ? el("div", { class: "sheets" }, npcs) : el("p", { class: "muted" }, t("web.hexxen.no_npcs")),
        npcForm(ctx))),
    tools: tools && el("div", { class: "hx-table" }, tools),
  };
}

/** @param {TableContext} ctx */
function names(ctx) {
  return (/** @type {string} */ id) => (ctx.state ? nameOf(ctx, id) : id);
}

/** One log line per event, naming everyone by name.
 * @param {any} event
 * @param {TableContext} ctx
 */
export function describe(event, ctx) {
  if (ctx?.state?.faces) FACES = ctx.state.faces;
  const n = names(ctx);
  switch (event.kind) {
    case "hunter_created": return t("web.hexxen.log.hunter_created", { name: event.hunter.name });
    case "hunter_edited": return t("web.hexxen.log.hunter_edited", { name: event.hunter.name });
    case "npc_created": return t("web.hexxen.log.npc_created", { name: event.npc.name });
    case "skill_set": return t("web.hexxen.log.skill_set", { name: n(event.hunter), skill: event.skill, value: event.value });
    case "bound_set": return t(event.bound ? "web.hexxen.log.bound" : "web.hexxen.log.free", { name: n(event.target) });
    case "modifier_set": return t("web.hexxen.log.modifier_set", { name: n(event.target), bonus: event.bonus, malus: event.malus });
    case "effect_applied": return t("web.hexxen.log.effect_applied", { name: n(event.target), effect: effectName(event.effect), level: event.level });
    case "effect_removed": return t("web.hexxen.log.effect_removed", { name: n(event.target), effect: effectName(event.effect) });
    case "lep_changed": return t(event.amount < 0 ? "web.hexxen.log.lep_lost" : "web.hexxen.log.lep_gained", { name: n(event.target), amount: Math.abs(event.amount) });
    case "resource_changed": return t("web.hexxen.log.resource_changed", { name: n(event.hunter), resource: t("web.hexxen.resource." + event.resource), delta: event.delta });
    case "fight_started": return t("web.hexxen.log.fight_started", { jz: event.jz });
    case "turn_advanced": return [t("web.hexxen.log.turn_advanced"), ...(event.abbau || []).map((/** @type {any} */ a) => t("web.hexxen.log.abbau", { name: n(a.target), effect: effectName(a.effect), total: a.roll.total, removed: a.removed }))].join(" ");
    case "effect_ticked": return t("web.hexxen.log.effect_ticked", { name: n(event.target), effect: effectName(event.effect), level: event.level, amount: event.amount, round: event.round });
    case "fight_ended": return t("web.hexxen.log.fight_ended");
    case "check_rolled": return t("web.hexxen.log.check_rolled", { name: n(event.hunter), skill: event.skill, count: event.roll.total, stars: event.roll.stars });
    case "contest_rolled": return t("web.hexxen.log.contest_rolled", { name: n(event.hunter), skill: event.skill, npc: n(event.npc), total: event.roll.total, npc_total: event.npc_roll.total, margin: event.margin });
    case "attack_declared": return t("web.hexxen.log.attack_declared", { npc: n(event.pending.npc), attack: event.pending.attack, name: n(event.pending.target) });
    case "attack_rolled": return [t(event.hit ? "web.hexxen.log.attack_hit" : "web.hexxen.log.attack_miss", { npc: n(event.npc), attack: event.attack, name: n(event.target), total: event.roll.total, defense: t("web.hexxen.defense." + event.defense), defense_total: event.defense_roll ? event.defense_roll.total : 0, lep: event.lep_lost }),
      ...(event.special || []).map((/** @type {any} */ s) => t("web.hexxen.log.special", { die: t("web.hexxen.die." + s.die), value: s.value, gives: givesName(s.effect) }))].join(" ");
    case "regenerated": return t("web.hexxen.log.regenerated", { name: n(event.npc), property: event.property, lep: event.lep, value: event.value, die: t("web.hexxen.die." + event.die) });
    case "power_used": return t("web.hexxen.log.power_used", { npc: n(event.npc), power: event.power, count: event.roll.total, hex: event.hex })
      + " " + event.results.map((/** @type {any} */ r) => t(r.margin > 0 ? "web.hexxen.log.power_hit" : "web.hexxen.log.power_failed", { name: n(r.hunter), total: r.roll.total, margin: r.margin, amount: r.amount, effect: r.effect ? effectName(r.effect) : t("web.hexxen.effect.reported") })).join(" ");
    case "placed": return t("web.hexxen.log.placed", { name: n(event.target), square: event.to });
    case "hex_gained": return t(event.reason === "growth" ? "web.hexxen.log.hex_growth" : "web.hexxen.log.hex_gained", { name: n(event.npc), amount: event.amount });
    case "npc_check_rolled": return event.hunter
      ? t("web.hexxen.log.npc_contest", { npc: n(event.npc), what: event.attribute || t("web.hexxen.pool_word"), total: event.roll.total, name: n(event.hunter), hunter_total: event.hunter_roll.total, margin: event.margin })
      : t("web.hexxen.log.npc_check", { npc: n(event.npc), what: event.attribute || t("web.hexxen.pool_word"), total: event.roll.total });
    case "npc_revealed": return t("web.hexxen.log.npc_revealed", { npc: event.npc.name, name: n(event.by), square: event.at || "–" });
    case "map_set": return t("web.hexxen.log.map_set", { width: event.width, height: event.height });
    default: return null;
  }
}

/** The dice of an event as symbol dice (HeXXen, Janus, Blut).
 * @param {any} event
 * @param {TableRecord} record
 * @param {TableContext} ctx
 */
export function diceOf(event, record, ctx) {
  if (ctx?.state?.faces) FACES = ctx.state.faces;
  const faces = FACES;
  if (!faces) return null;
  const rolls = [];
  const add = (/** @type {any} */ roll) => { if (roll) rolls.push(...roll.dice.map((/** @type {any} */ v) => ({ die: roll.die, face: faces[roll.die][v - 1] })), ...roll.janus.map((/** @type {any} */ v) => ({ die: "J", face: faces.J[v - 1] }))); };
  if (event.roll) add(event.roll);
  if (event.npc_roll) add(event.npc_roll);
  if (event.defense_roll) add(event.defense_roll);
  for (const r of event.results || []) add(r.roll);
  if (event.hunter_roll) add(event.hunter_roll);
  for (const a of event.abbau || []) add(a.roll);
  for (const v of event.blood || []) rolls.push({ die: "B", face: faces.B[v - 1] });
  for (const s of event.special || []) if (s.die === "blood") rolls.push(...s.dice.map((/** @type {any} */ v) => ({ die: "B", face: faces.B[v - 1] })));
  return rolls.length ? rolls : null;
}

/** The log's headline of a record: who did what, by name.
 * @param {TableRecord} record
 * @param {TableContext} ctx
 */
export function summary(record, ctx) {
  const c = record.command;
  if (!c || !ctx.state) return null;
  const who = ctx.actorName(record.actor);
  return tFirst([`web.hexxen.cmd.${c.kind}`], { who }, null);
}

// -- what waits for the viewer (the decisions contract, docs/web-table.md) ---------------------

/** The attack waiting for its defence, when the viewer answers it (the hunter's player, or
 * the GM for a hunter no player holds).
 * @param {TableContext} ctx
 */
export function decisions(ctx) {
  const pending = ctx.state.fight?.pending;
  if (!pending || !addressedTo(ctx, pending.target)) return [];
  const text = t("web.hexxen.pending", { npc: nameOf(ctx, pending.npc), attack: pending.attack, name: nameOf(ctx, pending.target), dice: pending.dice, damage: pending.damage });
  return [{ id: `hx-defend-${pending.target}`, text, target: "hx-pending" }];
}

/** Whose turn it is in the fight (as the viewer's view names it).
 * @param {TableContext} ctx
 */
export function turn(ctx) {
  const fight = ctx.state.fight;
  return fight?.current ? pieceTurn(ctx, fight.current, nameOf(ctx, fight.current), "hx-tracker") : null;
}
