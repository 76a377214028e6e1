/**
 * The client commands of `quire`: every resource of the API from the terminal, over HTTP only.
 * Each command declares its words, arguments, options and a `run` that returns the exit code.
 */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { ApiClient } from './api-client.ts';
import { progressBar, renderTable, StatusLine, UsageError } from './output.ts';
import { DEFAULT_BASE_URL, maskKey, PROFILE_NAME, profilesFile, readProfiles, resolveCredentials, writeProfiles } from './profiles.ts';
import { isTerminal, kindNamed, kindOfId, renderRun, statusOf, succeeded, waitForRun } from './runs.ts';
import { documentInput, uploadFile } from './upload.ts';
import { listenForWebhooks } from './webhook-listener.ts';
import { verifyWebhook, WebhookVerificationError } from '../../functions/webhooks/verify.ts';

type OptionSpec = { type: 'string' | 'boolean'; multiple?: boolean; short?: string; description: string; placeholder?: string };
type Values = Record<string, string | boolean | string[] | undefined>;

export interface Context {
  args: string[];
  values: Values;
  json: boolean;
  client(): ApiClient;
  /** Prints `object` as JSON with --json, else `text`. */
  print(object: unknown, text: string): void;
  readStdin(): Promise<string>;
}

export interface ClientCommand {
  name: string;
  args: string;
  summary: string;
  options?: Record<string, OptionSpec>;
  /** Returns the exit code (0 when omitted). */
  run(ctx: Context): Promise<number | void>;
}

/** Options every client command takes. */
export const GLOBAL_OPTIONS: Record<string, OptionSpec> = {
  profile: { type: 'string', placeholder: 'NAME', description: 'Use the key (and base URL) of this profile instead of $QUIRE_API_KEY' },
  'base-url': { type: 'string', placeholder: 'URL', description: 'The deployment to talk to (default $QUIRE_BASE_URL or http://127.0.0.1:3000)' },
  json: { type: 'boolean', description: 'Print the raw JSON response (for scripts)' },
  help: { type: 'boolean', short: 'h', description: 'Help' },
};

const RUN_OPTIONS: Record<string, OptionSpec> = {
  model: { type: 'string', placeholder: 'NAME', description: 'Model (default quire-local)' },
  instructions: { type: 'string', placeholder: 'TEXT', description: 'Extra instructions for the model' },
  background: { type: 'boolean', description: 'Start the run in the background and print its id' },
  wait: { type: 'boolean', description: 'With --background: poll until the run ends, with a live status line' },
  'bust-cache': { type: 'boolean', description: 'Do not answer from the result cache' },
};
const CONSENSUS: Record<string, OptionSpec> = { 'n-consensus': { type: 'string', placeholder: 'N', description: 'Independent votes, 1..16' } };

// ---- helpers ----------------------------------------------------------------------------------

function str(values: Values, name: string): string | undefined {
  const v = values[name];
  return typeof v === 'string' ? v : undefined;
}
function list(values: Values, name: string): string[] {
  const v = values[name];
  return Array.isArray(v) ? v : typeof v === 'string' ? [v] : [];
}
function int(values: Values, name: string): number | undefined {
  const v = str(values, name);
  if (v === undefined) return undefined;
  if (!/^-?\d+$/.test(v)) throw new UsageError(`--${name} must be an integer, got "${v}"`);
  return Number(v);
}
function arg(ctx: Context, index: number, what: string): string {
  const v = ctx.args[index];
  if (!v) throw new UsageError(`Missing ${what}`);
  return v;
}
function existingFile(path: string): string {
  if (!existsSync(path) || !statSync(path).isFile()) throw new UsageError(`No such file: ${path}`);
  return path;
}
function readJsonFile(path: string, what: string): unknown {
  try {
    return JSON.parse(readFileSync(existingFile(path), 'utf8'));
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`${what} ${path} is not valid JSON: ${(error as Error).message}`);
  }
}

/** Upload progress for files large enough to go through the three-step upload. */
function uploadProgress(ctx: Context) {
  const line = new StatusLine();
  return (sent: number, total: number) => {
    if (ctx.json) return;
    line.update(`Uploading ${progressBar(sent, total)}`);
    if (sent >= total) line.done();
  };
}

async function document(ctx: Context, path: string) {
  return documentInput(ctx.client(), existingFile(path), uploadProgress(ctx));
}

/** Creates a run, then waits (unless --background without --wait) and prints its output. */
async function createRun(ctx: Context, path: string, body: Record<string, unknown>, after?: (run: Record<string, any>) => void): Promise<number> {
  const background = ctx.values.background === true;
  const run = await ctx.client().call('POST', path, {
    json: {
      ...body,
      model: str(ctx.values, 'model'),
      instructions: body.instructions ?? str(ctx.values, 'instructions'),
      bust_cache: ctx.values['bust-cache'] === true || undefined,
      background: background || undefined,
    },
  });
  if (background && ctx.values.wait !== true) {
    ctx.print(run, `Started ${run.id} (${statusOf(run)}). Follow it with: quire runs wait ${run.id}`);
    return 0;
  }
  // A synchronous create answers in_progress when the work outlasts 25 s: keep waiting.
  const final = isTerminal(run) ? run : await waitForRun(ctx.client(), run, { quiet: ctx.json });
  if (succeeded(final)) after?.(final);
  ctx.print(final, await renderRun(final));
  return succeeded(final) ? 0 : 1;
}

function parseSubdocs(values: Values): Array<{ name: string; description: string }> {
  const file = str(values, 'subdocuments');
  const inline = list(values, 'subdoc');
  if (file && inline.length) throw new UsageError('Give either --subdocuments FILE or --subdoc name:description, not both');
  if (file) return readJsonFile(file, 'Subdocuments file') as Array<{ name: string; description: string }>;
  if (!inline.length) throw new UsageError('split needs --subdocuments FILE or at least one --subdoc name:description');
  return inline.map(nameAndDescription);
}

function nameAndDescription(spec: string): { name: string; description: string } {
  const at = spec.indexOf(':');
  return at < 0 ? { name: spec, description: '' } : { name: spec.slice(0, at), description: spec.slice(at + 1) };
}

function keyValues(values: Values, name: string): Record<string, string> | undefined {
  const pairs = list(values, name);
  if (!pairs.length) return undefined;
  return Object.fromEntries(
    pairs.map((p) => {
      const at = p.indexOf('=');
      if (at < 1) throw new UsageError(`--${name} takes KEY=VALUE, got "${p}"`);
      return [p.slice(0, at), p.slice(at + 1)];
    }),
  );
}

function writeDataUrl(url: string, path: string): void {
  const comma = url.indexOf(',');
  writeFileSync(path, Buffer.from(url.slice(comma + 1), 'base64'));
}

// ---- the commands -----------------------------------------------------------------------------

export const clientCommands: ClientCommand[] = [
  {
    name: 'whoami',
    args: '',
    summary: 'Organization, environment and key of the current credentials',
    async run(ctx) {
      const status = await ctx.client().call('GET', '/v1/auth/status');
      ctx.print(
        status,
        [
          `Organization  ${status.organization_id}`,
          `Environment   ${status.environment_slug} (${status.environment_id}, ${status.environment?.type})`,
          `Key           ${status.key.prefix}…${status.key.last4}  ${status.key.id}  ${status.key.name}  (${status.key.role}${status.key.legacy ? ', legacy' : ''})`,
          `Base URL      ${ctx.client().baseUrl}`,
        ].join('\n'),
      );
    },
  },

  {
    name: 'profiles add',
    args: 'NAME',
    summary: 'Save a key under a profile name (the key is read from stdin, never echoed)',
    options: {
      'key-stdin': { type: 'boolean', description: 'Read the key from stdin (required)' },
      'base-url': { type: 'string', placeholder: 'URL', description: 'The deployment this profile talks to' },
    },
    async run(ctx) {
      const name = arg(ctx, 0, 'profile NAME');
      if (!PROFILE_NAME.test(name)) throw new UsageError(`Profile names are 1-64 letters, digits, "_", "-" or "."; got "${name}"`);
      if (ctx.values['key-stdin'] !== true) throw new UsageError('profiles add needs --key-stdin (keys are never taken from arguments)');
      const key = (await ctx.readStdin()).trim();
      if (!/^(rt_test_|rt_live_|sk_service_)\S+$/.test(key)) throw new UsageError('stdin does not hold an API key (rt_test_…, rt_live_… or sk_service_…)');
      const profiles = readProfiles();
      const baseUrl = str(ctx.values, 'base-url');
      profiles[name] = baseUrl ? { key, base_url: baseUrl } : { key };
      writeProfiles(profiles);
      ctx.print({ name, key: maskKey(key), base_url: baseUrl ?? null, file: profilesFile() }, `Saved profile ${name} (${maskKey(key)}) in ${profilesFile()}`);
    },
  },
  {
    name: 'profiles list',
    args: '',
    summary: 'List profiles (keys masked)',
    async run(ctx) {
      const rows = Object.entries(readProfiles()).map(([name, p]) => ({ name, key: maskKey(p.key), base_url: p.base_url ?? null }));
      ctx.print({ profiles: rows }, rows.length ? renderTable(['name', 'key', 'base url'], rows.map((r) => [r.name, r.key, r.base_url ?? '(default)'])) : 'No profiles.');
    },
  },
  {
    name: 'profiles remove',
    args: 'NAME',
    summary: 'Forget a profile',
    async run(ctx) {
      const name = arg(ctx, 0, 'profile NAME');
      const profiles = readProfiles();
      if (!profiles[name]) throw new UsageError(`No profile named "${name}"`);
      delete profiles[name];
      writeProfiles(profiles);
      ctx.print({ removed: name }, `Removed profile ${name}`);
    },
  },

  {
    name: 'files upload',
    args: 'PATH',
    summary: 'Upload a file (three-step upload, with a progress bar)',
    async run(ctx) {
      const { document, sha256 } = await uploadFile(ctx.client(), existingFile(arg(ctx, 0, 'PATH')), uploadProgress(ctx));
      // The File behind the upload: same name and bytes (an earlier identical upload is the same File).
      const page = await ctx.client().call('GET', '/v1/files', { query: { filename: document.filename, limit: 100 } });
      const file = page.data.find((f: { filename: string; sha256: string }) => f.filename === document.filename && f.sha256 === sha256);
      if (!file) throw new Error(`Uploaded, but the file ${document.filename} is not listed yet`);
      ctx.print(file, `${file.id}  ${file.filename}  ${file.mime_type}  ${file.size_bytes} bytes`);
    },
  },
  {
    name: 'files list',
    args: '',
    summary: 'List files',
    options: { limit: { type: 'string', placeholder: 'N', description: 'Page size, 1..100' }, filename: { type: 'string', placeholder: 'PREFIX', description: 'File name prefix' } },
    async run(ctx) {
      const page = await ctx.client().call('GET', '/v1/files', { query: { limit: str(ctx.values, 'limit'), filename: str(ctx.values, 'filename') } });
      ctx.print(page, renderTable(['id', 'filename', 'mime type', 'bytes', 'created'], page.data.map((f: any) => [f.id, f.filename, f.mime_type, f.size_bytes, f.created_at])));
    },
  },
  {
    name: 'files get',
    args: 'FILE_ID',
    summary: 'Show a file',
    async run(ctx) {
      const file = await ctx.client().call('GET', `/v1/files/${encodeURIComponent(arg(ctx, 0, 'FILE_ID'))}`);
      ctx.print(file, JSON.stringify(file, null, 2));
    },
  },
  {
    name: 'files download',
    args: 'FILE_ID',
    summary: 'Download a file',
    options: { out: { type: 'string', placeholder: 'PATH', description: 'Where to write it (default: its file name)' } },
    async run(ctx) {
      const link = await ctx.client().call('GET', `/v1/files/${encodeURIComponent(arg(ctx, 0, 'FILE_ID'))}/download-link`);
      const response = await fetch(link.download_url);
      if (!response.ok) throw new Error(`Download failed with HTTP ${response.status}`);
      const out = str(ctx.values, 'out') ?? link.filename;
      writeFileSync(out, Buffer.from(await response.arrayBuffer()));
      ctx.print({ path: out }, `Wrote ${out}`);
    },
  },

  {
    name: 'parse',
    args: 'PATH',
    summary: 'Parse a document to per-page text',
    options: {
      ...RUN_OPTIONS,
      format: { type: 'string', placeholder: 'F', description: 'Tables as markdown|html|json|yaml (default html)' },
      dpi: { type: 'string', placeholder: 'N', description: 'image_resolution_dpi for OCR (default 192)' },
    },
    async run(ctx) {
      return createRun(ctx, '/v1/parses', { document: await document(ctx, arg(ctx, 0, 'PATH')), table_parsing_format: str(ctx.values, 'format'), image_resolution_dpi: int(ctx.values, 'dpi') });
    },
  },
  {
    name: 'split',
    args: 'PATH',
    summary: 'Split a bundle into subdocuments',
    options: {
      ...RUN_OPTIONS,
      ...CONSENSUS,
      subdocuments: { type: 'string', placeholder: 'FILE', description: 'JSON file: [{"name", "description", "allow_multiple_instances"}]' },
      subdoc: { type: 'string', multiple: true, placeholder: 'NAME:DESCRIPTION', description: 'A subdocument (repeatable)' },
    },
    async run(ctx) {
      return createRun(ctx, '/v1/splits', { document: await document(ctx, arg(ctx, 0, 'PATH')), subdocuments: parseSubdocs(ctx.values), n_consensus: int(ctx.values, 'n-consensus') });
    },
  },
  {
    name: 'partition',
    args: 'PATH',
    summary: 'Cut a document into one chunk per record',
    options: {
      ...RUN_OPTIONS,
      ...CONSENSUS,
      key: { type: 'string', placeholder: 'KEY', description: 'What identifies a record, e.g. "invoice number" (required)' },
      'no-overlap': { type: 'boolean', description: 'allow_overlap: false' },
    },
    async run(ctx) {
      const key = str(ctx.values, 'key');
      if (!key) throw new UsageError('partition needs --key');
      const instructions = str(ctx.values, 'instructions');
      if (!instructions) throw new UsageError('partition needs --instructions');
      return createRun(ctx, '/v1/partitions', {
        document: await document(ctx, arg(ctx, 0, 'PATH')),
        key,
        instructions,
        n_consensus: int(ctx.values, 'n-consensus'),
        allow_overlap: ctx.values['no-overlap'] === true ? false : undefined,
      });
    },
  },
  {
    name: 'classify',
    args: 'PATH',
    summary: 'Classify a document into one of the categories',
    options: {
      ...RUN_OPTIONS,
      ...CONSENSUS,
      category: { type: 'string', multiple: true, placeholder: 'NAME[:DESCRIPTION]', description: 'A category (at least two)' },
      'first-n-pages': { type: 'string', placeholder: 'N', description: 'Read only the first N pages' },
    },
    async run(ctx) {
      const categories = list(ctx.values, 'category').map(nameAndDescription);
      if (categories.length < 2) throw new UsageError('classify needs at least two --category');
      return createRun(ctx, '/v1/classifications', {
        document: await document(ctx, arg(ctx, 0, 'PATH')),
        categories,
        first_n_pages: int(ctx.values, 'first-n-pages'),
        n_consensus: int(ctx.values, 'n-consensus'),
      });
    },
  },
  {
    name: 'extract',
    args: 'PATH',
    summary: 'Extract JSON matching a schema',
    options: {
      ...RUN_OPTIONS,
      ...CONSENSUS,
      schema: { type: 'string', placeholder: 'FILE', description: 'JSON Schema file (required)' },
      metadata: { type: 'string', multiple: true, placeholder: 'KEY=VALUE', description: 'Metadata (repeatable)' },
    },
    async run(ctx) {
      const schemaFile = str(ctx.values, 'schema');
      if (!schemaFile) throw new UsageError('extract needs --schema FILE');
      return createRun(ctx, '/v1/extractions', {
        document: await document(ctx, arg(ctx, 0, 'PATH')),
        json_schema: readJsonFile(schemaFile, 'Schema file'),
        n_consensus: int(ctx.values, 'n-consensus'),
        metadata: keyValues(ctx.values, 'metadata'),
      });
    },
  },
  {
    name: 'sources',
    args: 'EXTRACTION_ID',
    summary: 'Where each extracted value is in the document',
    async run(ctx) {
      const answer = await ctx.client().call('GET', `/v1/extractions/${encodeURIComponent(arg(ctx, 0, 'EXTRACTION_ID'))}/sources`);
      const rows: unknown[][] = [];
      const walk = (node: any, path: string) => {
        if (node && typeof node === 'object' && 'value' in node && 'source' in node && (node.source === null || typeof node.source === 'object') && Object.keys(node).length === 2) {
          const s = node.source;
          const a = s?.anchor;
          const where = !a ? '' : a.page !== undefined ? `p${a.page} ${[a.left, a.top, a.width, a.height].map((n: number) => n.toFixed(3)).join(',')}` : (a.coordinate ?? JSON.stringify(a));
          rows.push([path, node.value, s?.content ?? '', where]);
        } else if (Array.isArray(node)) node.forEach((item, i) => walk(item, `${path}[${i}]`));
        else if (node && typeof node === 'object') for (const [k, v] of Object.entries(node)) walk(v, path ? `${path}.${k}` : k);
      };
      walk(answer.sources, '');
      ctx.print(answer, renderTable(['field', 'value', 'content', 'where'], rows));
    },
  },
  {
    name: 'schema generate',
    args: 'PATH...',
    summary: 'Generate a JSON Schema from 1..10 example documents',
    options: { ...RUN_OPTIONS },
    async run(ctx) {
      if (!ctx.args.length) throw new UsageError('schema generate needs at least one PATH');
      const documents = [];
      for (const path of ctx.args) documents.push(await document(ctx, path));
      return createRun(ctx, '/v1/schemas/generate', { documents });
    },
  },
  {
    name: 'edit',
    args: '[PATH]',
    summary: 'Fill a PDF form (or a template) from instructions',
    options: {
      ...RUN_OPTIONS,
      instructions: { type: 'string', placeholder: 'FILE', description: 'File of instructions: JSON, key: value lines or free text (required)' },
      template: { type: 'string', placeholder: 'TEMPLATE_ID', description: 'Fill this template instead of a document' },
      color: { type: 'string', placeholder: '#RRGGBB', description: 'Colour of the written values (default #000080)' },
      out: { type: 'string', placeholder: 'PATH', description: 'Write the filled PDF here' },
    },
    async run(ctx) {
      const instructionsFile = str(ctx.values, 'instructions');
      if (!instructionsFile) throw new UsageError('edit needs --instructions FILE');
      const template = str(ctx.values, 'template');
      const path = ctx.args[0];
      if (!!template === !!path) throw new UsageError('edit needs exactly one of PATH and --template TEMPLATE_ID');
      const color = str(ctx.values, 'color');
      const out = str(ctx.values, 'out');
      return createRun(
        ctx,
        '/v1/edits',
        {
          instructions: readFileSync(existingFile(instructionsFile), 'utf8'),
          document: path ? await document(ctx, path) : undefined,
          template_id: template,
          config: color ? { color } : undefined,
        },
        (run) => {
          if (!out) return;
          writeDataUrl(run.output.filled_document.url, out);
          process.stderr.write(`Wrote ${out}\n`);
        },
      );
    },
  },

  {
    name: 'runs get',
    args: 'RUN_ID',
    summary: 'Show any run (parse, split, …, workflow run) by its id',
    async run(ctx) {
      const id = arg(ctx, 0, 'RUN_ID');
      const run = await ctx.client().call('GET', `${(await kindOfId(id)).path}/${encodeURIComponent(id)}`);
      ctx.print(run, await renderRun(run));
      return isTerminal(run) && !succeeded(run) ? 1 : 0;
    },
  },
  {
    name: 'runs wait',
    args: 'RUN_ID',
    summary: 'Wait for a run to end, with a live status line',
    async run(ctx) {
      const id = arg(ctx, 0, 'RUN_ID');
      const run = await ctx.client().call('GET', `${(await kindOfId(id)).path}/${encodeURIComponent(id)}`);
      const final = isTerminal(run) ? run : await waitForRun(ctx.client(), run, { quiet: ctx.json });
      ctx.print(final, await renderRun(final));
      return succeeded(final) ? 0 : 1;
    },
  },
  {
    name: 'runs cancel',
    args: 'RUN_ID',
    summary: 'Cancel a run',
    async run(ctx) {
      const id = arg(ctx, 0, 'RUN_ID');
      const answer = await ctx.client().call('POST', `${(await kindOfId(id)).path}/${encodeURIComponent(id)}/cancel`, { json: {} });
      const run = answer.run ?? answer;
      ctx.print(answer, `${run.id}  ${statusOf(run)}${answer.cancellation_status ? `  (${answer.cancellation_status})` : ''}`);
    },
  },
  {
    name: 'runs delete',
    args: 'RUN_ID',
    summary: 'Delete a run',
    async run(ctx) {
      const id = arg(ctx, 0, 'RUN_ID');
      await ctx.client().call('DELETE', `${(await kindOfId(id)).path}/${encodeURIComponent(id)}`);
      ctx.print({ deleted: id }, `Deleted ${id}`);
    },
  },
  {
    name: 'runs list',
    args: '',
    summary: 'List runs of one type',
    options: {
      type: { type: 'string', placeholder: 'TYPE', description: 'The type of run, as in its events: parse, classification, extraction, … (default parse); an unknown one is answered with the list' },
      status: { type: 'string', placeholder: 'STATUS', description: 'Only runs with this status' },
      limit: { type: 'string', placeholder: 'N', description: 'Page size, 1..100' },
    },
    async run(ctx) {
      const kind = await kindNamed(str(ctx.values, 'type') ?? 'parse');
      const page = await ctx.client().call('GET', kind.path, { query: { status: str(ctx.values, 'status'), limit: str(ctx.values, 'limit') } });
      ctx.print(page, renderTable(['id', 'status', 'file', 'created'], page.data.map((r: any) => [r.id, statusOf(r), r.file?.filename ?? r.workflow_id ?? '', r.created_at ?? r.timing?.created_at])));
    },
  },

  {
    name: 'tables upload',
    args: 'PATH',
    summary: 'Create a table from a CSV file',
    options: {
      name: { type: 'string', placeholder: 'NAME', description: 'Table name (default: the file name)' },
      project: { type: 'string', placeholder: 'PROJECT_ID', description: 'Project of the table' },
      overrides: { type: 'string', placeholder: 'FILE', description: 'JSON file: column → JSON Schema' },
    },
    async run(ctx) {
      const path = existingFile(arg(ctx, 0, 'PATH'));
      const overrides = str(ctx.values, 'overrides');
      const answer = await ctx.client().call('POST', '/v1/tables', {
        json: {
          name: str(ctx.values, 'name') ?? path.split('/').pop(),
          document: await document(ctx, path),
          project_id: str(ctx.values, 'project'),
          column_schema_overrides: overrides ? JSON.stringify(readJsonFile(overrides, 'Overrides file')) : undefined,
        },
      });
      const table = answer.tables[0];
      if (table.status === 'processing') {
        ctx.print(answer, `${table.id}  ${table.name}  processing: the CSV is read in the background (follow it with: quire tables get ${table.id})`);
        return;
      }
      ctx.print(answer, `${table.id}  ${table.name}  ${table.row_count} rows × ${table.columns.length} columns\n${renderColumns(table.columns)}`);
    },
  },
  {
    name: 'tables list',
    args: '',
    summary: 'List tables',
    options: { project: { type: 'string', placeholder: 'PROJECT_ID', description: 'Only tables of this project' } },
    async run(ctx) {
      const answer = await ctx.client().call('GET', '/v1/tables', { query: { project_id: str(ctx.values, 'project') } });
      ctx.print(answer, renderTable(['id', 'name', 'status', 'rows', 'columns', 'updated'], answer.tables.map((t: any) => [t.id, t.name, t.status ?? 'ready', t.row_count ?? '', t.columns.length, t.updated_at])));
    },
  },
  {
    name: 'tables get',
    args: 'TABLE_ID',
    summary: 'Show a table and its columns',
    async run(ctx) {
      const { table } = await ctx.client().call('GET', `/v1/tables/${encodeURIComponent(arg(ctx, 0, 'TABLE_ID'))}`);
      if (table.status && table.status !== 'ready') {
        ctx.print({ table }, `${table.id}  ${table.name}  ${table.status}${table.error ? `: ${table.error.message}` : ''}`);
        return table.status === 'failed' ? 1 : 0;
      }
      ctx.print({ table }, `${table.id}  ${table.name}  ${table.row_count} rows\n${renderColumns(table.columns)}`);
    },
  },
  {
    name: 'tables validate',
    args: 'TABLE_ID',
    summary: 'Validate a table against rules',
    options: { rules: { type: 'string', placeholder: 'FILE', description: 'JSON file: {required_columns, columns, unique} (default: no rules)' } },
    async run(ctx) {
      const rules = str(ctx.values, 'rules');
      const answer = await ctx.client().call('POST', `/v1/tables/${encodeURIComponent(arg(ctx, 0, 'TABLE_ID'))}/validate`, { json: rules ? readJsonFile(rules, 'Rules file') : {} });
      const text = answer.diagnostics.length
        ? renderTable(['severity', 'rule', 'column', 'count', 'rows', 'message'], answer.diagnostics.map((d: any) => [d.severity, d.rule, d.column ?? '', d.count, d.rows.join(','), d.message]), 60)
        : 'No problems found.';
      ctx.print(answer, text);
      return answer.has_errors ? 1 : 0;
    },
  },
  {
    name: 'tables profile',
    args: 'TABLE_ID',
    summary: 'Column statistics of a table',
    options: { select: { type: 'string', multiple: true, placeholder: 'COLUMNS', description: 'Only these columns (repeatable or comma-joined)' } },
    async run(ctx) {
      const answer = await ctx.client().call('GET', `/v1/tables/${encodeURIComponent(arg(ctx, 0, 'TABLE_ID'))}/profile`, { query: { select: list(ctx.values, 'select') } });
      const type = (s: any) => [].concat(s?.type ?? []).join('|') + (s?.format ? ` (${s.format})` : '');
      const rows = answer.columns.map((c: any) => [c.name, type(c.json_schema), c.row_count, c.null_count, c.empty_count, `${c.distinct_count}${c.is_estimated ? '~' : ''}`, c.min, c.max]);
      ctx.print(answer, `${answer.row_count} rows\n${renderTable(['column', 'type', 'rows', 'nulls', 'empty', 'distinct', 'min', 'max'], rows, 24)}`);
    },
  },
  {
    name: 'tables download',
    args: 'TABLE_ID',
    summary: 'Download the CSV of a table',
    options: { out: { type: 'string', placeholder: 'PATH', description: 'Write here instead of stdout' } },
    async run(ctx) {
      const response = await ctx.client().send('GET', `/v1/tables/${encodeURIComponent(arg(ctx, 0, 'TABLE_ID'))}/download`);
      const bytes = Buffer.from(await response.arrayBuffer());
      const out = str(ctx.values, 'out');
      if (out) writeFileSync(out, bytes);
      else process.stdout.write(bytes);
    },
  },
  {
    name: 'tables delete',
    args: 'TABLE_ID',
    summary: 'Delete a table',
    async run(ctx) {
      const id = arg(ctx, 0, 'TABLE_ID');
      await ctx.client().call('DELETE', `/v1/tables/${encodeURIComponent(id)}`);
      ctx.print({ deleted: id }, `Deleted ${id}`);
    },
  },

  {
    name: 'secrets set',
    args: 'NAME',
    summary: 'Create or rotate a secret; the value is read from stdin, never from an argument',
    async run(ctx) {
      const name = arg(ctx, 0, 'secret NAME');
      // One trailing newline (from `echo` or a file) is not part of the value.
      const value = (await ctx.readStdin()).replace(/\r?\n$/, '');
      if (!value) throw new UsageError('No secret value on stdin');
      const answer = await ctx.client().call('PUT', `/v1/secrets/${encodeURIComponent(name)}`, { json: { value } });
      ctx.print(answer, `Saved secret ${answer.secret.name} (updated ${answer.secret.updated_at})`);
    },
  },
  {
    name: 'secrets get',
    args: 'NAME',
    summary: 'Show a secret (with --value, print only its value)',
    options: { value: { type: 'boolean', description: 'Print the value' } },
    async run(ctx) {
      const name = encodeURIComponent(arg(ctx, 0, 'secret NAME'));
      if (ctx.values.value === true) {
        const answer = await ctx.client().call('GET', `/v1/secrets/${name}/value`);
        ctx.print(answer, answer.secret.value);
        return;
      }
      const { secret } = await ctx.client().call('GET', `/v1/secrets/${name}`);
      ctx.print({ secret }, `${secret.name}  created ${secret.created_at} by ${secret.created_by}  updated ${secret.updated_at} by ${secret.updated_by}`);
    },
  },
  {
    name: 'secrets list',
    args: '',
    summary: 'List secrets (names only)',
    async run(ctx) {
      const answer = await ctx.client().call('GET', '/v1/secrets');
      ctx.print(answer, answer.secrets.length ? renderTable(['name', 'updated', 'by'], answer.secrets.map((s: any) => [s.name, s.updated_at, s.updated_by])) : 'No secrets.');
    },
  },
  {
    name: 'secrets delete',
    args: 'NAME',
    summary: 'Delete a secret',
    async run(ctx) {
      const name = arg(ctx, 0, 'secret NAME');
      await ctx.client().call('DELETE', `/v1/secrets/${encodeURIComponent(name)}`);
      ctx.print({ deleted: name }, `Deleted secret ${name}`);
    },
  },

  {
    name: 'webhooks get',
    args: '',
    summary: "The webhook endpoint of the key's environment",
    async run(ctx) {
      const endpoint = await ctx.client().call('GET', '/v1/webhooks/endpoint');
      ctx.print(endpoint, `${endpoint.url}  events ${endpoint.events.join(',')}  ${endpoint.enabled ? 'enabled' : 'disabled'}  secret …${endpoint.secret_last4}`);
    },
  },
  {
    name: 'webhooks set',
    args: 'URL',
    summary: 'Create or change the endpoint (the signing secret is shown once, on creation)',
    options: {
      events: { type: 'string', placeholder: 'TYPES', description: 'Comma-joined event types (default *)' },
      disabled: { type: 'boolean', description: 'Keep it, but send nothing' },
    },
    async run(ctx) {
      const events = str(ctx.values, 'events');
      const endpoint = await ctx.client().call('PUT', '/v1/webhooks/endpoint', {
        json: { url: arg(ctx, 0, 'URL'), events: events ? events.split(',').map((e) => e.trim()) : undefined, enabled: ctx.values.disabled === true ? false : undefined },
      });
      ctx.print(endpoint, `${endpoint.url} saved${endpoint.signing_secret ? `\nSigning secret (shown only now): ${endpoint.signing_secret}` : ''}`);
    },
  },
  {
    name: 'webhooks delete',
    args: '',
    summary: 'Remove the endpoint',
    async run(ctx) {
      await ctx.client().call('DELETE', '/v1/webhooks/endpoint');
      ctx.print({ deleted: true }, 'Webhook endpoint removed');
    },
  },
  {
    name: 'webhooks rotate-secret',
    args: '',
    summary: 'New signing secret; the old one keeps signing during the grace period',
    options: { grace: { type: 'string', placeholder: 'SECONDS', description: 'Grace period (default 86400)' } },
    async run(ctx) {
      const endpoint = await ctx.client().call('POST', '/v1/webhooks/endpoint/rotate-secret', { json: { grace_period_seconds: int(ctx.values, 'grace') } });
      ctx.print(endpoint, `New signing secret (shown only now): ${endpoint.signing_secret}`);
    },
  },
  {
    name: 'webhooks test',
    args: '',
    summary: 'Send a webhook.test event',
    async run(ctx) {
      const answer = await ctx.client().call('POST', '/v1/webhooks/test', { json: {} });
      ctx.print(answer, `Sent ${answer.event_id}`);
    },
  },
  {
    name: 'webhooks deliveries',
    args: '',
    summary: 'The delivery log',
    options: {
      status: { type: 'string', placeholder: 'STATUS', description: 'pending, succeeded, retrying or failed' },
      'event-type': { type: 'string', placeholder: 'TYPE', description: 'Only this event type' },
      limit: { type: 'string', placeholder: 'N', description: 'Page size, 1..100' },
    },
    async run(ctx) {
      const page = await ctx.client().call('GET', '/v1/webhooks/deliveries', { query: { status: str(ctx.values, 'status'), event_type: str(ctx.values, 'event-type'), limit: str(ctx.values, 'limit') } });
      ctx.print(page, renderTable(['id', 'event', 'status', 'attempts', 'last code', 'last error', 'created'], page.data.map((d: any) => [d.id, d.event_type, d.status, d.attempts, d.last_status_code, d.last_error, d.created_at])));
    },
  },
  {
    name: 'webhooks verify',
    args: '',
    summary: 'Verify a received delivery: body from --body-file or stdin; exit 1 if invalid (no API call)',
    options: {
      secret: { type: 'string', multiple: true, placeholder: 'WHSEC', description: 'Signing secret (repeatable during a rotation)' },
      signature: { type: 'string', placeholder: 'HEADER', description: 'The X-Service-Signature header value' },
      environment: { type: 'string', placeholder: 'ENV', description: 'The X-Service-Environment header value' },
      'body-file': { type: 'string', placeholder: 'FILE', description: 'The body exactly as received (default stdin)' },
      tolerance: { type: 'string', placeholder: 'SECONDS', description: 'Allowed clock difference (default 300)' },
    },
    async run(ctx) {
      const secrets = list(ctx.values, 'secret');
      if (!secrets.length) throw new UsageError('webhooks verify needs --secret (the whsec_ signing secret; repeat it for several)');
      const signature = str(ctx.values, 'signature');
      if (!signature) throw new UsageError('webhooks verify needs --signature (the X-Service-Signature header value)');
      const tolerance = int(ctx.values, 'tolerance') ?? 300;
      if (tolerance < 0) throw new UsageError('--tolerance must be a whole number of seconds');
      const bodyFile = str(ctx.values, 'body-file');
      const body = bodyFile ? readFileSync(existingFile(bodyFile)) : Buffer.from(await ctx.readStdin());
      const headers: Record<string, string> = { 'x-service-signature': signature };
      const environment = str(ctx.values, 'environment');
      if (environment) headers['x-service-environment'] = environment;
      try {
        const event = verifyWebhook(body, headers, secrets, { toleranceSeconds: tolerance });
        ctx.print({ valid: true, event }, `Valid: ${event.type} ${event.id} (${event.environment})`);
        return 0;
      } catch (error) {
        if (!(error instanceof WebhookVerificationError)) throw error;
        ctx.print({ valid: false, reason: error.message }, `Invalid: ${error.message}`);
        return 1;
      }
    },
  },
  {
    name: 'webhooks listen',
    args: '',
    summary: 'Receive deliveries on a local port, verify them (secrets from stdin) and print them',
    options: {
      port: { type: 'string', placeholder: 'N', description: 'Port to listen on, on 127.0.0.1 (default 4242)' },
      forward: { type: 'string', placeholder: 'URL', description: 'Also forward each verified delivery (same headers and body) here' },
    },
    async run(ctx) {
      const secrets = (await ctx.readStdin()).split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
      if (!secrets.length) throw new UsageError('webhooks listen reads the signing secret(s) from stdin, one per line');
      await listenForWebhooks({ port: int(ctx.values, 'port') ?? 4242, forward: str(ctx.values, 'forward'), secrets, json: ctx.json });
      return 0;
    },
  },

  {
    name: 'workflows list',
    args: '',
    summary: 'List workflows',
    options: { project: { type: 'string', placeholder: 'PROJECT_ID', description: 'Only workflows of this project' }, limit: { type: 'string', placeholder: 'N', description: 'Page size, 1..100' } },
    async run(ctx) {
      const page = await ctx.client().call('GET', '/v1/workflows', { query: { project_id: str(ctx.values, 'project'), limit: str(ctx.values, 'limit') } });
      ctx.print(page, renderTable(['id', 'name', 'project', 'published', 'updated'], page.data.map((w: any) => [w.id, w.name, w.project_id, w.published?.version_id ?? '', w.updated_at])));
    },
  },
  {
    name: 'workflows get',
    args: 'WORKFLOW_ID',
    summary: 'Show a workflow and its draft',
    async run(ctx) {
      const id = encodeURIComponent(arg(ctx, 0, 'WORKFLOW_ID'));
      const [workflow, draft] = await Promise.all([ctx.client().call('GET', `/v1/workflows/${id}`), ctx.client().call('GET', `/v1/workflows/${id}/draft`)]);
      const blocks = renderTable(['block', 'type', 'name'], draft.blocks.map((b: any) => [b.id, b.type, b.name ?? '']));
      const edges = draft.edges.map((e: any) => `  ${e.source} → ${e.target}${e.source_handle ? ` [${e.source_handle}]` : ''}`).join('\n');
      ctx.print({ workflow, draft }, `${workflow.id}  ${workflow.name}  (published: ${workflow.published?.version_id ?? 'none'})\n${blocks}\n${edges}`);
    },
  },
  {
    name: 'workflows run',
    args: 'WORKFLOW_ID',
    summary: 'Run a workflow with documents and JSON inputs by block id',
    options: {
      document: { type: 'string', multiple: true, placeholder: 'BLOCK=PATH', description: 'A document for a start_document block (repeatable)' },
      input: { type: 'string', multiple: true, placeholder: 'BLOCK=JSON', description: 'A JSON value for a start_json block (repeatable)' },
      version: { type: 'string', placeholder: 'VERSION', description: 'production (default: the published version), draft, or a ver_ id' },
      metadata: { type: 'string', multiple: true, placeholder: 'KEY=VALUE', description: 'Metadata (repeatable)' },
      background: { type: 'boolean', description: 'Print the run id at once' },
      wait: { type: 'boolean', description: 'With --background: poll until the run ends' },
    },
    async run(ctx) {
      const documents: Record<string, unknown> = {};
      for (const [block, path] of Object.entries(keyValues(ctx.values, 'document') ?? {})) documents[block] = await document(ctx, path);
      const jsonInputs: Record<string, unknown> = {};
      for (const [block, text] of Object.entries(keyValues(ctx.values, 'input') ?? {})) {
        try {
          jsonInputs[block] = JSON.parse(text);
        } catch {
          throw new UsageError(`--input ${block}=… is not valid JSON`);
        }
      }
      const run = await ctx.client().call('POST', '/v1/workflows/runs', {
        json: { workflow_id: arg(ctx, 0, 'WORKFLOW_ID'), documents, json_inputs: jsonInputs, version: str(ctx.values, 'version'), metadata: keyValues(ctx.values, 'metadata') },
      });
      if (ctx.values.background === true && ctx.values.wait !== true) {
        ctx.print(run, `Started ${run.id} (${statusOf(run)}). Follow it with: quire runs wait ${run.id}`);
        return 0;
      }
      const final = await waitForRun(ctx.client(), run, { quiet: ctx.json });
      ctx.print(final, await renderRun(final));
      return succeeded(final) ? 0 : 1;
    },
  },
  {
    name: 'workflows export',
    args: 'WORKFLOW_ID',
    summary: 'Export a version of a workflow (a promotion bundle)',
    options: {
      version: { type: 'string', placeholder: 'VERSION', description: 'published (default), draft or a ver_ id' },
      out: { type: 'string', placeholder: 'PATH', description: 'Write the bundle here instead of stdout' },
    },
    async run(ctx) {
      const bundle = await ctx.client().call('GET', `/v1/workflows/${encodeURIComponent(arg(ctx, 0, 'WORKFLOW_ID'))}/export`, { query: { version: str(ctx.values, 'version') } });
      const out = str(ctx.values, 'out');
      if (out) writeFileSync(out, `${JSON.stringify(bundle, null, 2)}\n`);
      else console.log(JSON.stringify(bundle, null, 2));
    },
  },
  {
    name: 'workflows promote',
    args: 'WORKFLOW_ID',
    summary: 'Export from one environment and import into another (keys named by profile or env:VAR)',
    options: {
      'from-key': { type: 'string', placeholder: 'PROFILE|env:VAR', description: 'Key of the source environment (required)' },
      'to-key': { type: 'string', placeholder: 'PROFILE|env:VAR', description: 'Key of the target environment (required)' },
      version: { type: 'string', placeholder: 'VERSION', description: 'published (default), draft or a ver_ id' },
      'target-workflow': { type: 'string', placeholder: 'WORKFLOW_ID', description: 'Update this workflow of the target environment' },
      'target-project': { type: 'string', placeholder: 'PROJECT_ID', description: 'Create the workflow in this project (default: the project of the same name)' },
      'idempotency-key': { type: 'string', placeholder: 'KEY', description: 'Default: derived from the source workflow and version' },
    },
    async run(ctx) {
      const workflowId = arg(ctx, 0, 'WORKFLOW_ID');
      const from = clientFor(ctx, str(ctx.values, 'from-key'), '--from-key');
      const to = clientFor(ctx, str(ctx.values, 'to-key'), '--to-key');
      const bundle = await from.call('GET', `/v1/workflows/${encodeURIComponent(workflowId)}/export`, { query: { version: str(ctx.values, 'version') } });
      let targetProject = str(ctx.values, 'target-project');
      const targetWorkflow = str(ctx.values, 'target-workflow');
      if (!targetWorkflow && !targetProject) targetProject = await sameNamedProject(from, to, workflowId);
      const promotion = await to.call('POST', '/v1/workflows/promotions', {
        json: {
          bundle,
          target_workflow_id: targetWorkflow,
          target_project_id: targetWorkflow ? undefined : targetProject,
          idempotency_key: str(ctx.values, 'idempotency-key') ?? `promote-${workflowId}-${bundle.source.version_id ?? 'draft'}`,
        },
      });
      const lines = [`Promoted ${workflowId} (${bundle.source.environment_slug}) → ${promotion.target_workflow_id}, draft version ${promotion.target_draft_version}`];
      if (promotion.missing_secrets.length) lines.push(`Missing secrets in the target environment: ${promotion.missing_secrets.join(', ')} (set them with: quire secrets set NAME --profile …)`);
      for (const warning of promotion.warnings) lines.push(`Warning: ${warning}`);
      lines.push(`Publish it there with the target key when ready.`);
      ctx.print(promotion, lines.join('\n'));
    },
  },

  {
    name: 'usage',
    args: '',
    summary: 'Credits used by the environment of the key',
    options: { 'from-date': { type: 'string', placeholder: 'DATE', description: 'From (YYYY-MM-DD)' }, 'to-date': { type: 'string', placeholder: 'DATE', description: 'To (YYYY-MM-DD)' } },
    async run(ctx) {
      const usage = await ctx.client().call('GET', '/v1/usage', { query: { from_date: str(ctx.values, 'from-date'), to_date: str(ctx.values, 'to-date') } });
      const rows = Object.entries(usage.by_operation ?? {}).map(([op, credits]) => [op, credits]);
      ctx.print(usage, `${usage.environment_slug}: ${usage.credits} credits (${usage.billable_credits} billable) in ${usage.runs} runs\n${renderTable(['operation', 'credits'], rows)}`);
    },
  },
  {
    name: 'models',
    args: '',
    summary: 'Models of the deployment',
    async run(ctx) {
      const answer = await ctx.client().call('GET', '/v1/models');
      ctx.print(answer, renderTable(['id', 'provider', 'credits/page', 'capabilities'], answer.data.map((m: any) => [m.id, m.provider, m.credits_per_page, m.capabilities.join(',')]), 80));
    },
  },
];

function renderColumns(columns: Array<{ name: string; json_schema: any; required: boolean; unique: boolean; sample_values: string[] }>): string {
  return renderTable(
    ['column', 'type', 'required', 'unique', 'samples'],
    columns.map((c) => [c.name, [].concat(c.json_schema?.type ?? []).join('|') + (c.json_schema?.format ? ` (${c.json_schema.format})` : ''), c.required, c.unique, c.sample_values.join(', ')]),
  );
}

/**
 * A client for a key named on the command line without writing the key there: a profile name, or
 * `env:VAR` for a key held in an environment variable.
 */
function clientFor(ctx: Context, name: string | undefined, flag: string): ApiClient {
  if (!name) throw new UsageError(`workflows promote needs ${flag} (a profile name or env:VAR)`);
  if (/^(rt_test_|rt_live_|sk_service_)/.test(name)) throw new UsageError(`${flag} names a profile or env:VAR; never put a key itself on the command line`);
  if (name.startsWith('env:')) {
    const key = process.env[name.slice(4)];
    if (!key) throw new UsageError(`${flag} ${name}: the environment variable is not set`);
    return new ApiClient(str(ctx.values, 'base-url') ?? process.env.QUIRE_BASE_URL ?? DEFAULT_BASE_URL, key);
  }
  const credentials = resolveCredentials({ profile: name, baseUrl: str(ctx.values, 'base-url') });
  return new ApiClient(credentials.baseUrl, credentials.key);
}

/** The target project named like the source workflow's project, created when missing. */
async function sameNamedProject(from: ApiClient, to: ApiClient, workflowId: string): Promise<string> {
  const workflow = await from.call('GET', `/v1/workflows/${encodeURIComponent(workflowId)}`);
  const name = workflow.project_id ? (await from.call('GET', `/v1/projects/${workflow.project_id}`)).name : 'Promoted workflows';
  const projects = await to.call('GET', '/v1/projects', { query: { limit: 100 } });
  const existing = projects.data.find((p: { name: string }) => p.name === name);
  return existing ? existing.id : (await to.call('POST', '/v1/projects', { json: { name } })).id;
}

/** The context of one invocation; the API client is created on first use (not for usage errors). */
export function makeContext(args: string[], values: Values, stdin: NodeJS.ReadStream = process.stdin): Context {
  let client: ApiClient | undefined;
  const json = values.json === true;
  return {
    args,
    values,
    json,
    client() {
      if (!client) {
        const credentials = resolveCredentials({ profile: str(values, 'profile'), baseUrl: str(values, 'base-url') });
        client = new ApiClient(credentials.baseUrl, credentials.key);
      }
      return client;
    },
    print(object, text) {
      console.log(json ? JSON.stringify(object, null, 2) : text);
    },
    async readStdin() {
      const chunks: Buffer[] = [];
      for await (const chunk of stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
  };
}
