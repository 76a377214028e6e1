/**
 * What the local engine knows about common kinds of documents (DESIGN §6): for each kind, how people
 * name it (in a category, a subdocument, or the document's own title), the words and phrases such
 * documents are printed with, and the layout they have (../local/cues.ts: a letter's salutation and
 * signature, a paper's abstract and references, a contract's numbered clauses, a table of contents, a
 * totals block …).
 *
 * A category "invoice" described as "a bill from a supplier" shares few words with an actual invoice
 * ("Amount due", "Bill to", "Net 30"); this knowledge bridges that gap the way a person's experience
 * would. It only adds evidence for a category whose name or description names the kind; categories it
 * does not know still work from their own words.
 *
 * `names` and `terms` are comma-separated, in any of the languages (lower case; accents do not matter).
 * To extend: add a kind, a name, a language's terms. Measure with `npm run bench -- accuracy`.
 */

import type { DocumentKind } from '../../documents/sniff.ts';

/** Layout a kind of document typically has (detected by ../local/cues.ts). */
export type LayoutCue = 'letter' | 'paper' | 'clauses' | 'contents' | 'totals' | 'form' | 'fillable' | 'card' | 'slides' | 'receipt_strip' | 'till' | 'table_heavy' | 'workbook' | 'web' | 'mail' | 'ebook' | 'periods';

/** How a CV says a period goes on until now ("Sep. 2023 – present"), lower case without accents (../local/cues.ts). */
export const PRESENT_WORDS = `present, now, current, today, heute, aujourd'hui, aujourd hui, actuel, actuellement, actualidad, presente, oggi, atual, heden, nu`;

/**
 * What a file's own format says of its kind, whatever it holds: a workbook is a spreadsheet, a PPTX
 * slides, a saved HTML file a web page, an EML or MSG file an e-mail, an EPUB file a book.
 */
export const FORMAT_CUES: Partial<Record<DocumentKind, LayoutCue>> = {
  xlsx: 'workbook',
  csv: 'workbook',
  pptx: 'slides',
  html: 'web',
  eml: 'mail',
  msg: 'mail',
  epub: 'ebook',
};

/**
 * Words a category's description may name a layout cue by: a description that denies one of them
 * ("no fillable fields", knowledge/negation.ts) counts that cue against the category.
 */
export const CUE_WORDS: Partial<Record<LayoutCue, string>> = {
  fillable: 'fillable, fields, interactive, acroform',
  letter: 'salutation',
  paper: 'abstract, references',
  clauses: 'clauses, articles',
  contents: 'contents',
  slides: 'slides',
  workbook: 'spreadsheet, workbook, excel',
  web: 'web, website, html',
  mail: 'email, e-mail',
  ebook: 'epub, ebook',
};

export interface DocumentType {
  id: string;
  /** How people name the kind; any of them in a category's name or description calls on this entry. */
  names: string;
  /**
   * Names a category may call the kind by that are no sign of it where a document prints them (the
   * verb "to book" is printed on bookings): they call on the kind, and are neither its synonyms nor,
   * as a background kind of a split, its title.
   */
  calledBy?: string;
  /** Words and phrases printed on such documents. */
  terms: string;
  /** Its layout cues, each with how telling it is (1: typical; less: sometimes). */
  cues?: Partial<Record<LayoutCue, number>>;
}

export const DOCUMENT_TYPES: readonly DocumentType[] = [
  {
    id: 'invoice',
    names: 'invoice, bill, tax invoice, billing statement, commercial invoice, facture, rechnung, factuur, factura, fattura, fatura, nota fiscal, 发票, 發票, 请求书, 請求書, 청구서, 세금계산서, 인보이스',
    terms: `invoice, invoice number, invoice date, bill to, billed to, amount due, total due, balance due, due date, payment due, payment terms,
      terms net, net 30, net 15, remit, remittance, remit to, payable, please pay, subtotal, vat, sales tax, tax, unit price, qty, quantity,
      amount, description, services rendered, supplier, vendor, customer, purchase order, po number, bank details, iban, swift, bic, sort code,
      overdue, late payment, billing, charges, fees, hours, rate, line total, total excluding, total including, account name, pay by, owing,
      amount owing, labour, labor, parts and labour, job number, work order, payment due within,
      facture, numero de facture, date de facture, montant ht, montant ttc, total ttc, tva, net a payer, conditions de paiement, echeance, bon de commande,
      rechnung, rechnungsnummer, rechnungsdatum, nettobetrag, mwst, umsatzsteuer, zahlbar bis, gesamtbetrag, zahlungsbedingungen, bestellnummer,
      factuur, factuurnummer, factuurdatum, btw, te betalen, vervaldatum, totaal incl btw, exclusief btw, inkooporder,
      factura, numero de factura, fecha de factura, base imponible, iva, importe total, vencimiento, orden de compra,
      fattura, numero fattura, data fattura, imponibile, totale fattura, scadenza, partita iva, ordine di acquisto,
      fatura, numero da fatura, data de vencimento, valor total, ordem de compra`,
    cues: { totals: 1 },
  },
  {
    id: 'receipt',
    names: 'receipt, sales receipt, till receipt, proof of purchase, purchase receipt, payment receipt, cash bill, cash receipt, recu, ticket de caisse, quittung, kassenbon, kassabon, bon, kwitantie, recibo, ticket, ricevuta, scontrino, talao, 收据, 收據, 领收书, 領収書, 영수증',
    terms: `receipt, thank you for your purchase, thank you for shopping, thank you, please come again, thank you for your visit, paid, amount paid,
      total paid, payment received, cash, change, change due, tendered, card, visa, mastercard, amex, debit card, contactless, chip, pin,
      auth code, authorization, approved, transaction, transaction id, cashier, till, register, store, shop, merchant, terminal, pos, items,
      item count, refund, returns, exchange, keep your receipt, loyalty, points, member, tip, gratuity, served by, table, order, qty, subtotal,
      total, tax, gst, rounding, rounding adjustment, cash bill, goods sold are not returnable, not refundable, total qty, tax invoice, gst id,
      guest check, dine in, take away, pax, simplified tax invoice, cashier, counter, cash sales, change due, thank you please come again,
      merci de votre visite, especes, rendu, caisse, vielen dank fur ihren einkauf, bar, ruckgeld, kasse, bedankt voor uw aankoop, contant,
      wisselgeld, kassa, gracias por su compra, efectivo, cambio, grazie, contanti, resto, obrigado, troco`,
    cues: { totals: 1, receipt_strip: 1.5, till: 2 },
  },
  {
    id: 'credit_note',
    names: 'credit note, credit memo, refund note, refund notice, avoir, gutschrift, creditnota, nota de credito, nota di credito, 红字发票, 贷项通知单, 貸方票, 대변표',
    terms: `credit note, credit memo, credit, credited, refund, refunded, original invoice, returned, return, adjustment, amount credited,
      reason for credit, cn no, refer, avoir, gutschrift, creditnota, nota de credito, nota di credito`,
    cues: { totals: 1, receipt_strip: 1 },
  },
  {
    id: 'purchase_order',
    names: 'purchase order, po, order form, bon de commande, bestellung, inkooporder, orden de compra, ordine di acquisto, ordem de compra, 采购订单, 訂購單, 注文書, 발주서, 구매주문서',
    terms: `purchase order, po number, order number, order date, vendor, supplier, buyer, ship to, deliver to, delivery date, required by,
      quantity, unit price, item, description, approved by, authorized by, terms, total, requisition, bon de commande, bestellung, bestellnummer`,
    cues: { totals: 1 },
  },
  {
    id: 'estimate',
    names: 'quote, quotation, estimate, proposal, offer, devis, angebot, kostenvoranschlag, offerte, presupuesto, preventivo, orcamento, 报价单, 報價單, 見積書, 견적서',
    terms: `quote, quotation, estimate, preliminary estimate, proposal, quote number, valid until, validity, prices valid,
      offer, proposed, scope of work, acceptance, accept this quote, unit price, subtotal, total, options, labor, labour, parts,
      devis, angebot, kostenvoranschlag, offerte, presupuesto, preventivo, orcamento`,
    cues: { totals: 1, table_heavy: 1 },
  },
  {
    // The estimate a body shop or an insurer's appraiser writes of a damaged vehicle: its own words
    // (R&I, refinish, panels, the vehicle's VIN), which a quote for goods or services does not print.
    id: 'repair_estimate',
    names: 'repair estimate, collision estimate, damage estimate, devis de reparation, reparaturkostenvoranschlag, presupuesto de reparacion, preventivo di riparazione',
    terms: `estimate of record, paint, refinish, repair, replace, r&i, body labor, paint labor, parts total, labor total, net cost of repairs,
      vehicle, vin, odometer, mileage, estimator, appraiser, written by, damage, point of impact,
      front bumper, rear bumper, bumper, fender, panel, quarter panel, oem, aftermarket, blend, sublet, towing,
      carrosserie, peinture, karosserie, lackierung, fahrzeug, vehiculo, chapa, pintura, carrozzeria, verniciatura, veicolo`,
    cues: { totals: 1, table_heavy: 1 },
  },
  {
    id: 'delivery_note',
    names: 'packing list, packing slip, delivery note, dispatch note, shipping list, bill of lading, shipping manifest, consignment note, goods received note, bon de livraison, lieferschein, pakbon, albaran, bolla di consegna, guia de remessa, 送货单, 送貨單, 納品書, 납품서',
    terms: `packing list, packing slip, delivery note, dispatch, dispatched, shipped, shipment, ship to, ship from, ship date, shipping, carrier,
      tracking number, consignee, consignor, shipper, carton, cartons, box, boxes, package, packages, pallet, pallets, weight, gross weight,
      net weight, dimensions, kg, lbs, quantity shipped, qty shipped, qty ordered, ordered, sku, item, items, packed by, checked by,
      received by, delivery, delivery date, goods, contents, port of loading, port of discharge, container, seal, handling,
      bon de livraison, lieferschein, pakbon, albaran`,
  },
  {
    id: 'booking_confirmation',
    names: 'booking confirmation, reservation, booking, reservation confirmation, order confirmation, confirmation, charter confirmation, confirmation d affretement, buchungsbestatigung, reserveringsbevestiging, confirmacion de reserva, conferma di prenotazione',
    terms: `booking, booking confirmation, booking reference, reservation, reservation number, confirmed, confirmation, check in, check out, arrival,
      departure, guests, pick up, pickup, delivery, carrier, charter, freight, loading, unloading, goods, vehicle, driver, price agreed,
      confirmation d affretement, affretement, transporteur, chargement, dechargement, marchandise, enlevement, livraison, prix, donneur d ordre,
      buchung, reservierung, reservering, reserva, prenotazione`,
  },
  {
    id: 'bank_statement',
    names: 'bank statement, account statement, statement of account, bank account statement, credit card statement, releve de compte, releve bancaire, kontoauszug, rekeningafschrift, extracto bancario, estratto conto, extrato bancario, 对账单, 對帳單, 取引明細書, 거래내역서',
    terms: `statement, statement period, statement date, account, account number, account holder, sort code, iban, bic, branch, bank, opening balance,
      closing balance, balance brought forward, brought forward, carried forward, balance carried forward, balance, available balance,
      transactions, transaction, deposit, deposits, withdrawal, withdrawals, direct debit, standing order, transfer, transfer to, transfer from,
      faster payment, atm, cash withdrawal, card payment, pos purchase, interest, interest paid, overdraft, fee, charges, credit, debit, money in,
      money out, paid in, paid out, payments in, payments out, cheque, check, deposited, total credits, total debits, minimum payment,
      statement balance, releve, solde, kontoauszug, kontostand, saldo, afschrift, estratto conto, extrato`,
    cues: { table_heavy: 1 },
  },
  {
    id: 'payslip',
    names: 'payslip, pay slip, pay stub, paystub, salary slip, wage slip, earnings statement, pay statement, payroll statement, pay advice, salary statement, bulletin de paie, fiche de paie, gehaltsabrechnung, lohnabrechnung, loonstrook, nomina, busta paga, recibo de vencimento, 工资单, 薪资单, 給与明細, 급여명세서',
    terms: `payslip, pay slip, employee, employee name, employee id, employee number, employer, gross pay, net pay, take home pay, earnings, deductions,
      total deductions, salary, basic salary, basic pay, wages, overtime, bonus, commission, allowance, income tax, tax code, paye,
      national insurance, ni number, ni contributions, social security, medicare, federal tax, state tax, withholding, pension,
      pension contribution, 401k, pay period, pay date, period ending, year to date, ytd, hours worked, hourly rate, rate, payroll, department,
      student loan, sick pay, holiday pay, pay rate, net salary, gross salary, salaire brut, salaire net, net a payer, cotisations,
      bruttolohn, nettolohn, brutoloon, nettoloon, salario bruto, salario neto, retribuzione, lordo, netto`,
  },
  {
    id: 'contract',
    names: 'contract, agreement, service agreement, lease, tenancy agreement, employment contract, nda, non disclosure agreement, terms and conditions, legal agreement, deed, contrat, vertrag, vereinbarung, overeenkomst, contract, contrato, contratto, accordo, 合同, 合约, 契約書, 계약서',
    terms: `agreement, contract, this agreement, parties, party, between, hereby, hereinafter, herein, hereto, whereas, now therefore, shall,
      shall not, term, termination, terminate, governing law, jurisdiction, confidentiality, confidential information, obligations, clause,
      section, indemnify, indemnification, liability, limitation of liability, warranty, warranties, representations, in witness whereof,
      signature, signed, signed by, authorized signatory, effective date, commencement date, breach, notice, notices, entire agreement,
      force majeure, schedule, annex, appendix, amendment, assignment, severability, dispute, arbitration, counterparts, the supplier,
      the client, the employer, the employee, the landlord, the tenant, the company, witness, date of signature, consideration, covenant,
      terms and conditions, renewal, article, definitions, interpretation,
      contrat, entre les soussignes, ci-apres, il a ete convenu, article, resiliation, vertrag, zwischen, nachfolgend, kundigung,
      overeenkomst, partijen, ondergetekenden, contrato, las partes, clausula, contratto, le parti, clausola`,
    cues: { clauses: 1 },
  },
  {
    id: 'om_agreement',
    names: 'o&m agreement, om agreement, operation and maintenance agreement, operations and maintenance agreement, o&m contract, operation and maintenance contract, maintenance agreement, service and maintenance agreement',
    terms: `operation and maintenance, operations and maintenance, o&m, o&m contractor, o&m services, o&m fee, operator, the operator, operating procedures,
      maintenance services, preventive maintenance, corrective maintenance, scheduled maintenance, spare parts, availability guarantee, performance guarantee,
      plant, facility, the facility, operating year, outage, planned outage, operating records, operating budget, mobilisation, handover, o&m manual`,
    cues: { clauses: 1 },
  },
  {
    id: 'power_purchase_agreement',
    names: 'power purchase agreement, ppa, energy purchase agreement, electricity purchase agreement, power sales agreement, offtake agreement, standardized power purchase agreement',
    terms: `power purchase, power purchase agreement, electricity, energy, capacity, contracted capacity, tariff, energy charge, capacity charge, kwh, mwh, mw,
      delivery point, interconnection, grid, grid code, dispatch, dispatch instructions, commercial operation date, metering, meter, buyer, seller,
      generating facility, generator, plant, deemed energy, force majeure, transmission, utility, offtaker, renewable energy, mini grid, feed in tariff`,
    cues: { clauses: 1 },
  },
  {
    id: 'letter',
    names: 'letter, correspondence, cover letter, notice letter, lettre, brief, schreiben, carta, lettera, 信函, 书信, 手紙, 편지, 서신',
    terms: `dear, sincerely, yours sincerely, yours faithfully, kind regards, regards, re, enclosed, enclosure, we are writing, i am writing,
      please find, look forward, respectfully, very truly yours, to whom it may concern,
      madame, monsieur, veuillez agreer, cordialement, sehr geehrte, mit freundlichen grussen, geachte, met vriendelijke groet,
      estimado, atentamente, gentile, cordiali saluti, prezado, atenciosamente`,
    cues: { letter: 1 },
  },
  {
    id: 'demand_letter',
    names: 'demand letter, final demand, letter of demand, collection letter, notice to pay, demand for payment, mise en demeure, mahnung, aanmaning, ingebrekestelling, requerimiento de pago, diffida',
    terms: `demand, final demand, demand letter, demand for payment, formal demand, hereby demand, unpaid, outstanding, outstanding balance,
      overdue, past due, failure to pay, legal action, legal remedies, court, collection, within days, from receipt hereof, settle, settlement,
      obligation, attorney, law office, counsel, civil, damages, claim, remit, to avoid, mise en demeure, mahnung, aanmaning`,
    cues: { letter: 1 },
  },
  {
    id: 'memo',
    names: 'memo, memorandum, management memo, note de service, aktennotiz, notitie, memorando, memorandum, 备忘录, 備忘錄, 메모',
    terms: `memo, memorandum, to, from, subject, cc, date, re, action required, distribution, management memo`,
  },
  {
    id: 'report',
    // (Spanish "informe" only in phrases: alone it stems as English "information" does.)
    names: 'report, annual report, financial report, rapport, bericht, verslag, informe anual, informe final, informe tecnico, informe de gestion, relazione, relatorio, 报告, 報告, 报告书, 報告書, 보고서',
    terms: `report, summary, executive summary, findings, introduction, conclusion, recommendations, results, analysis, overview, appendix,
      methodology, figure, table, chapter, rapport, bericht, verslag, relazione, relatorio`,
    cues: { contents: 1 },
  },
  {
    id: 'paper',
    names: 'paper, research paper, scientific paper, article, academic paper, publication, journal article, thesis, preprint, 论文, 論文, 논문',
    terms: `abstract, introduction, related work, methodology, methods, experiments, results, discussion, conclusion, references,
      acknowledgements, et al, doi, arxiv, journal, proceedings, conference, university, figure, table, equation, dataset, evaluation,
      we propose, in this paper, state of the art`,
    cues: { paper: 1 },
  },
  {
    id: 'book',
    names: 'ebook, novel, livre, roman, buch, boek, libro, novela, romanzo, livro, 书籍, 書籍, 도서',
    calledBy: 'book, books, e book',
    terms: `chapter, chapters, preface, foreword, prologue, epilogue, contents, list of illustrations, illustrations, plate, frontispiece,
      author, by the author, first published, published, publisher, edition, copyright, all rights reserved, isbn, dedication, appendix, index,
      chapitre, preface, kapitel, vorwort, hoofdstuk, voorwoord, capitulo, prologo, capitolo, prefazione`,
    cues: { ebook: 1, contents: 1 },
  },
  {
    id: 'manual',
    names: 'manual, user manual, user guide, user documentation, maintenance manual, instruction manual, handbook, owner manual, operating instructions, safety manual, mode d emploi, notice, bedienungsanleitung, handbuch, nutzerdokumentation, benutzerdokumentation, handleiding, gebruiksaanwijzing, manual de usuario, manuale, istruzioni, 说明书, 說明書, 手册, 手冊, 取扱説明書, 설명서, 매뉴얼',
    terms: `manual, guide, instructions, maintenance, safety, warning, caution, important, note, step, procedure, check, inspect, inspection,
      replace, rotation, pressure, tread, wear, service, troubleshooting, specifications, how to, do not, never, always, recommended,
      operating, installation, contents, chapter, section, consult, owner, care, mode d emploi, bedienungsanleitung, handleiding, manual de usuario`,
    cues: { contents: 1 },
  },
  {
    id: 'warranty',
    names: 'warranty, warranty booklet, warranty manual, extended warranty, guarantee, garantie, gewahrleistung, garantia, garanzia',
    terms: `warranty, limited warranty, extended warranty, warranty coverage, coverage, covered, not covered, exclusions, warranty period,
      warrantor, claim, claims procedure, owner, purchaser, defects in material, workmanship, replacement, repair, adjustment, prorated,
      mileage, roadside assistance, transferable, deductible, authorized dealer, limitations, implied warranties, consequential damages,
      garantie, gewahrleistung, garantia, garanzia`,
    cues: { contents: 1 },
  },
  {
    id: 'brochure',
    names: 'brochure, leaflet, flyer, catalogue, catalog, marketing brochure, price list, prospectus, depliant, broschure, folder, folleto, opuscolo, 宣传册, 小册子, 宣傳冊, 리플렛, 브로슈어',
    terms: `discover, enjoy, benefits, offer, offers, save, savings, plans, plan, packages, pricing, prices, price, starting at, from only,
      choose, select, premium, exclusive, why choose, call us, visit us, learn more, contact your dealer, available, models, features,
      prepaid, scheduled maintenance, maintenance plans`,
  },
  {
    id: 'form',
    names: 'form, application, application form, registration form, questionnaire, formulaire, antrag, formular, formulier, aanvraag, formulario, solicitud, modulo, domanda, requerimento, 申请表, 申請表, 申請書, 신청서',
    terms: `form, please complete, complete this form, fill in, applicant, signature, date, name, address, check one, check box, tick, yes, no,
      office use only, for official use, print name, please print, date of birth, declaration, i declare, i certify, section, part,
      formulaire, nom, prenom, adresse, date de naissance, signature, antrag, vorname, nachname, anschrift, geburtsdatum, unterschrift,
      formulier, naam, voornaam, handtekening, formulario, nombre, apellidos, firma, modulo, cognome, nome, firma`,
    cues: { form: 1, fillable: 1 },
  },
  {
    id: 'tax_form',
    names: 'tax form, tax return, w2, w-2, form 1099, p60, tax statement, declaration d impot, steuererklarung, belastingaangifte, declaracion de la renta, dichiarazione dei redditi',
    terms: `tax return, tax year, taxpayer, filing status, adjusted gross income, taxable income, wages tips, federal income tax withheld,
      social security wages, employer identification number, refund, schedule, deductions, exemptions, irs, hmrc, form, salaire, impot, steuer`,
    cues: { form: 0.7, fillable: 0.7 },
  },
  {
    id: 'medical_bill',
    names: 'medical bill, hospital bill, medical invoice, healthcare claim, health insurance claim, medical claim, claim form, ub-04, cms-1450, hcfa, cms-1500, patient statement, facture medicale, arztrechnung, ziekenhuisrekening, factura medica',
    terms: `patient, patient name, patient control no, med rec no, medical record number, admission, admit date, discharge, statement covers period,
      type of bill, rev cd, revenue code, hcpcs, rate, hipps code, serv date, service date, serv units, total charges, non covered charges,
      payer name, health plan, insured, insured name, prior payments, est amount due, npi, attending, operating, diagnosis, dx, procedure code,
      principal procedure, condition codes, occurrence, value codes, hospital, clinic, physician, doctor, room charges, pharmacy, laboratory,
      lab, radiology, consultation, treatment, inpatient, outpatient, bill no, uhid, ip no, ward, bed, nursing, medicines, consumables,
      hospital account, guarantor, insurance payments, adjustments, patient balance, amount due from patient`,
    cues: { totals: 1, form: 0.5, fillable: 0.5 },
  },
  {
    id: 'medical_record',
    names: 'medical record, medical report, prescription, lab report, discharge summary, health record, dossier medical, arztbrief, medisch dossier, historia clinica, cartella clinica',
    terms: `patient, patient name, date of birth, diagnosis, physician, doctor, hospital, clinic, prescription, medication, dosage, symptoms,
      treatment, allergies, lab results, blood pressure, history, examination, findings, impression, plan, follow up`,
  },
  {
    id: 'insurance_policy',
    names: 'insurance policy, insurance, policy, insurance certificate, certificate of insurance, declarations page, police d assurance, versicherungspolice, polis, poliza, polizza, apolice, 保险单, 保單, 保険証券, 보험증권',
    terms: `policy, policy number, policyholder, insured, insurer, premium, coverage, cover, deductible, excess, claim, claims, beneficiary,
      endorsement, exclusions, sum insured, policy period, renewal date, underwriter, named insured, limits of liability, effective date, expiration date`,
  },
  {
    id: 'loss_run',
    names: 'loss run, loss runs, loss history, claims history, loss report, claim summary, detail loss report, loss run report',
    terms: `loss run, loss runs, loss report, detail loss report, claims, claim number, claim no, claimant, date of loss, loss date, reported date,
      valuation date, policy number, policy period, incurred, paid, reserve, reserves, outstanding, total incurred, total paid, indemnity,
      medical, expense, recovery, subrogation, status, open, closed, line of business, workers compensation, auto liability, general liability,
      professional liability, insured, carrier, loss ratio, frequency, severity, number of claims`,
    cues: { table_heavy: 1 },
  },
  {
    id: 'permit',
    names: 'permit, license, licence, authorization, npdes permit, discharge permit, environmental permit, building permit, operating permit, permis, autorisation, genehmigung, vergunning, permiso, licencia, permesso, autorizzazione, licenca',
    terms: `permit, permittee, permit number, npdes, discharge, outfall, effluent, effluent limitations, monitoring requirements, receiving water,
      wastewater, treatment plant, pollutant, sampling, daily maximum, monthly average, reporting, compliance, conditions, special conditions,
      standard conditions, authorized to discharge, clean water act, epa, department of environmental, water board, order, fact sheet,
      issuance, effective date, expiration date, permit modification, renewal, license, licensee, authorization, regulated, environmental,
      permis, genehmigung, vergunning, permiso`,
  },
  {
    id: 'certificate',
    names: 'certificate, certification, certificate of origin, manufacturer certificate of origin, certificate of title, diploma, certificat, zertifikat, bescheinigung, certificaat, certificado, certificato, 证书, 證書, 証明書, 증명서',
    terms: `certificate, certify, certifies, hereby certify, awarded, issued, valid, certificate number, this is to certify, completion, registered,
      certificate of origin, manufacturer, manufacturer's certificate, vehicle identification number, vin, make, model, year, body type,
      shipping weight, horsepower, gvwr, assigned to, dealer, invoice number, transfer, first assignment, seal, authorized representative,
      certificat, zertifikat, bescheinigung, certificaat, certificado, certificato`,
  },
  {
    id: 'identity_document',
    names: 'identity document, id card, id, passport, driving licence, driving license, driver license, drivers license, drivers licence, driver licence, identity card, national id, residence permit, carte d identite, permis de conduire, passeport, personalausweis, fuhrerschein, reisepass, identiteitskaart, rijbewijs, paspoort, dni, carnet de conducir, pasaporte, carta d identita, patente, passaporto, bilhete de identidade, carta de conducao',
    terms: `passport, nationality, date of birth, dob, place of birth, date of issue, date of expiry, expiry, exp, iss, issuing authority, surname,
      given names, sex, licence number, license number, identity, holder, signature, class, endorsements, restrictions, donor, organ donor,
      height, hgt, weight, wgt, eyes, hair, dl, driver license, drivers license, commercial driver license, cdl, dmv, department of motor vehicles,
      department of transportation, veteran, real id, duplicate, dd, rstr, end, ln, fn, usa`,
    cues: { card: 1 },
  },
  {
    id: 'press_release',
    names: 'press release, news release, media release, announcement, communique de presse, pressemitteilung, persbericht, comunicado de prensa, comunicato stampa, comunicado de imprensa, 新闻稿, 新聞稿, 보도자료',
    terms: `press release, news release, for immediate release, announced today, today announced, announces, media contact, investor contact,
      about the company, forward looking statements, safe harbor, quarter, fiscal, revenue, earnings, record, conference call, webcast, nasdaq,
      nyse, gaap, non gaap, per diluted share, outlook, guidance, ceo, said, communique de presse, pressemitteilung, persbericht`,
  },
  {
    id: 'fact_sheet',
    names: 'fact sheet, factsheet, fund facts, key facts, data sheet, datasheet, product sheet, key information document, fiche technique, datenblatt, productblad, ficha tecnica, scheda tecnica',
    terms: `fact sheet, fund facts, key facts, fund, etf, mutual fund, management fee, mer, management expense ratio, inception date, net assets,
      top holdings, holdings, asset allocation, sector allocation, performance, annual returns, risk rating, benchmark, distributions, nav,
      ticker, fund manager, portfolio manager, investment objective, how much does it cost, how has the fund performed, trading expense ratio,
      minimum investment, specifications, features, dimensions`,
    cues: { table_heavy: 1 },
  },
  {
    id: 'presentation',
    names: 'presentation, deck, slides, slide deck, keynote, praesentation, presentatie, presentacion, presentazione',
    terms: `agenda, overview, outline, introduction, summary, key takeaways, next steps, questions, q&a, thank you, thanks, contact, roadmap,
      vision, mission, team, product, customers, users, growth`,
    cues: { slides: 1 },
  },
  {
    // A pitch deck is slides too (the presentation kind, which "deck" calls on), with a pitch's sections.
    id: 'pitch_deck',
    names: 'pitch deck, pitch, investor presentation, investor deck, startup pitch',
    terms: `problem, solution, market, market size, market validation, market opportunity, business model, revenue model, competition,
      competitors, competitive advantage, traction, go to market, investors, investment, funding, raise, the ask, why now, milestones,
      financials, financial projections, unit economics, exit`,
    cues: { slides: 1 },
  },
  {
    id: 'policy_document',
    names: 'policy document, policy, action plan, government policy, white paper, strategy, national strategy, plan, executive order, regulation, guidelines, politique, strategie, richtlinie, beleid, politica, estrategia',
    terms: `policy, policies, action plan, recommended policy actions, federal, government, administration, agencies, national, strategy, initiative,
      initiatives, framework, priorities, pillar, pillars, objectives, goals, the president, executive order, department, regulation,
      regulatory, legislation, congress, public, private sector, infrastructure, workforce, innovation, security, leadership, americans`,
    cues: { contents: 1 },
  },
  {
    id: 'resume',
    names: 'resume, cv, curriculum vitae, lebenslauf, hoja de vida, curriculo, 简历, 履歷, 履歴書, 이력서',
    terms: `resume, curriculum vitae, experience, work experience, education, skills, employment history, references, profile, objective,
      qualifications, certifications, languages, achievements, university, degree, professional experience, work history, professional summary,
      technical skills, key skills, linkedin, github, portfolio, internship, volunteering, hobbies, interests,
      experience professionnelle, formation, competences, langues, centres d interet, loisirs, diplomes, stage,
      berufserfahrung, ausbildung, kenntnisse, fahigkeiten, sprachkenntnisse, praktikum, personliche daten,
      werkervaring, opleiding, vaardigheden, experiencia laboral, experiencia profesional, formacion academica, habilidades, idiomas,
      esperienza lavorativa, esperienze professionali, istruzione, competenze, experiencia profissional, formacao academica, competencias`,
    cues: { periods: 1 },
  },
  {
    id: 'timesheet',
    names: 'timesheet, time sheet, timecard, time card, feuille de temps, stundenzettel, urenstaat',
    terms: `timesheet, hours, hours worked, regular hours, overtime hours, week ending, project, task, approved by, start time, end time, break,
      total hours, employee`,
    cues: { table_heavy: 1 },
  },
  {
    id: 'expense_report',
    names: 'expense report, expense claim, note de frais, spesenabrechnung, declaratie, nota de gastos, nota spese',
    terms: `expense, expenses, claim, claimant, reimbursement, mileage, travel, meals, accommodation, receipts attached, approved by, cost centre, total claimed`,
  },
  {
    id: 'utility_bill',
    names: 'utility bill, electricity bill, gas bill, water bill, phone bill, energy bill, facture d electricite, stromrechnung, energierekening, factura de luz, bolletta, 电费单, 水费单, 公共料金, 공과금',
    terms: `meter, meter reading, usage, kwh, units used, tariff, standing charge, supply address, billing period, previous reading, current reading,
      energy, electricity, gas, water, account number, amount due, direct debit`,
    cues: { totals: 1 },
  },
  {
    id: 'calendar',
    names: 'calendar, schedule, timetable, weekly schedule, agenda, planner, event, calendar event, emploi du temps, stundenplan, rooster, horario, orario',
    terms: `monday, tuesday, wednesday, thursday, friday, saturday, sunday, mon, tue, wed, thu, fri, sat, sun, week, weekly, schedule, time,
      class, classes, task, tasks, task list, due date, event, events, appointment, meeting, am, pm, timetable, agenda, january, february,
      march, april, may, june, july, august, september, october, november, december`,
    cues: { table_heavy: 1 },
  },
  {
    id: 'listing',
    names: 'book listing, listing, web page, catalogue listing, search results, download page, directory',
    terms: `download, free download, pdf, ebook, e book, read online, isbn, author, authors, publisher, edition, pages, file size, format, books,
      book, related books, related searches, more books, click here, read more, online, link, download now, free, mobi, epub`,
  },
  {
    id: 'retail_installment_contract',
    names: 'retail installment sale contract, retail installment contract, installment contract, installment sale contract, car finance agreement, auto loan, vehicle finance contract, credit sale agreement, hire purchase agreement, security agreement',
    terms: `retail installment, installment sale contract, security agreement, buyer, co-buyer, seller, creditor, annual percentage rate, finance charge,
      amount financed, total of payments, total sale price, truth in lending, federal truth in lending disclosures, number of payments,
      amount of payments, when payments are due, down payment, cash price, trade-in, vehicle, year, make, model, vehicle identification number,
      new used, itemization of amount financed, insurance, late charge, prepayment, arbitration, the buyer, you the buyer, we the seller`,
    cues: { form: 0.5, fillable: 0.5, clauses: 0.5 },
  },
  {
    id: 'legal_text',
    names: 'legal text, statute, legislation, official gazette, federal register, decree, ordinance, loi, decret, journal officiel, gesetz, gesetzblatt, verordnung, staatsblad, real decreto, boletin oficial, legge, gazzetta ufficiale, diario oficial',
    // (Not the names of laws alone: invoices cite them, "Legge 190/2014 comma 54".)
    terms: `article, articles, section, subsection, chapter, shall, hereby, enacted, pursuant to, provisions, amendment, amended, repealed,
      entry into force, code of federal regulations, final rule, proposed rule, hereinafter, notwithstanding, preamble, whereas, annex,
      official journal, gazette, federal register,
      alinea, chapitre, considerant, journal officiel, entree en vigueur, dispositions,
      absatz, abschnitt, inkrafttreten, bundesgesetzblatt,
      hoofdstuk, staatsblad, inwerkingtreding,
      articulo, capitulo, disposicion adicional, disposicion transitoria, disposicion final, disposicion derogatoria,
      boletin oficial, entrada en vigor, preambulo,
      articolo, gazzetta ufficiale, entrata in vigore,
      artigo, diario oficial, entrada em vigor`,
    cues: { clauses: 1 },
  },
  {
    id: 'meeting_minutes',
    names: 'minutes, meeting minutes, minutes of meeting, proces verbal, compte rendu de reunion, protokoll, sitzungsprotokoll, notulen, acta de reunion, verbale di riunione, ata de reuniao, 会议纪要, 會議記錄, 議事録, 회의록',
    terms: `minutes, present, attendees, attendance, apologies, absent, chair, chaired by, chairperson, secretary, quorum, agenda item, motion, moved,
      seconded, carried, resolved, resolution, approved, action items, next meeting, meeting adjourned, adjourned, called to order,
      minutes of the previous meeting, any other business, decisions,
      proces verbal, presents, excuses, ordre du jour, seance, president de seance, secretaire de seance, deliberation, adopte, a l unanimite,
      protokoll, anwesend, teilnehmer, tagesordnung, beschluss, sitzung, vorsitz, entschuldigt,
      notulen, aanwezig, afwezig, agendapunt, vergadering, voorzitter, actiepunten, rondvraag,
      acta, asistentes, orden del dia, acuerdos, sesion, se levanta la sesion,
      verbale, presenti, assenti, ordine del giorno, seduta, delibera,
      ata, presentes, ordem do dia, deliberacao, reuniao`,
  },
  {
    id: 'agenda',
    names: 'agenda, meeting agenda, order of business, ordre du jour, tagesordnung, orden del dia, ordine del giorno, ordem do dia, 议程, 議程, 안건',
    terms: `agenda, agenda item, approval of minutes, approval of the agenda, coffee break, any other business, adjourn,
      ordre du jour, tagesordnung, rondvraag, orden del dia, ordine del giorno, ordem do dia`,
  },
  {
    id: 'email',
    names: 'email, e-mail, email message, e-mail message, mail message, courriel, correo electronico, posta elettronica, 邮件, 郵件, 메일',
    terms: `subject, cc, bcc, reply, forwarded, fwd, attachment, attachments, original message, wrote, mailto, message-id, mime-version, content-type,
      unsubscribe, best regards, kind regards, objet, envoye, piece jointe, betreff, gesendet, anhang, onderwerp, verzonden, bijlage,
      asunto, enviado, adjunto, oggetto, inviato, allegato, assunto, anexo`,
    cues: { mail: 1 },
  },
  {
    id: 'bill_of_lading',
    names: 'bill of lading, waybill, sea waybill, air waybill, consignment note, connaissement, lettre de voiture, konnossement, frachtbrief, cognossement, vrachtbrief, conocimiento de embarque, carta de porte, polizza di carico, lettera di vettura, conhecimento de embarque, conhecimento de transporte',
    // (Not what a goods invoice prints too: carriage, delivery terms, gross weights.)
    terms: `bill of lading, shipper, consignee, notify party, vessel, voyage, port of loading, port of discharge, place of receipt,
      container number, seal number, freight prepaid, freight collect, marks and numbers, shipped on board,
      connaissement, verladehafen, konnossement, laadhaven, loshaven, cognossement, conocimiento de embarque, polizza di carico,
      conhecimento de embarque, conhecimento de transporte, contrato de transporte, expedidor, recebedor, cubagem`,
  },
  {
    id: 'court_filing',
    names: 'court filing, lawsuit, court document, pleading, summons, requete, assignation, klageschrift, dagvaarding, demanda judicial, ricorso, citazione, peticao inicial',
    terms: `plaintiff, defendant, petitioner, respondent, court, district court, superior court, circuit court, case no, case number, civil action,
      docket, complaint, motion, comes now, prayer for relief, wherefore, jury trial demanded, counsel for, attorney for, judge, honorable,
      versus, exhibit, certificate of service, filed, jurisdiction, venue, cause of action, allegations,
      demandeur, defendeur, tribunal, tribunal judiciaire, requete, assignation, par ces motifs,
      klager, beklagter, gericht, landgericht, amtsgericht, klage, aktenzeichen,
      eiser, gedaagde, rechtbank, dagvaarding, zaaknummer,
      demandante, demandado, juzgado, demanda, suplico,
      attore, convenuto, tribunale, ricorso, citazione,
      autor, reu, peticao`,
  },
  {
    id: 'financial_statement',
    names: 'financial statement, financial statements, balance sheet, income statement, profit and loss, cash flow statement, annual accounts, bilan comptable, bilanz, jahresabschluss, jaarrekening, estados financieros, balance general, bilancio, conto economico, demonstracoes financeiras, balanco patrimonial, 财务报表, 財務報表, 財務諸表, 재무제표',
    terms: `balance sheet, assets, liabilities, equity, shareholders equity, total assets, total liabilities, current assets, non-current assets,
      current liabilities, revenue, revenues, net income, net profit, operating income, gross profit, cost of sales, ebitda, depreciation,
      amortisation, amortization, retained earnings, cash and cash equivalents, cash flow, operating activities, investing activities,
      financing activities, fiscal year, year ended, notes to the financial statements, audited, unaudited, consolidated, earnings per share,
      actif, passif, capitaux propres, resultat net,
      aktiva, passiva, eigenkapital, umsatzerlose, jahresuberschuss, geschaftsjahr,
      activa, passiva, eigen vermogen, omzet, nettowinst, boekjaar,
      activo, pasivo, patrimonio neto, ingresos, resultado neto, ejercicio,
      attivo, passivo, patrimonio netto, ricavi, utile netto, esercizio,
      ativo, patrimonio liquido, receita, lucro liquido`,
  },
  {
    id: 'technical_standard',
    names: 'technical standard, technical specification, specification, iso standard, itu recommendation, ieee standard, rfc, norme technique, technische norm, din norm, technische specificatie, norma tecnica, especificacion tecnica, specifica tecnica',
    terms: `scope, normative references, terms and definitions, definitions, conformance, compliance, requirements, annex, informative, normative,
      clause, subclause, recommendation, itu-t, iso, iec, ieee, ietf, rfc, revision, draft, abbreviations, acronyms, bibliography, specification,
      protocol, interface, parameters, encoding,
      domaine d application, references normatives, termes et definitions, exigences,
      anwendungsbereich, normative verweisungen, begriffe, anforderungen,
      toepassingsgebied, normatieve verwijzingen, termen en definities, eisen,
      campo de aplicacion, referencias normativas, terminos y definiciones, requisitos,
      campo di applicazione, riferimenti normativi, termini e definizioni, requisiti,
      referencias normativas, termos e definicoes`,
    cues: { contents: 0.5, clauses: 0.5 },
  },
  {
    id: 'spreadsheet',
    names: 'spreadsheet, workbook, worksheet, excel, tableur, tabellenkalkulation, arbeitsblatt, rekenblad, werkblad, planilha',
    terms: `sheet, column, columns, row, rows, average, percentage, ytd, yoy, grand total`,
    cues: { table_heavy: 0.5, workbook: 1 },
  },
  {
    id: 'web_page',
    // Not "website": a CV or a paper prints it too.
    names: 'web page, webpage, html page, saved page, page web, webseite, internetseite, webpagina, pagina web',
    // What it prints is any subject's: its format says it (FORMAT_CUES).
    terms: '',
    cues: { web: 1 },
  },
  {
    id: 'sheet_music',
    names: 'sheet music, musical score, music score, song sheet, lead sheet, chord chart, partition musicale, partitur, bladmuziek, partitura, spartito, tablature, guitar tab',
    terms: `verse, chorus, bridge, intro, outro, capo, tempo, bpm, chords, chord, tab, tablature, lyrics, words and music by, music by, arranged by,
      moderato, allegro, andante, adagio, forte, crescendo, coda, repeat, measure, time signature, strumming, guitar, vocals`,
  },
];
