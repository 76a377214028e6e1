/**
 * The client CLI, driven as a subprocess (as users run it) against the real local cloud: credentials
 * and profiles, every run command, uploads with progress, --background --wait, Ctrl-C cancelling a
 * run, error rendering and exit codes, and the help texts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createHash, randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { REPO_ROOT } from '../../../lib/local/invoker.ts';
import { startTestCloud, type TestCloud } from '../../support/cloud.ts';
import { freePort } from '../../support/ports.ts';
import { greyToPng, renderScan } from '../../support/scan-fixtures.ts';
import { textPdf } from '../../support/text-pdf.ts';
import { acroFormPdf } from '../../support/form-fixtures.ts';
import { PDFDocument as FilledPdf } from 'pdf-lib';

// Each test spawns several CLI processes (about a second each on a loaded machine).
vi.setConfig({ testTimeout: 90_000 });

let cloud: TestCloud;
let work: string;
let configHome: string;

beforeAll(async () => {
  cloud = await startTestCloud();
  work = mkdtempSync(join(tmpdir(), 'quire-cli-'));
  configHome = join(work, 'config');
});
afterAll(() => cloud?.close());

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Starts `quire ARGS` with the test key by default; `env` adds or removes (undefined) variables. */
function start(args: string[], env: Record<string, string | undefined> = {}): ChildProcess {
  const base: Record<string, string | undefined> = { ...process.env, QUIRE_API_KEY: cloud.keys.test, QUIRE_BASE_URL: cloud.url, XDG_CONFIG_HOME: configHome, ...env };
  const clean = Object.fromEntries(Object.entries(base).filter(([, v]) => v !== undefined)) as Record<string, string>;
  return spawn(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'bin/quire.ts'), ...args], { cwd: REPO_ROOT, env: clean });
}

function finish(child: ChildProcess, stdin?: string): Promise<Result> {
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c) => (stdout += c));
  child.stderr!.on('data', (c) => (stderr += c));
  child.stdin!.end(stdin ?? '');
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

const quire = (args: string[], options: { env?: Record<string, string | undefined>; stdin?: string } = {}) => finish(start(args, options.env), options.stdin);

function file(name: string, content: string | Uint8Array): string {
  const path = join(work, name);
  writeFileSync(path, content);
  return path;
}

describe('credentials', () => {
  it('whoami shows the organization, environment and key of $QUIRE_API_KEY', async () => {
    const r = await quire(['whoami']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`Organization  ${cloud.orgId}`);
    expect(r.stdout).toMatch(/Environment\s+test \(env_/);
    expect(r.stdout).toContain(`rt_test_…${cloud.keys.test.slice(-4)}`);
    expect(r.stdout).not.toContain(cloud.keys.test);
  });

  it('profiles point at keys: the environment follows the key, not the base URL', async () => {
    const addTest = await quire(['profiles', 'add', 'staging-test', '--key-stdin', '--base-url', cloud.url], { stdin: `${cloud.keys.test}\n`, env: { QUIRE_API_KEY: undefined } });
    const addLive = await quire(['profiles', 'add', 'staging-live', '--key-stdin', '--base-url', cloud.url], { stdin: cloud.keys.live, env: { QUIRE_API_KEY: undefined } });
    expect(addTest.code, addTest.stderr).toBe(0);
    expect(addLive.code, addLive.stderr).toBe(0);
    // Keys are never echoed.
    for (const r of [addTest, addLive]) expect(r.stdout + r.stderr).not.toMatch(/rt_(test|live)_[A-Za-z0-9]{8,}/);
    const profilesPath = join(configHome, 'quire', 'profiles.json');
    expect(statSync(profilesPath).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(profilesPath, 'utf8'))['staging-live']).toEqual({ key: cloud.keys.live, base_url: cloud.url });

    // Same base URL (and a misleading $QUIRE_BASE_URL that --profile's URL overrides): the key decides.
    const env = { QUIRE_API_KEY: undefined, QUIRE_BASE_URL: 'http://127.0.0.1:1' };
    const asTest = await quire(['whoami', '--profile', 'staging-test', '--json'], { env });
    const asLive = await quire(['--profile', 'staging-live', 'whoami', '--json'], { env });
    expect(asTest.code, asTest.stderr).toBe(0);
    expect(JSON.parse(asTest.stdout)).toMatchObject({ environment_slug: 'test' });
    expect(JSON.parse(asLive.stdout)).toMatchObject({ environment_slug: 'production', environment: { type: 'production' } });

    // What one profile creates, the other cannot see.
    const doc = file('isolated.txt', 'Invoice number INV-77 for the isolation check');
    const parsed = JSON.parse((await quire(['parse', doc, '--profile', 'staging-live', '--json'], { env })).stdout);
    expect(parsed.status).toBe('completed');
    const seen = await quire(['runs', 'get', parsed.id, '--profile', 'staging-test'], { env });
    expect(seen.code).toBe(3);
    expect(seen.stderr).toContain(`Error 404: Parse ${parsed.id} not found`);

    const listed = await quire(['profiles', 'list']);
    expect(listed.stdout).toMatch(/staging-live\s+rt_live_…/);
    expect(listed.stdout).not.toContain(cloud.keys.live);
    expect((await quire(['profiles', 'remove', 'staging-live'])).code).toBe(0);
    expect((await quire(['whoami', '--profile', 'staging-live'], { env })).code).toBe(2);
  });

  it('keys are never taken from arguments, and bad stdin is refused', async () => {
    expect((await quire(['profiles', 'add', 'x'], { stdin: cloud.keys.test })).code).toBe(2);
    const junk = await quire(['profiles', 'add', 'x', '--key-stdin'], { stdin: 'not a key' });
    expect(junk.code).toBe(2);
    expect(junk.stderr).toContain('does not hold an API key');
  });
});

describe('runs', () => {
  it('parse prints the text; parse --background prints the id and runs get/list/delete work on it', async () => {
    const pdf = file('letter.pdf', await textPdf([['Quarterly report of the Harbour Street office', 'Revenue grew by nine percent']]));
    const sync = await quire(['parse', pdf]);
    expect(sync.code, sync.stderr).toBe(0);
    expect(sync.stdout).toContain('Quarterly report of the Harbour Street office');

    const started = await quire(['parse', pdf, '--background', '--bust-cache']);
    expect(started.code, started.stderr).toBe(0);
    const id = /Started (prs_[0-9a-z]+)/.exec(started.stdout)?.[1];
    expect(id).toBeDefined();
    const waited = await quire(['runs', 'wait', id!]);
    expect(waited.code, waited.stderr).toBe(0);
    expect(waited.stdout).toContain('Revenue grew by nine percent');
    const list = await quire(['runs', 'list', '--type', 'parse', '--limit', '100']);
    expect(list.stdout).toContain(id!);
    expect((await quire(['runs', 'delete', id!])).code).toBe(0);
    expect((await quire(['runs', 'get', id!])).code).toBe(3);
  });

  it('--background --wait follows an OCR parse to the end with a status line', async () => {
    const png = file('scan.png', greyToPng(renderScan({ dpi: 150 }).image));
    const r = await quire(['parse', png, '--background', '--wait']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/prs_[0-9a-z]+\s+(queued|in_progress)/);
    expect(r.stderr).toMatch(/prs_[0-9a-z]+\s+completed/);
    expect(r.stdout).toContain('Northwind Traders');
  });

  it('Ctrl-C during --wait offers to cancel the run, and yes cancels it', async () => {
    // Four scanned pages: long enough to be interrupted mid-run.
    const pdf = await PDFDocument.create();
    const image = await pdf.embedPng(greyToPng(renderScan({ dpi: 200 }).image));
    for (let i = 0; i < 4; i++) pdf.addPage([612, 792]).drawImage(image, { x: 0, y: 0, width: 612, height: 792 });
    const path = file('scans.pdf', await pdf.save());
    const child = start(['parse', path, '--background', '--wait', '--bust-cache']);
    let stderr = '';
    let stdout = '';
    child.stdout!.on('data', (c) => (stdout += c));
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    await new Promise<void>((resolve) =>
      child.stderr!.on('data', (c) => {
        stderr += c;
        if (/in_progress|queued/.test(stderr)) resolve();
      }),
    );
    child.kill('SIGINT');
    await new Promise<void>((resolve) => {
      const check = setInterval(() => {
        if (stderr.includes('[y/N]')) {
          clearInterval(check);
          resolve();
        }
      }, 20);
    });
    child.stdin!.end('y\n');
    const code = await closed;
    expect(stderr).toMatch(/Cancel prs_[0-9a-z]+\? \[y\/N\]/);
    expect(stderr, stderr).toContain('Cancelled');
    expect(code).toBe(1);
    const id = /(prs_[0-9a-z]+)/.exec(stderr)![1];
    const run = await cloud.api('GET', `/v1/parses/${id}`);
    expect(run.body.status).toBe('cancelled');
    expect(stdout).toContain(`${id}  cancelled`);
  });

  const invoiceText = 'INVOICE\nInvoice number: INV-2041\nTotal due: 1,250.00 EUR\nBill to: Contoso Ltd';

  it('classify, split and partition', async () => {
    const invoice = file('invoice.txt', invoiceText);
    const [classified, split, partitioned] = await Promise.all([
      quire(['classify', invoice, '--category', 'invoice:a bill for goods', '--category', 'letter:correspondence']),
      quire(['split', invoice, '--subdoc', 'invoice:a bill', '--json']),
      quire(['partition', invoice, '--key', 'invoice number', '--instructions', 'one chunk per invoice']),
    ]);
    expect(classified.code, classified.stderr).toBe(0);
    expect(classified.stdout.split('\n')[0]).toMatch(/^invoice\s+\(likelihood/);
    expect(split.code, split.stderr).toBe(0);
    expect(JSON.parse(split.stdout).output).toEqual([{ name: 'invoice', pages: [1] }]);
    expect(partitioned.code, partitioned.stderr).toBe(0);
    expect(partitioned.stdout).toMatch(/INV-2041\s+1/);
  });

  it('extract, sources and schema generate', async () => {
    const invoice = file('invoice-2.txt', invoiceText);
    const schema = file('schema.json', JSON.stringify({ type: 'object', properties: { invoice_number: { type: ['string', 'null'] } } }));
    const [extracted, generated] = await Promise.all([quire(['extract', invoice, '--schema', schema, '--metadata', 'batch=7', '--json']), quire(['schema', 'generate', invoice])]);
    expect(extracted.code, extracted.stderr).toBe(0);
    const extraction = JSON.parse(extracted.stdout);
    expect(extraction.output).toEqual({ invoice_number: 'INV-2041' });
    expect(extraction.metadata).toEqual({ batch: '7' });
    const sources = await quire(['sources', extraction.id]);
    expect(sources.code, sources.stderr).toBe(0);
    expect(sources.stdout).toMatch(/invoice_number\s+INV-2041\s+INV-2041/);
    expect(generated.code, generated.stderr).toBe(0);
    expect(JSON.parse(generated.stdout).properties).toHaveProperty('invoice_number');
  });

  it('a file over the inline limit goes through the three-step upload with a progress bar', async () => {
    // Text (the service accepts only document types), random so it is not a cache hit of anything.
    const bytes = Buffer.from(Array.from({ length: 6 * 1024 * 1024 / 64 }, () => `${randomBytes(32).toString('hex').slice(0, 63)}\n`).join(''));
    const path = file('big.txt', bytes);
    const r = await quire(['files', 'upload', path, '--json']);
    expect(r.code, r.stderr + r.stdout).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ filename: 'big.txt', size_bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') });
    expect(r.stdout).not.toContain('Uploading');
    const shown = await quire(['files', 'upload', path]);
    expect(shown.stderr, shown.stderr).toMatch(/Uploading \[#+\] 100%\s+6\.0 MB \/ 6\.0 MB/);
  });
});

describe('secrets, webhooks and workflows', () => {
  it('secrets set reads the value from stdin; get --value, list and delete', async () => {
    const set = await quire(['secrets', 'set', 'CLI_TOKEN'], { stdin: 's3cr3t-value\n' });
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout + set.stderr).not.toContain('s3cr3t-value');
    expect((await quire(['secrets', 'get', 'CLI_TOKEN', '--value'])).stdout.trim()).toBe('s3cr3t-value');
    expect((await quire(['secrets', 'list'])).stdout).toContain('CLI_TOKEN');
    expect((await quire(['secrets', 'delete', 'CLI_TOKEN'])).code).toBe(0);
    const gone = await quire(['secrets', 'get', 'CLI_TOKEN']);
    expect(gone.code).toBe(3);
    expect(gone.stderr).toContain('Error 404: Secret CLI_TOKEN not found');
    expect((await quire(['secrets', 'set', 'EMPTY'], { stdin: '' })).code).toBe(2);
  });

  it('webhooks listen verifies and prints what the service delivers', async () => {
    const port = await freePort();
    const endpoint = await cloud.api('PUT', '/v1/webhooks/endpoint', { body: { url: `http://127.0.0.1:${port}/hooks` } });
    expect(endpoint.status, endpoint.text).toBe(200);
    const listener = start(['webhooks', 'listen', '--port', String(port)]);
    let out = '';
    let err = '';
    listener.stdout!.on('data', (c) => (out += c));
    listener.stderr!.on('data', (c) => (err += c));
    listener.stdin!.end(`${endpoint.body.signing_secret}\n`);
    const closed = new Promise((resolve) => listener.on('close', resolve));
    const until = async (test: () => boolean) => {
      for (let i = 0; i < 400 && !test(); i++) await new Promise((r) => setTimeout(r, 25));
      expect(test(), out + err).toBe(true);
    };
    await until(() => err.includes('Listening'));
    const sent = await cloud.api('POST', '/v1/webhooks/test', { body: {} });
    await until(() => out.includes(sent.body.event_id));
    expect(out).toMatch(/✓ .* test {2}webhook\.test {2}evt_/);
    listener.kill('SIGINT');
    await closed;
    await cloud.api('DELETE', '/v1/webhooks/endpoint');
  });

  it('workflows run and promote (keys named by profile, never given on the command line)', async () => {
    const project = (await cloud.api('POST', '/v1/projects', { body: { name: 'CLI project' } })).body.id;
    const workflowId = (await cloud.api('POST', '/v1/workflows', { body: { project_id: project, name: 'CLI flow' } })).body.id;
    const draft = {
      blocks: [
        { id: 'doc', type: 'start_document', config: {} },
        { id: 'fields', type: 'extract', config: { json_schema: { type: 'object', properties: { invoice_number: { type: ['string', 'null'] } } } } },
        { id: 'done', type: 'end', config: {} },
      ],
      edges: [
        { source: 'doc', target: 'fields' },
        { source: 'fields', target: 'done' },
      ],
    };
    expect((await cloud.api('PUT', `/v1/workflows/${workflowId}/draft`, { body: draft })).status).toBe(200);
    expect((await cloud.api('POST', `/v1/workflows/${workflowId}/publish`, { body: {} })).status).toBe(200);
    const invoice = file('wf-invoice.txt', 'Invoice number: INV-9090');
    const ran = await quire(['workflows', 'run', workflowId, '--document', `doc=${invoice}`, '--json']);
    expect(ran.code, ran.stderr).toBe(0);
    expect(JSON.parse(ran.stdout)).toMatchObject({ lifecycle: { status: 'completed' }, outputs: { fields: { invoice_number: 'INV-9090' } } });

    await quire(['profiles', 'add', 'wf-test', '--key-stdin', '--base-url', cloud.url], { stdin: cloud.keys.test });
    await quire(['profiles', 'add', 'wf-live', '--key-stdin', '--base-url', cloud.url], { stdin: cloud.keys.live });
    expect((await quire(['workflows', 'promote', workflowId, '--from-key', cloud.keys.test, '--to-key', 'wf-live'])).code).toBe(2);
    const promoted = await quire(['workflows', 'promote', workflowId, '--from-key', 'wf-test', '--to-key', 'wf-live']);
    expect(promoted.code, promoted.stderr).toBe(0);
    const target = /→ (wrk_[0-9a-z]+)/.exec(promoted.stdout)![1]!;
    const live = await cloud.api('GET', `/v1/workflows/${target}`, { key: cloud.keys.live });
    expect(live.body).toMatchObject({ name: 'CLI flow', published: null });
    const liveProject = await cloud.api('GET', `/v1/projects/${live.body.project_id}`, { key: cloud.keys.live });
    expect(liveProject.body.name).toBe('CLI project');
    // Again: the same promotion (idempotent), not a second workflow.
    const again = await quire(['workflows', 'promote', workflowId, '--from-key', 'wf-test', '--to-key', 'wf-live']);
    expect(again.stdout).toContain(`→ ${target}`);
  });
});

describe('edits and tables', () => {
  it('edit fills a form from an instructions file and writes the filled PDF', async () => {
    const form = await acroFormPdf();
    const pdf = file('form.pdf', form.bytes);
    const instructions = file('values.json', JSON.stringify(form.instructions));
    const out = join(work, 'filled.pdf');
    const r = await quire(['edit', pdf, '--instructions', instructions, '--out', out, '--color', '#FF0000']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`Wrote ${out}`);
    const filled = await FilledPdf.load(readFileSync(out));
    const text = form.fields.find((f) => f.kind === 'text' && typeof f.expected === 'string')!;
    expect(filled.getForm().getTextField(text.name).getText()).toBe(text.expected);
    expect(r.stdout).toContain(text.name);
    expect((await quire(['edit', pdf])).code).toBe(2);
  });

  it('tables upload, validate (exit 1 with errors) and profile as a terminal table', async () => {
    const csv = file('people.csv', 'id,name,age\n1,Ann,34\n2,Bob,\n2,Cid,29\n');
    const up = await quire(['tables', 'upload', csv, '--name', 'people', '--json']);
    expect(up.code, up.stderr).toBe(0);
    const table = JSON.parse(up.stdout).tables[0];
    expect(table).toMatchObject({ name: 'people', row_count: 3 });
    const rules = file('rules.json', JSON.stringify({ unique: [['id']], columns: { age: { is_not_empty: true } } }));
    const validated = await quire(['tables', 'validate', table.id, '--rules', rules]);
    expect(validated.code).toBe(1);
    expect(validated.stdout).toMatch(/error\s+unique\s+id\s+1\s+3/);
    const profile = await quire(['tables', 'profile', table.id, '--select', 'id,age']);
    expect(profile.code, profile.stderr).toBe(0);
    expect(profile.stdout).toMatch(/^3 rows/);
    expect(profile.stdout).toMatch(/age\s+integer\s+3\s+1\s+0\s+2\s+29\s+34/);
    expect(profile.stdout).not.toMatch(/^name/m);
    const downloaded = await quire(['tables', 'download', table.id]);
    expect(downloaded.stdout).toBe('id,name,age\n1,Ann,34\n2,Bob,\n2,Cid,29\n');
  });
});

describe('the remaining commands', () => {
  it('files list/get/download, usage, models', async () => {
    const path = file('hello.txt', 'hello from the CLI');
    const uploaded = JSON.parse((await quire(['files', 'upload', path, '--json'])).stdout);
    const [listed, got, usage, models] = await Promise.all([
      quire(['files', 'list', '--filename', 'hello', '--limit', '100']),
      quire(['files', 'get', uploaded.id, '--json']),
      quire(['usage', '--json']),
      quire(['models']),
    ]);
    expect(listed.stdout).toContain(uploaded.id);
    expect(JSON.parse(got.stdout)).toMatchObject({ id: uploaded.id, filename: 'hello.txt' });
    expect(JSON.parse(usage.stdout)).toMatchObject({ environment_slug: 'test', billable_credits: 0 });
    expect(models.stdout).toMatch(/^quire-local\s+quire-local\s+[0-9.]+\s+parse,/m);
    const out = join(work, 'hello-copy.txt');
    expect((await quire(['files', 'download', uploaded.id, '--out', out])).code).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe('hello from the CLI');
  });

  it('webhooks set/get/test/deliveries/rotate-secret/delete, runs cancel, workflows list/get/export', async () => {
    const set = await quire(['webhooks', 'set', 'http://127.0.0.1:9/cli', '--events', 'parse.completed,webhook.test']);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toMatch(/Signing secret \(shown only now\): whsec_/);
    expect((await quire(['webhooks', 'get'])).stdout).toMatch(/http:\/\/127\.0\.0\.1:9\/cli\s+events parse\.completed,webhook\.test/);
    const sent = await quire(['webhooks', 'test']);
    const eventId = /Sent (evt_[0-9a-z]+)/.exec(sent.stdout)![1];
    expect((await quire(['webhooks', 'deliveries', '--event-type', 'webhook.test'])).stdout).toContain('webhook.test');
    expect((await quire(['webhooks', 'rotate-secret', '--grace', '0'])).stdout).toContain('whsec_');
    expect((await quire(['webhooks', 'delete'])).code).toBe(0);
    expect((await quire(['webhooks', 'get'])).code).toBe(3);
    expect(eventId).toBeDefined();

    const started = await quire(['parse', file('c.txt', `cancel me ${Math.random()}`), '--background', '--json']);
    const run = JSON.parse(started.stdout);
    const cancelled = await quire(['runs', 'cancel', run.id]);
    expect(cancelled.code).toBe(0);
    expect(cancelled.stdout).toMatch(new RegExp(`${run.id}\\s+(cancelled|completed)`));

    const project = (await cloud.api('POST', '/v1/projects', { body: { name: 'cli-listing' } })).body.id;
    const workflowId = (await cloud.api('POST', '/v1/workflows', { body: { project_id: project, name: 'Listed' } })).body.id;
    await cloud.api('PUT', `/v1/workflows/${workflowId}/draft`, { body: { blocks: [{ id: 'a', type: 'start_json' }, { id: 'b', type: 'end' }], edges: [{ source: 'a', target: 'b' }] } });
    expect((await quire(['workflows', 'list', '--project', project])).stdout).toContain(workflowId);
    expect((await quire(['workflows', 'get', workflowId])).stdout).toContain('a → b');
    const exported = await quire(['workflows', 'export', workflowId, '--version', 'draft']);
    expect(JSON.parse(exported.stdout)).toMatchObject({ format: 'quire.workflow/v1', name: 'Listed' });
  });
});

describe('errors and exit codes', () => {
  it('a 422 is rendered as loc: msg lines with exit code 3', async () => {
    const doc = file('e.txt', 'hello');
    const schema = file('bad-schema.json', JSON.stringify({ type: 'object', properties: { a: { type: 'no-such-type' } } }));
    const r = await quire(['extract', doc, '--schema', schema]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^Error 422: the request is invalid\n {2}body\.json_schema[^:]*: /);
  });

  it('usage errors exit 2, an unreachable API exits 4, a bad key exits 3', async () => {
    const unknown = await quire(['frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Unknown command "frobnicate"');
    expect((await quire(['parse'])).code).toBe(2);
    expect((await quire(['parse', join(work, 'missing.pdf')])).stderr).toContain('No such file');
    expect((await quire(['whoami'], { env: { QUIRE_API_KEY: undefined } })).code).toBe(2);
    const down = await quire(['whoami', '--base-url', `http://127.0.0.1:${await freePort()}`]);
    expect(down.code).toBe(4);
    expect(down.stderr).toContain('Cannot reach');
    const badKey = await quire(['whoami'], { env: { QUIRE_API_KEY: 'rt_test_nope' } });
    expect(badKey.code).toBe(3);
    expect(badKey.stderr).toMatch(/^Error 401: /);
  });
});

describe('help', () => {
  it('lists client and admin commands apart', async () => {
    const r = await quire(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatchSnapshot();
  });
  it('shows the options of a command', async () => {
    const r = await quire(['split', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatchSnapshot();
  });
});
