// Buttons that cannot work now are disabled, with the reason as their title.
//
// A game page hands each button the command it would send (`legal(ctx, button, command)`);
// the buttons of one render are asked about together in one `POST /api/tables/{id}/check`,
// which the server decides on the caller's own fold with the same rules as executing. A
// refused command disables its button and puts the localized reason in its `title` (and in
// `data-reason`, for tests and styles). The answers are kept per log position, so a re-render
// without a new record asks nothing again.
import { api } from "./core.js";

let pending = [];          // [button, command] of the render being built
let answers = new Map();   // JSON of a command -> its answer, for `answeredAt`
let answeredAt = -1;       // the log position `answers` hold for

function apply(button, answer) {
  if (!answer || answer.ok) return;
  button.disabled = true;
  button.title = answer.error.message;
  button.dataset.reason = answer.error.code;
}

async function flush(ctx) {
  const batch = pending;
  pending = [];
  // The records the person sees: a new one may change the answers, nothing else can.
  const seq = ctx.records.reduce((last, record) => Math.max(last, record.seq), 0);
  if (seq !== answeredAt) { answers = new Map(); answeredAt = seq; }
  const unknown = [...new Set(batch.map(([, command]) => JSON.stringify(command)))].filter((key) => !answers.has(key));
  if (unknown.length) {
    let reply;
    try {
      reply = await api("POST", `/api/tables/${ctx.table}/check`, { token: ctx.token, body: { commands: unknown.map((key) => JSON.parse(key)) } });
    } catch {
      return;  // offline or refused: the buttons stay as they are, sending explains
    }
    unknown.forEach((key, i) => answers.set(key, reply.results[i]));
  }
  for (const [button, command] of batch) apply(button, answers.get(JSON.stringify(command)));
}

/** Disable `button` (with the reason as its title) if `command` would be refused now;
 * returns the button, so it can stand inside `el(...)`. */
export function legal(ctx, button, command) {
  if (!pending.length) queueMicrotask(() => flush(ctx));
  pending.push([button, command]);
  return button;
}
