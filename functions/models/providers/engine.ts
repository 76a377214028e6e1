/**
 * The provider engine: every operation (classify, split, partition, extract, parse, schema
 * generation) on an LLM behind a ModelClient (OpenAI-compatible or Bedrock). Each operation is a
 * prompt, a JSON Schema for the answer, and the shaping of the answer into the same results the
 * local engine gives. `n_consensus` votes are parallel samples consolidated by the local engine's
 * consensus code (../shared/consensus.ts); provenance comes from locating the values in the Doc
 * (../locate.ts).
 *
 * (Form filling for edits reads no document: the fields and the instructions are the question.)
 * Adding an operation: a schema, a prompt, `this.votes(...)` or `this.ask(...)`, and the shaping.
 */
import type { Doc } from '../../documents/doc.ts';
import { renderPage } from '../../documents/render.ts';
import { ModelFailure } from '../engine.ts';
import type {
  ClassifyRequest,
  ClassifyResult,
  Engine,
  ExtractRequest,
  ExtractResult,
  Extractor,
  FillRequest,
  FillResult,
  FormFiller,
  GeneratedSchema,
  GenerateSchemaRequest,
  JsonSchema,
  PageImages,
  ParseRequest,
  Parser,
  PartitionRequest,
  PartitionResult,
  SchemaGenerator,
  SplitRequest,
  SplitResult,
} from '../engine.ts';
import { consolidateClassification, consolidatePartitions, consolidateSplits, consolidateValues, OTHER, type PartitionVote, type SplitVote } from '../shared/consensus.ts';
import { locateValues } from '../locate.ts';
import type { Capability } from '../registry.ts';
import { withNullableValues } from '../nullable-schema.ts';
import { ask, type AskOptions, mapLimited, type Question, type RetryPolicy } from './ask.ts';
import type { ModelClient, Part } from './client.ts';

export interface ProviderOptions {
  /** Whether the model reads images (pages are then sent as images where the document has them). */
  vision: boolean;
  timeoutMs: number;
  /** Temperature of the samples when n_consensus > 1 (a single vote is asked at 0). */
  temperature?: number;
  retry?: RetryPolicy;
  secrets?: string[];
  /** Most page images in one request; a longer document goes as text (default 20, Bedrock's limit). */
  maxImages?: number;
  /** The operations the deployment allows this model (default: all). */
  capabilities?: Capability[];
}

/** Budget when a request carries no deadline (unit tests, scripts). */
const DEFAULT_BUDGET_MS = 5 * 60_000;
/** Requests in flight at once for one operation (votes, pages of a parse). */
const CONCURRENCY = 4;
const SAMPLE_TEMPERATURE = 0.7;
const DEFAULT_MAX_IMAGES = 20;

const BASE_SYSTEM =
  'You are a careful document-processing assistant. You read the document given by the user (page by page) and answer ' +
  'only with JSON matching the requested schema. Use only what the document says.';

function withInstructions(system: string, instructions: string | null | undefined): string {
  const extra = instructions?.trim();
  return extra ? `${system}\n\nAdditional instructions from the user:\n${extra}` : system;
}

function clamp01(x: unknown): number {
  return typeof x === 'number' && Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 1;
}

export class ProviderEngine implements Engine, Extractor, Parser, SchemaGenerator, FormFiller {
  constructor(
    private readonly client: ModelClient,
    private readonly options: ProviderOptions,
  ) {}

  // -------------------------------------------------------------------------------------------
  // Plumbing

  /** Refuses an operation the model is not configured for (the run fails with configuration_error). */
  private allow(capability: Capability): void {
    const allowed = this.options.capabilities;
    if (allowed && !allowed.includes(capability)) {
      throw new ModelFailure('configuration_error', `The model ${this.client.label} is not configured for ${capability} (its capabilities: ${allowed.join(', ')})`);
    }
  }

  private askOptions(deadline: number | undefined): AskOptions {
    return { deadline: deadline ?? Date.now() + DEFAULT_BUDGET_MS, timeoutMs: this.options.timeoutMs, retry: this.options.retry, secrets: this.options.secrets };
  }

  private ask(question: Question, deadline: number | undefined): Promise<unknown> {
    return ask(this.client, question, this.askOptions(deadline));
  }

  /** `n` answers to the same question, in parallel: one at temperature 0, several as samples. */
  private votes(n: number, question: Omit<Question, 'temperature'>, deadline: number | undefined): Promise<unknown[]> {
    const count = Math.max(1, Math.min(16, Math.floor(n) || 1));
    const temperature = count === 1 ? 0 : (this.options.temperature ?? SAMPLE_TEMPERATURE);
    return mapLimited(Array.from({ length: count }), CONCURRENCY, () => this.ask({ ...question, temperature }, deadline));
  }

  /**
   * The document for the user message: page images for a vision model when the document has pages
   * to show (and no more than maxImages of them), otherwise the text of each page (Markdown, tables
   * as Markdown), marked with its number. Among images, a page the reader could not read (Doc
   * `failure`, listed in a parse's failed_pages) is said to be unreadable rather than rendered, and
   * a page whose image cannot be rendered is given as its text.
   */
  private async documentParts(doc: Doc, pageImages: PageImages | undefined, pages: number[] = doc.pages.map((p) => p.number), label = 'Document'): Promise<Part[]> {
    if (this.options.vision && pageImages && pages.length <= (this.options.maxImages ?? DEFAULT_MAX_IMAGES)) {
      const pageOf = new Map(doc.pages.map((page) => [page.number, page]));
      const images = new Map((await pageImages.render(pages.filter((n) => pageOf.get(n)?.failure === undefined))).map((image) => [image.page, image]));
      const parts: Part[] = [{ type: 'text', text: `${label}: ${pages.length} page${pages.length === 1 ? '' : 's'}, as images.` }];
      for (const n of pages) {
        const image = images.get(n);
        const page = pageOf.get(n);
        if (image) parts.push({ type: 'text', text: `Page ${n}:` }, { type: 'image', mediaType: image.mediaType, data: image.data });
        else if (page?.failure !== undefined) parts.push({ type: 'text', text: `Page ${n}: this page of the file is damaged and cannot be read.` });
        else if (page) parts.push({ type: 'text', text: `Page ${n} (its image cannot be rendered; its text):\n${renderPage(page, 'markdown')}` });
      }
      return parts;
    }
    const wanted = new Set(pages);
    const text = doc.pages
      .filter((page) => wanted.has(page.number))
      .map((page) => `<page number="${page.number}">\n${renderPage(page, 'markdown')}\n</page>`)
      .join('\n');
    return [{ type: 'text', text: `${label}: ${wanted.size} page${wanted.size === 1 ? '' : 's'}.\n${text}` }];
  }

  // -------------------------------------------------------------------------------------------
  // Classification (API §5)

  async classify(request: ClassifyRequest): Promise<ClassifyResult> {
    this.allow('classify');
    const names = request.categories.map((c) => c.name);
    const pages = request.doc.pages.slice(0, request.firstNPages ?? request.doc.pages.length).map((p) => p.number);
    const schema: JsonSchema = {
      type: 'object',
      properties: {
        reasoning: { type: 'string', description: 'The words or phrases of the document that decide the category, quoted.' },
        category: { type: 'string', enum: names },
        confidence: { type: 'number', description: 'How sure you are, from 0 to 1.' },
      },
      required: ['reasoning', 'category', 'confidence'],
      additionalProperties: false,
    };
    const system = withInstructions(
      `${BASE_SYSTEM}\n\nClassify the document into exactly one of these categories:\n${request.categories.map((c) => `- ${c.name}${c.description ? `: ${c.description}` : ''}`).join('\n')}\n` +
        'In "reasoning", name the evidence: words or phrases of the document that decided it.',
      request.instructions,
    );
    const answers = (await this.votes(request.nConsensus, { system, content: await this.documentParts(request.doc, request.pageImages, pages), schema, schemaName: 'classification' }, request.deadline)) as Array<{
      reasoning: string;
      category: string;
      confidence: number;
    }>;
    const votes = answers.map((a) => {
      const confidence = clamp01(a.confidence);
      const rest = names.length > 1 ? (1 - confidence) / (names.length - 1) : 0;
      return { choice: { category: a.category, reasoning: a.reasoning }, scores: Object.fromEntries(names.map((n) => [n, n === a.category ? confidence : rest])) };
    });
    return consolidateClassification(votes, names);
  }

  // -------------------------------------------------------------------------------------------
  // Splits (API §4.1)

  async split(request: SplitRequest): Promise<SplitResult> {
    this.allow('split');
    const pageCount = request.doc.pages.length;
    const names = request.subdocuments.map((s) => s.name);
    const schema: JsonSchema = {
      type: 'object',
      properties: {
        subdocuments: {
          type: 'array',
          items: {
            type: 'object',
            properties: { name: { type: 'string', enum: [...names, ...(names.includes(OTHER) ? [] : [OTHER])] }, pages: { type: 'array', items: { type: 'integer' } } },
            required: ['name', 'pages'],
            additionalProperties: false,
          },
        },
        confidence: { type: 'number', description: 'How sure you are, from 0 to 1.' },
      },
      required: ['subdocuments', 'confidence'],
      additionalProperties: false,
    };
    const kinds = request.subdocuments
      .map((s) => `- ${s.name}${s.description ? `: ${s.description}` : ''}${s.allow_multiple_instances ? ' (may occur several times: give each occurrence its own entry)' : ' (one entry holds all its pages)'}`)
      .join('\n');
    const system = withInstructions(
      `${BASE_SYSTEM}\n\nThe document is a bundle of ${pageCount} pages. Split it into these kinds of subdocument:\n${kinds}\n` +
        `Every page from 1 to ${pageCount} belongs to exactly one entry; pages that fit no kind go to "${OTHER}". Pages are 1-based.`,
      request.instructions,
    );
    const answers = (await this.votes(request.nConsensus, { system, content: await this.documentParts(request.doc, request.pageImages), schema, schemaName: 'split' }, request.deadline)) as Array<{
      subdocuments: Array<{ name: string; pages: number[] }>;
      confidence: number;
    }>;
    const known = new Set(names);
    const votes: SplitVote[] = answers.map((a) => ({
      entries: a.subdocuments.map((e) => ({ name: known.has(e.name) ? e.name : OTHER, pages: pagesIn(e.pages, pageCount) })).filter((e) => e.pages.length > 0),
      confidence: clamp01(a.confidence),
    }));
    const multiple = new Set(request.subdocuments.filter((s) => s.allow_multiple_instances).map((s) => s.name));
    return consolidateSplits(votes, { pageCount, multipleInstances: (name) => multiple.has(name) });
  }

  // -------------------------------------------------------------------------------------------
  // Partitions (API §4.2)

  async partition(request: PartitionRequest): Promise<PartitionResult> {
    this.allow('partition');
    const pageCount = request.doc.pages.length;
    const schema: JsonSchema = {
      type: 'object',
      properties: {
        partitions: {
          type: 'array',
          items: {
            type: 'object',
            properties: { key: { type: 'string', description: `The ${request.key}, exactly as printed.` }, pages: { type: 'array', items: { type: 'integer' } } },
            required: ['key', 'pages'],
            additionalProperties: false,
          },
        },
        confidence: { type: 'number', description: 'How sure you are, from 0 to 1.' },
      },
      required: ['partitions', 'confidence'],
      additionalProperties: false,
    };
    const system = withInstructions(
      `${BASE_SYSTEM}\n\nThe document (${pageCount} pages) holds several records of one kind. Cut it into one chunk per record, ` +
        `keyed by its ${request.key} exactly as printed in the document. Pages are 1-based; a page that belongs to no record is left out.` +
        (request.allowOverlap ? ' A page may belong to two records.' : ' A page belongs to at most one record.'),
      request.instructions,
    );
    const answers = (await this.votes(request.nConsensus, { system, content: await this.documentParts(request.doc, request.pageImages), schema, schemaName: 'partition' }, request.deadline)) as Array<{
      partitions: Array<{ key: string; pages: number[] }>;
      confidence: number;
    }>;
    const votes: PartitionVote[] = answers.map((a) => ({
      entries: a.partitions.map((e) => ({ key: e.key.trim(), pages: pagesIn(e.pages, pageCount) })).filter((e) => e.key !== '' && e.pages.length > 0),
      confidence: clamp01(a.confidence),
    }));
    return consolidatePartitions(votes, { pageCount, allowOverlap: request.allowOverlap });
  }

  // -------------------------------------------------------------------------------------------
  // Extraction (API §6)

  async extract(request: ExtractRequest): Promise<ExtractResult> {
    this.allow('extract');
    // Every value may be null (API §6): the model is asked for null rather than a made-up value.
    const { $schema: _dialect, ...schema } = withNullableValues(request.schema);
    const system = withInstructions(
      `${BASE_SYSTEM}\n\nExtract the data the JSON Schema describes. Copy values as printed (dates and numbers in the schema's types). ` +
        'A value the document does not give is null: never guess, never fill in a placeholder.',
      request.instructions,
    );
    const outputs = (await this.votes(request.nConsensus, { system, content: await this.documentParts(request.doc, request.pageImages), schema, schemaName: 'extraction' }, request.deadline)) as Array<
      Record<string, unknown>
    >;
    const { value, likelihoods } = consolidateValues(outputs);
    const output = value as Record<string, unknown>;
    return { output, sources: locateValues(request.doc, output, request.schema), likelihoods, choices: outputs };
  }

  // -------------------------------------------------------------------------------------------
  // Parse (API §3)

  /**
   * A vision model transcribes each page image (pages in parallel); a text-only model, or a document
   * without page images, gets the Doc's own rendering (its text is what the model would be given).
   */
  async parse(request: ParseRequest): Promise<{ pages: string[] }> {
    this.allow('parse');
    const pageImages = request.pageImages;
    if (!this.options.vision || !pageImages) return { pages: request.doc.pages.map((page) => renderPage(page, request.tableFormat)) };
    const schema: JsonSchema = { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false };
    const tables = { markdown: 'Markdown pipe tables', html: 'HTML <table> elements with <th> for the header row', json: 'a JSON array of row objects keyed by header', yaml: 'a YAML list of row objects keyed by header' }[
      request.tableFormat
    ];
    const system = withInstructions(
      `${BASE_SYSTEM}\n\nTranscribe the page image into "text": all of its text in reading order (columns one after the other), ` +
        `headings and lists as Markdown, tables as ${tables}. Do not add anything that is not on the page.`,
      request.instructions,
    );
    const pages = await mapLimited(request.doc.pages, CONCURRENCY, async (page) => {
      // A page the reader could not read has nothing to show: empty, and listed in failed_pages by the task.
      if (page.failure !== undefined) return '';
      // (A page whose image cannot be rendered is given to the model as its text: documentParts.)
      const answer = (await this.ask({ system, content: await this.documentParts(request.doc, pageImages, [page.number], 'Page'), schema, schemaName: 'page', temperature: 0 }, request.deadline)) as { text: string };
      return answer.text;
    });
    return { pages };
  }

  // -------------------------------------------------------------------------------------------
  // Schema generation (API §7)

  async generateSchema(request: GenerateSchemaRequest): Promise<GeneratedSchema> {
    this.allow('generate_schema');
    const schema: JsonSchema = {
      type: 'object',
      properties: {
        title: { type: 'string', description: 'What the documents are, e.g. "Invoice".' },
        schema_type: { type: 'string', description: 'The document type in snake_case, e.g. "invoice".' },
        json_schema: { type: 'object', description: 'The JSON Schema (type "object") of the data the documents hold.' },
      },
      required: ['title', 'schema_type', 'json_schema'],
      additionalProperties: false,
    };
    const system = withInstructions(
      `${BASE_SYSTEM}\n\nWrite a JSON Schema for extracting the data these example documents hold. Rules: every object level lists all its ` +
        'properties in "required" and sets "additionalProperties": false; repeated structures (table rows, line items, addresses) are ' +
        '"$defs" referenced with "$ref"; properties have snake_case names, a "type" (["string","null"] where some example lacks the value), ' +
        'a "description", and a "format" where one fits ("date", "email").',
      request.instructions,
    );
    const content: Part[] = [];
    for (const [i, doc] of request.docs.entries()) content.push(...(await this.documentParts(doc, request.pageImages?.[i], undefined, `Example document ${i + 1}`)));
    const answer = (await this.ask({ system, content, schema, schemaName: 'schema', temperature: 0 }, request.deadline)) as { title: string; schema_type: string; json_schema: JsonSchema };
    const generated = strictObjects({ ...answer.json_schema, type: 'object' }) as JsonSchema;
    return { title: answer.title, schemaType: answer.schema_type, schema: generated };
  }

  // -------------------------------------------------------------------------------------------
  // Form filling (API §8): what goes in each field of a form, from the user's instructions

  async fill(request: FillRequest): Promise<FillResult> {
    this.allow('edit');
    if (!request.fields.length) return { values: [] };
    // One property per field, keyed f0, f1, ... (field keys may hold characters a schema key cannot).
    const properties: Record<string, JsonSchema> = {};
    request.fields.forEach((field, i) => {
      properties[`f${i}`] =
        field.type === 'checkbox'
          ? { type: ['boolean', 'null'], description: field.description || field.key }
          : field.options?.length
            ? { type: ['string', 'null'], enum: [...field.options, null], description: field.description || field.key }
            : { type: ['string', 'null'], description: field.description || field.key };
    });
    const schema: JsonSchema = { type: 'object', properties, required: Object.keys(properties), additionalProperties: false };
    const fields = request.fields.map((f, i) => `f${i}: key "${f.key}", ${f.type}${f.options?.length ? ` (one of: ${f.options.join(', ')})` : ''} — ${f.description || '(no label)'}`).join('\n');
    const system =
      `${BASE_SYSTEM}\n\nYou fill in a form. For each field, give the value the user's instructions provide for it, formatted as the ` +
      'field suggests (dates, amounts); true or false for a checkbox; null when the instructions give nothing for that field. Never put a ' +
      'value in a field it does not belong to; when the form repeats a field (a second owner), use the matching item of the instructions.';
    const answer = (await this.ask({ system, content: [{ type: 'text', text: `Form fields:\n${fields}\n\nInstructions:\n${request.instructions}` }], schema, schemaName: 'form_values', temperature: 0 }, undefined)) as Record<string, unknown>;
    const values = request.fields.map((field, i) => {
      const value = answer[`f${i}`];
      if (value === null || value === undefined) return null;
      if (field.type === 'checkbox') return value === true ? 'true' : value === false ? 'false' : null;
      const text = String(value).trim();
      if (!text) return null;
      return field.options?.length && !field.options.includes(text) ? null : text;
    });
    return { values };
  }
}

/** The valid 1-based pages of an answer, ascending, without repeats. */
function pagesIn(pages: unknown, pageCount: number): number[] {
  if (!Array.isArray(pages)) return [];
  return [...new Set(pages.filter((p): p is number => Number.isInteger(p) && p >= 1 && p <= pageCount))].sort((a, b) => a - b);
}

/** Every object level of a generated schema: all properties required, no additional properties (API §7). */
function strictObjects(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(strictObjects);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    out[key] = key === 'properties' || key === '$defs' ? Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, strictObjects(v)])) : key === 'enum' || key === 'const' ? value : strictObjects(value);
  }
  if (out.properties && typeof out.properties === 'object') {
    out.required = Object.keys(out.properties);
    out.additionalProperties = false;
  }
  return out;
}
