/**
 * Generated business documents for the classification, split and partition tests (and, rendered to
 * PDFs by other tests, for the API): invoices, receipts, contracts, bank statements, payslips and
 * packing lists with varied wording, layouts (titled or not, key-value lines or tables) and, in some,
 * words of other kinds (an invoice's bank details, a contract's payment clause, a statement's salary
 * credit), each with its ground truth.
 *
 * Everything is deterministic: a seed picks every word. `fixtureDoc` turns fixture pages into a Doc
 * (blocks, lines, words, tables; unit 'none'); `pageText` gives a page's lines for rendering.
 */
import type { Block, Doc, Page, Table, Word } from '../../functions/documents/doc.ts';

// ---------------------------------------------------------------------------------------------
// Shapes

export type FixtureKind = 'invoice' | 'receipt' | 'contract' | 'bank_statement' | 'payslip' | 'packing_list';

export interface FixtureBlock {
  kind: 'heading' | 'paragraph' | 'list_item' | 'table';
  level?: number;
  /** The block's lines as printed (a table: one line per row, cells separated by spaces). */
  lines: string[];
  /** Table cells by row, for `table` blocks. */
  rows?: string[][];
}

export interface FixturePage {
  blocks: FixtureBlock[];
}

export interface FixtureDocument {
  kind: FixtureKind;
  pages: FixturePage[];
  /** The document's number as printed (invoice number, statement number...), when it has one. */
  number?: string;
}

/** A multi-document file and which pages belong to which document. */
export interface FixtureBundle {
  pages: FixturePage[];
  documents: Array<{ kind: FixtureKind; number?: string; pages: number[] }>;
}

// ---------------------------------------------------------------------------------------------
// Randomness

export type Random = () => number;

/** mulberry32: small, fast, deterministic. */
export function random(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(r: Random, list: readonly T[]): T => list[Math.floor(r() * list.length)]!;
const int = (r: Random, low: number, high: number) => low + Math.floor(r() * (high - low + 1));
const chance = (r: Random, p: number) => r() < p;
function sample<T>(r: Random, list: readonly T[], count: number): T[] {
  const copy = [...list];
  const out: T[] = [];
  while (out.length < count && copy.length > 0) out.push(copy.splice(Math.floor(r() * copy.length), 1)[0]!);
  return out;
}
const digits = (r: Random, n: number) => Array.from({ length: n }, () => String(int(r, 0, 9))).join('');

// ---------------------------------------------------------------------------------------------
// Block helpers

const heading = (text: string, level = 1): FixtureBlock => ({ kind: 'heading', level, lines: [text] });
const para = (...lines: string[]): FixtureBlock => ({ kind: 'paragraph', lines: lines.filter((l) => l !== '') });
const item = (text: string): FixtureBlock => ({ kind: 'list_item', lines: [text] });
const table = (rows: string[][]): FixtureBlock => ({ kind: 'table', lines: rows.map((r) => r.filter((c) => c !== '').join(' ')), rows });
/** Label-value lines, "Label: value" or "Label value" by style. */
const fields = (pairs: Array<[string, string]>, colon = true): FixtureBlock => para(...pairs.map(([k, v]) => (colon ? `${k}: ${v}` : `${k} ${v}`)));

// ---------------------------------------------------------------------------------------------
// Names, places, dates, money

const FIRST = ['James', 'Maria', 'Aisha', 'Tom', 'Priya', 'Lukas', 'Sofia', 'Daniel', 'Chen', 'Olivia', 'Mohammed', 'Emma', 'Rafael', 'Hannah', 'Kwame', 'Grace', 'Ivan', 'Noor'];
const LAST = ['Smith', 'Garcia', 'Okafor', 'Novak', 'Patel', 'Schmidt', 'Rossi', 'Murphy', 'Wang', 'Jones', 'Haddad', 'Brown', 'Silva', 'Fischer', 'Mensah', 'Taylor', 'Petrov', 'Khan'];
const CO_A = ['Northwind', 'Bluebell', 'Harbor', 'Crescent', 'Summit', 'Pinewood', 'Atlas', 'Meridian', 'Oakridge', 'Silverline', 'Redwood', 'Lumen', 'Kestrel', 'Granite', 'Willow', 'Beacon', 'Falcon', 'Orchid'];
const CO_B = ['Trading', 'Supplies', 'Consulting', 'Logistics', 'Studio', 'Engineering', 'Foods', 'Software', 'Systems', 'Print Works', 'Media', 'Electrical', 'Partners', 'Labs', 'Furniture', 'Wholesale'];
const CO_C = ['Ltd', 'Inc.', 'LLC', 'GmbH', 'Limited', 'plc', 'Co.', 'Group'];
const STREETS = ['High Street', 'Station Road', 'Mill Lane', 'Church Street', 'Market Square', 'Park Avenue', 'King Street', 'Harbour Road', 'Elm Grove', 'Victoria Road', 'Oak Drive', 'Bridge Street'];
const CITIES = ['Leeds LS1 4AP', 'Bristol BS1 5TR', 'Manchester M2 3HB', 'London EC2A 4NE', 'Glasgow G1 2FF', 'Cardiff CF10 1EP', 'Boston, MA 02110', 'Austin, TX 78701', 'Denver, CO 80202', 'Dublin D02 X285', 'Portland, OR 97204', 'York YO1 7HH'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

const person = (r: Random) => `${pick(r, FIRST)} ${pick(r, LAST)}`;
const company = (r: Random) => `${pick(r, CO_A)} ${pick(r, CO_B)} ${pick(r, CO_C)}`;
const street = (r: Random) => `${int(r, 1, 240)} ${pick(r, STREETS)}`;
const city = (r: Random) => pick(r, CITIES);

interface Day {
  y: number;
  m: number;
  d: number;
}
const day = (r: Random): Day => ({ y: int(r, 2023, 2025), m: int(r, 1, 12), d: int(r, 1, 28) });
const addDays = (date: Day, n: number): Day => {
  const t = new Date(Date.UTC(date.y, date.m - 1, date.d + n));
  return { y: t.getUTCFullYear(), m: t.getUTCMonth() + 1, d: t.getUTCDate() };
};
const pad = (n: number) => String(n).padStart(2, '0');
function formatDate(date: Day, style: number): string {
  switch (style % 4) {
    case 0:
      return `${date.d} ${MONTHS[date.m - 1]} ${date.y}`;
    case 1:
      return `${pad(date.d)}/${pad(date.m)}/${date.y}`;
    case 2:
      return `${date.y}-${pad(date.m)}-${pad(date.d)}`;
    default:
      return `${MONTHS[date.m - 1]!.slice(0, 3)} ${date.d}, ${date.y}`;
  }
}

function money(value: number, symbol: string): string {
  const fixed = value.toFixed(2);
  const [whole, cents] = fixed.split('.');
  return `${symbol}${whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${cents}`;
}
const amount = (r: Random, low: number, high: number) => Math.round((low + r() * (high - low)) * 100) / 100;

// ---------------------------------------------------------------------------------------------
// Invoices

const GOODS = ['A4 copier paper, 5 reams', 'Toner cartridge black', 'Office chair, mesh back', 'LED panel light 600x600', 'Copper pipe 15mm x 3m', 'Stainless hinges (pack of 10)', 'Ethernet cable Cat6 10m', 'Label printer rolls', 'Standing desk frame', 'Hand sanitiser 5L', 'Safety gloves, size L', 'Wireless keyboard', 'Pallet wrap 500mm', 'Coffee beans 1kg', 'Cleaning solution 5L', 'Monitor arm, dual'];
const SERVICES = ['Consulting services, March', 'Website maintenance (monthly retainer)', 'On-site support, 6 hours', 'Logo design and brand guide', 'Electrical inspection and report', 'Software licence renewal', 'Bookkeeping services Q2', 'Delivery and installation', 'Translation of user manual', 'Photography session (half day)', 'Server hosting, 12 months', 'Training workshop, 2 days', 'Carpet cleaning, ground floor', 'Legal document review'];
const INVOICE_TITLES = ['INVOICE', 'Invoice', 'TAX INVOICE', 'Tax Invoice', 'Sales Invoice', 'INVOICE'];
const INVOICE_NUMBER_LABELS = ['Invoice No:', 'Invoice #:', 'Invoice Number:', 'Invoice No.', 'Inv. No.', 'Invoice number'];
const INVOICE_TOTAL_LABELS = ['Total Due', 'Amount Due', 'Balance Due', 'Total', 'Invoice Total', 'Total Amount Due'];
const PAYMENT_NOTES = [
  'Payment terms: Net 30 days from the invoice date.',
  'Please pay within 14 days of receipt of this invoice.',
  'Payment is due by the date shown above. Late payments may incur interest.',
  'Terms: net 15. Please quote the invoice number with your payment.',
  'Kindly remit payment to the bank account below, quoting the invoice number as reference.',
  'Overdue balances are charged at 2% per month.',
];
const THANKS = ['Thank you for your business!', 'We appreciate your prompt payment.', 'Thank you for choosing us.', 'Questions about this invoice? Contact accounts@example.com', ''];

export interface InvoiceOptions {
  seed: number;
  /** The invoice number as printed; generated when absent. */
  number?: string;
  pages?: number;
  /**
   * How continuation pages show it: 'none' (no number, no marker), 'pageOf' ("Page 2 of 3"),
   * 'repeat' (header with the number again), or 'mixed' (the seed picks per page).
   */
  continuation?: 'none' | 'pageOf' | 'repeat' | 'mixed';
  /** Label printed before the number on the first page (default: picked by the seed). */
  numberLabel?: string;
}

export function invoice(options: InvoiceOptions): FixtureDocument {
  const r = random(options.seed);
  const pageCount = options.pages ?? 1;
  const number = options.number ?? `INV-${int(r, 1000, 9999)}`;
  const seller = company(r);
  const buyer = company(r);
  const symbol = pick(r, ['£', '$', '€', '']);
  const dateStyle = int(r, 0, 3);
  const issued = day(r);
  const vatRate = pick(r, [0, 5, 10, 20, 8.25]);
  const layout = int(r, 0, 3);
  const numberLabel = options.numberLabel ?? pick(r, INVOICE_NUMBER_LABELS);
  const title = pick(r, INVOICE_TITLES);
  const services = chance(r, 0.5);
  const itemCount = pageCount === 1 ? int(r, 2, 7) : int(r, 6, 9) * pageCount;
  const items = Array.from({ length: itemCount }, () => {
    const qty = int(r, 1, 12);
    const unit = services ? amount(r, 60, 900) : amount(r, 2, 180);
    return { description: pick(r, services ? SERVICES : GOODS), qty, unit };
  });
  const subtotal = items.reduce((s, i) => s + i.qty * i.unit, 0);
  const tax = Math.round(subtotal * vatRate) / 100;
  const continuation = options.continuation ?? 'mixed';

  const head: FixtureBlock[] = [];
  const numberLine = `${numberLabel} ${number}`;
  const dates: Array<[string, string]> = [
    [pick(r, ['Date', 'Invoice Date', 'Issue date', 'Date of issue']), formatDate(issued, dateStyle)],
    [pick(r, ['Due Date', 'Payment due', 'Due']), formatDate(addDays(issued, pick(r, [14, 15, 30])), dateStyle)],
  ];
  const extras: Array<[string, string]> = [];
  if (chance(r, 0.5)) extras.push([pick(r, ['PO Number', 'Your ref', 'Purchase Order']), `PO-${int(r, 10000, 99999)}`]);
  if (chance(r, 0.5)) extras.push([pick(r, ['Customer No', 'Account No', 'Customer ID']), `C-${int(r, 100, 9999)}`]);
  const sellerBlock = para(seller, street(r), city(r), chance(r, 0.5) ? `VAT Reg No: GB${digits(r, 9)}` : `Tel: 0${int(r, 100, 999)} ${digits(r, 3)} ${digits(r, 4)}`);
  const buyerBlock = para(pick(r, ['Bill To:', 'Billed to', 'Invoice to:', 'Customer:', 'BILL TO']), buyer, street(r), city(r));
  switch (layout) {
    case 0: // Title first, then number and dates as fields.
      head.push(heading(title), sellerBlock, para(numberLine), fields(dates), buyerBlock);
      if (extras.length) head.push(fields(extras));
      break;
    case 1: // Letterhead first, the title as a plain line, fields in a table.
      head.push(para(seller), para(title), table([[numberLabel.replace(/[:.]$/, ''), ...dates.map(([k]) => k)], [number, ...dates.map(([, v]) => v)]]), buyerBlock);
      break;
    case 2: // Title with the number on one line.
      head.push(heading(`${title} ${number}`), sellerBlock, buyerBlock, fields([...dates, ...extras], false));
      break;
    default: // No title word other than the field labels.
      head.push(sellerBlock, fields([[numberLabel.replace(/[:.]$/, ''), number], ...dates, ...extras]), buyerBlock);
  }

  const itemRows = items.map((i) => [i.description, String(i.qty), money(i.unit, symbol), money(i.qty * i.unit, symbol)]);
  const header = services
    ? pick(r, [['Description of services', 'Hours', 'Rate', 'Amount'], ['Service', 'Qty', 'Rate', 'Total']])
    : pick(r, [['Description', 'Qty', 'Unit Price', 'Amount'], ['Item', 'Quantity', 'Price', 'Line Total']]);
  const perPage = Math.ceil(items.length / pageCount);
  const totals: FixtureBlock[] = [
    fields(
      [
        ['Subtotal', money(subtotal, symbol)],
        ...(vatRate > 0 ? [[vatRate === 8.25 ? 'Sales Tax (8.25%)' : `VAT (${vatRate}%)`, money(tax, symbol)] as [string, string]] : []),
        [pick(r, INVOICE_TOTAL_LABELS), money(subtotal + tax, symbol)],
      ],
      chance(r, 0.6),
    ),
    para(pick(r, PAYMENT_NOTES)),
  ];
  if (chance(r, 0.6)) totals.push(para(`Bank: ${pick(r, ['Barclays', 'HSBC', 'Lloyds', 'Chase', 'Santander'])}`, `Sort code: ${digits(r, 2)}-${digits(r, 2)}-${digits(r, 2)} Account: ${digits(r, 8)}`));
  const thanks = pick(r, THANKS);
  if (thanks) totals.push(para(thanks));

  const pages: FixturePage[] = [];
  for (let p = 0; p < pageCount; p++) {
    const blocks: FixtureBlock[] = [];
    const style = continuation === 'mixed' ? pick(r, ['none', 'pageOf', 'repeat'] as const) : continuation;
    if (p === 0) blocks.push(...head);
    else if (style === 'repeat') blocks.push(para(seller), para(`${title} ${number} (continued)`));
    else if (style === 'none' && chance(r, 0.5)) blocks.push(para(pick(r, ['Continued from previous page', 'Items (continued)'])));
    blocks.push(table([header, ...itemRows.slice(p * perPage, (p + 1) * perPage)]));
    if (p === pageCount - 1) blocks.push(...totals);
    if (pageCount > 1 && (style === 'pageOf' || (p === 0 && continuation !== 'none'))) blocks.push(para(`Page ${p + 1} of ${pageCount}`));
    pages.push({ blocks });
  }
  return { kind: 'invoice', pages, number };
}

// ---------------------------------------------------------------------------------------------
// Receipts

const GROCERIES = ['MILK SEMI 2L', 'BREAD WHOLEMEAL', 'BANANAS LOOSE', 'CHEDDAR 400G', 'EGGS FREE RANGE 6', 'COFFEE GROUND', 'PASTA FUSILLI', 'TOMATOES', 'OLIVE OIL 500ML', 'YOGHURT GREEK', 'APPLES PINK LADY', 'RICE BASMATI 1KG', 'ORANGE JUICE', 'CHICKEN BREAST'];
const MEALS = ['Flat white', 'Cappuccino', 'Club sandwich', 'Caesar salad', 'Margherita pizza', 'Sparkling water', 'Fish and chips', 'Chocolate brownie', 'Soup of the day', 'Green tea', 'Burger and fries', 'Lemonade'];
const SHOPS = ['FRESHWAY SUPERMARKET', 'Corner Deli & Cafe', 'CITY HARDWARE', 'The Olive Tree Restaurant', 'QUICKSTOP', 'Bean There Coffee', 'MEGAMART', 'Riverside Pharmacy'];

export function receipt(seed: number): FixtureDocument {
  const r = random(seed);
  const variant = int(r, 0, 3);
  const symbol = pick(r, ['£', '$', '€']);
  const when = day(r);
  const time = `${pad(int(r, 7, 21))}:${pad(int(r, 0, 59))}`;
  const blocks: FixtureBlock[] = [];
  if (variant === 3) {
    // An online payment receipt: no till, but "payment received", and an invoice it pays (a distractor).
    const seller = company(r);
    const paid = amount(r, 40, 2400);
    blocks.push(
      heading(pick(r, ['Payment Receipt', 'Receipt for your payment', 'RECEIPT'])),
      para(seller, street(r), city(r)),
      fields([
        ['Receipt number', `R-${int(r, 10000, 99999)}`],
        ['Date paid', formatDate(when, int(r, 0, 3))],
        ['Payment method', pick(r, ['Visa ending 4242', 'Mastercard ending 1881', 'PayPal', 'Apple Pay'])],
      ]),
      para(`Received from ${person(r)} the sum of ${money(paid, symbol)} with thanks.`),
      table([
        ['Description', 'Amount'],
        [`Payment for invoice INV-${int(r, 1000, 9999)}`, money(paid, symbol)],
      ]),
      fields([['Amount paid', money(paid, symbol)], ['Balance remaining', money(0, symbol)]]),
      para(pick(r, ['Thank you for your payment.', 'This receipt confirms your payment has been received.', 'Please keep this receipt for your records.'])),
    );
    return { kind: 'receipt', pages: [{ blocks }] };
  }
  const shop = variant === 2 ? pick(r, ['The Olive Tree Restaurant', 'Corner Deli & Cafe', 'Bean There Coffee']) : pick(r, SHOPS);
  const goods = variant === 2 ? MEALS : GROCERIES;
  const lines = sample(r, goods, int(r, 3, 9)).map((name) => ({ name, price: amount(r, 0.6, variant === 2 ? 16 : 9) }));
  const subtotal = lines.reduce((s, l) => s + l.price, 0);
  const total = subtotal;
  if (variant === 0) blocks.push(para(shop));
  else blocks.push(heading(shop));
  blocks.push(para(street(r), city(r), `Tel ${digits(r, 5)} ${digits(r, 6)}`));
  if (chance(r, 0.6)) blocks.push(para(pick(r, ['SALES RECEIPT', 'Receipt', 'CUSTOMER RECEIPT', 'TAX RECEIPT', 'Customer copy'])));
  blocks.push(para(`${formatDate(when, 1)} ${time}`, `${pick(r, ['Cashier', 'Served by', 'Operator', 'Server'])}: ${pick(r, FIRST)}`, `${pick(r, ['Trans', 'Receipt #', 'Till 3 Trans', 'Order #', 'Check #'])} ${int(r, 1000, 99999)}`));
  if (variant === 2) blocks.push(para(`Table ${int(r, 1, 30)} Guests ${int(r, 1, 6)}`));
  if (chance(r, 0.5)) blocks.push(table(lines.map((l) => [l.name, money(l.price, symbol)])));
  else for (const l of lines) blocks.push(item(`${int(r, 1, 3)} x ${l.name} ${money(l.price, symbol)}`));
  const card = chance(r, 0.65);
  const paidLines: Array<[string, string]> = [
    ['SUBTOTAL', money(subtotal, symbol)],
    [pick(r, ['VAT included', 'Tax', 'Sales tax']), money(subtotal * 0.08, symbol)],
    [pick(r, ['TOTAL', 'Total', 'TOTAL TO PAY', 'Amount']), money(total, symbol)],
  ];
  if (variant === 2 && chance(r, 0.7)) paidLines.push([pick(r, ['Tip', 'Gratuity', 'Service charge']), money(total * 0.1, symbol)]);
  if (card) paidLines.push([pick(r, ['VISA', 'MASTERCARD', 'DEBIT CARD', 'CONTACTLESS']), money(total, symbol)], ['Card', `************${digits(r, 4)}`], ['Auth code', digits(r, 6)]);
  else paidLines.push(['CASH', money(Math.ceil(total / 5) * 5, symbol)], ['CHANGE', money(Math.ceil(total / 5) * 5 - total, symbol)]);
  blocks.push(fields(paidLines, chance(r, 0.4)));
  blocks.push(para(`Items: ${lines.length}`));
  const goodbye = pick(r, [
    'THANK YOU FOR SHOPPING WITH US',
    'Thank you for your visit. See you soon!',
    'Please keep your receipt. Refunds and exchanges within 28 days with proof of purchase.',
    'Thank you! Loyalty points earned today: 12',
    'This is not a VAT invoice. A full invoice is available on request.',
  ]);
  blocks.push(para(goodbye));
  if (card) blocks.push(para(pick(r, ['APPROVED', 'Transaction approved', 'PIN VERIFIED', 'Cardholder copy'])));
  return { kind: 'receipt', pages: [{ blocks }] };
}

// ---------------------------------------------------------------------------------------------
// Contracts

const CONTRACT_TITLES = ['SERVICE AGREEMENT', 'Consulting Agreement', 'EMPLOYMENT CONTRACT', 'Supply Agreement', 'NON-DISCLOSURE AGREEMENT', 'Lease Agreement', 'Master Services Agreement', 'Contract for Services'];
const ROLES: Record<string, [string, string]> = {
  'SERVICE AGREEMENT': ['Service Provider', 'Client'],
  'Consulting Agreement': ['Consultant', 'Company'],
  'EMPLOYMENT CONTRACT': ['Employer', 'Employee'],
  'Supply Agreement': ['Supplier', 'Buyer'],
  'NON-DISCLOSURE AGREEMENT': ['Disclosing Party', 'Receiving Party'],
  'Lease Agreement': ['Landlord', 'Tenant'],
  'Master Services Agreement': ['Provider', 'Customer'],
  'Contract for Services': ['Contractor', 'Client'],
};

/** Clause headings with sentence templates; {A} and {B} are the parties' roles. */
const CLAUSES: Array<[string, string[]]> = [
  ['Definitions', [
    'In this Agreement the following words shall have the meanings given to them below unless the context requires otherwise.',
    '"Confidential Information" means all information disclosed by one party to the other, whether in writing or orally.',
    '"Effective Date" means the date on which this Agreement is signed by both parties.',
    'Headings are for convenience only and shall not affect the interpretation of this Agreement.',
  ]],
  ['Scope of Services', [
    'The {A} shall provide the services described in Schedule 1 with reasonable skill, care and diligence.',
    'The {A} shall comply with all applicable laws and the reasonable instructions of the {B}.',
    'Any change to the scope shall be agreed in writing by both parties before work begins.',
    'The {B} shall provide the {A} with access to its premises and information as reasonably required.',
  ]],
  ['Term', [
    'This Agreement shall commence on the Effective Date and continue for an initial term of twelve (12) months.',
    'Thereafter this Agreement shall renew automatically for successive periods of one year unless terminated in accordance with its terms.',
    'The parties may extend the term by mutual written agreement.',
  ]],
  ['Fees and Payment', [
    'In consideration of the services the {B} shall pay the fees set out in Schedule 2.',
    'The {A} shall invoice the {B} monthly in arrears and the {B} shall pay each invoice within thirty (30) days of receipt.',
    'All sums payable under this Agreement are exclusive of VAT, which shall be payable in addition.',
    'Interest on late payment shall accrue at the rate of 4% per annum above the base rate.',
  ]],
  ['Remuneration', [
    'The {B} shall receive a gross annual salary payable monthly in arrears by bank transfer.',
    'The salary shall be reviewed annually without any obligation to increase it.',
    'The {A} shall deduct income tax and national insurance contributions as required by law.',
  ]],
  ['Confidentiality', [
    'Each party shall keep confidential all Confidential Information of the other party and shall not disclose it to any third party.',
    'The obligations of confidentiality shall survive termination of this Agreement for a period of five (5) years.',
    'This clause shall not apply to information that is or becomes publicly available through no fault of the receiving party.',
  ]],
  ['Intellectual Property', [
    'All intellectual property rights in the deliverables shall vest in the {B} upon full payment.',
    'The {A} hereby grants the {B} a non-exclusive licence to use any pre-existing materials incorporated in the deliverables.',
  ]],
  ['Warranties', [
    'Each party warrants that it has full power and authority to enter into this Agreement.',
    'The {A} warrants that the services will be performed in a professional and workmanlike manner.',
  ]],
  ['Limitation of Liability', [
    'Neither party shall be liable for any indirect, special or consequential loss arising under this Agreement.',
    'The total liability of the {A} shall not exceed the fees paid in the twelve months preceding the claim.',
    'Nothing in this Agreement limits liability for death or personal injury caused by negligence.',
  ]],
  ['Termination', [
    'Either party may terminate this Agreement by giving not less than thirty (30) days written notice to the other.',
    'Either party may terminate this Agreement immediately if the other commits a material breach which is not remedied within fourteen days.',
    'Upon termination the {B} shall pay all sums due for services performed up to the date of termination.',
  ]],
  ['Force Majeure', [
    'Neither party shall be in breach of this Agreement if it is prevented from performing its obligations by events beyond its reasonable control.',
    'The affected party shall notify the other party promptly and use reasonable endeavours to mitigate the effect.',
  ]],
  ['Notices', [
    'Any notice under this Agreement shall be in writing and delivered by hand, by recorded post or by email to the address stated above.',
    'A notice shall be deemed received two business days after posting.',
  ]],
  ['Governing Law and Jurisdiction', [
    'This Agreement and any dispute arising out of it shall be governed by the laws of England and Wales.',
    'The parties irrevocably submit to the exclusive jurisdiction of the courts of England and Wales.',
  ]],
  ['Entire Agreement', [
    'This Agreement constitutes the entire agreement between the parties and supersedes all prior negotiations, representations and understandings.',
    'No variation of this Agreement shall be effective unless it is in writing and signed by the parties or their authorised representatives.',
    'If any provision of this Agreement is held invalid, the remaining provisions shall continue in full force and effect.',
  ]],
];

export function contract(seed: number, pageCount = 1): FixtureDocument {
  const r = random(seed);
  const title = pick(r, CONTRACT_TITLES);
  const [roleA, roleB] = ROLES[title]!;
  const partyA = company(r);
  const partyBIsPerson = title === 'EMPLOYMENT CONTRACT' || title === 'Lease Agreement';
  const partyB = partyBIsPerson ? person(r) : company(r);
  const signed = day(r);
  const fill = (text: string) => text.replaceAll('{A}', roleA).replaceAll('{B}', roleB);
  const clauses = CLAUSES.filter(([name]) => (name === 'Remuneration') === (title === 'EMPLOYMENT CONTRACT') || name === 'Definitions');
  const numbered = chance(r, 0.7);
  const reference = chance(r, 0.5) ? `Contract No. ${pick(r, ['C', 'AGR', 'MSA'])}-${int(r, 100, 9999)}` : '';

  const pages: FixturePage[] = Array.from({ length: pageCount }, () => ({ blocks: [] as FixtureBlock[] }));
  const first = pages[0]!.blocks;
  first.push(heading(title));
  if (reference) first.push(para(reference));
  first.push(
    para(
      `This ${title.toLowerCase().replace(/\b\w/g, (c) => c.toUpperCase())} (the "Agreement") is made on ${formatDate(signed, 0)}`,
      `BETWEEN: (1) ${partyA}, whose registered office is at ${street(r)}, ${city(r)} (the "${roleA}"); and`,
      `(2) ${partyB} of ${street(r)}, ${city(r)} (the "${roleB}").`,
    ),
    para(`WHEREAS the ${roleB} wishes to engage the ${roleA} and the ${roleA} has agreed to act on the terms set out below.`),
    para('NOW IT IS AGREED as follows:'),
  );
  // Clauses flow over the pages: about 3 per page, the signature block on the last.
  const perPage = Math.max(2, Math.ceil(clauses.length / pageCount));
  let clauseNumber = 0;
  for (let p = 0; p < pageCount; p++) {
    const blocks = pages[p]!.blocks;
    const mine = pageCount === 1 ? sample(r, clauses, 4) : clauses.slice(p * perPage, (p + 1) * perPage);
    if (p > 0 && mine.length === 0) blocks.push(para(fill(pick(r, CLAUSES[13]![1]))));
    for (const [name, sentences] of mine) {
      clauseNumber++;
      blocks.push(heading(numbered ? `${clauseNumber}. ${name}` : name.toUpperCase(), 2));
      const chosen = sample(r, sentences, int(r, 2, sentences.length));
      chosen.forEach((s, i) => blocks.push(para(numbered ? `${clauseNumber}.${i + 1} ${fill(s)}` : fill(s))));
    }
    if (p === pageCount - 1) {
      blocks.push(
        para('IN WITNESS WHEREOF the parties have executed this Agreement on the date first written above.'),
        table([
          [`Signed for and on behalf of the ${roleA}`, `Signed by the ${roleB}`],
          ['Signature: ____________', 'Signature: ____________'],
          [`Name: ${person(r)}`, `Name: ${partyBIsPerson ? partyB : person(r)}`],
          [`Date: ${formatDate(signed, 1)}`, `Date: ${formatDate(signed, 1)}`],
        ]),
      );
    }
    if (pageCount > 1) blocks.push(para(chance(r, 0.5) ? `Page ${p + 1} of ${pageCount}` : `${p + 1}`));
  }
  return { kind: 'contract', pages, ...(reference ? { number: reference.replace('Contract No. ', '') } : {}) };
}

// ---------------------------------------------------------------------------------------------
// Bank statements

const BANKS = ['Northbank', 'Harbor Savings Bank', 'First Meridian Bank', 'Crown & Anchor Bank', 'Unity Credit Union', 'Lakeside Federal'];
const PAYEES = ['TESCO STORES 2231', 'SAINSBURYS S/MKT', 'AMAZON MKTPLACE', 'SHELL FUEL', 'NETFLIX.COM', 'TFL TRAVEL CH', 'COSTA COFFEE', 'BOOTS PHARMACY', 'UBER TRIP', 'IKEA LTD', 'PRET A MANGER', 'SPOTIFY'];
const DEBITS = ['DIRECT DEBIT BRITISH GAS', 'DIRECT DEBIT COUNCIL TAX', 'STANDING ORDER RENT', 'DD VODAFONE LTD', 'DD THAMES WATER', 'INSURANCE PREMIUM AVIVA', 'LOAN REPAYMENT'];

export function bankStatement(seed: number, pageCount = 1): FixtureDocument {
  const r = random(seed);
  const bank = pick(r, BANKS);
  const holder = chance(r, 0.7) ? person(r).toUpperCase() : company(r);
  const symbol = pick(r, ['£', '$', '€']);
  const start = day(r);
  const end = addDays(start, 30);
  const dateStyle = int(r, 0, 3);
  const accountNumber = digits(r, 8);
  const number = `${int(r, 100, 999)}`;
  const title = pick(r, ['Statement of Account', 'ACCOUNT STATEMENT', 'Current Account Statement', 'Your monthly statement', 'Business Account Statement', 'CHECKING ACCOUNT STATEMENT']);
  const columns = pick(r, [
    ['Date', 'Description', 'Money out', 'Money in', 'Balance'],
    ['Date', 'Details', 'Debit', 'Credit', 'Balance'],
    ['Date', 'Transaction', 'Withdrawals', 'Deposits', 'Balance'],
    ['Posted', 'Description', 'Paid out', 'Paid in', 'Balance'],
  ]);
  let balance = amount(r, 200, 9000);
  const opening = balance;
  const pages: FixturePage[] = [];
  let credits = 0;
  let debits = 0;
  for (let p = 0; p < pageCount; p++) {
    const blocks: FixtureBlock[] = [];
    if (p === 0) {
      blocks.push(heading(bank), para(title));
      blocks.push(para(holder, street(r), city(r)));
      blocks.push(
        fields([
          ['Account number', accountNumber],
          [pick(r, ['Sort code', 'Routing number', 'Branch']), pick(r, [`${digits(r, 2)}-${digits(r, 2)}-${digits(r, 2)}`, digits(r, 9)])],
          ['Statement period', `${formatDate(start, dateStyle)} to ${formatDate(end, dateStyle)}`],
          ...(chance(r, 0.5) ? [['Statement No', number] as [string, string]] : []),
        ]),
      );
      if (chance(r, 0.6)) blocks.push(fields([['Opening balance', money(opening, symbol)], ['IBAN', `GB${digits(r, 2)} NWBK ${digits(r, 4)} ${digits(r, 4)} ${digits(r, 6)}`]]));
    } else {
      blocks.push(para(`${bank} ${title}`), para(`Account ${accountNumber} continued`));
    }
    const rows: string[][] = [columns];
    rows.push(['', p === 0 ? 'Opening balance' : 'Balance brought forward', '', '', money(balance, symbol)]);
    const count = int(r, 12, 20);
    for (let t = 0; t < count; t++) {
      const date = formatDate(addDays(start, Math.floor(((p * count + t) / (pageCount * count)) * 30)), dateStyle);
      const kind = r();
      let description: string;
      let out = 0;
      let inn = 0;
      if (kind < 0.45) {
        description = `CARD PAYMENT ${pick(r, PAYEES)}`;
        out = amount(r, 2, 140);
      } else if (kind < 0.65) {
        description = pick(r, DEBITS);
        out = amount(r, 20, 900);
      } else if (kind < 0.75) {
        description = `ATM WITHDRAWAL ${pick(r, STREETS).toUpperCase()}`;
        out = pick(r, [20, 40, 50, 100]);
      } else if (kind < 0.85) {
        description = `TRANSFER ${pick(r, ['TO', 'FROM'])} ${person(r).toUpperCase()}`;
        if (description.includes(' TO ')) out = amount(r, 10, 500);
        else inn = amount(r, 10, 500);
      } else if (kind < 0.93) {
        // Distractors: a salary credit (payslip words) and an invoice payment (invoice words).
        description = pick(r, [`SALARY ${company(r).toUpperCase()}`, `FASTER PAYMENT INV ${int(r, 1000, 9999)}`, 'BGC PAYROLL']);
        inn = amount(r, 900, 3800);
      } else {
        description = pick(r, ['INTEREST PAID', 'CASH DEPOSIT', 'REFUND AMAZON', 'MONTHLY ACCOUNT FEE']);
        if (description.includes('FEE')) out = 5;
        else inn = amount(r, 0.5, 300);
      }
      balance = Math.round((balance - out + inn) * 100) / 100;
      credits += inn;
      debits += out;
      rows.push([date, description, out ? money(out, symbol) : '', inn ? money(inn, symbol) : '', money(balance, symbol)]);
    }
    rows.push(['', p === pageCount - 1 ? 'Closing balance' : 'Balance carried forward', '', '', money(balance, symbol)]);
    blocks.push(table(rows));
    if (p === pageCount - 1) {
      blocks.push(fields([['Total money out', money(debits, symbol)], ['Total money in', money(credits, symbol)], ['Closing balance', money(balance, symbol)]]));
      blocks.push(para(pick(r, [
        'Please check this statement carefully and tell us about any entries you do not recognise.',
        'Your eligible deposits are protected up to £85,000 by the Financial Services Compensation Scheme.',
        'Overdraft interest is charged at 39.9% EAR (variable). See our tariff for details of account fees.',
      ])));
    }
    if (pageCount > 1 || chance(r, 0.5)) blocks.push(para(`Page ${p + 1} of ${pageCount}`));
    pages.push({ blocks });
  }
  return { kind: 'bank_statement', pages, number };
}

// ---------------------------------------------------------------------------------------------
// Payslips

export function payslip(seed: number): FixtureDocument {
  const r = random(seed);
  const employer = company(r);
  const employee = person(r);
  const us = chance(r, 0.35);
  const symbol = us ? '$' : '£';
  const paid = day(r);
  const basic = amount(r, 1400, 6200);
  const overtime = chance(r, 0.5) ? amount(r, 50, 600) : 0;
  const bonus = chance(r, 0.3) ? amount(r, 100, 1500) : 0;
  const gross = basic + overtime + bonus;
  const taxLabel = us ? 'Federal Income Tax' : pick(r, ['Income Tax', 'PAYE Tax', 'Tax']);
  const tax = gross * 0.18;
  const social = gross * (us ? 0.0765 : 0.08);
  const pension = gross * 0.05;
  const net = gross - tax - social - pension;
  const title = pick(r, us ? ['EARNINGS STATEMENT', 'Pay Stub', 'Statement of Earnings and Deductions'] : ['PAYSLIP', 'Payslip', 'Pay Slip', 'Salary Slip', 'Pay Advice']);
  const blocks: FixtureBlock[] = [];
  if (chance(r, 0.5)) blocks.push(heading(title), para(employer, street(r), city(r)));
  else blocks.push(para(employer), para(title));
  blocks.push(
    fields([
      ['Employee', employee],
      ['Employee No', `E${int(r, 1000, 99999)}`],
      [us ? 'SSN' : 'NI Number', us ? `XXX-XX-${digits(r, 4)}` : `QQ ${digits(r, 2)} ${digits(r, 2)} ${digits(r, 2)} C`],
      ...(us ? [] : [['Tax Code', pick(r, ['1257L', 'BR', '1100L'])] as [string, string]]),
      ['Department', pick(r, ['Finance', 'Warehouse', 'Sales', 'Engineering', 'Customer Care'])],
      [pick(r, ['Pay Date', 'Payment date', 'Paid on']), formatDate(paid, int(r, 0, 3))],
      [pick(r, ['Pay Period', 'Period', 'Period ending']), pick(r, [`Month ${paid.m}`, formatDate(paid, 1), `${MONTHS[paid.m - 1]} ${paid.y}`])],
    ], chance(r, 0.7)),
  );
  const earnings: string[][] = [['Earnings', 'Hours', 'Rate', 'Amount'], ['Basic Salary', us ? '80.00' : '', '', money(basic, symbol)]];
  if (overtime) earnings.push(['Overtime', String(int(r, 2, 20)), money(amount(r, 15, 40), symbol), money(overtime, symbol)]);
  if (bonus) earnings.push([pick(r, ['Bonus', 'Commission']), '', '', money(bonus, symbol)]);
  blocks.push(table(earnings));
  const deductions: string[][] = [
    ['Deductions', 'Amount', 'Year to date'],
    [taxLabel, money(tax, symbol), money(tax * paid.m, symbol)],
    [us ? 'Social Security' : 'National Insurance', money(social, symbol), money(social * paid.m, symbol)],
    [us ? '401(k)' : 'Pension', money(pension, symbol), money(pension * paid.m, symbol)],
  ];
  if (us) deductions.push(['Medicare', money(gross * 0.0145, symbol), money(gross * 0.0145 * paid.m, symbol)]);
  if (!us && chance(r, 0.3)) deductions.push(['Student Loan', money(amount(r, 20, 120), symbol), '']);
  blocks.push(table(deductions));
  blocks.push(fields([['Gross Pay', money(gross, symbol)], ['Total Deductions', money(tax + social + pension, symbol)], [pick(r, ['Net Pay', 'NET PAY', 'Take home pay']), money(net, symbol)]], chance(r, 0.5)));
  if (chance(r, 0.6)) blocks.push(para(`Paid by ${pick(r, ['BACS', 'bank transfer', 'direct deposit'])} to account ****${digits(r, 4)}`));
  if (chance(r, 0.4)) blocks.push(para(pick(r, ['Private and confidential', 'Please retain this statement for your records.', 'Queries about your pay should be raised with the payroll team.'])));
  return { kind: 'payslip', pages: [{ blocks }] };
}

// ---------------------------------------------------------------------------------------------
// Packing lists

export function packingList(seed: number, pageCount = 1): FixtureDocument {
  const r = random(seed);
  const shipper = company(r);
  const consignee = company(r);
  const shipped = day(r);
  const pages: FixturePage[] = [];
  const rows = Array.from({ length: 10 * pageCount }, () => [`SKU-${int(r, 10000, 99999)}`, pick(r, GOODS), String(int(r, 1, 40)), String(int(r, 1, 40)), `${amount(r, 0.2, 30).toFixed(1)} kg`]);
  const header = ['SKU', 'Description', 'Qty ordered', 'Qty shipped', 'Weight'];
  for (let p = 0; p < pageCount; p++) {
    const blocks: FixtureBlock[] = [];
    if (p === 0) {
      blocks.push(
        heading(pick(r, ['PACKING LIST', 'Packing Slip', 'Delivery Note'])),
        para(`Shipper: ${shipper}`, street(r), city(r)),
        para(`Ship to: ${consignee}`, street(r), city(r)),
        fields([
          ['Order No', `SO-${int(r, 10000, 99999)}`],
          ['Ship date', formatDate(shipped, 0)],
          ['Carrier', pick(r, ['DHL Express', 'UPS Ground', 'DPD', 'FedEx'])],
          ['Tracking number', `1Z${digits(r, 16)}`],
          ...(chance(r, 0.5) ? [['Invoice ref', `INV-${int(r, 1000, 9999)}`] as [string, string]] : []),
        ]),
      );
    }
    blocks.push(table([header, ...rows.slice(p * 10, (p + 1) * 10)]));
    if (p === pageCount - 1) {
      blocks.push(fields([['Total cartons', String(int(r, 2, 30))], ['Gross weight', `${amount(r, 10, 400).toFixed(1)} kg`]]));
      blocks.push(para('Packed by: ________ Checked by: ________ Received in good condition by: ________'));
    }
    if (pageCount > 1) blocks.push(para(`Page ${p + 1} of ${pageCount}`));
    pages.push({ blocks });
  }
  return { kind: 'packing_list', pages };
}

// ---------------------------------------------------------------------------------------------
// Test sets

/** 8 documents of each of the 5 kinds (40), varied seeds and lengths, shuffled deterministically. */
export function classificationCorpus(seed = 1): FixtureDocument[] {
  const docs: FixtureDocument[] = [];
  for (let i = 0; i < 8; i++) {
    const s = seed * 1000 + i * 17;
    docs.push(invoice({ seed: s + 1, pages: 1 + (i % 3 === 0 ? 1 : 0) }));
    docs.push(receipt(s + 2));
    docs.push(contract(s + 3, 1 + (i % 4)));
    docs.push(bankStatement(s + 4, 1 + (i % 2)));
    docs.push(payslip(s + 5));
  }
  const r = random(seed);
  return sample(r, docs, docs.length);
}

function bundleOf(documents: FixtureDocument[]): FixtureBundle {
  const pages: FixturePage[] = [];
  const out: FixtureBundle['documents'] = [];
  for (const doc of documents) {
    const numbers = doc.pages.map((_, i) => pages.length + i + 1);
    pages.push(...doc.pages);
    out.push({ kind: doc.kind, pages: numbers, ...(doc.number ? { number: doc.number } : {}) });
  }
  return { pages, documents: out };
}

/**
 * The 20-page mixed bundle: invoice (2), invoice (1), packing list (2), contract (7), invoice (2),
 * bank statement (6); with `shuffle`, the same six documents in an order the seed picks.
 */
export function mixedBundle(seed = 7, options: { shuffle?: boolean } = {}): FixtureBundle {
  const documents = [
    invoice({ seed: seed * 10 + 1, pages: 2, continuation: 'none' }),
    invoice({ seed: seed * 10 + 2, pages: 1 }),
    packingList(seed * 10 + 3, 2),
    contract(seed * 10 + 4, 7),
    invoice({ seed: seed * 10 + 5, pages: 2, continuation: 'pageOf' }),
    bankStatement(seed * 10 + 6, 6),
  ];
  return bundleOf(options.shuffle ? sample(random(seed), documents, documents.length) : documents);
}

/**
 * 12 pages of 5 invoices (3, 2, 1, 3, 3 pages): continuation pages without the number, with
 * "Page k of n", or with the header repeated; numbers printed in varied ways.
 */
export function invoiceRun(seed = 11): FixtureBundle & { numbers: string[] } {
  const specs: Array<{ pages: number; number: string; continuation: InvoiceOptions['continuation'] }> = [
    { pages: 3, number: 'INV-5101', continuation: 'none' },
    { pages: 2, number: 'INV-5102', continuation: 'pageOf' },
    { pages: 1, number: 'INV-5103', continuation: 'none' },
    { pages: 3, number: 'INV/2024/0117', continuation: 'repeat' },
    { pages: 3, number: 'F-20931', continuation: 'mixed' },
  ];
  const bundle = bundleOf(specs.map((s, i) => invoice({ seed: seed * 100 + i, pages: s.pages, number: s.number, continuation: s.continuation })));
  return { ...bundle, numbers: specs.map((s) => s.number) };
}

/** Where a document's totals start: the blocks after its (last) items table. */
function splitAtTotals(page: FixturePage): [FixtureBlock[], FixtureBlock[]] {
  const last = page.blocks.map((b) => b.kind).lastIndexOf('table');
  return [page.blocks.slice(0, last + 1), page.blocks.slice(last + 1)];
}

/**
 * Three invoices printed back to back, sharing pages (4 pages):
 * 1: INV-7001 (header, items) · 2: INV-7001's totals, then INV-7002 (header, items) ·
 * 3: INV-7002 continued (number repeated, items, totals), then the start of INV-7003 (3 lines) ·
 * 4: INV-7003's items and totals.
 * `overlap` is the truth with allow_overlap (shared pages in both), `dominant` without it (a shared
 * page goes to the invoice that fills most of it).
 */
export function invoicesSharingPages(seed = 5): FixtureBundle & { overlap: Array<{ key: string; pages: number[] }>; dominant: Array<{ key: string; pages: number[] }> } {
  const a = invoice({ seed: seed * 10 + 1, pages: 1, number: 'INV-7001', continuation: 'none' });
  const b = invoice({ seed: seed * 10 + 2, pages: 2, number: 'INV-7002', continuation: 'none' });
  const c = invoice({ seed: seed * 10 + 3, pages: 1, number: 'INV-7003', continuation: 'none' });
  const r = random(seed);
  const [aHead, aTotals] = splitAtTotals(a.pages[0]!);
  const cBody = c.pages[0]!.blocks.slice(c.pages[0]!.blocks.findIndex((block) => block.kind === 'table' && block.rows?.[0]?.length === 4 && block.rows.length > 2));
  const pages: FixturePage[] = [
    { blocks: aHead },
    { blocks: [...aTotals, ...b.pages[0]!.blocks] },
    {
      blocks: [
        para(`Invoice ${b.number} (continued)`),
        ...b.pages[1]!.blocks,
        para(company(r)),
        para(`Invoice No: ${c.number}`),
        para(`Invoice Date: ${formatDate(day(r), 0)}`),
      ],
    },
    { blocks: cBody },
  ];
  return {
    pages,
    documents: [
      { kind: 'invoice', number: 'INV-7001', pages: [1, 2] },
      { kind: 'invoice', number: 'INV-7002', pages: [2, 3] },
      { kind: 'invoice', number: 'INV-7003', pages: [3, 4] },
    ],
    overlap: [
      { key: 'INV-7001', pages: [1, 2] },
      { key: 'INV-7002', pages: [2, 3] },
      { key: 'INV-7003', pages: [3, 4] },
    ],
    dominant: [
      { key: 'INV-7001', pages: [1] },
      { key: 'INV-7002', pages: [2, 3] },
      { key: 'INV-7003', pages: [4] },
    ],
  };
}

/** A long file: mixed bundles one after another (20 pages each), for timing. */
export function longBundle(pageCount: number, seed = 3): FixtureBundle {
  const docs: FixtureDocument[] = [];
  let pages = 0;
  for (let i = 0; pages < pageCount; i++) {
    const bundle = [
      invoice({ seed: seed + i * 10 + 1, pages: 2 }),
      contract(seed + i * 10 + 2, 5),
      bankStatement(seed + i * 10 + 3, 4),
      receipt(seed + i * 10 + 4),
      payslip(seed + i * 10 + 5),
      invoice({ seed: seed + i * 10 + 6, pages: 1 }),
      packingList(seed + i * 10 + 7, 1),
      contract(seed + i * 10 + 8, 3),
      bankStatement(seed + i * 10 + 9, 2),
    ];
    for (const doc of bundle) {
      if (pages >= pageCount) break;
      const take = doc.pages.slice(0, pageCount - pages);
      docs.push({ ...doc, pages: take });
      pages += take.length;
    }
  }
  return bundleOf(docs);
}

// ---------------------------------------------------------------------------------------------
// Fixture → Doc

/** A page's printed lines, in reading order (what a renderer draws). */
export function pageText(page: FixturePage): string[] {
  return page.blocks.flatMap((b) => b.lines);
}

/** Builds the Doc a reader would produce: blocks with lines and words, table blocks with cells. */
export function fixtureDoc(pages: readonly FixturePage[]): Doc {
  let textLine = 0;
  return {
    kind: 'txt',
    pages: pages.map((fixture, index) => {
      const page: Page = { number: index + 1, width: 0, height: 0, unit: 'none', ocr: false, words: [], lines: [], blocks: [], tables: [] };
      const addLine = (text: string): { line: number; words: number[] } => {
        textLine++;
        const words: number[] = [];
        for (const match of text.matchAll(/\S+/g)) {
          const word: Word = { text: match[0], origin: { kind: 'text', lineStart: textLine, lineEnd: textLine, charStart: match.index, charEnd: match.index + match[0].length } };
          words.push(page.words.push(word) - 1);
        }
        return { line: page.lines.push({ text, words }) - 1, words };
      };
      for (const fb of fixture.blocks) {
        if (fb.kind === 'table' && fb.rows) {
          const t: Table = { rowCount: fb.rows.length, columnCount: Math.max(...fb.rows.map((r) => r.length)), headerRows: 1, cells: [] };
          const lines: number[] = [];
          fb.rows.forEach((row, r) => {
            const { line, words } = addLine(row.filter((c) => c !== '').join(' '));
            lines.push(line);
            let w = 0;
            row.forEach((cell, c) => {
              const count = cell.split(/\s+/).filter(Boolean).length;
              t.cells.push({ row: r, column: c, rowSpan: 1, columnSpan: 1, text: cell, words: words.slice(w, w + count) });
              w += count;
            });
          });
          page.tables.push(t);
          page.blocks.push({ kind: 'table', text: fb.rows.map((r) => r.join('\t')).join('\n'), lines, table: page.tables.length - 1 });
        } else {
          const lines = fb.lines.map((l) => addLine(l).line);
          const block: Block = { kind: fb.kind === 'table' ? 'paragraph' : fb.kind, text: fb.lines.join(fb.kind === 'paragraph' ? '\n' : ' '), lines };
          if (fb.level !== undefined && fb.kind === 'heading') block.level = fb.level;
          page.blocks.push(block);
        }
      }
      return page;
    }),
  };
}
