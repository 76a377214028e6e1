/**
 * The table CSV reader on its own: quoting, line ends, BOM, delimiters, header checks, UTF-8, and —
 * as a property — that any table written as CSV reads back the same, whatever block boundaries cut it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RawCell } from '../../../functions/tables/cells.ts';
import { chunksOf, CsvProblem, readCsv } from '../../../functions/tables/csv-reader.ts';

async function read(input: string | Uint8Array, chunkSize?: number, blockBytes?: number) {
  const bytes = typeof input === 'string' ? Buffer.from(input, 'utf8') : input;
  const rows: RawCell[][] = [];
  const numbers: number[] = [];
  let header: string[] = [];
  let delimiter = '';
  const summary = await readCsv(chunksOf(bytes, chunkSize), {
    header(names, d) {
      header = names;
      delimiter = d;
    },
    row(fields, n) {
      rows.push([...fields]);
      numbers.push(n);
    },
  }, { blockBytes: blockBytes ?? chunkSize ?? 1 });
  return { header, rows, numbers, delimiter, summary };
}

/** The fields of every record as `record(...)` hands them over: places in the decoded text. */
async function readRecords(bytes: Uint8Array, chunkSize: number): Promise<RawCell[][]> {
  const rows: RawCell[][] = [];
  await readCsv(chunksOf(bytes, chunkSize), {
    header() {},
    record(record) {
      rows.push(Array.from({ length: record.length }, (_, i) => (record.starts[i]! < 0 ? null : record.sources[i]!.slice(record.starts[i], record.ends[i]))));
    },
  }, { blockBytes: chunkSize });
  return rows;
}

describe('reading records', () => {
  it('reads quoted fields with delimiters, newlines and doubled quotes; tells "" from nothing', async () => {
    const r = await read('a,b,c\n"x, y","line1\nline2","say ""hi"""\n,"",  \n');
    expect(r.header).toEqual(['a', 'b', 'c']);
    expect(r.rows).toEqual([
      ['x, y', 'line1\nline2', 'say "hi"'],
      [null, '', '  '],
    ]);
  });

  it('drops a BOM, reads CRLF and lone-CR line ends, and skips blank lines', async () => {
    expect((await read('\uFEFFa,b\r\n1,2\r\n\r\n3,\r\n')).rows).toEqual([
      ['1', '2'],
      ['3', null],
    ]);
    expect((await read('\uFEFFa,b\r\n1,2\r\n')).header).toEqual(['a', 'b']);
    // Even when the BOM arrives one byte at a time.
    expect((await read('\uFEFFa,b\r\n1,2\r\n', 1)).header).toEqual(['a', 'b']);
    // Blocks of 2 bytes made of chunks of 1: the BOM test waits for a third byte of a reused block.
    expect((await read('\uFEFFa,b\r\n1,2\r\n', 1, 2)).rows).toEqual([['1', '2']]);
    expect((await read('xy,b\n1,2\n', 1, 2)).header).toEqual(['xy', 'b']);
    expect((await read('a\n1', 1)).rows).toEqual([['1']]);
    expect((await read('a,b\r1,2\r3,4')).rows).toEqual([
      ['1', '2'],
      ['3', '4'],
    ]);
    expect((await read('a,b\r\n"x\r\ny",2\r\n')).rows).toEqual([['x\r\ny', '2']]);
  });

  it('sniffs ; tab and | delimiters', async () => {
    for (const d of [';', '\t', '|']) {
      const r = await read(`a${d}b${d}c\n1${d}"2${d}x"${d}3\n4${d}5${d}6\n`);
      expect(r.delimiter).toBe(d);
      expect(r.rows).toEqual([
        ['1', `2${d}x`, '3'],
        ['4', '5', '6'],
      ]);
    }
  });

  it('hands ragged rows over as they are, numbered 1-based from the first data row', async () => {
    const r = await read('a,b\n1\n1,2,3\n"q\nq",2\n');
    expect(r.rows).toEqual([['1'], ['1', '2', '3'], ['q\nq', '2']]);
    expect(r.numbers).toEqual([1, 2, 3]);
    expect(r.summary.rowCount).toBe(3);
  });

  it('refuses empty and duplicate header names, naming them', async () => {
    await expect(read('a,,b\n1,2,3\n')).rejects.toThrow(/empty header name in column 2/);
    await expect(read('a,b,a,b,c\n1,2,3,4,5\n')).rejects.toThrow(/duplicate header names "a", "b"/);
    await expect(read('a, ,b\n')).rejects.toThrow(CsvProblem);
  });

  it('refuses non-UTF-8 bytes, an empty file and an unterminated quote', async () => {
    const latin1 = Buffer.concat([Buffer.from('name\ncaf'), Buffer.from([0xe9]), Buffer.from('\n')]);
    await expect(read(latin1)).rejects.toThrow(/not valid UTF-8/);
    await expect(read('')).rejects.toThrow(/header row is required/);
    await expect(read('a,b\n1,"open\n2,3\n')).rejects.toThrow(/Unterminated quoted field/);
  });
});

/** A CSV writer quoting what needs quoting; `null` writes nothing, '' writes `""`. */
function toCsv(header: string[], rows: RawCell[][], delimiter: string, newline: string): string {
  const field = (v: RawCell) => {
    if (v === null) return '';
    if (v === '' || v.includes(delimiter) || v.includes('"') || v.includes('\n') || v.includes('\r') || v.startsWith(' ')) return `"${v.replace(/"/g, '""')}"`;
    return v;
  };
  return [header, ...rows].map((r) => r.map(field).join(delimiter)).join(newline) + newline;
}

describe('round trip (property)', () => {
  it('reads back any table written as CSV, whatever the chunk and block sizes', async () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'é', '€', '😀', ',', ';', '"', '\n', '\r', ' ', '1', '.') });
    const table = fc.integer({ min: 1, max: 5 }).chain((width) =>
      fc.record({
        header: fc.uniqueArray(fc.stringMatching(/^[a-z]{1,6}$/), { minLength: width, maxLength: width }),
        // A row of one null is a blank line, which is no record: keep a value in the first column.
        rows: fc.array(fc.tuple(fc.string({ minLength: 1, maxLength: 3, unit: fc.constantFrom('x', 'y', '😀') }), fc.array(fc.option(text, { nil: null }), { minLength: width - 1, maxLength: width - 1 })), { maxLength: 20 }),
        newline: fc.constantFrom('\n', '\r\n'),
        bom: fc.boolean(),
        chunk: fc.integer({ min: 1, max: 64 }),
        // Blocks made of several chunks (or of parts of them) are copied into one reused buffer.
        block: fc.integer({ min: 1, max: 64 }),
      }),
    );
    await fc.assert(
      fc.asyncProperty(table, async ({ header, rows, newline, chunk, block, bom }) => {
        const cells: RawCell[][] = rows.map(([first, rest]) => [first, ...rest]);
        const csv = (bom ? '\uFEFF' : '') + toCsv(header, cells, ',', newline);
        const whole = await read(Buffer.from(csv, 'utf8'), 1 << 20);
        const cut = await read(Buffer.from(csv, 'utf8'), chunk);
        expect(whole.header).toEqual(header);
        expect(whole.rows).toEqual(cells);
        expect(cut.rows).toEqual(cells);
        expect((await read(Buffer.from(csv, 'utf8'), chunk, block)).rows).toEqual(cells);
        expect(await readRecords(Buffer.from(csv, 'utf8'), chunk)).toEqual(cells);
      }),
      { numRuns: 150 },
    );
  });

  it('reads back a table longer than its sniffed start, in pieces cut inside characters and records', async () => {
    // Past the first 64 KB the reader scans piece by piece, each decoded with the unfinished record
    // of the one before: characters of 2 to 4 bytes and quoted records cross every kind of cut.
    const values = ['é', '€uro', '😀', 'a,b', 'say "hi"', 'two\nlines', '', null, 'plain', '中文😀é'];
    const cells: RawCell[][] = Array.from({ length: 12_000 }, (_, i) => [`r${i}`, values[i % values.length]!, values[(i * 7) % values.length]!, 'x'.repeat(i % 97)]);
    const csv = toCsv(['id', 'a', 'b', 'pad'], cells, ',', '\r\n');
    expect(csv.length).toBeGreaterThan(4 * 64 * 1024);
    for (const [chunk, block] of [[1 << 20, 1 << 20], [65_537, 65_537], [999, 1 << 20], [4093, 70_001]] as const) {
      const read1 = await read(Buffer.from(csv, 'utf8'), chunk, block);
      expect(read1.rows).toEqual(cells);
      expect(read1.summary.rowCount).toBe(cells.length);
    }
  });
});
