/**
 * The local form filler (API §8): which value of the instructions goes in which field — JSON with
 * nesting, `key: value` lines, free text; ordinals (the 2nd owner), dates and amounts formatted as the
 * label says, checkboxes from booleans and option names; nothing written where nothing matched.
 */
import { describe, expect, it } from 'vitest';
import type { FillField } from '../../../functions/models/engine.ts';
import { fillForm } from '../../../functions/models/local/form-values.ts';

const FIELDS: FillField[] = [
  { key: 'owner1_name', type: 'text', description: 'Owner 1 name' },
  { key: 'owner2_name', type: 'text', description: 'Owner 2 name' },
  { key: 'dob', type: 'text', description: 'Date of birth (DD.MM.YYYY)' },
  { key: 'city', type: 'text', description: 'City' },
  { key: 'agree', type: 'checkbox', description: 'I agree to the terms' },
  { key: 'joint', type: 'checkbox', description: 'Account type: Joint' },
  { key: 'single', type: 'checkbox', description: 'Account type: Individual' },
  { key: 'income', type: 'text', description: 'Annual income ($)' },
  { key: 'state', type: 'text', description: 'State', options: ['California', 'New York'] },
];

const fill = (instructions: string) => Object.fromEntries(FIELDS.map((f, i) => [f.key, fillForm({ fields: FIELDS, instructions }).values[i]]));

describe('fillForm', () => {
  it('reads nested JSON: the 2nd owner goes to the field numbered 2; dates and amounts as labelled; options ticked', () => {
    const values = fill(JSON.stringify({ owners: [{ name: 'Alice' }, { name: 'Bob' }], date_of_birth: '1985-04-12', account_type: 'Joint', agree_to_terms: true, annual_income: 85000, state: 'new york' }));
    expect(values).toEqual({ owner1_name: 'Alice', owner2_name: 'Bob', dob: '12.04.1985', city: null, agree: 'true', joint: 'true', single: 'false', income: '85,000.00', state: 'New York' });
  });

  it('reads key: value lines, with section headers as context', () => {
    expect(fill('Second owner\nname: Bob\n\nOwner 1 name = Alice\ncity: Paris, France. Left bank.')).toMatchObject({ owner1_name: 'Alice', owner2_name: 'Bob', city: 'Paris, France. Left bank.' });
    // "First owner" is the 1st; a "first name" is not an ordinal.
    expect(fill('Second owner\nname: Bob\n\nFirst owner\nname: Alice')).toMatchObject({ owner1_name: 'Alice', owner2_name: 'Bob' });
    const names: FillField[] = [
      { key: 'first_name', type: 'text', description: 'First name' },
      { key: 'last_name', type: 'text', description: 'Last name' },
    ];
    expect(fillForm({ fields: names, instructions: 'Surname: Doe\nGiven name: Jane' }).values).toEqual(['Jane', 'Doe']);
  });

  it('reads free text clauses', () => {
    const values = fill("The first owner's name is Alice Martin, the second owner's name is Bob Martin. Date of birth is 12 April 1985; the city is Springfield. Tick the box for I agree to the terms.");
    expect(values).toMatchObject({ owner1_name: 'Alice Martin', owner2_name: 'Bob Martin', dob: '12.04.1985', city: 'Springfield', agree: 'true', joint: null });
  });

  it('writes nothing where nothing matches: no arbitrary placement, a 3rd owner has no field, a value outside the options is dropped', () => {
    expect(Object.values(fill('Favourite colour: teal\nThe weather is nice.')).every((v) => v === null)).toBe(true);
    expect(fill(JSON.stringify({ owners: [{ name: 'A' }, { name: 'B' }, { name: 'C' }] }))).toMatchObject({ owner1_name: 'A', owner2_name: 'B' });
    expect(fill('state: Texas').state).toBeNull();
    expect(fill('').city).toBeNull();
    expect(fill('{ not json').city).toBeNull();
  });

  it('false and no clear a checkbox', () => {
    expect(fill('I agree to the terms: no').agree).toBe('false');
    expect(fill(JSON.stringify({ agree: false })).agree).toBe('false');
  });
});
