/**
 * The dashboard in a real browser (playwright-core driving Debian's chromium, headless) against the
 * local cloud: the first sign-in through the URL `quire members create` prints, API keys created
 * and revoked in both environments (a revoked key answers 401 at once), the session that cannot
 * call /v1, and an extraction's values boxed on its page. One browser for the file, one page reused.
 * Screenshots go to .tmp/dashboard-shots/ (not committed) when QUIRE_DASHBOARD_SHOTS is set.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../lib/local/invoker.ts';
import { dataUrl, startTestCloud, type TestCloud } from '../support/cloud.ts';
import { textPdf } from '../support/text-pdf.ts';
import { tablesPdf } from '../support/table-fixtures.ts';

const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) => existsSync(path));
const SHOTS = process.env.QUIRE_DASHBOARD_SHOTS ? join(REPO_ROOT, '.tmp', 'dashboard-shots') : undefined;

let cloud: TestCloud;
let browser: Browser;
let page: Page;
let extractionId: string;
let locatedLeaves: number;

async function shot(name: string) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

/** `quire members create ... --json`, as an administrator runs it against the running stack. */
function membersCreate(args: string[]): Promise<{ sign_in_url: string; role: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'bin/quire.ts'), 'members', 'create', ...args, '--json'], {
      cwd: REPO_ROOT,
      env: { ...process.env, QUIRE_DATA_DIR: cloud.dataDir },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`quire members create exited ${code}: ${err}`))));
  });
}

const status = async (key: string) => (await fetch(`${cloud.url}/v1/auth/status`, { headers: { authorization: `Bearer ${key}` } })).status;

beforeAll(async () => {
  if (!CHROMIUM) throw new Error('This test needs Debian chromium: apt-get install chromium');
  cloud = await startTestCloud();
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  // An extraction in the test environment, made through the API as a program would.
  const pdf = await textPdf([['ACME Supplies Ltd', 'Invoice number: INV-2041', 'Invoice date: 2026-03-14', 'Bill to: Globex Corporation', 'Total due: 1,234.50 EUR']]);
  const created = await cloud.api('POST', '/v1/extractions', {
    body: {
      document: { filename: 'invoice-2041.pdf', url: dataUrl('application/pdf', Buffer.from(pdf)) },
      json_schema: { type: 'object', properties: { invoice_number: { type: 'string' }, invoice_date: { type: 'string' }, total: { type: 'number' }, customer_name: { type: 'string' } } },
    },
  });
  expect(created.status, created.text).toBe(201);
  extractionId = created.body.id;
  const sources = await cloud.api('GET', `/v1/extractions/${extractionId}/sources`);
  locatedLeaves = Object.values(sources.body.sources as Record<string, { source: { anchor?: { kind: string } } | null }>).filter((leaf) => leaf.source?.anchor?.kind === 'pdf_bbox').length;
  expect(locatedLeaves).toBeGreaterThanOrEqual(2);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await cloud?.close();
});

describe('dashboard in a browser', () => {
  it('first sign-in: the one-time URL printed by `quire members create` signs the owner in, once', async () => {
    const made = await membersCreate(['--email', 'owner@example.com', '--org', cloud.orgId]);
    expect(made.role).toBe('owner');
    expect(made.sign_in_url).toMatch(new RegExp(`^${cloud.url}/dashboard/sign-in/link\\?token=[A-Za-z0-9_-]{43}$`));
    await page.goto(made.sign_in_url);
    await shot('sign-in-link');
    await page.getByRole('button', { name: 'Continue to the dashboard' }).click();
    await page.waitForURL(/\/dashboard\/runs\?env=test$/);
    await expect.poll(() => page.locator('h1').textContent()).toBe('Runs');
    expect(await page.locator('header .who').textContent()).toContain('owner@example.com');

    // The link is spent: a second visit does not sign anyone in.
    const other = await browser.newPage();
    await other.goto(made.sign_in_url);
    await other.getByRole('button', { name: 'Continue to the dashboard' }).click();
    expect(await other.locator('[role=alert]').textContent()).toMatch(/not valid/);
    await other.close();
  });

  it('creates a key shown once and revokes it (401 at once), in the test and the production environment', async () => {
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.waitForURL(/\/dashboard\/keys\?env=test$/);
    for (const [env, prefix] of [['test', 'rt_test_'], ['production', 'rt_live_']] as const) {
      await page.getByLabel('Environment').selectOption(env);
      await page.waitForURL(new RegExp(`/dashboard/keys\\?env=${env}$`));
      await page.getByLabel('Name').fill(`browser ${env} key`);
      await page.getByLabel('Role').selectOption('operator');
      await page.getByRole('button', { name: 'Create key' }).click();
      const key = (await page.getByTestId('new-key').textContent())!.trim();
      expect(key.startsWith(prefix), key).toBe(true);
      // The POST redirected: reloading the page neither shows the key again nor creates a second one.
      expect(page.url()).toMatch(new RegExp(`/dashboard/keys\\?env=${env}$`));
      await page.reload();
      expect(await page.getByTestId('new-key').count()).toBe(0);
      expect(await page.locator('tr', { hasText: `browser ${env} key` }).count()).toBe(1);
      await expect.poll(() => status(key)).toBe(200);
      const who = await cloud.api('GET', '/v1/auth/status', { key });
      expect(who.body).toMatchObject({ environment_slug: env, key: { name: `browser ${env} key`, role: 'operator', last4: key.slice(-4) } });
      if (env === 'test') await shot('keys-created');

      // Shown once: reloading the list shows its prefix and last 4, never the key.
      await page.goto(`${cloud.url}/dashboard/keys?env=${env}`);
      expect(await page.getByTestId('new-key').count()).toBe(0);
      expect(await page.content()).not.toContain(key);
      const row = page.locator('tr', { hasText: `browser ${env} key` });
      expect(await row.textContent()).toContain(key.slice(-4));
      // Used once through the API above: the list says when.
      expect(await row.locator('td').nth(6).textContent()).not.toContain('never');

      // Revoke asks first; dismissing keeps the key.
      page.once('dialog', (dialog) => void dialog.dismiss());
      await row.getByRole('button', { name: 'Revoke' }).click();
      expect(await status(key)).toBe(200);
      page.once('dialog', (dialog) => void dialog.accept());
      await row.getByRole('button', { name: 'Revoke' }).click();
      await page.waitForLoadState();
      await expect.poll(() => page.locator('tr', { hasText: `browser ${env} key` }).textContent()).toContain('revoked');
      expect(await status(key)).toBe(401);
    }
    // The keys of the harness in the other environment are untouched.
    expect(await status(cloud.keys.test)).toBe(200);
    expect(await status(cloud.keys.live)).toBe(200);
  });

  it('the session cookie cannot call /v1', async () => {
    const cookies = await page.context().cookies();
    expect(cookies.find((c) => c.name === 'quire_session')).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
    const viaContext = await page.request.get(`${cloud.url}/v1/auth/status`);
    expect(viaContext.status()).toBe(401);
    const viaPage = await page.evaluate(async () => (await fetch('/v1/files', { credentials: 'include' })).status);
    expect(viaPage).toBe(401);
  });

  it("shows an extraction's values boxed on its page: one box per located leaf, the value on hover, a click on a value shows its box", async () => {
    await page.goto(`${cloud.url}/dashboard/runs?env=test`);
    await page.getByLabel('Search').fill('invoice-2041');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.getByRole('link', { name: extractionId }).click();
    await page.waitForURL(/\/dashboard\/run\?/);
    await page.waitForSelector('body[data-pages-ready]', { timeout: 30_000 });
    expect(await page.locator('body').getAttribute('data-pages-ready')).toBe('true');
    expect(await page.locator('.page canvas').count()).toBe(1);
    const boxes = page.getByTestId('source-box');
    expect(await boxes.count()).toBe(locatedLeaves);
    // Boxes sit on the drawn page, with a size.
    const pageBox = (await page.locator('.page').first().boundingBox())!;
    for (const box of await boxes.all()) {
      const b = (await box.boundingBox())!;
      expect(b.width).toBeGreaterThan(2);
      expect(b.x).toBeGreaterThanOrEqual(pageBox.x);
      expect(b.y + b.height).toBeLessThanOrEqual(pageBox.y + pageBox.height + 1);
    }
    const invoiceBox = page.locator('[data-testid="source-box"][data-value^="invoice_number:"]');
    expect(await invoiceBox.getAttribute('data-value')).toBe('invoice_number: INV-2041');
    await invoiceBox.hover();
    expect(await invoiceBox.evaluate((el) => (globalThis as unknown as { getComputedStyle(e: unknown, p: string): { content: string } }).getComputedStyle(el, '::after').content)).toContain('INV-2041');
    await page.getByRole('button', { name: /invoice_number\s*INV-2041/ }).click();
    await expect.poll(() => invoiceBox.getAttribute('class')).toContain('active');
    await shot('extraction-boxes');
  });

  it('uploads a PDF and runs an extraction with a JSON Schema typed on the page, then shows its values boxed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'quire-dashboard-'));
    const path = join(dir, 'invoice-3090.pdf');
    writeFileSync(path, await textPdf([['Northwind Traders', 'Invoice number: INV-3090', 'Invoice date: 2026-05-02', 'Total due: 412.75 EUR']]));
    await page.goto(`${cloud.url}/dashboard/new?env=test`);
    // Only the fields of the chosen kind are shown.
    await page.getByLabel('Run', { exact: true }).selectOption('extraction');
    expect(await page.getByLabel(/Categories .* or subdocuments/).isVisible()).toBe(false);
    const schema = page.getByLabel(/JSON Schema/);
    expect(await schema.isVisible()).toBe(true);
    await page.getByLabel('Document', { exact: true }).setInputFiles(path);
    // The editor says at once when the text is not JSON of an object.
    await schema.fill('{"type": "object", "properties": {');
    await expect.poll(() => page.locator('#run-schema-check').textContent()).toContain('Not a JSON Schema yet');
    await schema.fill(JSON.stringify({ type: 'object', properties: { invoice_number: { type: 'string' }, invoice_date: { type: 'string' }, total: { type: 'number' } } }, null, 2));
    await expect.poll(() => page.locator('#run-schema-check').textContent()).toContain('3 top-level properties');
    await shot('new-extraction');
    await page.getByRole('button', { name: 'Start run' }).click();
    await page.waitForURL(/\/dashboard\/run\?env=test&kind=extraction&id=/);
    await expect.poll(() => page.locator('.meta .badge').first().textContent(), { timeout: 30_000 }).toBe('completed');
    await page.waitForSelector('body[data-pages-ready="true"]', { timeout: 30_000 });
    const boxes = page.getByTestId('source-box');
    expect(await boxes.count()).toBe(3);
    expect(await page.locator('[data-testid="source-box"][data-value^="invoice_number:"]').getAttribute('data-value')).toBe('invoice_number: INV-3090');
    expect(await page.locator('[data-testid="source-box"][data-value^="total:"]').getAttribute('data-value')).toBe('total: 412.75');
    await shot('new-extraction-run');

    // A form the server cannot start comes back with the reason, as typed.
    await page.goto(`${cloud.url}/dashboard/new?env=test&kind=extraction`);
    await page.getByLabel('Document', { exact: true }).setInputFiles(path);
    await page.getByLabel(/JSON Schema/).fill('{"type": "string"}');
    await page.getByRole('button', { name: 'Start run' }).click();
    await expect.poll(() => page.locator('[role=alert]').textContent()).toContain('json_schema must describe an object');
    expect(await page.getByLabel(/JSON Schema/).inputValue()).toBe('{"type": "string"}');
  }, 90_000);

  it("boxes a parse's words and tables on its page, each layer shown or hidden", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'quire-dashboard-'));
    const path = join(dir, 'survey.pdf');
    writeFileSync(path, (await tablesPdf()).bytes);
    await page.goto(`${cloud.url}/dashboard/new?env=test`);
    await page.getByLabel('Run', { exact: true }).selectOption('parse');
    await page.getByLabel('Document', { exact: true }).setInputFiles(path);
    await page.getByRole('button', { name: 'Start run' }).click();
    await page.waitForURL(/kind=parse&id=prs_/);
    await expect.poll(() => page.locator('.meta .badge').first().textContent(), { timeout: 30_000 }).toBe('completed');
    await page.waitForSelector('body[data-pages-ready="true"]', { timeout: 30_000 });
    const words = page.getByTestId('word-box');
    const count = Number(/^(\d+) words/.exec((await page.getByTestId('layout-count').textContent())!)![1]);
    expect(count).toBeGreaterThan(200);
    expect(await words.count()).toBe(count);
    expect(await page.getByTestId('table-box').count()).toBe(3);
    // A word's box sits over that word on the drawn page: "survey" is 90 pt from the left of 612.
    const pageBox = (await page.locator('.page').first().boundingBox())!;
    const survey = (await page.locator('[data-testid="word-box"][data-value="survey"]').boundingBox())!;
    expect((survey.x - pageBox.x) / pageBox.width).toBeCloseTo(0.147, 1);
    await page.locator('[data-testid="word-box"][data-value="survey"]').hover();
    await shot('parse-boxes');
    await page.getByLabel('words').uncheck();
    expect(await words.first().isVisible()).toBe(false);
    expect(await page.getByTestId('table-box').first().isVisible()).toBe(true);
    await page.getByLabel('tables').uncheck();
    expect(await page.getByTestId('table-box').first().isVisible()).toBe(false);
  }, 90_000);

  it('validates a table by rules typed on the tables page and shows the report', async () => {
    const csv = 'sku,price,email\nA-1,12.50,buyer@example.com\nA-2,-3,nobody\nA-2,4.00,shop@example.com\n';
    const created = await cloud.api('POST', '/v1/tables', { body: { name: 'price list', document: { filename: 'prices.csv', url: dataUrl('text/csv', csv) } } });
    expect(created.status, created.text).toBe(201);
    await page.goto(`${cloud.url}/dashboard/tables?env=test`);
    await page.locator('details.table-card summary', { hasText: 'price list' }).click();
    const rules = page.getByLabel(/Validation rules of price list/);
    expect(await rules.inputValue()).toContain('"required_columns"');
    await rules.fill(JSON.stringify({ required_columns: ['sku', 'price'], columns: { price: { minimum: 0 }, email: { format: 'email' } }, unique: [['sku']] }, null, 2));
    await page.getByRole('button', { name: 'Validate' }).click();
    const report = page.getByRole('table', { name: 'Validation of price list' });
    await report.waitFor();
    const text = (await report.textContent())!;
    for (const rule of ['minimum', 'format', 'unique']) expect(text).toContain(rule);
    // The table stays open with the rules as typed.
    expect(await page.getByLabel(/Validation rules of price list/).inputValue()).toContain('"minimum": 0');
    await shot('table-validation');
  });

  it("opens a workflow run from the workflows page: its inputs and each block's output", async () => {
    const project = await cloud.api('POST', '/v1/projects', { body: { name: 'browser project' } });
    const workflow = await cloud.api('POST', '/v1/workflows', { body: { project_id: project.body.id, name: 'browser flow' } });
    const draft = { blocks: [{ id: 'in', type: 'start_json', config: {} }, { id: 'out', type: 'end', config: {} }], edges: [{ source: 'in', target: 'out' }] };
    expect((await cloud.api('PUT', `/v1/workflows/${workflow.body.id}/draft`, { body: draft })).status).toBe(200);
    const run = await cloud.api('POST', '/v1/workflows/runs', { body: { workflow_id: workflow.body.id, version: 'draft', json_inputs: { in: { order: 'PO-981' } } } });
    expect(run.status, run.text).toBe(201);
    await page.goto(`${cloud.url}/dashboard/workflows?env=test`);
    await page.getByRole('link', { name: run.body.id }).click();
    await page.waitForURL(/\/dashboard\/workflow-run\?env=test&id=/);
    // Followed live while it runs (it may have ended already), then its outputs are shown.
    await expect.poll(() => page.locator('.meta .badge').first().textContent(), { timeout: 20_000 }).toBe('completed');
    expect(await page.getByRole('region', { name: 'Inputs' }).textContent()).toContain('PO-981');
    expect(await page.locator('pre[data-block]').count()).toBeGreaterThan(0);
    await shot('workflow-run');
  });

  it('uploads a document and runs a parse and a split from the page, following their status live', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'quire-dashboard-'));
    const path = join(dir, 'two-pages.pdf');
    writeFileSync(path, await textPdf([['INVOICE', 'Invoice number: INV-77', 'Total due: 10.00 EUR'], ['RECEIPT', 'Paid with thanks', 'Amount paid: 10.00 EUR']]));
    await page.goto(`${cloud.url}/dashboard/runs?env=production`);
    await page.getByRole('link', { name: 'New run' }).click();
    await page.getByLabel('Run', { exact: true }).selectOption('parse');
    await page.getByLabel('Document', { exact: true }).setInputFiles(path);
    await page.getByRole('button', { name: 'Start run' }).click();
    await page.waitForURL(/\/dashboard\/run\?env=production&kind=parse&id=prs_/);
    await expect.poll(() => page.locator('.meta .badge').first().textContent(), { timeout: 30_000 }).toBe('completed');
    expect(await page.getByRole('region', { name: 'Parsed text' }).textContent()).toContain('INV-77');
    await page.waitForSelector('body[data-pages-ready="true"]');
    expect(await page.locator('.page canvas').count()).toBe(2);

    await page.goto(`${cloud.url}/dashboard/new?env=production`);
    await page.getByLabel('Run', { exact: true }).selectOption('split');
    await page.getByLabel('Document', { exact: true }).setInputFiles(path);
    await page.getByLabel(/Categories .* or subdocuments/).fill('invoice: A bill asking for payment\nreceipt: Proof of a payment made');
    await page.getByRole('button', { name: 'Start run' }).click();
    await page.waitForURL(/kind=split&id=splt_/);
    await expect.poll(() => page.locator('.meta .badge').first().textContent(), { timeout: 30_000 }).toBe('completed');
    const parts = await page.getByRole('region', { name: 'Parts' }).textContent();
    expect(parts).toContain('invoice');
    await page.waitForSelector('body[data-pages-ready="true"]');
    expect(await page.locator('.page[data-page="1"] .page-part').textContent()).toBe('invoice');
    expect(await page.locator('.page[data-page="2"] .page-part').textContent()).toBe('receipt');
    await shot('split-run');
    // Made in production: listed there, not in test.
    await page.goto(`${cloud.url}/dashboard/runs?env=test&kind=split`);
    expect(await page.locator('table[aria-label="Runs"] tbody').textContent()).toContain('No runs');
  }, 90_000);
});
