// @ts-check
// Patching the page instead of rebuilding it. A render builds a fresh tree (with `el`, as
// ever); `morph(live, fresh)` then changes the live children of `live` until they match the
// fresh ones, keeping every live node that has a counterpart: so a focused field keeps its
// caret and what was typed, an open <details> stays open, a scrolled frame keeps its place and
// a running animation runs on.
//
// - Nodes pair by id first (an element whose id, or an id inside it, the fresh node carries
//   too), then in order by kind (same tag, no id on either side).
// - Attributes follow the fresh node; `style` through the CSSOM (the page's CSP forbids style
//   attributes).
// - Event handlers given to `el` as `on…` attributes are kept per node in a table (`on`); the
//   live node takes the fresh node's handlers, so a click runs the code of the latest render.
//   Listeners added with `addEventListener` directly are not carried over.
// - A control's value (checked) follows the fresh tree where an input or change handler of
//   the control keeps the page's model of it (the render draws back what was typed, or a form
//   cleared after sending); a control without one, and every <details> (whose toggle event
//   comes a task after the click), keeps what the person typed, chose or opened until the
//   render draws another value than last time. A value equal to the live one is not set
//   again, so the caret stays where it is.
// - Code that holds a node of the fresh tree after the render (an answer arriving later)
//   finds the node that stands in the page with `live(node)`.

/** @typedef {string | boolean} Drawn */

/** @type {WeakMap<EventTarget, Record<string, (event: Event) => unknown>>} */
const handlers = new WeakMap();
/** @type {WeakMap<Node, Drawn>} What a render drew into a control (value, checked, open). */
const drawn = new WeakMap();
/** @type {WeakMap<Node, Node>} A fresh node -> the live node it was merged into. */
const merged = new WeakMap();

const CONTROLS = "input, select, textarea, details";

/**
 * Give `node` the handler `handler` for events of `type` (one per type; a later one replaces
 * it). The morph hands a node's handlers on to the live node it merges into.
 * @param {EventTarget} node
 * @param {string} type
 * @param {(event: Event) => unknown} handler
 */
export function on(node, type, handler) {
  let table = handlers.get(node);
  if (!table) {
    table = {};
    handlers.set(node, table);
  }
  if (!(type in table)) {
    node.addEventListener(type, (event) => {
      const run = handlers.get(node)?.[type];
      return run ? run.call(node, event) : undefined;
    });
  }
  table[type] = handler;
}

/**
 * The node standing in the page for `node`: the live node it was merged into, else itself.
 * @template {Node} T
 * @param {T} node
 * @returns {T}
 */
export function live(node) {
  return /** @type {T} */ (merged.get(node) ?? node);
}

/**
 * The state a person changes in a control: checked for a box, open for <details>, else the value.
 * @param {Node} node
 * @returns {Drawn | undefined}
 */
function stateOf(node) {
  if (node instanceof HTMLInputElement && node.type === "file") return undefined;  // only the person chooses a file
  if (node instanceof HTMLInputElement) return node.type === "checkbox" || node.type === "radio" ? node.checked : node.value;
  if (node instanceof HTMLSelectElement || node instanceof HTMLTextAreaElement) return node.value;
  if (node instanceof HTMLDetailsElement) return node.open;
  return undefined;
}

/**
 * @param {Node} node
 * @param {Drawn} value
 */
function setState(node, value) {
  if (node instanceof HTMLInputElement && (node.type === "checkbox" || node.type === "radio")) node.checked = Boolean(value);
  else if (node instanceof HTMLDetailsElement) node.open = Boolean(value);
  else if (node instanceof HTMLInputElement || node instanceof HTMLSelectElement || node instanceof HTMLTextAreaElement) node.value = String(value);
}

/**
 * Note what was drawn into the controls of a subtree that enters the page.
 * @param {Node} node
 */
function remember(node) {
  if (!(node instanceof Element)) return;
  const own = stateOf(node);
  if (own !== undefined) drawn.set(node, own);
  for (const control of node.querySelectorAll(CONTROLS)) {
    const value = stateOf(control);
    if (value !== undefined) drawn.set(control, value);
  }
}

/**
 * Make the children of `live` match those of `fresh` (whose children are used up).
 * @param {Element | DocumentFragment} livePart
 * @param {Element | DocumentFragment} fresh
 */
export function morph(livePart, fresh) {
  /** @type {Map<Node, Set<string>>} */
  const ids = new Map();
  collectIds(livePart, ids);
  collectIds(fresh, ids);
  morphChildren(livePart, fresh, ids);
}

/**
 * Make the children of `livePart` the nodes `children` (nested lists and nulls allowed), by a morph.
 * @param {Element} livePart
 * @param {unknown[]} children
 */
export function patch(livePart, children) {
  const fresh = document.createDocumentFragment();
  for (const child of children.flat(Infinity)) if (child instanceof Node) fresh.append(child);
  morph(livePart, fresh);
}

/**
 * Every node's ids: its own and those of the elements inside it.
 * @param {ParentNode & Node} root
 * @param {Map<Node, Set<string>>} ids
 */
function collectIds(root, ids) {
  for (const node of root.querySelectorAll("[id]")) {
    /** @type {Node | null} */
    let up = node;
    for (; up && up !== root; up = up.parentNode) {
      let set = ids.get(up);
      if (!set) ids.set(up, (set = new Set()));
      set.add(node.id);
    }
  }
}

/**
 * Whether a live node may become `fresh`: same kind, same tag, same id (or none), same input type.
 * @param {Node} old
 * @param {Node} fresh
 */
function similar(old, fresh) {
  if (old.nodeType !== fresh.nodeType || old.nodeName !== fresh.nodeName) return false;
  if (!(old instanceof Element) || !(fresh instanceof Element)) return true;
  if (old.id !== fresh.id) return false;
  return !(old instanceof HTMLInputElement) || old.type === /** @type {HTMLInputElement} */ (fresh).type;
}

/**
 * @param {Element | DocumentFragment} livePart
 * @param {Element | DocumentFragment} fresh
 * @param {Map<Node, Set<string>>} ids
 */
function morphChildren(livePart, fresh, ids) {
  const olds = [...livePart.childNodes];
  const news = [...fresh.childNodes];
  /** @type {(ChildNode | null)[]} */
  const pairs = news.map(() => null);
  const used = new Set();
  const at = news.some((node) => ids.has(node)) ? pairById(olds, news, pairs, used, ids) : null;
  // In order: the next live node of the same kind that holds no id (kept for id matches).
  let cursor = 0;
  news.forEach((node, i) => {
    const paired = pairs[i];
    if (paired) {
      cursor = Math.max(cursor, (at?.get(paired) ?? -1) + 1);
      return;
    }
    if (node instanceof Element && node.id) return;
    for (let j = cursor; j < olds.length; j += 1) {
      const old = olds[j];
      if (used.has(old) || ids.has(old) || !similar(old, node)) continue;
      used.add(old);
      pairs[i] = old;
      cursor = j + 1;
      break;
    }
  });
  for (const old of olds) if (!used.has(old)) livePart.removeChild(old);
  news.forEach((node, i) => {
    const target = pairs[i] || node;
    const here = livePart.childNodes[i] ?? null;
    if (here !== target) place(livePart, target, here, Boolean(pairs[i]));
    if (pairs[i]) morphNode(/** @type {Node} */ (pairs[i]), node, ids);
    else remember(node);
  });
}

/**
 * Pair each fresh node that holds ids with the first live node that is similar and carries one
 * of them, wherever it stands (into `pairs`, marking it `used`); the live nodes' positions.
 * @param {ChildNode[]} olds
 * @param {ChildNode[]} news
 * @param {(ChildNode | null)[]} pairs
 * @param {Set<ChildNode>} used
 * @param {Map<Node, Set<string>>} ids
 * @returns {Map<ChildNode, number>}
 */
function pairById(olds, news, pairs, used, ids) {
  /** @type {Map<ChildNode, number>} */
  const at = new Map();
  /** @type {Map<string, number[]>} An id -> the live nodes that hold it, in order. */
  const holders = new Map();
  olds.forEach((old, j) => {
    at.set(old, j);
    for (const id of ids.get(old) ?? []) {
      const list = holders.get(id);
      if (list) list.push(j);
      else holders.set(id, [j]);
    }
  });
  news.forEach((node, i) => {
    const want = ids.get(node);
    if (!want) return;
    let best = -1;
    for (const id of want) {
      for (const j of holders.get(id) ?? []) {
        if (best !== -1 && j >= best) break;
        const old = /** @type {ChildNode} */ (olds[j]);
        if (!used.has(old) && similar(old, node)) best = j;
      }
    }
    if (best !== -1) {
      const old = /** @type {ChildNode} */ (olds[best]);
      used.add(old);
      pairs[i] = old;
    }
  });
  return at;
}

/**
 * Put `node` before `before`; a live node moves with its state where the browser can
 * (`moveBefore` keeps focus and animations), else as an ordinary insertion.
 * @param {Element | DocumentFragment} parent
 * @param {Node} node
 * @param {Node | null} before
 * @param {boolean} wasLive
 */
function place(parent, node, before, wasLive) {
  const move = /** @type {{ moveBefore?: (node: Node, before: Node | null) => void }} */ (/** @type {unknown} */ (parent)).moveBefore;
  if (wasLive && move && parent.isConnected) {
    try {
      move.call(parent, node, before);
      return;
    } catch {
      // not movable with its state here: insert it as usual
    }
  }
  parent.insertBefore(node, before);
}

/**
 * Turn the live node `old` into `fresh`: text, attributes, handlers, children, control state.
 * @param {Node} old
 * @param {Node} fresh
 * @param {Map<Node, Set<string>>} ids
 */
function morphNode(old, fresh, ids) {
  merged.set(fresh, old);
  if (!(old instanceof Element) || !(fresh instanceof Element)) {
    if (old.nodeValue !== fresh.nodeValue) old.nodeValue = fresh.nodeValue;
    return;
  }
  morphAttributes(old, fresh);
  const table = handlers.get(fresh) || {};
  const mine = handlers.get(old);
  if (mine) for (const type of Object.keys(mine)) if (!(type in table)) delete mine[type];
  for (const [type, handler] of Object.entries(table)) on(old, type, handler);
  // A text area's text is its value, which follows the rule for values below.
  if (!(old instanceof HTMLTextAreaElement)) morphChildren(old, fresh, ids);
  const now = stateOf(fresh);
  if (now === undefined) return;
  const before = drawn.get(old);
  drawn.set(old, now);
  // A control with an input or change handler is the model's: the handler stores what the
  // person does and the render draws it back, so the fresh value holds (a form cleared after
  // sending is cleared). Another keeps what the person did until a render draws a new value.
  // A <details> is never the model's: its toggle event comes in a task after the click, so a
  // render between the two would draw it as the model had it and close what was just opened.
  const mirrored = "input" in table || "change" in table;
  if ((mirrored || before !== now) && stateOf(old) !== now) setState(old, now);
}

/**
 * @param {Element} old
 * @param {Element} fresh
 */
function morphAttributes(old, fresh) {
  if (sameAttributes(old, fresh)) return;
  for (const attr of [...old.attributes]) {
    if (personal(old, attr.name)) continue;
    // A tabindex the page gave a focused node to take the focus (goTo) stays while it has it:
    // removing it would blur the node.
    if (attr.name === "tabindex" && old === document.activeElement) continue;
    if (!fresh.hasAttributeNS(attr.namespaceURI, attr.localName)) old.removeAttributeNS(attr.namespaceURI, attr.localName);
  }
  for (const attr of fresh.attributes) {
    if (personal(old, attr.name)) continue;
    if (old.getAttributeNS(attr.namespaceURI, attr.localName) === attr.value) continue;
    if (attr.name === "style" && old instanceof HTMLElement && fresh instanceof HTMLElement) old.style.cssText = fresh.style.cssText;
    else if (attr.name === "style" && old instanceof SVGElement && fresh instanceof SVGElement) old.style.cssText = fresh.style.cssText;
    else old.setAttributeNS(attr.namespaceURI, attr.name, attr.value);
  }
}

/**
 * Whether `old` carries the attributes of `fresh` already, in the same order (what a render
 * mostly finds): then there is nothing to change.
 * @param {Element} old
 * @param {Element} fresh
 */
function sameAttributes(old, fresh) {
  const had = old.attributes;
  const wants = fresh.attributes;
  if (had.length !== wants.length) return false;
  for (let i = 0; i < had.length; i += 1) {
    const a = /** @type {Attr} */ (had[i]);
    const b = /** @type {Attr} */ (wants[i]);
    if (a.name !== b.name || a.value !== b.value || a.namespaceURI !== b.namespaceURI) return false;
  }
  return true;
}

/**
 * An attribute that mirrors what a person changes (an open <details>, an input's value or
 * checked): it follows the rule for control state, not the fresh attributes.
 * @param {Element} node
 * @param {string} name
 */
function personal(node, name) {
  return (node instanceof HTMLDetailsElement && name === "open") || (node instanceof HTMLInputElement && (name === "value" || name === "checked"));
}
