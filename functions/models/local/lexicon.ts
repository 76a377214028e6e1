/**
 * What the local engine knows about common business documents: for a document type (as people name
 * it in a category or subdocument), the words and phrases such documents are printed with.
 *
 * A category "invoice" described as "a bill from a supplier" shares few words with an actual invoice
 * ("Amount due", "Bill to", "Net 30"); this vocabulary bridges that gap the way a person's experience
 * would. It only ever adds evidence for a category whose name or description names the type, and
 * categories the lexicon does not know still work from their own words.
 *
 * Entries are plain English; they are stemmed and split into features when the engine loads.
 */
import { textFeatures } from './text.ts';

interface Entry {
  /** How people name this type; any of them in a category's name or description triggers the entry. */
  names: string[];
  /** Comma-separated words and phrases printed on such documents. */
  terms: string;
}

const ENTRIES: Entry[] = [
  {
    names: ['invoice', 'bill', 'tax invoice', 'billing statement', 'commercial invoice'],
    terms: `invoice, invoice number, invoice date, bill to, billed to, amount due, total due, balance due, due date,
      payment due, payment terms, terms net, net 30, net 15, remit, remittance, remit to, payable, please pay,
      subtotal, vat, sales tax, tax, unit price, qty, quantity, amount, description, services rendered, supplier,
      vendor, customer, purchase order, po number, bank details, iban, swift, sort code, overdue, late payment,
      billing, charges, fees, hours, rate, line total, total excluding, total including, account name, pay by,
      owing, amount owing, total owing, labour, labor, parts and labour, job number, work order, payment due within`,
  },
  {
    names: ['receipt', 'sales receipt', 'till receipt', 'proof of purchase', 'purchase receipt', 'payment receipt'],
    terms: `receipt, thank you for your purchase, thank you for shopping, thank you for your visit, paid, amount paid,
      total paid, payment received, cash, change, change due, tendered, card, visa, mastercard, amex, debit card,
      contactless, chip, pin, auth code, authorization, approved, transaction, transaction id, cashier, till,
      register, store, shop, merchant, terminal, pos, items, item count, refund, returns, exchange, keep your receipt,
      loyalty, points, member, tip, gratuity, served by, table, order, qty, subtotal, total, tax, vat`,
  },
  {
    names: ['contract', 'agreement', 'service agreement', 'lease', 'tenancy agreement', 'employment contract', 'nda',
      'non disclosure agreement', 'terms and conditions', 'legal agreement', 'deed'],
    terms: `agreement, contract, this agreement, parties, party, between, hereby, hereinafter, herein, hereto, whereas,
      now therefore, shall, shall not, term, termination, terminate, governing law, jurisdiction, confidentiality,
      confidential information, obligations, clause, section, indemnify, indemnification, liability,
      limitation of liability, warranty, warranties, representations, in witness whereof, signature, signed,
      signed by, authorized signatory, effective date, commencement date, breach, notice, notices, entire agreement,
      force majeure, schedule, annex, appendix, amendment, assignment, severability, dispute, arbitration,
      counterparts, the supplier, the client, the employer, the employee, the landlord, the tenant, the company,
      witness, date of signature, consideration, covenant, terms and conditions, renewal`,
  },
  {
    names: ['bank statement', 'account statement', 'statement of account', 'bank account statement', 'credit card statement'],
    terms: `statement, statement period, statement date, account, account number, account holder, sort code, iban,
      bic, branch, bank, opening balance, closing balance, balance brought forward, brought forward, carried forward,
      balance carried forward, balance, available balance, transactions, transaction, deposit, deposits, withdrawal,
      withdrawals, direct debit, standing order, transfer, transfer to, transfer from, faster payment, atm,
      cash withdrawal, card payment, pos purchase, interest, interest paid, overdraft, fee, charges, credit, debit,
      money in, money out, paid in, paid out, payments in, payments out, cheque, check, deposited, total credits,
      total debits, minimum payment, statement balance`,
  },
  {
    names: ['payslip', 'pay slip', 'pay stub', 'paystub', 'salary slip', 'wage slip', 'earnings statement', 'pay statement',
      'payroll statement', 'pay advice', 'salary statement'],
    terms: `payslip, pay slip, employee, employee name, employee id, employee number, employer, gross pay, net pay,
      take home pay, earnings, deductions, total deductions, salary, basic salary, basic pay, wages, overtime, bonus,
      commission, allowance, income tax, tax code, paye, national insurance, ni number, ni contributions,
      social security, medicare, federal tax, state tax, withholding, pension, pension contribution, 401k,
      pay period, pay date, period ending, year to date, ytd, hours worked, hourly rate, rate, payroll,
      department, student loan, sick pay, holiday pay, pay rate, net salary, gross salary`,
  },
  {
    names: ['packing list', 'packing slip', 'delivery note', 'dispatch note', 'shipping list', 'bill of lading',
      'shipping manifest', 'consignment note', 'goods received note'],
    terms: `packing list, packing slip, delivery note, dispatch, dispatched, shipped, shipment, ship to, ship from,
      ship date, shipping, carrier, tracking number, consignee, consignor, shipper, carton, cartons, box, boxes,
      package, packages, pallet, pallets, weight, gross weight, net weight, dimensions, kg, lbs, quantity shipped,
      qty shipped, qty ordered, ordered, sku, item, items, packed by, checked by, received by, delivery,
      delivery date, goods, contents, port of loading, port of discharge, container, seal, handling`,
  },
  {
    names: ['purchase order', 'po', 'order form'],
    terms: `purchase order, po number, order number, order date, vendor, supplier, buyer, ship to, deliver to,
      delivery date, required by, quantity, unit price, item, description, approved by, authorized by,
      terms, total, requisition`,
  },
  {
    names: ['quote', 'quotation', 'estimate', 'proposal', 'offer'],
    terms: `quote, quotation, estimate, proposal, quote number, valid until, validity, prices valid, offer,
      proposed, scope of work, acceptance, accept this quote, unit price, subtotal, total, options`,
  },
  {
    names: ['credit note', 'credit memo', 'refund notice'],
    terms: `credit note, credit memo, credit, credited, refund, refunded, original invoice, returned, adjustment,
      amount credited, reason for credit`,
  },
  {
    names: ['resume', 'cv', 'curriculum vitae'],
    terms: `resume, curriculum vitae, experience, work experience, education, skills, employment history,
      references, profile, objective, qualifications, certifications, languages, achievements, university, degree`,
  },
  {
    names: ['letter', 'correspondence', 'cover letter'],
    terms: `dear, sincerely, yours sincerely, yours faithfully, kind regards, regards, re, enclosed, enclosure,
      we are writing, i am writing, please find, look forward`,
  },
  {
    names: ['memo', 'memorandum'],
    terms: `memo, memorandum, to, from, subject, cc, date, re, action required`,
  },
  {
    names: ['report', 'annual report', 'financial report'],
    terms: `report, summary, executive summary, findings, introduction, conclusion, recommendations, results,
      analysis, overview, appendix, methodology, figure, table`,
  },
  {
    names: ['tax form', 'tax return', 'w2', 'form 1099', 'p60', 'tax statement'],
    terms: `tax return, tax year, taxpayer, filing status, adjusted gross income, taxable income, wages tips,
      federal income tax withheld, social security wages, employer identification number, refund, schedule,
      deductions, exemptions, irs, hmrc, form`,
  },
  {
    names: ['insurance policy', 'insurance', 'policy', 'insurance certificate'],
    terms: `policy, policy number, policyholder, insured, insurer, premium, coverage, cover, deductible, excess,
      claim, claims, beneficiary, endorsement, exclusions, sum insured, policy period, renewal date, underwriter`,
  },
  {
    names: ['medical record', 'medical report', 'prescription', 'lab report', 'discharge summary'],
    terms: `patient, patient name, date of birth, diagnosis, physician, doctor, hospital, clinic, prescription,
      medication, dosage, symptoms, treatment, allergies, lab results, blood pressure, history, examination`,
  },
  {
    names: ['utility bill', 'electricity bill', 'gas bill', 'water bill', 'phone bill'],
    terms: `meter, meter reading, usage, kwh, units used, tariff, standing charge, supply address, billing period,
      previous reading, current reading, energy, electricity, gas, water, account number, amount due, direct debit`,
  },
  {
    names: ['identity document', 'id card', 'passport', 'driving licence', 'driver license', 'identity card'],
    terms: `passport, nationality, date of birth, place of birth, date of issue, date of expiry, expiry, issuing
      authority, surname, given names, sex, licence number, license number, identity, holder, signature`,
  },
  {
    names: ['timesheet', 'time sheet'],
    terms: `timesheet, hours, hours worked, regular hours, overtime hours, week ending, project, task, approved by,
      start time, end time, break, total hours, employee`,
  },
  {
    names: ['expense report', 'expense claim'],
    terms: `expense, expenses, claim, claimant, reimbursement, mileage, travel, meals, accommodation, receipts
      attached, approved by, cost centre, total claimed`,
  },
  {
    names: ['certificate', 'certification'],
    terms: `certificate, certify, certifies, hereby certify, awarded, issued, valid, certificate number, this is to
      certify, completion, registered`,
  },
];

/** One lexicon entry as features: the stemmed names that trigger it, and the features it adds. */
export interface LexiconEntry {
  /** Each name as its content stems (the first is the entry's own); a name triggers when its stems appear in a row. */
  triggers: string[][];
  features: string[];
}

function build(): LexiconEntry[] {
  return ENTRIES.map((entry) => {
    const triggers = entry.names.map((name) => textFeatures(name).stems).filter((stems) => stems.length > 0);
    const features = new Set<string>();
    for (const term of entry.terms.split(',')) {
      const { stems, phrases } = textFeatures(term.trim());
      // A one-word term is a stem feature; a longer one contributes its phrases (the words alone are
      // too common: "due", "pay", "number").
      if (stems.length === 1) features.add(stems[0]!);
      for (const phrase of phrases) features.add(phrase);
    }
    return { triggers, features: [...features] };
  });
}

export const LEXICON: readonly LexiconEntry[] = build();
