"""Forms built from a schema (issue 26): the start page's table options are generated from the
system's option schema; what they send is what the server stores, a bad number is refused with
its localized message and nothing is created. And the form module itself against random
schemas of the kinds the systems use: every field labelled, the body read back as drawn."""

from __future__ import annotations

import json
from typing import Any

import pytest
from browser_helpers import new_context, open_table, watch_errors
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


def test_the_generated_option_form_creates_the_table_it_shows(browser: Any, server: Any) -> None:
    context = new_context(browser)
    page = context.new_page()
    errors = watch_errors(page)
    try:
        page.goto(server.url + "/")
        page.select_option("#new-system", "dnd5e")
        width = page.locator("#opt-width")
        # Labelled from the texts, with the schema's bounds; a choice named in words.
        expect(page.get_by_label("Map width (squares)")).to_have_value("20")
        expect(width).to_have_attribute("min", "1")
        expect(width).to_have_attribute("max", "200")
        expect(width).to_have_attribute("step", "1")
        expect(page.locator("#opt-discovery option:checked")).to_have_text("the whole table")
        width.fill("31")
        page.select_option("#opt-discovery", label="only the player who made them")
        page.select_option("#opt-edition", index=0)
        links = open_table(page, server.url, "dnd5e", "Schema", "Greta", keep_options=True)
        options = page.evaluate(
            """async (id) => {
              const token = JSON.parse(localStorage.getItem('spieltisch.tables'))[id].token;
              const headers = {Authorization: 'Bearer ' + token};
              const answer = await fetch(`/api/tables/${id}`, {headers});
              return (await answer.json()).options;
            }""",
            links["table"],
        )
        assert options["width"] == 31
        assert options["height"] == 20
        assert options["discovery"] == "player"
        assert options["edition"] == 1
        assert errors == []
    finally:
        context.close()


@pytest.mark.parametrize(
    ("lang", "message"),
    [
        ("en", "Map width (squares): '2.5' is not a valid number."),
        ("de", "'2.5' ist keine gültige Zahl."),
    ],
)
def test_a_bad_number_is_refused_by_name_and_creates_nothing(
    browser: Any, server: Any, lang: str, message: str
) -> None:
    context = new_context(browser)
    page = context.new_page()
    try:
        page.goto(server.url + "/?lang=" + lang)
        page.select_option("#new-system", "dnd5e")
        page.fill("#opt-width", "2.5")
        page.fill("#new-title-input", "Schema")
        page.fill("#new-name", "Greta")
        page.locator("#new-table button[type=submit]").click()
        expect(page.locator("#alert")).to_contain_text(message)
        expect(page.locator("#created")).to_be_hidden()
        assert page.evaluate("localStorage.getItem('spieltisch.tables')") in (None, "{}")
    finally:
        context.close()


@pytest.fixture(scope="module")
def start_page(browser: Any, server: Any) -> Any:
    context = new_context(browser)
    page = context.new_page()
    page.goto(server.url + "/")
    yield page
    context.close()


_NAMES = st.sampled_from(["width", "mode", "skill", "edition", "open", "max_pool", "tie"])
_TITLES = st.one_of(st.none(), st.sampled_from(["Width", "Max Pool", "Mode of play"]))


@st.composite
def _simple(draw: Any) -> dict[str, Any]:
    """One property as pydantic writes it: a number with bounds, a boolean, an enum, a string
    with its length limits, or an array (which the form leaves out)."""
    kind = draw(st.sampled_from(["integer", "number", "boolean", "enum", "string", "array"]))
    node: dict[str, Any]
    if kind in ("integer", "number"):
        low = draw(st.integers(-5, 5))
        node = {"type": kind, "minimum": low, "maximum": low + draw(st.integers(0, 50))}
        if draw(st.booleans()):
            node["default"] = draw(st.integers(node["minimum"], node["maximum"]))
    elif kind == "boolean":
        node = {"type": "boolean"}
        if draw(st.booleans()):
            node["default"] = draw(st.booleans())
    elif kind == "enum":
        values = draw(
            st.one_of(
                st.lists(st.sampled_from(["table", "player", "5-10-5"]), min_size=1, unique=True),
                st.lists(st.integers(1, 4), min_size=1, unique=True),
            )
        )
        node = {"enum": values, "type": "integer" if isinstance(values[0], int) else "string"}
        if draw(st.booleans()):
            node["default"] = draw(st.sampled_from(values))
    elif kind == "string":
        node = {"type": "string", "maxLength": draw(st.integers(1, 64))}
        if draw(st.booleans()):
            node["default"] = draw(st.sampled_from(["", "a", "Kreis"]))
    else:
        node = {"type": "array", "items": {"type": "integer"}}
    title = draw(_TITLES)
    if title:
        node["title"] = title
    return node


@st.composite
def _schemas(draw: Any) -> dict[str, Any]:
    properties = draw(st.dictionaries(_NAMES, _simple(), max_size=5))
    if draw(st.booleans()):  # an object one level down, as a `$ref` to its definition
        inner = draw(st.dictionaries(_NAMES, _simple(), min_size=1, max_size=3))
        properties["decay"] = {"$ref": "#/$defs/Decay"}
        defs = {"Decay": {"type": "object", "title": "Decay", "properties": inner}}
        return {"type": "object", "properties": properties, "$defs": defs}
    return {"type": "object", "properties": properties}


def _drawn(properties: dict[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    """The body an untouched form sends, and the label of every field by its path."""
    body: dict[str, Any] = {}
    labels: dict[str, str] = {}
    for name, node in properties.items():
        if "enum" in node:
            body[name] = node.get("default", node["enum"][0])  # a select shows its first
        elif node.get("type") == "boolean":
            body[name] = node.get("default") is True
        elif node.get("type") in ("integer", "number", "string"):
            if node.get("default") not in (None, ""):
                body[name] = node["default"]
        else:
            continue
        labels[name] = node.get("title", name)
    return body, labels


_FORM = """async (schemas) => {
  const { schemaFields, readFields } = await import("/static/js/schemaform.js");
  const texts = { prefix: "sf-", labelKeys: () => [], valueKeys: () => [] };
  return schemas.map((schema) => {
    const form = document.createElement("form");
    form.append(...schemaFields(schema, texts));
    document.body.append(form);
    const labels = {};
    for (const control of form.querySelectorAll("[data-field]")) {
      labels[control.dataset.field] = [...control.labels].map((l) => l.textContent).join("|");
    }
    const body = readFields(form);
    form.remove();
    return JSON.stringify({ labels, body });
  });
}"""


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(_schemas(), min_size=1, max_size=8))
def test_every_field_of_a_schema_form_is_labelled_and_read_back(
    start_page: Page, schemas: list[dict[str, Any]]
) -> None:
    results = [json.loads(text) for text in start_page.evaluate(_FORM, schemas)]
    for schema, result in zip(schemas, results, strict=True):
        body, labels = _drawn(schema["properties"])
        if "$defs" in schema:
            inner, inner_labels = _drawn(schema["$defs"]["Decay"]["properties"])
            body.pop("decay", None)
            labels.pop("decay", None)
            if inner:
                body["decay"] = inner
            labels.update({"decay." + name: text for name, text in inner_labels.items()})
        assert result["body"] == body
        assert result["labels"] == labels
