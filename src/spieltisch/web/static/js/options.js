// Table options on the start page, built from a system's option schema (JSON Schema) as data;
// a game whose options need more (Kilkenny's seats) brings its own fields in games/<id>/.
import { el, t, tFirst } from "./core.js";

function schemaOf(system) {
  const schema = system && (system.options_schema || system.options || system.schema);
  return schema && schema.properties ? schema : null;
}

function resolve(schema, node) {
  if (node && node.$ref) {
    const name = node.$ref.split("/").pop();
    return (schema.$defs || schema.definitions || {})[name] || {};
  }
  if (node && node.anyOf) {
    const first = node.anyOf.find((n) => n.type !== "null");
    return { ...resolve(schema, first), default: node.default };
  }
  return node || {};
}

function label(systemId, name, node) {
  return tFirst([`web.option.${systemId}.${name}`, `web.option.${name}`], {}, node.title || name);
}

/** Form fields for the simple options (numbers, booleans, choices, text) of a system. */
export function optionFields(system, game = null) {
  if (game?.optionFields) return game.optionFields(system);
  const schema = schemaOf(system);
  if (!schema) return [];
  const fields = [];
  for (const [name, raw] of Object.entries(schema.properties)) {
    const node = resolve(schema, raw);
    const id = "opt-" + name;
    const text = label(system.id, name, node);
    if (node.enum) {
      fields.push(el("div", { class: "field" }, el("label", { for: id }, text),
        el("select", { id, name, dataset: { option: name, type: "enum" } },
          node.enum.map((v) => el("option", { value: JSON.stringify(v), selected: v === node.default },
            tFirst([`web.option.${system.id}.${name}.${v}`, `web.option.value.${v}`], {}, String(v)))))));
    } else if (node.type === "boolean") {
      fields.push(el("div", { class: "field check" },
        el("input", { id, type: "checkbox", name, checked: node.default === true, dataset: { option: name, type: "boolean" } }),
        el("label", { for: id }, text)));
    } else if (node.type === "integer" || node.type === "number") {
      fields.push(el("div", { class: "field" }, el("label", { for: id }, text),
        el("input", {
          id, name, type: "number", value: node.default ?? "", min: node.minimum ?? node.exclusiveMinimum,
          max: node.maximum, step: node.type === "integer" ? 1 : "any", dataset: { option: name, type: node.type },
        })));
    } else if (node.type === "string") {
      fields.push(el("div", { class: "field" }, el("label", { for: id }, text),
        el("input", { id, name, value: node.default ?? "", dataset: { option: name, type: "string" } })));
    }
  }
  return fields;
}

/** The option values the person entered (only changed or required ones are sent). */
export function readOptions(system, game = null) {
  if (game?.readOptions) return game.readOptions(system);
  const options = {};
  for (const input of document.querySelectorAll("[data-option]")) {
    const name = input.dataset.option;
    const type = input.dataset.type;
    if (type === "boolean") options[name] = input.checked;
    else if (type === "enum") options[name] = JSON.parse(input.value);
    else if (type === "integer" || type === "number") {
      if (input.value === "") continue;
      const value = Number(input.value);
      if (!Number.isFinite(value) || (type === "integer" && !Number.isInteger(value))) {
        throw new Error(t("web.error.bad_number", { name: input.labels[0]?.textContent || name, value: input.value }));
      }
      options[name] = value;
    } else if (input.value !== "") options[name] = input.value;
  }
  return options;
}
