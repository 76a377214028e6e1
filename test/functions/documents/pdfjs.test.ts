/**
 * pdf.js's legacy build patches Array.prototype.push, JSON.parse and JSON.stringify with slow
 * core-js versions for the whole process; functions/documents/pdfjs.ts puts V8's own back, and takes
 * DecompressionStream away so that pdf.js inflates page contents itself. Checked in a fresh process,
 * where nothing has loaded pdf.js before.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../lib/local/invoker.ts';

const script = `
  const native = { push: Array.prototype.push, parse: JSON.parse, stringify: JSON.stringify };
  // Counts the streams anyone makes through the global, as long as it is there.
  let streams = 0;
  const Native = globalThis.DecompressionStream;
  globalThis.DecompressionStream = class extends Native { constructor(format) { super(format); streams++; } };
  const { readPdf } = await import(${JSON.stringify(join(REPO_ROOT, 'functions/documents/pdf.ts'))});
  const { manyPagesPdf } = await import(${JSON.stringify(join(REPO_ROOT, 'test/support/pdf-fixtures.ts'))});
  const restored = () => Array.prototype.push === native.push && JSON.parse === native.parse && JSON.stringify === native.stringify;
  const afterImport = restored();
  // The first read starts pdf.js's in-process worker: it must not patch them again.
  const pages = await readPdf(await manyPagesPdf(2), { deadline: Date.now() + 60000 });
  const text = pages.map((page) => page.blocks.map((block) => block.text).join(' ')).join(' ');
  console.log(JSON.stringify({ afterImport, afterRead: restored(), pages: pages.length, words: pages[0].words.length, streams, global: typeof DecompressionStream, sections: text.includes('Section 1') && text.includes('Section 2') }));
`;

describe('pdf.js loader', () => {
  it('keeps V8s own push and JSON after loading pdf.js and reading a PDF', () => {
    const out = execFileSync('node', ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: REPO_ROOT, encoding: 'utf8' });
    const result = JSON.parse(out.trim().split('\n').pop()!) as { afterImport: boolean; afterRead: boolean; pages: number; words: number };
    expect(result).toMatchObject({ afterImport: true, afterRead: true, pages: 2 });
    expect(result.words).toBeGreaterThan(50);
  });

  it('has pdf.js inflate the (Flate-compressed) page contents itself: no DecompressionStream is made, and the text is read', () => {
    const out = execFileSync('node', ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: REPO_ROOT, encoding: 'utf8' });
    const result = JSON.parse(out.trim().split('\n').pop()!) as { streams: number; global: string; sections: boolean };
    expect(result).toMatchObject({ streams: 0, global: 'undefined', sections: true });
  });
});
