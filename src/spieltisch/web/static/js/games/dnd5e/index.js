// @ts-check
// D&D 5e combat: the battle map in the centre (tokens by size, terrain, the planned route with
// its cost and the movement left, checked by the server), the pending opportunity attack for
// its reactor, the turn economy and conditions per creature, the attack with its odds before
// the roll, casting a spell (slot, targets or a template placed on the map, the odds per target
// before casting), slots left and concentration on the cards and tokens, the area templates on
// the map, and the GM's bestiary, stat lines and terrain. The page only asks; the server decides.
import { percent, slug } from "../../helpers.js";
import { el, showAlert, t, tFirst } from "../../core.js";
import { checkField, field, numberInput, readInt, select, textInput } from "../../forms.js";
import { oddsChart as drawChart } from "../../odds.js";
import { live } from "../../morph.js";
import { addressedTo, pieceTurn } from "../../notices.js";
import { battleMap, centreToken, mapFrame, parseSquare, squareName, terrainLegend, tokenLabel } from "../../fight/map.js";
import { ABILITIES, chanceLine, checkDice, checkForm, describeCheck, jumpRolls, oddsOf, rollModeField, taskChoices, withRollMode } from "./checks.js";

// The view's shapes as the server sends them (systems/dnd5e/view.py); the fields this page
// reads are named, the rest stays open.
/**
 * @typedef {{ id: string, name: string, side: string, position: string | null, size: string,
 *   ac: number, hp: number, hp_max?: number, dead?: boolean, down?: boolean, secret?: boolean,
 *   squares?: number, speeds?: Record<string, string>, budgets?: Record<string, number | string>,
 *   conditions?: string[], condition_details?: ConditionDetail[],
 *   hit_dice?: { count: number, sides: number } | null, hit_dice_spent?: number,
 *   [field: string]: any }} Fighter a creature on the map
 * @typedef {{ kind: string, source?: string | null, [field: string]: any }} ConditionDetail
 * @typedef {Record<string, any>} Open a part of the view this page reads without naming its fields
 * @typedef {{ current?: string | null, over?: { winner?: string | null } | null, round?: number,
 *   [field: string]: any }} Combat
 * @typedef {{ fighters?: Fighter[], combat?: Combat | null, [field: string]: any }} DndView
 * @typedef {{ kind: string, [field: string]: any }} DndEvent an event of the table
 * @typedef {{ seq: number, actor?: string, undoes?: number | null, command?: Command | null,
 *   events?: DndEvent[], hidden?: boolean }} LogRecord
 * @typedef {{ kind: string, [field: string]: any }} Command
 * @typedef {{ code: string, params?: Record<string, unknown>, step?: number | null }} ViewError
 * @typedef {{ until?: string | null, of?: string, left?: number, [field: string]: any }} Duration
 * @typedef {{ id: string, name: string, level: number, casting: string, castable: boolean,
 *   range: string, range_m?: string | number | null, area?: { shape: string, [field: string]: any } | null,
 *   mechanical: boolean, concentration: boolean, missiles?: Record<string, number> | null,
 *   aura_types?: string[] | null, [field: string]: any }} Spell a spell on a caster's list
 * @typedef {{ caster: string, spell: string, step: number, square: string, ability: string,
 *   save: { p: number, exact: string }, fail: { p: number, exact: string },
 *   damage: { value: number, p: number, exact: string }[], mean: number }} RouteAura
 * @typedef {{ name: string, cost: number, [field: string]: any }} LegendaryOption
 * @typedef {import("../../fight/map.js").MapToken} MapToken
 * @typedef {typeof ui.cast} CastForm
 * @typedef {{ state: DndView, records: LogRecord[], isGm: boolean,
 *   me: { role: string, participant?: string, pieces?: string[] },
 *   odds: (command: Command) => Promise<any>, oddsNow: (command: Command) => any,
 *   send: (command: Command, options?: { hidden?: boolean }) => Promise<any>,
 *   rerender: () => void, actorName: (id: string | null | undefined) => string,
 *   [field: string]: any }} Ctx the table's context handed to the game (table.js)
 */

/** The odds chart (odds.js) with its options as this page hands them in.
 * @type {(odds: object, options: { caption?: string, labeler?: (v: number) => string }) => HTMLElement} */
const oddsChart = /** @type {any} */ (drawChart);

const TERRAIN = ["difficult", "water", "wall"];
const MODES = ["walk", "fly", "climb", "swim", "crawl"];
const ACTIONS = ["dodge", "dash", "disengage", "help", "hide", "search", "use_object", "use_magic_item", "cast_spell", "improvised"];
/** @type {Record<string, string>} */
const COLOURS = { party: "#2a6fdb", foes: "#a33a2f" };

// What the person is choosing or typing; kept across re-renders.
/** @type {Ctx | null} */
let lastCtx = null;

/** The character form's fields as a fresh form shows them (and again after a character is added). */
const HERO_FORM = Object.freeze(/** @type {Record<string, string>} */ ({ name: "", ac: "15", hp: "12", speed: "9", str: "14", dex: "12", attacks: "Longsword: +5, 7 (1d8+3) slashing", bonus: "", at: "" }));
const HERO_CAST_FORM = Object.freeze(/** @type {Record<string, string>} */ ({ ability: "", level: "1", dc: "13", attack: "5", score: "16", slots: "", spells: "" }));

/**
 * A step of a planned route as the move command takes it.
 * @typedef {{ to: string, mode: string, altitude_m?: string, jump?: string, height_m?: string,
 *   obstacle?: boolean }} Step
 * @typedef {{ value?: any, failed?: string }} Preview the route check the server answered
 * @typedef {Record<string, string>} Typed what is typed per creature id
 * @typedef {Event & { target: HTMLInputElement }} FieldEvent a form control's event
 */
const ui = {
  selected: /** @type {string | null} */ (null), route: /** @type {Step[]} */ ([]), mode: "walk", altitude: "", drag: "", ground: { height: "", squares: "" }, jump: "", jumpHeight: "", obstacle: false, standUp: false,
  preview: /** @type {Preview | null} */ (null), previewKey: /** @type {string | null} */ (null),
  paint: "", attack: "", target: "", action: "dodge", helpTarget: "", helpFoe: "", helpKind: "attack", helpTask: "",
  hitDice: /** @type {Record<string, string>} */ ({}),
  monsterTargets: /** @type {Record<string, string[]>} */ ({}),
  monster: { kind: "goblin", at: "", secret: false, name: "", ac: "12", hp: "10", speed: "9", size: "medium", attacks: "" },
  hero: { ...HERO_FORM },
  heroCast: { ...HERO_CAST_FORM },
  initiative: /** @type {Typed} */ ({}), damage: /** @type {Typed} */ ({}), condition: /** @type {Typed} */ ({}), resting: /** @type {Record<string, boolean>} */ ({}),
  save: { creature: "", ability: "dex", dc: "", bonus: "", mode: "normal" }, attackMode: "normal",
  ready: { trigger: "", what: "attack", attack: "", target: "", action: "" },
  cast: { caster: "", spell: "", slot: "", targets: /** @type {string[]} */ ([]), darts: /** @type {Typed} */ ({}), origin: "", toward: "", placing: "", dtype: "", spared: /** @type {string[] | null} */ (null) },
  castOdds: /** @type {any} */ (null), castError: /** @type {string | null} */ (null),
  legendaryTarget: /** @type {Typed} */ ({}), lairText: "", fall: /** @type {Typed} */ ({}),
  duration: /** @type {Record<string, { until: string, n: string, ability: string }>} */ ({}), source: /** @type {Typed} */ ({}),
  contest: { action: "grapple", target: "" },
};
const CONTESTS = ["grapple", "shove_prone", "shove_push"];
const SOURCED = ["frightened", "charmed"];

function fighters(/** @type {Ctx} */ ctx) { return ctx.state.fighters || []; }
/** @returns {Map<string | null | undefined, Fighter>} */
function byId(/** @type {Ctx} */ ctx) { return new Map(fighters(ctx).map((f) => [f.id, f])); }
/** A side in words: the party or the foes, else as the GM named it. */
function sideName(/** @type {string} */ side) { return tFirst(["web.dnd5e.side_name." + side], {}, side); }
function nameOf(/** @type {Ctx} */ ctx, /** @type {string | null | undefined} */ id) { return byId(ctx).get(id)?.name ?? t("web.dnd5e.someone"); }
function mine(/** @type {Ctx} */ ctx, /** @type {Fighter} */ f) { return ctx.isGm || (ctx.me.role === "player" && (ctx.me.pieces || []).includes(f.id)); }
function current(/** @type {Ctx} */ ctx) { return ctx.state.combat?.current ?? null; }
function metres(/** @type {string | number} */ value) { return Number(value).toLocaleString(document.documentElement.lang, { maximumFractionDigits: 1 }); }
/** Send a command about creature `f`: a secret creature's commands stay hidden. */
function sendFor(/** @type {Ctx} */ ctx, /** @type {Fighter | null | undefined} */ f, /** @type {Command} */ command) {
  return ctx.send(command, f && f.secret ? { hidden: true } : {});
}

/** A server error's text with creature ids replaced by their names (issue #16). */
function errorText(/** @type {Ctx} */ ctx, /** @type {ViewError} */ error) {
  /** @type {Record<string, any>} */ const params = { ...error.params };
  // The server names creatures by their display names; a secret creature's id (the GM's
  // page knows it) is named here.
  const fs = byId(ctx);
  for (const key of ["creature", "target", "current", "mover"]) if (params[key] && fs.has(params[key])) params[key] = /** @type {Fighter} */ (fs.get(params[key])).name;
  if (params.mode) params.mode = t("web.dnd5e.speed." + params.mode);
  if (typeof params.step === "number") params.step += 1;
  return t(error.code, params);
}

// -- conditions and economy -----------------------------------------------------------------

/** How long a condition lasts, in words ("" until removed). */
function durationText(/** @type {Ctx} */ ctx, /** @type {Duration | undefined} */ d) {
  if (!d) return "";
  if (d.until === "turn_start" || d.until === "turn_end") return t("web.dnd5e.until." + d.until, { name: nameOf(ctx, d.of) });
  if (d.until === "rounds") return t("web.dnd5e.until.rounds", { count: d.left });
  if (d.until === "save") return t("web.dnd5e.until.save", { ability: t("web.dnd5e.ability." + d.ability), dc: d.dc, p: percent(d.save.p), exact: d.save.exact });
  return "";
}

function conditionBadges(/** @type {Fighter} */ f) {
  const details = new Map((f.condition_details || []).map((/** @type {ConditionDetail} */ d) => [d.kind, d]));
  return el("span", { class: "dd-conditions", id: `dd-f-${f.id}-conditions` }, ...(f.conditions || []).map((/** @type {string} */ kind) => {
    const lasts = lastCtx ? durationText(lastCtx, details.get(kind)) : "";
    return el("span", {
      class: "badge dd-condition", dataset: { condition: kind },
      title: tFirst(["web.dnd5e.cond_fx." + kind], {}, ""),
    }, tFirst(["web.dnd5e.cond." + kind], {}, kind), lasts ? el("span", { class: "dd-duration" }, " (" + lasts + ")") : null);
  }));
}

function conditionEffects(/** @type {Fighter} */ f) {
  const items = (f.conditions || []).map((/** @type {string} */ kind) => el("li", {}, el("strong", {}, tFirst(["web.dnd5e.cond." + kind], {}, kind)), ": ", tFirst(["web.dnd5e.cond_fx." + kind], {}, "")));
  return items.length ? el("ul", { class: "dd-effects small-print" }, items) : null;
}

function economy(/** @type {Ctx} */ ctx, /** @type {Fighter} */ f) {
  const b = f.budgets || {};
  const inFight = ctx.state.combat && (ctx.state.combat.order || []).includes(f.id);
  if (!inFight) return null;
  const slot = (/** @type {string} */ key, /** @type {boolean} */ left) => el("span", { class: "dd-slot " + (left ? "is-left" : "is-used"), dataset: { slot: key } },
    t("web.dnd5e.slot." + key), " ", left ? t("web.dnd5e.slot.left") : t("web.dnd5e.slot.used"));
  const walk = f.movement_left?.walk ?? "0";
  const speed = f.speeds?.walk ?? "0";
  const attacks = Number(b.attacks || 0);
  return el("div", { class: "dd-economy", id: `dd-f-${f.id}-economy` },
    slot("action", Number(b.action || 0) > 0),
    f.bonus_actions?.length ? slot("bonus", Number(b.bonus || 0) > 0) : el("span", { class: "dd-slot is-none" }, t("web.dnd5e.slot.no_bonus")),
    slot("reaction", Number(b.reaction || 0) > 0),
    attacks > 0 ? el("span", { class: "dd-slot is-left" }, t("web.dnd5e.attacks_left", { count: attacks })) : null,
    el("span", { class: "dd-slot dd-move-left", id: `dd-f-${f.id}-move` }, t("web.dnd5e.movement_left", { left: metres(walk), speed: metres(Number(speed) * (1 + (f.movement?.dashes || 0))) })));
}

function hpText(/** @type {Fighter} */ f) {
  if (f.dead) return t("web.dnd5e.dead");
  const temp = f.temp_hp ? " " + t("web.dnd5e.temp", { n: f.temp_hp }) : "";
  return t("web.dnd5e.hp", { hp: f.hp, max: f.max_hp }) + temp;
}

function deathSaves(/** @type {Fighter} */ f) {
  if (f.hp > 0 || f.dead || f.monster) return null;
  return el("p", { class: "small-print" }, f.stable ? t("web.dnd5e.stable") : t("web.dnd5e.death_saves", { ok: f.death_successes, bad: f.death_failures }));
}

/** The GM's choice of how long a condition lasts: until removed, the start or end of the
 * current creature's next turn, N rounds, or a save at the end of each of its turns. */
function durationFields(/** @type {Ctx} */ ctx, /** @type {Fighter} */ f) {
  const d = ui.duration[f.id] ?? (ui.duration[f.id] = { until: "removed", n: "", ability: "wis" });
  const now = current(ctx);
  /** @type {[string, string][]} */
  const options = [["removed", t("web.dnd5e.lasts.removed")], ["rounds", t("web.dnd5e.lasts.rounds")], ["save", t("web.dnd5e.lasts.save")]];
  if (now) options.splice(1, 0, ["turn_end", t("web.dnd5e.until.turn_end", { name: nameOf(ctx, now) })], ["turn_start", t("web.dnd5e.until.turn_start", { name: nameOf(ctx, now) })]);
  return [
    select(`dd-f-${f.id}-cond-until`, options, d.until, { onchange: (/** @type {FieldEvent} */ e) => { d.until = e.target.value; ctx.rerender(); }, "aria-label": t("web.dnd5e.lasts_of", { name: f.name }) }),
    d.until === "rounds" || d.until === "save"
      ? numberInput(`dd-f-${f.id}-cond-n`, d.n, { min: 1, max: d.until === "rounds" ? 100 : 40, oninput: (/** @type {FieldEvent} */ e) => { d.n = e.target.value; }, "aria-label": t(d.until === "rounds" ? "web.dnd5e.lasts.rounds_n" : "web.dnd5e.lasts.dc") })
      : null,
    d.until === "save"
      ? select(`dd-f-${f.id}-cond-ability`, ABILITIES.map((a) => [a, t("web.dnd5e.ability." + a)]), d.ability, { onchange: (/** @type {FieldEvent} */ e) => { d.ability = e.target.value; }, "aria-label": t("web.dnd5e.lasts.ability") })
      : null,
  ];
}

/** The `duration` of the condition command (null: until removed; false: a number missing). */
function durationOf(/** @type {Ctx} */ ctx, /** @type {Fighter} */ f) {
  const d = ui.duration[f.id];
  if (!d || d.until === "removed") return null;
  if (d.until === "turn_end" || d.until === "turn_start") return { until: d.until, of: current(ctx) };
  const n = Number(d.n);
  if (!Number.isInteger(n) || n < 1) { showAlert(t(d.until === "rounds" ? "web.dnd5e.lasts.rounds_missing" : "web.dnd5e.lasts.dc_missing")); document.getElementById(`dd-f-${f.id}-cond-n`)?.focus(); return false; }
  return d.until === "rounds" ? { until: "rounds", rounds: n } : { until: "save", ability: d.ability, dc: n };
}

/** The GM's choice of the creature a fear or a charm comes from (a frightened creature cannot
 * step closer to it, a charmed one cannot attack it). */
function sourceField(/** @type {Ctx} */ ctx, /** @type {Fighter} */ f) {
  const others = fighters(ctx).filter((x) => x.id !== f.id && !x.dead);
  const chosen = others.some((x) => x.id === ui.source[f.id]) ? ui.source[f.id] : "";
  return select(`dd-f-${f.id}-cond-source`, [["", t("web.dnd5e.cond_source_none")], ...others.map((x) => /** @type {[string, string]} */ ([x.id, x.name]))], chosen, {
    onchange: (/** @type {FieldEvent} */ e) => { ui.source[f.id] = e.target.value; }, "aria-label": t("web.dnd5e.cond_source_of", { name: f.name }),
  });
}

function gmTools(/** @type {Ctx} */ ctx, /** @type {Fighter} */ f) {
  if (!ctx.isGm) return null;
  const amount = ui.damage[f.id] ?? "";
  const box = numberInput(`dd-f-${f.id}-amount`, amount, { min: 0, max: 10000, oninput: (/** @type {FieldEvent} */ e) => { ui.damage[f.id] = e.target.value; if (casting(ctx, f.id)?.concentration) ctx.rerender(); }, "aria-label": t("web.dnd5e.amount_of", { name: f.name }) });
  const send = (/** @type {string} */ kind) => {
    const shown = live(box);  // the field in the page (the page is patched, morph.js)
    const n = readInt(shown);
    if (n === null) { showAlert(t("web.dnd5e.amount_missing")); shown.focus(); return; }
    sendFor(ctx, f, kind === "damage" ? { kind: "damage", target: f.id, amount: n, type: "bludgeoning" } : { kind: "heal", target: f.id, amount: n });
  };
  const choice = ui.condition[f.id] ?? "prone";
  const conditions = ctx.state.conditions || [];
  return el("div", { class: "dd-gm-tools" }, el("div", { class: "row dd-gm-row" },
    box,
    el("button", { type: "button", id: `dd-f-${f.id}-damage`, onclick: () => send("damage") }, t("web.dnd5e.damage")),
    el("button", { type: "button", id: `dd-f-${f.id}-heal`, onclick: () => send("heal") }, t("web.dnd5e.heal")),
    select(`dd-f-${f.id}-cond`, conditions.map((/** @type {string} */ k) => [k, tFirst(["web.dnd5e.cond." + k], {}, k)]), choice, { onchange: (/** @type {FieldEvent} */ e) => { ui.condition[f.id] = e.target.value; ctx.rerender(); }, "aria-label": t("web.dnd5e.condition_of", { name: f.name }) }),
    ...durationFields(ctx, f),
    SOURCED.includes(choice) ? sourceField(ctx, f) : null,
    el("button", { type: "button", id: `dd-f-${f.id}-cond-add`, onclick: () => {
      /** @type {Command} */ const command = { kind: "condition", target: f.id, condition: ui.condition[f.id] ?? "prone" };
      const duration = durationOf(ctx, f);
      if (duration === false) return;
      if (duration) command.duration = duration;
      if (SOURCED.includes(command.condition) && ui.source[f.id]) command.source = ui.source[f.id];
      sendFor(ctx, f, command);
    } }, t("web.dnd5e.condition_add")),
    el("button", { type: "button", id: `dd-f-${f.id}-cond-remove`, disabled: !(f.conditions || []).includes(choice), title: (f.conditions || []).includes(choice) ? null : t("web.dnd5e.condition_absent"), onclick: () => sendFor(ctx, f, { kind: "condition", target: f.id, condition: choice, remove: true }) }, t("web.dnd5e.condition_remove")),
    concentrationRisk(ctx, f)),
    fallRow(ctx, f));
}

function fighterCard(/** @type {Ctx} */ ctx, /** @type {Fighter} */ f) {
  const now = current(ctx) === f.id;
  return el("li", { class: "dd-fighter" + (now ? " is-current" : "") + (f.dead || f.down ? " is-down" : "") + (f.secret ? " is-secret" : ""), id: `dd-f-${f.id}`, dataset: { side: f.side } },
    el("div", { class: "dd-fighter-head" },
      el("strong", {}, f.name),
      f.secret ? el("span", { class: "badge hidden-badge" }, t("web.dnd5e.secret")) : null,
      el("span", { class: "muted small-print" }, t("web.dnd5e.line", { ac: f.ac, size: t("web.dnd5e.size." + f.size), side: t("web.dnd5e.side", { side: sideName(f.side) }) })),
      el("span", { class: "dd-hp", id: `dd-f-${f.id}-hp` }, hpText(f)),
      conditionBadges(f)),
    economy(ctx, f), spellcastingLine(ctx, f), hitDice(ctx, f), deathSaves(f), conditionEffects(f), gmTools(ctx, f));
}

/** A creature's hit dice left and, outside a fight for whoever plays it, how many to spend
 * with the odds of the healing before the roll. */
function hitDice(/** @type {Ctx} */ ctx, /** @type {Fighter} */ f) {
  const dice = f.hit_dice;
  if (!dice) return null;
  const left = dice.count - (f.hit_dice_spent || 0);
  const line = el("span", { id: `dd-f-${f.id}-hit-dice` }, t("web.dnd5e.hit_dice", { left, count: dice.count, sides: dice.sides }));
  if (ctx.state.combat || f.dead || !mine(ctx, f) || left < 1) return el("p", { class: "small-print" }, line);
  const count = Math.min(Math.max(1, Number(ui.hitDice[f.id]) || 1), left);
  const command = { kind: "spend_hit_dice", creature: f.id, count };
  const odds = oddsFor(ctx, command);
  const missing = (f.max_hp ?? f.hp) - f.hp;
  return el("div", { class: "row dd-hit-dice" }, line,
    numberInput(`dd-f-${f.id}-hit-dice-count`, String(count), { min: 1, max: left, "aria-label": t("web.dnd5e.hit_dice.count"), oninput: (/** @type {FieldEvent} */ e) => { ui.hitDice[f.id] = e.target.value; ctx.rerender(); } }),
    el("button", { type: "button", id: `dd-f-${f.id}-hit-dice-go`, onclick: () => sendFor(ctx, f, command) }, t("web.dnd5e.hit_dice.spend")),
    odds ? el("span", { class: "small-print", id: `dd-f-${f.id}-hit-dice-odds` }, healingLine(odds, missing)) : null);
}

/** The healing of hit dice in words: its range, its mean, and the chance of healing every
 * hit point missing. @param {{ outcomes: { value: number, probability: number }[] }} odds */
function healingLine(odds, /** @type {number} */ missing) {
  const values = odds.outcomes.map((o) => o.value);
  const mean = odds.outcomes.reduce((sum, o) => sum + o.value * o.probability, 0);
  const all = odds.outcomes.filter((o) => o.value >= missing).reduce((sum, o) => sum + o.probability, 0);
  return t("web.dnd5e.hit_dice.odds", { low: Math.min(...values), high: Math.max(...values), mean: metres(mean.toFixed(1)), missing, p: percent(all) });
}

function fightersPanel(/** @type {Ctx} */ ctx) {
  const order = ctx.state.combat?.order || [];
  const list = [...fighters(ctx)].sort((a, b) => {
    const ia = order.indexOf(a.id); const ib = order.indexOf(b.id);
    return (ia < 0 ? 1e9 : ia) - (ib < 0 ? 1e9 : ib);
  });
  return el("section", { class: "card", id: "dd-fighters-box", "aria-labelledby": "dd-fighters-heading" },
    el("h2", { id: "dd-fighters-heading" }, t("web.dnd5e.fighters")),
    list.length ? el("ol", { class: "dd-fighters", id: "dd-fighters" }, list.map((f) => fighterCard(ctx, f))) : el("p", { class: "muted" }, t("web.dnd5e.nobody")));
}

// -- status, reaction, last attack ----------------------------------------------------------

function status(/** @type {Ctx} */ ctx) {
  const fight = ctx.state.combat;
  let text;
  if (!fight) text = t("web.dnd5e.no_fight");
  else if (fight.over) text = fight.over.winner ? t("web.dnd5e.over", { side: sideName(fight.over.winner) }) : t("web.dnd5e.over_nobody");
  else text = fight.current ? t("web.dnd5e.round", { round: fight.round, name: nameOf(ctx, fight.current) }) : t("web.dnd5e.round_hidden", { round: fight.round });
  return el("p", { id: "dd-round", class: "dd-status" + (fight?.over ? " is-over" : ""), "aria-live": "polite" }, text);
}

function attackOddsLine(/** @type {any} */ option) {
  return el("span", { class: "dd-hit-odds" },
    t("web.dnd5e.hit_odds", { hit: percent(option.hit.p), critical: percent(option.critical.p), miss: percent(option.miss.p), mode: t("web.dnd5e.mode." + option.mode) }),
    option.cover && option.cover !== "none" ? el("span", { class: "dd-cover", dataset: { cover: option.cover } }, " · ", t("web.dnd5e.cover." + option.cover)) : null,
    " ", el("span", { class: "exact" }, `(${option.hit.exact}, ${option.critical.exact})`));
}

/** The odds of `command` from the page's one cache (`odds.js`): null while they are asked
 * or when they are refused (the page is drawn again when they arrive). */
function oddsFor(/** @type {Ctx} */ ctx, /** @type {Command} */ command) {
  const answer = ctx.oddsNow(command);
  return answer && !answer.error ? answer : null;
}

function loadReactOdds(/** @type {Ctx} */ ctx, /** @type {any} */ option) {
  return oddsFor(ctx, { kind: "attack", creature: option.creature, target: option.target, attack: option.attack });
}

function reactionPanel(/** @type {Ctx} */ ctx) {
  const pending = ctx.state.pending_reaction;
  if (!pending) return null;
  const fs = byId(ctx);
  const parts = [el("h2", { id: "dd-reaction-h" }, t("web.dnd5e.reaction_heading"))];
  for (const reactor of pending.reactors) {
    const f = fs.get(reactor);
    if (!f) continue;
    const intro = t("web.dnd5e.reaction_text", { reactor: f.name, mover: nameOf(ctx, pending.mover) });
    if (!mine(ctx, f)) { parts.push(el("p", { id: `dd-react-${reactor}-wait` }, intro, " ", t("web.dnd5e.reaction_wait", { reactor: f.name }))); continue; }
    const options = (pending.attacks || []).filter((/** @type {Open} */ o) => o.creature === reactor);
    const rows = options.map((/** @type {Open} */ o) => {
      const odds = loadReactOdds(ctx, o);
      return el("div", { class: "dd-react-option" },
        el("p", {}, el("strong", {}, o.attack), " · ", attackOddsLine(o)),
        odds ? oddsChart(odds, { caption: t("web.dnd5e.damage_caption"), labeler: (/** @type {number} */ v) => (v === 0 ? t("web.dnd5e.no_damage") : t("web.dnd5e.damage_value", { n: v })) }) : null,
        el("button", { type: "button", class: "primary", id: `dd-react-${reactor}-attack`, onclick: () => sendFor(ctx, f, { kind: "react", creature: reactor, attack: o.attack }).then(focusResult) }, t("web.dnd5e.react_attack", { attack: o.attack })));
    });
    parts.push(el("div", { class: "dd-react", id: `dd-react-${reactor}`, tabindex: "-1" }, el("p", {}, intro), ...rows,
      el("button", { type: "button", id: `dd-react-${reactor}-pass`, onclick: () => sendFor(ctx, f, { kind: "react", creature: reactor }) }, t("web.dnd5e.react_pass"))));
  }
  return el("section", { class: "card dd-reaction", id: "dd-reaction", "aria-labelledby": "dd-reaction-h" }, ...parts);
}

// -- a hit that waits for its target's Shield (rules edition 4) --------------------------------

/** The decision a held hit asks of its target's owner (the GM for a creature no player holds):
 * cast Shield (+5 AC, against this attack too) or take the hit. Others see whom the table
 * waits for. The d20 is rolled, so whether Shield turns the hit is certain. */
function shieldPanel(/** @type {Ctx} */ ctx) {
  const held = ctx.state.held_hit ?? ctx.state.held_spell;
  const f = held && byId(ctx).get(held.target);
  if (!f) return null;
  const intro = el("p", {}, shieldText(ctx, held, f));
  const heading = el("h2", { id: "dd-shield-h" }, t("web.dnd5e.shield.heading"));
  if (!mine(ctx, f)) {
    return el("section", { class: "card dd-reaction", id: "dd-shield", "aria-labelledby": "dd-shield-h" }, heading, intro,
      el("p", { id: "dd-shield-wait" }, t("web.dnd5e.reaction_wait", { reactor: f.name })));
  }
  const still = shieldStill(ctx, held);
  return el("section", { class: "card dd-reaction", id: "dd-shield", tabindex: "-1", "aria-labelledby": "dd-shield-h" }, heading, intro,
    still ? el("p", { id: "dd-shield-odds" }, still) : null,
    el("button", { type: "button", class: "primary", id: "dd-shield-cast", disabled: held.slot == null,
      onclick: () => sendFor(ctx, f, { kind: "shield", creature: f.id, cast: true }).then(focusResult) },
      t("web.dnd5e.shield.cast", { slot: held.slot ?? "–" })),
    el("button", { type: "button", id: "dd-shield-take", onclick: () => sendFor(ctx, f, { kind: "shield", creature: f.id, cast: false }).then(focusResult) },
      t("web.dnd5e.shield.take")));
}

/** What waits for the Shield decision: a weapon hit, or a spell's rolls at the creature
 * (an attack spell's totals, or Magic Missile's darts). */
function shieldText(/** @type {Ctx} */ ctx, /** @type {Open} */ held, /** @type {Fighter} */ f) {
  if (!ctx.state.held_spell || ctx.state.held_hit) {
    return t("web.dnd5e.shield.text", { target: f.name, attacker: nameOf(ctx, held.attacker), attack: held.attack, total: held.total, ac: held.ac, shield_ac: held.shield_ac });
  }
  const params = { target: f.name, attacker: nameOf(ctx, held.caster), spell: held.name, ac: held.ac, shield_ac: held.shield_ac,
    total: held.rolls.map((/** @type {Open} */ r) => r.total).join(", "), count: held.rolls.length };
  return t(held.attack ? "web.dnd5e.shield.spell_text" : "web.dnd5e.shield.darts_text", params);
}

/** What Shield would make of what waits (certain: the d20s are rolled). */
function shieldStill(/** @type {Ctx} */ ctx, /** @type {Open} */ held) {
  if (held.shield_hits == null) return null;
  if (ctx.state.held_hit) {
    const params = { total: held.total, shield_ac: held.shield_ac };
    return t(held.shield_hits.p > 0 ? "web.dnd5e.shield.still_hits" : "web.dnd5e.shield.turns", params);
  }
  const params = { hits: held.shield_hits, count: held.rolls.length, shield_ac: held.shield_ac };
  return t(held.shield_hits > 0 ? "web.dnd5e.shield.spell_still_hits" : "web.dnd5e.shield.spell_turns", params);
}

function focusResult(/** @type {unknown} */ answer) {
  if (answer) document.getElementById("dd-last")?.focus();
}

function lastAttack(/** @type {Ctx} */ ctx) {
  const last = ctx.state.last_attack;
  if (!last) return el("div", { id: "dd-last", tabindex: "-1", class: "dd-last muted" }, t("web.dnd5e.no_attack_yet"));
  const text = t("web.dnd5e.last." + last.outcome, {
    attacker: nameOf(ctx, last.attacker), target: nameOf(ctx, last.target), attack: last.attack,
    natural: last.natural, total: last.total, damage: last.damage,
  });
  return el("div", { id: "dd-last", tabindex: "-1", class: "dd-last outcome-" + last.outcome, "aria-live": "polite", dataset: { outcome: last.outcome } }, text);
}

// -- the map and the route -------------------------------------------------------------------

/** The squares of a straight king-move line from `from` to `to` (geometry only). */
function line(/** @type {string} */ from, /** @type {string} */ to) {
  const a = parseSquare(from); const b = parseSquare(to);
  /** @type {string[]} */
  const out = [];
  if (!a || !b) return out;
  let { x, y } = a;
  while (x !== b.x || y !== b.y) {
    x += Math.sign(b.x - x); y += Math.sign(b.y - y);
    out.push(squareName(x, y));
  }
  return out;
}

function routeEnd(/** @type {Ctx} */ ctx) {
  const f = byId(ctx).get(ui.selected);
  return ui.route.length ? ui.route[ui.route.length - 1].to : f?.position;
}

function moveCommand() {
  /** @type {Command} */ const command = { kind: "move", creature: ui.selected, steps: ui.route, stand_up: ui.standUp };
  if (ui.drag) command.drag = ui.drag;
  return command;
}

function clearRoute() {
  ui.route = []; ui.preview = null; ui.previewKey = null; ui.standUp = false; ui.drag = "";
}

/** Whose secrecy a move of `f` keeps: the dragged creature's when it is secret (its path
 * must not reach a player), else the mover's. */
function moving(/** @type {Ctx} */ ctx, /** @type {Fighter} */ f) {
  const dragged = ui.drag ? byId(ctx).get(ui.drag) : null;
  return dragged?.secret ? dragged : f;
}

/** The creatures `f` grapples (as their conditions name the grappler), on the map. */
function heldBy(/** @type {Ctx} */ ctx, /** @type {Fighter} */ f) {
  return fighters(ctx).filter((x) => x.position && !x.dead && (x.condition_details || []).some((/** @type {ConditionDetail} */ d) => d.kind === "grappled" && d.source === f.id));
}

/** The straight line of steps from `from` to `to` in the chosen way of moving; a flying line
 * rises or sinks to the typed height above the ground on its first step (null: a height that
 * is no number, after telling so). */
function stepsTo(/** @type {string} */ from, /** @type {string} */ to) {
  const steps = line(from, to).map((square) => /** @type {Step} */ ({ to: square, mode: ui.mode }));
  if (ui.mode !== "fly" || !steps.length) return steps;
  const height = typedAltitude();
  if (height === null) return null;
  if (height !== undefined) steps[0].altitude_m = height;
  return steps;
}

/** The typed flying height as sent (undefined: none typed; null: no height, after telling so). */
function typedAltitude() {
  const typed = String(ui.altitude).trim();
  if (!typed) return undefined;
  const height = Number(typed.replace(",", "."));
  if (!Number.isFinite(height) || height < 0 || height > 1000 || Math.round(height * 10) !== height * 10) {
    showAlert(t("web.dnd5e.altitude_bad", { value: typed }));
    document.getElementById("dd-altitude")?.focus();
    return null;
  }
  return String(height);
}

/** A flyer's step straight up or down to the typed height, without leaving the route's last
 * square (rules edition 5). */
function riseInPlace(/** @type {Ctx} */ ctx) {
  const height = typedAltitude();
  if (height === null) return;
  if (height === undefined) { showAlert(t("web.dnd5e.altitude_missing")); document.getElementById("dd-altitude")?.focus(); return; }
  ui.route = [...ui.route, { to: /** @type {string} */ (routeEnd(ctx)), mode: "fly", altitude_m: height }];
  refreshPreview(ctx);
  ctx.rerender();
}

function refreshPreview(/** @type {Ctx} */ ctx) {
  if (!ui.selected || (!ui.route.length && !ui.standUp)) { ui.preview = null; ui.previewKey = null; return; }
  const command = moveCommand();
  const key = JSON.stringify(command) + "|" + (ctx.records.length);
  if (key === ui.previewKey) return;
  ui.previewKey = key;
  ctx.odds(command).then((odds) => {
    if (ui.previewKey !== key) return;
    ui.preview = { value: odds?.outcomes?.[0]?.value ?? null };
    ctx.rerender();
  }).catch((error) => {
    if (ui.previewKey !== key) return;
    ui.preview = { failed: error.message };
    ctx.rerender();
  });
}

function movable(/** @type {Ctx} */ ctx, /** @type {Fighter} */ f) {
  const fight = ctx.state.combat;
  return Boolean(fight && !fight.over && fight.current === f.id && !ctx.state.pending_reaction && mine(ctx, f) && !f.dead && f.position);
}

function onSquare(/** @type {Ctx} */ ctx, /** @type {string} */ name) {
  if (placeTemplate(ctx, name)) return;
  if (ctx.isGm && ui.paint === "ground") {
    const picked = groundSquares();
    ui.ground.squares = (picked.includes(name) ? picked.filter((x) => x !== name) : [...picked, name]).join(", ");
    ctx.rerender();
    return;
  }
  if (ctx.isGm && ui.paint) {
    ctx.send({ kind: "terrain", squares: [name], terrain: ui.paint === "plain" ? null : ui.paint });
    return;
  }
  const f = ui.selected && byId(ctx).get(ui.selected);
  if (f) {
    const from = routeEnd(ctx);
    const steps = stepsTo(/** @type {string} */ (from), name);
    if (!steps?.length) return;
    if (ui.jump === "long") steps.forEach((s) => (s.jump = "long"));
    if (ui.jump === "high") {
      const height = Number(ui.jumpHeight);
      if (!(height > 0)) { showAlert(t("web.dnd5e.jump_height")); document.getElementById("dd-jump-height")?.focus(); return; }
      Object.assign(steps[0], { jump: "high", height_m: String(height) });
    }
    if (ui.jump && ui.obstacle) steps[0].obstacle = true;
    if (ui.jump) { ui.jump = ""; ui.obstacle = false; }
    ui.route = [...ui.route, ...steps];
    refreshPreview(ctx);
    ctx.rerender();
    return;
  }
  // Nothing selected: the square is where a new creature goes.
  if (ctx.isGm) ui.monster.at = name; else ui.hero.at = name;
  ctx.rerender();
}

function onToken(/** @type {Ctx} */ ctx, /** @type {MapToken} */ token) {
  if (placeTemplate(ctx, /** @type {string} */ (token.position))) return null;
  const f = byId(ctx).get(token.id);
  if (ctx.isGm && ui.paint) return onSquare(ctx, /** @type {string} */ (token.position));
  if (f && movable(ctx, f)) {
    if (ui.selected === f.id) { ui.selected = null; clearRoute(); } else { ui.selected = f.id; clearRoute(); ui.mode = "walk"; }
    ctx.rerender();
    return null;
  }
  if (ui.selected) return onSquare(ctx, /** @type {string} */ (token.position));
  if (f) { ui.target = f.id; ui.contest.target = f.id; targetSpell(ctx, f.id); ctx.rerender(); }
  return null;
}

/** A creature clicked on the map joins the targets of the spell being cast (one that takes
 * targets), as ticking it in the form would; where the spell already has as many targets as
 * it may (one for Hold Person), the one named last gives way (the first named stays: Chain
 * Lightning strikes it first). */
function targetSpell(/** @type {Ctx} */ ctx, /** @type {string} */ id) {
  const spell = casters(ctx).length ? chosenSpell(ctx) : null;
  if (!spell || spell.area || spell.range === "self" || ui.cast.targets.includes(id)) return;
  const most = spell.targets_max?.[String(spell.level ? Number(ui.cast.slot) || spell.level : 0)];
  const kept = most && ui.cast.targets.length >= most ? ui.cast.targets.slice(0, most - 1) : ui.cast.targets;
  ui.cast.targets = [...kept, id];
}

/** A token dragged over a square: its route becomes the straight line there, previewed. */
function onDrag(/** @type {Ctx} */ ctx, /** @type {MapToken} */ token, /** @type {string} */ to) {
  const f = byId(ctx).get(token.id);
  if (!f || !movable(ctx, f)) return;
  const steps = stepsTo(/** @type {string} */ (f.position), to);
  if (!steps) return;
  if (ui.selected !== f.id) ui.drag = "";
  ui.selected = f.id; ui.standUp = false;
  ui.route = steps;
  refreshPreview(ctx);
  ctx.rerender();
}

/** A token dropped on a square: it moves there along the straight line; a refused move keeps
 * the route on the map with its reason. */
async function onDrop(/** @type {Ctx} */ ctx, /** @type {MapToken} */ token, /** @type {string} */ to) {
  const f = byId(ctx).get(token.id);
  if (!f || !movable(ctx, f)) return;
  const steps = stepsTo(/** @type {string} */ (f.position), to);
  if (!steps) return;
  if (ui.selected !== f.id) ui.drag = "";
  ui.selected = f.id; ui.standUp = false;
  ui.route = steps;
  refreshPreview(ctx);
  const answer = await sendFor(ctx, moving(ctx, f), moveCommand());
  if (answer) { clearRoute(); ui.selected = null; }
  ctx.rerender();
}

/** The ruler beside the end of the planned route: its cost, the movement left and who may
 * strike as it leaves their reach. */
function ruler(/** @type {Ctx} */ ctx) {
  const f = ui.selected && byId(ctx).get(ui.selected);
  const preview = ui.preview?.value;
  if (!f || !f.position || !ui.route.length || !preview) return null;
  const text = t("web.map.ruler", { cost: metres(preview.cost_m), left: metres(preview.remaining_m) });
  const warning = preview.error ? t("web.map.ruler_refused")
    : preview.opportunity_attacks.length ? t("web.map.ruler_provokes", { names: preview.opportunity_attacks.map((/** @type {string} */ id) => nameOf(ctx, id)).join(", ") }) : null;
  return { from: f.position, to: ui.route[ui.route.length - 1].to, text, warning };
}

/** An arrow key on a token: select it, then each key adds one step to its route. */
function onStep(/** @type {Ctx} */ ctx, /** @type {MapToken} */ token, /** @type {string} */ to) {
  const f = byId(ctx).get(token.id);
  if (!f || !movable(ctx, f)) return;
  if (ui.selected !== f.id) { ui.selected = f.id; clearRoute(); }
  const point = (/** @type {string | null | undefined} */ name) => /** @type {{ x: number, y: number }} */ (parseSquare(name));
  const a = point(token.position); const b = point(to); const end = point(routeEnd(ctx));
  const next = { x: end.x + b.x - a.x, y: end.y + b.y - a.y };
  if (next.x < 0 || next.y < 0) return;
  ui.route = [...ui.route, { to: squareName(next.x, next.y), mode: ui.mode }];
  refreshPreview(ctx);
  ctx.rerender();
  document.getElementById("dd-token-" + f.id)?.focus();
}

function marks(/** @type {Ctx} */ ctx) {
  /** @type {Record<string, string>} */
  const out = {};
  const preview = ui.preview?.value;
  if (ctx.isGm && ui.paint === "ground") for (const name of groundSquares()) out[name] = "is-picked";
  if (!ui.selected) return out;
  for (const name of (preview?.drag_path || []).slice(1)) out[name] = "is-drag";
  const legal = new Set(preview ? preview.path.slice(1) : []);
  ui.route.forEach((step, i) => {
    const refused = preview && !preview.legal && i >= (preview.error?.step ?? 0) && !legal.has(step.to);
    out[step.to] = refused ? "is-refused" : "is-route";
  });
  return out;
}

function tokens(/** @type {Ctx} */ ctx) {
  const now = current(ctx);
  return fighters(ctx).filter((f) => f.position && !f.dead).map((f) => ({
    id: f.id, name: f.name, position: f.position, squares: f.squares, colour: COLOURS[f.side] || "#6b4fa3",
    movable: movable(ctx, f) || ctx.isGm,
    classes: [ui.selected === f.id ? "is-selected" : "", now === f.id ? "is-current" : "", f.secret ? "is-secret" : "", f.down ? "is-down" : "", (f.conditions || []).includes("prone") ? "is-prone" : ""].filter(Boolean),
    label: tokenLabel(f.name, /** @type {string} */ (f.position)) + ((f.conditions || []).length ? " · " + (f.conditions || []).map((/** @type {string} */ k) => tFirst(["web.dnd5e.cond." + k], {}, k)).join(", ") : ""),
    // The view holds only the creatures this person may see, with their HP as the cards show it.
    secret: Boolean(f.secret), hp: typeof f.hp === "number" && f.max_hp ? { value: f.hp, max: f.max_hp } : null,
    conditions: (f.conditions || []).map((/** @type {string} */ k) => tFirst(["web.dnd5e.cond." + k], {}, k)),
  }));
}

function routePanel(/** @type {Ctx} */ ctx) {
  const f = ui.selected && byId(ctx).get(ui.selected);
  if (!f) {
    const mover = fighters(ctx).find((x) => movable(ctx, x));
    return el("p", { class: "muted small-print", id: "dd-route" }, mover ? t("web.dnd5e.route_hint", { name: mover.name }) : t("web.dnd5e.map_hint"));
  }
  const prone = (f.conditions || []).includes("prone");
  const held = heldBy(ctx, f);
  if (ui.drag && !held.some((x) => x.id === ui.drag)) ui.drag = "";
  const dragBox = (/** @type {Open} */ x) => checkField(`dd-drag-${x.id}`, t("web.dnd5e.drag", { name: x.name }), ui.drag === x.id, {
    onchange: (/** @type {FieldEvent} */ e) => { ui.drag = e.target.checked ? x.id : ""; refreshPreview(ctx); ctx.rerender(); },
  });
  const modes = MODES.filter((m) => m === "crawl" || m === "walk" || m === "climb" || m === "swim" || (f.speeds && m in f.speeds));
  const preview = ui.preview?.value;
  const lines = [];
  if (ui.preview?.failed) lines.push(el("p", { class: "dd-refused", id: "dd-route-error" }, ui.preview.failed));
  if (preview) {
    lines.push(el("p", { id: "dd-route-cost" }, t("web.dnd5e.route_cost", { path: preview.path.join(" → "), cost: metres(preview.cost_m), left: metres(preview.remaining_m) })));
    if (preview.stood_up) lines.push(el("p", { class: "small-print" }, t("web.dnd5e.route_stands")));
    if (preview.drag_path) lines.push(el("p", { id: "dd-route-drag" }, t("web.dnd5e.route_drag", { name: nameOf(ctx, ui.drag), path: preview.drag_path.join(" → ") })));
    (preview.checks || []).forEach((/** @type {Open} */ check, /** @type {number} */ i) => lines.push(el("p", { class: "dd-warning", id: `dd-route-check-${i}` }, t("web.dnd5e.check." + check.reason, { step: check.step + 1, dc: check.dc, name: f.name }),
      check.p ? [" ", t("web.dnd5e.check_form.odds", { p: percent(check.p.p) }), " ", el("span", { class: "exact" }, `(${check.p.exact})`)] : null)));
    if (preview.error) lines.push(el("p", { class: "dd-refused", id: "dd-route-error" }, errorText(ctx, preview.error)));
    if (preview.aura) lines.push(auraLine(ctx, preview.aura));
    if (preview.opportunity_attacks.length) {
      lines.push(el("p", { class: "dd-warning", id: "dd-route-oa" }, t("web.dnd5e.route_provokes", { names: preview.opportunity_attacks.map((/** @type {string} */ id) => nameOf(ctx, id)).join(", ") })));
    }
  }
  const canMove = preview && (ui.route.length || ui.standUp) && (preview.legal || preview.path.length > 1);
  const why = !preview ? t("web.dnd5e.route_empty") : null;
  return el("div", { class: "dd-route", id: "dd-route" },
    el("p", {}, t("web.dnd5e.route_for", { name: f.name }), " ", el("span", { class: "muted small-print" }, t("web.dnd5e.route_how"))),
    el("div", { class: "row" },
      field(t("web.dnd5e.mode_label"), select("dd-mode", modes.map((m) => [m, t("web.dnd5e.speed." + m)]), ui.mode, { onchange: (/** @type {FieldEvent} */ e) => { ui.mode = e.target.value; ctx.rerender(); } })),
      ui.mode === "fly" ? field(t("web.dnd5e.altitude"), numberInput("dd-altitude", ui.altitude, { min: 0, max: 1000, step: 0.5, oninput: (/** @type {FieldEvent} */ e) => (ui.altitude = e.target.value) })) : null,
      ui.mode === "fly" && ctx.state.options.edition >= 5 ? el("button", { type: "button", id: "dd-rise", onclick: () => riseInPlace(ctx) }, t("web.dnd5e.rise_in_place")) : null,
      field(t("web.dnd5e.jump_label"), select("dd-jump", ["", "long", "high"].map((j) => [j, t("web.dnd5e.jump." + (j || "none"))]), ui.jump, { onchange: (/** @type {FieldEvent} */ e) => { ui.jump = e.target.value; ctx.rerender(); } })),
      ui.jump === "high" ? field(t("web.dnd5e.jump_height"), numberInput("dd-jump-height", ui.jumpHeight, { min: 0.3, max: 30, step: 0.3, required: true, "aria-required": "true", oninput: (/** @type {FieldEvent} */ e) => (ui.jumpHeight = e.target.value) })) : null,
      ui.jump ? checkField("dd-jump-obstacle", t("web.dnd5e.jump_obstacle"), ui.obstacle, { onchange: (/** @type {FieldEvent} */ e) => (ui.obstacle = e.target.checked) }) : null,
      ...held.map(dragBox),
      prone ? checkField("dd-stand-up", t("web.dnd5e.stand_up", { cost: metres(Math.floor(Number(f.speeds?.walk || 0) / 2)) }), ui.standUp, { onchange: (/** @type {FieldEvent} */ e) => { ui.standUp = e.target.checked; refreshPreview(ctx); ctx.rerender(); } }) : null),
    f.jump ? el("p", { class: "muted small-print", id: "dd-jump-reach" }, t("web.dnd5e.jump_reach", { long: metres(f.jump.long_m), long_standing: metres(f.jump.long_standing_m), high: metres(f.jump.high_m), high_standing: metres(f.jump.high_standing_m) })) : null,
    ...lines,
    el("div", { class: "row" },
      el("button", { type: "button", class: "primary", id: "dd-move", disabled: !canMove, title: canMove ? null : why || t("web.dnd5e.route_illegal"), onclick: async () => {
        const value = ui.preview?.value;
        // A refused step: move along the legal part only.
        const steps = value && !value.legal && value.error ? ui.route.slice(0, value.error.step) : ui.route;
        const answer = await sendFor(ctx, moving(ctx, f), { ...moveCommand(), steps });
        if (answer) { clearRoute(); ui.selected = null; ctx.rerender(); }
      } }, t("web.dnd5e.move")),
      el("button", { type: "button", id: "dd-route-back", disabled: !ui.route.length, onclick: () => { ui.route = ui.route.slice(0, -1); refreshPreview(ctx); ctx.rerender(); } }, t("web.dnd5e.route_back")),
      el("button", { type: "button", id: "dd-route-clear", onclick: () => { clearRoute(); ui.selected = null; ctx.rerender(); } }, t("web.dnd5e.route_clear")),
      prone ? null : el("button", { type: "button", id: "dd-drop-prone", onclick: () => sendFor(ctx, f, { kind: "move", creature: f.id, drop_prone: true }) }, t("web.dnd5e.drop_prone"))));
}

/** The aura a route enters (Spirit Guardians): where, the save's odds and the damage, halved
 * on a save, as a chart to open. */
function auraLine(/** @type {Ctx} */ ctx, /** @type {RouteAura} */ aura) {
  const exact = (/** @type {Open} */ x) => el("span", { class: "exact" }, `(${x.exact})`);
  const mean = aura.mean.toLocaleString(document.documentElement.lang, { maximumFractionDigits: 1 });
  const odds = { outcomes: aura.damage.map((d) => ({ value: d.value, probability: d.p, exact: d.exact })), mean: aura.mean };
  return el("div", { class: "dd-warning", id: "dd-route-aura" },
    el("p", {}, t("web.dnd5e.route_aura", { step: aura.step + 1, square: aura.square, caster: nameOf(ctx, aura.caster), spell: spellName(ctx, aura.caster, aura.spell), ability: t("web.dnd5e.ability." + aura.ability) }), " ",
      el("span", { id: "dd-route-aura-save" }, t("web.dnd5e.route_aura_save", { p: percent(aura.save.p) }), " ", exact(aura.save)), ", ",
      el("span", { id: "dd-route-aura-fail" }, t("web.dnd5e.route_aura_fail", { p: percent(aura.fail.p) }), " ", exact(aura.fail)), " ",
      el("span", { id: "dd-route-aura-mean" }, t("web.dnd5e.route_aura_mean", { mean }))),
    el("details", {}, el("summary", {}, t("web.dnd5e.route_aura_chart")),
      oddsChart(odds, { caption: t("web.dnd5e.route_aura_caption"), labeler: (/** @type {number} */ v) => t("web.dnd5e.damage_value", { n: v }) })));
}

function mapPanel(/** @type {Ctx} */ ctx) {
  const grid = ctx.state.grid;
  const board = battleMap({
    prefix: "dd", width: grid.width, height: grid.height, terrain: grid.terrain, ground: grid.ground,
    groundText: (/** @type {number} */ height) => t("web.dnd5e.ground_of", { height: metres(height) }),
    terrainText: (/** @type {string} */ kind) => t("web.map.terrain." + kind),
    label: t("web.map.map_label", { width: grid.width, height: grid.height }),
    tokens: tokens(ctx).map((token) => concentrationToken(ctx, token)), marks: { ...templateMarks(ctx), ...marks(ctx) },
    onSquare: (/** @type {string} */ name) => onSquare(ctx, name),
    onToken: (/** @type {MapToken} */ token) => onToken(ctx, token),
    onStep: (/** @type {MapToken} */ token, /** @type {string} */ to) => onStep(ctx, token, to),
    onDrag: (/** @type {MapToken} */ token, /** @type {string} */ to) => onDrag(ctx, token, to),
    onDrop: (/** @type {MapToken} */ token, /** @type {string} */ to) => onDrop(ctx, token, to),
    ruler: ruler(ctx),
  });
  const paint = ctx.isGm ? field(t("web.dnd5e.paint"), select("dd-paint", /** @type {[string, string][]} */ ([["", t("web.dnd5e.paint_off")], ...["plain", ...TERRAIN].map((k) => [k, t("web.map.terrain." + k)]), ["ground", t("web.dnd5e.paint_ground")]]), ui.paint, {
    onchange: (/** @type {FieldEvent} */ e) => { ui.paint = e.target.value; ui.selected = null; clearRoute(); ctx.rerender(); },
  })) : null;
  return el("section", { class: "card", id: "dd-map-box", "aria-labelledby": "dd-map-heading" },
    el("h2", { id: "dd-map-heading" }, t("web.dnd5e.map")),
    el("p", { class: "muted small-print" }, t("web.map.map_scale", { m: grid.square_m, diagonal: t("web.dnd5e.diagonal." + grid.diagonal) })),
    mapFrame(board, /** @type {any} */ (centreToken("dd", tokens(ctx), current(ctx), fighters(ctx).filter((f) => mine(ctx, f) && !ctx.isGm).map((f) => f.id)))),
    terrainLegend(TERRAIN, (/** @type {string} */ kind) => t("web.map.terrain." + kind)),
    templatesList(ctx), routePanel(ctx), paint, groundForm(ctx));
}

/** The squares typed or clicked for a ground height. */
function groundSquares() {
  return ui.ground.squares.split(/[\s,;]+/u).map((x) => x.toLowerCase()).filter(Boolean);
}

/** The GM's ground height on the picked squares (clicked on the map or typed), in steps of
 * half a metre: a ledge above 0, a pit below, 0 level again. */
function groundForm(/** @type {Ctx} */ ctx) {
  if (!ctx.isGm || ui.paint !== "ground") return null;
  const g = ui.ground;
  const grid = ctx.state.grid;
  const go = () => {
    const typed = String(g.height).trim();
    const height = Number(typed.replace(",", "."));
    if (!typed || !Number.isFinite(height) || Math.abs(height) > 100 || !Number.isInteger(height * 2)) {
      showAlert(t("web.dnd5e.ground_height_bad", { value: typed })); document.getElementById("dd-ground-height")?.focus(); return;
    }
    const squares = groundSquares();
    if (!squares.length) { showAlert(t("web.dnd5e.ground_squares_missing")); document.getElementById("dd-ground-squares")?.focus(); return; }
    const off = squares.find((name) => { const at = parseSquare(name); return !at || at.x >= grid.width || at.y >= grid.height; });
    if (off) { showAlert(t("web.dnd5e.ground_square_bad", { value: off })); document.getElementById("dd-ground-squares")?.focus(); return; }
    ctx.send({ kind: "ground", squares, height_m: height }).then((answer) => { if (answer) { g.squares = ""; ctx.rerender(); } });
  };
  return el("div", { class: "row dd-ground", id: "dd-ground" },
    field(t("web.dnd5e.ground_squares"), textInput("dd-ground-squares", g.squares, { maxlength: 2000, placeholder: "b2, c2", oninput: (/** @type {FieldEvent} */ e) => { g.squares = e.target.value; ctx.rerender(); } })),
    field(t("web.dnd5e.ground_height"), textInput("dd-ground-height", g.height, { maxlength: 8, inputmode: "decimal", oninput: (/** @type {FieldEvent} */ e) => { g.height = e.target.value; } })),
    el("button", { type: "button", id: "dd-ground-set", onclick: go }, t("web.dnd5e.ground_set")));
}

// -- the current creature's actions --------------------------------------------------------

function loadAttackOdds(/** @type {Ctx} */ ctx, /** @type {Command} */ command) {
  return oddsFor(ctx, command);
}

function attackBox(/** @type {Ctx} */ ctx, /** @type {Fighter} */ f) {
  const options = ctx.state.attack_options || [];
  if (!options.length) return el("p", { class: "muted" }, t("web.dnd5e.no_attacks"));
  const names = [...new Set(options.map((/** @type {Open} */ o) => o.attack))];
  const targets = [...new Set(options.map((/** @type {Open} */ o) => o.target))];
  if (!names.includes(ui.attack)) ui.attack = names[0];
  if (!targets.includes(ui.target)) ui.target = (options.find((/** @type {Open} */ o) => o.in_reach && byId(ctx).get(o.target)?.side !== f.side) || options.find((/** @type {Open} */ o) => byId(ctx).get(o.target)?.side !== f.side) || options[0]).target;
  const option = options.find((/** @type {Open} */ o) => o.attack === ui.attack && o.target === ui.target);
  const b = f.budgets || {};
  const canAct = Number(b.action || 0) > 0 || Number(b.attacks || 0) > 0;
  const reason = !option ? t("web.dnd5e.pick_attack") : !canAct ? t("web.dnd5e.no_action_left")
    : !option.in_reach ? t("web.dnd5e.out_of_reach", { target: nameOf(ctx, option.target), distance: metres(option.distance_m), reach: metres(option.reach_m) }) : null;
  const chosen = ctx.isGm ? ui.attackMode : "normal";
  const command = withRollMode({ kind: "attack", creature: f.id, target: ui.target, attack: ui.attack }, chosen);
  const odds = option ? loadAttackOdds(ctx, command) : null;
  const nothing = odds?.outcomes?.find((/** @type {Open} */ o) => o.value === 0);
  return el("div", { class: "dd-attack", id: "dd-attack-box" },
    el("h3", {}, t("web.dnd5e.attack_heading")),
    el("div", { class: "row" },
      field(t("web.dnd5e.attack_with"), select("dd-attack-name", names.map((n) => [n, n]), ui.attack, { onchange: (/** @type {FieldEvent} */ e) => { ui.attack = e.target.value; ctx.rerender(); } })),
      field(t("web.dnd5e.attack_target"), select("dd-attack-target", targets.map((id) => [id, nameOf(ctx, id)]), ui.target, { onchange: (/** @type {FieldEvent} */ e) => { ui.target = e.target.value; ctx.rerender(); } })),
      ctx.isGm ? rollModeField("dd-attack-mode", ui.attackMode, (/** @type {FieldEvent} */ e) => { ui.attackMode = e.target.value; ctx.rerender(); }) : null),
    option && chosen === "normal" ? el("p", { id: "dd-attack-odds" }, attackOddsLine(option)) : null,
    option && chosen !== "normal" && nothing ? el("p", { id: "dd-attack-odds" },
      t("web.dnd5e.chosen_odds", { mode: t("web.dnd5e.mode." + chosen), p: percent(nothing.probability) }), " ", el("span", { class: "exact" }, `(${nothing.exact})`)) : null,
    odds ? el("div", { id: "dd-damage-odds" }, oddsChart(odds, { caption: t("web.dnd5e.damage_caption"), labeler: (/** @type {number} */ v) => (v === 0 ? t("web.dnd5e.no_damage") : t("web.dnd5e.damage_value", { n: v })) })) : null,
    reason ? el("p", { class: "muted small-print", id: "dd-attack-why" }, reason) : null,
    el("button", { type: "button", class: "primary", id: "dd-attack", disabled: Boolean(reason), title: reason, onclick: () => sendFor(ctx, f, command).then(focusResult) }, t("web.dnd5e.roll_attack")));
}

function actionBox(/** @type {Ctx} */ ctx, /** @type {Fighter} */ f) {
  const b = f.budgets || {};
  const left = Number(b.action || 0) > 0;
  const others = fighters(ctx).filter((x) => x.id !== f.id && x.position && !x.dead);
  const allies = others.filter((x) => x.side === f.side);
  const foes = others.filter((x) => x.side !== f.side);
  const help = ui.action === "help";
  const helpCheck = help && ui.helpKind === "check";
  /** @type {Command} */ const command = { kind: "action", creature: f.id, action: ui.action };
  if (!allies.some((x) => x.id === ui.helpTarget)) ui.helpTarget = allies[0]?.id || "";
  if (!foes.some((x) => x.id === ui.helpFoe)) ui.helpFoe = foes[0]?.id || "";
  if (help) Object.assign(command, { target: ui.helpTarget || null, help: ui.helpKind }, helpCheck ? (ui.helpTask ? { task: ui.helpTask } : {}) : { foe: ui.helpFoe || null });
  const reason = !left ? t("web.dnd5e.no_action_left") : help && !allies.length ? t("web.dnd5e.no_ally") : help && !helpCheck && !foes.length ? t("web.dnd5e.no_foe") : null;
  // Hide: the chance to reach the highest passive Perception watching (the view holds only
  // the creatures this person sees, and so do the odds the server answers for them).
  const hides = ui.action === "hide" || (f.bonus_actions || []).includes("hide");
  const hideOdds = hides ? oddsOf(ctx, { kind: "action", creature: f.id, action: "hide" }) : null;
  return el("div", { class: "dd-actions-other" },
    el("h3", {}, t("web.dnd5e.other_actions")),
    el("div", { class: "row" },
      field(t("web.dnd5e.action_label"), select("dd-action", ACTIONS.map((a) => [a, t("web.dnd5e.action." + a)]), ui.action, { onchange: (/** @type {FieldEvent} */ e) => { ui.action = e.target.value; ctx.rerender(); } })),
      help ? field(t("web.dnd5e.help_kind"), select("dd-help-kind", ["attack", "check"].map((k) => [k, t("web.dnd5e.help_kind." + k)]), ui.helpKind, { onchange: (/** @type {FieldEvent} */ e) => { ui.helpKind = e.target.value; ctx.rerender(); } })) : null,
      help ? field(t("web.dnd5e.help_ally"), select("dd-help-ally", allies.map((x) => [x.id, x.name]), ui.helpTarget, { onchange: (/** @type {FieldEvent} */ e) => { ui.helpTarget = e.target.value; ctx.rerender(); } })) : null,
      help && !helpCheck ? field(t("web.dnd5e.help_foe"), select("dd-help-foe", foes.map((x) => [x.id, x.name]), ui.helpFoe, { onchange: (/** @type {FieldEvent} */ e) => { ui.helpFoe = e.target.value; ctx.rerender(); } })) : null,
      helpCheck ? field(t("web.dnd5e.help_task"), select("dd-help-task", [["", t("web.dnd5e.help_task.any")], ...taskChoices()], ui.helpTask, { onchange: (/** @type {FieldEvent} */ e) => { ui.helpTask = e.target.value; ctx.rerender(); } })) : null),
    el("p", { class: "muted small-print", id: "dd-action-fx" }, t(helpCheck ? (ui.helpTask ? "web.dnd5e.action_fx.help_task" : "web.dnd5e.action_fx.help_check") : "web.dnd5e.action_fx." + ui.action)),
    hideOdds?.failed ? el("p", { class: "dd-refused", id: "dd-hide-odds" }, hideOdds.failed) : chanceLine("dd-hide-odds", "web.dnd5e.hide_odds", hideOdds, "hidden"),
    hides ? el("p", { class: "muted small-print", id: "dd-hide-how" }, t("web.dnd5e.hide_how")) : null,
    el("button", { type: "button", id: "dd-action-go", disabled: Boolean(reason), title: reason, onclick: () => sendFor(ctx, f, command) }, t("web.dnd5e.take_action", { action: t("web.dnd5e.action." + ui.action) })),
    (f.bonus_actions || []).length ? el("div", { class: "row" }, f.bonus_actions.map((/** @type {string} */ feature, /** @type {number} */ i) => el("button", {
      type: "button", id: `dd-bonus-${i}`, disabled: Number(b.bonus || 0) <= 0, title: Number(b.bonus || 0) > 0 ? null : t("web.dnd5e.no_bonus_left"),
      onclick: () => sendFor(ctx, f, { kind: "bonus_action", creature: f.id, feature }),
    }, t("web.dnd5e.bonus", { feature: tFirst(["web.dnd5e.action." + feature], {}, feature) })))) : null);
}

function loadContestOdds(/** @type {Ctx} */ ctx, /** @type {Command | null} */ command) {
  const answer = command ? ctx.oddsNow(command) : null;
  return answer?.error ? { failed: answer.error } : answer;
}

/** Grapple or shove (one attack of the Attack action, a contest of Athletics against the
 * target's better of Athletics and Acrobatics) with the chance to win before the roll, and
 * the action to escape a grapple. */
function contestBox(/** @type {Ctx} */ ctx, /** @type {Fighter} */ f) {
  const c = ui.contest;
  const b = f.budgets || {};
  const canAct = Number(b.action || 0) > 0 || Number(b.attacks || 0) > 0;
  const others = fighters(ctx).filter((x) => x.id !== f.id && x.position && !x.dead);
  if (!others.some((x) => x.id === c.target)) c.target = (others.find((x) => x.side !== f.side) || others[0])?.id || "";
  const grappled = (f.conditions || []).includes("grappled");
  /** @type {Command | null} */
  const command = c.target ? (c.action === "grapple" ? { kind: "grapple", creature: f.id, target: c.target }
    : { kind: "shove", creature: f.id, target: c.target, effect: c.action === "shove_push" ? "push" : "prone" }) : null;
  const odds = canAct ? loadContestOdds(ctx, command) : null;
  const win = odds?.outcomes?.find((/** @type {Open} */ o) => o.value === "win");
  const reason = !command ? t("web.dnd5e.contest_no_target") : !canAct ? t("web.dnd5e.no_action_left") : odds?.failed || null;
  return el("div", { class: "dd-contest", id: "dd-contest-box" },
    el("h3", {}, t("web.dnd5e.contest_heading")),
    el("div", { class: "row" },
      field(t("web.dnd5e.contest_label"), select("dd-contest-action", CONTESTS.map((a) => [a, t("web.dnd5e.contest." + a)]), c.action, { onchange: (/** @type {FieldEvent} */ e) => { c.action = e.target.value; ctx.rerender(); } })),
      field(t("web.dnd5e.attack_target"), select("dd-contest-target", others.map((x) => [x.id, x.name]), c.target, { onchange: (/** @type {FieldEvent} */ e) => { c.target = e.target.value; ctx.rerender(); } }))),
    win ? el("p", { id: "dd-contest-odds" }, t("web.dnd5e.contest_odds", { p: percent(win.probability) }), " ", el("span", { class: "exact" }, `(${win.exact})`)) : null,
    el("p", { class: "muted small-print", id: "dd-contest-how" }, t("web.dnd5e.contest_how." + c.action)),
    reason ? el("p", { class: "muted small-print", id: "dd-contest-why" }, reason) : null,
    el("button", { type: "button", id: "dd-contest-go", disabled: Boolean(reason) || !win, title: reason, onclick: () => sendFor(ctx, f, /** @type {Command} */ (command)) }, t("web.dnd5e.contest_go", { action: t("web.dnd5e.contest." + c.action) })),
    grappled ? escapeRow(ctx, f) : null);
}

/** Escaping a grapple (the grappled creature's action): the chance before the roll. */
function escapeRow(/** @type {Ctx} */ ctx, /** @type {Fighter} */ f) {
  const left = Number(f.budgets?.action || 0) > 0;
  const odds = left ? oddsOf(ctx, { kind: "escape", creature: f.id }) : null;
  const why = !left ? t("web.dnd5e.no_action_left") : odds?.failed || null;
  return el("div", { class: "dd-escape", id: "dd-escape-box" },
    chanceLine("dd-escape-odds", "web.dnd5e.escape_odds", odds, "win"),
    el("p", { class: "muted small-print", id: "dd-escape-how" }, t("web.dnd5e.escape_how")),
    why ? el("p", { class: "muted small-print", id: "dd-escape-why" }, why) : null,
    el("button", { type: "button", id: "dd-escape", disabled: Boolean(why), title: why, onclick: () => sendFor(ctx, f, { kind: "escape", creature: f.id }) }, t("web.dnd5e.contest_escape")));
}

function readyBox(/** @type {Ctx} */ ctx, /** @type {Fighter} */ f) {
  const r = ui.ready;
  const left = Number(f.budgets?.action || 0) > 0;
  const weapons = (f.attacks || []).map((/** @type {Open} */ w) => w.name);
  const targets = fighters(ctx).filter((x) => x.id !== f.id && !x.dead && x.position);
  if (!weapons.includes(r.attack)) r.attack = weapons[0] || "";
  if (!targets.some((x) => x.id === r.target)) r.target = (targets.find((x) => x.side !== f.side) || targets[0])?.id || "";
  const attack = r.what === "attack" && weapons.length;
  /** @type {Command} */ const command = { kind: "ready", creature: f.id, trigger: r.trigger.trim() };
  if (attack) Object.assign(command, { attack: r.attack, target: r.target }); else command.action = r.action.trim();
  const reason = !left ? t("web.dnd5e.no_action_left") : !command.trigger ? t("web.dnd5e.ready_trigger_missing")
    : attack && !command.target ? t("web.dnd5e.ready_target_missing") : !attack && !command.action ? t("web.dnd5e.ready_action_missing") : null;
  const set = (/** @type {string} */ key, /** @type {boolean} */ redraw = false) => (/** @type {FieldEvent} */ e) => { /** @type {Record<string, unknown>} */ (r)[key] = e.target.value; if (redraw) ctx.rerender(); };
  return el("div", { class: "dd-ready-form", id: "dd-ready-form" },
    el("h3", {}, t("web.dnd5e.action.ready")),
    el("p", { class: "muted small-print" }, t("web.dnd5e.action_fx.ready")),
    field(t("web.dnd5e.ready_trigger"), textInput("dd-ready-trigger", r.trigger, { required: true, "aria-required": "true", maxlength: 2000, oninput: set("trigger", true) })),
    el("div", { class: "row" },
      field(t("web.dnd5e.ready_what"), select("dd-ready-what", [["attack", t("web.dnd5e.ready_what_attack")], ["other", t("web.dnd5e.ready_what_other")]], r.what, { onchange: set("what", true) })),
      attack ? field(t("web.dnd5e.attack_with"), select("dd-ready-attack", weapons.map((/** @type {Open} */ w) => [w, w]), r.attack, { onchange: set("attack", true) })) : null,
      attack ? field(t("web.dnd5e.attack_target"), select("dd-ready-target", targets.map((x) => [x.id, x.name]), r.target, { onchange: set("target", true) })) : null,
      attack ? null : field(t("web.dnd5e.ready_action"), textInput("dd-ready-action", r.action, { required: true, "aria-required": "true", maxlength: 2000, oninput: set("action", true) }))),
    el("button", { type: "button", id: "dd-ready-go", disabled: Boolean(reason), title: reason, onclick: async () => {
      const answer = await sendFor(ctx, f, command);
      if (answer) { r.trigger = ""; r.action = ""; ctx.rerender(); }
    } }, t("web.dnd5e.ready_go")));
}

function loadFireOdds(/** @type {Ctx} */ ctx, /** @type {Fighter} */ f) {
  return oddsFor(ctx, { kind: "trigger", creature: f.id });
}

function readiedPanel(/** @type {Ctx} */ ctx) {
  const ready = fighters(ctx).filter((f) => f.readied);
  if (!ready.length) return null;
  const items = ready.map((f) => {
    const r = f.readied;
    const what = r.attack ? t("web.dnd5e.readied_attack", { attack: r.attack, target: r.target ? nameOf(ctx, r.target) : t("web.dnd5e.someone") }) : r.action;
    const parts = [el("p", { id: `dd-ready-${f.id}-text` }, t("web.dnd5e.readied_line", { name: f.name, what, trigger: r.trigger }))];
    if (ctx.isGm) {
      const noReaction = Number(f.budgets?.reaction || 0) <= 0;
      const pending = Boolean(ctx.state.pending_reaction);
      const reason = noReaction ? t("web.dnd5e.no_reaction_left_now", { name: f.name }) : pending ? t("web.dnd5e.wait_reaction") : r.odds && !r.odds.in_reach ? t("web.dnd5e.out_of_reach", { target: nameOf(ctx, r.target), distance: metres(r.odds.distance_m), reach: metres(r.odds.reach_m) }) : null;
      if (r.odds) {
        const odds = loadFireOdds(ctx, f);
        parts.push(el("p", { id: `dd-ready-${f.id}-odds` }, attackOddsLine(r.odds)));
        if (odds) parts.push(oddsChart(odds, { caption: t("web.dnd5e.damage_caption"), labeler: (/** @type {number} */ v) => (v === 0 ? t("web.dnd5e.no_damage") : t("web.dnd5e.damage_value", { n: v })) }));
      }
      if (reason) parts.push(el("p", { class: "muted small-print", id: `dd-ready-${f.id}-why` }, reason));
      parts.push(el("button", { type: "button", class: "primary", id: `dd-ready-${f.id}-fire`, disabled: Boolean(reason), title: reason, onclick: () => sendFor(ctx, f, { kind: "trigger", creature: f.id }).then(r.attack ? focusResult : () => {}) }, t("web.dnd5e.ready_fire")));
    }
    return el("li", { class: "dd-readied", id: `dd-ready-${f.id}` }, ...parts);
  });
  return el("section", { class: "card", id: "dd-readied-box", "aria-labelledby": "dd-readied-h" },
    el("h2", { id: "dd-readied-h" }, t("web.dnd5e.readied_heading")), el("ul", { class: "dd-readied-list" }, items));
}

function turnPanel(/** @type {Ctx} */ ctx) {
  const fight = ctx.state.combat;
  const now = fight && !fight.over && fight.current ? byId(ctx).get(fight.current) : null;
  if (!now || !mine(ctx, now)) return null;
  const pending = ctx.state.pending_reaction;
  const dying = now.hp === 0 && !now.dead && !now.stable && !now.monster;
  const ending = ctx.state.legendary?.window === now.id;
  if (ending) return null; // the GM's legendary panel holds the end of the turn
  const endWhy = pending ? t("web.dnd5e.wait_reaction") : null;
  return el("section", { class: "card", id: "dd-turn", "aria-labelledby": "dd-turn-heading" },
    el("h2", { id: "dd-turn-heading" }, t("web.dnd5e.turn_of", { name: now.name })),
    dying ? el("button", { type: "button", class: "primary", id: "dd-death-save", onclick: () => sendFor(ctx, now, { kind: "death_save", creature: now.id }) }, t("web.dnd5e.death_save")) : null,
    dying || pending ? null : attackBox(ctx, now),
    dying || pending ? null : contestBox(ctx, now),
    dying || pending ? null : actionBox(ctx, now),
    dying || pending ? null : readyBox(ctx, now),
    el("button", { type: "button", id: "dd-end-turn", disabled: Boolean(endWhy), title: endWhy, onclick: () => { ui.selected = null; clearRoute(); sendFor(ctx, now, { kind: "end_turn" }); } }, t("web.dnd5e.end_turn")));
}

// -- the GM's saving throw -------------------------------------------------------------------

function saveCommand(/** @type {Ctx} */ ctx) {
  const s = ui.save;
  const dc = Number(s.dc);
  if (!s.creature || !Number.isInteger(dc) || dc < 1 || dc > 40) return null;
  /** @type {Command} */ const command = { kind: "save", creature: s.creature, ability: s.ability, dc };
  if (s.bonus.trim() !== "") {
    const bonus = Number(s.bonus);
    if (!Number.isInteger(bonus)) return null;
    command.bonus = bonus;
  }
  return withRollMode(command, s.mode);
}

function loadSaveOdds(/** @type {Ctx} */ ctx, /** @type {Command | null} */ command) {
  return command ? oddsFor(ctx, command) : null;
}

function lastSave(/** @type {Ctx} */ ctx) {
  const last = ctx.state.last_save;
  if (!last) return el("p", { id: "dd-save-result", tabindex: "-1", class: "muted small-print" }, t("web.dnd5e.no_save_yet"));
  const kept = last.d20.length ? (last.mode === "advantage" ? Math.max(...last.d20) : last.mode === "disadvantage" ? Math.min(...last.d20) : last.d20[0]) : null;
  const text = kept === null
    ? t("web.dnd5e.save_auto_fail", { name: nameOf(ctx, last.creature), ability: t("web.dnd5e.ability." + last.ability), dc: last.dc })
    : t("web.dnd5e.save_result", { name: nameOf(ctx, last.creature), ability: t("web.dnd5e.ability." + last.ability), dc: last.dc, natural: kept, total: kept + last.bonus, result: t(last.succeeded ? "web.dnd5e.save_ok" : "web.dnd5e.save_fail") });
  return el("p", { id: "dd-save-result", tabindex: "-1", "aria-live": "polite", class: "dd-save-result " + (last.succeeded ? "is-ok" : "is-fail"), dataset: { succeeded: String(last.succeeded) } }, text);
}

function saveForm(/** @type {Ctx} */ ctx) {
  const s = ui.save;
  const able = fighters(ctx).filter((f) => !f.dead);
  if (!able.length) return null;
  if (!able.some((f) => f.id === s.creature)) s.creature = able[0].id;
  const f = byId(ctx).get(s.creature);
  const command = saveCommand(ctx);
  const odds = loadSaveOdds(ctx, command);
  const p = odds?.outcomes?.find((/** @type {Open} */ o) => o.value === "save");
  const set = (/** @type {string} */ key) => (/** @type {FieldEvent} */ e) => { /** @type {Record<string, unknown>} */ (s)[key] = e.target.value; ctx.rerender(); };
  const modifier = f ? Math.floor(((f.abilities?.[s.ability] ?? 10) - 10) / 2) : 0;
  const reason = command ? null : t("web.dnd5e.save_dc_missing");
  const roll = async (/** @type {FieldEvent} */ e) => {
    e.preventDefault();
    if (!command) { showAlert(t("web.dnd5e.save_dc_missing")); document.getElementById("dd-save-dc")?.focus(); return; }
    const answer = await sendFor(ctx, f, command);
    if (answer) document.getElementById("dd-save-result")?.focus();
  };
  return el("form", { class: "form", id: "dd-save-form", onsubmit: roll },
    el("h3", {}, t("web.dnd5e.save_heading")),
    el("div", { class: "row" },
      field(t("web.dnd5e.save_creature"), select("dd-save-creature", able.map((x) => [x.id, x.name]), s.creature, { onchange: set("creature") })),
      field(t("web.dnd5e.save_ability"), select("dd-save-ability", ABILITIES.map((a) => [a, t("web.dnd5e.ability." + a)]), s.ability, { onchange: set("ability") })),
      field(t("web.dnd5e.save_dc"), numberInput("dd-save-dc", s.dc, { min: 1, max: 40, required: true, "aria-required": "true", oninput: set("dc") })),
      field(t("web.dnd5e.save_bonus"), numberInput("dd-save-bonus", s.bonus, { min: -20, max: 30, placeholder: (modifier >= 0 ? "+" : "") + modifier, oninput: set("bonus") })),
      rollModeField("dd-save-mode", s.mode, set("mode"))),
    p ? el("p", { id: "dd-save-odds" }, t("web.dnd5e.save_odds", { p: percent(p.probability) }), " ", el("span", { class: "exact" }, `(${p.exact})`)) : null,
    el("button", { type: "submit", class: "primary", id: "dd-save-roll", disabled: Boolean(reason), title: reason }, t("web.dnd5e.save_roll")),
    lastSave(ctx));
}

// -- adding creatures, starting the fight ------------------------------------------------------

function monsterForm(/** @type {Ctx} */ ctx) {
  const m = ui.monster;
  const set = (/** @type {string} */ key) => (/** @type {FieldEvent} */ e) => { /** @type {Record<string, unknown>} */ (m)[key] = e.target.type === "checkbox" ? e.target.checked : e.target.value; if (key === "kind") ctx.rerender(); };
  const custom = m.kind === "custom";
  const beasts = (ctx.state.bestiary || []).map((/** @type {Open} */ b) => [b.id, t("web.dnd5e.beast", { name: b.name, ac: b.ac, hp: b.hp })]);
  const submit = async (/** @type {FieldEvent} */ e) => {
    e.preventDefault();
    const taken = new Set(fighters(ctx).map((f) => f.id));
    const at = m.at.trim().toLowerCase() || null;
    let command;
    if (custom) {
      const name = m.name.trim();
      if (!name) { showAlert(t("web.dnd5e.name_missing")); document.getElementById("dd-sheet-name")?.focus(); return; }
      const id = slug(name, taken, "creature");
      command = { kind: "add_monster", id, position: at, secret: m.secret, sheet: {
        id, name, ac: Number(m.ac) || 10, hp: Number(m.hp) || 1, size: m.size, speeds: { walk: Number(m.speed) || 0 },
        attacks: m.attacks.split("\n").map((x) => x.trim()).filter(Boolean),
      } };
    } else {
      const beast = (ctx.state.bestiary || []).find((/** @type {Open} */ b) => b.id === m.kind);
      command = { kind: "add_monster", id: slug(beast?.name || m.kind, taken, "creature"), monster: m.kind, position: at, secret: m.secret };
    }
    const answer = await ctx.send(command, m.secret ? { hidden: true } : {});
    if (answer) { m.at = ""; m.name = ""; ctx.rerender(); }
  };
  return el("form", { class: "form", id: "dd-monster-form", onsubmit: submit },
    el("h3", {}, t("web.dnd5e.add_monster")),
    field(t("web.dnd5e.monster"), select("dd-monster", [...beasts, ["custom", t("web.dnd5e.custom")]], m.kind, { onchange: set("kind") })),
    custom ? [
      field(t("web.dnd5e.f.name"), textInput("dd-sheet-name", m.name, { required: true, maxlength: 80, "aria-required": "true", oninput: set("name") })),
      el("div", { class: "row" },
        field(t("web.dnd5e.f.ac"), numberInput("dd-sheet-ac", m.ac, { min: 0, max: 40, oninput: set("ac") })),
        field(t("web.dnd5e.f.hp"), numberInput("dd-sheet-hp", m.hp, { min: 1, max: 2000, oninput: set("hp") })),
        field(t("web.dnd5e.f.speed"), numberInput("dd-sheet-speed", m.speed, { min: 0, max: 300, oninput: set("speed") })),
        field(t("web.dnd5e.f.size"), select("dd-sheet-size", ["tiny", "small", "medium", "large", "huge", "gargantuan"].map((s) => [s, t("web.dnd5e.size." + s)]), m.size, { onchange: set("size") }))),
      field(t("web.dnd5e.f.attacks"), el("textarea", { id: "dd-sheet-attacks", rows: 3, maxlength: 2000, placeholder: "Scimitar: +4, 5 (1d6+2) slashing", oninput: set("attacks") }, m.attacks)),
    ] : null,
    field(t("web.dnd5e.f.at"), textInput("dd-monster-at", m.at, { maxlength: 8, placeholder: "e5", oninput: set("at") })),
    checkField("dd-monster-secret", t("web.dnd5e.f.secret"), m.secret, { onchange: set("secret") }),
    el("button", { type: "submit", class: "primary", id: "dd-monster-add" }, t("web.dnd5e.add")));
}

function heroForm(/** @type {Ctx} */ ctx) {
  const h = ui.hero;
  const set = (/** @type {string} */ key) => (/** @type {FieldEvent} */ e) => { /** @type {Record<string, unknown>} */ (h)[key] = e.target.value; };
  const submit = async (/** @type {FieldEvent} */ e) => {
    e.preventDefault();
    const name = h.name.trim();
    if (!name) { showAlert(t("web.dnd5e.name_missing")); document.getElementById("dd-hero-name")?.focus(); return; }
    const id = slug(name, new Set(fighters(ctx).map((f) => f.id)), "creature");
    /** @type {Command} */ const command = {
      kind: "add_character", id, name, ac: Number(h.ac) || 10, hp: Number(h.hp) || 1, speeds: { walk: Number(h.speed) || 0 },
      abilities: { str: Number(h.str) || 10, dex: Number(h.dex) || 10 },
      attacks: h.attacks.split("\n").map((x) => x.trim()).filter(Boolean),
      bonus_actions: h.bonus.split(",").map((x) => x.trim()).filter(Boolean),
      position: h.at.trim().toLowerCase() || null,
    };
    const spellcasting = heroSpellcasting();
    if (spellcasting) { command.spellcasting = spellcasting; command.abilities[spellcasting.ability] = Number(ui.heroCast.score) || 10; }
    const answer = await ctx.send(command);
    if (answer) { ui.hero = { ...HERO_FORM }; ui.heroCast = { ...HERO_CAST_FORM }; ctx.rerender(); }
  };
  return el("form", { class: "form", id: "dd-hero-form", onsubmit: submit },
    el("h3", {}, t("web.dnd5e.add_character")),
    field(t("web.dnd5e.f.name"), textInput("dd-hero-name", h.name, { required: true, maxlength: 80, "aria-required": "true", oninput: set("name") })),
    el("div", { class: "row" },
      field(t("web.dnd5e.f.ac"), numberInput("dd-hero-ac", h.ac, { min: 0, max: 40, oninput: set("ac") })),
      field(t("web.dnd5e.f.hp"), numberInput("dd-hero-hp", h.hp, { min: 1, max: 2000, oninput: set("hp") })),
      field(t("web.dnd5e.f.speed"), numberInput("dd-hero-speed", h.speed, { min: 0, max: 300, oninput: set("speed") })),
      field(t("web.dnd5e.f.str"), numberInput("dd-hero-str", h.str, { min: 1, max: 30, oninput: set("str") })),
      field(t("web.dnd5e.f.dex"), numberInput("dd-hero-dex", h.dex, { min: 1, max: 30, oninput: set("dex") }))),
    field(t("web.dnd5e.f.attacks"), el("textarea", { id: "dd-hero-attacks", rows: 2, maxlength: 2000, oninput: set("attacks") }, h.attacks)),
    field(t("web.dnd5e.f.bonus"), textInput("dd-hero-bonus", h.bonus, { maxlength: 200, oninput: set("bonus") })),
    heroSpellFields(ctx),
    field(t("web.dnd5e.f.at"), textInput("dd-hero-at", h.at, { maxlength: 8, placeholder: "b2", oninput: set("at") })),
    el("button", { type: "submit", class: "primary", id: "dd-hero-add" }, t("web.dnd5e.add")));
}

function startForm(/** @type {Ctx} */ ctx) {
  if (ctx.state.combat) return null;
  const placed = fighters(ctx).filter((f) => f.position && !f.dead && !f.secret);
  const inputs = placed.map((f) => field(t("web.dnd5e.initiative_of", { name: f.name }), numberInput(`dd-ini-${f.id}`, ui.initiative[f.id] ?? "", { min: 1, max: 20, placeholder: t("web.dnd5e.initiative_auto"), oninput: (/** @type {FieldEvent} */ e) => (ui.initiative[f.id] = e.target.value) })));
  const start = () => {
    /** @type {Record<string, number>} */
    const rolls = {};
    for (const f of placed) { const n = Number(ui.initiative[f.id]); if (Number.isInteger(n) && n >= 1 && n <= 20) rolls[f.id] = n; }
    ctx.send({ kind: "start_combat", rolls });
  };
  return el("div", { class: "dd-start", id: "dd-start-box" },
    el("h3", {}, t("web.dnd5e.start_heading")),
    el("p", { class: "muted small-print" }, t("web.dnd5e.initiative_hint")),
    el("div", { class: "row" }, inputs),
    el("button", { type: "button", class: "primary", id: "dd-start", disabled: !placed.length, title: placed.length ? null : t("web.dnd5e.nobody_placed"), onclick: start }, t("web.dnd5e.start")));
}

/** The GM's end of the fight, and outside one the short or long rest of the living creatures
 * ticked (all to begin with): the open ones openly, the secret ones in a hidden rest of their
 * own, so no player learns of them. */
function fightEndForm(/** @type {Ctx} */ ctx) {
  const fight = ctx.state.combat;
  if (fight) {
    return el("div", { class: "dd-fight-end", id: "dd-fight-end" },
      el("button", { type: "button", id: "dd-end-combat", onclick: () => ctx.send({ kind: "end_combat" }) }, t("web.dnd5e.end_combat")));
  }
  const living = fighters(ctx).filter((f) => !f.dead);
  if (!living.length) return null;
  const chosen = living.filter((f) => ui.resting[f.id] !== false).map((f) => f.id);
  const why = chosen.length ? null : t("web.dnd5e.rest_nobody");
  const rest = async (/** @type {string} */ length) => {
    const fs = byId(ctx);
    const open = chosen.filter((id) => !/** @type {Fighter} */ (fs.get(id)).secret);
    const secret = chosen.filter((id) => /** @type {Fighter} */ (fs.get(id)).secret);
    if (!secret.length && chosen.length === living.length) return ctx.send({ kind: "rest", length });
    if (open.length && !(await ctx.send({ kind: "rest", length, creatures: open }))) return null;
    return secret.length ? ctx.send({ kind: "rest", length, creatures: secret }, { hidden: true }) : null;
  };
  return el("div", { class: "dd-rest", id: "dd-rest" },
    el("h3", {}, t("web.dnd5e.rest_heading")),
    el("p", { class: "muted small-print" }, t("web.dnd5e.rest_hint")),
    el("div", { class: "row" }, living.map((f) => checkField(`dd-rest-who-${f.id}`, f.name, ui.resting[f.id] !== false, {
      onchange: (/** @type {FieldEvent} */ e) => { ui.resting[f.id] = e.target.checked; ctx.rerender(); },
    }))),
    el("div", { class: "row" }, ["short", "long"].map((length) => el("button", {
      type: "button", id: `dd-rest-${length}`, disabled: Boolean(why), title: why, onclick: () => rest(length),
    }, t("web.dnd5e.rest." + length)))));
}

function toolsPanel(/** @type {Ctx} */ ctx) {
  const parts = [];
  if (ctx.isGm) parts.push(fightEndForm(ctx), startForm(ctx), saveForm(ctx), checkForm(ctx, { fighters: fighters(ctx), current: current(ctx), nameOf: (id) => nameOf(ctx, id), sendFor: (f, command) => sendFor(ctx, /** @type {Fighter | undefined} */ (f), /** @type {Command} */ (command)) }), monsterForm(ctx));
  else if (ctx.me.role === "player") parts.push(heroForm(ctx));
  if (!parts.length) return null;
  return el("section", { class: "card dd-tools", id: "dd-tools" }, el("h2", {}, t("web.dnd5e.tools")), ...parts);
}

// -- spells: casting, slots, concentration, templates ----------------------------------------

function casting(/** @type {Ctx} */ ctx, /** @type {string} */ id) { return (ctx.state.casting || {})[id] || null; }
function spellName(/** @type {Ctx} */ ctx, /** @type {string} */ caster, /** @type {string} */ id) { return casting(ctx, caster)?.spells?.find((/** @type {Open} */ x) => x.id === id)?.name ?? id; }
function ordinal(/** @type {number} */ n) { return t("web.dnd5e.spell.level", { n }); }

/** Slots left and the spell concentrated on, on a caster's card. */
function spellcastingLine(/** @type {Ctx} */ ctx, /** @type {Fighter} */ f) {
  const c = casting(ctx, f.id);
  if (!c) return null;
  const slots = c.slots.map((/** @type {number} */ n, /** @type {number} */ i) => t("web.dnd5e.spell.slot_item", { level: ordinal(i + 1), left: c.slots_left[i], of: n }));
  const held = c.concentration;
  return el("div", { class: "dd-spellcasting small-print" },
    el("p", { id: `dd-f-${f.id}-slots` }, t("web.dnd5e.spell.dc_line", { dc: c.save_dc, bonus: (c.attack_bonus >= 0 ? "+" : "") + c.attack_bonus }), " · ",
      slots.length ? t("web.dnd5e.spell.slots", { list: slots.join(", ") }) : t("web.dnd5e.spell.no_slots")),
    held ? el("p", { class: "dd-concentration", id: `dd-f-${f.id}-concentration`, dataset: { spell: held.spell } },
      t("web.dnd5e.spell.concentrating", { spell: held.name, p: percent(held.keep_dc10.p) }), " ", el("span", { class: "exact" }, `(${held.keep_dc10.exact})`),
      mine(ctx, f) ? [" ", el("button", { type: "button", id: `dd-f-${f.id}-drop`, onclick: () => sendFor(ctx, f, { kind: "drop_concentration", creature: f.id }) }, t("web.dnd5e.drop_concentration", { spell: held.name }))] : null) : null);
}

/** Beside the GM's damage box of a concentrating creature: P(keeping the spell) after it. */
function concentrationRisk(/** @type {Ctx} */ ctx, /** @type {Fighter} */ f) {
  const held = casting(ctx, f.id)?.concentration;
  const n = Number(ui.damage[f.id]);
  if (!held || !Number.isInteger(n) || n <= 0) return null;
  /** @type {Command} */ const command = { kind: "damage", target: f.id, amount: n, type: "bludgeoning" };
  const keep = oddsFor(ctx, command)?.outcomes?.find((/** @type {Open} */ o) => o.value === "keep");
  return keep ? el("span", { class: "small-print", id: `dd-f-${f.id}-risk` }, t("web.dnd5e.spell.risk", { spell: held.name, p: percent(keep.probability) }), " ", el("span", { class: "exact" }, `(${keep.exact})`)) : null;
}

function concentrationToken(/** @type {Ctx} */ ctx, /** @type {MapToken} */ token) {
  const held = casting(ctx, token.id)?.concentration;
  if (!held) return token;
  return { ...token, classes: [...(token.classes || []), "is-concentrating"], label: (token.label || "") + " · " + t("web.dnd5e.spell.concentrating_on", { spell: held.name }) };
}

function templateMarks(/** @type {Ctx} */ ctx) {
  /** @type {Record<string, string>} */
  const out = {};
  // an aura (Spirit Guardians) around its caster, drawn under the spell templates
  for (const aura of ctx.state.auras || []) for (const sq of aura.squares) out[sq] = "is-aura";
  for (const tpl of ctx.state.templates || []) for (const sq of tpl.squares) out[sq] = "is-template";
  if (ui.cast.origin) out[ui.cast.origin] = "is-template-origin";
  return out;
}

function templatesList(/** @type {Ctx} */ ctx) {
  const list = ctx.state.templates || [];
  if (!list.length) return null;
  return el("ul", { class: "dd-templates small-print", id: "dd-templates" }, list.map((/** @type {Open} */ tpl) => el("li", { id: `dd-template-${tpl.caster}`, dataset: { inside: tpl.inside.join(" ") } },
    t("web.dnd5e.spell.template_line", { spell: tpl.name, caster: nameOf(ctx, tpl.caster), shape: t("web.dnd5e.shape." + tpl.shape), size: metres(tpl.size_m), origin: tpl.origin }), " ",
    tpl.inside.length ? t("web.dnd5e.spell.inside", { names: tpl.inside.map((/** @type {string} */ id) => nameOf(ctx, id)).join(", ") }) : t("web.dnd5e.spell.nobody_inside"))));
}

/** While placing a template, a square click sets its origin, then the square it points toward. */
function placeTemplate(/** @type {Ctx} */ ctx, /** @type {string} */ name) {
  const c = ui.cast;
  if (!c.placing) return false;
  if (c.placing === "origin") { c.origin = name; c.placing = needsToward(ctx) ? "toward" : ""; } else { c.toward = name; c.placing = ""; }
  ctx.rerender();
  return true;
}

function chosenSpell(/** @type {Ctx} */ ctx) { return casting(ctx, ui.cast.caster)?.spells?.find((/** @type {Open} */ x) => x.id === ui.cast.spell) || null; }
function needsToward(/** @type {Ctx} */ ctx) { return ["cone", "line", "cube"].includes(chosenSpell(ctx)?.area?.shape); }

/** The creatures who may cast now: the current one (any spell of 1 action or bonus action) and,
 * with a reaction left, any other (its reaction spells). */
function casters(/** @type {Ctx} */ ctx) {
  const fight = ctx.state.combat;
  if (!fight || fight.over || ctx.state.pending_reaction) return [];
  return fighters(ctx).filter((f) => mine(ctx, f) && casting(ctx, f.id) && !f.dead && f.position && !f.down).map((f) => {
    const now = fight.current === f.id;
    const spells = casting(ctx, f.id).spells.filter((/** @type {Open} */ x) => x.castable && (now || x.casting === "reaction"));
    return { f, spells };
  }).filter((x) => x.spells.length);
}

function castCommand(/** @type {Ctx} */ ctx, /** @type {Spell} */ spell) {
  const c = ui.cast;
  /** @type {Command} */ const command = { kind: "cast", creature: c.caster, spell: spell.id };
  if (spell.level > 0) command.slot = Number(c.slot) || spell.level;
  if (spell.area) {
    if (c.origin) command.area = c.toward ? { origin: c.origin, toward: c.toward } : { origin: c.origin };
  } else if (spell.range !== "self") command.targets = volleyTargets(spell, c);
  if (spell.aura_types) {
    // an aura (Spirit Guardians): the damage type chosen, and the spared creatures only where
    // the choice differs from the default (the caster's side, seen or not)
    command.damage_type = spell.aura_types.includes(c.dtype) ? c.dtype : spell.aura_types[0];
    if (c.spared) command.spared = c.spared;
  }
  return command;
}

/** The creatures an aura spares by default: the caster's side (the caster itself never counts). */
function sparedByDefault(/** @type {Ctx} */ ctx, /** @type {Fighter} */ caster) {
  return fighters(ctx).filter((x) => x.id !== caster.id && x.side === caster.side && !x.dead).map((x) => x.id);
}

/** An aura's choices in the cast box: its damage type and the creatures it spares. */
function auraFields(/** @type {Ctx} */ ctx, /** @type {Spell} */ spell, /** @type {Fighter} */ f) {
  const c = ui.cast;
  const others = fighters(ctx).filter((x) => x.id !== f.id && !x.dead);
  const types = spell.aura_types || [];
  const spared = c.spared ?? sparedByDefault(ctx, f);
  const toggle = (/** @type {string} */ id) => (/** @type {FieldEvent} */ e) => {
    const now = e.target.checked ? [...spared, id] : spared.filter((x) => x !== id);
    const usual = sparedByDefault(ctx, f);
    c.spared = now.length === usual.length && now.every((x) => usual.includes(x)) ? null : now;
    ctx.rerender();
  };
  return el("div", { class: "dd-aura-choice" },
    field(t("web.dnd5e.spell.aura_type"), select("dd-cast-dtype", types.map((x) => /** @type {[string, string]} */ ([x, t("web.dnd5e.dtype." + x)])), c.dtype || types[0], { onchange: (/** @type {FieldEvent} */ e) => { c.dtype = e.target.value; ctx.rerender(); } })),
    el("fieldset", { class: "dd-cast-targets", id: "dd-cast-spared" }, el("legend", {}, t("web.dnd5e.spell.spared")),
      el("p", { class: "muted small-print" }, t("web.dnd5e.spell.spared_how")),
      others.map((x) => checkField(`dd-cast-spare-${x.id}`, x.name, spared.includes(x.id), { onchange: toggle(x.id) }))));
}

// A volley spell (Magic Missile's darts, Scorching Ray's rays, Eldritch Blast's beams): how
// many missiles the chosen slot makes, and the targets named once per missile when split.
function missilesOf(/** @type {Spell} */ spell, /** @type {CastForm} */ c) {
  return spell.missiles ? spell.missiles[String(spell.level ? Number(c.slot) || spell.level : 0)] || 0 : 0;
}

function volleyTargets(/** @type {Spell} */ spell, /** @type {CastForm} */ c) {
  if (!missilesOf(spell, c) || c.targets.length < 2) return c.targets;
  return c.targets.flatMap((id) => Array(Number(c.darts[id]) || 1).fill(id));
}

function loadCastOdds(/** @type {Ctx} */ ctx, /** @type {Command} */ command) {
  const answer = ctx.oddsNow(command);
  ui.castOdds = answer && !answer.error ? answer : null;
  ui.castError = answer?.error ?? null;
}

function castOddsLines(/** @type {Ctx} */ ctx, /** @type {Spell} */ spell) {
  const odds = ui.castOdds;
  if (!odds) return [];
  const parts = new Map((odds.parts || []).map((/** @type {Open} */ p) => [p.key, p.odds]));
  const ids = (odds.parts || []).map((/** @type {Open} */ p) => p.key).filter((/** @type {string} */ k) => !k.includes("."));
  return ids.map((/** @type {string} */ id) => {
    const damage = parts.get(id);
    const hit = parts.get(id + ".hit")?.outcomes?.[0];
    const save = parts.get(id + ".save")?.outcomes?.[0];
    const mean = (damage?.mean ?? 0).toLocaleString(document.documentElement.lang, { maximumFractionDigits: 1 });
    const name = nameOf(ctx, id);
    const text = hit ? t("web.dnd5e.spell.odds_attack", { name, hit: percent(hit.probability), mean })
      : save ? t("web.dnd5e.spell.odds_save", { name, save: percent(save.probability), mean })
        : spell.mechanical && damage?.mean ? t("web.dnd5e.spell.odds_sure", { name, mean }) : t("web.dnd5e.spell.odds_none", { name });
    const exact = hit?.exact || save?.exact;
    return el("li", { id: `dd-cast-odds-${id}` }, text, exact ? [" ", el("span", { class: "exact" }, `(${exact})`)] : null);
  });
}

function castPanel(/** @type {Ctx} */ ctx) {
  const able = casters(ctx);
  if (!able.length) return null;
  const c = ui.cast;
  if (!able.some((x) => x.f.id === c.caster)) c.caster = able[0].f.id;
  const mineNow = /** @type {{ f: Fighter, spells: Spell[] }} */ (able.find((x) => x.f.id === c.caster));
  const f = mineNow.f;
  const info = casting(ctx, f.id);
  if (!mineNow.spells.some((/** @type {Open} */ x) => x.id === c.spell)) { c.spell = mineNow.spells[0].id; c.slot = ""; c.origin = ""; c.toward = ""; }
  const spell = chosenSpell(ctx);
  const innate = (info.innate || {})[spell.id];  // cast innately: at its own level, n a day
  const slots = innate ? (innate.per_day && innate.left <= 0 ? [] : [spell.level])
    : spell.level ? info.slots.map((/** @type {number} */ n, /** @type {number} */ i) => i + 1).filter((/** @type {number} */ lvl) => lvl >= spell.level && info.slots_left[lvl - 1] > 0) : [];
  if (spell.level && !slots.includes(Number(c.slot))) c.slot = slots[0] ? String(slots[0]) : "";
  const others = fighters(ctx).filter((x) => x.position && !x.dead);
  c.targets = c.targets.filter((id) => others.some((x) => x.id === id));
  const command = castCommand(ctx, spell);
  const missiles = missilesOf(spell, c);
  const split = missiles && c.targets.length > 1 ? command.targets.length : 0;
  const b = f.budgets || {};
  const budget = /** @type {Record<string, string>} */ ({ action: "action", bonus_action: "bonus", reaction: "reaction" })[spell.casting];
  const reason = innate && !slots.length ? t("web.dnd5e.spell.why_uses")
    : spell.level && !slots.length ? t("web.dnd5e.spell.why_slot")
    : Number(b[budget] || 0) <= 0 ? t("web.dnd5e.spell.why_" + spell.casting)
      : spell.area && !c.origin ? t("web.dnd5e.spell.why_origin")
        : !spell.area && spell.range !== "self" && spell.mechanical && !c.targets.length ? t("web.dnd5e.spell.why_targets")
          : split && split !== missiles ? t("web.dnd5e.spell.why_missiles", { count: missiles, given: split }) : null;
  if (!reason) loadCastOdds(ctx, command); else { ui.castOdds = null; ui.castError = null; }
  const set = (/** @type {string} */ key) => (/** @type {FieldEvent} */ e) => { /** @type {Record<string, unknown>} */ (c)[key] = e.target.value; if (key === "spell" || key === "caster") { c.slot = ""; c.origin = ""; c.toward = ""; c.placing = ""; c.dtype = ""; c.spared = null; } ctx.rerender(); };
  const toggle = (/** @type {string} */ id) => (/** @type {FieldEvent} */ e) => { c.targets = e.target.checked ? [...c.targets, id] : c.targets.filter((x) => x !== id); ctx.rerender(); };
  const go = async () => {
    const answer = await sendFor(ctx, f, command);
    if (answer) { c.targets = []; c.darts = {}; c.origin = ""; c.toward = ""; c.placing = ""; c.dtype = ""; c.spared = null; ctx.rerender(); document.getElementById("dd-cast-result")?.focus(); }
  };
  const casterName = (/** @type {Open} */ x) => x.f.name;
  return el("section", { class: "card", id: "dd-cast-box", "aria-labelledby": "dd-cast-heading" },
    el("h2", { id: "dd-cast-heading" }, t("web.dnd5e.spell.heading")),
    el("div", { class: "row" },
      able.length > 1 ? field(t("web.dnd5e.spell.caster"), select("dd-cast-caster", able.map((x) => [x.f.id, casterName(x)]), c.caster, { onchange: set("caster") })) : null,
      field(t("web.dnd5e.spell.spell"), select("dd-cast-spell", mineNow.spells.map((/** @type {Open} */ x) => [x.id, t("web.dnd5e.spell.option", { name: x.name, level: x.level ? ordinal(x.level) : t("web.dnd5e.spell.cantrip"), casting: t("web.dnd5e.casting." + x.casting) })]), c.spell, { onchange: set("spell") })),
      innate ? el("p", { class: "muted small-print", id: "dd-cast-innate" }, innate.per_day ? t("web.dnd5e.spell.innate_left", { count: innate.left, per_day: innate.per_day }) : t("web.dnd5e.spell.at_will"))
        : spell.level ? field(t("web.dnd5e.spell.slot"), select("dd-cast-slot", slots.map((/** @type {number} */ lvl) => [String(lvl), t("web.dnd5e.spell.slot_option", { level: ordinal(lvl), left: info.slots_left[lvl - 1] })]), c.slot, { onchange: set("slot") })) : null),
    el("p", { class: "muted small-print", id: "dd-cast-about" }, t("web.dnd5e.spell.about", {
      range: spell.range === "distance" ? metres(spell.range_m) + " m" : t("web.dnd5e.spell.range." + spell.range),
      casting: t("web.dnd5e.casting." + spell.casting),
    }), spell.concentration ? " " + t("web.dnd5e.spell.needs_concentration") : "", spell.mechanical ? "" : " " + t("web.dnd5e.spell.text_only")),
    spell.aura_types ? auraFields(ctx, spell, f) : null,
    spell.area ? el("div", { class: "row" },
      field(t("web.dnd5e.spell.origin"), textInput("dd-cast-origin", c.origin, { maxlength: 8, placeholder: spell.range === "self" ? f.position : "e5", oninput: (/** @type {FieldEvent} */ e) => { c.origin = e.target.value.trim().toLowerCase(); ctx.rerender(); } })),
      needsToward(ctx) ? field(t("web.dnd5e.spell.toward"), textInput("dd-cast-toward", c.toward, { maxlength: 8, oninput: (/** @type {FieldEvent} */ e) => { c.toward = e.target.value.trim().toLowerCase(); ctx.rerender(); } })) : null,
      el("button", { type: "button", id: "dd-cast-place", "aria-pressed": String(Boolean(c.placing)), onclick: () => { c.placing = c.placing ? "" : "origin"; if (spell.range === "self") { c.origin = /** @type {string} */ (f.position); c.placing = needsToward(ctx) ? "toward" : ""; } ctx.rerender(); } },
        c.placing === "toward" ? t("web.dnd5e.spell.placing_toward") : c.placing ? t("web.dnd5e.spell.placing") : t("web.dnd5e.spell.place")))
      : spell.range === "self" ? null : el("fieldset", { class: "dd-cast-targets", id: "dd-cast-targets" }, el("legend", {}, t("web.dnd5e.spell.targets")),
        missiles ? el("p", { class: "muted small-print", id: "dd-cast-missiles" }, t("web.dnd5e.spell.missiles", { count: missiles })) : null,
        others.map((x) => [checkField(`dd-cast-target-${x.id}`, x.name, c.targets.includes(x.id), { onchange: toggle(x.id) }),
          split && c.targets.includes(x.id) ? numberInput(`dd-cast-darts-${x.id}`, c.darts[x.id] || 1, { min: 1, max: missiles, oninput: (/** @type {FieldEvent} */ e) => { c.darts[x.id] = e.target.value; ctx.rerender(); }, "aria-label": t("web.dnd5e.spell.missiles_at", { name: x.name }) }) : null])),
    ui.castOdds ? el("ul", { class: "dd-cast-odds", id: "dd-cast-odds" }, castOddsLines(ctx, spell)) : null,
    ui.castOdds?.outcomes?.length && spell.mechanical ? oddsChart(ui.castOdds, { caption: t("web.dnd5e.spell.first_caption"), labeler: (/** @type {number} */ v) => t("web.dnd5e.damage_value", { n: v }) }) : null,
    ui.castError ? el("p", { class: "dd-refused", id: "dd-cast-error" }, ui.castError) : null,
    reason ? el("p", { class: "muted small-print", id: "dd-cast-why" }, reason) : null,
    el("button", { type: "button", class: "primary", id: "dd-cast-go", disabled: Boolean(reason || ui.castError), title: reason || ui.castError, onclick: go }, t("web.dnd5e.spell.cast", { spell: spell.name })));
}

function lastCast(/** @type {Ctx} */ ctx) {
  const last = ctx.state.last_cast;
  if (!last) return null;
  const name = spellName(ctx, last.creature, last.spell);
  /** @type {Record<string, number>} */
  const seen = {};  // a volley's second dart at the same creature: its own id
  const lineId = (/** @type {string} */ who) => { seen[who] = (seen[who] || 0) + 1; return `dd-cast-result-${who}` + (seen[who] > 1 ? `-${seen[who]}` : ""); };
  const lines = (last.results || []).map((/** @type {Open} */ r) => el("li", { id: lineId(r.target), dataset: { outcome: r.outcome } },
    t("web.dnd5e.spell.result." + (r.healed ? "healed" : r.outcome), { target: nameOf(ctx, r.target), damage: r.damage, healed: r.healed }),
    r.conditions.length ? " " + t("web.dnd5e.spell.result_conditions", { conditions: r.conditions.map((/** @type {string} */ k) => tFirst(["web.dnd5e.cond." + k], {}, k)).join(", ") }) : ""));
  return el("div", { id: "dd-cast-result", tabindex: "-1", class: "dd-last", "aria-live": "polite", dataset: { spell: last.spell } },
    el("p", {}, t("web.dnd5e.spell.result_head", { name: nameOf(ctx, last.creature), spell: name })), lines.length ? el("ul", {}, lines) : null);
}

function lastConcentration(/** @type {Ctx} */ ctx) {
  const last = ctx.state.last_concentration;
  if (!last) return null;
  const kept = last.d20.length ? (last.mode === "advantage" ? Math.max(...last.d20) : last.mode === "disadvantage" ? Math.min(...last.d20) : last.d20[0]) : null;
  const values = { name: nameOf(ctx, last.creature), spell: spellName(ctx, last.creature, last.spell), dc: last.dc, damage: last.damage, p: percent(last.keep.p), natural: kept, total: kept === null ? null : kept + last.bonus };
  return el("p", { id: "dd-conc-result", class: "dd-save-result " + (last.kept ? "is-ok" : "is-fail"), dataset: { kept: String(last.kept) } },
    t(kept === null ? "web.dnd5e.spell.conc_auto" : last.kept ? "web.dnd5e.spell.conc_kept" : "web.dnd5e.spell.conc_lost", values));
}

/** A spell's id from its SRD name as typed (``Hunter's Mark`` → ``hunters-mark``). */
function spellId(/** @type {string} */ name) {
  return name.toLowerCase().replace(/['’]/g, "").replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
}

function heroSpellcasting() {
  const c = ui.heroCast;
  if (!c.ability) return null;
  return {
    ability: c.ability, level: Number(c.level) || 1, save_dc: Number(c.dc) || 10, attack_bonus: Number(c.attack) || 0,
    slots: c.slots.split(",").map((x) => x.trim()).filter(Boolean).map(Number),
    spells: c.spells.split(",").map((x) => spellId(x.trim())).filter(Boolean),
  };
}

function heroSpellFields(/** @type {Ctx} */ ctx) {
  const c = ui.heroCast;
  const set = (/** @type {string} */ key, /** @type {boolean} */ redraw = false) => (/** @type {FieldEvent} */ e) => { /** @type {Record<string, unknown>} */ (c)[key] = e.target.value; if (redraw) ctx.rerender(); };
  /** @type {[string, string][]} */
  const abilities = [["", t("web.dnd5e.hero.no_spells")], ...["int", "wis", "cha"].map((a) => /** @type {[string, string]} */ ([a, t("web.dnd5e.ability." + a)]))];
  return el("fieldset", { class: "dd-hero-spells" }, el("legend", {}, t("web.dnd5e.hero.spellcasting")),
    field(t("web.dnd5e.hero.cast_ability"), select("dd-hero-cast-ability", abilities, c.ability, { onchange: set("ability", true) })),
    c.ability ? [
      el("div", { class: "row" },
        field(t("web.dnd5e.hero.cast_score"), numberInput("dd-hero-cast-score", c.score, { min: 1, max: 30, oninput: set("score") })),
        field(t("web.dnd5e.hero.cast_level"), numberInput("dd-hero-cast-level", c.level, { min: 1, max: 20, oninput: set("level") })),
        field(t("web.dnd5e.hero.cast_dc"), numberInput("dd-hero-cast-dc", c.dc, { min: 1, max: 40, oninput: set("dc") })),
        field(t("web.dnd5e.hero.cast_attack"), numberInput("dd-hero-cast-attack", c.attack, { min: -10, max: 30, oninput: set("attack") }))),
      field(t("web.dnd5e.hero.cast_slots"), textInput("dd-hero-cast-slots", c.slots, { maxlength: 40, placeholder: "4, 3, 2", oninput: set("slots") })),
      field(t("web.dnd5e.hero.cast_spells"), el("textarea", { id: "dd-hero-cast-spells", rows: 2, maxlength: 4000, placeholder: "Fire Bolt, Magic Missile, Fireball", oninput: set("spells") }, c.spells)),
    ] : null);
}

// -- legendary and lair actions, falling ------------------------------------------------------

function loadLegendaryOdds(/** @type {Ctx} */ ctx, /** @type {Command} */ command) {
  return oddsFor(ctx, command);
}

function legendaryAction(/** @type {Ctx} */ ctx, /** @type {Open} */ monster, /** @type {LegendaryOption} */ action, /** @type {number} */ i) {
  const f = byId(ctx).get(monster.id);
  const id = `dd-leg-${monster.id}-${i}`;
  const targets = action.odds.map((/** @type {Open} */ o) => o.target).filter((/** @type {string} */ x, /** @type {number} */ j, /** @type {string[]} */ all) => all.indexOf(x) === j);
  const key = monster.id + "|" + action.name;
  if (targets.length && !targets.includes(ui.legendaryTarget[key])) ui.legendaryTarget[key] = targets.find((/** @type {string} */ x) => byId(ctx).get(x)?.side !== f?.side) ?? targets[0];
  const target = ui.legendaryTarget[key];
  /** @type {Command} */ const command = { kind: "legendary", creature: monster.id, action: action.name };
  if (action.attack) command.target = target;
  if (action.save) command.targets = [target];
  const option = action.odds.find((/** @type {Open} */ o) => o.target === target && (!action.attack || o.attack === action.attack));
  const why = !action.affordable ? t("web.dnd5e.legendary.too_dear", { cost: action.cost, left: monster.left })
    : action.attack && option && !option.in_reach ? t("web.dnd5e.out_of_reach", { target: nameOf(ctx, target), distance: metres(option.distance_m), reach: metres(option.reach_m) }) : null;
  const odds = (action.attack || action.save) && target && !why ? loadLegendaryOdds(ctx, command) : null;
  const line = action.attack && option ? attackOddsLine(option)
    : action.save && option ? el("span", { class: "dd-save-odds" }, t("web.dnd5e.legendary.save_odds", { p: percent(option.save.p), exact: option.save.exact })) : null;
  return el("div", { class: "dd-leg-action", id },
    el("p", {}, el("strong", {}, action.name), " · ", t("web.dnd5e.legendary.cost", { n: action.cost }), line ? [" · ", line] : null),
    targets.length ? field(t("web.dnd5e.attack_target"), select(`${id}-target`, targets.map((/** @type {string} */ x) => /** @type {[string, string]} */ ([x, nameOf(ctx, x)])), target, { onchange: (/** @type {FieldEvent} */ e) => { ui.legendaryTarget[key] = e.target.value; ctx.rerender(); } })) : el("p", { class: "small-print muted" }, action.text),
    odds ? oddsChart(odds, { caption: t("web.dnd5e.damage_caption"), labeler: (/** @type {number} */ v) => (v === 0 ? t("web.dnd5e.no_damage") : t("web.dnd5e.damage_value", { n: v })) }) : null,
    why ? el("p", { class: "muted small-print" }, why) : null,
    el("button", { type: "button", class: "primary", id: `${id}-use`, disabled: Boolean(why), title: why, onclick: () => sendFor(ctx, f, command).then(focusResult) }, t("web.dnd5e.legendary.use", { action: action.name })));
}

/** The save actions of the monster whose turn it is (a breath weapon), for whoever plays it:
 * each creature in sight with its P(save) to tick as a target, the damage chart of the first
 * one ticked, and whether the action is spent until it recharges. */
function monsterActionsPanel(/** @type {Ctx} */ ctx) {
  const actions = ctx.state.monster_actions || [];
  const f = byId(ctx).get(current(ctx) || "");
  if (!actions.length || !f || !mine(ctx, f)) return null;
  return el("section", { class: "card", id: "dd-monster-actions", "aria-labelledby": "dd-monster-actions-h" },
    el("h2", { id: "dd-monster-actions-h" }, t("web.dnd5e.monster_actions")),
    ...actions.map((/** @type {Open} */ action, /** @type {number} */ i) => monsterAction(ctx, f, action, i)));
}

function monsterAction(/** @type {Ctx} */ ctx, /** @type {Fighter} */ f, /** @type {Open} */ action, /** @type {number} */ i) {
  const id = `dd-ma-${i}`;
  const key = f.id + "|" + action.name;
  const chosen = (ui.monsterTargets[key] || []).filter((/** @type {string} */ x) => action.odds.some((/** @type {Open} */ o) => o.target === x));
  const recharge = action.recharge ? t(action.spent ? "web.dnd5e.monster_action.spent" : "web.dnd5e.monster_action.recharge", { recharge: action.recharge }) : null;
  const head = el("p", { id: `${id}-name` }, el("strong", {}, action.name), recharge ? [" · ", recharge] : null);
  if (action.spent) return el("div", { class: "dd-monster-action", id }, head);
  /** @type {Command} */ const command = { kind: "monster_action", creature: f.id, action: action.name, targets: chosen };
  const odds = chosen.length ? oddsFor(ctx, command) : null;
  const toggle = (/** @type {string} */ who) => (/** @type {FieldEvent} */ e) => { ui.monsterTargets[key] = e.target.checked ? [...chosen, who] : chosen.filter((/** @type {string} */ x) => x !== who); ctx.rerender(); };
  return el("div", { class: "dd-monster-action", id }, head,
    el("fieldset", { class: "dd-cast-targets" }, el("legend", {}, t("web.dnd5e.spell.targets")),
      action.odds.map((/** @type {Open} */ o) => checkField(`${id}-target-${o.target}`, t("web.dnd5e.monster_action.save", { name: nameOf(ctx, o.target), p: percent(o.save.p) }), chosen.includes(o.target), { onchange: toggle(o.target) }))),
    odds ? oddsChart(odds, { caption: t("web.dnd5e.damage_caption"), labeler: (/** @type {number} */ v) => (v === 0 ? t("web.dnd5e.no_damage") : t("web.dnd5e.damage_value", { n: v })) }) : null,
    el("button", { type: "button", class: "primary", id: `${id}-use`, disabled: !chosen.length, onclick: async () => {
      const answer = await sendFor(ctx, f, command);
      if (answer) { ui.monsterTargets[key] = []; ctx.rerender(); }
    } }, t("web.dnd5e.monster_action.use")));
}

function legendaryPanel(/** @type {Ctx} */ ctx) {
  const legendary = ctx.state.legendary;
  if (!legendary?.window) return null;
  const ending = nameOf(ctx, legendary.window);
  if (!ctx.isGm) return el("section", { class: "card", id: "dd-legendary" }, el("p", { id: "dd-legendary-wait" }, t("web.dnd5e.legendary.wait", { name: ending })));
  const offered = new Set(legendary.offered || []);
  const monsters = (legendary.monsters || []).filter((/** @type {Open} */ m) => offered.has(m.id));
  return el("section", { class: "card dd-legendary", id: "dd-legendary", "aria-labelledby": "dd-legendary-h" },
    el("h2", { id: "dd-legendary-h" }, t("web.dnd5e.legendary.heading", { name: ending })),
    ...monsters.map((/** @type {Open} */ m) => el("div", { class: "dd-leg-monster", id: `dd-leg-${m.id}` },
      el("h3", {}, t("web.dnd5e.legendary.left", { name: nameOf(ctx, m.id), left: m.left, total: m.per_round })),
      ...m.actions.map((/** @type {LegendaryOption} */ a, /** @type {number} */ i) => legendaryAction(ctx, m, a, i)))),
    el("button", { type: "button", id: "dd-leg-pass", onclick: () => ctx.send({ kind: "end_turn" }) }, t("web.dnd5e.legendary.pass")));
}

/** The conditions that ended by themselves at the latest turn change (time or a save). */
function endedLine(/** @type {Ctx} */ ctx) {
  const ended = ctx.state.conditions_ended || [];
  if (!ended.length) return null;
  return el("p", { id: "dd-ended", class: "small-print", "aria-live": "polite" }, ended.map((/** @type {Open} */ x) => t("web.dnd5e.ended." + x.reason, {
    name: nameOf(ctx, x.target), condition: tFirst(["web.dnd5e.cond." + x.condition], {}, x.condition),
  })).join(" "));
}

function lairPanel(/** @type {Ctx} */ ctx) {
  const legendary = ctx.state.legendary;
  if (!ctx.isGm || !legendary?.lair_due) return null;
  const who = legendary.lairs[0];
  const f = byId(ctx).get(who);
  const why = ui.lairText.trim() ? null : t("web.dnd5e.lair.text_missing");
  return el("section", { class: "card", id: "dd-lair", "aria-labelledby": "dd-lair-h" },
    el("h2", { id: "dd-lair-h" }, t("web.dnd5e.lair.heading", { name: nameOf(ctx, who) })),
    field(t("web.dnd5e.lair.text"), textInput("dd-lair-text", ui.lairText, { oninput: (/** @type {FieldEvent} */ e) => { ui.lairText = e.target.value; ctx.rerender(); } })),
    el("button", { type: "button", class: "primary", id: "dd-lair-go", disabled: Boolean(why), title: why, onclick: () => sendFor(ctx, f, { kind: "lair_action", creature: who, text: ui.lairText.trim() }).then((answer) => { if (answer) { ui.lairText = ""; ctx.rerender(); } }) }, t("web.dnd5e.lair.take")));
}

function fallRow(/** @type {Ctx} */ ctx, /** @type {Fighter} */ f) {
  const falling = (ctx.state.falling || []).includes(f.id);
  const height = ui.fall[f.id] ?? "";
  const box = numberInput(`dd-f-${f.id}-fall-height`, height, { min: 0, max: 1000, step: 0.5, oninput: (/** @type {FieldEvent} */ e) => { ui.fall[f.id] = e.target.value; }, "aria-label": t("web.dnd5e.fall.height_of", { name: f.name }) });
  return el("div", { class: "row dd-fall-row" + (falling ? " is-falling" : "") },
    falling ? el("strong", { id: `dd-f-${f.id}-falling` }, t("web.dnd5e.fall.falling", { name: f.name })) : null,
    box,
    el("button", { type: "button", id: `dd-f-${f.id}-fall`, onclick: () => {
      const metresFallen = Number(String(ui.fall[f.id] ?? "").replace(",", "."));
      if (!(metresFallen >= 0) || String(ui.fall[f.id] ?? "").trim() === "") { showAlert(t("web.dnd5e.fall.height_missing")); live(box).focus(); return; }
      sendFor(ctx, f, { kind: "fall", creature: f.id, height_m: Math.round(metresFallen * 2) / 2 }).then((answer) => { if (answer) { ui.fall[f.id] = ""; ctx.rerender(); } });
    } }, t("web.dnd5e.fall.go")));
}

// -- the module ----------------------------------------------------------------------------

/** The table's game panel. */
export function render(/** @type {HTMLElement} */ body, /** @type {Ctx} */ ctx) {
  lastCtx = ctx;
  if (ui.selected && !byId(ctx).get(ui.selected)) { ui.selected = null; clearRoute(); }
  if (ui.selected && !movable(ctx, /** @type {Fighter} */ (byId(ctx).get(ui.selected)))) { ui.selected = null; clearRoute(); }
  refreshPreview(ctx);
  body.replaceChildren(el("div", { class: "dd-table" },
    status(ctx), endedLine(ctx), reactionPanel(ctx), shieldPanel(ctx), mapPanel(ctx), monsterActionsPanel(ctx), legendaryPanel(ctx), lairPanel(ctx), readiedPanel(ctx), lastAttack(ctx), lastCast(ctx), lastConcentration(ctx), turnPanel(ctx), castPanel(ctx)));
  // The fight in the scene, the creatures' cards as the sheets, the forms as the tools.
  const tools = toolsPanel(ctx);
  return { sheets: el("div", { class: "dd-table" }, fightersPanel(ctx)), tools: tools && el("div", { class: "dd-table" }, tools) };
}

/** The d20 an attack kept (the higher of two with advantage, the lower with disadvantage). */
function keptD20(/** @type {DndEvent} */ event) {
  if (event.d20.length < 2) return event.d20[0];
  return event.mode === "advantage" ? Math.max(...event.d20) : Math.min(...event.d20);
}

/** What an attack did: the table's own account of its latest attack, else the same rule read
 * from the dice, the weapon and the target's armour class ({outcome, natural, total, damage}). */
function attackResult(/** @type {DndEvent} */ event, /** @type {Ctx} */ ctx) {
  const natural = keptD20(event);
  const last = ctx.state?.last_attack;
  if (last && last.attacker === event.attacker && last.target === event.target && last.attack === event.attack && last.natural === natural) return last;
  const weapon = byId(ctx).get(event.attacker)?.attacks?.find((/** @type {Open} */ w) => w.name === event.attack);
  const target = byId(ctx).get(event.target);
  if (!weapon || !target) return null;
  const total = natural + weapon.bonus + (event.modifier || 0);
  const outcome = natural === 20 ? "critical" : natural === 1 || total < target.ac ? "miss" : "hit";
  const sum = (/** @type {number[]} */ values) => values.reduce((/** @type {number} */ a, /** @type {number} */ b) => a + b, 0);
  const damage = outcome === "miss" ? 0 : sum(event.dice.map((/** @type {number[]} */ part, /** @type {number} */ i) => Math.max(sum(part) + (weapon.damage[i]?.modifier ?? 0), 0)));
  return { outcome, natural, total, damage };
}

/** An attack's log line, outcome first: hit, critical or miss, with the damage. */
function attackText(/** @type {DndEvent} */ event, /** @type {Ctx} */ ctx) {
  const params = { attacker: nameOf(ctx, event.attacker), target: nameOf(ctx, event.target), attack: event.attack, mode: t("web.dnd5e.mode." + event.mode) };
  if (event.held) return t("web.dnd5e.ev.attack_held", { ...params, natural: keptD20(event) });
  const result = attackResult(event, ctx);
  if (!result) return t(event.opportunity ? "web.dnd5e.ev.opportunity" : event.readied ? "web.dnd5e.ev.readied_attack" : "web.dnd5e.ev.attacked", params);
  const mode = event.mode === "normal" ? "" : t("web.dnd5e.ev.attack_mode", { mode: params.mode });
  const text = t("web.dnd5e.ev.attack_" + result.outcome, { ...params, natural: result.natural, total: result.total, damage: result.damage, mode });
  return t(event.opportunity ? "web.dnd5e.ev.as_opportunity" : event.readied ? "web.dnd5e.ev.as_readied" : "web.dnd5e.ev.as_action", { text });
}

/** What a death save does: a 20 brings the creature back, a 1 counts twice; otherwise the
 * d20 with what Bless or Bane add (`boost`) saves from 10. */
function deathSave(/** @type {number} */ d20, /** @type {number} */ boost) {
  return d20 === 20 ? "revived" : d20 === 1 ? "fumbled" : d20 + boost >= 10 ? "saved" : "failed";
}

/** A log line for one event. */
export function describe(/** @type {DndEvent} */ event, /** @type {Ctx} */ ctx) {
  const n = (/** @type {string} */ id) => nameOf(ctx, id);
  switch (event.kind) {
    case "fighter_added": return t("web.dnd5e.ev.fighter_added", { name: event.fighter.name, square: event.fighter.position ? squareName(event.fighter.position.x, event.fighter.position.y) : "–" });
    case "combat_started": return t("web.dnd5e.ev.combat_started", { rolls: event.rolls.map((/** @type {[string, number]} */ [id, d]) => `${n(id)} ${d}`).join(", ") });
    case "terrain_set": return t("web.dnd5e.ev.terrain_set", { squares: event.squares.join(", "), terrain: event.terrain ? t("web.map.terrain." + event.terrain) : t("web.map.terrain.plain") });
    case "ground_set": return t("web.dnd5e.ev.ground_set", { squares: event.squares.join(", "), height: metres(event.height_m) });
    case "moved": {
      // Outcome first: the jump checks the move rolled (a failed one may stop it where it began).
      const rolled = jumpRolls(event);
      if (event.path.length < 2 && !event.stood_up) return rolled || null;
      const base = t("web.dnd5e.ev.moved", { name: n(event.creature), path: event.path.join(" → "), spent: metres(event.movement.spent) })
        + (event.drag ? " " + t("web.dnd5e.ev.dragged", { name: n(event.drag.creature), path: event.drag.path.join(" → ") }) : "")
        + (Number(event.altitude_m || 0) ? " " + t("web.dnd5e.ev.aloft", { height: metres(event.altitude_m) }) : "");
      const checks = (event.checks || []).map((/** @type {Open} */ c) => " " + t("web.dnd5e.check." + c.reason, { step: c.step + 1, dc: c.dc, name: n(event.creature) })).join("");
      return (rolled ? rolled + " " : "") + (event.stood_up ? t("web.dnd5e.ev.stood_up", { name: n(event.creature) }) + " " : "") + base + (event.pending ? " " + t("web.dnd5e.ev.provoked", { names: event.pending.reactors.map(n).join(", ") }) : "") + checks;
    }
    case "attacked": return attackText(event, ctx);
    case "aura_struck": return t("web.dnd5e.ev.aura_struck", { name: n(event.creature), caster: n(event.caster), natural: keptD20(event) ?? "–", rolled: event.dice.reduce((/** @type {number} */ a, /** @type {number} */ b) => a + b, 0) });
    case "declined": return t("web.dnd5e.ev.declined", { name: n(event.creature) });
    case "action_taken": return describeCheck(event, n) ?? t("web.dnd5e.ev.action_taken", { name: n(event.creature), action: t("web.dnd5e.action." + event.action) });
    case "check_rolled": return describeCheck(event, n);
    case "readied": return t("web.dnd5e.ev.readied", { name: n(event.creature), trigger: event.readied.trigger });
    case "ready_fired": return t("web.dnd5e.ev.ready_fired", { name: n(event.creature) });
    case "bonus_taken": return t("web.dnd5e.ev.bonus_taken", { name: n(event.creature), feature: tFirst(["web.dnd5e.action." + event.feature], {}, event.feature) });
    case "turn_ended": return t("web.dnd5e.ev.turn_ended");
    case "damaged": return t("web.dnd5e.ev.damaged", { name: n(event.target), amount: event.amount, type: tFirst(["web.dnd5e.dtype." + String(event.type).toLowerCase()], {}, event.type) });
    case "healed": return t(event.temporary ? "web.dnd5e.ev.temp" : "web.dnd5e.ev.healed", { name: n(event.target), amount: event.amount });
    case "condition_set": return t(event.remove ? "web.dnd5e.ev.condition_off" : "web.dnd5e.ev.condition_on", { name: n(event.target), condition: tFirst(["web.dnd5e.cond." + event.condition], {}, event.condition) });
    case "save_rolled": return t("web.dnd5e.ev.save_rolled", { name: n(event.creature), ability: t("web.dnd5e.ability." + event.ability), dc: event.dc, result: t(event.succeeded ? "web.dnd5e.save_ok" : "web.dnd5e.save_fail") });
    case "death_saved": return t("web.dnd5e.ev.death_" + deathSave(event.d20, event.boost || 0), { name: n(event.creature), d20: event.d20 });
    case "spell_cast": return t(event.slot ? "web.dnd5e.ev.spell_cast" : "web.dnd5e.ev.cantrip_cast", { name: n(event.creature), spell: spellName(ctx, event.creature, event.spell), slot: event.slot, casting: t("web.dnd5e.casting." + event.casting) })
      + (event.held?.length ? " " + t("web.dnd5e.ev.spell_held", { names: event.held.map(n).join(", ") }) : "");
    case "spell_landed": return t("web.dnd5e.ev.spell_landed", { name: n(event.creature), spell: spellName(ctx, event.creature, event.spell), target: n(event.targets[0].target) });
    case "concentration_saved": return t(event.kept ? "web.dnd5e.ev.concentration_kept" : "web.dnd5e.ev.concentration_lost", { name: n(event.creature), spell: spellName(ctx, event.creature, event.spell), dc: event.dc, damage: event.damage });
    case "concentration_ended": return t("web.dnd5e.ev.concentration_ended." + event.reason, { name: n(event.creature), spell: spellName(ctx, event.creature, event.spell) });
    case "legendary_offered": return t("web.dnd5e.ev.legendary_offered", { name: n(event.creature) });
    case "legendary_used": return t("web.dnd5e.ev.legendary_used", { name: n(event.creature), action: event.action, cost: event.cost });
    case "recharged": return t(event.ready ? "web.dnd5e.ev.recharged" : "web.dnd5e.ev.not_recharged", { name: n(event.creature), roll: event.roll, action: event.action });
    case "save_action": return t("web.dnd5e.ev.save_action", { name: n(event.creature), action: event.action, targets: event.saves.map((/** @type {Open} */ x) => n(x.target)).join(", ") });
    case "legendary_resisted": return t("web.dnd5e.ev.legendary_resisted", { name: n(event.creature) });
    case "lair_set": return t(event.in_lair ? "web.dnd5e.ev.lair_on" : "web.dnd5e.ev.lair_off", { name: n(event.creature) });
    case "lair_action_taken": return t("web.dnd5e.ev.lair_action", { name: n(event.creature), text: event.text });
    case "condition_saved": return t("web.dnd5e.ev.condition_saved", { name: n(event.creature), condition: tFirst(["web.dnd5e.cond." + event.condition], {}, event.condition), result: t(event.succeeded ? "web.dnd5e.save_ok" : "web.dnd5e.save_fail") });
    case "contested": return describeCheck(event, n);
    case "combat_ended": return t("web.dnd5e.ev.combat_ended");
    case "rested": return t("web.dnd5e.ev.rested_" + event.length, { names: event.creatures.map(n).join(", ") });
    case "hit_dice_spent": return t("web.dnd5e.ev.hit_dice_spent", { name: n(event.creature), count: event.rolls.length, rolls: event.rolls.join(", "), healed: event.healed });
    case "fell": return t("web.dnd5e.ev.fell", { name: n(event.creature), height: metres(event.height_m), damage: event.dice.reduce((/** @type {number} */ a, /** @type {number} */ b) => a + b, 0) });
    default: return null;
  }
}

/** The dice of one event: d20s (the one not kept faded) and damage dice. */
export function diceOf(/** @type {DndEvent} */ event) {
  if (event.kind === "attacked") {
    const keep = keptD20(event);
    let kept = false;
    const d20s = event.d20.map((/** @type {number} */ v) => { const k = !kept && v === keep; if (k) kept = true; return { die: "d20", sides: 20, face: v, kept: k }; });
    const weapon = lastCtx ? byId(lastCtx).get(event.attacker)?.attacks?.find((/** @type {Open} */ w) => w.name === event.attack) : null;
    const damage = event.dice.flatMap((/** @type {number[]} */ part, /** @type {number} */ i) => {
      const sides = weapon?.damage?.[i]?.dice?.sides ?? weapon?.damage?.[i]?.sides ?? null;
      return part.map((/** @type {number} */ v) => (sides ? { die: "d" + sides, sides, face: v } : { die: "d", face: v }));
    });
    return [...d20s, ...damage];
  }
  if (event.kind === "combat_started") return event.rolls.map((/** @type {[string, number]} */ [, v]) => ({ die: "d20", sides: 20, face: v }));
  if (event.kind === "save_rolled") return event.d20.map((/** @type {number} */ v) => ({ die: "d20", sides: 20, face: v }));
  if (event.kind === "death_saved") return [{ die: "d20", sides: 20, face: event.d20 }];
  if (event.kind === "concentration_saved") return event.d20.map((/** @type {number} */ v) => ({ die: "d20", sides: 20, face: v }));
  if (event.kind === "spell_cast" || event.kind === "spell_landed") return event.targets.flatMap((/** @type {Open} */ x) => [...x.d20.map((/** @type {number} */ v) => ({ die: "d20", sides: 20, face: v })), ...x.dice.map((/** @type {number} */ v) => ({ die: "d", face: v }))]);
  if (event.kind === "condition_saved") return event.d20.map((/** @type {number} */ v) => ({ die: "d20", sides: 20, face: v }));
  const checked = checkDice(event);
  if (checked) return checked;
  if (event.kind === "fell") return event.dice.map((/** @type {number} */ v) => ({ die: "d6", sides: 6, face: v }));
  if (event.kind === "save_action") return [...event.saves.flatMap((/** @type {Open} */ x) => x.d20.map((/** @type {number} */ v) => ({ die: "d20", sides: 20, face: v }))), ...event.dice.flat().map((/** @type {number} */ v) => ({ die: "d", face: v }))];
  return [];
}

/** Commands whose log line names what was asked in the game's words (by display name), after
 * the outcome the events tell; the others keep their `web.cmd.dnd5e.*` line. */
const SUMMARIES = new Set(["cast", "shield", "drop_concentration", "fall", "rest", "legendary", "legendary_resistance", "lair", "lair_action", "ground", "end_combat"]);

/** The log's line of what a record asked: who, and what by name ("Greta: Ada casts Bless."). */
export function summary(/** @type {LogRecord} */ record, /** @type {Ctx} */ ctx) {
  const c = record.command;
  if (!c || !SUMMARIES.has(c.kind) || !ctx.state) return null;
  const n = (/** @type {string} */ id) => nameOf(ctx, id);
  const params = {
    who: ctx.actorName(record.actor),
    name: c.creature ? n(c.creature) : "",
    spell: c.kind === "cast" ? spellName(ctx, c.creature, c.spell) : "",
    action: c.action ?? "",
    names: (c.creatures || []).map(n).join(", "),
    height: c.height_m == null ? "" : metres(c.height_m),
    squares: (c.squares || []).join(", "),
  };
  const key = c.kind === "rest" ? `rest_${c.length}${c.creatures?.length ? "" : "_all"}`
    : c.kind === "lair" ? (c.in_lair === false ? "lair_off" : "lair_on")
    : c.kind === "fall" ? (c.height_m == null ? "fall_aloft" : "fall")
    : c.kind === "shield" ? (c.cast === false ? "shield_no" : "shield")
    : c.kind;
  return t("web.dnd5e.cmd." + key, params);
}

// -- what waits for the viewer (the decisions contract, docs/web-table.md) ---------------------

/** A held hit waiting for its target's Shield, else each opportunity attack waiting for a
 * reactor, that the viewer decides for (the creature's player, or the GM). */
export function decisions(/** @type {Ctx} */ ctx) {
  const held = ctx.state.held_hit ?? ctx.state.held_spell;
  const shield = held && byId(ctx).get(held.target);
  if (shield && mine(ctx, shield)) {
    return [{ id: "dd-shield", text: shieldText(ctx, held, shield), target: "dd-shield" }];
  }
  const pending = ctx.state.pending_reaction;
  if (!pending) return [];
  return pending.reactors.filter((/** @type {string} */ id) => byId(ctx).has(id) && addressedTo(ctx, id)).map((/** @type {string} */ id) => ({
    id: `dd-react-${id}`,
    text: t("web.dnd5e.reaction_text", { reactor: nameOf(ctx, id), mover: nameOf(ctx, pending.mover) }),
    target: `dd-react-${id}`,
  }));
}

/** Whose turn it is in the fight (as the viewer's view names it). */
export function turn(/** @type {Ctx} */ ctx) {
  const fight = ctx.state.combat;
  return fight && !fight.over && fight.current ? pieceTurn(ctx, fight.current, nameOf(ctx, fight.current), "dd-turn") : null;
}
