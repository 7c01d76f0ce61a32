// Drafts kept locally per table and person: what someone has half built (a check, the dice
// chosen for a reroll) survives a reload. Only this browser keeps them; nothing is sent.

const PREFIX = "spieltisch.draft";

function storage() {
  try {
    return window.localStorage;
  } catch {
    return null; // storage switched off: drafts simply live as long as the page
  }
}

/**
 * The drafts of one person at one table: `load(name, fallback)`, `save(name, value)` and
 * `clear(name)`. Values are JSON; a draft that cannot be read gives `fallback`.
 */
export function drafts(table, person) {
  const key = (name) => `${PREFIX}.${table}.${person || "anonymous"}.${name}`;
  return {
    load(name, fallback = null) {
      try {
        const raw = storage()?.getItem(key(name));
        return raw == null ? fallback : JSON.parse(raw);
      } catch {
        return fallback;
      }
    },
    save(name, value) {
      try {
        storage()?.setItem(key(name), JSON.stringify(value));
      } catch {
        // full or switched off: the draft is kept for this page only
      }
    },
    clear(name) {
      storage()?.removeItem(key(name));
    },
  };
}

/** Forget every draft of `table` in this browser (all persons). */
export function forgetDrafts(table) {
  const store = storage();
  if (!store) return;
  const prefix = `${PREFIX}.${table}.`;
  for (const name of Object.keys(store)) if (name.startsWith(prefix)) store.removeItem(name);
}
