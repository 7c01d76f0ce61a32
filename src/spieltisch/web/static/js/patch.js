// @ts-check
// JSON Patch (RFC 6902): add, remove and replace, as the live table sends them
// (spieltisch.jsonpatch makes them). The one place the browser changes a view by a patch.

/** A patch that does not fit the document (the page then asks for a snapshot). */
export class PatchError extends Error {}

/** @param {string} path */
function tokens(path) {
  if (path === "") return [];
  if (!path.startsWith("/")) throw new PatchError(`a path starts with '/': ${path}`);
  return path.slice(1).split("/").map((token) => token.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/**
 * @param {unknown[]} items
 * @param {string} key
 * @param {boolean} adding
 */
function index(items, key, adding) {
  if (key === "-" && adding) return items.length;
  if (!/^(0|[1-9][0-9]*)$/.test(key)) throw new PatchError(`not an array index: ${key}`);
  const i = Number(key);
  if (i > items.length || (i === items.length && !adding)) throw new PatchError(`index ${i} out of range`);
  return i;
}

/**
 * @param {unknown} value
 * @returns {value is Record<string, any>}
 */
function isObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * @param {object} object
 * @param {string} key
 */
function has(object, key) {
  return Object.prototype.hasOwnProperty.call(object, key);
}

// An own property even for "__proto__": a plain assignment would change the prototype.
/**
 * @param {object} object
 * @param {string} key
 * @param {unknown} value
 */
function put(object, key, value) {
  Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
}

/**
 * `document` with `patch` applied; `document` itself is left unchanged. Throws PatchError.
 * @param {unknown} document
 * @param {any[]} patch
 * @returns {any}
 */
export function applyPatch(document, patch) {
  /** @type {{ doc: any }} */
  const root = { doc: structuredClone(document) };
  for (const operation of patch) {
    const { op, path } = operation || {};
    if (typeof path !== "string" || !["add", "remove", "replace"].includes(op)) {
      throw new PatchError(`unsupported operation ${JSON.stringify(operation)}`);
    }
    if (path === "") {
      if (op === "remove") throw new PatchError("the whole document cannot be removed");
      root.doc = operation.value;
      continue;
    }
    const keys = tokens(path);
    let parent = root.doc;
    for (const key of keys.slice(0, -1)) {
      if (Array.isArray(parent)) parent = parent[index(parent, key, false)];
      else if (isObject(parent) && has(parent, key)) parent = parent[key];
      else throw new PatchError(`no member ${key} at ${path}`);
    }
    const key = keys[keys.length - 1];
    if (Array.isArray(parent)) {
      const i = index(parent, key, op === "add");
      if (op === "add") parent.splice(i, 0, operation.value);
      else if (op === "remove") parent.splice(i, 1);
      else parent[i] = operation.value;
    } else if (isObject(parent)) {
      if (op !== "add" && !has(parent, key)) throw new PatchError(`no member ${key} at ${path}`);
      if (op === "remove") delete parent[key];
      else put(parent, key, operation.value);
    } else {
      throw new PatchError(`${path} is inside a scalar`);
    }
  }
  return root.doc;
}
