/**
 * The corpus benchmark's judge of line items (./corpus-score.ts scoreItems): truth items and output
 * items are paired by likeness, the likest first, so an item the output missed costs one miss and
 * nothing more.
 */
import { describe, expect, it } from 'vitest';
import { SCHEMA_VARIANTS, scoreItems } from './corpus-score.ts';

const english = SCHEMA_VARIANTS.find((v) => v.name === 'english')!;
const truth = (description: string, amount: number | null) => ({ description: [description], quantity: null, unit_price: null, amount });
const output = (items: Array<[string, number | null]>) => {
  const { path, fields } = english.items;
  const rows = items.map(([description, amount]) => ({ [fields.description]: description, [fields.amount]: amount }));
  // (The items' place in the output as the English schema puts it.)
  return path.reduceRight<unknown>((inner, key) => ({ [key]: inner }), rows);
};

describe('line items as the corpus benchmark judges them', () => {
  it('pairs each output item with the truth item most like it, so one missed item does not shift the rest onto their neighbours', () => {
    const truths = [truth('RT Splash shield', null), truth('RT Stone guard', 23.55), truth('RT Glass Kia black', null)];
    const result = scoreItems(truths, english, output([['RT Stone guard', 23.55], ['RT Glass Kia black', null]]));
    expect(result).toMatchObject({ found: 2, missed: 1, spurious: 0, wrongs: [] });
    expect(result.fields.description).toMatchObject({ right: 2, missing: 1, wrong: 0 });
  });

  it('judges a paired item wrong where it differs, and counts output items no truth item is like as spurious', () => {
    const result = scoreItems([truth('Sourdough loaves', 48)], english, output([['Sourdough loaf', 48], ['Delivery', 5]]));
    expect(result).toMatchObject({ found: 1, missed: 0, spurious: 1, extra: ["Delivery"] });
    expect(result.wrongs).toEqual([{ field: 'description', value: 'Sourdough loaf', truth: ['Sourdough loaves'] }]);
  });
});
