// @ts-check
// Table options on the start page, built from a system's option schema (JSON Schema) as data
// (`schemaform.js`; the top-level fields only, each named by a `web.option.*` text); a game whose
// options need more (Kilkenny's seats) brings its own fields in games/<id>/.
import { readFields, schemaFields } from "./schemaform.js";

/**
 * A system as `/api/systems` describes it (its option schema among the rest).
 * @typedef {Record<string, any>} System
 * @typedef {{ optionFields?: (system: System) => any[], readOptions?: (system: System) => Record<string, unknown> }} OptionGame
 */

/**
 * @param {System | undefined} system
 * @returns {Record<string, any> | null}
 */
function schemaOf(system) {
  const schema = system && (system.options_schema || system.options || system.schema);
  return schema && schema.properties ? schema : null;
}

/**
 * The texts of a system's option form: `web.option.<system>.<name>`, else `web.option.<name>`.
 * @param {string} systemId
 * @returns {import("./schemaform.js").FormTexts}
 */
function optionTexts(systemId) {
  return {
    prefix: "opt-",
    labelKeys: (name) => [`web.option.${systemId}.${name}`, `web.option.${name}`],
    valueKeys: (name, v) => [`web.option.${systemId}.${name}.${v}`, `web.option.value.${v}`],
  };
}

/**
 * Form fields for the simple options (numbers, booleans, choices, text) of a system.
 * @param {System} system
 * @param {OptionGame | null} [game]
 * @returns {any[]}
 */
export function optionFields(system, game = null) {
  if (game?.optionFields) return game.optionFields(system);
  const schema = schemaOf(system);
  return schema ? schemaFields(schema, optionTexts(system.id), { nested: false }) : [];
}

/**
 * The option values the person entered (only changed or required ones are sent).
 * @param {System} system
 * @param {OptionGame | null} [game]
 * @returns {Record<string, unknown>}
 */
export function readOptions(system, game = null) {
  if (game?.readOptions) return game.readOptions(system);
  return readFields(document);
}
