// The interactive API page: start Swagger UI on the schema named by the page (no inline script).
(function () {
  const box = document.getElementById("swagger-ui");
  window.ui = window.SwaggerUIBundle({
    url: box.dataset.openapi,
    dom_id: "#swagger-ui",
    layout: "BaseLayout",
    deepLinking: true,
    showExtensions: true,
    showCommonExtensions: true,
    validatorUrl: null,
    presets: [window.SwaggerUIBundle.presets.apis, window.SwaggerUIBundle.SwaggerUIStandalonePreset],
  });
})();
