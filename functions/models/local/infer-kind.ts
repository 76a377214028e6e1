/**
 * Schema generation: the kind of document the examples are (invoice, bank statement, payslip…), from
 * a title printed at the top, or else from the lexicon's evidence (./classify.ts). "document" when
 * nothing decides.
 */
import type { Doc } from '../../documents/doc.ts';
import { classify } from './classify.ts';
import { INFER_SETTINGS } from './weights/infer-schema.ts';
import { phrasePattern } from '../shared/words.ts';

interface Kind {
  type: string;
  title: string;
  /** Names as the lexicon knows them (the first one triggers its entry in classification). */
  names: string[];
}

const KINDS: Kind[] = [
  { type: 'invoice', title: 'Invoice', names: ['invoice', 'tax invoice', 'commercial invoice'] },
  { type: 'receipt', title: 'Receipt', names: ['receipt', 'sales receipt'] },
  { type: 'contract', title: 'Contract', names: ['contract', 'agreement'] },
  { type: 'bank_statement', title: 'Bank Statement', names: ['bank statement', 'account statement', 'statement of account', 'credit card statement'] },
  { type: 'payslip', title: 'Payslip', names: ['payslip', 'pay slip', 'pay stub', 'paystub', 'salary slip', 'earnings statement', 'pay statement', 'pay advice'] },
  { type: 'packing_list', title: 'Packing List', names: ['packing list', 'packing slip', 'delivery note', 'bill of lading'] },
  { type: 'purchase_order', title: 'Purchase Order', names: ['purchase order', 'order form'] },
  { type: 'quote', title: 'Quote', names: ['quote', 'quotation', 'estimate'] },
  { type: 'credit_note', title: 'Credit Note', names: ['credit note', 'credit memo'] },
  { type: 'resume', title: 'Resume', names: ['resume', 'curriculum vitae'] },
  { type: 'tax_form', title: 'Tax Form', names: ['tax form', 'tax return'] },
  { type: 'insurance_policy', title: 'Insurance Policy', names: ['insurance policy'] },
  { type: 'utility_bill', title: 'Utility Bill', names: ['utility bill', 'electricity bill', 'gas bill', 'water bill', 'phone bill'] },
  { type: 'timesheet', title: 'Timesheet', names: ['timesheet', 'time sheet'] },
  { type: 'expense_report', title: 'Expense Report', names: ['expense report', 'expense claim'] },
  { type: 'report', title: 'Report', names: ['report', 'annual report', 'financial report'] },
  { type: 'certificate', title: 'Certificate', names: ['certificate'] },
];

/** The kind named in a text ("ACCOUNT STATEMENT", "Payslip – March"), longest name first. */
function kindNamedIn(text: string): Kind | undefined {
  let best: { kind: Kind; length: number } | undefined;
  for (const kind of KINDS) {
    for (const name of kind.names) {
      if (new RegExp(`\\b${phrasePattern(name)}\\b`, 'i').test(text) && name.length > (best?.length ?? 0)) best = { kind, length: name.length };
    }
  }
  return best?.kind;
}

/** The document kind of the examples: the one most of them show. */
export function detectKind(docs: Doc[], instructions: string | null): { type: string; title: string } {
  if (instructions) {
    const named = kindNamedIn(instructions);
    if (named) return { type: named.type, title: named.title };
  }
  const votes = new Map<Kind, number>();
  for (const doc of docs) {
    const kind = titleKind(doc) ?? classifiedKind(doc);
    if (kind) votes.set(kind, (votes.get(kind) ?? 0) + 1);
  }
  let chosen: Kind | undefined;
  for (const kind of KINDS) if ((votes.get(kind) ?? 0) > (chosen ? votes.get(chosen)! : 0)) chosen = kind;
  return chosen ? { type: chosen.type, title: chosen.title } : { type: 'document', title: 'Document' };
}

/** A kind printed in the first lines of the first page (a title), or as a sheet's name. */
function titleKind(doc: Doc): Kind | undefined {
  const page = doc.pages[0];
  if (!page) return undefined;
  const texts = [...(page.name ? [page.name] : []), ...page.lines.slice(0, INFER_SETTINGS.titleLines).map((l) => l.text)];
  for (const text of texts) {
    const kind = kindNamedIn(text);
    if (kind) return kind;
  }
  return undefined;
}

function classifiedKind(doc: Doc): Kind | undefined {
  // A spreadsheet or CSV is data, not a business document: only a printed title names its kind.
  if (doc.kind === 'csv' || doc.kind === 'xlsx' || !doc.pages.some((p) => p.words.length > 0)) return undefined;
  const categories = KINDS.map((k) => ({ name: k.names[0]!, description: '' }));
  const result = classify({ doc, categories, instructions: null, firstNPages: INFER_SETTINGS.classifyPages, nConsensus: 1, seed: 'schema' });
  const shares = Object.values(result.scores).sort((a, b) => b - a);
  if ((shares[0] ?? 0) < INFER_SETTINGS.minShare || (shares[0] ?? 0) < INFER_SETTINGS.leadOverNext * (shares[1] ?? 0)) return undefined;
  return KINDS.find((k) => k.names[0] === result.output.category);
}
