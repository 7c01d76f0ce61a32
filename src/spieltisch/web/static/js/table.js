// @ts-check
// The table page: join by invite, the game panel, the live log, people, fair dice, GM tools.
import { ApiError, PAGE, api, ask, clearAlert, copyText, el, forgetTable, guarded, initLanguageSwitch, inviteFromFragment, inviteUrl, myTable, saveTable, showAlert, systemName, t, tFirst } from "./core.js";
import { animateRoll, reducedMotion, renderDice } from "./dice.js";
import { initChimeToggle, initSoundToggle, rattle } from "./sound.js";
import { updateNotices } from "./notices.js";
import { verifyExport } from "./verify.js";
import { loadGame } from "./games.js";
import { loadCommands } from "./schemaform.js";
import { applyPatch } from "./patch.js";
import { askOdds, oddsNow, shownEarlier } from "./odds.js";
import { keepForms } from "./drafts.js";
import { live, morph, patch } from "./morph.js";
import * as chat from "./chat.js";
import { byId } from "./helpers.js";

/** @typedef {import("./types.js").TableRecord} TableRecord */
/** @typedef {import("./types.js").Participant} Participant */
/** @typedef {import("./types.js").ShownDie} ShownDie */
/** @typedef {import("./types.js").GameModule} GameModule */

const TABLE = PAGE.table;

/** How many records the log reads at once: the latest on loading, older ones on request. */
const LOG_PAGE = 100;

/**
 * What the page holds of the table: `info` (title, game, people, fair dice; as the server
 * tells it), the log's records by seq, the game's view (`state`) and the live connection.
 * @type {{ info: any, records: Map<number, TableRecord>, state: any, stateSeq: number,
 *   askedSnapshot: boolean, seq: number, older: boolean, hidden: boolean, socket: WebSocket | null,
 *   retry: number, verification: any, game: GameModule | null, lastError: unknown, loaded: boolean,
 *   gone: boolean, announced: Set<number>, deciding: boolean }}
 */
const view = {
  info: null,
  records: new Map(),
  state: null,
  stateSeq: -1,        // the table's seq the state is the view of (patches name their base)
  askedSnapshot: false,
  seq: 0,
  older: false,        // the server holds older records this page has not read
  hidden: false,
  socket: null,
  retry: 0,
  verification: null,
  game: null,
  lastError: null,
  loaded: false,       // the first load is done: records from now on are news
  gone: false,         // this browser's token was revoked (left or removed)
  announced: new Set(),  // the records already known (shown in a toast or there before)
  deciding: false,     // a decision waits for this viewer: the dice notice stays out of its way
};

function entry() {
  return myTable(TABLE);
}

function token() {
  return entry()?.token || null;
}

/** @returns {GameModule} */
function game() {
  return view.game || generic;
}

/** @returns {any} */
function me() {
  return view.info?.me || {};
}

function isGm() {
  return me().role === "gm";
}

/** A participant's id (the server names it `participant` or `id`).
 * @param {Participant} p
 * @returns {string} */
function participantId(p) {
  return /** @type {string} */ (p.participant ?? p.id);
}

/** A participant's display name by id ("auto" is the table itself, e.g. an AI seat).
 * @param {string} id
 * @returns {string} */
export function actorName(id) {
  if (id === "auto") return t("web.actor.auto");
  const p = (view.info?.participants || []).find((/** @type {Participant} */ x) => participantId(x) === id);
  if (!p) return t("web.actor.unknown");
  return p.name || t("web.role." + p.role);
}

// -- context handed to the game modules ------------------------------------------------------

const ctx = {
  get info() { return view.info; },
  get state() { return view.state; },
  get me() { return me(); },
  get isGm() { return isGm(); },
  get records() { return [...view.records.values()]; },
  get table() { return TABLE; },
  get token() { return token(); },
  /** The error of the last `send` that failed (its `code`, `message`, `position`), or null. */
  get lastError() { return view.lastError; },
  actorName,
  rerender: () => renderGame(),
  /** Send a command; resolves to the answer or null (the error is shown, nothing changed). */
  send: async (/** @type {any} */ command, /** @type {{ hidden?: boolean }} */ options = {}) => {
    clearAlert();
    const hidden = options.hidden ?? (isGm() && view.hidden);
    view.lastError = null;
    const answer = await guarded(() => api("POST", `/api/tables/${TABLE}/commands`, {
      token: token(), body: { command, hidden, expected_seq: null },
    }).catch((error) => { view.lastError = error; throw error; }));
    if (answer) applyAnswer(answer);
    return answer;
  },
  /** The exact odds of a command before it is sent: a promise (asked once per view, `odds.js`). */
  odds: (/** @type {any} */ command) => askOdds(view.state, command, fetchOdds),
  /** The exact odds of a command if known (`{error}` when refused), else null: the game is
   * drawn again when they arrive. */
  oddsNow: (/** @type {any} */ command) => oddsNow(view.state, command, fetchOdds, () => renderGame()),
};

/** Ask the server for the exact odds of a command (`odds.js` keeps the answers). */
/** @param {any} command */
function fetchOdds(command) {
  return api("POST", `/api/tables/${TABLE}/odds`, { token: token(), body: { command } });
}

// -- receiving -----------------------------------------------------------------------------

/** @param {TableRecord[] | undefined} records */
function addRecords(records) {
  let added = false;
  for (const record of records || []) {
    if (!view.records.has(record.seq)) added = true;
    view.records.set(record.seq, record);
    view.seq = Math.max(view.seq, record.seq);
  }
  announce(records);
  return added;
}

// -- the dice moment: who rolled what, to everyone, without moving the page -------------------

/** @type {ReturnType<typeof setTimeout> | undefined} */
let toastTimer;

/** The dice one event shows: a chat roll's, else the game's reading of the event (HeXXen's
 * symbol dice, not their numbers), else its own `dice`; [] for none.
 * @param {any} event
 * @param {TableRecord} record
 * @returns {ShownDie[]} */
function eventDice(event, record) {
  if (event.kind === "said") return event.roll?.dice || [];
  const dice = game().diceOf?.(event, record, ctx) ?? (Array.isArray(event.dice) ? event.dice : null);
  return dice || [];
}

/** What a record did, outcome first: `{lines, told}`, the game's headline of the whole record
 * (`headline(record, ctx)`, telling every event), else the lines of the events that rolled
 * dice (an attack and its damage, not the points paid before it); no lines for none.
 * @param {TableRecord} record
 * @returns {{ lines: string[], told: Set<any> }} */
function outcomeOf(record) {
  const events = record.events || [];
  const own = game().headline?.(record, ctx);
  if (own) return { lines: [own], told: new Set(events) };
  const rolled = events.filter((event) => eventDice(event, record).length);
  return { lines: rolled.map((event) => eventText(event, record)).filter(Boolean), told: new Set(rolled) };
}

/** Show each new record that rolled dice in the toast, once; the first load only takes note.
 * @param {TableRecord[] | undefined} records */
function announce(records) {
  for (const record of records || []) {
    if (view.announced.has(record.seq)) continue;
    view.announced.add(record.seq);
    if (!view.loaded || record.undoes != null || !view.game) continue;
    // News are the records that rolled dice, and those a game tells by a headline (a move).
    const dice = recordDice(record).flat();
    if (dice.length || game().headline?.(record, ctx)) showRoll(record, dice);
  }
}

/** @param {TableRecord} record @param {ShownDie[]} dice */
function showRoll(record, dice) {
  if (view.deciding) return;  // a decision waiting for this person keeps the floor (the log has it)
  const toast = byId("toast");
  const what = outcomeOf(record).lines.join(" ") || dice.map((d) => d.face ?? d.value).join(" ");
  const row = renderDice(dice.slice(0, 12), { size: 40 });
  row.setAttribute("aria-hidden", "true");  // the line says it; the passing faces stay silent
  byId("toast-body").replaceChildren(el("p", { class: "toast-text" }, what), el("p", { class: "toast-who" }, t(dice.length ? "web.toast.rolled" : "web.toast.by", { who: actorName(record.actor) })), row);
  toast.dataset.seq = String(record.seq);
  toast.classList.add("is-shown");
  toast.dataset.animated = String(animateRoll(row, dice, { size: 40 }));
  if (dice.length && rattle(dice.length)) {
    const box = byId("sound-toggle");
    box.dataset.played = String(Number(box.dataset.played || 0) + 1);
  }
  clearTimeout(toastTimer);
  toastTimer = setTimeout(hideRoll, 6000);
}

/** Put the dice notice away (its close button, its time is up, a decision arrived). */
function hideRoll() {
  const toast = byId("toast");
  clearTimeout(toastTimer);
  if (!toast.classList.contains("is-shown")) return;
  toast.classList.remove("is-shown");
  toastTimer = setTimeout(() => byId("toast-body").replaceChildren(), 400);
}

/** @param {TableRecord[] | undefined} records */
function claims(records) {
  return (records || []).some((r) => r.claims);
}

/** @param {any} answer */
function applyAnswer(answer) {
  if (answer.records) addRecords(answer.records);
  if (answer.record) addRecords([answer.record]);
  if (typeof answer.seq === "number") view.seq = Math.max(view.seq, answer.seq);
  if (answer.state) takeState(answer.state, answer.seq);
  // A record that claimed a piece changes who owns what: read the participants again.
  if (claims(answer.records)) guarded(reload);
  else render();
}

// Reloads run one at a time: two in flight could finish in the wrong order and leave the
// older answer on screen. A reload asked for while one runs starts again after it.
/** @type {Promise<void> | null} */
let reloading = null;
let reloadAgain = false;

/** @returns {Promise<void>} */
function reload() {
  if (reloading) {
    reloadAgain = true;
    return reloading;
  }
  reloading = (async () => {
    try {
      do {
        reloadAgain = false;
        await reloadOnce();
      } while (reloadAgain);
    } finally {
      reloading = null;
    }
  })();
  return reloading;
}

async function reloadOnce() {
  const info = await api("GET", `/api/tables/${TABLE}`, { token: token() });
  if (!view.game) [view.game] = await Promise.all([loadGame(info.system), loadCommands(info.system)]);
  view.info = info;
  takeState(info.state, info.seq);
  const answer = await api("GET", `/api/tables/${TABLE}/records?limit=${LOG_PAGE}`, { token: token() });
  const records = answer.records || [];
  // Records never change: those read before the latest page stay (an older page asked for),
  // and so do those the socket brought while this page was on its way (after its last one).
  const first = records.length ? records[0].seq : Infinity;
  const last = records.length ? records[records.length - 1].seq : -Infinity;
  const earlier = [...view.records.values()].filter((r) => r.seq < first);
  const later = [...view.records.values()].filter((r) => r.seq > last);
  if (!earlier.length) view.older = Boolean(answer.older);
  view.records = new Map();
  addRecords([...earlier, ...records, ...later]);
  view.seq = Math.max(view.seq, info.seq || 0);
  saveTable(TABLE, { title: info.title, system: info.system, role: info.me?.role, participant: info.me?.participant, name: info.me?.name });
  render();
}

/** A whole view at table seq `seq`, unless the one held is newer.
 * @param {any} state @param {number | undefined} seq */
function takeState(state, seq) {
  if (typeof seq === "number" && seq < view.stateSeq) return;
  view.state = state;
  view.stateSeq = typeof seq === "number" ? seq : view.stateSeq;
}

/** The view after a live message: its snapshot, or its patch applied to the view held if
 * that is the patch's base. A patch that does not fit asks the server for a snapshot.
 * Returns whether the view held changed.
 * @param {any} data @param {WebSocket} socket
 * @returns {boolean} */
function followView(data, socket) {
  if (data.state) {
    // A snapshot at the seq of the view held (the greeting right after the page read the
    // table) is that view: a person's view changes only with the table's records.
    const same = data.seq === view.stateSeq && view.state !== null;
    view.state = data.state;
    view.stateSeq = data.seq;
    view.askedSnapshot = false;
    return !same;
  }
  if (!data.patch || data.seq <= view.stateSeq) return false;  // already there (a command's answer)
  try {
    if (data.base !== view.stateSeq) throw new Error("another base");
    view.state = applyPatch(view.state, data.patch);
    view.stateSeq = data.seq;
    return true;
  } catch {
    if (!view.askedSnapshot && socket.readyState === WebSocket.OPEN) {
      view.askedSnapshot = true;
      socket.send(JSON.stringify({ type: "snapshot" }));
    }
    return false;
  }
}

/** @param {string} state */
function setConn(state) {
  const box = byId("conn");
  box.dataset.state = state;
  box.textContent = t("web.conn." + state);
}

function connect() {
  setConn("connecting");
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const url = `${scheme}//${location.host}/api/tables/${TABLE}/ws?lang=${PAGE.lang}`;
  let socket;
  try {
    socket = new WebSocket(url);
  } catch {
    retryLater(null);  // refused before it started (a policy, a broken network): try again
    return;
  }
  view.socket = socket;
  // The token goes in the first message, never in the URL (server logs keep URLs).
  socket.addEventListener("open", () => {
    socket.send(JSON.stringify({ type: "auth", token: token(), since: view.seq }));
  });
  socket.addEventListener("message", async (message) => {
    let data;
    try { data = JSON.parse(message.data); } catch { return; }
    const first = data.type !== "error" && byId("conn").dataset.state !== "live";
    if (first) {
      view.retry = 0;  // authenticated: the server answered with the table
      setConn("live");
    }
    if (data.type === "undo" || data.type === "table" || data.type === "participants") {
      await guarded(reload);
      return;
    }
    if (data.type === "error") {
      if (data.error?.code === "table.removed") { gone(); return; }
      showAlert(data.error?.message || data.message || t("web.error.live"));
      return;
    }
    // The greeting names who is at the table: someone who joined after the page read the
    // table but before its socket listened got no "participants" message of their own.
    const joined = data.participants
      && JSON.stringify(data.participants) !== JSON.stringify(view.info?.participants);
    if (joined) view.info = { ...view.info, participants: data.participants };
    const known = new Set(view.records.keys());
    if (data.records) addRecords(data.records);
    const added = (data.records || []).some((/** @type {TableRecord} */ r) => !known.has(r.seq));
    if (typeof data.seq === "number") view.seq = Math.max(view.seq, data.seq);
    const changed = followView(data, socket);
    const unknownActor = (data.records || []).some((/** @type {TableRecord} */ r) => !known.has(r.seq) && r.actor !== "auto"
      && !(view.info?.participants || []).some((/** @type {Participant} */ p) => participantId(p) === r.actor));
    if (unknownActor || claims(data.records)) await guarded(reload);
    // The echo of this page's own command (its answer is already shown) changes nothing: no
    // render (one would only patch the page to what it already shows); nor does a greeting
    // that brings what the page read just before.
    else if (added || changed || joined) render();
  });
  socket.addEventListener("close", (event) => {
    if (view.gone) return;
    // 4401: the token is no longer valid (removed, or left in another tab): stop trying.
    if (event.code === 4401) { gone(); return; }
    if (view.socket === socket) retryLater(socket);
  });
}

// Offline: connect again after a delay that doubles up to about 19 s.
/** @param {WebSocket | null} socket */
function retryLater(socket) {
  view.socket = socket;
  setConn("off");
  view.retry = Math.min(view.retry + 1, 6);
  setTimeout(() => { if (view.socket === socket) connect(); }, 300 * 2 ** view.retry);
}

// -- rendering -----------------------------------------------------------------------------

function render() {
  const info = view.info;
  byId("table-title").textContent = info.title || TABLE;
  document.title = (info.title || TABLE) + " · " + t("web.app.name");
  const role = t("web.role." + me().role);
  byId("table-meta").textContent = me().name
    ? t("web.table.meta", { system: systemName(info.system), name: me().name, role })
    : t("web.table.meta_role", { system: systemName(info.system), role });
  renderLog();
  renderPeople();
  renderFair();
  renderGame();
  chat.render(ctx);
}

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), summary, [tabindex="0"]';

/** The controls of `body` the keyboard can reach now, in order.
 * @param {Element} body
 * @returns {HTMLElement[]} */
function focusables(body) {
  return [...body.querySelectorAll(/** @type {"button"} */ (FOCUSABLE))].filter((e) => e.getClientRects().length > 0);
}

// -- the regions of the table: scene, sheets, tools (the game's), side (chat and log), table
// (people and fair dice). Side by side on a wide screen, tabs on a narrow one.

const REGIONS = ["scene", "sheets", "tools", "side", "table"];
/** @type {Record<string, string>} */
const GAME_REGIONS = { scene: "game-body", sheets: "sheets-body", tools: "tools-body" };
const TABS = window.matchMedia("(max-width: 760px)");
const layout = { tab: "scene" };

/** The bodies of the regions a game fills, by name.
 * @returns {{ scene: HTMLElement, sheets: HTMLElement, tools: HTMLElement }} */
function regionBodies() {
  return { scene: byId(GAME_REGIONS.scene), sheets: byId(GAME_REGIONS.sheets), tools: byId(GAME_REGIONS.tools) };
}

/** Patch what a game's `render` returned into its regions: `{sheets, tools}`, nodes or lists;
 * a region the answer leaves out keeps what it had.
 * @param {any} parts */
function placeParts(parts) {
  if (!parts || typeof parts !== "object" || parts instanceof Node) return;
  const bodies = regionBodies();
  for (const name of /** @type {const} */ (["sheets", "tools"])) {
    if (name in parts) patch(bodies[name], [parts[name]]);
  }
}

/** Whether a game's region body shows nothing (no text, no control, no picture).
 * @param {Element} body */
function blank(body) {
  return !(body.textContent || "").trim() && !body.querySelector("svg, img, input, button, select, textarea");
}

/** @param {string} name */
function regionEmpty(name) {
  if (name === "tools") return blank(byId("tools-body")) && byId("gm-tools").hidden;
  const body = GAME_REGIONS[name] && document.getElementById(GAME_REGIONS[name]);
  return body ? blank(body) : false;
}

/** Show the regions with content; on a narrow screen as tabs, one region at a time. */
function updateRegions() {
  const root = byId("table");
  const tabs = TABS.matches;
  const present = REGIONS.filter((name) => !regionEmpty(name));
  if (!present.includes(layout.tab)) layout.tab = present[0];
  root.dataset.mode = tabs ? "tabs" : "wide";
  for (const name of REGIONS) {
    const region = byId("region-" + name);
    region.classList.toggle("is-empty", !present.includes(name));
    region.classList.toggle("is-active", name === layout.tab);
    if (tabs) {
      region.setAttribute("role", "tabpanel");
      region.setAttribute("aria-labelledby", "tab-" + name);
    } else {
      region.removeAttribute("role");
      const heading = region.querySelector("h2");
      if (!heading) throw new Error(`the region ${name} has no heading`);
      region.setAttribute("aria-labelledby", heading.id);
    }
  }
  const list = byId("table-tabs");
  list.hidden = !tabs;
  const current = /** @type {HTMLElement[]} */ ([...list.children]);
  const shown = current.map((tab) => tab.dataset.region).join();
  if (shown !== present.join()) {
    list.replaceChildren(...present.map((name) => el("button", {
      type: "button", role: "tab", id: "tab-" + name, class: "tab", dataset: { region: name },
      "aria-controls": "region-" + name, onclick: () => selectTab(name),
      onkeydown: (/** @type {KeyboardEvent} */ e) => tabKey(e, name),
    }, t("web.layout.tab." + name))));
  }
  for (const tab of /** @type {HTMLCollectionOf<HTMLElement>} */ (list.children)) {
    const active = tab.dataset.region === layout.tab;
    tab.setAttribute("aria-selected", String(active));
    tab.tabIndex = active ? 0 : -1;
  }
}

/** @param {string} name @param {boolean} [focus] */
function selectTab(name, focus = false) {
  layout.tab = name;
  updateRegions();
  if (focus) document.getElementById("tab-" + name)?.focus();
}

/** @param {KeyboardEvent} event @param {string} name */
function tabKey(event, name) {
  const tabs = /** @type {HTMLElement[]} */ ([...byId("table-tabs").children]);
  const names = tabs.map((tab) => tab.dataset.region || "");
  const at = names.indexOf(name);
  /** @type {Record<string, number>} */
  const moves = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: names.length - 1 };
  const to = moves[event.key];
  if (to === undefined) return;
  event.preventDefault();
  selectTab(names[(to + names.length) % names.length], true);
}

TABS.addEventListener("change", () => { if (view.info) updateRegions(); });

/** After each render: the drafts of the game's forms (`drafts.js`), put back after a reload.
 * @type {(() => void) | null} */
let formDrafts = null;

/** Draw the game: its render builds a fresh scene (and parts for the other regions), which
 * is morphed into the page (`morph.js`), so a focused field, an open <details> and a scrolled
 * frame stay as they are. While odds of the view before stand in for the new view's (odds.js),
 * the game's regions are marked busy (`aria-busy`), until the render that has them all. */
function renderGame() {
  const bodies = regionBodies();
  const body = Object.values(bodies).find((b) => document.activeElement && b.contains(document.activeElement)) || null;
  const active = body ? /** @type {HTMLElement} */ (document.activeElement) : null;
  const position = body && active ? focusables(body).indexOf(active) : -1;
  const scene = /** @type {HTMLElement} */ (bodies.scene.cloneNode(false));
  shownEarlier();
  const parts = game().render(scene, ctx);
  morph(bodies.scene, scene);
  placeParts(parts);
  const busy = String(shownEarlier());
  for (const region of Object.values(bodies)) region.setAttribute("aria-busy", busy);
  formDrafts ||= keepForms(Object.values(bodies), TABLE, me().participant);
  formDrafts();
  updateRegions();
  if (body && active && !active.isConnected) {
    // The focused control is gone (a roll button after rolling): the keyboard goes to the
    // control now at its place, never to the top of the page.
    (focusables(body)[Math.max(0, position)] || focusables(body).at(-1))?.focus();
  }
  renderNotices();
}

/** Tell this person what waits for them (notices.js): after each render of the game. */
function renderNotices() {
  view.deciding = updateNotices(game(), ctx, { goTo, tabOf });
  if (view.deciding) hideRoll();
}

/** The tab (on a phone) of the region holding element `id`, or null.
 * @param {string} id */
function tabOf(id) {
  const region = /** @type {HTMLElement | null | undefined} */ (document.getElementById(id)?.closest(".region"));
  return region && TABS.matches ? document.getElementById("tab-" + region.dataset.region) : null;
}

/** Bring element `id` into view, selecting its region's tab on a phone; with `focus` the
 * keyboard goes there too (the element itself, so no choice is made by an Enter).
 * @param {string} id @param {boolean} focus */
function goTo(id, focus) {
  const target = document.getElementById(id);
  if (!target) return;
  const region = /** @type {HTMLElement | null} */ (target.closest(".region"));
  if (region?.dataset.region && TABS.matches && layout.tab !== region.dataset.region) selectTab(region.dataset.region);
  target.scrollIntoView({ block: "start", behavior: reducedMotion() ? "auto" : "instant" });
  if (!focus) return;
  if (!target.matches(FOCUSABLE) && !target.hasAttribute("tabindex")) target.tabIndex = -1;
  target.focus({ preventScroll: true });
}

/** @param {any} event @param {TableRecord | null} [record]
 * @returns {string} */
function eventText(event, record = null) {
  const system = view.info.system;
  const custom = chat.describe(event) ?? game().describe?.(event, ctx, record);
  if (custom) return custom;
  const params = { ...event, actor: "" };
  return tFirst([`web.event.${system}.${event.kind}`, `web.event.${event.kind}`], params, event.kind);
}

/** @param {TableRecord} record
 * @returns {ShownDie[][]} */
function recordDice(record) {
  const fromEvents = (record.events || []).map((event) => eventDice(event, record)).filter((dice) => dice.length);
  if (fromEvents.length) return fromEvents;
  if (record.draws && record.draws.length) return [record.draws.map((d) => ({ die: "d" + d.sides, sides: d.sides, face: d.value }))];
  return [];
}

function renderLog() {
  const list = byId("log");
  const records = [...view.records.values()].sort((a, b) => b.seq - a.seq);
  const undone = new Set(records.filter((r) => r.undoes != null).map((r) => r.undoes));
  patch(list, records.map((record) => {
    const who = actorName(record.actor);
    const items = [];
    if (record.undoes != null) {
      items.push(el("p", { class: "log-text" }, t("web.log.undo", { who, seq: record.undoes })));
    } else {
      const kind = record.command?.kind ?? (record.contact ? "discovery" : "?");
      const summary = chat.summary(record, ctx) || game().summary?.(record, ctx)
        || tFirst([`web.cmd.${view.info.system}.${kind}`, `web.cmd.${kind}`], { ...(record.command || {}), who }, kind);
      // Outcome first: what the dice decided, then what was asked, then the other events.
      const outcome = outcomeOf(record);
      for (const text of outcome.lines) items.push(el("p", { class: "log-text log-outcome" }, text));
      items.push(el("p", { class: outcome.lines.length ? "log-event log-command" : "log-text" }, summary));
      for (const event of record.events || []) {
        const text = outcome.told.has(event) ? null : eventText(event, record);
        if (text) items.push(el("p", { class: "log-event" }, text));
      }
      for (const dice of recordDice(record)) items.push(el("div", { class: "log-dice" }, renderDice(dice)));
    }
    const badges = [];
    if (record.hidden) badges.push(el("span", { class: "badge hidden-badge" }, t("web.log.hidden")));
    if (undone.has(record.seq)) badges.push(el("span", { class: "badge undone-badge" }, t("web.log.undone")));
    const tools = [];
    if (isGm() && record.undoes == null && !undone.has(record.seq)) {
      tools.push(el("button", {
        type: "button", class: "small", "aria-label": t("web.log.undo_label", { seq: record.seq }),
        onclick: () => undo(record.seq),
      }, t("web.log.undo_button")));
    }
    return el("li", {
      id: "log-entry-" + record.seq,
      class: "log-entry" + (undone.has(record.seq) ? " is-undone" : "") + (record.hidden ? " is-hidden" : ""),
      dataset: { seq: String(record.seq) },
    },
    el("div", { class: "log-head" }, el("span", { class: "log-seq" }, t("web.log.seq", { seq: record.seq })), el("span", { class: "log-who" }, who), ...badges, ...tools),
    ...items);
  }));
  byId("log-empty").hidden = records.length > 0;
  byId("log-older").hidden = !view.older;
}

/** Read the page of records before the oldest one shown ("Load older"). */
async function loadOlder() {
  const oldest = Math.min(...view.records.keys());
  if (!Number.isFinite(oldest)) return;
  const answer = await api("GET", `/api/tables/${TABLE}/records?before=${oldest}&limit=${LOG_PAGE}`, { token: token() });
  view.older = Boolean(answer.older);
  for (const record of answer.records || []) view.announced.add(record.seq);  // old news: no toast
  addRecords(answer.records || []);
  render();
}

/** @param {number} seq */
async function undo(seq) {
  clearAlert();
  const answer = await guarded(() => api("POST", `/api/tables/${TABLE}/undo`, { token: token(), body: { seq } }));
  if (answer) {
    await guarded(reload);
    showAlert(t("web.log.undone_ok", { seq }), "info");
  }
}

/** @param {Participant} p */
function personName(p) {
  return p.name || t("web.role." + p.role);
}

function renderPeople() {
  const list = byId("people");
  /** @type {Participant[]} */
  const people = view.info.participants || [];
  const mine = (/** @type {Participant} */ p) => participantId(p) === me().participant;
  patch(list, people.map((p) => el("li", { class: p.removed ? "is-removed" : "" },
    // Without a name the role badge alone names the person (never "GM GM").
    p.name ? [el("span", { class: "person" }, p.name), " "] : null,
    el("span", { class: "badge role-" + p.role }, t("web.role." + p.role)),
    mine(p) ? el("span", { class: "muted" }, " ", t("web.people.you")) : null,
    p.removed ? el("span", { class: "muted" }, " ", t("web.people.removed")) : null,
    isGm() && !p.removed && p.role !== "gm" ? [" ", el("button", {
      type: "button", class: "small", "aria-label": t("web.people.remove_label", { name: personName(p) }),
      onclick: () => removePerson(p),
    }, t("web.people.remove"))] : null)));
  const box = byId("invites");
  const invites = entry()?.invites;
  if (isGm()) {
    const shown = invites ? ["player", "spectator"].filter((k) => invites[k]) : [];
    patch(box, [el("h3", {}, t("web.invite.heading")), ...shown.map((kind) => {
      const url = inviteUrl(TABLE, invites[kind]);
      const input = el("input", { id: "invite-" + kind, readonly: true, value: url, class: "invite-url" });
      return el("div", { class: "invite" }, el("label", { for: "invite-" + kind }, t("web.invite." + kind)),
        el("div", { class: "row" }, input, el("button", { type: "button", onclick: () => copyText(url, live(input)) }, t("web.invite.copy"))));
    }), el("button", { type: "button", id: "rotate-invites", class: "small", onclick: rotateInvites }, t("web.invite.rotate"))]);
  } else {
    patch(box, [el("button", { type: "button", id: "leave-button", class: "small", onclick: leave }, t("web.people.leave"))]);
  }
}

/** @param {Participant} p */
async function removePerson(p) {
  const name = personName(p);
  if (!confirm(t("web.people.remove_confirm", { name }))) return;
  clearAlert();
  const answer = await guarded(() => api("DELETE", `/api/tables/${TABLE}/participants/${encodeURIComponent(participantId(p))}`, { token: token() }));
  if (answer) {
    await guarded(reload);
    showAlert(t("web.people.removed_ok", { name }), "info");
  }
}

async function leave() {
  if (!confirm(t("web.people.leave_confirm"))) return;
  clearAlert();
  const answer = await guarded(() => api("DELETE", `/api/tables/${TABLE}/participants/${encodeURIComponent(me().participant)}`, { token: token() }));
  if (answer) gone();
}

async function rotateInvites() {
  if (!confirm(t("web.invite.rotate_confirm"))) return;
  clearAlert();
  const invites = await guarded(() => api("POST", `/api/tables/${TABLE}/invites`, { token: token() }));
  if (invites) {
    saveTable(TABLE, { invites });
    renderPeople();
    showAlert(t("web.invite.rotated"), "info");
  }
}

/** This browser's token for the table no longer works (left, or removed): forget it, show
 * why, and stop the live connection. */
function gone() {
  view.gone = true;
  forgetTable(TABLE);
  const socket = view.socket;
  view.socket = null;
  if (socket && socket.readyState <= 1) socket.close();
  byId("table").hidden = true;
  byId("no-access").hidden = false;
  setConn("off");
  showAlert(t("web.people.gone"), "info");
}

/** The log entries (among those this viewer has) with a draw in [start, end).
 * @param {number} start @param {number | null | undefined} end */
function entriesIn(start, end) {
  const seqs = [...view.records.values()]
    .filter((r) => (r.draws || []).some((d) => d.index >= start && (end == null || d.index < end)))
    .map((r) => r.seq);
  return seqs.length ? { first: Math.min(...seqs), last: Math.max(...seqs) } : null;
}

/** One epoch of the chain: what it covers, its commitment, its seed once revealed.
 * @param {any} epoch */
function epochItem(epoch) {
  const result = view.verification?.epochs?.find((/** @type {any} */ e) => e.number === epoch.number);
  // A chained epoch (format 3) begins at a record; an older one at a draw of the whole log.
  const unit = epoch.chain ? "records" : "draws";
  const covers = epoch.end == null ? t(`web.fair.epoch_${unit === "records" ? "records_from" : "from"}`, { start: epoch.start })
    : epoch.end > epoch.start ? t(`web.fair.epoch_${unit}`, { start: epoch.start, end: epoch.end - 1 })
      : t(epoch.chain ? "web.fair.epoch_no_records" : "web.fair.epoch_none");
  const entries = epoch.chain ? null : entriesIn(epoch.start, epoch.end);
  const head = [el("strong", {}, t("web.fair.epoch", { number: epoch.number })), " · ", covers];
  if (entries) head.push(" · ", t("web.fair.epoch_entries", entries));
  if (result) {
    head.push(" ", el("span", { class: "badge epoch-" + result.status }, t("web.verify.epoch_" + result.status, result)));
  }
  return el("li", { class: "epoch", dataset: { epoch: epoch.number, status: epoch.seed ? "revealed" : "open" } },
    el("p", { class: "small-print" }, ...head),
    el("p", { class: "small-print" }, t("web.fair.commitment"), " ", el("code", { class: "hash" }, epoch.commitment)),
    epoch.chain ? el("p", { class: "small-print" }, t("web.fair.chain"), " ", el("code", { class: "hash chain" }, epoch.chain)) : null,
    epoch.seed ? el("p", { class: "small-print" }, t("web.fair.seed"), " ", el("code", { class: "hash" }, epoch.seed))
      : el("p", { class: "muted small-print" }, t("web.fair.secret")));
}

function renderFair() {
  const box = byId("fair");
  const info = view.info;
  const epochs = info.epochs || [];
  const parts = [
    el("p", { class: "small-print" }, t("web.fair.commitment"), " ", el("code", { class: "hash", id: "current-commitment" }, info.commitment || "–")),
    el("h3", {}, t("web.fair.epochs")),
    el("ol", { id: "epochs", class: "epochs" }, ...epochs.map(epochItem)),
  ];
  if (info.seed) {
    parts.push(el("p", { class: "small-print" }, t("web.fair.seed"), " ", el("code", { class: "hash", id: "revealed-seed" }, info.seed)));
    parts.push(el("button", { type: "button", id: "verify-button", onclick: runVerify }, t("web.fair.verify")));
    const result = view.verification;
    if (result) {
      const text = result.ok ? t("web.verify.ok", { draws: result.draws })
        : result.commitmentOk === false ? t("web.verify.bad_commitment")
          : result.mismatch ? t("web.verify.mismatch", result.mismatch)
            : t("web.verify.chain_" + result.chain.kind, result.chain);
      const extra = result.ok && result.pending ? " " + t("web.verify.pending", { pending: result.pending }) : "";
      parts.push(el("div", { id: "verify-result", class: "verify " + (result.ok ? "ok" : "bad"), role: "status", tabindex: "-1" }, text + extra));
    }
  }
  if (me().role !== "spectator") {
    // A re-render (a record, the people re-read after a reconnection) keeps what is typed:
    // the box is patched, and the field in the page is `live(input)`.
    const input = el("input", { id: "player-seed", maxlength: 200, autocomplete: "off", value: "" });
    parts.push(el("form", {
      class: "form inline", onsubmit: async (/** @type {SubmitEvent} */ e) => {
        e.preventDefault();
        const field = /** @type {HTMLInputElement} */ (live(input));
        const seed = field.value.trim();
        if (!seed) { showAlert(t("web.fair.seed_empty")); return; }
        const ok = await guarded(() => api("POST", `/api/tables/${TABLE}/player-seeds`, { token: token(), body: { seed } }));
        if (ok) { field.value = ""; showAlert(t("web.fair.seed_added"), "info"); }
      },
    }, el("label", { for: "player-seed" }, t("web.fair.player_seed")), el("div", { class: "row" }, input, el("button", { type: "submit" }, t("web.fair.add_seed")))));
  }
  parts.push(el("button", { type: "button", class: "link", onclick: download }, t("web.fair.export")));
  patch(box, parts);
  renderGmTools();
}

/** The GM's table tools (hidden rolls, revealing the seed), in the tools region. */
function renderGmTools() {
  const panel = byId("gm-tools");
  panel.hidden = !isGm();
  if (!isGm()) return;
  const body = byId("gm-tools-body");
  if (body.childElementCount) {
    /** @type {HTMLInputElement} */ (byId("hidden-toggle")).checked = view.hidden;
    return;
  }
  const hidden = el("input", { type: "checkbox", id: "hidden-toggle", checked: view.hidden, "aria-describedby": "hidden-hint", onchange: (/** @type {Event} */ e) => setHidden(/** @type {HTMLInputElement} */ (e.target).checked) });
  body.replaceChildren(
    el("div", { class: "field check" }, hidden, el("label", { for: "hidden-toggle" }, t("web.gm.hidden"))),
    el("p", { id: "hidden-hint", class: "muted small-print" }, t("web.gm.hidden_hint")),
    el("button", { type: "button", id: "reveal-button", onclick: reveal }, t("web.gm.reveal")));
}

/** Turn the GM's persistent hidden mode on or off; while it is on a banner says so. */
/** @param {boolean} on */
function setHidden(on) {
  view.hidden = on;
  byId("hidden-banner").hidden = !on;
  const box = /** @type {HTMLInputElement | null} */ (document.getElementById("hidden-toggle"));
  if (box) box.checked = on;
}

/** What revealing the seed now makes checkable: the draws of the current epoch and the log
 * entries that hold them (the GM sees every record). A chained epoch (format 3) begins at a
 * record, an older one at a draw of the whole log. */
function revealParts() {
  const epoch = (view.info.epochs || []).at(-1);
  const start = epoch?.start ?? 0;
  const inEpoch = (/** @type {TableRecord} */ record, /** @type {import("./types.js").Draw} */ draw) => (epoch?.chain ? record.seq >= start : draw.index >= start);
  const holding = [...view.records.values()].filter((r) => (r.draws || []).some((d) => inEpoch(r, d)));
  const count = holding.reduce((n, r) => n + (r.draws || []).filter((d) => inEpoch(r, d)).length, 0);
  const seqs = holding.map((r) => r.seq);
  const checkable = count
    ? t("web.gm.reveal_checkable", { count, first: Math.min(...seqs), last: Math.max(...seqs) })
    : t("web.gm.reveal_nothing");
  return [checkable, t("web.gm.reveal_after")];
}

async function reveal() {
  const yes = await ask({ id: "reveal-dialog", title: t("web.gm.reveal_title"), parts: revealParts(), confirm: t("web.gm.reveal_yes") });
  if (!yes) return;
  const answer = await guarded(() => api("POST", `/api/tables/${TABLE}/reveal`, { token: token() }));
  if (answer) {
    view.verification = null;
    await guarded(reload);
  }
}

async function exportData() {
  return api("GET", `/api/tables/${TABLE}/export`, { token: token() });
}

async function download() {
  const data = await guarded(exportData);
  if (!data) return;
  const blob = new Blob([JSON.stringify(data, null, 2)], { type: "application/json" });
  const link = el("a", { href: URL.createObjectURL(blob), download: `spieltisch-${TABLE}.json` });
  document.body.append(link);
  link.click();
  link.remove();
}

async function runVerify() {
  const data = await guarded(exportData);
  if (!data) return;
  view.verification = await verifyExport(data);
  renderFair();
  document.getElementById("verify-result")?.focus();
}

// -- joining -------------------------------------------------------------------------------

/** Name the table, its game and its GM on the join page (a wrong code says so at once).
 * @param {string} code */
async function showInvitation(code) {
  const about = await guarded(() => api("POST", `/api/tables/${TABLE}/invitation`, { body: { invite: code } }));
  if (about) {
    byId("join-title").textContent = t("web.join.heading_table", { title: about.title || TABLE });
    byId("join-about").textContent = t("web.join.about_" + about.role, {
      system: systemName(about.system), gm: about.gm || t("web.role.gm"),
    });
  }
  // marked once drawn (or refused): the lines above the form have moved it by then
  byId("join").dataset.invitation = about ? "shown" : "refused";
}

/** @param {string} code
 * @returns {Promise<void>} */
async function join(code) {
  const box = byId("join");
  box.hidden = false;
  showInvitation(code);
  const form = /** @type {HTMLFormElement} */ (byId("join-form"));
  const field = /** @type {HTMLInputElement} */ (form.elements.namedItem("name"));
  field.focus();
  return new Promise((resolve) => {
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const name = field.value.trim();
      if (!name) { showAlert(t("web.join.name_missing")); field.focus(); return; }
      const answer = await guarded(() => api("POST", `/api/tables/${TABLE}/join`, { body: { invite: code, name } }));
      if (!answer) return;
      saveTable(TABLE, { token: answer.token, participant: answer.participant, role: answer.role, name });
      box.hidden = true;
      clearAlert();
      resolve();
    });
  });
}

async function init() {
  initLanguageSwitch();
  initSoundToggle(/** @type {HTMLInputElement} */ (byId("sound-toggle")));
  initChimeToggle(/** @type {HTMLInputElement} */ (byId("chime-toggle")));
  byId("toast-close").addEventListener("click", hideRoll);
  byId("hidden-off").addEventListener("click", () => setHidden(false));
  // Opening another invite link on this page changes only the fragment: start again.
  window.addEventListener("hashchange", () => { if (inviteFromFragment()) location.reload(); });
  const code = inviteFromFragment();
  if (code && !token()) await join(code);
  if (code) history.replaceState(null, "", location.pathname + location.search);
  if (!token()) {
    byId("no-access").hidden = false;
    return;
  }
  try {
    await reload();
  } catch (error) {
    if (error instanceof ApiError && (error.status === 401 || error.status === 403 || error.status === 404)) {
      byId("no-access").hidden = false;
    }
    showAlert(error instanceof Error ? error.message : String(error));
    return;
  }
  view.loaded = true;
  byId("log-older").addEventListener("click", () => guarded(loadOlder));
  byId("table").hidden = false;
  connect();
}

/** A game without a panel of its own: its public state, readable.
 * @type {GameModule} */
const generic = {
  render(body, context) {
    body.replaceChildren(el("div", { class: "card" }, el("pre", { class: "state" }, JSON.stringify(context.state, null, 2))));
  },
};

init();
