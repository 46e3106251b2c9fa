// The API reference: Swagger UI (served from this host, swagger-ui-dist) over this host's document.
// body[data-ready] tells a test the operations are drawn.
window.ui = SwaggerUIBundle({
  url: "/docs/json",
  dom_id: "#swagger-ui",
  deepLinking: true,
  // No badge from validator.swagger.io: nothing leaves the host.
  validatorUrl: null,
  onComplete: () => {
    document.body.dataset.ready = "1";
  },
});
