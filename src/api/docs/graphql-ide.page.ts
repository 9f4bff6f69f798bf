import { ruruHTML, type RuruServerConfig } from 'ruru/server';
import { escapeHtml } from '../web/html';
import { jsonDataBlock } from './docs.assets';

/** Ruru's bundled files (scripts, styles, the editor font); not its source maps. */
export function isRuruAsset(file: string): boolean {
  return /^[A-Za-z0-9_-]+(\.ruru)?\.(js|css|ttf)$/.test(file);
}

export interface GraphQLIdeView {
  /** Where the page's files are: `{base}/ide/`. */
  root: string;
  endpoint: string;
  /** Preset in development: the demo key header, the example flow and its variables. */
  headers?: Record<string, string>;
  document?: string;
  variables?: Record<string, unknown>;
}

/**
 * Starts Ruru from a file of the service rather than Ruru's inline scripts, so the page runs
 * under a CSP without 'unsafe-inline' scripts. The editor's workers are the package's own files.
 */
export const GRAPHQL_IDE_SCRIPT = `const config = JSON.parse(document.getElementById('ruru-config').textContent);
const worker = (file) => new Worker(new URL(config.staticPath + file, location.href), { type: 'module' });
globalThis.MonacoEnvironment = {
  getWorker(_, label) {
    if (label === 'json') return worker('jsonWorker.js');
    if (label === 'graphql') return worker('graphqlWorker.js');
    return worker('editorWorker.js');
  },
};
// GraphiQL asks for the schema before its headers editor exists, so without any header: that
// introspection gets the preset headers (every later request carries the editor's).
const preset = config.initialHeaders ? JSON.parse(config.initialHeaders) : undefined;
const pageFetch = window.fetch.bind(window);
window.fetch = (input, init) => {
  let introspection = false;
  try {
    introspection = JSON.parse(init.body).operationName === 'IntrospectionQuery';
  } catch {
    // Not a GraphQL request of the IDE.
  }
  if (!preset || !introspection) return pageFetch(input, init);
  const headers = new Headers(init.headers);
  for (const [name, value] of Object.entries(preset)) if (!headers.has(name)) headers.set(name, value);
  return pageFetch(input, { ...init, headers });
};
const theme = localStorage.getItem('graphiql:theme') ||
  (window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light');
document.body.className += ' graphiql-' + theme;
const { React, createRoot, Ruru } = await import(config.staticPath + 'ruru.js');
createRoot(document.getElementById('ruru-root')).render(React.createElement(Ruru, config));
`;

/** Ruru's page, its scripts moved out of line (see GRAPHQL_IDE_SCRIPT). */
export function graphQLIdePage(view: GraphQLIdeView): string {
  const staticPath = `${view.root}static/`;
  const clientConfig = {
    ...(view.headers
      ? {
          initialHeaders: JSON.stringify(view.headers, null, 2),
          defaultHeaders: JSON.stringify(view.headers, null, 2),
        }
      : {}),
    ...(view.document ? { initialQuery: view.document, defaultQuery: view.document } : {}),
    ...(view.variables ? { initialVariables: JSON.stringify(view.variables, null, 2) } : {}),
  };
  return ruruHTML({
    staticPath,
    endpoint: view.endpoint,
    // Ruru's types pick GraphiQL's props, whose package types are not installed: all optional.
    clientConfig: clientConfig as RuruServerConfig['clientConfig'],
    htmlParts: {
      titleTag: '<title>GraphQL IDE — Quiz results service</title>',
      configScript: (_original, baked) => jsonDataBlock('ruru-config', baked),
      headerScripts: '',
      bodyScripts: '',
      bodyInitScript: `<script type="module" src="${escapeHtml(view.root)}ide-init.js"></script>`,
    },
  });
}
