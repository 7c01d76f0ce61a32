// The free-dice table: roll any notation, with its exact odds first.
import { el, guarded, t } from "./core.js";
import { renderDice } from "./dice.js";
import { oddsChart } from "./odds.js";

let draft = { expression: "3d6", label: "" };

/** Render the roll form and the odds preview. */
export function render(body, ctx) {
  const rolls = ctx.state.rolls || [];
  const last = rolls[rolls.length - 1];
  const lastBox = el("div", { id: "fd-last", "aria-live": "polite" }, last ? [
    el("p", {}, describe(last)),
    renderDice(last.dice, { size: 48 }),
  ] : el("p", { class: "muted" }, t("web.freedice.none")));
  if (body.dataset.game === "free-dice") {
    body.querySelector("#fd-last").replaceWith(lastBox);
    return;
  }
  body.dataset.game = "free-dice";
  const chart = el("div", { id: "odds", class: "odds", "aria-live": "polite" });
  const expr = el("input", { id: "fd-expression", value: draft.expression, required: true, autocomplete: "off", oninput: (e) => (draft.expression = e.target.value) });
  const label = el("input", { id: "fd-label", value: draft.label, autocomplete: "off", oninput: (e) => (draft.label = e.target.value) });
  const command = () => ({ kind: "roll", expression: draft.expression.trim(), label: draft.label.trim() || null });
  if (ctx.me.role === "spectator") {
    body.replaceChildren(el("section", { class: "card" }, el("h2", {}, t("web.freedice.last")), lastBox));
    return;
  }
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
    chart),
  el("section", { class: "card" }, el("h2", {}, t("web.freedice.last")), lastBox));
}

function resultText(result) {
  if (result && typeof result === "object") {
    const parts = Object.entries(result).filter(([, n]) => n).map(([k, n]) => t("web.dice.symbol." + k, { n }));
    return parts.length ? parts.join(", ") : t("web.dice.blank");
  }
  return String(result);
}

/** One line per roll for the log: label, expression and result. */
export function describe(event) {
  if (event.kind !== "rolled") return null;
  const params = { expression: event.expression, result: resultText(event.result), label: event.label || "" };
  return t(event.label ? "web.freedice.rolled_label" : "web.freedice.rolled", params);
}
