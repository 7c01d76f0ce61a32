// @ts-check
// The chat panel of every table: say to everyone, whisper to one participant, `/r 2W6+3`.
// The server decides who sees a whisper; this module only shows the records it was sent.
import { el, t } from "./core.js";
import { renderDice, rollResult } from "./dice.js";
import { byId } from "./helpers.js";

/** @typedef {import("./types.js").TableRecord} TableRecord */
/** @typedef {import("./types.js").TableContext} TableContext */
/** @typedef {import("./types.js").Participant} Participant */

const KINDS = new Set(["say", "whisper"]);
const draft = { text: "", to: "" };

/** Whether a record is a chat record (`say` or `whisper`).
 * @param {TableRecord | null | undefined} record
 * @returns {boolean} */
export function isChat(record) {
  return KINDS.has(record?.command?.kind);
}

/** @param {Participant} p
 * @returns {string} */
function idOf(p) {
  return /** @type {string} */ (p.participant ?? p.id);
}

/** Who `ctx.me` may whisper to: the GM anyone, a player the GM and the other players.
 * @param {TableContext} ctx
 * @returns {Participant[]} */
function recipients(ctx) {
  const mine = ctx.me.participant;
  return (ctx.info.participants || []).filter((/** @type {Participant} */ p) => idOf(p) !== mine
    && (ctx.isGm || p.role !== "spectator"));
}

/** The log's headline of a chat record: who said it, or who whispered to whom.
 * @param {TableRecord} record
 * @param {TableContext} ctx
 * @returns {string | null} */
export function summary(record, ctx) {
  if (!isChat(record)) return null;
  const who = ctx.actorName(record.actor);
  if (record.command.kind === "whisper") {
    return t("web.chat.whispered", { who, to: ctx.actorName(record.command.to) });
  }
  return t("web.chat.said", { who });
}

/** The notation of an inline roll as typed: the message after /r (or /roll), before its #.
 * @param {string | undefined} text
 * @returns {string | null} */
function written(text) {
  const match = /^\s*\/(?:roll|r)(?:\s+|$)([^#]*)/i.exec(text || "");
  return match && match[1].trim() ? match[1].trim() : null;
}

/** The log's line of a chat event: the message, and the roll's result.
 * @param {any} event
 * @returns {string | null} */
export function describe(event) {
  if (event?.kind !== "said") return null;
  const roll = event.roll;
  if (!roll) return event.text;
  const expression = written(event.text) || roll.expression;
  const params = { expression, result: rollResult(roll), comment: roll.comment };
  return t(roll.comment ? "web.chat.rolled_comment" : "web.chat.rolled", params);
}

/** @param {TableRecord} record @param {TableContext} ctx */
function message(record, ctx) {
  const event = (record.events || [])[0] || {};
  const whisper = record.command.kind === "whisper";
  const dice = event.roll?.dice?.length ? renderDice(event.roll.dice, { size: 28 }) : null;
  return el("li", {
    class: "chat-message" + (whisper ? " is-whisper" : "") + (record.hidden ? " is-hidden" : ""),
    dataset: { seq: String(record.seq), kind: record.command.kind },
  },
  el("p", { class: "chat-head" }, summary(record, ctx),
    whisper ? el("span", { class: "badge whisper-badge" }, t("web.chat.whisper_badge")) : null),
  el("p", { class: "chat-text" }, describe(event) ?? ""),
  dice ? el("div", { class: "chat-dice" }, dice) : null);
}

/** The chat's section, made (before the log's) on the first call.
 * @returns {HTMLElement} */
function mount() {
  const there = document.getElementById("chat");
  if (there) return there;
  const box = el("section", { id: "chat", class: "card chat", "aria-labelledby": "chat-heading" });
  const log = document.getElementById("log")?.closest("section");
  if (log) log.before(box);
  else byId("table").append(box);
  return box;
}

/** @param {TableContext} ctx */
function form(ctx) {
  const select = el("select", { id: "chat-to", onchange: (/** @type {Event} */ e) => (draft.to = /** @type {HTMLSelectElement} */ (e.target).value) });
  const input = el("textarea", {
    id: "chat-text", rows: 2, maxlength: 1000, autocomplete: "off",
    "aria-describedby": "chat-hint", oninput: (/** @type {Event} */ e) => (draft.text = /** @type {HTMLTextAreaElement} */ (e.target).value),
    onkeydown: (/** @type {KeyboardEvent} */ e) => {
      if (e.key === "Enter" && !e.shiftKey) { e.preventDefault(); /** @type {HTMLTextAreaElement} */ (e.target).form?.requestSubmit(); }
    },
  });
  /** @type {HTMLTextAreaElement} */ (input).value = draft.text;
  return el("form", {
    id: "chat-form", class: "form",
    onsubmit: async (/** @type {SubmitEvent} */ e) => {
      e.preventDefault();
      const text = draft.text;
      if (!text.trim()) return;
      const command = draft.to ? { kind: "whisper", to: draft.to, text } : { kind: "say", text };
      const answer = await ctx.send(command);
      if (answer) {
        draft.text = "";
        const field = /** @type {HTMLTextAreaElement | null} */ (document.getElementById("chat-text"));
        if (field) { field.value = ""; field.focus(); }
      }
    },
  },
  el("div", { class: "field" }, el("label", { for: "chat-to" }, t("web.chat.to")), select),
  el("div", { class: "field" }, el("label", { for: "chat-text" }, t("web.chat.message")), input),
  el("p", { id: "chat-hint", class: "muted small-print" }, t("web.chat.hint")),
  el("button", { type: "submit", id: "chat-send", class: "primary" }, t("web.chat.send")));
}

/** @param {HTMLSelectElement} select @param {TableContext} ctx */
function options(select, ctx) {
  const people = recipients(ctx);
  if (!people.some((p) => idOf(p) === draft.to)) draft.to = "";
  select.replaceChildren(
    el("option", { value: "" }, t("web.chat.everyone")),
    ...people.map((p) => el("option", { value: idOf(p) }, t("web.chat.whisper_to", { name: ctx.actorName(idOf(p)) }))));
  select.value = draft.to;
}

/** Draw (or update) the chat panel: the messages this viewer was sent, and the form.
 * @param {TableContext} ctx */
export function render(ctx) {
  const box = mount();
  if (!box.dataset.ready) {
    box.dataset.ready = "1";
    box.replaceChildren(
      el("h2", { id: "chat-heading" }, t("web.chat.heading")),
      el("ol", { id: "chat-messages", class: "chat-messages", tabindex: "0", "aria-labelledby": "chat-heading", "aria-live": "polite", "aria-relevant": "additions" }),
      el("p", { id: "chat-empty", class: "muted" }, t("web.chat.empty")));
  }
  const records = ctx.records.filter(isChat).sort((a, b) => a.seq - b.seq);
  const undone = new Set(ctx.records.filter((r) => r.undoes != null).map((r) => r.undoes));
  const list = byId("chat-messages");
  list.replaceChildren(...records.filter((r) => !undone.has(r.seq)).map((r) => message(r, ctx)));
  list.scrollTop = list.scrollHeight;
  byId("chat-empty").hidden = records.length > 0;
  const writes = ctx.me.role !== "spectator";
  let chatForm = /** @type {HTMLFormElement | null} */ (box.querySelector("#chat-form"));
  if (writes && !chatForm) {
    chatForm = /** @type {HTMLFormElement} */ (form(ctx));
    box.append(chatForm);
  }
  if (chatForm) options(/** @type {HTMLSelectElement} */ (byId("chat-to")), ctx);
  if (!writes && !box.querySelector("#chat-readonly")) {
    box.append(el("p", { id: "chat-readonly", class: "muted small-print" }, t("web.chat.spectator")));
  }
}
