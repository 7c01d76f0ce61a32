// @ts-check
// Kilkenny Cats: the board as SVG, the roll, legal moves highlighted, click (or keys) to move;
// seats for humans (hot seat or online) and AI seats; the end of the game.
import { details, el, svg, t, tFirst } from "../../core.js";
import { renderDie } from "../../dice.js";
import { zoomFrame } from "../../zoom.js";

/** @typedef {import("../../types.js").TableContext} TableContext */
/** @typedef {import("../../types.js").TableRecord} TableRecord */
/** A seat as the page reads the public view: who plays it (`kind`, the `ai`'s name), whether a
 * person took it, its cats on the board, its cats home (`home`) and its holes' squares.
 * @typedef {{ seat: string, kind: string, ai: string | null, taken: boolean, cats: string[],
 *   home: string[], holeCells: number[][] }} Seat */
/** A legal move, with its chances when the server told them (`odds`).
 * @typedef {{ from: string, to: string, capture: boolean, text: string, captured: any, enter: any,
 *   odds: boolean }} Move */
/** The last move of the log: its squares, the seat and the record.
 * @typedef {{ from: string, to: string, seat: string, seq: number }} LastMove */

const FILES = "abcdefghijklmnopqrstuvwxyz";
const SEAT_ORDER = ["S", "W", "N", "E"];
/** The square of the cat the viewer picked to move, or null.
 * @type {string | null} */
let selected = null;
// The move shown as an animation: the record's seq and when it began (a redraw during the
// animation continues it); `since` is the newest move when the page opened (never animated).
const MOVE_MS = 600;
/** @type {{ since: number | null, seq: number | null, started: number }} */
const motion = { since: null, seq: null, started: 0 };

/** Square name -> [x, y] (files a.. = x 0.., ranks 1.. = y 0..); hole names ("S1") -> null.
 * @param {unknown} name
 * @returns {[number, number] | null} */
export function parseSquare(name) {
  const m = /^([a-z])(\d{1,2})$/.exec(String(name));
  if (!m) return null;
  return [FILES.indexOf(m[1]), Number(m[2]) - 1];
}

/** [x, y] -> square name.
 * @param {number} x @param {number} y */
export function squareName(x, y) {
  return FILES[x] + (y + 1);
}

// -- adapting the public state ---------------------------------------------------------------

/** @param {any} state
 * @returns {Seat[]} */
function seatsOf(state) {
  return (state.seats || []).map((/** @type {any} */ s) => ({
    seat: s.seat,
    kind: s.player === "human" ? "human" : "ai",
    ai: s.player === "human" ? null : s.player,
    taken: Boolean(s.taken),
    cats: s.cats || [],
    home: s.holes || [],
    holeCells: s.hole_cells || [],
  }));
}

/** @param {any} state @param {Seat} seat */
function holePoints(state, seat) {
  return seat.holeCells.map((h, i) => ({ x: h[0], y: h[1], name: seat.seat + (i + 1) }));
}

/** @param {any} state
 * @returns {Move[]} */
function movesOf(state) {
  /** @type {Map<string, string>} */
  const enemy = new Map();
  for (const s of seatsOf(state)) for (const c of s.cats) enemy.set(c, s.seat);
  const turn = turnOf(state);
  /** @type {Map<string, any>} */
  const chances = new Map((state.chances || []).map((/** @type {any} */ c) => [c.from + "-" + c.to, c]));
  return (state.moves || []).map((/** @type {{ from: string, to: string }} */ m) => {
    const capture = enemy.has(m.to) && enemy.get(m.to) !== turn;
    const text = `${m.from}${capture ? "x" : "-"}${m.to}`;
    const found = chances.get(m.from + "-" + m.to);
    return { from: m.from, to: m.to, capture, text, captured: found?.captured ?? null, enter: found?.enter ?? null, odds: Boolean(found) };
  });
}

/** @param {{ probability: number }} share */
function percent(share) {
  return Math.round(100 * share.probability).toLocaleString(document.documentElement.lang) + " %";
}

/** A move's chances in words: the moved cat captured before your next turn, a hole then.
 * @param {Move} move */
function chancesText(move) {
  if (!move.odds) return "";
  if (!move.captured || !move.enter) return t("web.kilkenny.chances_end");
  return t("web.kilkenny.chances", { captured: percent(move.captured), enter: percent(move.enter) });
}

/** @param {any} state
 * @returns {string | null} */
function turnOf(state) {
  return state.turn ?? state.to_move ?? null;
}

/** @param {any} state */
function outcomeOf(state) {
  return state.outcome || null;
}

/** @param {TableContext} ctx
 * @returns {LastMove | null} */
function lastMove(ctx) {
  const undone = new Set(ctx.records.filter((r) => r.undoes != null).map((r) => r.undoes));
  const records = ctx.records.filter((r) => !undone.has(r.seq) && r.undoes == null).sort((a, b) => b.seq - a.seq);
  for (const record of records) {
    for (const event of [...(record.events || [])].reverse()) {
      if (event.kind === "moved") return { from: event.from, to: event.to, seat: event.seat, seq: record.seq };
      if (event.kind === "entered_hole") return { from: event.from, to: event.hole, seat: event.seat, seq: record.seq };
    }
  }
  return null;
}

// -- rendering -----------------------------------------------------------------------------

/** @param {number} x @param {number} y @param {number} size
 * @returns {[number, number]} */
function toSvg(x, y, size) {
  return [x + 1, size - y];
}

/** @param {number} cx @param {number} cy @param {string} seat @param {string} label
 * @param {Record<string, unknown> | null} [moving] the attributes of a cat on the move */
function catShape(cx, cy, seat, label, moving = null) {
  return svg("g", { class: "cat cat-" + seat, role: "img", "aria-label": label, ...moving },
    svg("polygon", { class: "cat-ear", points: `${cx - 0.34},${cy - 0.12} ${cx - 0.28},${cy - 0.46} ${cx - 0.06},${cy - 0.28}` }),
    svg("polygon", { class: "cat-ear", points: `${cx + 0.34},${cy - 0.12} ${cx + 0.28},${cy - 0.46} ${cx + 0.06},${cy - 0.28}` }),
    svg("circle", { cx, cy: cy + 0.04, r: 0.33 }),
    svg("circle", { cx: cx - 0.12, cy: cy - 0.02, r: 0.05, fill: "#fff", stroke: "none" }),
    svg("circle", { cx: cx + 0.12, cy: cy - 0.02, r: 0.05, fill: "#fff", stroke: "none" }));
}

/** @param {string} seat */
function seatLabel(seat) {
  return t("web.kilkenny.seat." + seat);
}

/** @param {any} state @param {TableContext} ctx @param {Set<string | null>} mySeats */
function board(state, ctx, mySeats) {
  const size = state.size ?? 14;
  const seats = seatsOf(state);
  const moves = movesOf(state);
  const turn = turnOf(state);
  const canMove = mySeats.has(turn) && state.roll != null && !outcomeOf(state);
  /** @type {Map<string, string>} */
  const occupant = new Map();
  for (const s of seats) for (const c of s.cats) occupant.set(c, s.seat);
  const fromSquares = new Set(canMove ? moves.map((m) => m.from) : []);
  if (selected && !fromSquares.has(selected)) selected = null;
  const targets = new Map(canMove && selected ? moves.filter((m) => m.from === selected).map((m) => [m.to, m]) : []);

  const root = svg("svg", {
    class: "board", viewBox: `-0.9 -0.1 ${size + 2.8} ${size + 3}`, role: "group",
    "aria-label": t("web.kilkenny.board_label"), id: "kk-board",
  });
  // squares
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const [sx, sy] = toSvg(x, y, size);
      root.append(svg("rect", { x: sx, y: sy, width: 1, height: 1, class: (x + y) % 2 ? "sq-light" : "sq-dark" }));
    }
  }
  for (let i = 0; i < size; i++) {
    root.append(svg("text", { x: i + 1.5, y: size + 2.65, "text-anchor": "middle", class: "coord" }, FILES[i]));
    root.append(svg("text", { x: -0.45, y: size - i + 0.62, "text-anchor": "middle", class: "coord" }, String(i + 1)));
  }
  // the cat the last move brought (holes and squares)
  const moving = movingCat(state, lastMove(ctx), mySeats);
  // holes
  for (const s of seats) {
    holePoints(state, s).forEach((h, i) => {
      const [sx, sy] = toSvg(h.x, h.y, size);
      root.append(svg("circle", { cx: sx + 0.5, cy: sy + 0.5, r: 0.42, class: "hole", "aria-hidden": "true" }));
      const filled = s.home.includes(h.name);
      if (filled) root.append(catShape(sx + 0.5, sy + 0.52, s.seat, t("web.kilkenny.cat_in_hole", { seat: seatLabel(s.seat), hole: h.name }), moving(h.name)));
      else root.append(svg("text", { x: sx + 0.5, y: sy + 0.62, "text-anchor": "middle", class: "hole-label", "aria-hidden": "true" }, h.name));
    });
  }
  // last move
  const last = lastMove(ctx);
  const lastFrom = last && parseSquare(last.from);
  if (last && lastFrom) {
    const [fx, fy] = lastFrom;
    const to = parseSquare(last.to) || holeXY(state, last.to);
    if (to) {
      const [a, b] = toSvg(fx, fy, size);
      const [c, d] = toSvg(to[0], to[1], size);
      root.append(svg("line", { x1: a + 0.5, y1: b + 0.5, x2: c + 0.5, y2: d + 0.5, class: "last-move" }));
    }
  }
  // cats
  for (const [square, seat] of occupant) {
    const p = parseSquare(square);
    if (!p) continue;
    const [sx, sy] = toSvg(p[0], p[1], size);
    root.append(catShape(sx + 0.5, sy + 0.5, seat, t("web.kilkenny.cat_on", { seat: seatLabel(seat), square }), moving(square)));
  }
  // where a phone opens the board: the middle of the viewer's own cats (else of the cats of
  // the seat to move), an invisible mark the frame centres on
  const own = seats.filter((s) => mySeats.has(s.seat) && s.kind !== "ai" && s.taken);
  const focus = (own.length ? own : seats.filter((s) => s.seat === turn)).flatMap((s) => s.cats).map(parseSquare).filter(Boolean);
  if (focus.length) {
    const mid = (/** @type {number} */ i) => focus.reduce((sum, p) => sum + (p ? p[i] : 0), 0) / focus.length;
    const [sx, sy] = toSvg(mid(0), mid(1), size);
    root.append(svg("circle", { id: "kk-board-centre", cx: sx + 0.5, cy: sy + 0.5, r: 0.1, class: "kk-centre-mark", "aria-hidden": "true" }));
  }
  // selection and targets
  const picked = selected && parseSquare(selected);
  if (picked) {
    const p = picked;
    const [sx, sy] = toSvg(p[0], p[1], size);
    root.append(svg("rect", { x: sx + 0.05, y: sy + 0.05, width: 0.9, height: 0.9, class: "src-mark" }));
  }
  for (const [to, move] of targets) {
    const p = parseSquare(to) || holeXY(state, to);
    if (!p) continue;
    const [sx, sy] = toSvg(p[0], p[1], size);
    root.append(svg("circle", { cx: sx + 0.5, cy: sy + 0.5, r: 0.22, class: "target-mark" + (move.capture ? " capture" : "") }));
    // the chances as the player chooses: captured (top) and a hole next turn (bottom)
    if (move.captured && move.enter) {
      root.append(svg("text", { x: sx + 0.5, y: sy + 0.27, "text-anchor": "middle", class: "odds-risk", "aria-hidden": "true" }, percent(move.captured)));
      root.append(svg("text", { x: sx + 0.5, y: sy + 0.93, "text-anchor": "middle", class: "odds-enter", "aria-hidden": "true" }, percent(move.enter)));
    }
  }
  // focusable hit areas for the squares one can act on
  const act = (/** @type {string} */ square) => {
    const move = targets.get(square);
    if (move) {
      selected = null;
      ctx.send({ kind: "move", from: move.from, to: move.to });
    } else if (fromSquares.has(square)) {
      selected = selected === square ? null : square;
      ctx.rerender();
      queueMicrotask(() => document.getElementById("kk-cell-" + square)?.focus());
    }
  };
  const actionable = new Set([...fromSquares, ...targets.keys()]);
  for (const square of actionable) {
    const p = parseSquare(square) || holeXY(state, square);
    if (!p) continue;
    const [sx, sy] = toSvg(p[0], p[1], size);
    const target = targets.get(square);
    const label = target
      ? [t(target.capture ? "web.kilkenny.target_capture" : "web.kilkenny.target", { from: selected, to: square }), chancesText(target)].filter(Boolean).join(" — ")
      : t("web.kilkenny.pick_cat", { square });
    root.append(svg("rect", {
      x: sx, y: sy, width: 1, height: 1, class: "cell-hit movable", tabindex: 0, role: "button", id: "kk-cell-" + square,
      "aria-label": label, "aria-pressed": selected === square ? "true" : null,
      onclick: () => act(square),
      onkeydown: (/** @type {KeyboardEvent} */ e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); act(square); } },
    }, svg("title", {}, label)));
  }
  return root;
}

/**
 * The attributes of the cat that the last move brought to a square, so that it glides there
 * from where it stood: a move of another seat (an AI's, another person's) made after the page
 * opened, once. `data-motion` says "moving", then "done"; with reduced motion it is "done" at
 * once and the cat simply stands on its square.
 * @param {any} state @param {LastMove | null} last @param {Set<string | null>} mySeats
 * @returns {(square: string) => Record<string, unknown> | null}
 */
function movingCat(state, last, mySeats) {
  const newest = last?.seq ?? 0;
  if (motion.since === null) motion.since = newest;
  const none = () => null;
  if (!last || newest <= (motion.since ?? 0) || mySeats.has(last.seat)) return none;
  const from = parseSquare(last.from);
  const to = parseSquare(last.to) || holeXY(state, last.to);
  if (!from || !to) return none;
  if (motion.seq !== newest) { motion.seq = newest; motion.started = performance.now(); }
  const elapsed = performance.now() - motion.started;
  const still = window.matchMedia("(prefers-reduced-motion: reduce)").matches || elapsed >= MOVE_MS;
  return (square) => {
    if (square !== last.to) return null;
    if (still) return { id: "kk-moved-cat", dataset: { motion: "done" } };
    // Board units: x grows to the east, y to the south (rank 1 at the bottom).
    const dx = from[0] - to[0]; const dy = to[1] - from[1];
    return {
      id: "kk-moved-cat", class: "cat cat-" + last.seat + " is-moving", dataset: { motion: "moving" },
      style: `--kk-dx: ${dx}px; --kk-dy: ${dy}px; animation-delay: ${-Math.round(elapsed)}ms`,
      onanimationend: (/** @type {AnimationEvent} */ e) => {
        const cat = /** @type {SVGElement} */ (e.currentTarget);
        cat.dataset.motion = "done";
        cat.classList.remove("is-moving");
      },
    };
  };
}

/** @param {any} state @param {string} name
 * @returns {[number, number] | null} */
function holeXY(state, name) {
  for (const s of seatsOf(state)) for (const h of holePoints(state, s)) if (h.name === name) return [h.x, h.y];
  return null;
}

/** The seats the viewer plays: a player's own, for the GM those nobody took.
 * @param {TableContext} ctx @param {any} state
 * @returns {Set<string | null>} */
function mySeatsOf(ctx, state) {
  const pieces = new Set(ctx.me.pieces || []);
  /** @type {Set<string | null>} */
  const out = new Set();
  for (const s of seatsOf(state)) {
    if (s.kind === "ai") continue;
    if (pieces.has("seat:" + s.seat) || (ctx.isGm && !s.taken)) out.add(s.seat);
  }
  return out;
}

/** @param {TableContext} ctx @param {string} seat
 * @returns {string | null} */
function seatOwnerName(ctx, seat) {
  for (const p of ctx.info.participants || []) {
    if ((p.pieces || []).includes("seat:" + seat)) return p.name || t("web.role." + p.role);
  }
  return null;
}

/** Render the Kilkenny Cats panel.
 * @param {HTMLElement} body @param {TableContext} ctx */
export function render(body, ctx) {
  body.dataset.game = "kilkenny";
  const state = ctx.state;
  const seats = seatsOf(state);
  const mySeats = mySeatsOf(ctx, state);
  const turn = turnOf(state);
  const outcome = outcomeOf(state);
  const moves = movesOf(state);
  const seatChips = seats.map((s) => {
    const owner = s.kind === "ai" ? t("web.kilkenny.ai", { name: tFirst(["web.kilkenny.ai." + s.ai], {}, s.ai ?? "") }) : (seatOwnerName(ctx, s.seat) ?? t("web.kilkenny.free_seat"));
    const counts = t("web.kilkenny.counts", { board: s.cats.length, home: s.home.length });
    const claimable = s.kind !== "ai" && !s.taken && ctx.me.role !== "spectator";
    return el("span", { class: "seat" + (s.seat === turn && !outcome ? " turn" : ""), "aria-current": s.seat === turn && !outcome ? "true" : null },
      el("span", { class: "seat-dot", style: `background: var(--seat-${s.seat})`, "aria-hidden": "true" }),
      seatLabel(s.seat), " · ", owner, " · ", counts,
      claimable ? el("button", { type: "button", class: "small", id: "take-seat-" + s.seat, onclick: () => ctx.send({ kind: "sit", seat: s.seat }) }, t("web.kilkenny.take_seat")) : null);
  });
  const controls = [];
  if (outcome) {
    controls.push(el("p", { class: "game-over", role: "status", id: "kk-outcome" }, outcomeText(outcome)));
  } else if (turn) {
    const mine = mySeats.has(turn);
    controls.push(el("p", { id: "kk-turn", role: "status" }, t(mine ? "web.kilkenny.your_turn" : "web.kilkenny.turn_of", { seat: seatLabel(turn) })));
    if (state.roll != null) {
      controls.push(el("div", { class: "row" }, el("span", {}, t("web.kilkenny.rolled")), renderDie({ die: "d6", face: state.roll }, { size: 44 })));
    }
    if (mine && state.roll == null) {
      controls.push(el("button", { type: "button", class: "primary", id: "kk-roll", onclick: () => ctx.send({ kind: "roll" }) }, t("web.kilkenny.roll")));
    }
    if (mine && state.roll != null && moves.length) {
      controls.push(el("p", { class: "muted small-print" }, t("web.kilkenny.move_hint")));
      if (moves.some((m) => m.odds)) controls.push(el("p", { class: "muted small-print", id: "kk-chances-note" }, t("web.kilkenny.chances_note")));
      controls.push(details("kk-move-list", t("web.kilkenny.move_list", { n: moves.length }),
        el("div", { class: "row", id: "kk-moves" }, moves.map((m) => el("button", {
          type: "button", class: "small", title: chancesText(m) || null, "aria-label": [m.text, chancesText(m)].filter(Boolean).join(" — "),
          onclick: () => { selected = null; ctx.send({ kind: "move", from: m.from, to: m.to }); },
        }, m.text, m.captured && m.enter ? el("span", { class: "move-odds" }, ` ${percent(m.captured)} · ${percent(m.enter)}`) : null)))));
    }
  }
  body.replaceChildren(el("section", { class: "card", "aria-labelledby": "kk-heading" },
    el("h2", { id: "kk-heading" }, t("web.kilkenny.heading")),
    el("div", { class: "seat-list" }, seatChips),
    ...controls,
    el("div", { class: "board-wrap" }, zoomFrame("kk-board-frame", board(state, ctx, mySeats), (state.size ?? 14) + 2.8, { centre: "kk-board-centre" }))));
}

/** @param {any} outcome
 * @returns {string} */
function outcomeText(outcome) {
  const how = tFirst(["web.kilkenny.reason." + outcome.reason], {}, "");
  if (outcome.winner) return t("web.kilkenny.won", { seat: seatLabel(outcome.winner), how });
  return t("web.kilkenny.ended", { result: tFirst(["web.kilkenny.outcome." + outcome.result], {}, t("web.kilkenny.outcome.over")), how });
}

/** One line per event for the log.
 * @param {any} event
 * @returns {string | null} */
export function describe(event) {
  const seat = event.seat ? seatLabel(event.seat) : "";
  if (event.kind === "game_over") return outcomeText(event);
  if (event.kind === "captured") return t("web.kilkenny.ev.captured", { seat: seatLabel(event.by), victim: seatLabel(event.seat), square: event.square });
  return tFirst([`web.kilkenny.ev.${event.kind}`], { ...event, seat }, null);
}

/** What a move did, outcome first, with the roll that allowed it (a record of its own before
 * it); a roll alone (or one that allows no move, which says so itself) has no headline.
 * @param {TableRecord} record @param {TableContext | null} [ctx]
 * @returns {string | null} */
export function headline(record, ctx) {
  const events = record.events || [];
  const told = events.filter((event) => event.kind !== "rolled").map((event) => describe(event)).filter(Boolean);
  if (!told.length || events.some((event) => event.kind === "passed")) return told.length ? told.join(" ") : null;
  const roll = events.find((event) => event.kind === "rolled") ?? (ctx?.records || [])
    .filter((r) => r.seq < record.seq && r.undoes == null).sort((a, b) => b.seq - a.seq)
    .flatMap((r) => r.events || []).find((event) => event.kind === "rolled");
  return told.join(" ") + (roll ? " " + t("web.kilkenny.after_roll", { value: roll.value ?? roll.roll }) : "");
}

/** The log line of a record: who acted for which seat.
 * @param {TableRecord} record
 * @returns {string | null} */
export function summary(record) {
  const kind = record.command?.kind;
  if (kind === "sit") return t("web.kilkenny.cmd.sit", { seat: seatLabel(record.command.seat) });
  return null;
}

/** The die of a roll event.
 * @param {any} event */
export function diceOf(event) {
  if (event.kind === "rolled") return [{ die: "d6", face: event.value ?? event.roll }];
  return [];
}

export { optionFields, readOptions } from "./options.js";

/** Whose turn it is (the decisions contract, docs/web-table.md): a seat, the viewer's when
 * they hold it (the GM plays the seats nobody took).
 * @param {TableContext} ctx */
export function turn(ctx) {
  const seat = turnOf(ctx.state);
  if (!seat || outcomeOf(ctx.state)) return null;
  const owner = seatsOf(ctx.state).find((s) => s.seat === seat)?.kind === "ai" ? null : seatOwnerName(ctx, seat);
  return { key: "seat:" + seat, name: owner ? `${seatLabel(seat)} · ${owner}` : seatLabel(seat), mine: mySeatsOf(ctx, ctx.state).has(seat), target: "kk-turn" };
}
