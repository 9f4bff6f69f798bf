import { escapeHtml } from '../web/html';
import { jsonDataBlock } from './docs.assets';

/** The swagger-ui-dist files the page loads; nothing else of the package is served. */
export const SWAGGER_ASSETS = new Set(['swagger-ui-bundle.js', 'swagger-ui.css']);

export interface RestReferenceView {
  /** Where the page's assets are: `{base}/docs/`. */
  root: string;
  openApiUrl: string;
  landingPath: string;
  /** Preset in the Authorize dialog (development, demo key). */
  apiKey?: string;
}

/**
 * Swagger UI over the served /openapi.json: the operations, the Authorize dialog (the `apiKey`
 * and `accessToken` schemes) and "Try it out" against the `servers` entry, this instance.
 */
export const REST_REFERENCE_SCRIPT = `'use strict';
(function () {
  var config = JSON.parse(document.getElementById('docs-config').textContent);
  var ui = SwaggerUIBundle({
    url: config.openApiUrl,
    dom_id: '#swagger-ui',
    deepLinking: true,
    // The default validator badge would call validator.swagger.io.
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
    onComplete: function () {
      if (config.apiKey) ui.preauthorizeApiKey('apiKey', config.apiKey);
    },
  });
  window.ui = ui;
})();
`;

const STYLE = `body { margin: 0; font-family: system-ui, sans-serif; background: #fafafa; }
.docs-bar { display: flex; gap: 1.5rem; align-items: baseline; padding: .75rem 1.5rem;
  background: #1d1f23; color: #fff; }
.docs-bar a { color: #cfe0ff; }
.docs-bar strong { font-size: 1.05rem; }`;

export function restReferencePage(view: RestReferenceView): string {
  const keyNote = view.apiKey
    ? '<span id="preset-note">The demo API key is preset (Authorize).</span>'
    : '<span>Authorize with your API key to try the operations out.</span>';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>REST reference — Quiz results service</title>
<link rel="stylesheet" href="${escapeHtml(view.root)}assets/swagger-ui.css">
<link rel="stylesheet" href="${escapeHtml(view.root)}docs.css">
</head>
<body>
<nav class="docs-bar"><strong>Quiz results service — REST reference</strong>
<a href="${escapeHtml(view.landingPath)}">Start page</a>
<a href="${escapeHtml(view.openApiUrl)}">openapi.json</a>
${keyNote}</nav>
<div id="swagger-ui"></div>
${jsonDataBlock('docs-config', { openApiUrl: view.openApiUrl, apiKey: view.apiKey })}
<script src="${escapeHtml(view.root)}assets/swagger-ui-bundle.js"></script>
<script src="${escapeHtml(view.root)}docs-init.js"></script>
</body>
</html>
`;
}

export const REST_REFERENCE_CSS = STYLE;
