/**
 * The file blueprint task (./kind.ts): the file read once, then what the engines say of it — its
 * kind of document (against every kind the engine knows, models/knowledge/document-types.ts), where a
 * bundle's documents begin and end, its pages and tables, a JSON Schema of its data (guided by the
 * intent), and the operations that fit. With quire-local (the model blueprints run on) it is deterministic.
 */
import type { Doc } from '../documents/doc.ts';
import { dataTables, tableRows } from '../documents/doc.ts';
import { DOCUMENT_TYPES } from '../models/knowledge/document-types.ts';
import { engineFor, schemaGeneratorFor } from '../models/engines.ts';
import { creditsFor } from '../models/registry.ts';
import { timestamp } from '../platform/ids.ts';
import { readRunDocument, runPageImages } from '../runs/document.ts';
import type { RunContext, RunTask } from '../runs/kinds.ts';
import type { DocumentRunInput } from '../runs/prepare.ts';
import { fileBlueprintKind } from './kind.ts';

const MAX_LISTED_TABLES = 50;

export const blueprintTask: RunTask = {
  kind: fileBlueprintKind,
  async execute(ctx: RunContext) {
    const startedAt = timestamp(ctx.platform.clock.now());
    const { record } = ctx;
    const input = record._input as DocumentRunInput;
    const model = record.model as string;
    const intent = (record.intent as string | null) ?? null;
    const doc = await readRunDocument(ctx, input);
    const engine = await engineFor(model);
    const pageImages = runPageImages(ctx, input);
    const ask = { doc, instructions: intent, nConsensus: 1, seed: input.seed, deadline: ctx.deadline, pageImages };
    // Each kind described by its own name only: a description listing every name a kind goes by
    // also calls on the kinds those names belong to (models/local/lexicon.ts triggers). Of the 28
    // born-digital corpus invoices, that misread 16; the kinds' own names misread 7.
    const kinds = DOCUMENT_TYPES.map((type) => ({ name: type.id, description: describe(type.id) }));
    const classified = await engine.classify({ ...ask, categories: kinds, firstNPages: undefined });
    const ranked = Object.entries(classified.scores).sort((a, b) => b[1] - a[1]);
    const whole = { document_type: classified.output.category, pages: doc.pages.map((page) => page.number), likelihood: round(classified.scores[classified.output.category] ?? 0) };
    // Where its documents begin and end: the pages split over every kind (the likeliest kinds of the
    // whole would leave out those of a bundle's smaller documents). One document is named by the
    // classification of the whole, which reads all its pages together.
    let segments = [whole];
    if (doc.pages.length > 1) {
      const split = await engine.split({ ...ask, subdocuments: kinds.map((kind) => ({ ...kind, allow_multiple_instances: true })) });
      if (split.output.length > 1) segments = split.output.map((entry, i) => ({ document_type: entry.name, pages: entry.pages, likelihood: round(split.consensus.likelihoods[i]?.name ?? 0) }));
    }
    const documents = segments.filter((segment) => segment.document_type !== 'other');
    const bundle = documents.length > 1;
    const documentType = bundle
      ? {
          name: 'bundle',
          likelihood: round(Math.min(...documents.map((d) => d.likelihood))),
          reasoning: `It holds ${documents.length} documents: ${documents.map((d) => `${d.document_type} (${pagesText(d.pages)})`).join(', ')}`,
          alternatives: ranked.slice(0, 3).map(([name, score]) => ({ name, likelihood: round(score) })),
        }
      : {
          name: classified.output.category,
          likelihood: whole.likelihood,
          reasoning: classified.output.reasoning,
          alternatives: ranked.slice(1, 4).map(([name, score]) => ({ name, likelihood: round(score) })),
        };
    const generator = await schemaGeneratorFor(model);
    const inferred = await generator.generateSchema({ docs: [doc], instructions: intent, deadline: ctx.deadline, pageImages: [pageImages] });
    const jsonSchema = { title: inferred.title, ...inferred.schema, 'X-SchemaType': inferred.schemaType };
    const output = {
      document: { kind: doc.kind, page_count: doc.pages.length, scanned_pages: doc.pages.filter((page) => page.ocr).map((page) => page.number) },
      document_type: documentType,
      segments,
      pages: doc.pages.map(pageSummary),
      tables: tablesOf(doc),
      json_schema: jsonSchema,
      suggested_operations: suggestions(doc, bundle ? documents : [], jsonSchema),
    };
    return {
      output,
      usage: { credits: creditsFor(model, doc.pages.length), page_count: doc.pages.length },
      fields: { started_at: startedAt, completed_at: timestamp(ctx.platform.clock.now()) },
    };
  },
};

const round = (n: number) => Math.round(n * 1000) / 1000;
const describe = (id: string) => id.replace(/_/g, ' ');

/** "pages 2-4" / "page 1" (a segment's pages are contiguous). */
function pagesText(pages: number[]): string {
  return pages.length === 1 ? `page ${pages[0]}` : `pages ${pages[0]}-${pages[pages.length - 1]}`;
}

function pageSummary(page: Doc['pages'][number]) {
  return {
    page: page.number,
    ...(page.name !== undefined ? { name: page.name } : {}),
    ocr: page.ocr,
    word_count: page.words.length,
    table_count: dataTables(page).length,
    headings: page.blocks.filter((b) => b.kind === 'heading').slice(0, 5).map((b) => b.text),
    form_fields: page.formFields ?? 0,
    ...(page.failure ? { failure: page.failure } : {}),
  };
}

function tablesOf(doc: Doc) {
  return doc.pages
    .flatMap((page) =>
      dataTables(page).map((table) => {
        const rows = tableRows(table);
        return { page: page.number, rows: table.rowCount, columns: table.columnCount, header: table.headerRows > 0 ? rows[table.headerRows - 1]! : [] };
      }),
    )
    .slice(0, MAX_LISTED_TABLES);
}

/** The operations that fit the document, each with why and a body to start from. `documents`: a bundle's documents (none for one document). */
function suggestions(doc: Doc, documents: Array<{ document_type: string }>, jsonSchema: Record<string, unknown>) {
  const out: Array<{ operation: string; reason: string; body?: Record<string, unknown> }> = [];
  const kinds = [...new Set(documents.map((d) => d.document_type))];
  if (documents.length > 1) out.push({ operation: 'split', reason: `It holds ${documents.length} documents (${kinds.join(', ')})`, body: { subdocuments: kinds.map((name) => ({ name, description: describe(name), allow_multiple_instances: true })) } });
  out.push({ operation: 'extract', reason: documents.length > 1 ? 'Its data, by the suggested json_schema (of the whole file: split it first for a schema per document)' : 'Its data, by the suggested json_schema', body: { json_schema: jsonSchema } });
  if (doc.pages.some((page) => (page.formFields ?? 0) > 0)) out.push({ operation: 'edit', reason: 'It has fillable form fields' });
  if (doc.pages.some((page) => dataTables(page).length > 0)) out.push({ operation: 'parse', reason: 'It has tables: a parse gives them as Markdown, HTML, JSON or YAML' });
  return out;
}
