/**
 * Unusable text layers (issue 23, "no silent loss"): every PDF of the corpus read without OCR, and the
 * pages whose text layer ./text-sense.ts calls garbage (those go to OCR in a real read). The airbnb
 * pitch deck's fonts map glyphs to the wrong letters; no other born-digital page should be flagged.
 *
 * `npm run bench -- garbled` (about a minute).
 */
import { readPdf } from '../../functions/documents/pdf.ts';
import { looksGarbled, senseOf } from '../../functions/documents/text-sense.ts';
import { corpusAvailable, corpusBytes, manifest } from '../support/corpus.ts';

export async function benchGarbled(): Promise<void> {
  if (!corpusAvailable()) {
    console.log('garbled: the corpus (../shared/corpus) is not here');
    return;
  }
  let pages = 0;
  let flagged = 0;
  let worstShare = 0;
  let worstWhere = '';
  for (const { path } of manifest().filter((e) => e.path.endsWith('.pdf'))) {
    const read = await readPdf(corpusBytes(path), { deadline: Date.now() + 600_000 });
    const hits: number[] = [];
    for (const page of read) {
      const texts = page.words.map((w) => w.text);
      if (texts.length === 0) continue;
      pages++;
      if (looksGarbled(texts)) {
        hits.push(page.number);
        continue;
      }
      const sense = senseOf(texts);
      const share = sense.implausibleChars / Math.max(1, sense.plausibleChars + sense.implausibleChars);
      if (share > worstShare) [worstShare, worstWhere] = [share, `${path} p. ${page.number}`];
    }
    flagged += hits.length;
    if (hits.length > 0) console.log(`${path}: pages ${hits.join(', ')} of ${read.length} flagged`);
  }
  console.log(`garbled: ${flagged} of ${pages} corpus PDF pages with a text layer flagged for OCR`);
  console.log(`  highest share of implausible characters on a page not flagged: ${worstShare.toFixed(3)} (${worstWhere}); the threshold is 0.1`);
}
