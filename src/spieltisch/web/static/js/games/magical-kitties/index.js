// @ts-check
// Magical Kitties: sheets, foes, the check builder with exact odds, the tier and its menu,
// treat rerolls, Auas and injuries, scenes and episodes, end-of-episode questions, level-ups.
import { slug } from "../../helpers.js";
import { details, el, showAlert, t, tFirst } from "../../core.js";
import { renderDie } from "../../dice.js";
import { drafts } from "../../drafts.js";
import { fieldLabel } from "../../forms.js";
import { legal } from "../../legal.js";
import { oddsChart } from "../../odds.js";

/** @typedef {import("./types.js").Ctx} Ctx */
/** @typedef {import("./types.js").Kitty} Kitty */
/** @typedef {import("./types.js").Check} Check */
/** @typedef {import("./types.js").MenuEntry} MenuEntry */
/** @typedef {import("./types.js").FieldEvent} FieldEvent */
/** An event of the log as a record holds it. @typedef {Record<string, any>} LogEvent */

const ATTRIBUTES = ["cute", "cunning", "fierce"];
const DIFFICULTIES = [3, 4, 5, 6];

// What the person is typing or choosing; kept across re-renders.
/** @type {{ check: Record<string, any>, reroll: Set<number>, rerollCheck: string | null, targets: Record<string, string>,
 *   create: Record<string, string>, foe: Record<string, string>, problem: Record<string, any>, end: Record<string, any>,
 *   level: Record<string, any> }} */
const draft = {
  check: { kitty: "", attribute: "cute", talent: "", power: "", difficulty: "", foe: "", modifier: 0 },
  reroll: new Set(),
  rerollCheck: null,
  targets: {},
  create: { name: "", cute: "1", cunning: "2", fierce: "3", talent: "", power: "", flaw: "", human: "" },
  foe: { name: "", difficulty: "", aua_limit: "" },
  problem: { text: "", rank: 1, kitty: "" },
  end: { saved: false, fun: false, lessons: new Set(), changes: {} },
  level: {},
};
/** @type {ReturnType<typeof drafts> | null} */
let store = null;
/** @type {string | null} */
let storeFor = null;

// The dice chosen for a reroll are kept per table and person, so a reload brings them back
// (only while that same roll is the last check); the half-built check is a form, whose
// drafts the table keeps for every game (drafts.js).
/** @param {Ctx} ctx */
function restoreDrafts(ctx) {
  const owner = ctx.table + "/" + (ctx.me.participant || "");
  if (owner === storeFor) return;
  storeFor = owner;
  store = drafts(ctx.table, ctx.me.participant);
  const reroll = store.load("kitties.reroll");
  if (reroll && typeof reroll.check === "string" && Array.isArray(reroll.dice)) {
    draft.rerollCheck = reroll.check;
    draft.reroll = new Set(reroll.dice.filter(Number.isInteger));
  }
}

function keepDrafts() {
  if (!store) return;
  store.save("kitties.reroll", { check: draft.rerollCheck, dice: [...draft.reroll] });
}

/** After a roll the keyboard goes to its result; the reroll dice are the next Tab stops. */
function focusResult() {
  document.getElementById("check-result")?.focus();
}

/**
 * @param {Ctx} ctx
 * @returns {Kitty[]}
 */
function mine(ctx) {
  const pieces = new Set(ctx.me.pieces || []);
  return ctx.state.kitties.filter((k) => ctx.isGm || pieces.has(k.id));
}

/** @param {string} a */
function attrName(a) {
  return t("web.kitties.attr." + a);
}

/** @param {string} id */
function entryText(id) {
  return tFirst([`kitties.menu.${id}`, `kitties.${id}`], {}, id);
}

/**
 * @param {string} id
 * @param {unknown} label
 * @param {HTMLInputElement | HTMLSelectElement} control
 * @param {unknown} [hint]
 */
function field(id, label, control, hint) {
  return el("div", { class: "field" }, fieldLabel(control, label), control, hint ? el("span", { class: "muted small-print" }, hint) : null);
}

/**
 * @param {string} id
 * @param {unknown} value
 * @param {unknown[][]} options pairs of a value and its label
 * @param {(value: string) => void} onchange
 * @returns {HTMLSelectElement}
 */
function select(id, value, options, onchange) {
  return el("select", { id, onchange: (/** @type {FieldEvent} */ e) => onchange(e.target.value) },
    options.map(([v, label]) => el("option", { value: v, selected: String(v) === String(value) }, label)));
}

/**
 * @param {string} id
 * @param {unknown} value
 * @param {(value: string) => void} oninput
 * @param {Record<string, unknown>} [attrs]
 * @returns {HTMLInputElement}
 */
function input(id, value, oninput, attrs = {}) {
  return el("input", { id, value, autocomplete: "off", oninput: (/** @type {FieldEvent} */ e) => oninput(e.target.value), ...attrs });
}

/**
 * @param {string} id
 * @param {unknown} label
 * @param {boolean} checked
 * @param {(checked: boolean) => void} onchange
 */
function checkbox(id, label, checked, onchange) {
  return el("div", { class: "field check" }, el("input", { type: "checkbox", id, checked, onchange: (/** @type {FieldEvent} */ e) => onchange(e.target.checked) }), el("label", { for: id }, label));
}

// -- the sheets -----------------------------------------------------------------------------

/**
 * @param {Kitty} kitty
 * @param {Ctx} ctx
 */
function sheet(kitty, ctx) {
  const canAct = ctx.isGm || (ctx.me.pieces || []).includes(kitty.id);
  const attrs = el("div", { class: "attrs" }, ATTRIBUTES.map((a) => el("div", { class: "attr" }, el("b", {}, kitty.attributes[a]), el("span", {}, attrName(a)))));
  const powers = kitty.powers.map((p) => p.features.length ? `${p.name} (${p.features.join(", ")})` : p.name).join("; ");
  const problems = kitty.human?.problems || [];
  const facts = [
    [t("web.kitties.talents"), kitty.talents.join(", ") || "–"],
    [t("web.kitties.powers"), powers || "–"],
    [t("web.kitties.flaw"), kitty.flaw || "–"],
    [t("web.kitties.treats"), [t("web.kitties.treats_value", { treats: kitty.treats, value: kitty.treats_value }), kitty.free_treats ? "; " + t("web.kitties.treats_free", { free: kitty.free_treats }) : ""].join("")],
    [t("web.kitties.auas"), `${kitty.auas} / ${kitty.aua_limit}`],
    [t("web.kitties.injuries"), String(kitty.injuries)],
    [t("web.kitties.xp"), kitty.xp_needed == null ? String(kitty.xp) : `${kitty.xp} / ${kitty.xp_needed}`],
  ];
  if (kitty.bonus_dice || kitty.penalty_dice) facts.push([t("web.kitties.next_pool"), t("web.kitties.next_pool_value", { bonus: kitty.bonus_dice, penalty: kitty.penalty_dice })]);
  if (kitty.human?.name) facts.push([t("web.kitties.human"), kitty.human.name]);
  if (problems.length) facts.push([t("web.kitties.problems"), problems.map((p) => `${p.text} (${p.rank})`).join("; ")]);
  const actions = [];
  if (canAct && kitty.avoidable_injuries > 0) {
    const avoid = { kind: "avoid_injury", kitty: kitty.id };
    actions.push(legal(ctx, el("button", { type: "button", id: `avoid-${kitty.id}`, onclick: () => ctx.send(avoid) }, t("web.kitties.avoid_injury")), avoid));
  }
  if (ctx.isGm) {
    const aua = { kind: "give_aua", kitty: kitty.id, count: 1 };
    actions.push(legal(ctx, el("button", { type: "button", id: `aua-${kitty.id}`, "aria-label": t("web.kitties.give_aua_label", { name: kitty.name }), onclick: () => ctx.send(aua) }, t("web.kitties.give_aua")), aua));
    actions.push(el("button", { type: "button", id: `award-${kitty.id}`, "aria-label": t("web.kitties.award_label", { name: kitty.name }), onclick: () => ctx.send({ kind: "award_treat", kitty: kitty.id, reason: "" }) }, t("web.kitties.award")));
  }
  return el("article", { class: "sheet", id: `kitty-${kitty.id}`, "aria-labelledby": `sheet-${kitty.id}` },
    el("h3", { id: `sheet-${kitty.id}` }, el("span", { class: "sheet-name" }, kitty.name), el("span", { class: "badge level-badge" }, t("web.kitties.level", { level: kitty.level }))),
    attrs,
    kitty.incapacitated ? el("p", { class: "badge undone-badge" }, t("web.kitties.incapacitated")) : null,
    el("dl", {}, facts.flatMap(([k, v]) => [el("dt", {}, k), el("dd", {}, v)])),
    actions.length ? el("div", { class: "row" }, actions) : null,
    canAct ? treatForm(kitty, ctx) : null,
    canAct && kitty.can_level_up ? levelForm(kitty, ctx) : null,
    ctx.isGm ? editForm(kitty, ctx) : null);
}

/**
 * @param {Kitty} kitty
 * @param {Ctx} ctx
 */
function treatForm(kitty, ctx) {
  const key = "treat-" + kitty.id;
  const d = (draft.level[key] ||= { purpose: "story", detail: "" });
  return details(`${key}-details`, t("web.kitties.spend_treat"),
    el("form", { class: "form inline", onsubmit: (/** @type {Event} */ e) => { e.preventDefault(); ctx.send({ kind: "spend_treat", kitty: kitty.id, purpose: d.purpose, detail: d.detail.trim() }); } },
      field(`${key}-purpose`, t("web.kitties.treat_purpose"), select(`${key}-purpose`, d.purpose, [["story", t("web.kitties.treat.story")], ["feature", t("web.kitties.treat.feature")]], (v) => (d.purpose = v))),
      field(`${key}-detail`, t("web.kitties.treat_detail"), input(`${key}-detail`, d.detail, (v) => (d.detail = v))),
      el("button", { type: "submit" }, t("web.kitties.spend"))));
}

/**
 * @param {Kitty} kitty
 * @param {Ctx} ctx
 */
function levelForm(kitty, ctx) {
  const key = "level-" + kitty.id;
  const lists = kitty.level_lists || [];
  const d = (draft.level[key] ||= { list: lists[0]?.id || "", entry: "", attribute: "cute", power: kitty.powers[0]?.name || "", name: "" });
  const list = lists.find((l) => l.id === d.list) || lists[0];
  if (list && !list.entries.includes(d.entry)) d.entry = list.entries[0] || "";
  const command = () => {
    /** @type {Record<string, unknown>} */
    const c = { kind: "level_up", kitty: kitty.id, list: d.list, entry: d.entry };
    if (d.entry === "attribute") c.attribute = d.attribute;
    if (d.entry === "bonus_feature") { c.power = d.power; c.name = d.name.trim(); }
    if (d.entry === "talent" || d.entry === "power") c.name = d.name.trim();
    return c;
  };
  return details(`${key}-details`, t("web.kitties.level_up"),
    el("form", { class: "form inline", onsubmit: (/** @type {Event} */ e) => { e.preventDefault(); ctx.send(command()); } },
      field(`${key}-list`, t("web.kitties.level_list"), select(`${key}-list`, d.list, lists.map((l) => [l.id, tFirst([`web.kitties.list.${l.id}`], {}, l.id)]), (v) => { d.list = v; ctx.rerender(); })),
      field(`${key}-entry`, t("web.kitties.level_entry"), select(`${key}-entry`, d.entry, (list?.entries || []).map((e) => [e, tFirst([`web.kitties.pick.${e}`], {}, e)]), (v) => { d.entry = v; ctx.rerender(); })),
      d.entry === "attribute" ? field(`${key}-attr`, t("web.kitties.attribute"), select(`${key}-attr`, d.attribute, ATTRIBUTES.map((a) => [a, attrName(a)]), (v) => (d.attribute = v))) : null,
      d.entry === "bonus_feature" ? field(`${key}-power`, t("web.kitties.level_power"), select(`${key}-power`, d.power, kitty.powers.map((p) => [p.name, p.name]), (v) => (d.power = v))) : null,
      ["bonus_feature", "talent", "power"].includes(d.entry) ? field(`${key}-name`, t("web.kitties.new_name"), input(`${key}-name`, d.name, (v) => (d.name = v))) : null,
      el("button", { type: "submit", class: "primary" }, t("web.kitties.level_up_submit"))),
    { open: true });
}

/**
 * @param {Kitty} kitty
 * @param {Ctx} ctx
 */
function editForm(kitty, ctx) {
  const key = "edit-" + kitty.id;
  /** @type {("treats" | "auas" | "injuries" | "xp" | "aua_limit" | "treats_value")[]} */
  const fields = ["treats", "auas", "injuries", "xp", "aua_limit", "treats_value"];
  const d = (draft.level[key] ||= {});
  return details(`${key}-details`, t("web.kitties.edit"),
    el("form", {
      class: "form inline", onsubmit: (/** @type {Event} */ e) => {
        e.preventDefault();
        /** @type {Record<string, unknown>} */
        const changes = {};
        for (const f of fields) {
          if (d[f] === undefined || d[f] === "") continue;
          const n = Number(d[f]);
          if (!Number.isInteger(n)) { showAlert(t("web.error.bad_number", { name: t("web.kitties." + f), value: d[f] })); return; }
          changes[f] = n;
        }
        ctx.send({ kind: "edit_kitty", kitty: kitty.id, changes }).then((/** @type {unknown} */ ok) => { if (ok) draft.level[key] = {}; });
      },
    },
    el("div", { class: "grid-2" }, fields.map((f) => field(`${key}-${f}`, t("web.kitties." + (f === "treats_value" ? "treats_value_label" : f)), input(`${key}-${f}`, d[f] ?? String(kitty[f]), (v) => (d[f] = v), { inputmode: "numeric" })))),
    el("button", { type: "submit" }, t("web.kitties.save"))));
}

/** @param {Ctx} ctx */
function createForm(ctx) {
  const d = draft.create;
  const values = ctx.state.options.creation_attributes || [1, 2, 3];
  const submit = (/** @type {Event} */ e) => {
    e.preventDefault();
    const name = d.name.trim();
    if (!name) { showAlert(t("web.error.required", { field: t("web.kitties.name") })); return; }
    const taken = new Set(ctx.state.kitties.map((k) => k.id));
    const command = {
      kind: "create_kitty", id: slug(name, taken, "kitty"), name,
      attributes: { cute: Number(d.cute), cunning: Number(d.cunning), fierce: Number(d.fierce) },
      talents: d.talent.trim() ? d.talent.split(",").map((s) => s.trim()).filter(Boolean) : [],
      powers: d.power.trim() ? d.power.split(",").map((s) => ({ name: s.trim(), features: [] })).filter((p) => p.name) : [],
      flaw: d.flaw.trim(),
      human: { name: d.human.trim(), problems: [] },
    };
    ctx.send(command).then((/** @type {unknown} */ ok) => { if (ok) draft.create = { name: "", cute: "1", cunning: "2", fierce: "3", talent: "", power: "", flaw: "", human: "" }; });
  };
  return details("create-kitty-details", t("web.kitties.create"),
    el("form", { class: "form", onsubmit: submit, id: "create-kitty" },
      field("kc-name", t("web.kitties.name"), input("kc-name", d.name, (v) => (d.name = v), { maxlength: 60, required: true })),
      el("div", { class: "grid-2" }, ATTRIBUTES.map((a) => field("kc-" + a, attrName(a), select("kc-" + a, d[a], values.map((v) => [v, String(v)]), (v) => (d[a] = v))))),
      el("p", { class: "muted small-print" }, t("web.kitties.create_hint", { values: values.join(", ") })),
      field("kc-talent", t("web.kitties.talents"), input("kc-talent", d.talent, (v) => (d.talent = v), { required: true }), t("web.kitties.comma_hint")),
      field("kc-power", t("web.kitties.powers"), input("kc-power", d.power, (v) => (d.power = v), { required: true }), t("web.kitties.comma_hint")),
      field("kc-flaw", t("web.kitties.flaw"), input("kc-flaw", d.flaw, (v) => (d.flaw = v), { required: true })),
      field("kc-human", t("web.kitties.human"), input("kc-human", d.human, (v) => (d.human = v))),
      el("button", { type: "submit", class: "primary" }, t("web.kitties.create_submit"))),
    { open: ctx.state.kitties.length === 0 && !ctx.isGm, attrs: { class: "card" } });
}

// -- the check builder ------------------------------------------------------------------------

// Difficulty and other dice are the GM's to set; a player's chosen difficulty only previews.
/**
 * @param {Ctx} ctx
 * @param {boolean} [preview]
 * @returns {Record<string, unknown>}
 */
function checkCommand(ctx, preview = false) {
  const d = draft.check;
  /** @type {Record<string, unknown>} */
  const c = { kind: "check", kitty: d.kitty, attribute: d.attribute };
  if (d.talent) c.talent = d.talent;
  if (d.power) c.power = d.power;
  if (d.difficulty && (ctx.isGm || preview)) c.difficulty = Number(d.difficulty);
  if (d.foe) c.foe = d.foe;
  if (ctx.isGm && Number(d.modifier)) c.modifier = Number(d.modifier);
  return c;
}

/**
 * The odds of the check being built (the page's odds cache): the chart, once known.
 * @param {Ctx} ctx
 */
function checkOdds(ctx) {
  const odds = ctx.oddsNow(checkCommand(ctx, true));
  if (!odds) return null;
  if (odds.error) return el("p", { class: "muted", role: "status" }, odds.error);
  return oddsChart(odds, { labeler: (v) => tierLabel(v), caption: t("web.kitties.odds_caption") });
}

/** @param {any} value */
function tierLabel(value) {
  if (value && typeof value === "object" && "successes" in value) {
    return t("web.kitties.odds_row", { successes: value.successes, tier: t("web.kitties.tier_short." + Math.min(Number(value.tier), 4)) });
  }
  const n = typeof value === "number" ? value : Number(value?.tier ?? value);
  if (Number.isInteger(n)) return t("web.kitties.tier." + Math.min(n, 4));
  return typeof value === "string" ? tFirst(["web.kitties.tier_name." + value], {}, value) : null;
}

/** @param {Ctx} ctx */
function checkBuilder(ctx) {
  const kitties = mine(ctx);
  if (!kitties.length) return null;
  const d = draft.check;
  if (!kitties.some((k) => k.id === d.kitty)) d.kitty = kitties[0].id;
  const kitty = /** @type {Kitty} */ (kitties.find((k) => k.id === d.kitty));
  if (d.talent && !kitty.talents.includes(d.talent)) d.talent = "";
  if (d.power && (kitty.power_bonus_used || !kitty.powers.some((p) => p.name === d.power))) d.power = "";
  const foes = ctx.state.foes.filter((f) => !f.defeated);
  if (d.foe && !foes.some((f) => f.id === d.foe)) d.foe = "";
  const changed = () => { keepDrafts(); ctx.rerender(); };
  const oddsBox = el("div", { id: "check-odds", class: "odds", "aria-live": "polite" }, checkOdds(ctx));
  const attrRadios = el("fieldset", { class: "options" }, el("legend", {}, t("web.kitties.attribute")),
    el("div", { class: "row" }, ATTRIBUTES.map((a) => el("label", { class: "chip" },
      el("input", { type: "radio", name: "check-attr", id: "check-attr-" + a, value: a, checked: d.attribute === a, onchange: () => { d.attribute = a; changed(); } }),
      " ", attrName(a), " (", kitty.attributes[a], ")"))));
  const form = el("form", {
    class: "form", id: "check-form",
    onsubmit: async (/** @type {FieldEvent} */ e) => { e.preventDefault(); const ok = await ctx.send(checkCommand(ctx)); if (ok) { draft.reroll = new Set(); keepDrafts(); focusResult(); } },
  },
  el("div", { class: "grid-2" },
    field("check-kitty", t("web.kitties.kitty"), select("check-kitty", d.kitty, kitties.map((k) => [k.id, k.name]), (v) => { d.kitty = v; ctx.rerender(); })),
    field("check-difficulty", t("web.kitties.difficulty"), select("check-difficulty", d.difficulty, [["", t("web.kitties.difficulty_default")], ...DIFFICULTIES.map((n) => /** @type {[number, string]} */ ([n, t("web.kitties.difficulty." + n)]))], (v) => { d.difficulty = v; changed(); }))),
  attrRadios,
  el("div", { class: "grid-2" },
    field("check-talent", t("web.kitties.talent"), select("check-talent", d.talent, [["", t("web.kitties.none")], ...kitty.talents.map((x) => [x, x])], (v) => { d.talent = v; changed(); })),
    field("check-power", t("web.kitties.power"), kitty.power_bonus_used
      ? el("select", { id: "check-power", disabled: true }, el("option", {}, t("web.kitties.power_used")))
      : select("check-power", d.power, [["", t("web.kitties.none")], ...kitty.powers.map((p) => [p.name, p.name])], (v) => { d.power = v; changed(); })),
    field("check-foe", t("web.kitties.target_foe"), select("check-foe", d.foe, [["", t("web.kitties.no_foe")], ...foes.map((f) => [f.id, f.name])], (v) => { d.foe = v; changed(); })),
    ctx.isGm ? field("check-modifier", t("web.kitties.modifier"), el("input", { id: "check-modifier", type: "number", min: -10, max: 10, value: d.modifier, oninput: (/** @type {FieldEvent} */ e) => { d.modifier = e.target.value; changed(); } })) : null),
  oddsBox,
  el("button", { type: "submit", class: "primary", id: "check-roll" }, t("web.kitties.roll")));
  return el("section", { class: "card", "aria-labelledby": "check-heading" }, el("h2", { id: "check-heading" }, t("web.kitties.check")), form);
}

// -- the last check: tier, menu, reroll, accept -----------------------------------------------

/** @param {Ctx} ctx */
function lastCheck(ctx) {
  const check = ctx.state.last_check;
  if (!check) return null;
  const kitty = ctx.state.kitties.find((k) => k.id === check.kitty);
  const mayAct = ctx.isGm || (ctx.me.pieces || []).includes(check.kitty);
  if (draft.rerollCheck !== check.number + ":" + check.rerolls + ":" + check.dice.join("")) {
    draft.rerollCheck = check.number + ":" + check.rerolls + ":" + check.dice.join("");
    draft.reroll = new Set();
  }
  const diceRow = el("div", { class: "dice", role: "group", "aria-label": t("web.kitties.dice_group") }, check.dice.map((value, i) => {
    const die = renderDie({ die: "d6", face: value, success: check.hits[i] });
    if (!(mayAct && check.can_reroll)) return die;
    const pressed = draft.reroll.has(i);
    return el("button", {
      type: "button", class: "die-button", id: `reroll-die-${i}`, "aria-pressed": pressed ? "true" : "false",
      "aria-label": t("web.kitties.reroll_die", { n: i + 1, face: value }),
      onclick: () => { if (draft.reroll.has(i)) draft.reroll.delete(i); else draft.reroll.add(i); ctx.rerender(); },
    }, die);
  }));
  // The result is one focus target (tabindex -1): after a roll the keyboard lands here, and
  // the first Tab reaches the reroll dice inside it.
  const parts = [el("div", { id: "check-result", class: "check-result", tabindex: "-1" },
    el("p", {}, t("web.kitties.check_line", {
      name: kitty?.name ?? check.kitty, attribute: attrName(check.attribute), pool: check.pool, difficulty: check.difficulty, successes: check.successes,
    })),
    diceRow,
    el("p", {}, el("span", { class: "tier tier-" + check.tier, id: "check-tier" }, t("web.kitties.tier." + check.tier))))];
  if (check.foe) {
    const foe = ctx.state.foes.find((f) => f.id === check.foe);
    parts.push(el("p", { class: "muted" }, t("web.kitties.foe_auas", { foe: foe?.name ?? check.foe, auas: check.foe_auas })));
  }
  if (mayAct && check.can_reroll) {
    parts.push(el("div", { class: "row" },
      el("span", { class: "muted small-print" }, t("web.kitties.reroll_hint")),
      el("button", { type: "button", id: "reroll-all", onclick: () => { check.dice.forEach((_, i) => draft.reroll.add(i)); ctx.rerender(); } }, t("web.kitties.select_all")),
      el("button", { type: "button", id: "reroll-misses", onclick: () => { draft.reroll = new Set(check.dice.map((_, i) => i).filter((i) => !check.hits[i])); ctx.rerender(); } }, t("web.kitties.select_misses")),
      el("button", {
        type: "button", class: "primary", id: "reroll-submit", disabled: draft.reroll.size === 0,
        onclick: async () => { if (await ctx.send({ kind: "reroll", dice: [...draft.reroll].sort((a, b) => a - b) })) focusResult(); },
      }, t("web.kitties.reroll", { n: draft.reroll.size }))));
  }
  if (mayAct && check.can_reroll && draft.reroll.size) {
    const odds = ctx.oddsNow({ kind: "reroll", dice: [...draft.reroll].sort((a, b) => a - b) });
    parts.push(el("div", { id: "reroll-odds", class: "odds", "aria-live": "polite" },
      !odds ? null : odds.error ? el("p", { class: "muted" }, odds.error) : oddsChart(odds, { labeler: tierLabel, caption: t("web.kitties.reroll_odds_caption") })));
  }
  if (mayAct && check.can_accept) {
    parts.push(legal(ctx, el("button", { type: "button", id: "accept-failure", onclick: () => ctx.send({ kind: "accept_failure" }) }, t("web.kitties.accept")), { kind: "accept_failure" }));
  }
  const menu = check.menu;
  if (menu) {
    const chooserOk = menu.chooser === "gm" ? ctx.isGm : mayAct;
    if (check.outcome) {
      parts.push(el("p", {}, t("web.kitties.outcome_chosen", { entry: entryText(check.outcome) })));
    } else if (menu.open) {
      parts.push(el("h3", { id: "menu-heading" }, t("web.kitties.menu." + menu.id)));
      if (!chooserOk) parts.push(el("p", { class: "muted" }, t("web.kitties.menu_waits." + menu.chooser)));
      parts.push(el("ul", { class: "menu", "aria-labelledby": "menu-heading" }, menu.entries.map((entry) => menuItem(entry, check, ctx, chooserOk))));
    }
  }
  return el("section", { class: "card", id: "last-check", "aria-labelledby": "last-heading" }, el("h2", { id: "last-heading" }, t("web.kitties.last_check", { n: check.number })), ...parts);
}

/**
 * @param {MenuEntry} entry
 * @param {Check} check
 * @param {Ctx} ctx
 * @param {boolean} enabled
 */
function menuItem(entry, check, ctx, enabled) {
  const targets = [];
  let targetSelect = null;
  const id = "target-" + entry.id.replace(/\W/g, "-");
  const current = draft.targets[entry.id];
  if (entry.target === "kitty_other" || entry.target === "kitty_any") {
    for (const k of ctx.state.kitties) if (entry.target === "kitty_any" || k.id !== check.kitty) targets.push(["kitty:" + k.id, k.name]);
  } else if (entry.target === "foe" || entry.target === "foe_optional") {
    if (entry.target === "foe_optional") targets.push(["", t("web.kitties.no_foe")]);
    for (const f of ctx.state.foes) targets.push(["foe:" + f.id, f.name]);
  }
  if (targets.length) {
    if (current === undefined || !targets.some(([v]) => v === current)) draft.targets[entry.id] = (check.foe && targets.some(([v]) => v === "foe:" + check.foe)) ? "foe:" + check.foe : targets[0][0];
    targetSelect = el("select", { id, "aria-label": t("web.kitties.target_for", { entry: entryText(entry.id) }), disabled: !enabled, onchange: (/** @type {FieldEvent} */ e) => (draft.targets[entry.id] = e.target.value) },
      targets.map(([v, label]) => el("option", { value: v, selected: v === draft.targets[entry.id] }, label)));
  }
  const choose = () => {
    /** @type {Record<string, unknown>} */
    const command = { kind: "choose_outcome", entry: entry.id };
    const target = draft.targets[entry.id];
    if (target) {
      const [type, value] = target.split(":");
      command[type] = value;
    }
    ctx.send(command);
  };
  const needsTarget = entry.target === "kitty_other" || entry.target === "kitty_any" || entry.target === "foe";
  return el("li", { class: "row" },
    el("button", { type: "button", disabled: !enabled || (needsTarget && !targets.length), id: "entry-" + entry.id.replace(/\W/g, "-"), onclick: choose, style: "flex:1" }, entryText(entry.id)),
    targetSelect);
}

// -- foes, scene and episode ------------------------------------------------------------------

/** @param {Ctx} ctx */
function foesSection(ctx) {
  const foes = ctx.state.foes;
  const d = draft.foe;
  const list = el("ul", { class: "people" }, foes.map((f) => el("li", {},
    el("strong", {}, f.name), " · ", t("web.kitties.foe_line", { difficulty: f.difficulty, auas: f.auas, limit: f.aua_limit }),
    f.defeated ? el("span", { class: "badge undone-badge" }, " ", t("web.kitties.defeated")) : null,
    ctx.isGm && !f.defeated ? el("button", { type: "button", class: "small", id: `foe-aua-${f.id}`, "aria-label": t("web.kitties.give_aua_label", { name: f.name }), onclick: () => ctx.send({ kind: "give_aua", foe: f.id, count: 1 }) }, t("web.kitties.give_aua")) : null)));
  const form = ctx.isGm ? details("new-foe-details", t("web.kitties.new_foe"),
    el("form", {
      class: "form inline", onsubmit: (/** @type {Event} */ e) => {
        e.preventDefault();
        const name = d.name.trim();
        if (!name) { showAlert(t("web.error.required", { field: t("web.kitties.name") })); return; }
        /** @type {Record<string, unknown>} */
        const c = { kind: "create_foe", id: slug(name, new Set(foes.map((f) => f.id)), "kitty"), name };
        for (const key of ["difficulty", "aua_limit"]) {
          if (d[key] === "") continue;
          const n = Number(d[key]);
          if (!Number.isInteger(n)) { showAlert(t("web.error.bad_number", { name: t("web.kitties.foe_" + key), value: d[key] })); return; }
          c[key] = n;
        }
        ctx.send(c).then((/** @type {unknown} */ ok) => { if (ok) draft.foe = { name: "", difficulty: "", aua_limit: "" }; });
      },
    },
    field("foe-name", t("web.kitties.name"), input("foe-name", d.name, (v) => (d.name = v), { required: true })),
    el("div", { class: "grid-2" },
      field("foe-difficulty", t("web.kitties.foe_difficulty"), input("foe-difficulty", d.difficulty, (v) => (d.difficulty = v), { inputmode: "numeric", placeholder: String(ctx.state.options.foe_difficulty) })),
      field("foe-aua_limit", t("web.kitties.foe_aua_limit"), input("foe-aua_limit", d.aua_limit, (v) => (d.aua_limit = v), { inputmode: "numeric", placeholder: String(ctx.state.options.foe_aua_limit) }))),
    el("button", { type: "submit" }, t("web.kitties.create_foe")))) : null;
  if (!foes.length && !form) return null;
  return el("section", { class: "card", "aria-labelledby": "foes-heading" }, el("h2", { id: "foes-heading" }, t("web.kitties.foes")),
    foes.length ? list : el("p", { class: "muted" }, t("web.kitties.no_foes")), form);
}

/** @param {Ctx} ctx */
function statusSection(ctx) {
  const s = ctx.state;
  const chips = [
    el("span", { class: "chip" }, s.episode.running ? t("web.kitties.episode_running", { n: s.episode.number }) : t("web.kitties.episode_none", { n: s.episode.number })),
    el("span", { class: "chip" }, s.scene.running ? t("web.kitties.scene_running", { n: s.scene.number }) : t("web.kitties.scene_none")),
  ];
  const controls = [];
  if (ctx.isGm) {
    if (!s.episode.running) controls.push(legal(ctx, el("button", { type: "button", id: "start-episode", onclick: () => ctx.send({ kind: "start_episode" }) }, t("web.kitties.start_episode")), { kind: "start_episode" }));
    if (s.episode.running && !s.scene.running) controls.push(legal(ctx, el("button", { type: "button", id: "start-scene", onclick: () => ctx.send({ kind: "start_scene" }) }, t("web.kitties.start_scene")), { kind: "start_scene" }));
    if (s.scene.running) controls.push(legal(ctx, el("button", { type: "button", id: "end-scene", onclick: () => ctx.send({ kind: "end_scene" }) }, t("web.kitties.end_scene")), { kind: "end_scene" }));
  }
  return el("section", { class: "card" }, el("div", { class: "status-line" }, chips, controls),
    ctx.isGm && s.episode.running ? endEpisodeForm(ctx) : null,
    hometown(ctx));
}

/** @param {Ctx} ctx */
function endEpisodeForm(ctx) {
  const d = draft.end;
  const problems = [
    ...ctx.state.hometown.map((p) => ({ kitty: null, p, owner: null })),
    ...ctx.state.kitties.flatMap((k) => (k.human?.problems || []).map((p) => ({ kitty: k.id, p, owner: k.name }))),
  ];
  const submit = (/** @type {Event} */ e) => {
    e.preventDefault();
    const changes = [];
    for (const { kitty, p } of problems) {
      const raw = d.changes[(kitty || "") + "/" + p.id];
      if (raw === undefined || raw === "" || Number(raw) === 0) continue;
      const n = Number(raw);
      if (!Number.isInteger(n)) { showAlert(t("web.error.bad_number", { name: p.text, value: raw })); return; }
      changes.push({ kitty, problem: p.id, change: n });
    }
    ctx.send({ kind: "end_episode", saved_the_day: d.saved, fun: d.fun, lessons: [...d.lessons], problems: changes })
      .then((/** @type {unknown} */ ok) => { if (ok) draft.end = { saved: false, fun: false, lessons: new Set(), changes: {} }; });
  };
  return details("end-episode-details", t("web.kitties.end_episode"),
    el("form", { class: "form inline", onsubmit: submit, id: "end-episode-form" },
      checkbox("end-saved", t("web.kitties.q_saved"), d.saved, (v) => (d.saved = v)),
      checkbox("end-fun", t("web.kitties.q_fun"), d.fun, (v) => (d.fun = v)),
      ctx.state.kitties.length ? el("fieldset", { class: "options" }, el("legend", {}, t("web.kitties.q_lessons")),
        ctx.state.kitties.map((k) => checkbox("end-lesson-" + k.id, k.name, d.lessons.has(k.id), (v) => { if (v) d.lessons.add(k.id); else d.lessons.delete(k.id); }))) : null,
      problems.length ? el("fieldset", { class: "options" }, el("legend", {}, t("web.kitties.q_problems")),
        problems.map(({ kitty, p, owner }) => {
          const key = (kitty || "") + "/" + p.id;
          const id = "end-problem-" + (kitty || "town") + "-" + p.id;
          return field(id, owner ? `${owner}: ${p.text} (${p.rank})` : `${t("web.kitties.hometown")}: ${p.text} (${p.rank})`,
            el("input", { id, type: "number", min: -3, max: 3, value: d.changes[key] ?? 0, oninput: (/** @type {FieldEvent} */ e) => (d.changes[key] = e.target.value) }));
        })) : null,
      el("button", { type: "submit", class: "primary" }, t("web.kitties.end_episode_submit"))));
}

/** @param {Ctx} ctx */
function hometown(ctx) {
  const d = draft.problem;
  const list = ctx.state.hometown.length ? el("p", {}, t("web.kitties.hometown"), ": ", ctx.state.hometown.map((p) => `${p.text} (${p.rank})`).join("; ")) : null;
  if (!ctx.isGm) return list;
  const taken = new Set([...ctx.state.hometown.map((p) => p.id), ...ctx.state.kitties.flatMap((k) => (k.human?.problems || []).map((p) => p.id))]);
  return el("div", {}, list, details("add-problem-details", t("web.kitties.add_problem"),
    el("form", {
      class: "form inline", onsubmit: (/** @type {Event} */ e) => {
        e.preventDefault();
        const text = d.text.trim();
        if (!text) { showAlert(t("web.error.required", { field: t("web.kitties.problem_text") })); return; }
        const rank = Number(d.rank);
        if (!Number.isInteger(rank)) { showAlert(t("web.error.bad_number", { name: t("web.kitties.problem_rank"), value: d.rank })); return; }
        ctx.send({ kind: "add_problem", kitty: d.kitty || null, id: slug(text, taken, "kitty"), text, rank }).then((/** @type {unknown} */ ok) => { if (ok) draft.problem = { text: "", rank: 1, kitty: "" }; });
      },
    },
    field("problem-text", t("web.kitties.problem_text"), input("problem-text", d.text, (v) => (d.text = v), { required: true })),
    el("div", { class: "grid-2" },
      field("problem-rank", t("web.kitties.problem_rank"), el("input", { id: "problem-rank", type: "number", min: 1, max: 10, value: d.rank, oninput: (/** @type {FieldEvent} */ e) => (d.rank = e.target.value) })),
      field("problem-kitty", t("web.kitties.problem_of"), select("problem-kitty", d.kitty, [["", t("web.kitties.hometown")], ...ctx.state.kitties.map((k) => [k.id, k.name])], (v) => (d.kitty = v)))),
    el("button", { type: "submit" }, t("web.kitties.add_problem_submit")))));
}

/** Render the Magical Kitties table: the scene and the check in the middle, the sheets and
 * the foes in their regions (see docs/web-table.md, "Regions"). */
export function render(/** @type {HTMLElement} */ body, /** @type {Ctx} */ ctx) {
  body.dataset.game = "magical-kitties";
  restoreDrafts(ctx);
  const s = ctx.state;
  body.replaceChildren(...[
    statusSection(ctx),
    lastCheck(ctx),
    s.scene.running ? checkBuilder(ctx) : (mine(ctx).length ? el("p", { class: "card muted" }, t("web.kitties.no_scene")) : null),
  ].filter(Boolean));
  keepDrafts();
  return {
    sheets: [
      el("section", { class: "card", "aria-labelledby": "sheets-heading" },
        el("h2", { id: "sheets-heading" }, t("web.kitties.sheets")),
        s.kitties.length ? el("div", { class: "sheets" }, s.kitties.map((k) => sheet(k, ctx))) : el("p", { class: "muted" }, t("web.kitties.no_kitties"))),
      ctx.me.role === "spectator" ? null : createForm(ctx),
    ],
    tools: foesSection(ctx),
  };
}

// -- corrections in the log --------------------------------------------------------------------

/** @type {Record<string, string>} */
const CHANGE_LABELS = { treats_value: "treats_value_label" };

/**
 * @param {string} field
 * @param {any} value
 * @returns {string}
 */
function shownValue(field, value) {
  if (value === null || value === undefined) return t("web.kitties.change_none");
  if (field === "powers") return value.map((/** @type {import("./types.js").Power} */ p) => p.features?.length ? `${p.name} (${p.features.join(", ")})` : p.name).join(", ") || t("web.kitties.change_none");
  if (field === "human") return [value.name, ...(value.problems || []).map((/** @type {import("./types.js").Problem} */ p) => `${p.text} (${p.rank})`)].filter(Boolean).join(", ") || t("web.kitties.change_none");
  if (Array.isArray(value)) return value.join(", ") || t("web.kitties.change_none");
  return String(value);
}

/**
 * The fields a correction changed, in words: "Treats 2 → 0"; attributes one by one.
 * @param {Record<string, any>} before
 * @param {Record<string, any>} after
 * @returns {string[]}
 */
export function sheetChanges(before, after) {
  /** @type {string[]} */
  const lines = [];
  const item = (/** @type {string} */ label, /** @type {string} */ old, /** @type {string} */ now) => lines.push(t("web.kitties.change_item", { field: label, old, new: now }));
  for (const [field, now] of Object.entries(after)) {
    if (now === null || now === undefined || !(field in before)) continue;
    const old = before[field];
    if (field === "attributes") {
      for (const a of ATTRIBUTES) if (old?.[a] !== now[a]) item(attrName(a), String(old?.[a] ?? "–"), String(now[a]));
      continue;
    }
    const was = shownValue(field, old), is = shownValue(field, now);
    if (was !== is) item(t("web.kitties." + (CHANGE_LABELS[field] || field)), was, is);
  }
  return lines;
}

/**
 * One line per event for the log.
 * @param {LogEvent} event
 * @param {Ctx} ctx
 * @returns {string | null}
 */
export function describe(event, ctx) {
  const s = ctx.state;
  const kittyName = (/** @type {string} */ id) => s.kitties.find((k) => k.id === id)?.name ?? id;
  const foeName = (/** @type {string} */ id) => s.foes.find((f) => f.id === id)?.name ?? id;
  switch (event.kind) {
    case "kitty_created": return t("web.kitties.ev.kitty_created", { name: event.kitty.name });
    case "kitty_edited": {
      const changes = sheetChanges(event.before || {}, event.changes);
      return changes.length
        ? t("web.kitties.ev.kitty_edited_diff", { name: kittyName(event.kitty), changes: changes.join("; ") })
        : t("web.kitties.ev.kitty_edited", { name: kittyName(event.kitty) });
    }
    case "foe_created": return t("web.kitties.ev.foe_created", { name: event.foe.name, difficulty: event.foe.difficulty, limit: event.foe.aua_limit });
    case "check_rolled": {
      const hits = event.dice.filter((/** @type {number} */ v) => v >= event.difficulty).length;
      return t("web.kitties.ev.check_rolled", { name: kittyName(event.kitty), attribute: attrName(event.attribute), difficulty: event.difficulty, count: hits, tier: t("web.kitties.tier." + Math.min(hits, 4)) });
    }
    case "dice_rerolled": return t("web.kitties.ev.dice_rerolled", { name: kittyName(event.kitty), n: event.indexes.length });
    case "outcome_chosen": return t("web.kitties.ev.outcome_chosen", { entry: entryText(event.entry) });
    case "auas_taken": return t("web.kitties.ev.auas_taken", { name: event.kitty ? kittyName(event.kitty) : foeName(event.foe), count: event.count ?? 1 });
    default: return tFirst([`web.kitties.ev.${event.kind}`], { ...event, name: event.kitty ? kittyName(event.kitty) : "" }, null);
  }
}

/**
 * The dice of an event: checks show their dice, rerolls the new values.
 * @param {LogEvent} event
 */
export function diceOf(event) {
  if (event.kind === "check_rolled") return event.dice.map((/** @type {number} */ v) => ({ die: "d6", face: v, success: v >= event.difficulty }));
  if (event.kind === "dice_rerolled") return event.values.map((/** @type {number} */ v) => ({ die: "d6", face: v }));
  return [];
}
