import { Router } from 'express';
import type { Config } from '../../config/config';
import { openApiDocument } from '../rest/openapi/openapi.document';
import { ideServed, presetApiKey, type FrontDoorOptions } from '../web/front-door.presets';
import { scriptAsset } from '../web/html';
import { DOCS_PATH, IDE_PATH, LANDING_PAGE_PATH, OPENAPI_PATH } from '../web/landing-page.links';
import { docsPageHeaders, packageAssets, packageFolder } from './docs.assets';
import { API_KEY_HEADER, EXAMPLE_DOCUMENT, EXAMPLE_VARIABLES } from './graphql-example';
import { GRAPHQL_IDE_SCRIPT, graphQLIdePage, isRuruAsset } from './graphql-ide.page';
import {
  REST_REFERENCE_CSS,
  REST_REFERENCE_SCRIPT,
  restReferencePage,
  SWAGGER_ASSETS,
} from './rest-reference.page';

/** Both pages: scripts from the service only, never inline; calls to the service only. */
function pageCsp(connect: readonly string[], extra: readonly string[] = []): string[] {
  return [
    "default-src 'none'",
    "script-src 'self'",
    // Swagger UI and Monaco set styles from script; the pages' own style sheets are files.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    `connect-src ${["'self'", ...connect].join(' ')}`,
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    ...extra,
  ];
}

/**
 * `{base}/openapi.json` (the committed description with this instance as its server),
 * `{base}/docs/` (Swagger UI over it) and, outside production, `{base}/ide/` (Ruru, the GraphQL
 * IDE). Every asset is served from the installed npm packages: the pages work offline.
 */
export function docsRoutes(config: Config, options: FrontDoorOptions): Router {
  const router = Router();
  const base = config.basePath;
  const publicOrigin = new URL(config.publicBaseUrl).origin;
  const apiKey = presetApiKey(config, options);

  const openApi = JSON.stringify(
    openApiDocument(undefined, {
      url: `${config.publicBaseUrl}${base}`,
      description: 'this instance',
    }),
  );
  router.get(OPENAPI_PATH, (_req, res) => {
    // A public description: other tools (an editor, a code generator) may read it.
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Cache-Control', 'no-cache');
    res.status(200).type('application/json').send(openApi);
  });

  const docsRoot = `${base}${DOCS_PATH}`;
  const restPage = restReferencePage({
    root: docsRoot,
    openApiUrl: `${base}${OPENAPI_PATH}`,
    landingPath: `${base}${LANDING_PAGE_PATH}`,
    apiKey,
  });
  router.get(DOCS_PATH, (_req, res) => {
    docsPageHeaders(res, pageCsp([publicOrigin]));
    res.status(200).send(restPage);
  });
  router.get(`${DOCS_PATH}docs-init.js`, scriptAsset(REST_REFERENCE_SCRIPT));
  router.get(`${DOCS_PATH}docs.css`, (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.status(200).type('text/css; charset=utf-8').send(REST_REFERENCE_CSS);
  });
  router.use(
    `${DOCS_PATH}assets`,
    packageAssets(packageFolder('swagger-ui-dist/package.json', 0), (file) =>
      SWAGGER_ASSETS.has(file),
    ),
  );

  if (ideServed(config)) {
    const ideRoot = `${base}${IDE_PATH}`;
    const idePage = graphQLIdePage({
      root: ideRoot,
      endpoint: `${base}/graphql`,
      ...(apiKey
        ? {
            headers: { [API_KEY_HEADER]: apiKey },
            document: EXAMPLE_DOCUMENT,
            variables: EXAMPLE_VARIABLES,
          }
        : {}),
    });
    router.get(IDE_PATH, (_req, res) => {
      // Monaco runs its language services in module workers of the package's files.
      docsPageHeaders(res, pageCsp([], ["worker-src 'self'"]));
      res.status(200).send(idePage);
    });
    router.get(`${IDE_PATH}ide-init.js`, scriptAsset(GRAPHQL_IDE_SCRIPT));
    // ruru's package entry is dist/index.js; its bundled files are in static/.
    router.use(
      `${IDE_PATH}static`,
      packageAssets(`${packageFolder('ruru', 1)}/static`, isRuruAsset),
    );
  }
  return router;
}
