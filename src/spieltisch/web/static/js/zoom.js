// A board or map in a frame that scrolls: on a phone every square is at least a fingertip
// (44 px) wide and the frame pans; a toggle shows the whole board at once instead. The
// frame keeps its scroll position and its choice across re-renders (by its id).
import { el, t } from "./core.js";

const frames = new Map();  // frame id -> { fit, left, top }

/**
 * `picture` (an SVG whose viewBox is `cells` squares wide) in a scrolling frame with id `id`;
 * `label` is the text key of the toggle.
 * CSS sizes the picture to at least `cells` × 46 px (44 px and a margin for rounding) on narrow screens unless "whole" is chosen.
 */
export function zoomFrame(id, picture, cells, { extraClass = "", label = "web.layout.zoom_whole" } = {}) {
  const memory = frames.get(id) || { fit: false, left: 0, top: 0 };
  frames.set(id, memory);
  picture.style.setProperty("--cells", String(cells));
  picture.classList.add("zoomable");
  const frame = el("div", {
    class: ["zoom-frame", extraClass, memory.fit ? "is-fit" : ""].filter(Boolean).join(" "), id,
    // A frame that scrolls is reachable by the keyboard (arrow keys pan it once focused).
    tabindex: 0, role: "region", "aria-label": picture.getAttribute("aria-label") || null,
    onscroll: (e) => { memory.left = e.target.scrollLeft; memory.top = e.target.scrollTop; },
  }, picture);
  const toggle = el("button", {
    type: "button", class: "small zoom-toggle", id: id + "-zoom", "aria-pressed": String(memory.fit),
    "aria-controls": id,
    onclick: () => {
      memory.fit = !memory.fit;
      frame.classList.toggle("is-fit", memory.fit);
      toggle.setAttribute("aria-pressed", String(memory.fit));
    },
  }, t(label));
  // Back to where the person had panned, once the frame is in the page.
  requestAnimationFrame(() => { frame.scrollLeft = memory.left; frame.scrollTop = memory.top; });
  return el("div", { class: "zoom" }, toggle, frame);
}
