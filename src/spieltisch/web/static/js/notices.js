// @ts-check
// The page tells every person what to do: the decisions addressed to the viewer (a HeXXen
// defence, a D&D opportunity attack, ...) and whose turn it is. A game module declares them
// (the decisions contract, docs/web-table.md); this module alone renders them: a notice at the
// top of the table the person answers in the page, the keyboard and the view moved to the
// choices, a count on the phone tab and in the page title, and an optional chime.
import { el, t } from "./core.js";
import { chime } from "./sound.js";

/**
 * A decision waiting for the viewer: `id` stays the same while it waits, `text` says what is
 * asked, `target` is the id of the element in the page that holds the choices.
 * @typedef {{ id: string, text: string, target: string }} Decision
 */

/**
 * Whose turn it is, as every viewer may read it: the piece's `name`, whether it is the
 * viewer's (`mine`), and the element holding the viewer's controls for it (`target`).
 * @typedef {{ key: string, name: string, mine: boolean, target?: string | null }} Turn
 */

/**
 * Whether a piece's decision or turn is the viewer's: a player's own piece; for the GM a
 * piece no player at the table holds (a monster, an NSC, a seat nobody took). Spectators
 * decide nothing.
 * @param {any} ctx the table's context handed to the game modules
 * @param {string} piece the piece's id
 * @returns {boolean}
 */
export function addressedTo(ctx, piece) {
  const me = ctx.me || {};
  if (me.role === "player") return (me.pieces || []).includes(piece);
  if (me.role !== "gm") return false;
  const people = ctx.info?.participants || [];
  return !people.some((/** @type {any} */ p) => !p.removed && p.role === "player" && (p.pieces || []).includes(piece));
}

/**
 * A turn of a piece, told to everyone; the viewer's when `addressedTo` says so.
 * @param {any} ctx
 * @param {string} piece
 * @param {string} name
 * @param {string | null} [target]
 * @returns {Turn}
 */
export function pieceTurn(ctx, piece, name, target = null) {
  return { key: piece, name, mine: addressedTo(ctx, piece), target };
}

/** What the page told already: the decisions and the turn seen, the turn notice dismissed. */
const seen = { decisions: new Set(), turn: /** @type {string | null} */ (null), dismissed: /** @type {string | null} */ (null), round: 0 };

/**
 * The decisions a game declares for the viewer (an empty list for a game without any).
 * @param {any} game
 * @param {any} ctx
 * @returns {Decision[]}
 */
export function decisionsOf(game, ctx) {
  const list = typeof game.decisions === "function" ? game.decisions(ctx) : [];
  return Array.isArray(list) ? list.filter((d) => d && d.id && d.target) : [];
}

/**
 * The turn a game declares (null for none, or a game without turns).
 * @param {any} game
 * @param {any} ctx
 * @returns {Turn | null}
 */
export function turnOf(game, ctx) {
  const turn = typeof game.turn === "function" ? game.turn(ctx) : null;
  return turn && turn.name ? turn : null;
}

/**
 * How many things wait for the viewer: each decision, and the turn while it is theirs.
 * @param {Decision[]} decisions
 * @param {Turn | null} turn
 */
export function waiting(decisions, turn) {
  return decisions.length + (turn?.mine ? 1 : 0);
}

/**
 * The page title with the number of things waiting in front: "(1) Crypt · Spieltisch".
 * @param {string} title the title without a count
 * @param {number} count
 */
export function countedTitle(title, count) {
  const bare = title.replace(/^\(\d+\) /, "");
  return count > 0 ? `(${count}) ${bare}` : bare;
}

/**
 * Show the notices of this render: the turn strip for everyone, a notice for each decision
 * addressed to the viewer and for their turn, the count on the tab and in the title. A new
 * decision moves the view and the keyboard to its choices (`goTo`) and chimes; a new turn of
 * the viewer chimes. Returns whether a decision waits for the viewer.
 * @param {any} game the game module
 * @param {any} ctx the table's context
 * @param {{ goTo: (id: string, focus: boolean) => void, tabOf: (id: string) => HTMLElement | null }} page
 * @returns {boolean}
 */
export function updateNotices(game, ctx, page) {
  const decisions = decisionsOf(game, ctx);
  const turn = turnOf(game, ctx);
  renderStrip(turn);
  const box = /** @type {HTMLElement} */ (document.getElementById("notices"));
  const myTurn = turn && turn.mine && seen.dismissed !== turn.key ? turn : null;
  box.replaceChildren(
    ...decisions.map((d) => el("section", { class: "notice notice-decision", id: "notice-" + d.id, "aria-labelledby": "notice-" + d.id + "-text" },
      el("p", { id: "notice-" + d.id + "-text", class: "notice-text" }, el("strong", {}, t("web.notice.decision")), " ", d.text),
      el("button", { type: "button", class: "primary", id: "notice-" + d.id + "-go", onclick: () => page.goTo(d.target, true) }, t("web.notice.answer")))),
    myTurn ? el("section", { class: "notice notice-turn", id: "notice-turn", "aria-labelledby": "notice-turn-text" },
      el("p", { id: "notice-turn-text", class: "notice-text" }, t("web.notice.your_turn", { name: myTurn.name })),
      myTurn.target ? el("button", { type: "button", class: "primary", id: "notice-turn-go", onclick: () => page.goTo(/** @type {string} */ (myTurn.target), true) }, t("web.notice.go_turn")) : null,
      el("button", { type: "button", id: "notice-turn-dismiss", onclick: () => { seen.dismissed = myTurn.key; updateNotices(game, ctx, page); } }, t("web.notice.dismiss"))) : null);
  box.hidden = !box.childElementCount;
  const count = waiting(decisions, turn);
  document.title = countedTitle(document.title, count);
  markTabs(decisions, turn, page);
  const fresh = decisions.filter((d) => !seen.decisions.has(d.id));
  const freshTurn = Boolean(turn?.mine && turn.key !== seen.turn);
  seen.decisions = new Set(decisions.map((d) => d.id));
  if (turn?.key !== seen.turn) seen.dismissed = null;
  seen.turn = turn?.mine ? turn.key : null;
  if (fresh.length) page.goTo(fresh[0].target, true);
  if (fresh.length || freshTurn) {
    seen.round += 1;
    box.dataset.told = String(seen.round);
    if (chime()) {
      const toggle = document.getElementById("chime-toggle");
      if (toggle) toggle.dataset.played = String(Number(toggle.dataset.played || 0) + 1);
    }
  }
  return decisions.length > 0;
}

/**
 * The strip at the top that tells everyone whose turn it is.
 * @param {Turn | null} turn
 */
function renderStrip(turn) {
  const strip = /** @type {HTMLElement} */ (document.getElementById("turn-strip"));
  strip.hidden = !turn;
  strip.classList.toggle("is-mine", Boolean(turn?.mine));
  strip.textContent = !turn ? "" : turn.mine ? t("web.notice.strip_mine", { name: turn.name }) : t("web.notice.strip", { name: turn.name });
}

/**
 * The count of what waits on the tab of the region that holds it (phones show tabs).
 * @param {Decision[]} decisions
 * @param {Turn | null} turn
 * @param {{ tabOf: (id: string) => HTMLElement | null }} page
 */
function markTabs(decisions, turn, page) {
  for (const old of document.querySelectorAll("#table-tabs .tab-count")) old.remove();
  /** @type {Map<HTMLElement, number>} */
  const counts = new Map();
  const targets = decisions.map((d) => d.target);
  if (turn?.mine) targets.push(turn.target || "game-body");
  for (const target of targets) {
    const tab = page.tabOf(target);
    if (tab) counts.set(tab, (counts.get(tab) || 0) + 1);
  }
  for (const [tab, count] of counts) {
    tab.append(el("span", { class: "tab-count" }, el("span", { "aria-hidden": "true" }, String(count)),
      el("span", { class: "visually-hidden" }, " " + t("web.notice.tab_count", { count }))));
  }
}
