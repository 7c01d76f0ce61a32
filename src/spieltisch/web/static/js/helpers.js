// @ts-check
// Small helpers every game page shares: ids made from names, chances written as percentages.

/**
 * An id for a new piece made from its `name`: lower case, accents and "ß" spelled out
 * ("Müller" → "muller", "Weiß" → "weiss"), anything else a hyphen, at most 24 characters;
 * `fallback` when nothing is left; "-2", "-3", … appended while the id is `taken`.
 * @param {string} name
 * @param {Set<string>} taken
 * @param {string} [fallback]
 * @returns {string}
 */
export function slug(name, taken, fallback = "x") {
  let base = String(name).toLowerCase().normalize("NFKD").replace(/[\u0300-\u036f]/g, "").replace(/ß/g, "ss")
    .replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 24) || fallback;
  if (!/^[a-z0-9]/.test(base)) base = "x" + base;
  let id = base;
  for (let n = 2; taken.has(id); n += 1) id = `${base}-${n}`;
  return id;
}

/**
 * A chance (0 to 1) as the page's language writes a percentage with one decimal: "37,5 %".
 * @param {number} p
 * @returns {string}
 */
export function percent(p) {
  return (100 * p).toLocaleString(document.documentElement.lang, { maximumFractionDigits: 1, minimumFractionDigits: 1 }) + " %";
}

/**
 * The element of the page with id `id`; a page without it is broken, so this fails loudly
 * (naming the id) rather than letting a null travel on.
 * @param {string} id
 * @returns {HTMLElement}
 */
export function byId(id) {
  const node = document.getElementById(id);
  if (!node) throw new Error(`the page has no element #${id}`);
  return node;
}
