// @ts-check
// Buttons that cannot work now are disabled, with the reason as their title.
//
// A game page hands each button the command it would send (`legal(ctx, button, command)`);
// the buttons of one render are asked about together in one `POST /api/tables/{id}/check`,
// which the server decides on the caller's own fold with the same rules as executing. A
// refused command disables its button and puts the localized reason in its `title` (and in
// `data-reason`, for tests and styles). The answers are kept per log position, so a re-render
// without a new record asks nothing again. Answers for a log position that is no longer the
// newest are dropped: a record that came while they were asked made a new render, whose
// buttons stand in the page and are asked about anew (the old answers speak of a state that
// is gone). The root's `data-legal-asking` says how many renders' askings are under way
// (their answers neither shown nor dropped yet), for tests.
import { api } from "./core.js";
import { live } from "./morph.js";

/** @typedef {{ ok: boolean, error?: { message: string, code: string } }} Answer */
/** @typedef {{ table: string, token: string | null, records: { seq: number }[] }} Ctx */

/** @type {[HTMLButtonElement, string][]} */
let pending = [];          // [button, key] of the render being built
/** @type {Map<string, Answer>} */
let answers = new Map();   // key of a command -> its answer, for `answeredAt`
let answeredAt = -1;       // the log position `answers` hold for
let asking = 0;            // renders whose asking is under way

// A command is asked about as an open or as a hidden record (a secret combatant's commands
// are hidden ones): the key keeps both apart.
/**
 * @param {unknown} command
 * @param {boolean} hidden
 */
function keyOf(command, hidden) {
  return (hidden ? "hidden:" : "open:") + JSON.stringify(command);
}

/**
 * @param {HTMLButtonElement} button
 * @param {Answer | undefined} answer
 */
function apply(button, answer) {
  if (!answer || answer.ok || !answer.error) return;
  button.disabled = true;
  button.title = answer.error.message;
  button.dataset.reason = answer.error.code;
}

/**
 * @param {Ctx} ctx
 * @param {string[]} keys
 * @param {boolean} hidden
 * @param {Map<string, Answer>} into the answers of the log position asked at
 */
async function ask(ctx, keys, hidden, into) {
  const commands = keys.map((key) => JSON.parse(key.slice(key.indexOf(":") + 1)));
  const reply = await api("POST", `/api/tables/${ctx.table}/check`, { token: ctx.token, body: { commands, hidden } });
  keys.forEach((key, i) => into.set(key, /** @type {Answer} */ (reply.results[i])));
}

/** @param {Ctx} ctx */
async function flush(ctx) {
  const batch = pending;
  pending = [];
  document.documentElement.dataset.legalAsking = String(++asking);
  // The records the person sees: a new one may change the answers, nothing else can.
  const seq = ctx.records.reduce((last, record) => Math.max(last, record.seq), 0);
  if (seq !== answeredAt) { answers = new Map(); answeredAt = seq; }
  const known = answers;
  const unknown = [...new Set(batch.map(([, key]) => key))].filter((key) => !known.has(key));
  try {
    for (const hidden of [false, true]) {
      const keys = unknown.filter((key) => key.startsWith(hidden ? "hidden:" : "open:"));
      if (keys.length) await ask(ctx, keys, hidden, known);
    }
    // The buttons of the render were patched into the page: the answer goes to those there,
    // unless a newer record came meanwhile (the render it made asks about them anew).
    if (seq === answeredAt) for (const [button, key] of batch) apply(live(button), known.get(key));
  } catch {
    // offline or refused: the buttons stay as they are, sending explains
  } finally {
    document.documentElement.dataset.legalAsking = String(--asking);
  }
}

/** Disable `button` (with the reason as its title) if `command` would be refused now;
 * returns the button, so it can stand inside `el(...)`. With `{ hidden: true }` the command
 * is asked about as a hidden record (the GM's commands for a secret piece).
 * @template {HTMLButtonElement} B
 * @param {Ctx} ctx
 * @param {B} button
 * @param {unknown} command
 * @param {{ hidden?: boolean }} [options]
 * @returns {B}
 */
export function legal(ctx, button, command, { hidden = false } = {}) {
  if (!pending.length) queueMicrotask(() => flush(ctx));
  pending.push([button, keyOf(command, hidden)]);
  return button;
}
