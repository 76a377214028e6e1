/**
 * Schema understanding: a property is matched to a business field through its name, title,
 * description and parent, in the lexicon's languages (functions/models/knowledge/fields.ts).
 */
import { describe, expect, it } from 'vitest';
import { conceptOfField } from '../../../functions/models/local/concepts.ts';

const of = (key: string, options: { parent?: string; type?: 'string' | 'number'; item?: boolean; title?: string; description?: string } = {}) =>
  conceptOfField({ key, ...(options.title ? { title: options.title } : {}), ...(options.description ? { description: options.description } : {}) }, options.parent ? { key: options.parent } : undefined, options.type ?? 'string', options.item ?? false)?.concept.id;

describe('conceptOfField', () => {
  it('reads property names in seven languages', () => {
    const cases: Array<[string, string, 'string' | 'number']> = [
      ['invoice_number', 'document_number', 'string'],
      ['numero_facture', 'document_number', 'string'],
      ['Rechnungsnummer', 'document_number', 'string'],
      ['factuurnummer', 'document_number', 'string'],
      ['numero_de_factura', 'document_number', 'string'],
      ['numeroFattura', 'document_number', 'string'],
      ['numero_da_fatura', 'document_number', 'string'],
      ['invoiceDate', 'issue_date', 'string'],
      ['date_facture', 'issue_date', 'string'],
      ['Rechnungsdatum', 'issue_date', 'string'],
      ['fecha_de_factura', 'issue_date', 'string'],
      ['date_echeance', 'due_date', 'string'],
      ['vervaldatum', 'due_date', 'string'],
      ['montant_ttc', 'total', 'number'],
      ['Gesamtbetrag', 'total', 'number'],
      ['totaal_incl_btw', 'total', 'number'],
      ['importe_total', 'total', 'number'],
      ['montant_ht', 'subtotal', 'number'],
      ['Nettobetrag', 'subtotal', 'number'],
      ['imponibile', 'subtotal', 'number'],
      ['montant_tva', 'tax', 'number'],
      ['mwst', 'tax', 'number'],
      ['btw_bedrag', 'tax', 'number'],
      ['iva', 'tax', 'number'],
      ['fournisseur', 'vendor_name', 'string'],
      ['Lieferant', 'vendor_name', 'string'],
      ['leverancier', 'vendor_name', 'string'],
      ['proveedor', 'vendor_name', 'string'],
      ['fornitore', 'vendor_name', 'string'],
      ['fornecedor', 'vendor_name', 'string'],
      ['client', 'customer_name', 'string'],
      ['Kunde', 'customer_name', 'string'],
      ['devise', 'currency', 'string'],
      ['iban', 'iban', 'string'],
    ];
    for (const [key, want, type] of cases) expect(of(key, { type }), key).toBe(want);
  });

  it('tells the document number from other numbers, and the issue date from other dates', () => {
    expect(of('customer_number')).toBe('customer_number');
    expect(of('po_number')).toBe('order_number');
    expect(of('vat_number')).toBe('tax_id');
    expect(of('contract_number')).toBe('contract_number');
    expect(of('due_date')).toBe('due_date');
    expect(of('delivery_date')).toBe('delivery_date');
    expect(of('amount_due', { type: 'number' })).toBe('total');
    expect(of('balance_due', { type: 'number' })).toBe('balance_due');
  });

  it('qualifies generic keys by their parent or title, and leaves generic keys alone', () => {
    expect(of('name', { parent: 'seller' })).toBe('vendor_name');
    expect(of('name', { parent: 'buyer' })).toBe('customer_name');
    expect(of('number', { parent: 'document' })).toBe('document_number');
    expect(of('value', { title: 'Invoice total', type: 'number' })).toBe('total');
    expect(of('field_7', { description: 'The invoice number, as printed' })).toBe('document_number');
    expect(of('name')).toBeUndefined();
    // (A bare number of the document itself is its number: below, "terse names".)
  });

  it('does not stretch a name it only half explains', () => {
    expect(of('opening_balance', { type: 'number' })).toBeUndefined();
    expect(of('total_revenue', { type: 'number' })).toBeUndefined();
    expect(of('tax_code')).toBeUndefined();
    expect(of('employee_name')).toBeUndefined();
  });

  it('matches line item fields only inside items, and types that cannot hold the value not at all', () => {
    expect(of('amount', { item: true, type: 'number' })).toBe('item_amount');
    expect(of('prix_unitaire', { item: true, type: 'number' })).toBe('item_unit_price');
    expect(of('qty', { item: true, type: 'number' })).toBe('item_quantity');
    expect(of('designation', { item: true })).toBe('item_description');
    expect(of('total', { item: true, type: 'number' })).toBe('item_amount');
    expect(of('invoice_date', { type: 'number' })).toBeUndefined();
  });
});

describe('terse names', () => {
  it('reads a lone gross or net word as that amount, and from / to as the issuer and the recipient', () => {
    expect(of('gross', { type: 'number' })).toBe('total');
    expect(of('net', { type: 'number' })).toBe('subtotal');
    expect(of('HT', { type: 'number' })).toBe('subtotal');
    expect(of('brutto', { type: 'number' })).toBe('total');
    // ("gross pay" is no invoice amount: a gross word beside another word still needs an amount word.)
    expect(of('gross_pay', { type: 'number' })).not.toBe('total');
    expect(of('from')).toBe('vendor_name');
    expect(of('to')).toBe('customer_name');
  });

  it("reads a bare number word of the document itself as the document's number, and only there", () => {
    expect(of('no')).toBe('document_number');
    expect(of('number')).toBe('document_number');
    expect(of('#')).toBe('document_number');
    expect(of('nr', { type: 'number' })).toBe('document_number');
    // Inside an object it is that object's number (left to its parent's words), in an item the item's.
    expect(of('no', { parent: 'contact' })).not.toBe('document_number');
    expect(of('number', { item: true })).not.toBe('document_number');
    // A name alone still says nothing of whose it is.
    expect(of('name')).toBeUndefined();
  });
});
