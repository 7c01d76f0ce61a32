// @ts-check
// The game modules: one folder per system id under games/, loaded when a page needs it.
// A game module exports render(body, ctx) and may export describe, summary, diceOf (table
// page) and optionFields / readOptions (start page, for options a schema form cannot show).

import { loadTexts } from "./core.js";

const loaded = new Map();

/**
 * The module of a game by its system id, or null when the system has none.
 * @param {string | null | undefined} systemId
 * @returns {Promise<any>}
 */
export async function loadGame(systemId) {
  if (!systemId || !/^[a-z0-9-]+$/.test(systemId)) return null;
  if (!loaded.has(systemId)) {
    const module = loadTexts(systemId).then(() => import(`./games/${systemId}/index.js`));
    loaded.set(systemId, module.catch(() => null));
  }
  return loaded.get(systemId);
}
