// @ts-check
// A labelled form built from a JSON Schema (a command's or a system's options), and the body
// read back from it. Numbers and integers with their bounds, booleans, enums as selects with
// localized labels, strings with their length limits, required markers and nested objects one
// level deep; what the schema holds beyond that is left to a hand-written form. Integers are
// number fields; other numbers are text fields written and read in the page's language ("1,5"
// in German, a comma or a point accepted), their bounds checked before sending. `commandForm`
// builds a whole form that sends one command of the table's game from the schemas the server
// serves for it (`loadCommands`, once per game).
import { api, el, formatNumber, showAlert, t, tFirst } from "./core.js";
import { fieldLabel } from "./forms.js";

/**
 * A schema node (JSON Schema as the server writes it).
 * @typedef {Record<string, any>} Node
 */

/**
 * Where a form's texts come from: the text keys tried for a field's label (its dotted path) and
 * for one choice of an enum, first found wins; the schema's title, then the name, else.
 * @typedef {{ prefix: string, labelKeys: (path: string) => string[], valueKeys: (path: string, value: unknown) => string[] }} FormTexts
 */

/**
 * A node with its `$ref` followed and a nullable `anyOf` reduced to its other member.
 * @param {Node} schema
 * @param {Node | undefined} node
 * @returns {Node}
 */
export function resolve(schema, node) {
  if (node && node.$ref) {
    const name = node.$ref.split("/").pop();
    return (schema.$defs || schema.definitions || {})[name] || {};
  }
  if (node && node.anyOf) {
    const first = node.anyOf.find((/** @type {Node} */ n) => n.type !== "null");
    return { ...resolve(schema, first), default: node.default };
  }
  return node || {};
}

/**
 * The control of one simple property, or null when the schema asks for more than a field.
 * @param {Node} node
 * @param {string} id
 * @param {string} path
 * @param {string} label
 * @param {boolean} required
 * @param {FormTexts} texts
 */
function control(node, id, path, label, required, texts) {
  const common = { id, name: path, required, dataset: { field: path, label, type: node.enum ? "enum" : node.type } };
  if (node.enum) {
    return el("select", common, node.enum.map((/** @type {unknown} */ v) =>
      el("option", { value: JSON.stringify(v), selected: v === node.default }, tFirst(texts.valueKeys(path, v), {}, String(v)))));
  }
  if (node.type === "boolean") return el("input", { ...common, type: "checkbox", required: false, checked: node.default === true });
  if (node.type === "integer" || node.type === "number") {
    const low = node.minimum ?? node.exclusiveMinimum, high = node.maximum ?? node.exclusiveMaximum;
    const bounds = { ...common.dataset, min: low ?? "", max: high ?? "", open: node.exclusiveMinimum !== undefined ? "low" : "" };
    if (node.type === "integer") {
      return el("input", { ...common, dataset: bounds, type: "number", value: node.default ?? "", min: low, max: high, step: 1 });
    }
    const start = node.default === undefined || node.default === null ? "" : formatNumber(Number(node.default));
    return el("input", { ...common, dataset: bounds, type: "text", inputmode: "decimal", autocomplete: "off", value: start });
  }
  if (node.type === "string") {
    return el("input", { ...common, value: node.default ?? "", minlength: node.minLength, maxlength: node.maxLength });
  }
  return null;
}

/**
 * Form fields for the properties of `schema` that a field can hold; with `nested`, an object
 * property becomes a fieldset of its own simple properties (paths `outer.inner`).
 * @param {Node} schema
 * @param {FormTexts} texts
 * @param {{ nested?: boolean }} [options]
 * @returns {any[]}
 */
export function schemaFields(schema, texts, { nested = true } = {}) {
  return fieldsOf(schema, texts, schema, "", nested);
}

/** The command schemas of each game loaded so far (system id → the schema of its commands).
 * @type {Map<string, Node>} */
const commandSchemas = new Map();
/** @type {Map<string, Promise<void>>} */
const loading = new Map();

/**
 * Load the command schemas of a game once (its system id); `commandForm` draws from them.
 * @param {string} systemId
 * @returns {Promise<void>}
 */
export function loadCommands(systemId) {
  if (!loading.has(systemId)) {
    loading.set(systemId, api("GET", `/api/systems/${encodeURIComponent(systemId)}`).then((system) => {
      commandSchemas.set(systemId, system.commands || {});
    }, () => {
      loading.delete(systemId);  // asked again with the next reload; the forms wait till then
    }));
  }
  return /** @type {Promise<void>} */ (loading.get(systemId));
}

/**
 * The schema of one command of a loaded game, with the game's definitions (for `$ref`s), or
 * null when its schemas are not loaded or it has no such command.
 * @param {string} systemId
 * @param {string} kind
 * @returns {Node | null}
 */
export function commandSchema(systemId, kind) {
  const all = commandSchemas.get(systemId);
  if (!all) return null;
  const member = Object.values(all.$defs || {}).find((d) => d?.properties?.kind?.const === kind);
  return member ? { ...member, $defs: all.$defs } : null;
}

/**
 * A form that sends one command of the table's game, its fields drawn from the command's
 * schema: every property but `kind` and those `fixed` (the being the form is about), each
 * starting at `values` (what the table holds now) or the schema's default. Labels come from
 * `labels` (property → text key) and the choices of an enum from `choices(property, value)`
 * (a text key). The fields' ids are `prefix` and the property's name (`prefix` + "submit" the
 * button's). Sending reads the fields; a number that is not one, or one out of its
 * bounds, is refused on the page naming it, and nothing is sent. Null when the game's schemas
 * are not loaded (the table page loads them with the game).
 * @param {{ system: string, kind: string, id: string, prefix?: string, submit: string,
 *   send: (command: Record<string, unknown>) => unknown,
 *   fixed?: Record<string, unknown>, values?: Record<string, unknown>,
 *   labels?: Record<string, string>, choices?: (path: string, value: unknown) => string,
 *   title?: unknown, inline?: boolean }} options
 * @returns {HTMLFormElement | null}
 */
export function commandForm({ system, kind, id, prefix = id + "-", submit, send, fixed = {}, values = {}, labels = {}, choices, title = null, inline = true }) {
  const member = commandSchema(system, kind);
  if (!member) return null;
  const shown = { ...member, properties: { ...member.properties } };
  for (const name of ["kind", ...Object.keys(fixed)]) delete shown.properties[name];
  for (const [name, value] of Object.entries(values)) {
    if (shown.properties[name] && value !== undefined && value !== null) {
      shown.properties[name] = { ...resolve(member, shown.properties[name]), default: value };
    }
  }
  /** @type {FormTexts} */
  const texts = {
    prefix,
    labelKeys: (path) => (labels[path] ? [labels[path]] : []),
    valueKeys: (path, value) => (choices ? [choices(path, value)] : []),
  };
  return el("form", {
    class: inline ? "form inline" : "form", id, "data-command": kind, novalidate: true,
    onsubmit: (/** @type {SubmitEvent} */ event) => {
      event.preventDefault();
      let body;
      try {
        body = readFields(/** @type {HTMLFormElement} */ (event.currentTarget));
      } catch (error) {
        showAlert(error instanceof Error ? error.message : String(error));
        return;
      }
      send({ kind, ...fixed, ...body });
    },
  }, title, schemaFields(shown, texts, { nested: false }), el("button", { type: "submit", id: prefix + "submit" }, submit));
}

/**
 * @param {Node} schema
 * @param {FormTexts} texts
 * @param {Node} node the object whose properties are drawn (the schema itself at the top)
 * @param {string} base the path of that object
 * @param {boolean} nested
 * @returns {any[]}
 */
function fieldsOf(schema, texts, node, base, nested) {
  /** @type {any[]} */
  const fields = [];
  const required = new Set(node.required || []);
  for (const [name, raw] of Object.entries(node.properties || {})) {
    const child = resolve(schema, raw);
    const path = base ? base + "." + name : name;
    const label = tFirst(texts.labelKeys(path), {}, child.title || name);
    if (child.type === "object" && child.properties) {
      const inner = nested && !base ? fieldsOf(schema, texts, child, path, false) : [];
      if (inner.length) fields.push(el("fieldset", { class: "field-group" }, el("legend", {}, label), inner));
      continue;
    }
    const id = texts.prefix + path.replace(/\./g, "-");
    const input = control(child, id, path, label, required.has(name), texts);
    if (!input) continue;
    if (child.type === "boolean" && !child.enum) fields.push(el("div", { class: "field check" }, input, el("label", { for: id }, label)));
    else fields.push(el("div", { class: "field" }, fieldLabel(input, label), input));
  }
  return fields;
}

/**
 * The body entered in the fields under `root` (empty optional fields are left out). Throws an
 * Error with the localized message when a required field is empty or a number is not one or
 * out of its bounds.
 * @param {ParentNode} root
 * @returns {Record<string, any>}
 */
export function readFields(root) {
  /** @type {Record<string, any>} */
  const body = {};
  for (const input of /** @type {NodeListOf<HTMLInputElement>} */ (root.querySelectorAll("[data-field]"))) {
    const path = /** @type {string} */ (input.dataset.field);
    const type = input.dataset.type;
    /** @type {unknown} */
    let value;
    if (type === "boolean") value = input.checked;
    else if (type === "enum") value = JSON.parse(input.value);
    else if (input.value.trim() === "") {
      if (input.required) throw new Error(t("web.error.required", { field: input.dataset.label || path }));
      continue;
    }
    else if (type === "integer" || type === "number") {
      const written = input.value.trim();
      // a decimal comma as German writes it, or a point; one of them at most
      value = /^[-+]?[0-9]*[.,]?[0-9]+$/.test(written) ? Number(written.replace(",", ".")) : NaN;
      if (!Number.isFinite(value) || (type === "integer" && !Number.isInteger(value))) {
        throw new Error(t("web.error.bad_number", { name: input.dataset.label || path, value: input.value }));
      }
      const low = input.dataset.min ? Number(input.dataset.min) : null;
      const high = input.dataset.max ? Number(input.dataset.max) : null;
      const number = /** @type {number} */ (value);
      if ((low !== null && (input.dataset.open === "low" ? number <= low : number < low)) || (high !== null && number > high)) {
        throw new Error(t("web.error.out_of_range", { name: input.dataset.label || path, value: input.value, min: low ?? "−∞", max: high ?? "∞" }));
      }
    } else value = input.value;
    const keys = path.split(".");
    let target = body;
    for (const key of keys.slice(0, -1)) target = target[key] ??= {};
    target[keys[keys.length - 1]] = value;
  }
  return body;
}
