// @ts-check
// A labelled form built from a JSON Schema (a command's or a system's options), and the body
// read back from it. Numbers and integers with their bounds, booleans, enums as selects with
// localized labels, strings with their length limits, required markers and nested objects one
// level deep; what the schema holds beyond that is left to a hand-written form.
import { el, t, tFirst } from "./core.js";
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
    return el("input", {
      ...common, type: "number", value: node.default ?? "", min: node.minimum ?? node.exclusiveMinimum,
      max: node.maximum ?? node.exclusiveMaximum, step: node.type === "integer" ? 1 : "any",
    });
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
 * Error with the localized message when a number is not one.
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
    else if (input.value === "") continue;
    else if (type === "integer" || type === "number") {
      value = Number(input.value);
      if (!Number.isFinite(value) || (type === "integer" && !Number.isInteger(value))) {
        throw new Error(t("web.error.bad_number", { name: input.dataset.label || path, value: input.value }));
      }
    } else value = input.value;
    const keys = path.split(".");
    let target = body;
    for (const key of keys.slice(0, -1)) target = target[key] ??= {};
    target[keys[keys.length - 1]] = value;
  }
  return body;
}
