// @ts-check
// Kreiswanderer: sheets (create, edit; markings, weapons, Sonderfertigkeiten, Haltungen as rows), the check builder with
// exact odds (single, combined, comparative, accumulated), the fight: 2d10 assignment, tracker
// with Ap and begun techniques, the attack with its target broken down, magic, rest.
import { percent, slug } from "../../helpers.js";
import { details, el, showAlert, t, tFirst } from "../../core.js";
import { renderDice } from "../../dice.js";
import { pieceTurn } from "../../notices.js";
import { requiredMark, rowList } from "../../forms.js";
import { oddsChart as chartOf } from "../../odds.js";
import { on } from "../../morph.js";
import { commandForm } from "../../schemaform.js";

/** @typedef {import("./types.js").View} KreiswandererView */
/** @typedef {import("./types.js").Being} Being */
/** @typedef {import("./types.js").Combatant} Combatant */
/** @typedef {import("./types.js").Sheet} Sheet */
/** @typedef {import("./types.js").FieldEvent} FieldEvent */
/** One outcome of an odds answer. @typedef {{ value: any, probability: number }} Outcome */
/** @typedef {import("../../types.js").TableContext<KreiswandererView>} TableContext */
/** @typedef {import("../../types.js").TableRecord} TableRecord */

/** The odds as a chart (odds.js), as this page calls it.
 * @type {(answer: any, options: { caption?: string, labeler?: (value: any) => string }) => HTMLElement} */
const oddsChart = /** @type {any} */ (chartOf);

const TYPES = ["PH", "BR", "EN", "TR"];

// What the person is typing or choosing; kept across re-renders.
/**
 * @type {{ check: Record<string, any>, attack: Record<string, any>, act: Record<string, any>,
 *   join: string, hurt: Record<string, any>, catalogue: string | null, combat: Map<string, boolean>,
 *   dodge: Record<string, any>, sheets: Record<string, any>, rest: Record<string, any>, focus: any }}
 */
const draft = {
  check: { mode: "single", being: "", attribute: "", skill: "", skills: "", tools: 0, modifier: 0, target: "", sf: "", opponent: "", oppAttr: "", oppSkill: "", accKind: "rolls", accCount: 3 },
  attack: { weapon: "", target: "", cost: 1, modifier: 0 },
  act: { name: "", cost: 2, magical: false },
  join: "",
  hurt: {},
  catalogue: null,
  combat: new Map(),  // the GM's ticks for the next fight, by being (unticked: the default)
  dodge: {},
  sheets: {},
  rest: {},
  focus: null,
};

const beingsOf = (/** @type {TableContext} */ ctx) => ctx.state.beings;
// the being of an id the view names (undefined for one the viewer does not see: the callers
// that may meet one, like `nameOf`, ask with `?.`)
const beingOf = (/** @type {TableContext} */ ctx, /** @type {string | null | undefined} */ id) => /** @type {Being} */ (ctx.state.beings.find((b) => b.id === id));
const nameOf = (/** @type {TableContext} */ ctx, /** @type {string | null | undefined} */ id) => (id == null ? t("web.kw.someone") : beingOf(ctx, id)?.name ?? t("web.kw.someone"));
const mayAct = (/** @type {TableContext} */ ctx, /** @type {string | null | undefined} */ id) => ctx.isGm || (ctx.me.pieces || []).includes(id);
const mine = (/** @type {TableContext} */ ctx) => beingsOf(ctx).filter((b) => mayAct(ctx, b.id));
const attrName = (/** @type {string} */ a) => tFirst(["web.kw.attr." + a], {}, a);
const fieldLabel = (/** @type {string} */ f) => {
  const [head, ...rest] = f.split(".");
  const base = tFirst(["web.kw.field." + head], {}, head);
  if (!rest.length) return base;
  const key = rest.join(".");
  return `${base} ${head === "attributes" ? attrName(key) : key}`;
};

/**
 * @param {string} id
 * @param {any} label
 * @param {any} control
 * @param {any} [hint]
 */
function field(id, label, control, hint) {
  return el("div", { class: "field" }, el("label", { for: id }, label, control.required ? [" ", requiredMark()] : null), control, hint ? el("span", { class: "muted small-print" }, hint) : null);
}

/**
 * @param {string} id
 * @param {any} value
 * @param {any[][]} options
 * @param {(value: string) => void} onchange
 * @param {Record<string, unknown>} [attrs]
 */
function select(id, value, options, onchange, attrs = {}) {
  return el("select", { id, onchange: (/** @type {FieldEvent} */ e) => onchange(e.target.value), ...attrs },
    options.map(([v, label]) => el("option", { value: v, selected: String(v) === String(value) }, label)));
}

/**
 * @param {string} id
 * @param {any} value
 * @param {(value: string) => void} oninput
 * @param {Record<string, unknown>} [attrs]
 */
function input(id, value, oninput, attrs = {}) {
  return el("input", { id, value: value ?? "", autocomplete: "off", oninput: (/** @type {FieldEvent} */ e) => oninput(e.target.value), ...attrs });
}

/**
 * @param {string} id
 * @param {any} value
 * @param {(value: string) => void} oninput
 * @param {Record<string, unknown>} [attrs]
 */
function num(id, value, oninput, attrs = {}) {
  return input(id, value, oninput, { type: "number", inputmode: "numeric", ...attrs });
}

/**
 * @param {string} id
 * @param {any} label
 * @param {() => void} onclick
 * @param {any} options
 */
function button(id, label, onclick, { reason = null, primary = false } = {}) {
  return el("button", { type: "button", id, class: primary ? "primary" : null, disabled: !!reason, title: reason || null, "aria-description": reason || null, onclick }, label);
}

/**
 * @param {TableContext} ctx
 * @param {any} command
 * @param {any} [focus]
 */
function send(ctx, command, focus = null) {
  return ctx.send(command).then((ok) => {
    if (ok && focus) { draft.focus = focus; ctx.rerender(); }
    return ok;
  });
}

// -- the fight ---------------------------------------------------------------------------------

/** The fight, for the parts of the page drawn only while there is one (null otherwise).
 * @param {TableContext} ctx
 * @returns {import("./types.js").Fight} */
function fightOf(ctx) {
  return /** @type {import("./types.js").Fight} */ (ctx.state.fight);
}

/** A being in the fight (one the view names in it; undefined for another).
 * @param {TableContext} ctx
 * @param {string | null | undefined} id
 * @returns {Combatant} */
function combatant(ctx, id) {
  return /** @type {Combatant} */ (ctx.state.fight?.combatants.find((c) => c.id === id));
}

/** @param {any} c */
function apLeft(c) {
  return c?.ap == null ? 0 : Number(c.ap);
}

/** @param {TableContext} ctx */
function startSection(ctx) {
  if (!ctx.isGm) return el("p", { class: "muted" }, t("web.kw.no_fight"));
  // Every open being present (not defeated) is ticked; the GM unticks who stays out and
  // ticks a secret one to bring it in (which makes the start hidden).
  const all = beingsOf(ctx).filter((b) => !b.defeated);
  const ticks = draft.combat;
  const ticked = (/** @type {Being} */ b) => ticks.get(b.id) ?? !b.secret;
  const chosen = all.filter(ticked);
  return el("div", { class: "form" },
    el("fieldset", { class: "options" }, el("legend", {}, t("web.kw.combatants")),
      all.map((b) => el("div", { class: "field check" },
        el("input", { type: "checkbox", id: "kw-join-" + b.id, checked: ticked(b), onchange: (/** @type {FieldEvent} */ e) => { ticks.set(b.id, e.target.checked); ctx.rerender(); } }),
        el("label", { for: "kw-join-" + b.id }, b.name)))),
    button("kw-start-combat", t("web.kw.start_combat"), () => send(ctx, { kind: "start_combat", combatants: chosen.map((b) => b.id) }).then((ok) => { if (ok) draft.combat = new Map(); }),
      { reason: chosen.length ? null : t("web.kw.choose_combatants"), primary: true }));
}

/**
 * @param {TableContext} ctx
 * @param {Combatant} c
 */
function assignRow(ctx, c) {
  const being = beingOf(ctx, c.id);
  const agility = being.attributes[ctx.state.options.agility] ?? 0;
  if (c.dodge != null) {
    return el("li", {}, t("web.kw.assigned", { name: being.name, dodge: c.dodge, initiative: c.initiative }));
  }
  const [a, b] = c.dice;
  const choices = mayAct(ctx, c.id)
    ? [0, 1].map((i) => button(`kw-assign-${c.id}-${i}`, t("web.kw.assign_choice", { die: c.dice[i], dodge: c.dice[i] + agility, initiative: c.dice[1 - i] + agility }),
      () => send(ctx, { kind: "assign_dice", being: c.id, dodge: i })))
    : [el("span", { class: "muted" }, t("web.kw.assign_waits"))];
  return el("li", {}, el("p", {}, t("web.kw.rolled_pair", { name: being.name, a, b, agility })), el("div", { class: "row" }, choices));
}

/**
 * @param {TableContext} ctx
 * @param {any} p
 * @param {any} ready
 * @param {Combatant} c
 */
function techniqueLine(ctx, p, ready, c) {
  const target = p.detail?.target;
  const text = p.action === "act"
    ? t(ready ? "web.kw.ready_act" : "web.kw.pending_act", { name: p.detail?.name ?? "", paid: Number(p.paid), cost: Number(p.cost) })
    : t(ready ? "web.kw.ready" : "web.kw.pending", { weapon: p.detail?.weapon ?? "", target: nameOf(ctx, target), paid: Number(p.paid), cost: Number(p.cost) });
  const parts = [el("span", {}, text)];
  if (ready && mayAct(ctx, c.id)) {
    const turn = fightOf(ctx).current === c.id;
    parts.push(button(`kw-carry-${c.id}-${p.id}`, t("web.kw.carry_out"), () => send(ctx, { kind: "carry_out", being: c.id, action: p.id }, "kw-last-attack"), { reason: turn ? null : t("web.kw.not_your_turn"), primary: true }));
  }
  return el("li", { class: "row" }, parts);
}

/**
 * @param {TableContext} ctx
 * @param {Combatant} c
 */
function trackerRow(ctx, c) {
  const being = beingOf(ctx, c.id);
  const fight = fightOf(ctx);
  const current = fight.current === c.id;
  const cells = [
    el("th", { scope: "row" }, being.name, current ? el("span", { class: "badge" }, " ", t("web.kw.acting")) : null,
      c.disoriented ? el("span", { class: "badge undone-badge" }, " ", t("web.kw.disoriented")) : null,
      c.burning ? el("span", { class: "badge kw-burning" }, " ", t("web.kw.burning")) : null,
      being.defeated ? el("span", { class: "badge undone-badge" }, " ", t("web.kw.defeated")) : null),
    el("td", { class: "num" }, c.initiative),
    el("td", { class: "num" }, c.defense ? c.defense.dodge : "–"),
    el("td", { class: "num", id: `kw-ap-${c.id}` }, c.ap == null ? "–" : String(Number(c.ap))),
    el("td", { class: "num", id: `kw-tp-${c.id}` }, `${being.tp.current} / ${being.tp.maximum}`),
    el("td", { class: "num", id: `kw-mp-${c.id}` }, `${being.mp.current} / ${being.mp.maximum}`),
  ];
  const leave = [];
  if (mayAct(ctx, c.id)) leave.push(button(`kw-flee-${c.id}`, t("web.kw.flee"), () => send(ctx, { kind: "leave_fight", being: c.id })));
  if (ctx.isGm) leave.push(button(`kw-remove-${c.id}`, t("web.kw.remove"), () => send(ctx, { kind: "leave_fight", being: c.id, how: "remove" })));
  cells[0].append(" ", ...leave);
  const techniques = [...c.pending.map((p) => techniqueLine(ctx, p, false, c)), ...c.ready.map((p) => techniqueLine(ctx, p, true, c))];
  const rows = [el("tr", { id: `kw-row-${c.id}`, class: current ? "is-current" : null }, cells)];
  if (techniques.length) rows.push(el("tr", {}, el("td", { colspan: 6 }, el("ul", { class: "kw-techniques", id: `kw-techniques-${c.id}` }, techniques))));
  return rows;
}

/** @param {TableContext} ctx */
function tracker(ctx) {
  const fight = fightOf(ctx);
  const head = ["web.kw.col.name", "web.kw.col.initiative", "web.kw.col.dodge", "web.kw.col.ap", "web.kw.col.tp", "web.kw.col.mp"];
  const byOrder = fight.order.map((/** @type {string | null | undefined} */ id) => combatant(ctx, id)).filter(Boolean);
  return el("table", { class: "kw-tracker", id: "kw-tracker" },
    el("thead", {}, el("tr", {}, head.map((k) => el("th", { scope: "col" }, t(k))))),
    el("tbody", {}, byOrder.map((c) => trackerRow(ctx, c))));
}

/** The attack's chance to hit and its damage chart, once its odds are known.
 * @param {any} odds
 */
function attackOdds(odds) {
  if (!odds) return null;
  if (odds.error) return el("p", { class: "muted" }, odds.error);
  const miss = odds.outcomes.find((/** @type {Outcome} */ o) => o.value === "miss")?.probability ?? 0;
  const shown = { ...odds, outcomes: odds.outcomes.filter((/** @type {Outcome} */ o) => o.probability >= 0.0005) };
  return [el("p", { id: "kw-attack-hit" }, t("web.kw.hit_chance", { p: percent(1 - miss) })),
    details("kw-damage-details", t("web.kw.attack_odds_caption"), oddsChart(shown, { labeler: (v) => (v === "miss" ? t("web.kw.miss") : t("web.kw.damage_n", { n: v })), caption: t("web.kw.attack_odds_caption") }))];
}

/**
 * @param {TableContext} ctx
 * @param {Combatant} c
 */
function attackForm(ctx, c) {
  const being = beingOf(ctx, c.id);
  const d = draft.attack;
  const foes = fightOf(ctx).combatants.filter((x) => x.id !== c.id && !beingOf(ctx, x.id)?.defeated);
  if (!being.weapons.some((w) => w.name === d.weapon)) d.weapon = being.weapons[0]?.name ?? "";
  if (!foes.some((f) => f.id === d.target)) d.target = (foes.find((f) => beingOf(ctx, f.id).side !== being.side) || foes[0])?.id ?? "";
  const weapon = being.weapons.find((w) => w.name === d.weapon);
  const foe = combatant(ctx, d.target);
  const foeBeing = beingOf(ctx, d.target);
  const parts = [
    el("div", { class: "grid-2" },
      field("kw-attack-weapon", t("web.kw.weapon"), select("kw-attack-weapon", d.weapon, being.weapons.map((w) => [w.name, w.name]), (v) => { d.weapon = v; ctx.rerender(); })),
      field("kw-attack-target", t("web.kw.target_being"), select("kw-attack-target", d.target, foes.map((f) => [f.id, beingOf(ctx, f.id).name]), (v) => { d.target = v; ctx.rerender(); })),
      field("kw-attack-cost", t("web.kw.cost"), num("kw-attack-cost", d.cost, (v) => { d.cost = v; ctx.rerender(); }, { min: 1, max: 9 }), t("web.kw.cost_hint")),
      ctx.isGm ? field("kw-attack-modifier", t("web.kw.gm_modifier"), num("kw-attack-modifier", d.modifier, (v) => { d.modifier = v; ctx.rerender(); }, { min: -10, max: 10 })) : null),
  ];
  if (weapon && foe?.defense) {
    const def = foe.defense;
    const total = def.dodge + def.defensive + def.thresholds - weapon.durchdringend;
    const resistance = foeBeing.sheet.resistances[weapon.damage_type] ?? 0;
    parts.push(el("p", { id: "kw-attack-breakdown" }, t("web.kw.breakdown", { dodge: def.dodge, defensive: def.defensive, thresholds: def.thresholds, durchdringend: weapon.durchdringend, total })));
    parts.push(el("p", { id: "kw-attack-damage" }, t("web.kw.damage_rule", { bonus: weapon.damage_bonus, type: weapon.damage_type, resistance })));
    // Secondary effects of the weapon's markings against this foe, as the view computed them.
    const hit = (c.hits || []).find((h) => h.weapon === weapon.name && h.target === d.target);
    const secondary = [];
    if (hit?.protection) secondary.push(t("web.kw.protection", { value: hit.protection }));
    for (const x of hit?.extra || []) secondary.push(t("web.kw.extra_damage", { value: x.value, type: x.damage_type, damage: x.damage }));
    if (hit?.ignites) secondary.push(t("web.kw.sets_burning"));
    if (secondary.length) parts.push(el("p", { id: "kw-attack-secondary" }, t("web.kw.secondary", { effects: secondary.join("; ") })));
  }
  const cost = Number(d.cost) || 1;
  /** @type {Record<string, any>} */
  const command = { kind: "attack", being: c.id, target: d.target, weapon: d.weapon };
  if (cost !== 1) command.cost = cost;
  if (ctx.isGm && Number(d.modifier)) command.modifier = Number(d.modifier);
  const odds = weapon && foe ? ctx.oddsNow(command) : null;
  const oddsBox = el("div", { id: "kw-attack-odds", class: "odds", "aria-live": "polite" }, attackOdds(odds));
  const left = apLeft(c);
  const label = cost > left ? t("web.kw.begin_technique", { cost }) : t("web.kw.attack");
  return el("form", { class: "form", id: "kw-attack-form", onsubmit: (/** @type {FieldEvent} */ e) => { e.preventDefault(); send(ctx, command, cost > left ? "kw-techniques-" + c.id : "kw-last-attack"); } },
    el("h3", {}, t("web.kw.attack_heading", { name: being.name })), ...parts, oddsBox,
    el("button", { type: "submit", class: "primary", id: "kw-attack-submit", disabled: !weapon || !foe || left <= 0, title: left <= 0 ? t("web.kw.no_ap") : null }, label));
}

/**
 * @param {TableContext} ctx
 * @param {Combatant} c
 */
function actForm(ctx, c) {
  const d = draft.act;
  const cost = Number(d.cost) || 1;
  const left = apLeft(c);
  /** @type {Record<string, any>} */
  const command = { kind: "act", being: c.id, name: d.name.trim(), cost };
  if (d.magical) command.magical = true;
  return el("form", { class: "form inline", id: "kw-act-form", onsubmit: (/** @type {FieldEvent} */ e) => { e.preventDefault(); if (!command.name) { showAlert(t("web.error.required", { field: t("web.kw.act_name") })); return; } send(ctx, command, cost > left ? "kw-techniques-" + c.id : null).then((ok) => { if (ok) { d.name = ""; ctx.rerender(); } }); } },
    el("h3", {}, t("web.kw.act_heading", { name: beingOf(ctx, c.id).name })),
    field("kw-act-name", t("web.kw.act_name"), input("kw-act-name", d.name, (v) => { d.name = v; }, { required: true, maxlength: 60 })),
    field("kw-act-cost", t("web.kw.cost"), num("kw-act-cost", d.cost, (v) => { d.cost = v; ctx.rerender(); }, { min: 1, max: 9 })),
    el("div", { class: "field check" }, el("input", { type: "checkbox", id: "kw-act-magical", checked: d.magical, onchange: (/** @type {FieldEvent} */ e) => { d.magical = e.target.checked; } }), el("label", { for: "kw-act-magical" }, t("web.kw.act_magical"))),
    el("button", { type: "submit", id: "kw-act-submit", disabled: left <= 0, title: left <= 0 ? t("web.kw.no_ap") : null }, cost > left ? t("web.kw.begin_action", { cost }) : t("web.kw.act")));
}

/** @param {TableContext} ctx */
function joinRow(ctx) {
  const fight = fightOf(ctx);
  const outside = beingsOf(ctx).filter((b) => !b.fallen && !fight.combatants.some((c) => c.id === b.id));
  if (!ctx.isGm || !outside.length) return null;
  if (!outside.some((b) => b.id === draft.join)) draft.join = outside[0].id;
  return el("div", { class: "row", id: "kw-join-row" },
    field("kw-join-being", t("web.kw.reinforcement"), select("kw-join-being", draft.join, outside.map((b) => [b.id, b.name]), (v) => { draft.join = v; })),
    button("kw-join-fight", t("web.kw.join_fight"), () => send(ctx, { kind: "join_fight", being: draft.join })));
}

/** @param {TableContext} ctx */
function reactions(ctx) {
  const fight = fightOf(ctx);
  const rows = [];
  for (const c of fight.combatants) {
    if (!mayAct(ctx, c.id)) continue;
    const being = beingOf(ctx, c.id);
    const left = apLeft(c);
    const noAp = left < 1 ? t("web.kw.no_ap") : null;
    // Akrobatik or another fitting skill: the view lists each with the bonus it gives.
    const choices = c.dodge_choices || [];
    if (!choices.some((x) => x.skill === draft.dodge[c.id])) draft.dodge[c.id] = choices[0]?.skill ?? "";
    const chosen = draft.dodge[c.id];
    /** @type {Record<string, any>} */
    const dodge = { kind: "dodge", being: c.id };
    if (chosen && chosen !== ctx.state.options.dodge_skill) dodge.skill = chosen;
    rows.push(el("div", { class: "row" }, el("strong", {}, being.name, ":"),
      choices.length > 1 ? field(`kw-dodge-skill-${c.id}`, t("web.kw.dodge_with"), select(`kw-dodge-skill-${c.id}`, chosen,
        choices.map((x) => [x.skill, t("web.kw.dodge_choice", { skill: x.skill, bonus: x.bonus })]), (v) => { draft.dodge[c.id] = v; ctx.rerender(); })) : null,
      button(`kw-dodge-${c.id}`, t("web.kw.dodge_using", { skill: chosen, bonus: choices.find((x) => x.skill === chosen)?.bonus ?? 0 }), () => send(ctx, dodge), { reason: noAp }),
      c.burning ? button(`kw-extinguish-${c.id}`, t("web.kw.extinguish"), () => send(ctx, { kind: "extinguish", being: c.id }), { reason: noAp }) : null,
      c.dodge_bonus ? el("span", { class: "muted" }, t("web.kw.dodge_bonus", { bonus: c.dodge_bonus })) : null));
  }
  return rows.length ? el("div", { class: "kw-reactions" }, el("h3", {}, t("web.kw.reactions")), rows) : null;
}

/** @param {TableContext} ctx */
function fightSection(ctx) {
  const fight = fightOf(ctx);
  const parts = [];
  if (!fight) parts.push(startSection(ctx));
  else if (!fight.started) {
    parts.push(el("p", {}, t("web.kw.assign_heading")), el("ul", { class: "people", id: "kw-assign" }, fight.combatants.map((c) => assignRow(ctx, c))));
  } else {
    const current = fight.current;
    parts.push(el("p", { class: "status-line", id: "kw-round" }, t("web.kw.round", { round: fight.round, name: nameOf(ctx, current) })));
    parts.push(tracker(ctx));
    if (fight.fallen?.length) parts.push(el("p", { id: "kw-fallen", class: "muted" }, t("web.kw.fallen_list", { names: fight.fallen.map((/** @type {string | null | undefined} */ id) => nameOf(ctx, id)).join(", ") })));
    const joining = fight.combatants.filter((c) => c.joining);
    if (joining.length) parts.push(el("ul", { class: "people", id: "kw-assign" }, joining.map((c) => assignRow(ctx, c))));
    parts.push(joinRow(ctx));
    if (fight.last_ticks.length) parts.push(el("p", { class: "muted" }, fight.last_ticks.map((x) => t("web.kw.tick", { name: nameOf(ctx, x.being), damage: x.damage })).join(" ")));
    const c = combatant(ctx, current);
    if (c && mayAct(ctx, current)) {
      parts.push(attackForm(ctx, c));
      parts.push(actForm(ctx, c));
      parts.push(el("div", { class: "row" }, button("kw-end-turn", t("web.kw.end_turn"), () => send(ctx, { kind: "end_turn" }))));
    } else if (ctx.isGm && current == null) {
      parts.push(el("div", { class: "row" }, button("kw-end-turn", t("web.kw.end_turn"), () => send(ctx, { kind: "end_turn" }))));
    } else parts.push(el("p", { class: "muted", id: "kw-waiting" }, t("web.kw.waiting", { name: nameOf(ctx, current) })));
    parts.push(reactions(ctx));
  }
  if (fight && ctx.isGm) parts.push(el("div", { class: "row" }, button("kw-end-combat", t("web.kw.end_combat"), () => send(ctx, { kind: "end_combat" }))));
  return el("section", { class: "card", id: "kw-fight", "aria-labelledby": "kw-fight-heading" }, el("h2", { id: "kw-fight-heading" }, t("web.kw.fight")), parts);
}

/** @param {TableContext} ctx */
function lastAttack(ctx) {
  const records = ctx.records.filter((r) => (r.events || []).some((e) => e.kind === "attacked")).sort((a, b) => b.seq - a.seq);
  const event = records[0]?.events?.find((e) => e.kind === "attacked");
  if (!event || !fightOf(ctx)) return null;
  return el("div", { class: "kw-result", id: "kw-last-attack", tabindex: "-1", role: "status" },
    renderDice(event.rolls.map((/** @type {number} */ v) => ({ die: "d10", sides: 10, face: v }))),
    el("p", {}, describe(event, ctx)));
}

// -- checks ------------------------------------------------------------------------------------

/** @param {TableContext} ctx */
function checkCommand(ctx) {
  const d = draft.check;
  const gm = (/** @type {Record<string, any>} */ c) => {
    if (ctx.isGm && Number(d.modifier)) c.modifier = Number(d.modifier);
    if (ctx.isGm && d.target !== "" && d.mode !== "comparative") c.target = Number(d.target);
    return c;
  };
  if (d.mode === "combined") {
    return gm({ kind: "combined_check", being: d.being, attribute: d.attribute, skills: d.skills.split(",").map((/** @type {string} */ s) => s.trim()).filter(Boolean) });
  }
  if (d.mode === "comparative") {
    return gm({ kind: "comparative", being: d.being, attribute: d.attribute, skill: d.skill, opponent: d.opponent, opponent_attribute: d.oppAttr, opponent_skill: d.oppSkill });
  }
  /** @type {Record<string, any>} */
  const c = { being: d.being, attribute: d.attribute, skill: d.skill };
  if (Number(d.tools)) c.tools = Number(d.tools);
  if (d.mode === "accumulated") {
    const taken = new Set(ctx.state.accumulations.map((a) => a.id));
    let n = taken.size + 1;
    while (taken.has("acc-" + n)) n++;
    return gm({ kind: "accumulate_start", id: "acc-" + n, ...c, [d.accKind]: Number(d.accCount) });
  }
  if (d.sf) c.sonderfertigkeit = d.sf;
  return gm({ kind: "check", ...c });
}

/** @param {any} being */
function skillChoices(being) {
  return Object.entries(being?.skills || {}).map(([id, s]) => [id, t("web.kw.skill_choice", { skill: id, depth: s.depth, value: s.value })]);
}

/** @param {any} odds */
function checkSummary(odds) {
  let pass = 0, hi = 0, lo = 0;
  for (const o of odds.outcomes) {
    if (o.value >= 0) pass += o.probability;
    if (o.value >= 10) hi += o.probability;
    if (o.value <= -10) lo += o.probability;
  }
  return el("ul", { class: "kw-odds-summary", id: "kw-check-summary" },
    el("li", {}, t("web.kw.p_pass", { p: percent(pass) })),
    el("li", {}, t("web.kw.p_crit_success", { p: percent(hi) })),
    el("li", {}, t("web.kw.p_crit_failure", { p: percent(lo) })),
    el("li", { class: "muted small-print" }, t("web.kw.truncated", { p: odds.truncated.toExponential(1) })));
}

/** What the check builder shows of its odds: a hint, the summary and the chart, or nothing yet.
 * @param {TableContext} ctx
 * @param {any} command
 */
function checkOdds(ctx, command) {
  if (command.kind === "accumulate_start") return el("p", { class: "muted" }, t("web.kw.acc_odds_hint"));
  const odds = ctx.oddsNow(command);
  if (!odds) return null;
  if (odds.error) return el("p", { class: "muted", role: "status" }, odds.error);
  if (command.kind === "comparative") {
    const p = Object.fromEntries(odds.outcomes.map((/** @type {Outcome} */ o) => [o.value, o.probability]));
    return el("p", { id: "kw-check-summary" }, t("web.kw.p_win", { active: nameOf(ctx, command.being), pa: percent(p.active ?? 0), passive: nameOf(ctx, command.opponent), pp: percent(p.passive ?? 0) }));
  }
  const shown = { ...odds, outcomes: odds.outcomes.filter((/** @type {Outcome} */ o) => o.probability >= 0.0005) };
  return [checkSummary(odds), details("kw-quality-details", t("web.kw.quality_distribution"),
    oddsChart(shown, { labeler: (v) => (v >= 0 ? t("web.kw.quality_n", { n: v }) : t("web.kw.fail_n", { n: -v })), caption: t("web.kw.check_odds_caption") }))];
}

/** @param {TableContext} ctx */
function checkBuilder(ctx) {
  const beings = mine(ctx);
  if (!beings.length) return null;
  const d = draft.check;
  const attrs = ctx.state.options.attributes;
  if (!beings.some((b) => b.id === d.being)) d.being = beings[0].id;
  const being = beingOf(ctx, d.being);
  if (!attrs.includes(d.attribute)) d.attribute = attrs.includes("geschick") ? "geschick" : attrs[0];
  const skills = skillChoices(being);
  if (!d.skill) d.skill = skills[0]?.[0] ?? "";
  const others = beingsOf(ctx).filter((b) => b.id !== d.being);
  if (!others.some((b) => b.id === d.opponent)) d.opponent = others[0]?.id ?? "";
  if (!attrs.includes(d.oppAttr)) d.oppAttr = d.attribute;
  const opp = beingOf(ctx, d.opponent);
  if (!d.oppSkill || (opp && !opp.skills[d.oppSkill])) d.oppSkill = skillChoices(opp)[0]?.[0] ?? d.skill;
  const sfs = Object.entries(being.sonderfertigkeiten).filter(([, s]) => !s.skills.length || s.skills.includes(d.skill));
  if (d.sf && !sfs.some(([id]) => id === d.sf)) d.sf = "";
  const re = () => ctx.rerender();
  const oddsBox = el("div", { id: "kw-check-odds", class: "odds", "aria-live": "polite" }, checkOdds(ctx, checkCommand(ctx)));
  const skillField = (/** @type {any} */ id, /** @type {any} */ value, /** @type {any} */ choices, /** @type {any} */ set) => field(id, t("web.kw.skill"), input(id, value, set, { list: id + "-list", required: true }),
    null);
  const lists = [el("datalist", { id: "kw-check-skill-list" }, skills.map(([v, l]) => el("option", { value: v }, l)))];
  const mode = d.mode;
  const form = el("form", {
    class: "form", id: "kw-check-form",
    onsubmit: async (/** @type {FieldEvent} */ e) => {
      e.preventDefault();
      const command = checkCommand(ctx);
      const need = command.kind === "combined_check" ? command.skills.length : command.skill;
      if (!need) { showAlert(t("web.error.required", { field: t("web.kw.skill") })); return; }
      send(ctx, command, "kw-last-check");
    },
  },
  el("div", { class: "grid-2" },
    field("kw-check-mode", t("web.kw.check_mode"), select("kw-check-mode", mode, ["single", "combined", "comparative", "accumulated"].map((m) => [m, t("web.kw.mode." + m)]), (v) => { d.mode = v; re(); })),
    field("kw-check-being", t("web.kw.being"), select("kw-check-being", d.being, beings.map((b) => [b.id, b.name]), (v) => { d.being = v; d.skill = ""; re(); })),
    field("kw-check-attribute", t("web.kw.attribute"), select("kw-check-attribute", d.attribute, attrs.map((a) => [a, `${attrName(a)} (${being.attributes[a]})`]), (v) => { d.attribute = v; re(); })),
    mode === "combined"
      ? field("kw-check-skills", t("web.kw.skills_combined"), input("kw-check-skills", d.skills, (v) => { d.skills = v; }, { required: true, onchange: re }), t("web.kw.comma_hint"))
      : skillField("kw-check-skill", d.skill, skills, (/** @type {string} */ v) => { d.skill = v; }),
    mode === "single" || mode === "accumulated" ? field("kw-check-tools", t("web.kw.tools"), num("kw-check-tools", d.tools, (v) => { d.tools = v; }, { min: -10, max: 10, onchange: re })) : null,
    mode === "single" && sfs.length ? field("kw-check-sf", t("web.kw.sonderfertigkeit"), select("kw-check-sf", d.sf, [["", t("web.kw.none")], ...sfs.map(([id, s]) => [id, t("web.kw.sf_choice", { name: id, bonus: s.bonus })])], (v) => { d.sf = v; re(); })) : null,
    ctx.isGm ? field("kw-check-modifier", t("web.kw.gm_modifier"), num("kw-check-modifier", d.modifier, (v) => { d.modifier = v; }, { min: -10, max: 10, onchange: re }), t("web.kw.gm_modifier_hint")) : null,
    ctx.isGm && mode !== "comparative" ? field("kw-check-target", t("web.kw.target"), num("kw-check-target", d.target, (v) => { d.target = v; }, { min: 0, placeholder: String(ctx.state.options.default_target), onchange: re })) : null),
  mode === "comparative" ? el("fieldset", { class: "options" }, el("legend", {}, t("web.kw.opponent")), el("div", { class: "grid-2" },
    field("kw-check-opponent", t("web.kw.being"), select("kw-check-opponent", d.opponent, others.map((b) => [b.id, b.name]), (v) => { d.opponent = v; d.oppSkill = ""; re(); })),
    field("kw-check-opp-attribute", t("web.kw.attribute"), select("kw-check-opp-attribute", d.oppAttr, attrs.map((a) => [a, attrName(a)]), (v) => { d.oppAttr = v; re(); })),
    field("kw-check-opp-skill", t("web.kw.skill"), input("kw-check-opp-skill", d.oppSkill, (v) => { d.oppSkill = v; }, { onchange: re, list: "kw-check-opp-list" })),
    el("datalist", { id: "kw-check-opp-list" }, skillChoices(opp).map(([v, l]) => el("option", { value: v }, l))))) : null,
  mode === "accumulated" ? el("div", { class: "grid-2" },
    field("kw-acc-kind", t("web.kw.acc_kind"), select("kw-acc-kind", d.accKind, [["rolls", t("web.kw.acc_rolls")], ["quality", t("web.kw.acc_quality")]], (v) => { d.accKind = v; re(); })),
    field("kw-acc-count", t("web.kw.acc_count"), num("kw-acc-count", d.accCount, (v) => { d.accCount = v; }, { min: d.accKind === "rolls" ? 1 : 0 }))) : null,
  lists, oddsBox,
  el("button", { type: "submit", class: "primary", id: "kw-check-submit" }, mode === "accumulated" ? t("web.kw.acc_start") : t("web.kw.roll")));
  const input_ = form.querySelector("#kw-check-skill");
  if (input_) on(input_, "change", re);
  return el("section", { class: "card", "aria-labelledby": "kw-check-heading" }, el("h2", { id: "kw-check-heading" }, t("web.kw.check_builder")), form, accumulations(ctx));
}

/** @param {TableContext} ctx */
function accumulations(ctx) {
  const open = ctx.state.accumulations;
  if (!open.length) return null;
  return el("div", { id: "kw-accumulations" }, el("h3", {}, t("web.kw.accumulations")), el("ul", { class: "people" }, open.map((a) => {
    const goal = a.rolls != null ? t("web.kw.acc_goal_rolls", { done: a.done_rolls, rolls: a.rolls }) : t("web.kw.acc_goal_quality", { quality: a.quality });
    const odds = !a.finished && !a.abandoned && mayAct(ctx, a.being) ? ctx.oddsNow({ kind: "accumulate_roll", id: a.id }) : null;
    const reach = odds?.outcomes?.find((/** @type {Outcome} */ o) => o.value === "reach")?.probability;
    const box = el("span", { class: "muted", id: `kw-acc-odds-${a.id}` }, reach != null ? t("web.kw.acc_reach", { p: percent(reach) }) : null);
    return el("li", { id: `kw-acc-${a.id}` }, t("web.kw.acc_line", { name: nameOf(ctx, a.being), skill: a.skill, tw: a.talent_value, total: a.total, target: a.target, goal }), " ",
      a.abandoned ? el("span", { class: "badge undone-badge" }, t("web.kw.acc_abandoned"))
        : a.finished ? el("span", { class: "badge" }, t("web.kw.acc_done", { quality: a.total - a.target })) : box,
      !a.finished && !a.abandoned && mayAct(ctx, a.being) ? button(`kw-acc-roll-${a.id}`, t("web.kw.acc_roll"), () => send(ctx, { kind: "accumulate_roll", id: a.id }, "kw-last-check")) : null,
      !a.finished && !a.abandoned && mayAct(ctx, a.being) ? button(`kw-acc-abandon-${a.id}`, t("web.kw.acc_abandon"), () => send(ctx, { kind: "accumulate_abandon", id: a.id })) : null);
  })));
}

/** @param {TableContext} ctx */
function lastCheck(ctx) {
  const kinds = new Set(["check_rolled", "comparative_rolled", "accumulation_rolled"]);
  const records = ctx.records.filter((r) => (r.events || []).some((e) => kinds.has(e.kind))).sort((a, b) => b.seq - a.seq);
  const event = records[0]?.events?.find((e) => kinds.has(e.kind));
  if (!event) return null;
  const dice = diceOf(event);
  return el("section", { class: "card kw-result", id: "kw-last-check", tabindex: "-1", role: "status", "aria-labelledby": "kw-last-heading" },
    el("h2", { id: "kw-last-heading" }, t("web.kw.last_check")), dice.length ? renderDice(dice) : null, el("p", { id: "kw-last-text" }, describe(event, ctx)));
}

// -- sheets ------------------------------------------------------------------------------------

/**
 * @param {string} text
 * @param {any} parse
 */
function parseLines(text, parse) {
  return text.split("\n").map((s) => s.trim()).filter(Boolean).map(parse);
}

/** @param {any} skills */
function skillsText(skills) {
  return Object.entries(skills || {}).map(([id, s]) => `${id} ${s.depth} ${s.value}`).join("\n");
}

// Rows of the sheet form: every entry a small object of strings (what is typed), read back
// into the sheet's data on submit. Markings, weapons, Sonderfertigkeiten and Haltungen.
const blankMarking = () => ({ name: "", value: "", detail: "" });
const blankWeapon = () => ({ name: "", skill: "", attribute: "geschick", damage_bonus: "0", fuehrungsschwelle: "0", durchdringend: "0", damage_type: "PH", wielded: true, markings: [] });
const blankSf = () => ({ name: "", bonus: "1", skills: "", markings: "" });
const blankHaltung = () => ({ name: "", modifiers: [] });
const blankModifier = () => ({ target: "skill", skill: "", value: "0" });
const list = (/** @type {string[] | null | undefined} */ xs) => (xs || []).join(", ");
const words = (/** @type {string} */ text) => text.split(",").map((s) => s.trim()).filter(Boolean);

/** @param {any} markings */
function markingRows(markings) {
  return (markings || []).map((/** @type {any} */ m) => ({ name: m.name, value: m.value == null ? "" : String(m.value), detail: m.detail ?? "" }));
}

/** @param {TableContext} ctx */
function emptySheet(ctx) {
  return {
    name: "", side: "party", hp: "20", mp: "0", magic_cost: "1", ap: "", species: "", native_language: "",
    attributes: Object.fromEntries(ctx.state.options.attributes.map((a) => [a, "2"])),
    resistances: Object.fromEntries(TYPES.map((x) => [x, "0"])),
    skills: "", markings: [], weapons: [], sonderfertigkeiten: [], begabungen: "", haltungen: [],
  };
}

/** @param {any} sheet */
function sheetDraft(sheet) {
  return {
    name: sheet.name, side: sheet.side, hp: String(sheet.hp), mp: String(sheet.mp), magic_cost: String(sheet.magic_cost),
    ap: sheet.ap == null ? "" : String(sheet.ap), species: sheet.species ?? "", native_language: sheet.native_language ?? "",
    attributes: Object.fromEntries(Object.entries(sheet.attributes).map(([k, v]) => [k, String(v)])),
    resistances: Object.fromEntries(TYPES.map((x) => [x, String(sheet.resistances[x] ?? 0)])),
    skills: skillsText(sheet.skills), markings: markingRows(sheet.markings),
    weapons: sheet.weapons.map((/** @type {any} */ w) => ({
      name: w.name, skill: w.skill, attribute: w.attribute, damage_bonus: String(w.damage_bonus), fuehrungsschwelle: String(w.fuehrungsschwelle),
      durchdringend: String(w.durchdringend), damage_type: w.damage_type, wielded: w.wielded, markings: markingRows(w.markings),
    })),
    sonderfertigkeiten: Object.entries(sheet.sonderfertigkeiten).map(([name, s]) => ({ name, bonus: String(s.bonus), skills: list(s.skills), markings: list(s.markings) })),
    begabungen: sheet.begabungen.join(", "),
    haltungen: Object.entries(sheet.haltungen).map(([name, h]) => ({
      name, modifiers: Object.entries(h.modifiers).map(([k, v]) => (k === "dodge" ? { target: "dodge", skill: "", value: String(v) } : { target: "skill", skill: k, value: String(v) })),
    })),
  };
}

/** Reads typed rows back; throws `{ field, value }` for a bad number, `{ field }` for a missing name. */
function rowReader() {
  const int = (/** @type {any} */ field, /** @type {any} */ value, { optional = false } = {}) => {
    if (optional && String(value).trim() === "") return null;
    const n = Number(value);
    if (String(value).trim() === "" || !Number.isInteger(n)) throw { field, value };
    return n;
  };
  const name = (/** @type {any} */ field, /** @type {any} */ value) => {
    if (!String(value).trim()) throw { field };
    return String(value).trim();
  };
  const markings = (/** @type {any} */ rows, /** @type {any} */ where) => rows.map((/** @type {any} */ m, /** @type {any} */ i) => {
    const label = `${where} ${t("web.kw.row_marking", { n: i + 1 })}`;
    /** @type {Record<string, any>} */
    const out = { name: name(`${label}: ${t("web.kw.marking.name")}`, m.name) };
    const value = int(`${label}: ${t("web.kw.marking.value")}`, m.value, { optional: true });
    if (value !== null) out.value = value;
    if (m.detail.trim()) out.detail = m.detail.trim();
    return out;
  });
  return { int, name, markings };
}

/** The sheet a form describes, or null after showing what is wrong.
 * @param {any} d
 */
function readSheet(d) {
  const problem = (/** @type {any} */ name, /** @type {any} */ value) => { showAlert(t("web.error.bad_number", { name, value })); return null; };
  if (!d.name.trim()) { showAlert(t("web.error.required", { field: t("web.kw.name") })); return null; }
  /** @type {Record<string, any>} */
  const sheet = { name: d.name.trim(), side: d.side.trim() || "party", attributes: {}, resistances: {} };
  if (String(d.ap ?? "").trim() !== "") {
    const n = Number(d.ap);
    if (!Number.isInteger(n)) return problem(t("web.kw.field.ap"), d.ap);
    sheet.ap = n;
  }
  for (const key of ["species", "native_language"]) if ((d[key] ?? "").trim()) sheet[key] = d[key].trim();
  for (const key of ["hp", "mp", "magic_cost"]) {
    const n = Number(d[key]);
    if (d[key] === "" || !Number.isInteger(n)) return problem(t("web.kw.field." + key), d[key]);
    sheet[key] = n;
  }
  for (const [a, v] of Object.entries(d.attributes)) {
    const n = Number(v);
    if (v === "" || !Number.isInteger(n)) return problem(attrName(a), v);
    sheet.attributes[a] = n;
  }
  for (const [x, v] of Object.entries(d.resistances)) {
    const n = Number(v);
    if (!Number.isInteger(n)) return problem(t("web.kw.resistance", { type: x }), v);
    if (n) sheet.resistances[x] = n;
  }
  try {
    sheet.skills = Object.fromEntries(parseLines(d.skills, (/** @type {any} */ line) => {
      const [id, depth, value] = line.split(/\s+/);
      if (!id || !Number.isInteger(Number(depth)) || !Number.isInteger(Number(value ?? 0))) throw new Error(line);
      return [id, { depth: Number(depth), value: Number(value ?? 0) }];
    }));
  } catch (e) { showAlert(t("web.kw.bad_line", { field: t("web.kw.field.skills"), line: /** @type {Error} */ (e).message })); return null; }
  const r = rowReader();
  try {
    sheet.markings = r.markings(d.markings, t("web.kw.field.markings"));
    sheet.weapons = d.weapons.map((/** @type {any} */ w, /** @type {any} */ i) => {
      const label = t("web.kw.row_weapon", { n: i + 1 });
      const at = (/** @type {string} */ key) => `${label}: ${t("web.kw.weapon." + key)}`;
      return {
        name: r.name(at("name"), w.name), skill: r.name(at("skill"), w.skill), attribute: w.attribute,
        damage_bonus: r.int(at("damage_bonus"), w.damage_bonus), fuehrungsschwelle: r.int(at("fuehrungsschwelle"), w.fuehrungsschwelle),
        durchdringend: r.int(at("durchdringend"), w.durchdringend), damage_type: w.damage_type, wielded: !!w.wielded,
        markings: r.markings(w.markings, label),
      };
    });
    sheet.sonderfertigkeiten = Object.fromEntries(d.sonderfertigkeiten.map((/** @type {any} */ s, /** @type {any} */ i) => {
      const at = (/** @type {string} */ key) => `${t("web.kw.row_sf", { n: i + 1 })}: ${t("web.kw.sf." + key)}`;
      return [r.name(at("name"), s.name), { bonus: r.int(at("bonus"), s.bonus), skills: words(s.skills), markings: words(s.markings) }];
    }));
    sheet.haltungen = Object.fromEntries(d.haltungen.map((/** @type {any} */ h, /** @type {any} */ i) => {
      const label = t("web.kw.row_haltung", { n: i + 1 });
      const modifiers = Object.fromEntries(h.modifiers.map((/** @type {any} */ m, /** @type {any} */ j) => {
        const at = (/** @type {string} */ key) => `${label}, ${t("web.kw.row_modifier", { n: j + 1 })}: ${t("web.kw.haltung." + key)}`;
        return [m.target === "dodge" ? "dodge" : r.name(at("skill"), m.skill), r.int(at("value"), m.value)];
      }));
      return [r.name(`${label}: ${t("web.kw.haltung.name")}`, h.name), { modifiers }];
    }));
  } catch (thrown) {
    if (thrown instanceof Error) throw thrown;
    const e = /** @type {{ field: string, value?: unknown }} */ (thrown);
    showAlert("value" in e ? t("web.error.bad_number", { name: e.field, value: e.value }) : t("web.error.required", { field: e.field }));
    return null;
  }
  sheet.begabungen = words(d.begabungen);
  return sheet;
}

const typeName = (/** @type {string} */ x) => t("web.kw.type." + x);

/** Rows of markings (name, value, detail) under `id`; known names are offered.
 * @param {TableContext} ctx
 * @param {string} id
 * @param {any} items
 * @param {any} legend
 */
function markingList(ctx, id, items, legend) {
  return rowList({
    id, legend, items, blank: blankMarking,
    addLabel: t("web.kw.add_marking"), removeLabel: () => t("web.kw.remove"), empty: t("web.kw.no_rows"),
    row: (m, i, rid) => el("div", { class: "grid-3" },
      field(`${rid}-name`, t("web.kw.marking.name"), input(`${rid}-name`, m.name, (v) => { m.name = v; }, { required: true, "aria-required": "true", list: "kw-known-markings" })),
      field(`${rid}-value`, t("web.kw.marking.value"), num(`${rid}-value`, m.value, (v) => { m.value = v; })),
      field(`${rid}-detail`, t("web.kw.marking.detail"), input(`${rid}-detail`, m.detail, (v) => { m.detail = v; }, { list: "kw-known-details" }))),
  });
}

/**
 * @param {TableContext} ctx
 * @param {any} w
 * @param {any} rid
 */
function weaponRow(ctx, w, rid) {
  const attrs = ctx.state.options.attributes;
  const set = (/** @type {string} */ k) => (/** @type {string} */ v) => { w[k] = v; };
  const number = (/** @type {any} */ k) => field(`${rid}-${k}`, t("web.kw.weapon." + k), num(`${rid}-${k}`, w[k], set(k)));
  return el("div", { class: "kw-weapon-row" },
    el("div", { class: "grid-4" },
      field(`${rid}-name`, t("web.kw.weapon.name"), input(`${rid}-name`, w.name, set("name"), { required: true, "aria-required": "true", maxlength: 60 })),
      field(`${rid}-skill`, t("web.kw.weapon.skill"), input(`${rid}-skill`, w.skill, set("skill"), { required: true, "aria-required": "true" })),
      field(`${rid}-attribute`, t("web.kw.weapon.attribute"), select(`${rid}-attribute`, w.attribute, attrs.map((a) => [a, attrName(a)]), set("attribute"))),
      field(`${rid}-damage_type`, t("web.kw.weapon.damage_type"), select(`${rid}-damage_type`, w.damage_type, TYPES.map((x) => [x, typeName(x)]), set("damage_type"))),
      number("damage_bonus"), number("fuehrungsschwelle"), number("durchdringend"),
      el("div", { class: "field check" }, el("input", { type: "checkbox", id: `${rid}-wielded`, checked: w.wielded, onchange: (/** @type {FieldEvent} */ e) => { w.wielded = e.target.checked; } }), el("label", { for: `${rid}-wielded` }, t("web.kw.weapon.wielded")))),
    markingList(ctx, `${rid}-markings`, w.markings, t("web.kw.weapon.markings")));
}

/**
 * @param {any} s
 * @param {any} rid
 */
function sfRow(s, rid) {
  const set = (/** @type {string} */ k) => (/** @type {string} */ v) => { s[k] = v; };
  return el("div", { class: "grid-4" },
    field(`${rid}-name`, t("web.kw.sf.name"), input(`${rid}-name`, s.name, set("name"), { required: true, "aria-required": "true" })),
    field(`${rid}-bonus`, t("web.kw.sf.bonus"), num(`${rid}-bonus`, s.bonus, set("bonus"))),
    field(`${rid}-skills`, t("web.kw.sf.skills"), input(`${rid}-skills`, s.skills, set("skills")), t("web.kw.comma_hint")),
    field(`${rid}-markings`, t("web.kw.sf.markings"), input(`${rid}-markings`, s.markings, set("markings")), t("web.kw.sf_depth_hint")));
}

/**
 * @param {TableContext} ctx
 * @param {any} d
 * @param {any} h
 * @param {any} rid
 */
function haltungRow(ctx, d, h, rid) {
  const cost = t("web.kw.haltung_cost", { mp: d.magic_cost || "1", ap: ctx.state.options.haltung_switch_ap });
  const modifiers = rowList({
    id: `${rid}-mods`, legend: t("web.kw.haltung.modifiers"), items: h.modifiers, blank: blankModifier,
    addLabel: t("web.kw.add_modifier"), removeLabel: () => t("web.kw.remove"), empty: t("web.kw.no_rows"),
    row: (m, j, mid) => {
      const skill = input(`${mid}-skill`, m.skill, (v) => { m.skill = v; }, { disabled: m.target === "dodge", "aria-required": m.target === "dodge" ? null : "true" });
      return el("div", { class: "grid-3" },
        field(`${mid}-target`, t("web.kw.haltung.target"), select(`${mid}-target`, m.target, [["skill", t("web.kw.haltung.on_skill")], ["dodge", t("web.kw.col.dodge")]], (v) => { m.target = v; skill.disabled = v === "dodge"; })),
        field(`${mid}-skill`, t("web.kw.haltung.skill"), skill),
        field(`${mid}-value`, t("web.kw.haltung.value"), num(`${mid}-value`, m.value, (v) => { m.value = v; })));
    },
  });
  return el("div", { class: "kw-haltung-row" },
    field(`${rid}-name`, t("web.kw.haltung.name"), input(`${rid}-name`, h.name, (v) => { h.name = v; }, { required: true, "aria-required": "true" }), cost),
    modifiers);
}

/** The marking names and details the rules know, offered while typing a marking.
 * @param {TableContext} ctx
 */
function knownMarkings(ctx) {
  const known = ctx.state.known_markings ?? { names: [], details: [] };
  return [el("datalist", { id: "kw-known-markings" }, known.names.map((n) => el("option", { value: n }))),
    el("datalist", { id: "kw-known-details" }, [...TYPES, ...known.details].map((n) => el("option", { value: n })))];
}

/**
 * @param {TableContext} ctx
 * @param {any} key
 * @param {any} d
 * @param {any} submitLabel
 * @param {any} onsubmit
 */
function sheetForm(ctx, key, d, submitLabel, onsubmit) {
  const attrs = ctx.state.options.attributes;
  const set = (/** @type {string} */ k) => (/** @type {string} */ v) => { d[k] = v; };
  const area = (/** @type {any} */ k, /** @type {any} */ rows, /** @type {any} */ hint) => field(`${key}-${k}`, t("web.kw.field." + k), el("textarea", { id: `${key}-${k}`, rows, oninput: (/** @type {FieldEvent} */ e) => { d[k] = e.target.value; } }, d[k]), hint);
  const rows = (/** @type {any} */ k, /** @type {any} */ blank, /** @type {any} */ addKey, /** @type {any} */ row) => rowList({
    id: `${key}-${k}`, legend: t("web.kw.field." + k), items: d[k], blank, row,
    addLabel: t(addKey), removeLabel: () => t("web.kw.remove"), empty: t("web.kw.no_rows"),
  });
  return el("form", { class: "form", id: key, onsubmit: (/** @type {FieldEvent} */ e) => { e.preventDefault(); onsubmit(); } },
    // Long forms in groups: who the being is, its values, attributes, resistances; each group
    // a grid of as many columns as its region has room for.
    el("div", { class: "form-groups" },
      el("fieldset", { class: "form-group", id: `${key}-about` }, el("legend", {}, t("web.kw.group.about")),
        field(`${key}-name`, t("web.kw.name"), input(`${key}-name`, d.name, set("name"), { required: true, maxlength: 60, "aria-required": "true" })),
        field(`${key}-side`, t("web.kw.field.side"), input(`${key}-side`, d.side, set("side"))),
        field(`${key}-species`, t("web.kw.field.species"), input(`${key}-species`, d.species, set("species"), { maxlength: 40 })),
        field(`${key}-native_language`, t("web.kw.field.native_language"), input(`${key}-native_language`, d.native_language, set("native_language"), { maxlength: 40 }))),
      el("fieldset", { class: "form-group", id: `${key}-values` }, el("legend", {}, t("web.kw.group.values")),
        field(`${key}-hp`, t("web.kw.field.hp"), num(`${key}-hp`, d.hp, set("hp"), { min: 1 })),
        field(`${key}-mp`, t("web.kw.field.mp"), num(`${key}-mp`, d.mp, set("mp"), { min: 0 })),
        field(`${key}-magic_cost`, t("web.kw.field.magic_cost"), num(`${key}-magic_cost`, d.magic_cost, set("magic_cost"), { min: 0, max: 9 })),
        field(`${key}-ap`, t("web.kw.field.ap"), num(`${key}-ap`, d.ap, set("ap"), { min: 1, max: 9, placeholder: String(ctx.state.options.ap_per_round) }))),
      el("fieldset", { class: "form-group", id: `${key}-attributes` }, el("legend", {}, t("web.kw.field.attributes")),
        attrs.map((a) => field(`${key}-attr-${a}`, attrName(a), num(`${key}-attr-${a}`, d.attributes[a], (v) => { d.attributes[a] = v; })))),
      el("fieldset", { class: "form-group", id: `${key}-resistances` }, el("legend", {}, t("web.kw.field.resistances")),
        TYPES.map((x) => field(`${key}-res-${x}`, t("web.kw.resistance", { type: x }), num(`${key}-res-${x}`, d.resistances[x], (v) => { d.resistances[x] = v; }, { min: 0 }))))),
    area("skills", 4, t("web.kw.skills_hint")),
    markingList(ctx, `${key}-markings`, d.markings, t("web.kw.field.markings")),
    rows("weapons", blankWeapon, "web.kw.add_weapon", (/** @type {any} */ w, /** @type {any} */ i, /** @type {any} */ rid) => weaponRow(ctx, w, rid)),
    rows("sonderfertigkeiten", blankSf, "web.kw.add_sf", (/** @type {any} */ s, /** @type {any} */ i, /** @type {any} */ rid) => sfRow(s, rid)),
    field(`${key}-begabungen`, t("web.kw.field.begabungen"), input(`${key}-begabungen`, d.begabungen, set("begabungen")), t("web.kw.comma_hint")),
    rows("haltungen", blankHaltung, "web.kw.add_haltung", (/** @type {any} */ h, /** @type {any} */ i, /** @type {any} */ rid) => haltungRow(ctx, d, h, rid)),
    el("button", { type: "submit", class: "primary" }, submitLabel));
}

/** @param {TableContext} ctx */
function createSection(ctx) {
  if (ctx.me.role === "spectator") return null;
  const d = (draft.sheets.new ||= emptySheet(ctx));
  const secret = (draft.sheets.secret ??= false);
  const form = sheetForm(ctx, "kw-new", d, t("web.kw.create_submit"), () => {
    const sheet = readSheet(d);
    if (!sheet) return;
    /** @type {Record<string, any>} */
    const command = { kind: "create_being", id: slug(sheet.name, new Set(beingsOf(ctx).map((b) => b.id)), "wesen"), sheet };
    if (ctx.isGm && draft.sheets.secret) command.secret = true;
    ctx.send(command, { hidden: ctx.isGm && draft.sheets.secret ? true : undefined }).then((ok) => { if (ok) { draft.sheets.new = emptySheet(ctx); draft.sheets.secret = false; ctx.rerender(); } });
  });
  if (ctx.isGm) {
    form.insertBefore(el("div", { class: "field check" }, el("input", { type: "checkbox", id: "kw-new-secret", checked: secret, onchange: (/** @type {FieldEvent} */ e) => { draft.sheets.secret = e.target.checked; } }), el("label", { for: "kw-new-secret" }, t("web.kw.secret"))), form.lastChild);
  }
  return details("kw-create-details", t("web.kw.create"), form, { open: !mine(ctx).length && !ctx.isGm, attrs: { class: "card" } });
}

/**
 * @param {TableContext} ctx
 * @param {Being} b
 */
function sheetCard(ctx, b) {
  const can = mayAct(ctx, b.id);
  const fighting = !!combatant(ctx, b.id);
  const skills = Object.entries(b.skills).map(([id, s]) => t("web.kw.skill_choice", { skill: id, depth: s.depth, value: s.value })).join(", ");
  const res = Object.entries(b.sheet.resistances).map(([x, v]) => `${x} ${v}`).join(", ");
  const marks = b.sheet.markings.map((m) => [m.name, m.value, m.detail].filter((x) => x != null).join(" ")).join(", ");
  const weapons = b.weapons.map((w) => t("web.kw.weapon_line", { name: w.name, skill: w.skill, bonus: w.damage_bonus, fs: w.fuehrungsschwelle, dd: w.durchdringend, type: w.damage_type })
    + (w.markings.length ? " [" + w.markings.map((m) => [m.name, m.value, m.detail].filter((x) => x != null).join(" ")).join(", ") + "]" : "")).join("; ");
  const facts = [
    [t("web.kw.field.tp"), `${b.tp.current} / ${b.tp.maximum}`, `kw-sheet-tp-${b.id}`],
    [t("web.kw.field.mp"), `${b.mp.current} / ${b.mp.maximum}`, `kw-sheet-mp-${b.id}`],
    [t("web.kw.field.attributes"), Object.entries(b.attributes).map(([a, v]) => `${attrName(a)} ${v}`).join(", ")],
    [t("web.kw.field.skills"), skills || "–"],
    [t("web.kw.field.resistances"), res || "–"],
    [t("web.kw.field.markings"), marks || "–"],
    [t("web.kw.field.weapons"), weapons || "–"],
    [t("web.kw.field.sonderfertigkeiten"), Object.entries(b.sonderfertigkeiten).map(([id, s]) => t("web.kw.sf_choice", { name: id, bonus: s.bonus })).join(", ") || "–"],
  ];
  const magic = [];
  if (can) {
    const overload = b.mp.current < b.magic_cost;
    const cost = overload ? t("web.kw.overload_warning", { cost: b.magic_cost }) : t("web.kw.magic_cost", { cost: b.magic_cost });
    for (const g of b.begabungen) magic.push(button(`kw-begabung-${b.id}-${g}`, t("web.kw.use_begabung", { name: g, cost }), () => send(ctx, { kind: "use_begabung", being: b.id, begabung: g })));
    const c = combatant(ctx, b.id);
    const halfAp = Number(ctx.state.options.haltung_switch_ap);
    for (const [h, spec] of Object.entries(b.haltungen)) {
      const active = b.active_haltungen.includes(h);
      const reason = c && apLeft(c) < halfAp ? t("web.kw.no_ap") : null;
      const mods = Object.entries(spec.modifiers).map(([k, v]) => `${k === "dodge" ? t("web.kw.col.dodge") : k} ${v > 0 ? "+" : ""}${v}`).join(", ");
      magic.push(button(`kw-haltung-${b.id}-${h}`, t(active ? "web.kw.haltung_off" : "web.kw.haltung_on", { name: h, mods, cost }), () => send(ctx, { kind: "switch_haltung", being: b.id, haltung: h, active: !active }), { reason }));
    }
  } else if (b.begabungen.length) facts.push([t("web.kw.field.begabungen"), b.begabungen.join(", ")]);
  if (b.active_haltungen.length) facts.push([t("web.kw.active_haltungen"), b.active_haltungen.join(", ")]);
  return el("article", { class: "sheet", id: `kw-being-${b.id}`, "aria-labelledby": `kw-sheet-${b.id}` },
    el("h3", { id: `kw-sheet-${b.id}` }, b.name, " ", el("span", { class: "badge" }, b.side), b.secret ? el("span", { class: "badge hidden-badge" }, t("web.kw.secret_badge")) : null,
      b.defeated ? el("span", { class: "badge undone-badge" }, t("web.kw.defeated")) : null,
      b.burning ? el("span", { class: "badge kw-burning" }, t("web.kw.burning")) : null),
    el("dl", {}, facts.flatMap(([k, v, id]) => [el("dt", {}, k), el("dd", { id: id || null }, v)])),
    magic.length ? el("div", { class: "row kw-magic" }, magic) : null,
    b.burning && !fighting && (can || ctx.isGm) ? button(`kw-extinguish-${b.id}`, t("web.kw.extinguish"), () => send(ctx, { kind: "extinguish", being: b.id })) : null,
    can ? restForm(ctx, b, fighting) : null,
    ctx.isGm ? hurtForm(ctx, b) : null,
    ctx.isGm ? trackForm(ctx, b) : null,
    can ? editForm(ctx, b) : null);
}

/**
 * @param {TableContext} ctx
 * @param {Being} b
 * @param {any} fighting
 */
function restForm(ctx, b, fighting) {
  const d = (draft.rest[b.id] ||= { rest: "0", sleep: "0" });
  const reason = fighting ? t("web.kw.no_rest_in_fight") : null;
  return details(`kw-rest-${b.id}-details`, t("web.kw.rest"),
    el("form", { class: "form inline", onsubmit: (/** @type {FieldEvent} */ e) => { e.preventDefault(); send(ctx, { kind: "rest", being: b.id, rest_halfhours: Number(d.rest) || 0, sleep_halfhours: Number(d.sleep) || 0 }); } },
      field(`kw-rest-${b.id}-rest`, t("web.kw.rest_halfhours"), num(`kw-rest-${b.id}-rest`, d.rest, (v) => { d.rest = v; }, { min: 0, max: 480 })),
      field(`kw-rest-${b.id}-sleep`, t("web.kw.sleep_halfhours"), num(`kw-rest-${b.id}-sleep`, d.sleep, (v) => { d.sleep = v; }, { min: 0, max: 480 })),
      el("p", { class: "muted small-print" }, t("web.kw.rest_rule")),
      el("button", { type: "submit", id: `kw-rest-${b.id}-submit`, disabled: !!reason, title: reason }, t("web.kw.rest_submit"))));
}

/**
 * @param {TableContext} ctx
 * @param {Being} b
 */
function hurtForm(ctx, b) {
  const key = `kw-hurt-${b.id}`;
  const d = (draft.hurt[b.id] ||= { amount: "", type: "PH", reason: "", fire: false, markings: [], heal: "", healReason: "" });
  const damage = () => {
    const n = Number(d.amount);
    if (d.amount === "" || !Number.isInteger(n) || n < 0) { showAlert(t("web.error.bad_number", { name: t("web.kw.amount"), value: d.amount })); return; }
    if (!d.reason.trim()) { showAlert(t("web.error.required", { field: t("web.kw.reason") })); return; }
    let markings;
    try { markings = rowReader().markings(d.markings, t("web.kw.hurt_markings")); } catch (thrown) {
      const bad = /** @type {{ field: string, value?: unknown }} */ (thrown);
      showAlert(bad.value === undefined ? t("web.error.required", { field: bad.field }) : t("web.error.bad_number", { name: bad.field, value: bad.value }));
      return;
    }
    // "Sets burning" is the common marking, offered as a box; the rows take any other.
    if (d.fire && !markings.some((/** @type {any} */ m) => m.name === "langzeiteffekt" && m.detail === "feuer")) markings.unshift({ name: "langzeiteffekt", detail: "feuer" });
    /** @type {Record<string, any>} */
    const command = { kind: "deal_damage", being: b.id, amount: n, damage_type: d.type, reason: d.reason.trim() };
    if (markings.length) command.markings = markings;
    send(ctx, command).then((ok) => { if (ok) { draft.hurt[b.id] = null; ctx.rerender(); } });
  };
  const heal = () => {
    const n = Number(d.heal);
    if (!Number.isInteger(n) || n < 1) { showAlert(t("web.error.bad_number", { name: t("web.kw.amount"), value: d.heal })); return; }
    if (!d.healReason.trim()) { showAlert(t("web.error.required", { field: t("web.kw.reason") })); return; }
    send(ctx, { kind: "heal", being: b.id, amount: n, reason: d.healReason.trim() }).then((ok) => { if (ok) { draft.hurt[b.id] = null; ctx.rerender(); } });
  };
  return details(`${key}-details`, t("web.kw.hurt"), el("div", {},
    el("form", { class: "form inline", id: key, onsubmit: (/** @type {FieldEvent} */ e) => { e.preventDefault(); damage(); } },
      field(`${key}-amount`, t("web.kw.amount"), num(`${key}-amount`, d.amount, (v) => { d.amount = v; }, { min: 0 })),
      field(`${key}-type`, t("web.kw.damage_type"), select(`${key}-type`, d.type, TYPES.map((x) => [x, x]), (v) => { d.type = v; })),
      field(`${key}-reason`, t("web.kw.reason"), input(`${key}-reason`, d.reason, (v) => { d.reason = v; }, { maxlength: 60 })),
      el("div", { class: "field check" }, el("input", { type: "checkbox", id: `${key}-fire`, checked: d.fire, onchange: (/** @type {FieldEvent} */ e) => { d.fire = e.target.checked; } }), el("label", { for: `${key}-fire` }, t("web.kw.sets_burning"))),
      markingList(ctx, `${key}-markings`, d.markings, t("web.kw.hurt_markings")),
      el("button", { type: "submit", id: `${key}-submit` }, t("web.kw.deal_damage"))),
    el("form", { class: "form inline", id: `kw-heal-${b.id}`, onsubmit: (/** @type {FieldEvent} */ e) => { e.preventDefault(); heal(); } },
      field(`kw-heal-${b.id}-amount`, t("web.kw.amount"), num(`kw-heal-${b.id}-amount`, d.heal, (v) => { d.heal = v; }, { min: 1 })),
      field(`kw-heal-${b.id}-reason`, t("web.kw.reason"), input(`kw-heal-${b.id}-reason`, d.healReason, (v) => { d.healReason = v; }, { maxlength: 60 })),
      el("button", { type: "submit", id: `kw-heal-${b.id}-submit` }, t("web.kw.heal")))));
}

/** @param {any} catalogue */
function catalogueText(catalogue) {
  return Object.entries(catalogue || {}).map(([name, s]) => [name, s.depth, s.attribute || "-", ...(s.species || [])].join(" ")).join("\n");
}

/** @param {TableContext} ctx */
function catalogueSection(ctx) {
  const entries = Object.entries(ctx.state.catalogue || {});
  const shown = el("p", { id: "kw-catalogue-list" }, entries.length ? entries.map(([name, s]) => t("web.kw.catalogue_entry", { name, depth: s.depth, species: (s.species || []).join(", ") || t("web.kw.everyone") })).join("; ") : t("web.kw.catalogue_empty"));
  const options = ctx.state.options;
  const rules = el("p", { id: "kw-options", class: "muted small-print" }, t("web.kw.options_line", { edition: options.edition, accumulation: t("web.kw.accumulation." + options.accumulation), fs: t("web.kw.fs." + options.fuehrungsschwelle), tie: options.tie_goes_to, ap: options.ap_per_round }));
  if (!ctx.isGm) return el("section", { class: "card", "aria-labelledby": "kw-catalogue-heading" }, el("h2", { id: "kw-catalogue-heading" }, t("web.kw.catalogue")), shown, rules);
  if (draft.catalogue === null) draft.catalogue = catalogueText(ctx.state.catalogue);
  const save = () => {
    /** @type {Record<string, any>} */
    const skills = {};
    for (const line of (draft.catalogue ?? "").split("\n").map((x) => x.trim()).filter(Boolean)) {
      const [name, depth, attribute, ...species] = line.split(/\s+/);
      if (!name || !Number.isInteger(Number(depth ?? 1))) { showAlert(t("web.kw.bad_line", { field: t("web.kw.catalogue"), line })); return; }
      skills[name] = { depth: Number(depth ?? 1), species };
      if (attribute && attribute !== "-") skills[name].attribute = attribute;
    }
    send(ctx, { kind: "set_catalogue", skills }).then((ok) => { if (ok) { draft.catalogue = null; ctx.rerender(); } });
  };
  return el("section", { class: "card", "aria-labelledby": "kw-catalogue-heading" }, el("h2", { id: "kw-catalogue-heading" }, t("web.kw.catalogue")), shown, rules,
    details("kw-catalogue-details", t("web.kw.catalogue_edit"),
      el("form", { class: "form", id: "kw-catalogue-form", onsubmit: (/** @type {FieldEvent} */ e) => { e.preventDefault(); save(); } },
        field("kw-catalogue-text", t("web.kw.catalogue"), el("textarea", { id: "kw-catalogue-text", rows: 4, oninput: (/** @type {FieldEvent} */ e) => { draft.catalogue = e.target.value; } }, draft.catalogue), t("web.kw.catalogue_hint")),
        el("button", { type: "submit", id: "kw-catalogue-submit" }, t("web.kw.save")))));
}

/**
 * @param {TableContext} ctx
 * @param {Being} b
 */
function trackForm(ctx, b) {
  const key = `kw-track-${b.id}`;
  // the command `adjust_track` for this being, its form drawn from the schema
  return details(`${key}-details`, t("web.kw.adjust"), commandForm({
    system: "kreiswanderer", kind: "adjust_track", id: key, fixed: { being: b.id }, submit: t("web.kw.save"),
    values: { track: "tp" },
    labels: { track: "web.kw.track", value: "web.kw.value" },
    choices: (_path, value) => "web.kw.field." + value,
    send: (command) => send(ctx, command),
  }));
}

/**
 * @param {TableContext} ctx
 * @param {Being} b
 */
function editForm(ctx, b) {
  const key = `kw-edit-${b.id}`;
  const d = (draft.sheets[key] ||= sheetDraft(b.sheet));
  return details(`${key}-details`, t("web.kw.edit"), sheetForm(ctx, key, d, t("web.kw.save"), () => {
    const sheet = readSheet(d);
    if (sheet) ctx.send({ kind: "edit_being", being: b.id, sheet }).then((ok) => { if (ok) delete draft.sheets[key]; });
  }));
}

// -- the panel ---------------------------------------------------------------------------------

/** Render the whole Kreiswanderer panel from the viewer's state.
 * @param {HTMLElement} body
 * @param {TableContext} ctx
 */
export function render(body, ctx) {
  body.dataset.game = "kreiswanderer";
  const beings = beingsOf(ctx);
  body.replaceChildren(...[
    fightSection(ctx),
    lastAttack(ctx),
    lastCheck(ctx),
    checkBuilder(ctx),
  ].filter(Boolean));
  if (draft.focus) {
    // After the table page put the keyboard back where it was: the result takes it.
    const id = draft.focus;
    draft.focus = null;
    queueMicrotask(() => document.getElementById(id)?.focus());
  }
  // The fight and the checks in the scene, the sheets (and a new one) in the sheets region.
  return {
    sheets: el("div", { dataset: { game: "kreiswanderer" } },
      el("section", { class: "card", "aria-labelledby": "kw-sheets-heading" }, el("h2", { id: "kw-sheets-heading" }, t("web.kw.sheets")),
        beings.length ? el("div", { class: "sheets" }, beings.map((b) => sheetCard(ctx, b))) : el("p", { class: "muted" }, t("web.kw.no_beings"))),
      createSection(ctx), catalogueSection(ctx), ...knownMarkings(ctx)),
  };
}

/** @param {any} value
 * @returns {string} */
function show(value) {
  if (value == null) return "–";
  if (typeof value !== "object") return String(value);
  if (Array.isArray(value)) return value.length ? value.map(show).join(", ") : "–";
  return Object.entries(value).filter(([, v]) => v != null && !(Array.isArray(v) && !v.length)).map(([k, v]) => `${k} ${show(v)}`).join(", ");
}

// An event's quality is never negative (a Fehlqualität on a fail); an accumulation's is signed.
/** @param {any} event */
function outcome(event) {
  const quality = Math.abs(event.quality);
  if (event.critical) return t("web.kw.critical_" + event.critical, { quality });
  return event.passed ? t("web.kw.passed", { quality }) : t("web.kw.failed", { quality });
}

/** One line per event for the log.
 * @param {any} event
 * @param {TableContext} ctx
 */
export function describe(event, ctx) {
  const name = (/** @type {string | null | undefined} */ id) => nameOf(ctx, id);
  switch (event.kind) {
    case "being_created": return t("web.kw.ev.being_created", { name: event.being.creature.name });
    case "being_edited": return t("web.kw.ev.being_edited", { name: event.being.creature.name, changes: event.changes.map((/** @type {any} */ c) => t("web.kw.change", { field: fieldLabel(c.field), old: show(c.old), new: show(c.new) })).join("; ") });
    case "check_rolled": return t("web.kw.ev.check_rolled", { name: name(event.being), skill: event.skills.join(" / "), tw: event.talent_value, result: event.result, target: event.target, outcome: outcome(event) });
    case "comparative_rolled": return t("web.kw.ev.comparative_rolled", { active: name(event.active.being), ra: event.active.result, passive: name(event.passive.being), rp: event.passive.result, winner: name(event[event.winner].being), quality: event.quality })
      + (event.critical ? " " + t("web.kw.ev.comparative_critical") : "");
    case "accumulation_started": return t("web.kw.ev.accumulation_started", { name: name(event.accumulation.being), skill: event.accumulation.skill, tw: event.accumulation.talent_value });
    case "accumulation_rolled":
      if (event.finished) return t("web.kw.ev.accumulation_finished", { result: event.result, total: event.total, outcome: outcome({ passed: event.quality >= 0, quality: event.quality, critical: event.critical }) });
      return event.quality >= 0 ? t("web.kw.ev.accumulation_rolled", { result: event.result, total: event.total, quality: event.quality })
        : t("web.kw.ev.accumulation_short", { result: event.result, total: event.total, missing: -event.quality });
    case "combat_started": return t("web.kw.ev.combat_started", { names: Object.keys(event.dice).map(name).join(", ") });
    case "dice_assigned": return t("web.kw.ev.dice_assigned", { name: name(event.being), dodge: event.dodge, initiative: event.initiative });
    case "ap_spent": return t("web.kw.ev.ap_spent", { name: name(event.being), amount: Number(event.amount) });
    case "action_begun": return t("web.kw.ev.action_begun", { name: name(event.being), cost: event.cost });
    case "attacked": return t(event.passed ? "web.kw.ev.hit" : "web.kw.ev.missed", { name: name(event.being), target: name(event.target), weapon: event.weapon, result: event.result, tv: event.target_value, damage: event.damage, type: event.damage_type, outcome: outcome(event) }) + (event.passed && (event.protection || event.extra?.length) ? " " + t("web.kw.ev.secondary", { effects: [event.protection ? t("web.kw.protection", { value: event.protection }) : null, ...(event.extra || []).map((/** @type {any} */ x) => t("web.kw.extra_damage", { value: x.value, type: x.damage_type, damage: x.damage }))].filter(Boolean).join("; ") }) : "")
      + (event.ignites ? " " + t("web.kw.ev.ignites", { target: name(event.target) }) : "");
    case "magic_used": return event.overload.length
      ? t("web.kw.ev.overload", { name: name(event.being), act: event.act, damage: event.overload.reduce((/** @type {any} */ a, /** @type {any} */ b) => a + b, 0) })
      : t("web.kw.ev.magic_used", { name: name(event.being), act: event.act, cost: event.cost });
    case "dodged": return t("web.kw.ev.dodged", { name: name(event.being), bonus: event.bonus, skill: event.skill ?? ctx.state.options.dodge_skill });
    case "haltung_switched": return t(event.active ? "web.kw.ev.haltung_on" : "web.kw.ev.haltung_off", { name: name(event.being), haltung: event.haltung });
    case "extinguished": return t("web.kw.ev.extinguished", { name: name(event.being) });
    case "turn_ended": return t("web.kw.ev.turn_ended");
    case "fight_joined": return t("web.kw.ev.fight_joined", { name: name(event.being), a: event.dice[0], b: event.dice[1] });
    case "fight_left": return t(event.how === "remove" ? "web.kw.ev.removed" : "web.kw.ev.fled", { name: name(event.being) });
    case "damage_dealt": return t("web.kw.ev.damage_dealt", { name: name(event.being), amount: event.amount, type: event.damage_type, resistance: event.resistance, damage: event.damage, reason: event.reason })
      + (event.ignites ? " " + t("web.kw.ev.ignites", { target: name(event.being) }) : "");
    case "healed": return t("web.kw.ev.healed", { name: name(event.being), amount: event.amount, track: t("web.kw.field." + event.track), value: event.value, reason: event.reason });
    case "action_done": return t("web.kw.ev.action_done", { name: name(event.being), action: event.name, cost: event.cost });
    case "accumulation_abandoned": return t("web.kw.ev.accumulation_abandoned", { id: event.id });
    case "catalogue_set": return t("web.kw.ev.catalogue_set", { n: Object.keys(event.skills).length });
    case "combat_ended": return t("web.kw.ev.combat_ended");
    case "rested": return t("web.kw.ev.rested", { name: name(event.being), tp: event.tp, mp: event.mp });
    case "track_adjusted": return t("web.kw.ev.track_adjusted", { name: name(event.being), track: t("web.kw.field." + event.track), value: event.value });
    default: return null;
  }
}

/** The dice of an event: d10 of checks and attacks, the two d10 of a fight's start, overloads.
 * @param {any} event
 */
export function diceOf(event) {
  const d10 = (/** @type {number[]} */ values) => values.map((v) => ({ die: "d10", sides: 10, face: v }));
  switch (event.kind) {
    case "check_rolled": case "attacked": case "accumulation_rolled": return d10(event.rolls);
    case "comparative_rolled": return d10([...event.active.rolls, ...event.passive.rolls]);
    case "combat_started": return d10(Object.values(event.dice).flat());
    case "fight_joined": return d10(event.dice);
    case "magic_used": return d10(event.overload);
    default: return [];
  }
}

/** The log line of a record: who did what, by display names.
 * @param {TableRecord} record
 * @param {TableContext} ctx
 */
export function summary(record, ctx) {
  const c = record.command;
  if (!c) return null;
  const key = "web.kw.cmd." + c.kind;
  return tFirst([key], { who: ctx.actorName(record.actor), name: c.being ? nameOf(ctx, c.being) : (c.sheet?.name ?? "") }, null);
}

/** Whose turn it is in the fight (the decisions contract, docs/web-table.md).
 * @param {TableContext} ctx
 */
export function turn(ctx) {
  const fight = fightOf(ctx);
  return fight?.started && fight.current ? pieceTurn(ctx, fight.current, nameOf(ctx, fight.current), "kw-fight") : null;
}
