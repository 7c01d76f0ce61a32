// @ts-check
// Drafts: what a person has typed or chosen at a table and not sent yet. A redraw keeps it
// anyway (the page is patched, morph.js); a reload brings it back from this tab's
// sessionStorage, one entry per table and viewer. Only this tab keeps them; nothing is sent.
//
// - `keepForms(roots, table, person)` does it for every game at once: each control with an id
//   inside `roots` (the game's regions) is noted when the person changes it, and put back
//   after a reload as if typed again (its `input` and `change` events run, so the game's own
//   model follows). A control the game changes itself (a form cleared after sending) is
//   noted as it is now after each render. A control marked `data-draft="off"`, a file or a
//   password is never kept.
// - `drafts(table, person)` keeps named values that are not controls (the dice chosen for a
//   reroll).

const PREFIX = "spieltisch.draft";

/** @returns {Storage | null} */
function storage() {
  try {
    return window.sessionStorage;
  } catch {
    return null; // storage switched off: drafts simply live as long as the page
  }
}

/**
 * The drafts of one person at one table: `load(name, fallback)`, `save(name, value)` and
 * `clear(name)`. Values are JSON; a draft that cannot be read gives `fallback`.
 * @param {string} table
 * @param {string | null | undefined} person
 */
export function drafts(table, person) {
  /** @param {string} name */
  const key = (name) => `${PREFIX}.${table}.${person || "anonymous"}.${name}`;
  return {
    /**
     * @param {string} name
     * @param {any} [fallback]
     * @returns {any}
     */
    load(name, fallback = null) {
      try {
        const raw = storage()?.getItem(key(name));
        return raw == null ? fallback : JSON.parse(raw);
      } catch {
        return fallback;
      }
    },
    /**
     * @param {string} name
     * @param {unknown} value
     */
    save(name, value) {
      try {
        storage()?.setItem(key(name), JSON.stringify(value));
      } catch {
        // full or switched off: the draft is kept for this page only
      }
    },
    /** @param {string} name */
    clear(name) {
      storage()?.removeItem(key(name));
    },
  };
}

/** @typedef {HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement} Control */

/**
 * A control whose value is a draft: one with an id, not a file, a password or marked off.
 * @param {EventTarget | null} node
 * @returns {node is Control}
 */
function keeps(node) {
  if (!(node instanceof HTMLInputElement || node instanceof HTMLSelectElement || node instanceof HTMLTextAreaElement)) return false;
  if (!node.id || node.closest('[data-draft="off"]')) return false;
  return !(node instanceof HTMLInputElement && (node.type === "file" || node.type === "password"));
}

/**
 * What a person set in a control: checked for a box, else the value.
 * @param {Control} control
 * @returns {string | boolean}
 */
function valueOf(control) {
  return control instanceof HTMLInputElement && (control.type === "checkbox" || control.type === "radio") ? control.checked : control.value;
}

/**
 * Keep the drafts of every form inside `roots` for `table` and `person`. Returns `settle()`,
 * which the page calls after each render: after the first it puts the drafts of a reload back,
 * after every one it notes what the render changed.
 * @param {HTMLElement[]} roots
 * @param {string} table
 * @param {string | null | undefined} person
 * @returns {() => void}
 */
export function keepForms(roots, table, person) {
  const store = drafts(table, person);
  /** @type {Record<string, string | boolean>} */
  const kept = store.load("forms", {}) || {};
  let restored = false;
  let restoring = false;
  const save = () => store.save("forms", kept);
  /** @param {Event} event */
  const note = (event) => {
    if (restoring || !keeps(event.target)) return;
    kept[event.target.id] = valueOf(event.target);
    save();
  };
  for (const root of roots) {
    root.addEventListener("input", note);
    root.addEventListener("change", note);
  }
  /** @param {string} id */
  const find = (id) => {
    const node = document.getElementById(id);
    return keeps(node) && roots.some((root) => root.contains(node)) ? node : null;
  };
  /** Put each kept value back as if the person set it; a game's handler may draw the form
   * again, bringing further controls (a talent of the chosen kitty): a few rounds. */
  const restore = () => {
    restoring = true;
    try {
      for (let round = 0; round < 3; round += 1) {
        let changed = false;
        for (const [id, value] of Object.entries(kept)) {
          const control = find(id);
          if (!control || valueOf(control) === value || (value === false && control.type === "radio")) continue;
          if (control instanceof HTMLInputElement && (control.type === "checkbox" || control.type === "radio")) control.checked = Boolean(value);
          else control.value = String(value);
          if (valueOf(control) !== value) continue;  // not a choice here (any more)
          changed = true;
          control.dispatchEvent(new Event("input", { bubbles: true }));
          control.dispatchEvent(new Event("change", { bubbles: true }));
        }
        if (!changed) break;
      }
    } finally {
      restoring = false;
    }
  };
  return () => {
    if (restoring) return;
    if (!restored) {
      restored = true;
      restore();
    }
    let changed = false;
    for (const id of Object.keys(kept)) {
      const control = find(id);
      if (control && valueOf(control) !== kept[id]) {
        kept[id] = valueOf(control);
        changed = true;
      }
    }
    if (changed) save();
  };
}
