/**
 * What people ask of business documents, and how documents print it: the field lexicon of the
 * `quire-local` engine (DESIGN §6). Each concept is one kind of value (the document's number, its
 * total, the customer's name …) with
 *   - `labels`: how documents label it, by language (comma-separated; case, accents and punctuation do
 *     not matter, "no", "nr", "n°" and "#" are one number word);
 *   - `weak`: labels printed for it that often mean something else too ("Amount due" after payments);
 *   - `names`: words people name such a field with in a schema that documents do not print ("issuer").
 *
 * A schema property is matched to a concept by its name, title and description against labels and
 * names (../local/concepts.ts). A label printed in a document goes to the concept that names it best, so
 * "Customer No." is never read as the invoice number, nor "Total GST" as the total: concepts that are
 * rarely asked for (change given, rounding, phone) are here so that their labels are recognised and
 * kept away from the others.
 *
 * To extend: add a language's words to a concept, or a concept. Measure with `npm run bench -- accuracy`.
 */

export type Language = 'en' | 'fr' | 'de' | 'nl' | 'es' | 'it' | 'pt' | 'ms';

/** How a concept's value reads. */
export type FieldKind = 'identifier' | 'date' | 'amount' | 'percent' | 'quantity' | 'name' | 'address' | 'text' | 'currency' | 'email' | 'phone' | 'iban' | 'bic';

export interface FieldConcept {
  id: string;
  kind: FieldKind;
  /** What the field is (for people reading this file). */
  about: string;
  labels: Partial<Record<Language, string>>;
  weak?: Partial<Record<Language, string>>;
  names?: Partial<Record<Language, string>>;
  /** Only inside a line item (a column of the item table). */
  item?: boolean;
}

export const FIELD_CONCEPTS: readonly FieldConcept[] = [
  // ---- numbers of things ----
  {
    id: 'document_number',
    kind: 'identifier',
    about: 'The number of this document: invoice, receipt, bill, estimate, statement or credit note number',
    labels: {
      en: `invoice no, invoice number, invoice #, invoice id, inv no, receipt no, receipt number, receipt #, bill no, bill number,
        document no, document number, doc no, cash bill no, tax invoice no, credit note no, credit note number, cn no,
        estimate no, estimate number, quote no, quotation no, statement no, statement number, ticket no, transaction no,
        trans no, slip no, voucher no, check no, chk no, ref no, reference no, reference number, serial no, folio`,
      fr: 'facture no, numero de facture, no de facture, numero facture, numero du document, numero de recu, recu no, avoir no, devis no',
      de: 'rechnung nr, rechnungsnr, rechnungsnummer, rechnungs nr, belegnummer, beleg nr, belegnr, dokumentnummer, quittung nr, gutschrift nr, angebot nr',
      nl: 'factuurnummer, factuur nr, factuurnr, factuur no, documentnummer, bonnummer, bon nr, kwitantie nr, creditnota nr, offerte nr',
      es: 'factura no, numero de factura, no de factura, numero factura, recibo no, numero de recibo, ticket no, presupuesto no, comprobante no, numero de comprobante',
      it: 'fattura n, fattura no, numero fattura, numero documento, ricevuta n, scontrino n, preventivo n',
      pt: 'fatura no, numero da fatura, numero fatura, recibo no, numero do recibo, nota fiscal no, orcamento no, numero da nota, numero da nota fiscal, numero da nfs e, numero da nf e, nf e no, nfs e no',
      ms: 'no resit, no invois, no bil',
    },
    weak: { en: 'invoice, receipt, bill, no, number, #, document, ref, reference, claim no, claim number, ro number, repair order no, estimate id, workfile id' },
    names: { en: 'invoice id, receipt id, bill id, document id, document number, doc number, number' },
  },
  {
    id: 'order_number',
    kind: 'identifier',
    about: 'A purchase order or sales order number the document refers to',
    labels: {
      en: 'po, po no, po number, purchase order, purchase order no, purchase order number, order no, order number, order #, order id, sales order no, so no, your order, your ref',
      fr: 'bon de commande, commande no, numero de commande, no de commande',
      de: 'bestellnummer, bestellung nr, auftragsnummer, auftrag nr, ihre bestellung',
      nl: 'bestelnummer, bestelling nr, ordernummer, order nr, inkoopordernummer',
      es: 'pedido no, numero de pedido, orden de compra',
      it: 'ordine n, numero ordine, ordine di acquisto',
      pt: 'pedido no, numero do pedido, ordem de compra',
    },
  },
  {
    id: 'customer_number',
    kind: 'identifier',
    about: "The customer's or account's number with the issuer",
    labels: {
      en: 'customer no, customer number, customer #, customer id, account no, account number, account #, acct no, client no, client number, client id, member no, member id, membership no, patient no, patient id, mrn, hospital account, guarantor id',
      fr: 'numero client, no client, client no, code client, numero de compte',
      de: 'kundennummer, kunden nr, kundennr, kontonummer, mitgliedsnummer',
      nl: 'klantnummer, klant nr, klantnr, debiteurnummer, lidnummer',
      es: 'numero de cliente, cliente no, codigo de cliente',
      it: 'codice cliente, numero cliente, cliente n',
      pt: 'numero do cliente, codigo do cliente',
    },
  },
  {
    id: 'contract_number',
    kind: 'identifier',
    about: 'A contract, agreement or policy number',
    labels: {
      en: 'contract no, contract number, agreement no, agreement number, policy no, policy number, policy #',
      fr: 'numero de contrat, contrat no, numero de police',
      de: 'vertragsnummer, vertrag nr, policennummer',
      nl: 'contractnummer, contract nr, polisnummer',
      es: 'numero de contrato, contrato no, numero de poliza',
      it: 'numero contratto, contratto n, numero polizza',
      pt: 'numero do contrato, contrato no, numero da apolice',
    },
  },
  {
    id: 'tax_id',
    kind: 'identifier',
    about: "A tax or company registration number (the issuer's unless the name says whose)",
    labels: {
      en: 'vat no, vat number, vat reg no, vat registration no, vat id, gst no, gst id, gst reg no, gst registration no, gst reg, tax id, tax no, tin, ein, abn, acn, gstin, pan, company no, company reg no, registration no, reg no, roc no, co no, co reg no, business no, sst no, sst id',
      fr: 'tva intracommunautaire, no tva, numero de tva, siret, siren, rcs, identifiant fiscal, tva intracom',
      de: 'ust idnr, ust id, ustidnr, umsatzsteuer id, steuernummer, steuer nr, handelsregister, hrb',
      nl: 'btw nummer, btw nr, btw id, kvk, kvk nummer, kvk nr',
      es: 'nif, cif, numero de identificacion fiscal, rfc',
      it: 'partita iva, p iva, codice fiscale',
      pt: 'nif, nipc, cnpj, cpf, numero de contribuinte',
    },
  },
  // ---- dates ----
  {
    id: 'issue_date',
    kind: 'date',
    about: 'The date the document was issued (invoice date, receipt date, statement date)',
    labels: {
      en: 'date, invoice date, receipt date, bill date, billing date, document date, doc date, date of issue, issue date, issued, issued on, dated, statement date, estimate date, creation date, tax date, transaction date, trans date, txn date, date of invoice, printed, date and time of issue, issue date and time',
      fr: 'date, date de facture, date de facturation, date d emission, date du document, emis le, fait le, le, date et heure d emission',
      de: 'datum, rechnungsdatum, belegdatum, ausstellungsdatum, ausgestellt am, datum der rechnung',
      nl: 'datum, factuurdatum, documentdatum, datum factuur, uitgiftedatum',
      es: 'fecha, fecha de factura, fecha de emision, fecha factura, fecha y hora de emision',
      it: 'data, data fattura, data documento, data di emissione, data e ora di emissione',
      pt: 'data, data da fatura, data de emissao, data da emissao, data do documento, data e hora da emissao, data e hora de emissao',
      ms: 'tarikh',
    },
    names: { en: 'invoice date, receipt date, document date, issue date, issued date, date issued' },
  },
  {
    id: 'due_date',
    kind: 'date',
    about: 'The date payment is due',
    labels: {
      en: 'due date, due, date due, payment due, payment due date, pay by, due by, payable by, please pay by',
      fr: 'date d echeance, echeance, a payer avant le, date limite de paiement, payable le',
      de: 'fallig am, falligkeitsdatum, zahlbar bis, fallig bis, zahlungsziel',
      nl: 'vervaldatum, te betalen voor, uiterste betaaldatum, betalen voor',
      es: 'fecha de vencimiento, vencimiento, pagar antes de',
      it: 'scadenza, data di scadenza, pagamento entro',
      pt: 'data de vencimento, vencimento, pagar ate',
    },
  },
  {
    id: 'delivery_date',
    kind: 'date',
    about: 'The date goods were delivered or shipped',
    labels: {
      en: 'delivery date, date of delivery, delivered, ship date, shipping date, date shipped, dispatch date',
      fr: 'date de livraison, livre le, date d expedition',
      de: 'lieferdatum, liefertermin, versanddatum, leistungsdatum',
      nl: 'leverdatum, leveringsdatum, verzenddatum',
      es: 'fecha de entrega, fecha de envio',
      it: 'data di consegna, data consegna, data spedizione',
      pt: 'data de entrega, data de envio',
    },
  },
  {
    id: 'other_date',
    kind: 'date',
    about: 'Dates that are not the document date: orders, services, periods, birth, expiry, loss',
    labels: {
      en: `order date, date ordered, service date, date of service, service period, period, from, through, to, admission date, admit date,
        discharge date, date of birth, dob, birth date, expiry, expiry date, expiration date, exp, exp date, valid until, date of loss, loss date,
        printed on, start date, end date, effective date, period ending, last payment`,
      fr: 'date de commande, date de naissance, date d expiration, valable jusqu au, periode',
      de: 'bestelldatum, geburtsdatum, gultig bis, ablaufdatum, zeitraum, leistungszeitraum',
      nl: 'besteldatum, geboortedatum, geldig tot, periode',
      es: 'fecha de pedido, fecha de nacimiento, valido hasta, periodo',
      it: 'data ordine, data di nascita, valido fino al, periodo',
      pt: 'data do pedido, data de nascimento, valido ate, periodo',
    },
  },
  // ---- amounts ----
  {
    id: 'total',
    kind: 'amount',
    about: 'The total of the document, tax included (grand total; after any rounding)',
    labels: {
      en: `total, grand total, total amount, invoice total, total due, total payable, amount payable, total incl tax, total including tax,
        total incl vat, total incl gst, total inclusive gst, total sales inclusive gst, total inclusive of gst, total amount payable,
        rounded total, total rounded, nett total, net total payable, total sales, total charges, total hospital charges, total cost,
        net cost of repairs, estimate total, total estimate, grand total due, total amount due, amount due, bill amount, total bill amount,
        invoice amount, net amount payable, net total, total after tax, total after gst, total after vat, amount after tax`,
      fr: 'total, total ttc, montant ttc, total a payer, net a payer, montant total, somme a payer, total general, montant a payer, total facture',
      de: 'gesamt, gesamtbetrag, endbetrag, rechnungsbetrag, summe, gesamtsumme, bruttobetrag, brutto, zu zahlen, zahlbetrag, total, betrag, rechnungssumme, rechnungssumme brutto, endsumme, summe brutto, gesamt brutto, bruttosumme, rechnungssumme mit ust, summe gesamt',
      nl: 'totaal, totaalbedrag, totaal incl btw, totaal inclusief btw, te betalen, factuur totaal, factuurbedrag, eindtotaal, totaal te betalen',
      es: 'total, importe total, total a pagar, total factura, monto total',
      it: 'totale, totale fattura, importo totale, totale da pagare, totale documento',
      pt: 'total, valor total, total a pagar, total da fatura, valor a pagar',
      ms: 'jumlah, jumlah besar',
    },
    weak: {
      en: 'balance due, balance, amount, please pay, pay this amount, due, net',
      fr: 'solde', de: 'offener betrag, saldo', nl: 'saldo', es: 'saldo', it: 'saldo', pt: 'saldo',
    },
    names: { en: 'grand total, total amount, amount total, invoice amount, total price, gross amount, amount including tax, total incl tax, total with tax, gross total' },
  },
  {
    id: 'balance_due',
    kind: 'amount',
    about: 'What is still to pay after payments and credits',
    labels: {
      en: 'balance due, balance, balance outstanding, outstanding, amount outstanding, remaining balance, current balance, account balance, current hospital account balance, insurance pay, customer pay, patient pay',
      fr: 'solde, solde du, reste a payer, montant du',
      de: 'offener betrag, restbetrag, saldo, noch zu zahlen',
      nl: 'openstaand bedrag, saldo, nog te betalen',
      es: 'saldo, saldo pendiente, importe pendiente',
      it: 'saldo, importo residuo, residuo da pagare',
      pt: 'saldo, saldo devedor, valor em aberto',
    },
  },
  {
    id: 'subtotal',
    kind: 'amount',
    about: 'The amount before tax (net, untaxed)',
    labels: {
      en: `subtotal, sub total, sub-total, total before tax, total excl tax, total excluding tax, total excl vat, total excl gst,
        total excluding gst, total exclusive gst, total before gst, total before vat, total sales excluding gst, total sales exclusive of gst, total excl of gst, net amount, untaxed amount,
        amount before tax, net total, taxable amount, taxable value, amount excl gst, amount excl vat, total ex gst, total ex vat`,
      fr: 'sous total, total ht, montant ht, total hors taxes, montant hors taxes, hors taxe, ht, base ht, net ht',
      de: 'zwischensumme, nettobetrag, netto, summe netto, gesamt netto, nettosumme, betrag netto, rechnungsbetrag netto, rechnungssumme netto, rechnungssumme ohne ust, summe ohne ust, summe ohne mwst, betrag ohne ust, betrag ohne mwst, ohne ust, ohne mwst',
      nl: 'subtotaal, totaal excl btw, totaal exclusief btw, exclusief btw, excl btw, totaal ex btw, ex btw, netto bedrag, bedrag excl btw',
      es: 'subtotal, base imponible, importe neto, total sin iva, neto',
      it: 'subtotale, imponibile, totale imponibile, importo netto, netto',
      pt: 'subtotal, valor liquido, total sem iva, base tributavel',
    },
    weak: { en: 'net, amount, excl, before gst' },
    names: { en: 'net amount, amount before tax, total before tax, total excluding tax, untaxed amount, amount excluding tax, total net, net total, pre tax total' },
  },
  {
    id: 'tax',
    kind: 'amount',
    about: 'The total tax amount (VAT, GST, sales tax)',
    labels: {
      en: 'tax, tax amount, total tax, sales tax, vat, vat amount, total vat, gst, gst amount, total gst, gst payable, hst, pst, igst, cgst, sgst, service tax, tax total, taxes, sst',
      fr: 'tva, montant tva, total tva, taxe, taxes, montant de la tva',
      de: 'mwst, mehrwertsteuer, ust, umsatzsteuer, steuer, mwst betrag, mwst summe, zzgl mwst, zuzuglich mwst, zzgl ust, zuzuglich ust, steuerbetrag',
      nl: 'btw, btw bedrag, totaal btw, belasting',
      es: 'iva, impuesto, importe iva, total iva, impuestos',
      it: 'iva, imposta, totale iva, importo iva',
      pt: 'iva, imposto, valor do iva, total iva, icms, valor do icms, iss, issqn, valor do iss, issqn apurado',
      ms: 'cukai',
    },
    names: { en: 'tax amount, vat amount, gst amount, total tax, sales tax amount' },
  },
  {
    id: 'tax_rate',
    kind: 'percent',
    about: 'The tax rate in percent',
    labels: { en: 'tax rate, vat rate, gst rate, rate', fr: 'taux de tva, taux', de: 'mwst satz, steuersatz', nl: 'btw tarief, btw percentage', es: 'tipo de iva, tasa', it: 'aliquota iva, aliquota', pt: 'taxa de iva, taxa' },
  },
  {
    id: 'amount_paid',
    kind: 'amount',
    about: 'What was paid or tendered (cash, card), not the total',
    labels: {
      en: 'paid, amount paid, total paid, payment, payments, payments credits, payments / credits, cash, tendered, amount tendered, cash tendered, card, credit card, visa, mastercard, debit, nets, eftpos, deposit, paid amount, payment received, insurance payments, patient payments',
      fr: 'paye, montant paye, acompte, especes, carte', de: 'bezahlt, gezahlt, bar, anzahlung, erhalten', nl: 'betaald, contant, pin, aanbetaling', es: 'pagado, efectivo, tarjeta, anticipo', it: 'pagato, contanti, acconto', pt: 'pago, dinheiro, cartao, sinal',
      ms: 'tunai',
    },
  },
  {
    id: 'change_given',
    kind: 'amount',
    about: 'Change given back to the customer',
    labels: { en: 'change, change due, cash change, change amount', fr: 'rendu, monnaie rendue', de: 'ruckgeld, wechselgeld', nl: 'wisselgeld, terug', es: 'cambio, vuelto', it: 'resto', pt: 'troco', ms: 'baki' },
  },
  {
    id: 'other_amount',
    kind: 'amount',
    about: 'Amounts that are neither total, subtotal nor tax: discounts, rounding, shipping, service charges, savings, adjustments',
    labels: {
      en: `discount, total discount, rounding, rounding adj, rounding adjustment, round adj, adjustment, adjustments, shipping, shipping handling, freight, delivery,
        service charge, svc charge, service chg, savings, total savings, you saved, tip, gratuity, deductible, less deductible, labor total, parts total,
        total labor, total parts, paint supplies, gross total, total cost of repairs, insurance adjustments, total adjustments, credits, withholding, withholding tax, tax withheld, total withheld`,
      fr: 'remise, escompte, arrondi, frais de port, livraison, retenue a la source', de: 'rabatt, skonto, rundung, versand, versandkosten, einbehalt, quellensteuer', nl: 'korting, afronding, verzendkosten', es: 'descuento, redondeo, envio, retencion, retenciones, retencion irpf, total retenciones', it: 'sconto, arrotondamento, spedizione, ritenuta, ritenuta d acconto, ritenute', pt: 'desconto, arredondamento, frete, retencao, retencoes, total das retencoes, valor retido',
    },
  },
  {
    id: 'total_quantity',
    kind: 'quantity',
    about: 'How many items or units in all',
    labels: { en: 'total qty, total quantity, qty total, item count, no of items, number of items, total items, items, total units, total pcs, pieces', fr: 'nombre d articles, quantite totale', de: 'anzahl artikel, gesamtmenge', nl: 'aantal artikelen', es: 'numero de articulos', it: 'numero articoli', pt: 'quantidade total' },
  },
  {
    id: 'currency',
    kind: 'currency',
    about: 'The currency of the amounts (ISO 4217 code)',
    labels: { en: 'currency, currency code, ccy, curr', fr: 'devise, monnaie', de: 'wahrung', nl: 'valuta, munteenheid', es: 'moneda, divisa', it: 'valuta', pt: 'moeda' },
  },
  // ---- parties ----
  {
    id: 'vendor_name',
    kind: 'name',
    about: 'Who issued the document: the seller, supplier, shop, clinic or company at the top',
    labels: {
      en: 'from, seller, vendor, supplier, issued by, sold by, bill from, billed from, invoice from, remit to, merchant, store, shop, billing provider, provider, provider name, facility, payee, contractor, repair facility, shop name, pay to, sender, shipper, creditor',
      fr: 'fournisseur, vendeur, emetteur, emis par, prestataire, de, creancier',
      de: 'lieferant, verkaufer, rechnungssteller, aussteller, von, anbieter, leistungserbringer, kreditor',
      nl: 'leverancier, verkoper, afzender, van, uitgever, crediteur',
      es: 'proveedor, vendedor, emisor, emitido por, de, acreedor',
      it: 'fornitore, venditore, emittente, cedente, da, creditore',
      pt: 'fornecedor, vendedor, emitente, prestador, de, credor',
    },
    names: { en: 'vendor, seller, supplier, issuer, merchant, store, shop, company, business, biller, sender, provider, from, retailer, restaurant, hospital, clinic, body shop, facility' },
  },
  {
    id: 'vendor_address',
    kind: 'address',
    about: "The issuer's address",
    labels: { en: 'vendor address, supplier address, seller address, company address, from address', fr: 'adresse du fournisseur', de: 'adresse des lieferanten', nl: 'adres leverancier', es: 'direccion del proveedor', it: 'indirizzo del fornitore', pt: 'endereco do fornecedor' },
    names: { en: 'vendor address, seller address, supplier address, issuer address, merchant address, store address, company address, business address' },
  },
  {
    id: 'customer_name',
    kind: 'name',
    about: 'Who the document is for: the customer billed, patient, insured, owner',
    labels: {
      en: 'bill to, billed to, invoice to, issued to, sold to, customer, customer name, client, client name, buyer, purchaser, recipient, patient, patient name, insured, insured name, owner, vehicle owner, guest, attention, attn, to, name, account name, guarantor, member name, prepared for, customer details, client details, patient details, buyer details, debtor',
      fr: 'client, facture a, facturer a, destinataire, adresse de facturation, acheteur, nom du client, a l attention de, debiteur',
      de: 'kunde, rechnungsempfanger, leistungsempfanger, empfanger, rechnung an, kaufer, auftraggeber, an, kundenname, debitor',
      nl: 'klant, factuur aan, afnemer, koper, aan, geadresseerde, klantnaam, debiteur',
      es: 'cliente, facturar a, destinatario, comprador, nombre del cliente, senor, senores, senor es, sr, sres, sr s, apellido y nombre',
      it: 'cliente, destinatario, intestatario, acquirente, spett, spettabile',
      pt: 'cliente, faturar a, destinatario, comprador, nome do cliente, tomador, tomador do servico, adquirente',
    },
    names: { en: 'customer, client, buyer, bill to, billed to, recipient, receiver, purchaser, payer, patient, insured, owner, consumer, account holder, sold to, invoicee, addressee, to' },
  },
  {
    id: 'customer_address',
    kind: 'address',
    about: "The customer's (billing) address",
    labels: { en: 'billing address, bill to address, customer address, invoice address', fr: 'adresse de facturation, adresse du client', de: 'rechnungsadresse, kundenadresse', nl: 'factuuradres, adres klant', es: 'direccion de facturacion', it: 'indirizzo di fatturazione', pt: 'endereco de cobranca' },
    names: { en: 'customer address, client address, buyer address, billing address, bill to address, recipient address' },
  },
  {
    id: 'ship_to',
    kind: 'address',
    about: 'Where goods go (ship to, deliver to)',
    labels: { en: 'ship to, deliver to, delivery address, shipping address, consignee', fr: 'livrer a, adresse de livraison', de: 'lieferadresse, lieferanschrift, versandadresse', nl: 'afleveradres, leveradres', es: 'enviar a, direccion de entrega', it: 'indirizzo di consegna, destinazione merce', pt: 'entregar a, endereco de entrega' },
  },
  // ---- contact and bank ----
  {
    id: 'email',
    kind: 'email',
    about: 'An e-mail address',
    labels: { en: 'email, e mail, email address, mail', fr: 'courriel, adresse e mail', de: 'e mail adresse', nl: 'e mailadres', es: 'correo, correo electronico', it: 'posta elettronica', pt: 'correio eletronico' },
  },
  {
    id: 'phone',
    kind: 'phone',
    about: 'A phone or fax number',
    labels: { en: 'phone, tel, telephone, phone no, tel no, mobile, cell, fax, fax no, hp, contact no, contact number, hotline', fr: 'telephone, tel, portable, fax', de: 'telefon, tel, mobil, fax, handy', nl: 'telefoon, tel, mobiel, fax', es: 'telefono, tel, movil, fax', it: 'telefono, tel, cellulare, fax', pt: 'telefone, tel, telemovel, fax' },
  },
  {
    id: 'iban',
    kind: 'iban',
    about: 'An IBAN',
    labels: { en: 'iban, iban no, iban number', fr: 'iban', de: 'iban', nl: 'iban, rekeningnummer', es: 'iban', it: 'iban', pt: 'iban' },
  },
  {
    id: 'bic',
    kind: 'bic',
    about: 'A BIC / SWIFT code',
    labels: { en: 'bic, swift, swift code, bic swift, swift bic', fr: 'bic, code swift', de: 'bic, swift', nl: 'bic, swift', es: 'bic, swift', it: 'bic, swift', pt: 'bic, swift' },
  },
  {
    id: 'bank_account',
    kind: 'identifier',
    about: 'A bank account number (not an IBAN)',
    labels: { en: 'bank account, account no, bank account no, bank account number, a/c no, sort code, routing number, bsb', fr: 'compte bancaire, rib', de: 'bankverbindung, konto, blz', nl: 'bankrekening, rekeningnummer', es: 'cuenta bancaria', it: 'conto corrente', pt: 'conta bancaria' },
  },
  {
    id: 'payment_terms',
    kind: 'text',
    about: 'Payment terms',
    labels: { en: 'terms, payment terms, terms of payment, payment conditions', fr: 'conditions de paiement, conditions de reglement, reglement', de: 'zahlungsbedingungen, zahlungsziel, zahlbar', nl: 'betalingsvoorwaarden, betalingstermijn', es: 'condiciones de pago, forma de pago', it: 'condizioni di pagamento, modalita di pagamento', pt: 'condicoes de pagamento' },
  },
  // ---- people and places on receipts that are not parties ----
  {
    id: 'staff',
    kind: 'name',
    about: 'Cashier, salesperson, server: not the vendor or the customer',
    labels: { en: 'cashier, cashier name, operator, served by, server, salesperson, sales person, staff, clerk, waiter, host, counter, terminal, pos, station, user, teller', fr: 'caissier, vendeur, serveur', de: 'kassierer, bedient von, kasse', nl: 'kassier, bediend door, kassa', es: 'cajero, atendido por', it: 'cassiere, operatore', pt: 'operador, atendente', ms: 'juruwang' },
  },
  {
    id: 'table',
    kind: 'identifier',
    about: 'Restaurant table, covers, guests',
    labels: { en: 'table, table no, tbl, pax, guests, covers, room no, room', fr: 'table, couverts', de: 'tisch', nl: 'tafel', es: 'mesa', it: 'tavolo, coperti', pt: 'mesa' },
  },
  {
    id: 'time',
    kind: 'text',
    about: 'A time of day',
    labels: { en: 'time', fr: 'heure', de: 'uhrzeit, zeit', nl: 'tijd', es: 'hora', it: 'ora', pt: 'hora', ms: 'masa' },
  },
  {
    id: 'page',
    kind: 'text',
    about: 'Page numbering',
    labels: { en: 'page, page no, pg', fr: 'page', de: 'seite', nl: 'pagina', es: 'pagina', it: 'pagina', pt: 'pagina' },
  },
  // ---- line items (columns of the item table) ----
  {
    id: 'item_description',
    kind: 'text',
    item: true,
    about: 'What a line item is',
    labels: {
      en: 'description, item, items, item description, product, products, service, services, particulars, details, article, goods, code/desc, desc, item name, product name, name, line item, part, part name, revenue description, qty description',
      fr: 'designation, description, article, libelle, produit, prestation',
      de: 'beschreibung, bezeichnung, artikel, artikelbezeichnung, leistung, produkt, position',
      nl: 'omschrijving, beschrijving, artikel, product, dienst, product omschrijving',
      es: 'descripcion, concepto, articulo, producto, detalle',
      it: 'descrizione, articolo, prodotto, dettaglio',
      pt: 'descricao, artigo, produto, item, designacao',
    },
    // An estimate's "Operation" column holds the work done ("Repl", "Remove/Replace"), beside its "Description".
    weak: { en: 'operation, labor operation' },
  },
  {
    id: 'item_quantity',
    kind: 'quantity',
    item: true,
    about: 'How many units of a line item',
    labels: {
      en: 'qty, quantity, units, unit, hours, hrs, pcs, count, no of units, qty/hrs, service units',
      fr: 'quantite, qte, qte., nombre', de: 'menge, anzahl, stk, stuck, einheiten', nl: 'aantal, hoeveelheid, stuks', es: 'cantidad, cant, unidades', it: 'quantita, qta, q.ta', pt: 'quantidade, qtd, qtde',
    },
  },
  {
    id: 'item_unit_price',
    kind: 'amount',
    item: true,
    about: 'The price of one unit of a line item',
    labels: {
      en: 'unit price, price, rate, price each, unit cost, each, unit rate, cost, u/price, uprice, price/unit, unit amount, list price',
      fr: 'prix unitaire, pu, prix unit, p u, prix, tarif', de: 'einzelpreis, preis, stuckpreis, e preis, ep', nl: 'prijs, stukprijs, eenheidsprijs, tarief', es: 'precio unitario, precio, p unit', it: 'prezzo unitario, prezzo, p unit', pt: 'preco unitario, preco, valor unitario',
    },
  },
  {
    id: 'item_amount',
    kind: 'amount',
    item: true,
    about: 'The total of a line item (quantity × unit price)',
    labels: {
      en: 'amount, total, line total, amt, total price, ext price, extended, extended price, ext amount, net amount, value, sum, subtotal, total charges, charges, line amount',
      fr: 'montant, total, montant ht, total ht, total ligne', de: 'betrag, gesamt, gesamtpreis, summe, gesamtbetrag', nl: 'bedrag, totaal, subtotaal', es: 'importe, total, monto', it: 'importo, totale', pt: 'valor, total, montante',
    },
  },
];

/**
 * The words between a page's number and the number of pages ("Page 2 OF 3", "Page 2 SUR 3", "Seite 2
 * VON 3", "Pagina 2 VAN 3", "Página 2 DE 3", "Pagina 2 DI 3"); the page's own word is the `page`
 * concept's labels.
 */
export const PAGE_COUNT_WORDS = `of, sur, von, van, de, di`;

/**
 * What a page prints when it carries on from the page before ("continued", a table's total "brought
 * forward"): a word of its own, not a common one ("report", "transport" and "suite" are other words too).
 */
export const CONTINUATION_WORDS = `continued, cont'd, (cont.), (cont), brought forward, carried forward, a reporter, report de la page precedente,
  fortsetzung, ubertrag, vervolg, continuacion, continua, riporto, continuacao`;

/**
 * How company names end: legal forms ("Sdn Bhd", "GmbH", "B.V.") and the trade words shops and firms
 * name themselves with ("Trading", "Hardware", "Clinic"). A line at the top ending with one is a
 * company's name, not an address or a slogan.
 */
export const COMPANY_ENDINGS = `sdn bhd, sdn. bhd., bhd, s/b, berhad, inc, inc., incorporated, ltd, ltd., limited, llc, l.l.c., llp, plc, gmbh, ag, kg, ohg, ug, e.k., b.v., bv, n.v., nv, vof,
  s.a., sa, s.a.s., sas, sarl, s.a.r.l., eurl, sci, s.l., sl, s.r.l., srl, s.p.a., spa, lda, ltda, s.c., co., co, corp, corp., corporation, company, pty, pty ltd,
  pte, pte ltd, pvt ltd, private limited, enterprise, enterprises, trading, traders, suppliers, services, hardware, restaurant, restoran, cafe, bistro, hospital, clinic, pharmacy, store, stores, mart, market,
  contractor, contractors, construction, consulting, consultants, studio, design, agency, group, partners, associates, solutions, systems,
  industries, international, holdings, motors, garage, repairs, auto care, bakery, hotel`;

/**
 * The trade words shops and firms put first ("Restoran Hassan Bistro", "Perniagaan Zheng Hui",
 * "Kedai Ubat …", "Hotel Seri …"): a line at the top starting with one is a business's name.
 */
export const COMPANY_OPENINGS = `perniagaan, kedai, syarikat, restoran, restaurant, hotel, klinik, clinic, farmasi, pharmacy, hospital, toko, warung, cafe, bakery,
  boulangerie, pharmacie, apotheke, bäckerei, autohaus, ristorante, trattoria, farmacia, panaderia, padaria, restaurante,
  empresa, entreprise, société, azienda`;

/**
 * Words of street addresses, in the languages above (a few abbreviations with their dot optional):
 * a line naming one with a number is an address line ("No. 28, Jalan Astana 1C", "12 rue de la Paix").
 */
export const STREET_WORDS = `street, st., road, rd., avenue, ave., blvd, boulevard, lane, drive, suite, floor, jalan, jln, lorong, taman, persiaran,
  rue, chemin, quai, impasse, allée, strasse, straße, str., allee, gasse, platz, damm, straat, laan, weg, plein, gracht, kade, singel,
  calle, avenida, via, viale, piazza, rua, travessa`;

/**
 * Street words German and Dutch write as the end of one word ("Waldstrasse 86", "Kalverstraat 1",
 * "Europa-Allee 1980"): such a word with a number after it is an address line too.
 */
export const STREET_ENDINGS = `strasse, straße, str., allee, gasse, platz, damm, weg, straat, laan, gracht, kade, plein, singel, dijk`;

/**
 * Headings of a payment slip printed at the foot of an invoice, to be torn off and sent back with the
 * payment ("PAYMENT ADVICE — Please detach and send with your payment to …"). Below one, a sender's
 * label (SENDER_LABELS) names the payer, the invoice's customer, not its issuer.
 */
export const PAYMENT_SLIP_HEADINGS = `payment advice, remittance advice, remittance slip, remittance stub, payment slip, payment stub, please detach,
  detach and return, detach and send, return this portion, avis de paiement, talon à détacher, coupon à détacher, zahlungsavis, bitte abtrennen,
  aviso de pago, talón de pago, avviso di pagamento, betaalstrook, aviso de pagamento`;

/**
 * Labels of a party's name inside the block a party's heading opens ("Seller" over "Name: Acme
 * GmbH", "Käufer" over "Name: …", "Informations sur le vendeur" over "Nom de la société: …"), as
 * structured renderings of e-invoices print them. Alone they name no party; the heading says whose.
 */
export const NAME_LABELS = `name, company name, company, business name, legal name, registered name, trading name, nom, nom de la société, raison sociale,
  dénomination, société, name der firma, firmenname, firma, naam, bedrijfsnaam, handelsnaam, nombre, razón social, denominación, empresa, nome,
  ragione sociale, denominazione, razão social, denominação`;

/**
 * Forms of address printed alone on the first line of a recipient's address ("Herr" over "Karl E.
 * Coyote"): the name is on the next line.
 */
export const ADDRESS_FORMS = `mr, mrs, ms, miss, messrs, dr, herr, frau, firma, familie, eheleute, m, mme, mlle, monsieur, madame, sr, sra, srta, señor, señora,
  dhr, mevr, heer, mevrouw, sig, sig.ra, spett, spettabile, sr., exmo, exma`;

/**
 * Words that join other words (articles, prepositions, conjunctions) and never end a name ("Bank of",
 * "NF-E EMITIDA EM", "Banco do"): a name read up to one of them was cut at the end of its line, and
 * is not the name. Nor do they qualify a label ("sur le" of "Informations sur le vendeur"). Lower
 * case, accents off ("für" is "fur"). (Single letters are left out: they end names as initials, "John E".)
 */
export const LINKING_WORDS = `of, and, the, for, at, in, on, by, to, with, &, de, du, des, et, la, le, les, au, aux, en, und, der, die, das, von, vom, zu, zum, zur,
  im, am, fur, del, el, los, las, para, por, di, della, dello, dei, degli, ed, il, per, do, da, dos, em, no, na, van, het, voor,
  sur, par, pour, avec, dans, chez, sous, mit, bei, auf, aus, uber, op, met, bij, uit, con, sobre, sin, su, sul, sulla, nel, nella, dal, dalla,
  com, pelo, pela`;

/**
 * Authorizations printed with an expiry of their own, which is no date of the document: Argentina's
 * electronic authorization code ("C.A.E. Nº 73071582456715" over "Fecha de Vencimiento: 24/02/2023",
 * "VTO. C.A.E: 18/02/2023") and its printed-invoice code (C.A.I.). Compared as their letters, lower case ("C.A.E." is "cae").
 */
export const AUTHORIZATION_CODES = `cae, cai`;

/**
 * Mail services anyone can have an address with: their domain names nobody's business, but the
 * mailbox at them often does ("fortinfierros@gmail.com" under "FORTIN FIERROS"). Compared as the
 * domain's first part, lower case.
 */
export const FREE_MAIL_PROVIDERS = `gmail, googlemail, yahoo, ymail, hotmail, outlook, live, msn, icloud, me, aol, mail, gmx, web, t-online, orange, free, laposte, wanadoo, libero, uol, bol, terra, yandex, proton, protonmail, zoho, rediffmail, qq, 163`;

/**
 * Words that mark which copy of a document a sheet is, printed alone near its top ("ORIGINAL",
 * "DUPLICADO", "Customer copy"): no party's name. Compared lower case, accents and marks off.
 */
export const COPY_MARKS = `original, copy, duplicate, triplicate, customer copy, merchant copy, office copy, file copy, reprint, duplicata, copie, kopie, duplikat, zweitschrift, duplicado, triplicado, copia, cuadruplicado, originale, segunda via, primeira via, 2a via, 1a via`;

/** Labels naming who a document is from ("From:"), which on a payment slip name the payer. */
export const SENDER_LABELS = `from, sender, von, absender, expéditeur, de la part de, van, afzender, remitente, mittente, remetente`;

/**
 * How a schema's name or description says "with tax" or "without tax" (../local/concepts.ts
 * `taxQualified`): a tax word qualified by one of `including` asks for the total, by one of
 * `excluding` for the amount before tax (the subtotal); a tax word alone in an amount's name asks
 * for the tax itself ("total_tax_amount", "InvoiceTotalVATAmount"). `gross` and `net` words say the
 * same on their own. Words are matched after ../local/concepts.ts `nameTokens` (accents off,
 * "incl"/"excl" expanded to "including"/"excluding").
 */
export const TAX_QUALIFIERS = {
  tax: 'tax, taxes, vat, gst, hst, pst, sst, tva, taxe, mwst, ust, umsatzsteuer, mehrwertsteuer, steuer, btw, iva, igv, imposta, impuesto, impuestos, imposto, icms',
  including: 'including, with, after, plus, inkl, inklusive, einschliesslich, mit, inclusief, incl, met, con, incluido, incluida, incluidos, compris, comprise, avec, toutes, incluso, inclusa, com',
  excluding: 'excluding, without, before, pre, ex, exkl, exklusive, ohne, vor, exclusief, zonder, sin, sans, hors, avant, senza, esclusa, escluso, sem, antes',
  gross: 'gross, brutto, bruto, ttc, lordo',
  net: 'net, netto, neto, ht, nett, liquido, imponible, imponibile, untaxed',
  /** Gross and net words name a total or a subtotal only beside one of these ("gross amount", "Nettobetrag"; not "gross pay"). */
  amount: 'amount, total, sum, betrag, summe, gesamt, bedrag, totaal, montant, importe, importo',
  /** A name with one of these words is about the tax's rate, code or number, not an amount. */
  notAmount: 'rate, percent, percentage, id, #, code, registration, regime, category, exemption, exempt, scheme, type',
};

/**
 * Titles documents print at their top ("TAX INVOICE", "Statement of Account", "Rechnung"): a name is
 * not one of these. Two readers use them, each its own way, with lists that overlap without being
 * equal (making them one list changes answers, so it is left to a change measured on the corpus):
 * - DOCUMENT_TITLE_LINE, a whole line that is a title (English), is no letterhead (../local/extract.ts);
 * - DOCUMENT_TITLE_START, a text that starts with a title word (in the engine's languages), is no
 *   issuer's or customer's name, and a name ends where one starts (../local/business.ts).
 */
export const DOCUMENT_TITLE_LINE = /^(tax\s+)?(invoice|receipt|statement|bank statement|account statement|statement of account|purchase order|quote|quotation|estimate|bill|credit note|debit note|remittance( advice)?|packing slip|delivery note|order confirmation|pro ?forma( invoice)?|sales order)$/i;
export const DOCUMENT_TITLE_START = /^(tax\s+|simplified\s+tax\s+|proforma\s+|pro\s+forma\s+|commercial\s+)?(invoice|receipt|official receipt|cash\s*(bill|sales?|receipt)|bill|statement|estimate|preliminary estimate|quotation|quote|credit note|debit note|guest check|check|order|purchase order|delivery (note|order)|packing slip|facture|(?:handels|schluss|teil|abschlags|proforma|sammel|korrektur|storno|end)?rechnung|factuur|factura|fattura|fatura|recu|quittung|devis|angebot|offerte|presupuesto|preventivo|orcamento|avoir|gutschrift|creditnota|ticket|bon|nota|payment advice|remittance advice|tax invoice|outpatient|inpatient|patient statement|itemi[sz]ed (bill|statement)|explanation of benefits|claim form|repair order|work order|nota fiscal|nf-?e|nfs-?e|danfe|danfse)\b/i;

/**
 * Contact details ("Tel:", "Fax", "www.", "GST Reg No"), as the two readers look for them:
 * - CONTACT_LINE_START, a line that starts with a contact label, ends an address block (../local/extract.ts);
 * - CONTACT_ANYWHERE, a text holding a contact word anywhere, is no name (../local/business.ts).
 */
export const CONTACT_LINE_START = /^(phone|tel|telephone|fax|mobile|e-?mail|www\.|web|website|vat|tax|reg|registration|company (no|number)|abn|gst|iban|swift|bic|attn)\b/i;
// (Letters are told apart from word ends as Unicode reads them: "Hôtel Saint Denis" holds no "tel".)
export const CONTACT_ANYWHERE = /@|https?:|(?<![\p{L}\p{N}_])(www|tel|phone|fax|mobile|hp|email|e-mail|website|gst|vat|tax|reg|co\.?\s*no|company no|abn|tin)(?![\p{L}\p{N}_])/iu;
