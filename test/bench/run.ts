/**
 * `npm run bench`: every benchmark, each printing its figures next to a reference measured in the
 * same run. `npm run bench -- api` or `-- bundles` runs one.
 */
import { benchApi, printApiResults } from './api.ts';

const only = process.argv[2];

if (!only || only === 'api') printApiResults(await benchApi());
if (!only || only === 'parse') {
  const { benchParse } = await import('./parse.ts');
  await benchParse();
}
// Not in the default run (its timings want a quiet machine): real corpus PDFs against pdftotext.
if (only === 'parse-real') {
  const { benchParseReal } = await import('./parse-real.ts');
  await benchParseReal();
}
// Not in the default run (its timings want a quiet machine): the fixed cost of a 1-page sync parse.
if (only === 'parse-fixed') {
  const { benchParseFixed } = await import('./parse-fixed.ts');
  await benchParseFixed();
}
// Not in the default run (minutes of OCR): corpus scans turned 90/180/270, read before and after orientation detection.
if (only === 'orientation') {
  const { benchOrientation } = await import('./orientation.ts');
  await benchOrientation();
}
// Not in the default run: every corpus PDF's text layer, and the pages whose text is garbage.
if (only === 'garbled') {
  const { benchGarbled } = await import('./garbled.ts');
  await benchGarbled();
}
// Not in the default run (needs ../shared/corpus and poppler): word boxes against pdftotext -bbox-layout.
if (only === 'word-boxes') {
  const { benchWordBoxes } = await import('./word-boxes.ts');
  await benchWordBoxes();
}
if (!only || only === 'classify') {
  const { benchClassify } = await import('./classify.ts');
  await benchClassify();
}
if (!only || only === 'extract') {
  const { benchExtract } = await import('./extract.ts');
  await benchExtract();
}
if (!only || only === 'tables') {
  const { benchTables } = await import('./tables.ts');
  await benchTables();
}
// The query part of `tables` alone: POST /v1/tables/{id}/query against DuckDB alone, 1M rows.
if (only === 'tables-query') {
  const { benchTablesQuery } = await import('./tables.ts');
  await benchTablesQuery();
}
// Not in the default run: tables on real corpus pages against hand-written truth (needs ../shared/corpus).
if (only === 'tables-real') {
  const { benchTablesReal } = await import('./tables-real.ts');
  await benchTablesReal();
}
// Not in the default run: a minute of 50 clients (LOAD_SECONDS, LOAD_CLIENTS).
if (only === 'load') {
  const { benchLoad } = await import('./load.ts');
  await benchLoad();
}
// Not in the default run: it writes a 1 GB file.
if (only === 'tables-memory') {
  const { benchTablesMemory } = await import('./tables.ts');
  await benchTablesMemory();
}
// Not in the default run: a 1 GB CSV through the local API (upload, create read in the background).
if (only === 'tables-large') {
  const { benchTablesLarge } = await import('./tables.ts');
  await benchTablesLarge();
}
if (!only || only === 'edits') {
  const { benchEdits } = await import('./edits.ts');
  await benchEdits();
}
if (!only || only === 'accuracy') {
  const { benchAccuracy } = await import('./accuracy.ts');
  await benchAccuracy();
}
if (!only || only === 'forms') {
  const { benchForms } = await import('./forms.ts');
  await benchForms();
}
if (!only || only === 'bundles') {
  const { main } = await import('./bundles.ts');
  await main();
}
process.exit(process.exitCode ?? 0);
