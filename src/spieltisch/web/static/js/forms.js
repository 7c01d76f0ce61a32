// @ts-check
// Shared form helpers: labelled fields, selects, number inputs and checkboxes, built as data.
import { el, t } from "./core.js";
import { live } from "./morph.js";

/** The visible marker of a required field, after its label (the control itself carries the
 * HTML `required` attribute, which assistive technology announces). */
export function requiredMark() {
  return el("span", { class: "required-mark", "aria-hidden": "true", title: t("web.form.required") }, "*");
}

/**
 * A field's label: its text, and the required marker when `control` is required.
 * @param {HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement} control
 * @param {unknown} text
 */
export function fieldLabel(control, text) {
  return el("label", { for: control.id }, text, control.required ? [" ", requiredMark()] : null);
}

/**
 * A labelled field: `<div class="field"><label for=id>text</label>control</div>`.
 * @param {unknown} text
 * @param {HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement} control
 * @param {string} [extra]
 */
export function field(text, control, extra = "") {
  return el("div", { class: "field" + (extra ? " " + extra : "") }, fieldLabel(control, text), control);
}

/**
 * A checkbox with its label after it.
 * @param {string} id
 * @param {unknown} text
 * @param {unknown} checked
 * @param {Record<string, unknown>} [attrs]
 */
export function checkField(id, text, checked, attrs = {}) {
  const box = el("input", { id, type: "checkbox", checked: !!checked, ...attrs });
  return el("div", { class: "field check" }, box, el("label", { for: id }, text));
}

/**
 * A select of `[value, text]` pairs with `selected` chosen.
 * @param {string} id
 * @param {[unknown, unknown][]} choices
 * @param {unknown} selected
 * @param {Record<string, unknown>} [attrs]
 * @returns {HTMLSelectElement}
 */
export function select(id, choices, selected, attrs = {}) {
  return el("select", { id, ...attrs },
    choices.map(([value, text]) => el("option", { value, selected: String(value) === String(selected) }, text)));
}

/**
 * A number input.
 * @param {string} id
 * @param {unknown} value
 * @param {{ min?: number, max?: number, step?: number, [name: string]: unknown }} [attrs]
 * @returns {HTMLInputElement}
 */
export function numberInput(id, value, { min, max, step = 1, ...attrs } = {}) {
  return el("input", { id, type: "number", value: value ?? "", min, max, step, ...attrs });
}

/**
 * A text input.
 * @param {string} id
 * @param {unknown} [value]
 * @param {Record<string, unknown>} [attrs]
 * @returns {HTMLInputElement}
 */
export function textInput(id, value = "", attrs = {}) {
  return el("input", { id, value, autocomplete: "off", ...attrs });
}

/**
 * The number in an input (or anything with its `value`), or `fallback` when it is empty or not
 * a whole number.
 * @param {{ value: string }} input
 * @param {number | null} [fallback]
 */
export function readInt(input, fallback = null) {
  const value = Number(input.value);
  return input.value !== "" && Number.isInteger(value) ? value : fallback;
}

/**
 * An editable list of rows, as a fieldset: every entry of `items` (an array, changed in
 * place) is drawn by `row(item, index, rowId)` as its controls, each row with a remove
 * button, the list with an add button that appends `blank()`. The list redraws itself after
 * adding or removing (the rest of the form stays as typed) and calls `onchange(items)`.
 * Ids: `${id}-${index}` per row, `${id}-${index}-remove`, `${id}-add`.
 * @template T
 * @param {{ id: string, legend: unknown, items: T[], blank: () => T,
 *   row: (item: T, index: number, rowId: string) => unknown,
 *   addLabel: unknown, removeLabel: (item: T, index: number) => unknown,
 *   empty?: unknown, onchange?: (items: T[]) => void }} options
 */
export function rowList({ id, legend, items, blank, row, addLabel, removeLabel, empty = null, onchange = () => {} }) {
  const list = el("div", { class: "row-list-rows", id: `${id}-rows` });
  // The list in the page (`live`): after a morph the rows are drawn into the one shown.
  const draw = () => live(list).replaceChildren(...(items.length
    ? items.map((item, index) => el("div", { class: "row-list-row", id: `${id}-${index}` },
      row(item, index, `${id}-${index}`),
      el("button", { type: "button", class: "row-list-remove", id: `${id}-${index}-remove`,
        onclick: () => { items.splice(index, 1); draw(); onchange(items); } }, removeLabel(item, index))))
    : [empty ? el("p", { class: "muted" }, empty) : null].filter(Boolean)));
  draw();
  const add = () => {
    items.push(blank());
    draw();
    onchange(items);
    /** @type {HTMLElement | null | undefined} */ (live(list).lastElementChild?.querySelector("input, select, textarea"))?.focus();
  };
  return el("fieldset", { class: "row-list", id }, el("legend", {}, legend), list,
    el("button", { type: "button", class: "row-list-add", id: `${id}-add`, onclick: add }, addLabel));
}
