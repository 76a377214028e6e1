/**
 * The dashboard's static files: its own (web/) and pdf.js's browser build (pdfjs-dist/build), which
 * draws PDF pages in the page. Read from the repository locally; on AWS they are copied into the
 * dashboard Lambda's bundle (lib/cloud/api.ts) and found through QUIRE_DASHBOARD_ASSETS_DIR. The
 * pdf.js files are copied with a .js name there: the bundle's .mjs files are its code.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface Asset {
  /** Name in the repository (web/ or pdfjs-dist/build/). */
  source: { dir: 'web' | 'pdfjs'; file: string };
  /** Name in the bundle's asset directory. */
  bundled: string;
  contentType: string;
}

export const ASSETS: Record<string, Asset> = {
  'app.js': { source: { dir: 'web', file: 'app.js' }, bundled: 'app.js', contentType: 'text/javascript; charset=utf-8' },
  'app.css': { source: { dir: 'web', file: 'app.css' }, bundled: 'app.css', contentType: 'text/css; charset=utf-8' },
  'pdf.js': { source: { dir: 'pdfjs', file: 'pdf.min.mjs' }, bundled: 'pdf.min.js', contentType: 'text/javascript; charset=utf-8' },
  'pdf.worker.js': { source: { dir: 'pdfjs', file: 'pdf.worker.min.mjs' }, bundled: 'pdf.worker.min.js', contentType: 'text/javascript; charset=utf-8' },
};

/** Where each source directory is in the repository (for the local runtime and for bundling). */
export function sourceDirs(): Record<Asset['source']['dir'], string> {
  const here = dirname(fileURLToPath(import.meta.url));
  return {
    web: join(here, 'web'),
    pdfjs: join(dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'build'),
  };
}

const cache = new Map<string, Buffer>();

export async function readAsset(asset: Asset): Promise<Buffer> {
  const bundledDir = process.env.QUIRE_DASHBOARD_ASSETS_DIR;
  const path = bundledDir ? join(bundledDir, asset.bundled) : join(sourceDirs()[asset.source.dir], asset.source.file);
  // Locally the files may change while the server runs (editing web/app.js): cache only on AWS.
  if (bundledDir && cache.has(path)) return cache.get(path)!;
  const bytes = await readFile(path);
  if (bundledDir) cache.set(path, bytes);
  return bytes;
}
