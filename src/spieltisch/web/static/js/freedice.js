// The free-dice table: roll any notation, with its exact odds first.
import { el, guarded, t } from "./core.js";
import { oddsChart } from "./odds.js";

let draft = { expression: "3d6", label: "" };

/** Render the roll form and the odds preview. */
export function render(body, ctx) {
  if (body.dataset.game === "free-dice") return;
  body.dataset.game = "free-dice";
  const chart = el("div", { id: "odds", class: "odds", "aria-live": "polite" });
  const expr = el("input", { id: "fd-expression", value: draft.expression, required: true, autocomplete: "off", oninput: (e) => (draft.expression = e.target.value) });
  const label = el("input", { id: "fd-label", value: draft.label, autocomplete: "off", oninput: (e) => (draft.label = e.target.value) });
  const command = () => ({ kind: "roll", expression: draft.expression.trim(), label: draft.label.trim() || null });
  body.replaceChildren(el("section", { class: "card" },
    el("h2", {}, t("web.freedice.heading")),
    el("form", {
      class: "form", onsubmit: async (e) => { e.preventDefault(); await ctx.send(command()); },
    },
    el("div", { class: "field" }, el("label", { for: "fd-expression" }, t("web.freedice.expression")), expr),
    el("div", { class: "field" }, el("label", { for: "fd-label" }, t("web.freedice.label")), label),
    el("div", { class: "row" },
      el("button", { type: "button", onclick: async () => {
        const odds = await guarded(() => ctx.odds(command()));
        chart.replaceChildren(odds ? oddsChart(odds) : el("p", { class: "muted" }, t("web.odds.none")));
      } }, t("web.odds.show")),
      el("button", { type: "submit", class: "primary" }, t("web.freedice.roll")))),
    chart));
}
