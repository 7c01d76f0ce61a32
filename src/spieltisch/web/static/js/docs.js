// @ts-check
// The interactive API page: start Swagger UI on the schema named by the page (no inline script).
(function () {
  const box = /** @type {HTMLElement} */ (document.getElementById("swagger-ui"));
  // Swagger UI's bundle, loaded before this module, is a global without types.
  const win = /** @type {any} */ (window);
  win.ui = win.SwaggerUIBundle({
    url: box.dataset.openapi,
    dom_id: "#swagger-ui",
    layout: "BaseLayout",
    deepLinking: true,
    showExtensions: true,
    showCommonExtensions: true,
    validatorUrl: null,
    presets: [win.SwaggerUIBundle.presets.apis, win.SwaggerUIBundle.SwaggerUIStandalonePreset],
  });
})();
