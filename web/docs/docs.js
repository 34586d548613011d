// Renders openapi.yaml (served beside this page) with Swagger UI, read-only: calls need an HMAC
// signature the page cannot make for you, so "Try it out" is off and the CLI is named instead.
/* global SwaggerUIBundle */
window.ui = SwaggerUIBundle({
  url: "openapi.yaml",
  dom_id: "#reference",
  deepLinking: true,
  supportedSubmitMethods: [],
  defaultModelsExpandDepth: 0,
  validatorUrl: null,
});
