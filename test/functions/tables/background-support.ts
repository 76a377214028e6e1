/** Generated CSVs for the background-read tests, and storing them as Files (FileRef). */
import { dataUrl, type TestCloud } from '../../support/cloud.ts';

export const BIG_ROWS = 2000;

/**
 * `id` 1..n, `category` c0..c6 in turn, `amount` a decimal, `note` quoted text with every 10th
 * row null (empty): figures a test can state without computing.
 */
export function bigCsv(rows: number): string {
  const lines = ['id,category,amount,note'];
  for (let i = 1; i <= rows; i++) lines.push(`${i},c${(i - 1) % 7},${(i * 37) % 1000}.25,${i % 10 === 0 ? '' : `"note ${i}, with a comma"`}`);
  return `${lines.join('\n')}\n`;
}

/** Stores the CSV as a File (three-step upload) and gives its id. */
export async function storeCsv(cloud: TestCloud, csv: string | Buffer): Promise<string> {
  const bytes = Buffer.from(csv);
  if (bytes.length < 4 * 1024 * 1024) {
    const file = await cloud.api('POST', '/v1/files', { body: { document: { filename: 'big.csv', url: dataUrl('text/csv', bytes) } } });
    if (file.status !== 200 && file.status !== 201) throw new Error(`file upload: ${file.status} ${file.text}`);
    return file.body.id;
  }
  const ticket = await cloud.api('POST', '/v1/files/upload', { body: { filename: 'big.csv', size_bytes: bytes.length, content_type: 'text/csv' } });
  const put = await fetch(ticket.body.uploadUrl, { method: 'PUT', headers: ticket.body.uploadHeaders, body: bytes });
  if (put.status !== 200) throw new Error(`upload PUT: ${put.status}`);
  const done = await cloud.api('POST', `/v1/files/upload/${ticket.body.fileId}/complete`, { body: {} });
  if (done.status !== 200) throw new Error(`upload complete: ${done.status} ${done.text}`);
  return ticket.body.fileId;
}
