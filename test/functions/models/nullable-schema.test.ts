/** The null rule (API §6): outputs are valid against the schema with every value nullable. */
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { withNullableValues } from '../../../functions/models/nullable-schema.ts';

const SCHEMA = {
  type: 'object',
  required: ['number', 'date', 'status', 'kind', 'items', 'party'],
  properties: {
    number: { type: 'string', minLength: 3 },
    date: { type: 'string', format: 'date' },
    status: { enum: ['open', 'paid'] },
    kind: { const: 'invoice' },
    total: { type: ['number', 'integer'] },
    items: { type: 'array', minItems: 1, items: { $ref: '#/$defs/item' } },
    party: { oneOf: [{ type: 'string' }, { type: 'object', properties: { name: { type: 'string' } } }] },
  },
  $defs: { item: { type: 'object', required: ['amount'], properties: { amount: { type: 'number' } } } },
};

describe('withNullableValues', () => {
  const ajv = new Ajv({ strict: false });
  const nulls = { number: null, date: null, status: null, kind: null, total: null, items: null, party: null };

  it('admits null for every value, at every depth and through $refs; the output itself stays an object', () => {
    const validate = ajv.compile(withNullableValues(SCHEMA));
    expect(validate(nulls), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...nulls, items: [{ amount: null }] }), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...nulls, party: { name: null } }), JSON.stringify(validate.errors)).toBe(true);
    expect(validate(null)).toBe(false);
  });

  it('keeps every other rule: types, required, enums, consts, bounds', () => {
    const validate = ajv.compile(withNullableValues(SCHEMA));
    expect(validate({ ...nulls, number: 7 })).toBe(false);
    expect(validate({ ...nulls, number: 'ab' })).toBe(false);
    expect(validate({ ...nulls, status: 'closed' })).toBe(false);
    expect(validate({ ...nulls, kind: 'receipt' })).toBe(false);
    expect(validate({ ...nulls, kind: 'invoice' })).toBe(true);
    expect(validate({ ...nulls, items: [] })).toBe(false);
    expect(validate({ ...nulls, items: [{ amount: '3' }] })).toBe(false);
    const { number: _number, ...withoutNumber } = nulls;
    expect(validate(withoutNumber)).toBe(false);
  });

  it('does not change the schema it is given', () => {
    const copy = structuredClone(SCHEMA);
    withNullableValues(SCHEMA);
    expect(SCHEMA).toEqual(copy);
    // The original still refuses null.
    expect(ajv.compile(SCHEMA)(nulls)).toBe(false);
  });
});
