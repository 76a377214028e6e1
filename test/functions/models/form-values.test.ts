/**
 * The local form filler (API §8): which value of the instructions goes in which field — JSON with
 * nesting, `key: value` lines, free text; ordinals (the 2nd owner), dates and amounts formatted as the
 * label says, checkboxes from booleans and option names; nothing written where nothing matched.
 */
import { describe, expect, it } from 'vitest';
import type { FillField } from '../../../functions/models/engine.ts';
import { fillForm, sentencesOf } from '../../../functions/models/local/form-values.ts';

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

  const PERSON: FillField[] = [
    { key: 'last', type: 'text', description: 'Nom' },
    { key: 'first', type: 'text', description: 'Prénom(s)' },
    { key: 'number', type: 'text', description: 'Hausnummer' },
    { key: 'street', type: 'text', description: 'Rue' },
    { key: 'zip', type: 'text', description: 'Code postal' },
    { key: 'city', type: 'text', description: 'Ville' },
    { key: 'dob', type: 'text', description: 'Date de naissance' },
    { key: 'employer', type: 'text', description: "Nom de l'employeur" },
    { key: 'file', type: 'text', description: 'N° de dossier' },
  ];
  const person = (instructions: string) => Object.fromEntries(PERSON.map((f, i) => [f.key, fillForm({ fields: PERSON, instructions }).values[i]]));

  it('reads sentences in several languages: copulas and possessives, "." and ";" between them', () => {
    const fr = person("Mon nom est Dupont et mon prénom est Marie. Ma ville est Paris; mon code postal est 75001. Mon employeur est Kremer S.à r.l. et mon numéro de dossier est 2008123.");
    expect(fr).toMatchObject({ last: 'Dupont', first: 'Marie', city: 'Paris', zip: '75001', employer: 'Kremer S.à r.l.', file: '2008123' });
    const fields: FillField[] = [
      { key: 'first', type: 'text', description: 'First name' },
      { key: 'last', type: 'text', description: 'Last name' },
      { key: 'zip', type: 'text', description: 'Postcode' },
      { key: 'city', type: 'text', description: 'City' },
    ];
    const values = (instructions: string) => fillForm({ fields, instructions }).values;
    expect(values('Mein Vorname ist Lena; mein Nachname ist Hofbauer. Die PLZ ist 5020, der Ort ist Salzburg.')).toEqual(['Lena', 'Hofbauer', '5020', 'Salzburg']);
    expect(values('Mijn voornaam is Jan en mijn achternaam is Jansen. Mijn woonplaats is Utrecht.')).toEqual(['Jan', 'Jansen', null, 'Utrecht']);
    expect(values('Mi nombre es Ana García. Mi código postal es 28001 y mi ciudad es Madrid.')).toEqual(['Ana', 'García', '28001', 'Madrid']);
    expect(values('Mi chiamo Marco Rossi. Il mio CAP è 00184; la mia città è Roma.')).toEqual(['Marco', 'Rossi', '00184', 'Roma']);
    expect(values('O meu primeiro nome é João e o meu apelido é Silva. A minha cidade é Lisboa.')).toEqual(['João', 'Silva', null, 'Lisboa']);
  });

  it('never breaks a value at a full stop that does not end a sentence', () => {
    expect(sentencesOf('The company is Acme Inc. and the contact is Jane Q. Doe. The amount is 12.50; the date is 14.02.2020. Apt. 4B is mine.')).toEqual([
      'The company is Acme Inc. and the contact is Jane Q. Doe.',
      'The amount is 12.50',
      'the date is 14.02.2020.',
      'Apt. 4B is mine.',
    ]);
    expect(sentencesOf('Le montant est de 1.250,00. La société est Lux S.A. Elle est à Strassen.')).toEqual(['Le montant est de 1.250,00.', 'La société est Lux S.A. Elle est à Strassen.']);
    const fields: FillField[] = [
      { key: 'company', type: 'text', description: 'Company' },
      { key: 'contact', type: 'text', description: 'Contact' },
      { key: 'amount', type: 'text', description: 'Amount' },
    ];
    expect(fillForm({ fields, instructions: 'The company is Acme Inc. and the contact is Jane Q. Doe. The amount is 12.50.' }).values).toEqual(['Acme Inc.', 'Jane Q. Doe', '12.50']);
  });

  it('reads prose: names, births and addresses said with a lead-in, labels followed by their value', () => {
    expect(person("Bonjour, je m'appelle Claire Schmit, née le 17/04/1986, j'habite au 24 rue des Aubépines, L-1145 Luxembourg, numéro de dossier 20081234567. Merci !")).toEqual({
      last: 'Schmit', first: 'Claire', number: '24', street: 'rue des Aubépines', zip: 'L-1145', city: 'Luxembourg', dob: '17/04/1986', employer: null, file: '20081234567',
    });
    const fields: FillField[] = [
      { key: 'first', type: 'text', description: 'Vorname' },
      { key: 'last', type: 'text', description: 'Nachname' },
      { key: 'line', type: 'text', description: 'Straße, Hausnummer' },
      { key: 'zip', type: 'text', description: 'PLZ' },
      { key: 'city', type: 'text', description: 'Ort' },
      { key: 'email', type: 'text', description: 'E-Mail' },
      { key: 'born', type: 'text', description: 'Geburtsdatum' },
    ];
    expect(fillForm({ fields, instructions: 'Hallo, ich bin Lena Hofbauer, geboren am 3. Mai 1999, ich wohne in der Ignaz-Harrer-Straße 27 in 5020 Salzburg und bin unter lena@example.at erreichbar.' }).values).toEqual([
      'Lena', 'Hofbauer', 'Ignaz-Harrer-Straße 27', '5020', 'Salzburg', 'lena@example.at', '3. Mai 1999',
    ]);
    const english: FillField[] = [
      { key: 'name', type: 'text', description: 'Full name' },
      { key: 'dob', type: 'text', description: 'Date of birth (MM/DD/YYYY)' },
      { key: 'city', type: 'text', description: 'City' },
    ];
    expect(fillForm({ fields: english, instructions: "Hi, I'm Jane Doe, born 12 April 1990, living at 10 Main Street, 12345 Springfield." }).values).toEqual(['Jane Doe', '04/12/1990', 'Springfield']);
  });

  const ROWS: FillField[] = [1, 2].flatMap((n) => [
    { key: `last${n}`, type: 'text' as const, description: `Ayants droit, Nom de famille (ligne ${n})` },
    { key: `first${n}`, type: 'text' as const, description: `Ayants droit, Prénom (ligne ${n})` },
    { key: `dob${n}`, type: 'text' as const, description: `Ayants droit, Date de naissance (ligne ${n})` },
    { key: `link${n}`, type: 'text' as const, description: `Ayants droit, Lien avec l'assuré (ligne ${n})` },
  ]);
  const rows = (instructions: string) => Object.fromEntries(ROWS.map((f, i) => [f.key, fillForm({ fields: ROWS, instructions }).values[i]]));
  const BOTH = { last1: 'Lambert', first1: 'Sophie', dob1: '14/06/1982', link1: 'Conjointe', last2: 'Moreau', first2: 'Bernard', dob2: '03/11/1950', link2: 'Oncle' };

  it('puts several values of one family in their rows, in order: numbered, ordinal words, people introduced one after the other', () => {
    expect(rows('Ayant droit 1 – Nom de famille : Lambert\nAyant droit 1 – Prénom : Sophie\nAyant droit 1 – Date de naissance : 14/06/1982\nAyant droit 1 – Lien : Conjointe\nAyant droit 2 – Nom de famille : Moreau\nAyant droit 2 – Prénom : Bernard\nAyant droit 2 – Date de naissance : 03/11/1950\nAyant droit 2 – Lien : Oncle')).toEqual(BOTH);
    expect(rows("Le premier ayant droit est ma conjointe; son nom de famille est Lambert et son prénom est Sophie; elle est née le 14/06/1982. Le second ayant droit est mon oncle; son nom de famille est Moreau et son prénom est Bernard; il est né le 03/11/1950.")).toEqual(BOTH);
    expect(rows('Je voudrais rattacher ma conjointe, Sophie Lambert, née le 14/06/1982, ainsi que mon oncle, Bernard Moreau, né le 03/11/1950.')).toEqual(BOTH);
    // "En ligne 2, …": a lead numbers the clause after it.
    const lines: FillField[] = [2, 3].map((n) => ({ key: `amount${n}`, type: 'text', description: `Rémunérations brutes, ligne ${n} : montant` }));
    expect(fillForm({ fields: lines, instructions: 'En ligne 3, le montant est de 1 250,00; en ligne 2, le montant est de 52 480,00.' }).values).toEqual(['52 480,00', '1 250,00']);
  });

  it('reads ranges of dates: "du … au", "from … to"', () => {
    const fields: FillField[] = [
      { key: 'start', type: 'text', description: 'Période du' },
      { key: 'end', type: 'text', description: 'au' },
    ];
    expect(fillForm({ fields, instructions: 'La période va du 01/01/2019 au 31/12/2019.' }).values).toEqual(['01/01/2019', '31/12/2019']);
  });

  it('splits a name followed by its address, and gives an address said of someone else ("son adresse") to that one', () => {
    const fields: FillField[] = [
      { key: 'emp_name', type: 'text', description: 'Employeur › nom' },
      { key: 'emp_address', type: 'text', description: 'Employeur › adresse' },
      { key: 'emp_address_next', type: 'text', description: 'Employeur › adresse (deuxième ligne)' },
    ];
    const expected = ['Lux Logistique S.A.', "15 route d'Arlon", 'L-8009 Strassen'];
    expect(fillForm({ fields, instructions: "Mon employeur est Lux Logistique S.A., 15 route d'Arlon, L-8009 Strassen." }).values).toEqual(expected);
    expect(fillForm({ fields, instructions: "Mon employeur est Lux Logistique S.A. et son adresse est 15 route d'Arlon, L-8009 Strassen." }).values).toEqual(expected);
  });

  it('writes nothing for sentences that name no field', () => {
    expect(Object.values(person("Bonjour, je voudrais un café. Ich bin müde; the weather is nice and my dog is called Rex. Merci !")).every((v) => v === null)).toBe(true);
  });

  it('never chooses a field a value cannot fit: the 13-box number, not the 2-box key beside it; among fields that fit, the closest length', () => {
    const fields: FillField[] = [
      { key: 'key', type: 'text', description: "Numéro d'immatriculation", maxLength: 2, comb: true },
      { key: 'number', type: 'text', description: "Numéro d'immatriculation", maxLength: 13, comb: true },
    ];
    expect(fillForm({ fields, instructions: "Numéro d'immatriculation : 1790469123045" }).values).toEqual([null, '1790469123045']);
    expect(fillForm({ fields: fields.slice(0, 1), instructions: "Numéro d'immatriculation : 1790469123045" }).values).toEqual([null]);
    const wide: FillField[] = [
      { key: 'wide', type: 'text', description: 'Reference', maxLength: 16, comb: true },
      { key: 'tight', type: 'text', description: 'Reference', maxLength: 13, comb: true },
    ];
    expect(fillForm({ fields: wide, instructions: 'Reference: 1790469123045' }).values).toEqual([null, '1790469123045']);
  });

  it('writes a date as the field asks: its printed format, or without separators when only that fits; a unit the label prints is left out', () => {
    const fields: FillField[] = [
      { key: 'born', type: 'text', description: 'Date de naissance (JJ/MM/AAAA)' },
      { key: 'since', type: 'text', description: 'Geburtsdatum TT.MM.JJJJ' },
      { key: 'signed', type: 'text', description: 'Date of signature', maxLength: 8, comb: true },
      { key: 'height', type: 'text', description: 'Height (cm)' },
    ];
    expect(fillForm({ fields, instructions: 'Date de naissance : 1990-04-12\nGeburtsdatum: 3 May 1999\nDate of signature: 15/03/2024\nHeight: 168 cm' }).values).toEqual(['12/04/1990', '03.05.1999', '15032024', '168']);
  });

  const CHOICES: FillField[] = [
    { key: 'lang1', type: 'checkbox', description: 'I speak and understand (tick all that apply): Deutsch' },
    { key: 'lang2', type: 'checkbox', description: 'I speak and understand (tick all that apply): English' },
    { key: 'lang3', type: 'checkbox', description: 'I speak and understand (tick all that apply): Français' },
    { key: 'lang4', type: 'checkbox', description: 'Latin' },
    { key: 'gender', type: 'text', description: 'Gender', options: ['Man', 'Woman'] },
    { key: 'job', type: 'text', description: 'Job description', options: ['UX Designer', 'Frontend developer', 'Backend developer'] },
    { key: 'edu.bachelor', type: 'checkbox', description: "Education level: Bachelor's degree" },
    { key: 'edu.master', type: 'checkbox', description: "Education level: Master's degree" },
    { key: 'licence', type: 'checkbox', description: 'Driving License' },
  ];
  const choices = (instructions: string) => Object.fromEntries(CHOICES.map((f, i) => [f.key, fillForm({ fields: CHOICES, instructions }).values[i]]));

  it('ticks several boxes from one list, by the text printed beside each box, in another language too', () => {
    expect(choices('I speak and understand German, English and French.')).toMatchObject({ lang1: 'true', lang2: 'true', lang3: 'true', lang4: null });
    const named: FillField[] = [1, 2, 3].map((n) => ({ key: `Language ${n} Check Box`, type: 'checkbox', description: `I speak and understand: ${['Deutsch', 'English', 'Français'][n - 1]}` }));
    expect(fillForm({ fields: named, instructions: 'Languages: German, French' }).values).toEqual(['true', null, 'true']);
  });

  it('reads statements that name an option, not the field: a list option, a radio button, a box; never from a negation', () => {
    expect(choices("I am a woman. I work as a backend developer. I hold a Master's degree. I have a driving licence.")).toMatchObject({ gender: 'Woman', job: 'Backend developer', 'edu.master': 'true', 'edu.bachelor': null, licence: 'true' });
    expect(choices('I do not have a driving licence. Before that I was a Latin teacher at a school in Rome.')).toMatchObject({ licence: null, lang4: null, gender: null });
    const fr: FillField[] = [
      { key: 'cm.oui', type: 'checkbox', description: 'Indemnisation par la Caisse Nationale de Santé: oui' },
      { key: 'cm.non', type: 'checkbox', description: 'Indemnisation par la Caisse Nationale de Santé: non' },
      { key: 'member', type: 'checkbox', description: "Je suis un membre de la famille de l'assuré(e). S'il y a plusieurs ayants droit, ils doivent recopier l'attestation" },
    ];
    expect(fillForm({ fields: fr, instructions: "Oui, j'ai été indemnisée par la Caisse Nationale de Santé. Ma conjointe atteste qu'elle est un membre de la famille de l'assuré." }).values).toEqual(['true', null, 'true']);
    expect(fillForm({ fields: fr, instructions: "Je n'ai pas été indemnisée par la Caisse Nationale de Santé." }).values).toEqual([null, 'true', null]);
  });

  it('reads where and when a document is signed', () => {
    const fields: FillField[] = [
      { key: 'city', type: 'text', description: 'Ville' },
      { key: 'place', type: 'text', description: 'Signature › Fait à' },
      { key: 'date', type: 'text', description: 'Signature › le' },
    ];
    expect(fillForm({ fields, instructions: 'Le certificat est signé à Strassen le 14/02/2020.' }).values).toEqual([null, 'Strassen', '14/02/2020']);
    expect(fillForm({ fields, instructions: "J'habite à Luxembourg. Fait à Lyon, le 15/03/2024." }).values).toEqual(['Luxembourg', 'Lyon', '15/03/2024']);
    const en: FillField[] = [
      { key: 'place', type: 'text', description: 'Place of signature' },
      { key: 'date', type: 'text', description: 'Date of signature (DD/MM/YYYY)' },
    ];
    expect(fillForm({ fields: en, instructions: 'I signed this in Brussels on 3 May 2024.' }).values).toEqual(['Brussels', '03/05/2024']);
  });

  it('reads a date named only by its lead word ("Le : …"), and one said with a signing verb ("… et la signe aussi le …"), for a field printed "Le"; a date ends its value at a comma', () => {
    const fields: FillField[] = [
      { key: 'name', type: 'text', description: 'Nom et prénom' },
      { key: 'date', type: 'text', description: 'Le' },
    ];
    expect(fillForm({ fields, instructions: 'Nom et prénom : Lambert Sophie\nLe : 14/03/2024' }).values).toEqual(['Lambert Sophie', '14/03/2024']);
    expect(fillForm({ fields, instructions: 'Elle remplit son attestation et la signe aussi le 14/03/2024.' }).values).toEqual([null, '14/03/2024']);
    expect(fillForm({ fields, instructions: 'Elle remplit son attestation et la signe le 14/03/2024, tandis que Bernard, qui vit chez moi, attend.' }).values).toEqual([null, '14/03/2024']);
  });

  it("ranks a field in a section the fact does not name below one it fits as well without it; a fact naming the section goes there", () => {
    const fields: FillField[] = [
      { key: 'emp', type: 'text', description: "Désignation de l'employeur › nom" },
      { key: 'me', type: 'text', description: 'Salarié nom' },
    ];
    expect(fillForm({ fields, instructions: "Nom : Schmit\nNom de l'employeur : Lux Logistique S.A." }).values).toEqual(['Lux Logistique S.A.', 'Schmit']);
    // A field the form says is the writer's own ("salarié(e) nom") before a bare "nom" of another section.
    const own: FillField[] = [{ key: 'fid', type: 'text', description: 'nom' }, ...fields];
    expect(fillForm({ fields: own, instructions: 'Mon nom est Schmit.' }).values).toEqual([null, null, 'Schmit']);
    // A flat form keys its fields by their labels: the employer's "nom" keyed "nom" is no surer a home
    // for "Nom" than the label says (a key naming more than the label still is: "owner1_name").
    const flat: FillField[] = [
      { key: 'salarie_e_nom', type: 'text', description: 'salarié(e) nom' },
      { key: 'nom', type: 'text', description: "H) désignation de l'employeur › nom" },
    ];
    expect(fillForm({ fields: flat, instructions: "Nom : Schmit\nNom de l'employeur : Lux Logistique S.A." }).values).toEqual(['Schmit', 'Lux Logistique S.A.']);
  });

  it('writes what an instruction quotes, not the words around it: each quoted part on the next line; a value named by the field label goes before one named only by its section (the second line of an address is no Objet)', () => {
    const fields: FillField[] = [
      { key: 'objet_1', type: 'text', description: 'Bénéficiaire des versements › Adresse › Objet (row 1)', block: 'Bénéficiaire des versements' },
      { key: 'objet_2', type: 'text', description: 'Bénéficiaire des versements › Adresse › Objet (row 2)', block: 'Bénéficiaire des versements' },
    ];
    const instructions =
      'Le bénéficiaire est la Fondation Arc-en-Ciel, 3 rue Victor Hugo, 69002 Lyon. Son objet est « Aide aux devoirs des collégiens » sur la première ligne et « du quartier de la Guillotière » sur la deuxième.';
    expect(fillForm({ fields, instructions }).values).toEqual(['Aide aux devoirs des collégiens', 'du quartier de la Guillotière']);
    expect(fillForm({ fields, instructions: 'Objet : « Aide aux devoirs » puis « des collégiens »' }).values).toEqual(['Aide aux devoirs', 'des collégiens']);
    // One quoted value with words after it: the quoted words alone.
    const one: FillField[] = [{ key: 'title', type: 'text', description: 'Project title' }];
    expect(fillForm({ fields: one, instructions: 'The project title is "Clean Rivers Initiative" in capitals on the cover.' }).values).toEqual(['Clean Rivers Initiative']);
  });

  it('gives a list the option as the form lists it, and chooses a proper name the text writes as one list prints it', () => {
    const fields: FillField[] = [
      { key: 'databases', type: 'text', description: 'Databases', options: ['Oracle', 'DB2', ' PostgreSQL'] },
      { key: 'country', type: 'text', description: 'Residence', options: ['Spain', 'Sweden'] },
    ];
    expect(fillForm({ fields, instructions: "Hello, I'm Ingrid Svensson from Sweden, the database I use is PostgreSQL." }).values).toEqual([' PostgreSQL', 'Sweden']);
    // A name two lists print: neither is chosen.
    const two: FillField[] = [fields[1]!, { key: 'birth', type: 'text', description: 'Country of birth', options: ['Norway', 'Sweden'] }];
    expect(fillForm({ fields: two, instructions: "Hello, I'm Ingrid Svensson from Sweden." }).values).toEqual([null, null]);
  });

  it('reads a detail after "with", and a statement after a comma ends the value before it', () => {
    const fields: FillField[] = [
      { key: 'yearsOfExperience', type: 'text', description: 'Years of job experience' },
      { key: 'otherJobExperience', type: 'text', description: 'Other job experience' },
      { key: 'databases', type: 'text', description: 'Databases' },
    ];
    expect(fillForm({ fields, instructions: "I'm a backend developer with 9 years of job experience, the only database I know is PostgreSQL, I have a Master's degree." }).values).toEqual(['9', null, 'PostgreSQL']);
  });

  it('says the verb once for several clauses ("write X in A, Y in B, and in C "Z""); a comma between quotes splits nothing; "tick it"', () => {
    const fields: FillField[] = [
      { key: 't1', type: 'text', description: 'Single line, unlimited length' },
      { key: 't2', type: 'text', description: 'Single line, length 10', maxLength: 10 },
      { key: 't3', type: 'text', description: 'Multiline' },
      { key: 'c1', type: 'checkbox', description: 'Check box, unchecked' },
    ];
    const values = fillForm({ fields, instructions: 'Could you write "Hello, world" in the unlimited-length line, Rotterdam in the line limited to 10 characters, and in the multiline box "Leave it, thanks", then tick the box next to "Check box, unchecked".' }).values;
    expect(values).toEqual(['Hello, world', 'Rotterdam', 'Leave it, thanks', 'true']);
    expect(fillForm({ fields, instructions: 'Check box, unchecked: tick it' }).values[3]).toBe('true');
  });

  it('matches an abbreviation the fact gives in brackets printed in the label, and a field name abbreviating a word', () => {
    const fields: FillField[] = [
      { key: 'N.10', type: 'text', description: '2. déductions 5) FD' },
      { key: 'N.11', type: 'text', description: 'FO' },
    ];
    expect(fillForm({ fields, instructions: 'Frais de déplacement (FD) : 1 188,00' }).values).toEqual(['1 188,00', null]);
    const rows: FillField[] = [
      { key: 'A.NAT1', type: 'text', description: 'A) rémunérations brutes 2)' },
      { key: 'N.REM1', type: 'text', description: 'A) rémunérations brutes 2)' },
    ];
    // "de nature S": the type's code is a value of its own; the field named NAT(ure) takes it, REM(unérations) the amount.
    expect(fillForm({ fields: rows, instructions: "En ligne 2, les rémunérations brutes de nature S s'élèvent à 52 480,00." }).values).toEqual(['S', '52 480,00']);
  });

  it('writes nothing where a fact fits two sections equally and names neither; naming the section decides', () => {
    const fields: FillField[] = [
      { key: 'emp_addr2', type: 'text', description: 'Employer › address (line 2)' },
      { key: 'acc_addr2', type: 'text', description: 'Accountant › address (line 2)' },
    ];
    expect(fillForm({ fields, instructions: 'Address line 2: Apt 4' }).values).toEqual([null, null]);
    expect(fillForm({ fields, instructions: 'Accountant address line 2: Apt 4' }).values).toEqual([null, 'Apt 4']);
  });
  it('picks a button by where it is in a row of buttons printed alike ("the right-hand button in the row of …"), in lines, sentences and another language', () => {
    const box = (left: number, top: number) => ({ page: 1, left, top, width: 0.02, height: 0.015 });
    const fields: FillField[] = [
      { key: 'paid.1', type: 'checkbox', description: 'Paid by card', box: box(0.05, 0.2) },
      { key: 'paid.2', type: 'checkbox', description: 'Paid by card', box: box(0.4, 0.2) },
      { key: 'sent.1', type: 'checkbox', description: 'Sent by post', box: box(0.05, 0.3) },
      { key: 'sent.2', type: 'checkbox', description: 'Sent by post', box: box(0.4, 0.3) },
      { key: 'agree', type: 'checkbox', description: 'I agree to the terms', box: box(0.05, 0.4) },
    ];
    const ticked = (instructions: string) => fields.filter((_, i) => fillForm({ fields, instructions }).values[i] === 'true').map((f) => f.key);
    expect(ticked('Paid by card: right-hand button\nSent by post: left-hand button')).toEqual(['paid.2', 'sent.1']);
    expect(ticked('Tick "I agree to the terms", choose the right-hand button in the row of "Paid by card", and switch the row of "Sent by post" to its left-hand button.')).toEqual(['paid.2', 'sent.1', 'agree']);
    expect(ticked('Pour « Sent by post », cochez le bouton de droite.')).toEqual(['sent.2']);
    // Without the boxes' places, position words choose nothing.
    expect(fillForm({ fields: fields.map(({ box: _, ...f }) => f), instructions: 'Paid by card: right-hand button' }).values.filter((v) => v === 'true')).toEqual([]);
  });
  it('reads a statement against tick boxes grouped only by the section they are printed in (a flat form: "Section › Option")', () => {
    const fields: FillField[] = [
      { key: 'deutsch', type: 'checkbox', description: 'I speak and understand (tick all that apply) › Deutsch' },
      { key: 'english', type: 'checkbox', description: 'I speak and understand (tick all that apply) › English' },
      { key: 'latin', type: 'checkbox', description: 'I speak and understand (tick all that apply) › Latin' },
      { key: 'oui', type: 'checkbox', description: 'J) indemnisation par la Caisse Nationale de Santé › oui' },
      { key: 'non', type: 'checkbox', description: 'J) indemnisation par la Caisse Nationale de Santé › non' },
    ];
    const { values } = fillForm({ fields, instructions: 'I speak and understand German and English. Oui, j\'ai été indemnisée par la Caisse Nationale de Santé.' });
    expect(values.slice(0, 3)).toEqual(['true', 'true', null]);
    expect(values[3]).toBe('true');
    expect(values[4]).not.toBe('true');
  });
  it("fills the first copy of a form printed twice; a key numbered because its label repeats numbers nothing; \"(suite)\" is a field's 2nd line", () => {
    const at = (page: number, top: number) => ({ page, left: 0.1, top, width: 0.8, height: 0.02 });
    const fields: FillField[] = [
      { key: 'adresse', type: 'text', description: 'ADRESSE', box: at(1, 0.25) },
      { key: 'adresse_line_2', type: 'text', description: 'ADRESSE (line 2)', box: at(1, 0.27) },
      { key: 'nom', type: 'text', description: 'Attestation › Nom et prénom', box: at(1, 0.8) },
      { key: 'adresse_2', type: 'text', description: 'ADRESSE', box: at(2, 0.25) },
      { key: 'adresse_line_2_2', type: 'text', description: 'ADRESSE (line 2)', box: at(2, 0.27) },
      { key: 'nom_2', type: 'text', description: 'Attestation › Nom et prénom', box: at(2, 0.8) },
    ];
    const { values } = fillForm({ fields, instructions: 'Adresse : 12 rue des Tilleuls\nAdresse (suite) : 69003 Lyon\nAttestation – Nom et prénom : Lambert Sophie' });
    expect(values).toEqual(['12 rue des Tilleuls', '69003 Lyon', 'Lambert Sophie', null, null, null]);
  });
  it('reads "______, le ______" as where and when it is signed: the unlabelled box before ", le" is the place', () => {
    const at = (left: number) => ({ page: 1, left, top: 0.75, width: 0.13, height: 0.016 });
    const fields: FillField[] = [
      { key: 'A.LOCSIG', type: 'text', description: '', box: at(0.59) },
      { key: 'D.DATSIG', type: 'text', description: 'certifié exact, › , le', box: at(0.75) },
    ];
    expect(fillForm({ fields, instructions: 'Le certificat est signé à Strassen le 14/02/2020.' }).values).toEqual(['Strassen', '14/02/2020']);
    expect(fillForm({ fields, instructions: 'Lieu de signature : Strassen\nDate de signature : 14/02/2020' }).values).toEqual(['Strassen', '14/02/2020']);
    // An unlabelled box before a box labelled otherwise is named by nothing.
    const other = [fields[0]!, { ...fields[1]!, description: 'Montant' }];
    expect(fillForm({ fields: other, instructions: 'Lieu de signature : Strassen' }).values).toEqual([null, null]);
  });
  it("keeps the parts of a value said of someone to that one's fields and to a first line: the employer's street never goes to the accountant's address", () => {
    const fields: FillField[] = [
      { key: 'emp', type: 'text', description: "H) désignation de l'employeur › nom" },
      { key: 'emp_adr1', type: 'text', description: "H) désignation de l'employeur › adresse" },
      { key: 'emp_adr2', type: 'text', description: "H) désignation de l'employeur › adresse (line 2)" },
      { key: 'fid', type: 'text', description: 'I) fiduciaire › nom' },
      { key: 'fid_adr1', type: 'text', description: 'I) fiduciaire › adresse' },
      { key: 'fid_adr2', type: 'text', description: 'I) fiduciaire › adresse (line 2)' },
    ];
    const { values } = fillForm({ fields, instructions: "Mon employeur est Lux Logistique S.A. et son adresse est 15 route d'Arlon, L-8009 Strassen." });
    expect(values).toEqual(['Lux Logistique S.A.', "15 route d'Arlon", 'L-8009 Strassen', null, null, null]);
    const lines: FillField[] = [
      { key: 'adresse', type: 'text', description: 'ADRESSE' },
      { key: 'adresse_2', type: 'text', description: 'ADRESSE (line 2)' },
    ];
    expect(fillForm({ fields: lines, instructions: 'Mon adresse est 12 rue des Tilleuls.' }).values).toEqual(['12 rue des Tilleuls', null]);
  });
  it('writes nothing in a signature box but a signature; a date of signature still takes its date', () => {
    const fields: FillField[] = [
      { key: 'nom', type: 'text', description: "H) désignation de l'employeur › nom" },
      { key: 'sig', type: 'text', description: "signature de l'employeur" },
      { key: 'date', type: 'text', description: 'Date de signature' },
    ];
    expect(fillForm({ fields, instructions: 'Mon employeur est Lux Logistique S.A.\nDate de signature : 14/02/2020' }).values).toEqual(['Lux Logistique S.A.', null, '14/02/2020']);
    expect(fillForm({ fields, instructions: "Signature de l'employeur : J. Kremer" }).values).toEqual([null, 'J. Kremer', null]);
    const signed: FillField[] = [
      { key: 'le', type: 'text', description: 'certifié exact, › , le' },
      { key: 'signature_de_l_employeur', type: 'text', description: "signature de l'employeur" },
    ];
    expect(fillForm({ fields: signed, instructions: 'Date de signature : 14/02/2020' }).values).toEqual(['14/02/2020', null]);
  });
  it('reads a value said as the agent of a passive ("… est tenue par la Fiduciaire Kremer S.à r.l."), not "paid by card"', () => {
    const fields: FillField[] = [
      { key: 'fid', type: 'text', description: 'fiduciaire ou personne de contact chargée de la comptabilité des salaires › nom' },
      { key: 'org', type: 'text', description: "NOM DE L'ORGANISME QUI REGLE VOS PRESTATIONS MALADIE" },
      { key: 'payment', type: 'text', description: 'Payment' },
    ];
    const { values } = fillForm({ fields, instructions: 'La comptabilité des salaires est tenue par la Fiduciaire Kremer S.à r.l.\nMes prestations maladie sont réglées par la CPAM du Rhône.\nPayment: paid by card' });
    expect(values).toEqual(['Fiduciaire Kremer S.à r.l.', 'CPAM du Rhône', 'paid by card']);
  });
});

describe('fillForm: sentences that name fields with the form\'s own words', () => {
  const INVOICE: FillField[] = [
    { key: 'invoice_no', type: 'text', description: 'Invoice no.' },
    { key: 'invoice_date', type: 'text', description: 'Date' },
    { key: 'customer', type: 'text', description: 'Customer' },
    { key: 'vat_id', type: 'text', description: 'VAT ID' },
    { key: 'postcode', type: 'text', description: 'Postcode' },
    { key: 'town', type: 'text', description: 'Town' },
    { key: 'prov', type: 'text', description: 'Prov.' },
    { key: 'code', type: 'text', description: 'Item code' },
    { key: 'code2', type: 'text', description: 'Item code (line 2)' },
    { key: 'price2', type: 'text', description: 'Unit price (line 2)' },
    { key: 'rate', type: 'text', description: 'VAT rate' },
  ];
  const fillInvoice = (instructions: string) => Object.fromEntries(INVOICE.map((f, i) => [f.key, fillForm({ fields: INVOICE, instructions }).values[i]]));

  it('reads a value right after a run of the form\'s words, without a verb or a colon; an abbreviated label is matched by its word', () => {
    expect(fillInvoice('The customer is Bar Centrale, VAT ID 03123450375; postcode 40121, town Bologna, province BO.')).toMatchObject({
      customer: 'Bar Centrale',
      vat_id: '03123450375',
      postcode: '40121',
      town: 'Bologna',
      prov: 'BO',
      rate: null,
    });
  });

  it('a document\'s number and its date are two values; a rate loses its preposition', () => {
    expect(fillInvoice('This is invoice no. 27 of 15/03/2025. The VAT rate is at 22%.')).toMatchObject({ invoice_no: '27', invoice_date: '15/03/2025', rate: '22%' });
    // "Data" (it, pt), "Datum" (de, nl), "Fecha" (es) name a date as "Date" does.
    const italian: FillField[] = [
      { key: 'nr_fattura', type: 'text', description: 'Fattura nr.' },
      { key: 'data_fattura', type: 'text', description: 'Data' },
    ];
    expect(fillForm({ fields: italian, instructions: 'È la fattura nr. 27 del 15/03/2025.' }).values).toEqual(['27', '15/03/2025']);
  });

  it('a numbered lead before a colon numbers the clauses after it; a code is a whole value; a full stop in brackets ends nothing', () => {
    expect(fillInvoice('First row: item code A102, Espresso grinder. Second row: item code B215, Cups (pack of 12. blue), unit price 18,50.')).toMatchObject({
      code: 'A102',
      code2: 'B215',
      price2: '18,50',
    });
  });

  it('a capital alone is no value where every noun has one; a value after the form\'s words goes only where a label fits closely', () => {
    const fields: FillField[] = [
      { key: 'ort', type: 'text', description: 'Ort' },
      { key: 'andere', type: 'text', description: 'Andere Einnahmen' },
      { key: 'kosten', type: 'text', description: 'Kosten der Prozessführung (Betrag)' },
    ];
    expect(fillForm({ fields, instructions: 'Ort Essen, und keine andere Stelle zahlt meine Kosten.' }).values).toEqual(['Essen', null, null]);
  });

  it('a value named by the form\'s words goes only to a field printing them all; a clause that gave a number first is no "label value"', () => {
    const fields: FillField[] = [
      { key: 'vat', type: 'text', description: 'VAT rate' },
      { key: 'customer', type: 'text', description: 'Customer number' },
      { key: 'type3', type: 'text', description: 'Type (line 3)' },
    ];
    expect(fillForm({ fields, instructions: 'VAT number GB123456789.' }).values).toEqual([null, null, null]);
    expect(fillForm({ fields, instructions: 'I earned 52 480,00 of type S on line 2.' }).values).toEqual([null, null, null]);
  });

  it('a box that states a fact is ticked only when the number it prints is said too ("article 200", not the "article 978" box); a footnote mark glued to a word is no number', () => {
    const fields: FillField[] = [
      { key: 'art200', type: 'checkbox', description: 'Reduction under article 200 of the tax code' },
      { key: 'art978', type: 'checkbox', description: 'Reduction under article 978 of the tax code' },
      { key: 'statutes', type: 'checkbox', description: 'I accept the association statutes1.' },
    ];
    expect(fillForm({ fields, instructions: 'The reduction is under article 200 of the tax code. I accept the association statutes.' }).values).toEqual(['true', null, 'true']);
  });

  it('a value that fits two fields equally well by different words of its name is written in neither', () => {
    const fields: FillField[] = [
      { key: 'invoice_date', type: 'text', description: 'Invoice date' },
      { key: 'grand_total', type: 'text', description: 'Grand total' },
    ];
    expect(fillForm({ fields, instructions: 'The invoice total is 639,28.' }).values).toEqual([null, null]);
    expect(fillForm({ fields, instructions: 'The grand total is 639,28.' }).values).toEqual([null, '639,28']);
  });

  it('a label holding a conjunction is not split at it; an item named again is that item', () => {
    const fields: FillField[] = [
      { key: 'rel1', type: 'text', description: 'Lien de parenté (1)' },
      { key: 'rel2', type: 'text', description: 'Lien de parenté (2)' },
      { key: 'attest1', type: 'text', description: 'Nom et prénom (1)' },
      { key: 'attest2', type: 'text', description: 'Nom et prénom (2)' },
    ];
    const instructions =
      'Le premier ayant droit est ma conjointe. Le second ayant droit est mon oncle. Ma conjointe atteste sur l\'honneur; elle écrit comme nom et prénom Lambert Sophie et signe. Mon oncle atteste aussi; il écrit comme nom et prénom Moreau Bernard.';
    expect(fillForm({ fields, instructions }).values).toEqual(['Conjointe', 'Oncle', 'Lambert Sophie', 'Moreau Bernard']);
  });

  it('someone else\'s address ("sie wohnt in …") goes to the block of the person named before, in the masculine its title prints; a name\'s parts keep that person the topic', () => {
    const fields: FillField[] = [
      { key: 'plz', type: 'text', description: 'Vermieter › Postleitzahl', block: 'Vermieter' },
      { key: 'ort', type: 'text', description: 'Vermieter › Ort', block: 'Vermieter' },
      { key: 'plz_2', type: 'text', description: 'Mieter › Postleitzahl', block: 'Mieter' },
      { key: 'ort_2', type: 'text', description: 'Mieter › Ort', block: 'Mieter' },
      { key: 'strasse_2', type: 'text', description: 'Mieter › Straße und Hausnummer', block: 'Mieter' },
    ];
    const instructions = 'Die Mieterin ist Becker. Der Vorname ist Anna. Sie wohnt in der Kaiserstraße 18, 53113 Bonn.';
    // The landlord's block is left empty: nothing was said of the landlord.
    expect(fillForm({ fields, instructions }).values).toEqual([null, null, '53113', 'Bonn', 'Kaiserstraße 18']);
  });

  it('what is said of one block\'s party goes to that block\'s fields, even where another block\'s field is keyed by the same word', () => {
    const fields: FillField[] = [
      // The form's author keyed the beneficiary's name field "Adresse".
      { key: 'Adresse', type: 'text', description: 'Bénéficiaire › Nom ou dénomination', block: 'Bénéficiaire' },
      { key: 'Adresse_2', type: 'text', description: 'Donateur › Adresse', block: 'Donateur' },
    ];
    const instructions = 'La donatrice est Hélène Muller. Elle habite 8 allée des Peupliers, 67400 Illkirch.';
    expect(fillForm({ fields, instructions }).values).toEqual([null, '8 allée des Peupliers']);
  });

  it('a box labelled by a unit alone takes a number in that unit named by its section', () => {
    const fields: FillField[] = [
      { key: 'Euros', type: 'text', description: 'Le bénéficiaire reconnaît avoir reçu au titre des dons et versements ouvrant droit à réduction d’impôt, la somme de › Euros' },
      { key: 'Euros_2', type: 'text', description: 'Frais de port › Euros' },
    ];
    expect(fillForm({ fields, instructions: 'Somme : 150,00 euros' }).values).toEqual(['150,00', null]);
  });

  it('an amount written out is a value: "en toutes lettres cent cinquante euros et zéro centime", "in Worten einhundertfünfzig Euro"', () => {
    const fr: FillField[] = [{ key: 'lettres', type: 'text', description: 'Somme en toutes lettres' }];
    expect(fillForm({ fields: fr, instructions: 'Le don est de 150,00 euros, en toutes lettres cent cinquante euros et zéro centime; il est versé par chèque.' }).values).toEqual(['cent cinquante euros et zéro centime']);
    const de: FillField[] = [
      { key: 'betrag', type: 'text', description: 'Betrag in Ziffern' },
      { key: 'worte', type: 'text', description: 'Betrag in Worten' },
    ];
    expect(fillForm({ fields: de, instructions: 'Der Betrag ist 150,00 Euro, in Worten einhundertfünfzig Euro.' }).values).toEqual(['150,00 Euro', 'einhundertfünfzig Euro']);
    // A number word alone starts no value ("un don manuel").
    expect(fillForm({ fields: fr, instructions: 'Somme en toutes lettres un don manuel.' }).values).toEqual([null]);
  });

  it('the party a block is titled by, named in a sentence, goes in that block\'s name box, without an elided article', () => {
    const fields: FillField[] = [
      { key: 'nom_b', type: 'text', description: 'Bénéficiaire › Nom ou dénomination', block: 'Bénéficiaire' },
      { key: 'nom_d', type: 'text', description: 'Donateur › Nom', block: 'Donateur' },
      { key: 'prenom_d', type: 'text', description: 'Donateur › Prénoms', block: 'Donateur' },
    ];
    const instructions = "Le bénéficiaire est l'Association Les Amis du Quartier. Le donateur est Martin.";
    expect(fillForm({ fields, instructions }).values).toEqual(['Association Les Amis du Quartier', 'Martin', null]);
    // A name that starts with its article in capitals keeps it.
    expect(fillForm({ fields, instructions: "Le bénéficiaire est L'Atelier Solidaire." }).values).toEqual(["L'Atelier Solidaire", null, null]);
    // A particle is part of a family name.
    expect(fillForm({ fields: [{ key: 'nom', type: 'text', description: 'Nom de famille' }], instructions: "Mon nom de famille est d'Ormesson." }).values).toEqual(["d'Ormesson"]);
  });
});
