// @ts-check
// Shared helpers of the pages: texts, the JSON API, tokens kept in this browser, DOM building.
import { on } from "./morph.js";

/** The page's own data (its language, the addresses of its texts, ...), from its JSON block.
 * @type {any} */
export const PAGE = JSON.parse(/** @type {string} */ (/** @type {HTMLElement} */ (document.getElementById("page")).textContent));
/** @type {string} */
export const LANG = PAGE.lang;

/** @typedef {Record<string, string | string[]>} Texts */

/**
 * The texts of one part (a cacheable file whose address the page names); {} if unreachable.
 * @param {string} url
 * @returns {Promise<Texts>}
 */
async function fetchTexts(url) {
  try {
    const response = await fetch(url, { credentials: "same-origin" });
    return response.ok ? await response.json() : {};
  } catch {
    return {};
  }
}

const TEXTS = await fetchTexts(PAGE.texts.page);
/** @type {Map<string, Promise<void>>} */
const textParts = new Map();

/**
 * Fetch a game's texts once (its system id) and add them to the page's.
 * @param {string} systemId
 * @returns {Promise<void>}
 */
export function loadTexts(systemId) {
  const url = PAGE.texts.games[systemId];
  if (!url) return Promise.resolve();
  if (!textParts.has(systemId)) {
    textParts.set(systemId, fetchTexts(url).then((texts) => { Object.assign(TEXTS, texts); }));
  }
  return /** @type {Promise<void>} */ (textParts.get(systemId));
}

/** @param {unknown} value */
function repr(value) {
  if (typeof value === "string") return "'" + value.replace(/\\/g, "\\\\").replace(/'/g, "\\'") + "'";
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  return String(value);
}

// The plural forms of the catalogs of German and English, in gettext's order (nplurals=2):
// the form of one, then the other. `Intl.PluralRules` names the category of a count.
const PLURAL = new Intl.PluralRules(LANG);
const PLURAL_ORDER = ["one", "other"];
const NUMBER = new Intl.NumberFormat(LANG, { useGrouping: false, maximumFractionDigits: 20 });

/**
 * A number as people of the page's language write it ("0,5" in German); else the value.
 * @param {unknown} value
 * @returns {string}
 */
export function formatNumber(value) {
  return typeof value === "number" && Number.isFinite(value) ? NUMBER.format(value) : String(value ?? "");
}

/**
 * The form of a plural entry (a list of forms) that `count` takes in the page's language.
 * @param {string[]} forms
 * @param {unknown} count
 */
function pluralForm(forms, count) {
  const at = PLURAL_ORDER.indexOf(PLURAL.select(Number(count)));
  return forms[Math.min(at < 0 ? forms.length - 1 : at, forms.length - 1)];
}

/** The text of `key` in the page's language, `{name}` / `{name!r}` fields filled from params;
 * numbers written in the page's language. A plural entry takes the form of `params.count`.
 * @param {string} key
 * @param {Record<string, unknown>} [params]
 * @returns {string}
 */
export function t(key, params = {}) {
  const entry = TEXTS[key];
  if (entry === undefined) return key;
  const text = Array.isArray(entry) ? pluralForm(entry, params.count ?? 0) : entry;
  return text.replace(/\{(\w+)(![rs])?(:[^}]*)?\}/g, (/** @type {string} */ whole, /** @type {string} */ name, /** @type {string | undefined} */ conv) => {
    if (!(name in params)) return whole;
    const value = params[name];
    return conv === "!r" ? repr(value) : formatNumber(value);
  });
}

/**
 * Whether the catalog has `key`.
 * @param {string} key
 */
export function has(key) {
  return Object.prototype.hasOwnProperty.call(TEXTS, key);
}

/**
 * The first of `keys` that the catalog has, translated; else `fallback`.
 * @template F
 * @param {string[]} keys
 * @param {Record<string, unknown>} params
 * @param {F} fallback
 * @returns {string | F}
 */
export function tFirst(keys, params, fallback) {
  for (const key of keys) if (has(key)) return t(key, params);
  return fallback;
}

// -- tokens kept per table in localStorage ---------------------------------------------------

const STORE_KEY = "spieltisch.tables";

/**
 * All tables this browser holds a token for: id -> {token, participant, role, title, ...}.
 * @returns {Record<string, any>}
 */
export function myTables() {
  try {
    const data = JSON.parse(localStorage.getItem(STORE_KEY) || "{}");
    return data && typeof data === "object" ? data : {};
  } catch {
    return {};
  }
}

/**
 * The saved entry of one table, or null.
 * @param {string} id
 * @returns {any}
 */
export function myTable(id) {
  return myTables()[id] || null;
}

/**
 * Save (merge) what this browser knows about table `id`.
 * @param {string} id
 * @param {Record<string, unknown>} entry
 */
export function saveTable(id, entry) {
  const all = myTables();
  all[id] = { ...(all[id] || {}), ...entry, saved: all[id]?.saved || Date.now() };
  localStorage.setItem(STORE_KEY, JSON.stringify(all));
}

/**
 * Forget table `id` in this browser.
 * @param {string} id
 */
export function forgetTable(id) {
  const all = myTables();
  delete all[id];
  localStorage.setItem(STORE_KEY, JSON.stringify(all));
}

// -- the API --------------------------------------------------------------------------------

/** An error answered by the server: its stable code and the localized message. */
export class ApiError extends Error {
  /**
   * @param {string} code
   * @param {string} message
   * @param {number} status
   * @param {any} [position]
   */
  constructor(code, message, status, position = null) {
    super(message);
    this.code = code;
    this.status = status;
    this.position = position;
  }
}

/**
 * Call the JSON API; resolves to the answer, rejects with an ApiError.
 * @param {string} method
 * @param {string} path
 * @param {{ token?: string | null, body?: unknown }} [options]
 * @returns {Promise<any>}
 */
export async function api(method, path, { token = null, body = undefined } = {}) {
  /** @type {Record<string, string>} */
  const headers = { "Accept": "application/json", "Accept-Language": LANG };
  if (token) headers["Authorization"] = "Bearer " + token;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const sep = path.includes("?") ? "&" : "?";
  let response;
  try {
    response = await fetch(path + sep + "lang=" + LANG, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError("web.offline", t("web.error.offline"), 0);
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const err = data && data.error;
    if (err && err.message) throw new ApiError(err.code, err.message, response.status, err.position ?? null);
    const detail = data && data.detail;
    const text = typeof detail === "string" ? detail : t("web.error.http", { status: response.status });
    throw new ApiError("web.http", text, response.status);
  }
  return data;
}

// -- DOM ------------------------------------------------------------------------------------

/**
 * The invite link of a table: the code rides in the fragment, which never reaches a server.
 * @param {string} table
 * @param {string} code
 */
export function inviteUrl(table, code) {
  return location.origin + "/t/" + encodeURIComponent(table) + "#invite=" + encodeURIComponent(code);
}

/** The invite code in this page's fragment (`#invite=...`), or null. */
export function inviteFromFragment() {
  return new URLSearchParams(location.hash.slice(1)).get("invite");
}

/** Build an element: el("button", {class: "x", onclick: f}, "text", child, ...). Handlers
 * (`on…`) are kept so that a morph hands them on to the node in the page (`morph.js`).
 * The element is typed `any`: a caller knows from `tag` which element it built.
 * @param {string} tag
 * @param {Record<string, any>} [attrs]
 * @param {...unknown} children
 * @returns {any}
 */
export function el(tag, attrs = {}, ...children) {
  /** @type {any} */
  const node = tag === "svg" || attrs.svg ? document.createElementNS("http://www.w3.org/2000/svg", tag) : document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false || name === "svg") continue;
    if (name.startsWith("on") && typeof value === "function") on(node, name.slice(2), value);
    else if (name === "dataset") Object.assign(node.dataset, value);
    // Through the CSSOM: the Content-Security-Policy refuses style attributes, not this.
    else if (name === "style") node.style.cssText = String(value);
    else if (name === "value" && "value" in node && !(node instanceof SVGElement)) node.value = value;
    else if (name === "checked" || name === "selected" || name === "disabled") node[name] = Boolean(value);
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** Ask a question in the page, not in a browser box: a modal dialog (the keyboard stays in
 * it, Escape cancels) with a heading, the paragraphs `parts` and two buttons. Resolves to
 * true when confirmed. The buttons are `<id>-yes` and `<id>-no`.
 * @param {{ id: string, title: unknown, parts: unknown[], confirm: unknown, cancel?: unknown }} question
 * @returns {Promise<boolean>}
 */
export function ask({ id, title, parts, confirm, cancel = t("web.ask.cancel") }) {
  return new Promise((resolve) => {
    const dialog = el("dialog", { id, class: "ask", "aria-labelledby": id + "-title", "aria-describedby": id + "-text" },
      el("h2", { id: id + "-title" }, title),
      el("div", { id: id + "-text" }, parts.map((part) => el("p", {}, part))),
      el("div", { class: "row" },
        el("button", { type: "button", class: "primary", id: id + "-yes", onclick: () => dialog.close("yes") }, confirm),
        el("button", { type: "button", id: id + "-no", onclick: () => dialog.close("no") }, cancel)));
    dialog.addEventListener("close", () => {
      dialog.remove();
      resolve(dialog.returnValue === "yes");
    });
    document.body.append(dialog);
    dialog.showModal();
  });
}

/**
 * An SVG element (namespaced).
 * @param {string} tag
 * @param {Record<string, any>} [attrs]
 * @param {...unknown} children
 * @returns {any}
 */
export function svg(tag, attrs = {}, ...children) {
  return el(tag, { ...attrs, svg: true }, ...children);
}

/** @type {ReturnType<typeof setTimeout> | undefined} */
let alertTimer;

/**
 * Show a message in the page's alert region (errors are read out by screen readers).
 * @param {string} message
 * @param {string} [kind]
 */
export function showAlert(message, kind = "error") {
  const box = /** @type {HTMLElement} */ (document.getElementById("alert"));
  box.textContent = message;
  box.dataset.kind = kind;
  box.hidden = false;
  clearTimeout(alertTimer);
  if (kind !== "error") alertTimer = setTimeout(() => (box.hidden = true), 4000);
}

/** Hide the alert region. */
export function clearAlert() {
  const box = /** @type {HTMLElement} */ (document.getElementById("alert"));
  box.hidden = true;
  box.textContent = "";
}

/**
 * Run an async action, showing its error as a clear message; resolves to its result or null.
 * @template R
 * @param {() => R | Promise<R>} action
 * @returns {Promise<R | null>}
 */
export async function guarded(action) {
  try {
    const result = await action();
    return result;
  } catch (error) {
    showAlert(error instanceof ApiError ? error.message : t("web.error.unexpected", { detail: String(error) }));
    return null;
  }
}

/**
 * Copy text to the clipboard, falling back to selecting it.
 * @param {string} text
 * @param {HTMLInputElement | null} [input]
 */
export async function copyText(text, input) {
  try {
    await navigator.clipboard.writeText(text);
    showAlert(t("web.copied"), "info");
  } catch {
    if (input) {
      input.focus();
      input.select();
    }
  }
}

/** The language switch in the top bar: remember the choice in a cookie and reload. */
export function initLanguageSwitch() {
  const select = /** @type {HTMLSelectElement | null} */ (document.getElementById("lang-select"));
  if (!select) return;
  select.addEventListener("change", () => {
    document.cookie = "spieltisch_lang=" + select.value + "; path=/; max-age=31536000; samesite=lax";
    const url = new URL(location.href);
    url.searchParams.delete("lang");
    location.replace(url.toString());
  });
}

/**
 * The display name of a system id.
 * @param {string} id
 */
export function systemName(id) {
  return tFirst(["web.system." + id], {}, id);
}

/** @type {Map<string, boolean>} */
const openDetails = new Map();

/**
 * A <details> block whose open/closed state survives re-rendering (keyed by `id`).
 * @param {string} id
 * @param {unknown} summary
 * @param {unknown} content
 * @param {{ open?: boolean, attrs?: Record<string, any> }} [options]
 * @returns {any}
 */
export function details(id, summary, content, { open = false, attrs = {} } = {}) {
  const isOpen = openDetails.has(id) ? openDetails.get(id) : open;
  const ontoggle = (/** @type {Event} */ e) => openDetails.set(id, /** @type {HTMLDetailsElement} */ (e.currentTarget).open);
  return el("details", { id, open: isOpen, ...attrs, ontoggle }, el("summary", {}, summary), content);
}
