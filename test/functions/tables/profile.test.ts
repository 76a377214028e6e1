/**
 * The profiler and cell predicates on their own (pure, fast): the exact number fast path agrees with
 * Number(), increasing id columns stay exact when their order breaks, and distinct counts turn into
 * flagged estimates past the exact bound.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isDateTimeText, isNumberText, plainNumber } from '../../../functions/tables/cells.ts';
import { chunksOf, readCsv } from '../../../functions/tables/csv-reader.ts';
import { TableProfiler } from '../../../functions/tables/profile.ts';

/** The summary of a CSV as an upload makes it: the reader hands the profiler records (no string per field). */
async function profile(csv: string) {
  const profiler = new TableProfiler();
  await readCsv(chunksOf(Buffer.from(csv)), { header: (n, d) => profiler.header(n, d), record: (r, i) => profiler.record(r, i) });
  return profiler.finish();
}

/** The same, fed the fields as strings (`row`). */
async function profileByRow(csv: string, chunk?: number) {
  const profiler = new TableProfiler();
  await readCsv(chunksOf(Buffer.from(csv), chunk), { header: (n, d) => profiler.header(n, d), row: (f, i) => profiler.row(f, i) });
  return profiler.finish();
}

describe('cells', () => {
  it('reads plain decimals exactly as Number() does', () => {
    const decimal = fc
      .tuple(fc.constantFrom('', '-', '+'), fc.stringMatching(/^[0-9]{1,9}$/), fc.option(fc.stringMatching(/^[0-9]{0,6}$/), { nil: undefined }))
      .map(([sign, int, frac]) => `${sign}${int}${frac === undefined ? '' : `.${frac}`}`);
    fc.assert(
      fc.property(decimal, (text) => {
        expect(plainNumber(text)).toBe(Number(text));
        expect(isNumberText(text)).toBe(true);
      }),
      { numRuns: 2000 },
    );
    expect(plainNumber('1e3')).toBeNaN();
    expect(plainNumber('12345678901234567')).toBeNaN();
    expect(plainNumber('1.2.3')).toBeNaN();
  });

  it('knows date-times with and without offsets, and refuses impossible ones', () => {
    for (const ok of ['2024-02-29T10:00:00Z', '2024-01-01 10:00', '2024-01-01T10:00:00.123+05:30', '2024-01-01T23:59:59']) expect(isDateTimeText(ok), ok).toBe(true);
    for (const bad of ['2023-02-29T10:00:00Z', '2024-01-01T24:00:00Z', '2024-01-01', '2024-01-01T10:00:00+5:00']) expect(isDateTimeText(bad), bad).toBe(false);
  });
});

describe('profiler', () => {
  it('stays exact and unique-aware when an increasing id column stops increasing', async () => {
    const ids = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 4, 11];
    const summary = await profile(`id\n${ids.join('\n')}\n`);
    expect(summary.profile[0]).toMatchObject({ distinct_count: 11, min: 1, max: 11, is_estimated: false });
    expect(summary.columns[0]).toMatchObject({ unique: false, required: true, json_schema: { type: 'integer' } });
    const increasing = await profile(`id\n${[1, 2, 10, 20, 300].join('\n')}\n`);
    expect(increasing.columns[0]!.unique).toBe(true);
    expect(increasing.profile[0]!.distinct_count).toBe(5);
  });

  it('counts distinct texts exactly however a run of consecutive ids starts, gaps, breaks or is written', async () => {
    // Mostly consecutive integers (the row-id fast path), with repeats, gaps, and the same number
    // written differently ('+4', '04', '-0', '4.0'), which are distinct texts.
    const cell = fc.oneof(
      { weight: 6, arbitrary: fc.constant('next') },
      { weight: 1, arbitrary: fc.integer({ min: -3, max: 40 }).map(String) },
      { weight: 1, arbitrary: fc.constantFrom('+4', '04', '-0', '0', '4.0', 'x') },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(cell, { minLength: 1, maxLength: 60 }), fc.integer({ min: -2, max: 5 }), async (cells, first) => {
        let next = first;
        const texts = cells.map((c) => (c === 'next' ? String(next++) : c));
        const summary = await profile(`id\n${texts.join('\n')}\n`);
        expect(summary.profile[0]!.distinct_count).toBe(new Set(texts).size);
        expect(summary.columns[0]!.unique).toBe(new Set(texts).size === texts.length);
        expect(summary.columns[0]!.sample_values).toEqual([...new Set(texts)].slice(0, 3));
      }),
      { numRuns: 300 },
    );
  });

  it('gives the text min and max that < gives, for texts sharing long prefixes', async () => {
    const text = fc.array(fc.constantFrom('a', 'b', 'é', 'Z'), { minLength: 1, maxLength: 6 }).map((cs) => `k${cs.join('')}`);
    await fc.assert(
      fc.asyncProperty(fc.array(text, { minLength: 1, maxLength: 40 }), async (texts) => {
        const summary = await profile(`v\n${texts.join('\n')}\n`);
        const min = texts.reduce((a, b) => (b < a ? b : a));
        const max = texts.reduce((a, b) => (b > a ? b : a));
        expect(summary.profile[0]).toMatchObject({ min, max });
      }),
      { numRuns: 300 },
    );
  });

  it('gives the text min and max and the distinct count of repeated numbers that turn into text', async () => {
    // Numbers first (a run of ids, repeats, other spellings), then text: the text bounds cover every value.
    const value = fc.oneof(fc.integer({ min: 0, max: 12 }).map(String), fc.constantFrom('007', '+3', '2.50', '10', '1e3', 'x', 'k9', ''));
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 5 }), fc.array(value, { minLength: 1, maxLength: 40 }), async (ids, rest) => {
        const texts = [...Array.from({ length: ids }, (_, i) => String(i + 1)), ...rest].filter((t) => t !== '');
        if (texts.length === 0 || texts.every((t) => isNumberText(t))) return;
        const summary = await profile(`v\n${texts.join('\n')}\n`);
        const min = texts.reduce((a, b) => (b < a ? b : a));
        const max = texts.reduce((a, b) => (b > a ? b : a));
        expect(summary.profile[0]).toMatchObject({ min, max, distinct_count: new Set(texts).size });
      }),
      { numRuns: 300 },
    );
  });

  it('summarises records from the reader as it does the same fields given as strings', async () => {
    // Quoted values (doubled quotes, text after the closing quote, delimiters and line ends inside),
    // null tokens, blanks, ragged rows, CRLF, characters outside ASCII, date-times and booleans.
    const csv = [
      'id,name,when,ok,n',
      '1,"a ""b"", c",2024-01-01T10:00:00Z,true,1.5',
      '2,"x"tail,2024-01-01 10:00,FALSE,NA',
      '3,,2024-02-29T23:59:59.5+05:30,null,""',
      '4,"  ",N/A,True,-0',
      '5,"line\r\nbreak",2023-12-31T00:00,false,1e3',
      '6,é😀',
      '7,中文,2024-01-01T00:00:00z,true,7,extra',
      '8,"",,,',
    ].join('\r\n');
    const byRecord = await profile(csv);
    expect(byRecord.row_count).toBe(8);
    expect(await profileByRow(csv)).toEqual(byRecord);
    expect(await profileByRow(csv, 7)).toEqual(byRecord);
    expect(byRecord.profile.map((c) => [c.name, c.json_schema, c.null_count, c.empty_count, c.distinct_count])).toEqual([
      ['id', { type: 'integer' }, 0, 0, 8],
      ['name', { type: 'string' }, 1, 2, 5],
      ['when', { type: 'string', format: 'date-time' }, 3, 0, 5],
      ['ok', { type: 'boolean' }, 3, 0, 4],
      ['n', { type: 'number' }, 3, 1, 4],
    ]);
    expect(byRecord.profile[1]).toMatchObject({ min: 'a "b", c', max: '中文' });
    expect(byRecord.sample_rows[0]).toEqual({ id: '1', name: 'a "b", c', when: '2024-01-01T10:00:00Z', ok: 'true', n: '1.5' });
    expect(byRecord.sample_rows[1]).toMatchObject({ name: 'xtail', n: null });
  });

  it('widens integer to number to string as values demand, comparing numbers numerically', async () => {
    const summary = await profile('a,b,c\n9,9,x\n10,1.5,10\n-2,1e2,9\n');
    expect(summary.profile.map((c) => [c.json_schema, c.min, c.max])).toEqual([
      [{ type: 'integer' }, -2, 10],
      [{ type: 'number' }, 1.5, 100],
      [{ type: 'string' }, '10', 'x'],
    ]);
  });

  it('counts past a million distinct values as a flagged estimate within 2%', async () => {
    // Not increasing (so the hash table and then the sketch do the counting): 1.2M distinct values.
    const n = 1_200_000;
    const profiler = new TableProfiler();
    profiler.header(['v'], ',');
    const row: string[] = [''];
    for (let i = 0; i < n; i++) {
      row[0] = `k${(i * 7919) % n}`;
      profiler.row(row, i + 1);
    }
    const column = profiler.finish().profile[0]!;
    expect(column.is_estimated).toBe(true);
    expect(Math.abs(column.distinct_count - n) / n).toBeLessThan(0.02);
  });
});
