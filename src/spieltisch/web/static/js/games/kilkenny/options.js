// @ts-check
// Kilkenny Cats' start options: the number of players and who plays each seat, from the
// seats and AI names the system declares in its metadata (GET /api/systems, `meta`).
import { el, t } from "../../core.js";
import { field, select } from "../../forms.js";
import { byId } from "../../helpers.js";

/** What the person chose so far: the number of players and who plays each seat.
 * @type {{ players: number | null, seats: string[] }} */
const chosen = { players: null, seats: [] };

/** The fields for a system whose metadata declares seats (its `meta`, as GET /api/systems tells).
 * @param {any} system
 * @returns {HTMLElement[]} */
function fields(system) {
  const meta = system.meta;
  if (chosen.players == null) chosen.players = meta.players.default;
  const seating = meta.seats[String(chosen.players)];
  while (chosen.seats.length < meta.players.max) chosen.seats.push(chosen.seats.length ? meta.default_player : "human");
  const rerender = () => {
    const box = byId("new-options");
    box.replaceChildren(el("legend", {}, t("web.start.options")), ...fields(system));
  };
  /** @type {[number, string][]} */
  const counts = [];
  for (let n = meta.players.min; n <= meta.players.max; n += 1) counts.push([n, String(n)]);
  return [
    field(t("web.option.kilkenny.players"), select("opt-players", counts, chosen.players, {
      onchange: (/** @type {Event} */ e) => { chosen.players = Number(/** @type {HTMLSelectElement} */ (e.target).value); rerender(); },
    })),
    ...seating.map((/** @type {string} */ seat, /** @type {number} */ i) => field(
      t("web.option.kilkenny.seat", { seat: t("web.kilkenny.seat." + seat) }),
      select("opt-seat-" + seat, meta.players_per_seat.map((/** @type {string} */ p) => [p, t("web.option.kilkenny.player." + p)]), chosen.seats[i], {
        onchange: (/** @type {Event} */ e) => { chosen.seats[i] = /** @type {HTMLSelectElement} */ (e.target).value; },
      }))),
  ];
}

/** The fields of the start form.
 * @param {any} system
 * @returns {HTMLElement[]} */
export function optionFields(system) {
  return system?.meta?.seats ? fields(system) : [];
}

/** The options the person chose. */
export function readOptions() {
  return { players: chosen.players, seats: chosen.seats.slice(0, chosen.players ?? 0).map((player) => ({ player })) };
}
