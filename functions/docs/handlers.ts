/**
 * GET /openapi.json and the reference page at /docs, served from the swagger-ui-dist npm package
 * (no CDN). On AWS the package's three assets are copied into this function's bundle.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { NotFound } from '../platform/errors.ts';
import { api, RawResponse } from '../platform/http.ts';
import { routes } from '../features.ts';
import { openApiDocument } from './openapi.ts';
import { docsOperations as ops } from './operations.ts';

const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css',
  'swagger-ui-bundle.js': 'text/javascript',
  'swagger-ui-standalone-preset.js': 'text/javascript',
};

function assetsDir(): string {
  if (process.env.QUIRE_DOCS_ASSETS_DIR) return process.env.QUIRE_DOCS_ASSETS_DIR;
  return dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
}

let cachedDocument: string | undefined;

export const openapiDocument = api(ops.openapiDocument, async () => {
  cachedDocument ??= JSON.stringify(openApiDocument(routes));
  return new RawResponse(cachedDocument, 'application/json');
});

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Quire API reference</title>
  <link rel="stylesheet" href="/docs/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/swagger-ui-bundle.js"></script>
  <script src="/docs/swagger-ui-standalone-preset.js"></script>
  <script>
    window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui', deepLinking: true, persistAuthorization: true, docExpansion: 'none', filter: true,
      presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset], layout: 'StandaloneLayout' });
  </script>
</body>
</html>`;

export const docsPage = api(ops.docsPage, async () => new RawResponse(PAGE, 'text/html; charset=utf-8'));

export const docsAsset = api(ops.docsAsset, async ({ params }) => {
  // Own keys only: `__proto__` or `constructor` must not find an inherited property.
  const contentType = Object.hasOwn(ASSETS, params.asset) ? ASSETS[params.asset] : undefined;
  if (!contentType) throw new NotFound('Not Found');
  const body = await readFile(join(assetsDir(), params.asset));
  return new RawResponse(body.toString('utf8'), contentType, 200, { 'cache-control': 'public, max-age=86400' });
});
