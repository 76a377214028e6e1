/**
 * Which way a document writes its numeric dates when no date says it (05/03/2024 is 5 March or May 3):
 * by the language it is written in. Every language the engine reads but English writes the day first
 * (and so does English outside the United States, which its currency tells: ../local/business.ts
 * `settleDateOrder`). A word list per side, lower case with accents off: words frequent on invoices,
 * letters and forms in that language and rare in the others. To extend: add a language's words to
 * DAY_FIRST_WORDS (or, for a month-first language, to MONTH_FIRST_WORDS).
 */
export const MONTH_FIRST_WORDS = `the, and, of, to, for, with, your, you, please, this, is, are, invoice, amount, due, bill, thank, payment, customer, order, from`;

export const DAY_FIRST_WORDS = {
  fr: 'le, les, des, du, et, pour, avec, une, facture, montant, client, paiement, echeance, tva, reglement, societe',
  de: 'der, die, das, und, mit, fur, von, ist, rechnung, betrag, datum, kunde, zahlung, mwst, steuer, bitte',
  es: 'el, los, las, del, por, para, con, factura, fecha, importe, cliente, pago, iva, senor, senores',
  it: 'il, della, delle, per, con, fattura, importo, cliente, pagamento, iva, totale',
  pt: 'os, dos, das, para, com, fatura, nota, valor, cliente, pagamento, emissao',
  nl: 'het, een, van, voor, met, factuur, bedrag, klant, betaling, btw',
};
