// @ts-check
// D&D 5e checks and contests at the table: the GM's ability check with its odds before the
// roll, the chance of a Hide, of an escape and of the DC 10 checks of a jump, and the log lines
// of what they rolled, outcome first. Every chance is the server's (`odds` of the command);
// the page only asks and shows.
import { percent } from "../../helpers.js";
import { el, showAlert, t } from "../../core.js";
import { field, numberInput, select, textInput } from "../../forms.js";

/**
 * A check as the events carry it (a Hide's, a Search's, a contest's side, a jump's).
 * @typedef {{ skill?: string | null, ability: string, d20?: number[], mode?: string,
 *   dc?: number | null, total: number, succeeded?: boolean }} CheckRoll
 * @typedef {{ kind: "check_rolled", creature: string, roll: CheckRoll, helped?: boolean }} CheckRolled
 * @typedef {{ kind: "contested", creature: string, target: string, action: string, won: boolean,
 *   active: CheckRoll, passive: CheckRoll, push_to?: string | null }} Contested
 * @typedef {{ kind: "action_taken", creature: string, action: string, target?: string | null,
 *   foe?: string | null, help?: string | null, task?: string | null, check?: CheckRoll | null, found?: string[] }} ActionTaken
 * @typedef {{ kind: string, rolls?: CheckRoll[] }} Moved a move (its jump checks)
 * @typedef {{ kind: string }} AnyEvent any event of the table
 * @typedef {{ seq: number, undoes?: number | null, events?: AnyEvent[] }} LogRecord
 * @typedef {{ value: unknown, probability: number, exact: string }} Outcome
 * @typedef {{ outcomes?: Outcome[], mean?: number, failed?: string }} Answer the server's odds,
 *   or `failed` with the reason it refused the command
 * @typedef {{ records: LogRecord[], oddsNow: (command: Command) => any, rerender: () => void }} Ctx
 *   the part of the table's context these lines use
 * @typedef {{ id: string, name: string, dead?: boolean }} Creature
 * @typedef {(id: string) => string} NameOf
 * @typedef {{ kind: string, [field: string]: unknown }} Command
 */

/** The SRD skills by id, each with its ability (as the server's data/skills.json). */
export const SKILLS = {
  acrobatics: "dex", animal_handling: "wis", arcana: "int", athletics: "str", deception: "cha",
  history: "int", insight: "wis", intimidation: "cha", investigation: "int", medicine: "wis",
  nature: "int", perception: "wis", performance: "cha", persuasion: "cha", religion: "int",
  sleight_of_hand: "dex", stealth: "dex", survival: "wis",
};
export const ABILITIES = ["str", "dex", "con", "int", "wis", "cha"];
const ROLL_MODES = ["advantage", "normal", "disadvantage"];

/** What the GM is typing into the check form; kept across re-renders. */
const form = { creature: "", what: "skill:athletics", dc: "", bonus: "", modifier: "", mode: "normal" };

/** The server's odds of `command` from the page's one odds cache (`odds.js`): null until they
 * first arrive, `{failed}` with the reason when the server refuses the command.
 * @param {Ctx} ctx
 * @param {Command | null | undefined} command
 * @returns {Answer | null}
 */
export function oddsOf(ctx, command) {
  if (!command) return null;
  const answer = ctx.oddsNow(command);
  return answer?.error ? { failed: answer.error } : answer;
}

/** The chance of one outcome of `odds` ("hidden", "win", "success") in words with its exact
 * fraction, in an element with `id`; null while the odds are on the way.
 * @param {string} id
 * @param {string} key the text's key, with `{p}`
 * @param {Answer | null} odds
 * @param {unknown} value
 */
export function chanceLine(id, key, odds, value) {
  const found = odds?.outcomes?.find((o) => o.value === value);
  if (!found) return null;
  return el("p", { id, class: "dd-chance" }, t(key, { p: percent(found.probability) }), " ", el("span", { class: "exact" }, `(${found.exact})`));
}

/** The GM's choice of advantage, normal or disadvantage for one roll (the tracked sources
 * still count on top).
 * @param {string} id
 * @param {string} value
 * @param {(e: Event & { target: HTMLInputElement }) => void} onchange
 */
export function rollModeField(id, value, onchange) {
  return field(t("web.dnd5e.roll_mode"), select(id, ROLL_MODES.map((m) => /** @type {[string, string]} */ ([m, t("web.dnd5e.mode." + m)])), value, { onchange }));
}

/** `command` with the GM-only flag of the chosen mode.
 * @template {Command | null | undefined} C
 * @param {C} command
 * @param {string} mode
 * @returns {C}
 */
export function withRollMode(command, mode) {
  if (!command || mode === "normal") return command;
  return { ...command, [mode]: true };
}

/** A check's skill or ability in words ("Athletics", "Strength").
 * @param {CheckRoll} roll
 */
function skillName(roll) {
  return roll.skill ? t("web.dnd5e.skill." + roll.skill) : t("web.dnd5e.ability." + roll.ability);
}

/** The d20 a check kept (the higher of two with advantage, the lower with disadvantage).
 * @param {CheckRoll} roll
 * @returns {number | undefined}
 */
function kept(roll) {
  const d20 = roll.d20 || [];
  if (d20.length < 2) return d20[0];
  return roll.mode === "advantage" ? Math.max(...d20) : Math.min(...d20);
}

// -- the GM's ability check ------------------------------------------------------------------

/** A whole number typed in a field within [min, max]: the number, "" for an empty field, or
 * null for anything else.
 * @param {string} text
 * @param {number} min
 * @param {number} max
 * @returns {number | "" | null}
 */
function whole(text, min, max) {
  const typed = String(text).trim();
  if (!typed) return "";
  const n = Number(typed);
  return Number.isInteger(n) && n >= min && n <= max ? n : null;
}

/** The check command the form describes, or `{error, focus}` naming what is wrong.
 * @returns {{ command?: Command, error?: string, focus?: string }}
 */
function checkCommand() {
  const dc = whole(form.dc, 1, 40);
  if (dc === "") return { error: t("web.dnd5e.check_form.dc_missing"), focus: "dd-check-dc" };
  if (dc === null) return { error: t("web.dnd5e.check_form.dc_bad", { value: form.dc.trim() }), focus: "dd-check-dc" };
  const bonus = whole(form.bonus, -20, 30);
  if (bonus === null) return { error: t("web.dnd5e.check_form.bonus_bad", { value: form.bonus.trim() }), focus: "dd-check-bonus" };
  const modifier = whole(form.modifier, -10, 10);
  if (modifier === null) return { error: t("web.dnd5e.check_form.modifier_bad", { value: form.modifier.trim() }), focus: "dd-check-modifier" };
  const [kind, name] = form.what.split(":");
  /** @type {Command} */
  const command = { kind: "check", creature: form.creature, dc, [kind === "skill" ? "skill" : "ability"]: name };
  if (bonus !== "") command.bonus = bonus;
  if (modifier) command.modifier = modifier;
  return { command: withRollMode(command, form.mode) };
}

/** The latest check record the viewer sees that is not undone (its event), or null.
 * @param {Ctx} ctx
 * @param {string} kind
 * @returns {AnyEvent | null}
 */
function latest(ctx, kind) {
  const undone = new Set(ctx.records.filter((r) => r.undoes != null).map((r) => r.undoes));
  /** @type {{ seq: number, event: AnyEvent } | null} */
  let found = null;
  for (const record of ctx.records) {
    if (record.undoes != null || undone.has(record.seq) || (found && found.seq > record.seq)) continue;
    const event = (record.events || []).find((e) => e.kind === kind);
    if (event) found = { seq: record.seq, event };
  }
  return found?.event ?? null;
}

/** The result line of the latest ability check, outcome first.
 * @param {Ctx} ctx
 * @param {NameOf} nameOf
 */
function checkResult(ctx, nameOf) {
  const event = /** @type {CheckRolled | null} */ (latest(ctx, "check_rolled"));
  if (!event) return el("p", { id: "dd-check-result", tabindex: "-1", class: "muted small-print" }, t("web.dnd5e.check_form.none_yet"));
  return el("p", {
    id: "dd-check-result", tabindex: "-1", "aria-live": "polite", class: "dd-save-result " + (event.roll.succeeded ? "is-ok" : "is-fail"),
    dataset: { succeeded: String(event.roll.succeeded) },
  }, checkText(event, nameOf));
}

/** The GM's ability check (under Tools): creature (the one whose turn it is to begin with),
 * skill or ability, DC, bonus (empty: the sheet's), a situational modifier and the roll
 * mode; P(success) with its exact fraction before the roll, the result after it. A value
 * that is no number in range is named below the form and, when rolled, in the alert; nothing
 * is sent.
 * `sendFor(f, command)` sends it (hidden for a secret creature).
 * @param {Ctx} ctx
 * @param {{ fighters: Creature[], current: string | null | undefined, nameOf: NameOf,
 *   sendFor: (f: Creature | undefined, command: Command | undefined) => Promise<unknown> }} parts
 */
export function checkForm(ctx, { fighters, current, nameOf, sendFor }) {
  const able = fighters.filter((f) => !f.dead);
  if (!able.length) return null;
  const creature = able.some((f) => f.id === form.creature) ? form.creature : (able.find((f) => f.id === current) || able[0]).id;
  const f = able.find((x) => x.id === creature);
  const built = checkCommand();
  if (built.command) built.command.creature = creature;
  const odds = oddsOf(ctx, built.command);
  const set = (/** @type {keyof typeof form} */ key) => (/** @type {Event} */ e) => { form[key] = /** @type {HTMLInputElement} */ (e.target).value; ctx.rerender(); };
  const roll = async (/** @type {Event} */ e) => {
    e.preventDefault();
    if (built.error) { showAlert(built.error); document.getElementById(built.focus || "")?.focus(); return; }
    const answer = await sendFor(f, built.command);
    if (answer) document.getElementById("dd-check-result")?.focus();
  };
  /** @type {[string, string][]} */
  const choices = [
    ...Object.entries(SKILLS).map(([skill, ability]) => /** @type {[string, string]} */ (["skill:" + skill, t("web.dnd5e.check_form.skill", { skill: t("web.dnd5e.skill." + skill), ability: t("web.dnd5e.ability." + ability) })])),
    ...ABILITIES.map((a) => /** @type {[string, string]} */ (["ability:" + a, t("web.dnd5e.check_form.ability", { ability: t("web.dnd5e.ability." + a) })])),
  ];
  // The page names a bad value itself (in words), not the browser's own bubble.
  return el("form", { class: "form", id: "dd-check-form", novalidate: true, onsubmit: roll },
    el("h3", {}, t("web.dnd5e.check_form.heading")),
    el("div", { class: "row" },
      field(t("web.dnd5e.save_creature"), select("dd-check-creature", able.map((x) => /** @type {[string, string]} */ ([x.id, x.name])), creature, { onchange: set("creature") })),
      field(t("web.dnd5e.check_form.what"), select("dd-check-what", choices, form.what, { onchange: set("what") })),
      field(t("web.dnd5e.save_dc"), numberInput("dd-check-dc", form.dc, { min: 1, max: 40, required: true, "aria-required": "true", oninput: set("dc") })),
      field(t("web.dnd5e.check_form.bonus"), numberInput("dd-check-bonus", form.bonus, { min: -20, max: 30, placeholder: t("web.dnd5e.check_form.from_sheet"), oninput: set("bonus") })),
      field(t("web.dnd5e.check_form.modifier"), textInput("dd-check-modifier", form.modifier, { maxlength: 4, inputmode: "numeric", placeholder: "±0", oninput: set("modifier") })),
      rollModeField("dd-check-mode", form.mode, set("mode"))),
    built.error ? el("p", { class: "muted small-print", id: "dd-check-why" }, built.error) : null,
    odds?.failed ? el("p", { class: "dd-refused", id: "dd-check-why" }, odds.failed) : chanceLine("dd-check-odds", "web.dnd5e.check_form.odds", odds, "success"),
    el("button", { type: "submit", class: "primary", id: "dd-check-roll", disabled: !form.dc.trim(), title: built.error || null }, t("web.dnd5e.check_form.roll", { name: nameOf(creature) })),
    checkResult(ctx, nameOf));
}

// -- what the log says -----------------------------------------------------------------------

/** An ability check's line, outcome first.
 * @param {CheckRolled} event
 * @param {NameOf} nameOf
 */
function checkText(event, nameOf) {
  const roll = event.roll;
  const mode = roll.mode === "normal" ? "" : t("web.dnd5e.ev.attack_mode", { mode: t("web.dnd5e.mode." + roll.mode) });
  return t(roll.succeeded ? "web.dnd5e.ev.check_made" : "web.dnd5e.ev.check_failed", {
    name: nameOf(event.creature), skill: skillName(roll), dc: roll.dc, natural: kept(roll), total: roll.total, mode,
  }) + (event.helped ? " " + t("web.dnd5e.ev.check_helped") : "");
}

/** A contest's line: who won (or that a tie changes nothing) and what it did.
 * @param {Contested} event
 * @param {NameOf} nameOf
 */
function contestText(event, nameOf) {
  const params = {
    name: nameOf(event.creature), target: nameOf(event.target), action: t("web.dnd5e.contest_ev." + event.action),
    active: event.active.total, passive: event.passive.total,
    active_skill: skillName(event.active), passive_skill: skillName(event.passive), square: event.push_to || "",
  };
  if (!event.won) return t(event.active.total === event.passive.total ? "web.dnd5e.ev.contest_tied" : "web.dnd5e.ev.contest_lost", params) + " " + t("web.dnd5e.ev.contest_skills", params);
  return t("web.dnd5e.ev.contest_won", params) + " " + t("web.dnd5e.ev.contest_then." + event.action, params) + " " + t("web.dnd5e.ev.contest_skills", params);
}

/** An action's line where the action decided something: Hide and Search with their checks,
 * Help with whom and what it helps; null for the others.
 * @param {ActionTaken} event
 * @param {NameOf} nameOf
 */
function actionText(event, nameOf) {
  const name = nameOf(event.creature);
  if (event.action === "hide" && event.check) {
    return t(event.check.succeeded ? "web.dnd5e.ev.hid" : "web.dnd5e.ev.hide_failed", { name, total: event.check.total, dc: event.check.dc, natural: kept(event.check) });
  }
  if (event.action === "search" && event.check) {
    const found = event.found || [];
    return found.length
      ? t("web.dnd5e.ev.search_found", { name, total: event.check.total, names: found.map(nameOf).join(", ") })
      : t("web.dnd5e.ev.search_nothing", { name, total: event.check.total });
  }
  if (event.action === "help" && event.target) {
    if (event.help === "check" && event.task) return t("web.dnd5e.ev.help_task", { name, ally: nameOf(event.target), task: taskName(event.task) });
    return event.help === "check"
      ? t("web.dnd5e.ev.help_check", { name, ally: nameOf(event.target) })
      : t("web.dnd5e.ev.help_attack", { name, ally: nameOf(event.target), foe: event.foe ? nameOf(event.foe) : t("web.dnd5e.someone") });
  }
  return null;
}

/** The jump checks a move rolled, outcome first ("Athletics check 14 against DC 10: made.").
 * @param {Moved} event
 */
export function jumpRolls(event) {
  return (event.rolls || []).map((r) => t(r.succeeded ? "web.dnd5e.ev.jump_made" : "web.dnd5e.ev.jump_failed", { skill: skillName(r), total: r.total, dc: r.dc, natural: kept(r) })).join(" ");
}

/** The log line of a check, contest or action event (null: not one of them).
 * @param {AnyEvent} event
 * @param {NameOf} nameOf
 */
export function describeCheck(event, nameOf) {
  if (event.kind === "check_rolled") return checkText(/** @type {CheckRolled} */ (event), nameOf);
  if (event.kind === "contested") return contestText(/** @type {Contested} */ (event), nameOf);
  if (event.kind === "action_taken") return actionText(/** @type {ActionTaken} */ (event), nameOf);
  return null;
}

/** The d20s of one check as the log draws them (the one not kept faded).
 * @param {CheckRoll} roll
 */
function d20s(roll) {
  const keep = kept(roll);
  let taken = false;
  return (roll.d20 || []).map((v) => {
    const mine = !taken && v === keep;
    if (mine) taken = true;
    return { die: "d20", sides: 20, face: v, kept: mine };
  });
}

/** The dice of a check, contest, Hide or Search, or of a move's jump checks; null for an
 * event that is none of them.
 * @param {AnyEvent} event
 */
export function checkDice(event) {
  if (event.kind === "check_rolled") return d20s(/** @type {CheckRolled} */ (event).roll);
  if (event.kind === "contested") {
    const contest = /** @type {Contested} */ (event);
    return [...d20s(contest.active), ...d20s(contest.passive)];
  }
  if (event.kind === "action_taken") {
    const check = /** @type {ActionTaken} */ (event).check;
    return check ? d20s(check) : [];
  }
  if (event.kind === "moved") return (/** @type {Moved} */ (event).rolls || []).flatMap(d20s);
  return null;
}

/** The name of a task Help names: a skill (with its ability) or an ability.
 * @param {string} task */
export function taskName(task) {
  const ability = /** @type {Record<string, string>} */ (SKILLS)[task];
  return ability
    ? t("web.dnd5e.check_form.skill", { skill: t("web.dnd5e.skill." + task), ability: t("web.dnd5e.ability." + ability) })
    : t("web.dnd5e.check_form.ability", { ability: t("web.dnd5e.ability." + task) });
}

/** The tasks Help on a check may name: every skill, then every ability ([value, label]).
 * @returns {[string, string][]} */
export function taskChoices() {
  return [...Object.keys(SKILLS), ...ABILITIES].map((task) => [task, taskName(task)]);
}
