// @ts-check
// A board or map in a frame that scrolls: on a phone every square is at least a fingertip
// (44 px) wide and the frame pans; a toggle shows the whole board at once instead. The
// frame keeps its scroll position and its choice across re-renders (by its id).
import { el, t } from "./core.js";
import { live } from "./morph.js";

const frames = new Map();  // frame id -> { fit, left, top, centred }

/**
 * `picture` (an SVG whose viewBox is `cells` squares wide) in a scrolling frame with id `id`;
 * `label` is the text key of the toggle; `centre` (an element id inside the picture, e.g. the
 * token whose turn it is) is brought to the middle of the frame when the frame first opens and
 * whenever `centre` names another element (a new turn), never while the person pans.
 * CSS sizes the picture to at least `cells` × 46 px (44 px and a margin for rounding) on narrow screens unless "whole" is chosen.
 * @param {string} id
 * @param {SVGElement | HTMLElement} picture
 * @param {number} cells
 * @param {{ extraClass?: string, label?: string, centre?: string | null }} [options]
 * @returns {HTMLElement}
 */
export function zoomFrame(id, picture, cells, { extraClass = "", label = "web.layout.zoom_whole", centre = null } = {}) {
  const memory = frames.get(id) || { fit: false, left: 0, top: 0, centred: null };
  frames.set(id, memory);
  picture.style.setProperty("--cells", String(cells));
  picture.classList.add("zoomable");
  const frame = el("div", {
    class: ["zoom-frame", extraClass, memory.fit ? "is-fit" : ""].filter(Boolean).join(" "), id,
    // A frame that scrolls is reachable by the keyboard (arrow keys pan it once focused).
    tabindex: 0, role: "region", "aria-label": picture.getAttribute("aria-label") || null,
    onscroll: (/** @type {Event} */ e) => {
      const box = /** @type {HTMLElement} */ (e.currentTarget);
      memory.left = box.scrollLeft; memory.top = box.scrollTop;
    },
  }, picture);
  const toggle = el("button", {
    type: "button", class: "small zoom-toggle", id: id + "-zoom", "aria-pressed": String(memory.fit),
    "aria-controls": id,
    onclick: (/** @type {Event} */ e) => {
      memory.fit = !memory.fit;
      live(frame).classList.toggle("is-fit", memory.fit);
      /** @type {HTMLElement} */ (e.currentTarget).setAttribute("aria-pressed", String(memory.fit));
    },
  }, t(label));
  // Back to where the person had panned, once the frame is in the page (a patched frame
  // kept its place; a new one is put there).
  requestAnimationFrame(() => {
    const shown = live(frame);
    if (centre && centre !== memory.centred && centreOn(shown, centre)) {
      // Kept at once: the frame's scroll event comes a frame later, and another render's
      // callback in this frame would otherwise put the old place back.
      memory.centred = centre; memory.left = shown.scrollLeft; memory.top = shown.scrollTop;
      return;
    }
    if (shown.scrollLeft !== memory.left) shown.scrollLeft = memory.left;
    if (shown.scrollTop !== memory.top) shown.scrollTop = memory.top;
  });
  return el("div", { class: "zoom" }, toggle, frame);
}

/**
 * Scroll `frame` so that the element `id` inside it stands in its middle; false while the
 * element is not there (yet).
 * @param {HTMLElement} frame
 * @param {string} id
 * @returns {boolean}
 */
export function centreOn(frame, id) {
  const target = document.getElementById(id);
  if (!target || !frame.contains(target)) return false;
  const box = frame.getBoundingClientRect();
  const spot = target.getBoundingClientRect();
  if (!spot.width && !spot.height) return false;
  frame.scrollLeft += spot.left + spot.width / 2 - (box.left + box.width / 2);
  frame.scrollTop += spot.top + spot.height / 2 - (box.top + box.height / 2);
  return true;
}
