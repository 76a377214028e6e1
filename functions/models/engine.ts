/**
 * What a model does with a Doc for the "which pages are what" operations (API §4–§5). The built-in
 * `quire-local` engine (./local/) implements it deterministically and offline; LLM providers will
 * implement the same interface. Engines know nothing of HTTP or AWS.
 */
import type { Doc, Origin } from '../documents/doc.ts';

export interface Category {
  name: string;
  description: string;
}

export interface Subdocument {
  name: string;
  description: string;
  allow_multiple_instances: boolean;
}

export interface ClassifyRequest {
  doc: Doc;
  categories: Category[];
  instructions: string | null;
  /** Only these first pages are read (undefined: all). */
  firstNPages: number | undefined;
  /** 1..16 independent votes. */
  nConsensus: number;
  /** Seeds the votes (derived from the request), so a repeated request gives the same answer. */
  seed: string;
  /** Epoch ms by which the work must end (providers stop retrying and give up by then). */
  deadline?: number;
  /** The document's pages as images, for vision models (absent: the document has none). */
  pageImages?: PageImages;
}

export interface ClassificationChoice {
  category: string;
  /** Names the evidence: words or phrases of the document that decided it. */
  reasoning: string;
}

export interface ClassifyResult {
  output: ClassificationChoice;
  /** Each category's 0..1 score, summing to 1. */
  scores: Record<string, number>;
  /** `choices`: exactly nConsensus votes; `likelihoods`: the chosen category's vote share (or confidence for one vote). */
  consensus: { choices: ClassificationChoice[]; likelihoods: number };
}

export interface SplitRequest {
  doc: Doc;
  subdocuments: Subdocument[];
  instructions: string | null;
  nConsensus: number;
  seed: string;
  deadline?: number;
  pageImages?: PageImages;
}

export interface SplitEntry {
  name: string;
  /** 1-based, ascending. */
  pages: number[];
}

export interface SplitResult {
  /** Ordered by first page; every page in exactly one entry; unmatched pages in one "other" entry. */
  output: SplitEntry[];
  consensus: {
    /** Parallel to output: the entry's likelihood and each of its pages' likelihoods, 0..1. */
    likelihoods: Array<{ name: number; pages: number[] }>;
    /** One split per vote. */
    choices: SplitEntry[][];
  };
}

export interface PartitionRequest {
  doc: Doc;
  /** What identifies a record, e.g. "invoice number". */
  key: string;
  instructions: string;
  allowOverlap: boolean;
  nConsensus: number;
  seed: string;
  deadline?: number;
  pageImages?: PageImages;
}

export interface PartitionEntry {
  /** The value as printed in the document, e.g. "INV-5101". */
  key: string;
  /** 1-based, ascending. */
  pages: number[];
}

export interface PartitionResult {
  /** Ordered by first page. */
  output: PartitionEntry[];
  consensus: {
    likelihoods: Array<{ key: number; pages: number[] }>;
    choices: PartitionEntry[][];
  };
}

export interface Engine {
  classify(request: ClassifyRequest): Promise<ClassifyResult>;
  split(request: SplitRequest): Promise<SplitResult>;
  partition(request: PartitionRequest): Promise<PartitionResult>;
}

// ---- extraction (API §6) ----

/** A JSON Schema object (already checked: an object schema; `$ref`s resolvable within `$defs`). */
export type JsonSchema = Record<string, unknown>;

/** Where an extracted value was read: the smallest backing text, its line or row, and its place. */
export interface Found {
  /** The smallest text of the document that backs the value, as printed. */
  content: string;
  /** The surrounding text: the line or table row, up to about 200 characters. */
  context: string;
  /**
   * The native place of `content`: for PDFs and images a box covering exactly its words (a union
   * box when they span lines), in page units; a cell for CSV/XLSX; a span for DOCX and text.
   */
  origin: Origin;
}

/** A tree parallel to an extraction's output: objects keep their keys, arrays their items. */
export type Tree<Leaf> = Leaf | Tree<Leaf>[] | { [key: string]: Tree<Leaf> };

export interface ExtractRequest {
  doc: Doc;
  schema: JsonSchema;
  instructions: string | null;
  nConsensus: number;
  seed: string;
  deadline?: number;
  pageImages?: PageImages;
}

export interface ExtractResult {
  /** An object valid against the schema; a value not found is null where the schema allows it. */
  output: Record<string, unknown>;
  /** Parallel to `output`: each leaf's Found, or null when nothing in the document backs it. */
  sources: Tree<Found | null>;
  /** Parallel to `output`: each leaf's likelihood, 0..1. */
  likelihoods: Tree<number>;
  /** One output per vote. */
  choices: Record<string, unknown>[];
}

export interface Extractor {
  extract(request: ExtractRequest): Promise<ExtractResult>;
}

// ---- page images (vision models) ----

export interface PageImage {
  /** 1-based page number. */
  page: number;
  mediaType: 'image/png' | 'image/jpeg' | 'image/webp';
  data: Uint8Array;
}

/** Renders pages of the run's document as images on demand (only vision models ask). */
export interface PageImages {
  render(pages: number[]): Promise<PageImage[]>;
}

// ---- parse (API §3) and schema generation (API §7) ----

export interface ParseRequest {
  doc: Doc;
  /** How tables are written (API §3 table_parsing_format). */
  tableFormat: 'markdown' | 'yaml' | 'html' | 'json';
  instructions: string | null;
  deadline?: number;
  pageImages?: PageImages;
}

export interface Parser {
  /** One text per page, in page order. */
  parse(request: ParseRequest): Promise<{ pages: string[] }>;
}

export interface GenerateSchemaRequest {
  docs: Doc[];
  instructions: string | null;
  deadline?: number;
  /** Page images of each document (parallel to docs; undefined where a document has none). */
  pageImages?: Array<PageImages | undefined>;
}

export interface GeneratedSchema {
  title: string;
  /** The document type, e.g. "invoice" (X-SchemaType). */
  schemaType: string;
  /** The JSON Schema: objects list every property in `required` and set additionalProperties false. */
  schema: JsonSchema;
}

export interface SchemaGenerator {
  generateSchema(request: GenerateSchemaRequest): Promise<GeneratedSchema>;
}

// ---- form filling (API §8) ----

/** A form field to fill, as the engine sees it: its stable key, kind, label text, and choices. */
export interface FillField {
  key: string;
  type: 'text' | 'checkbox';
  /** The field's label and any nearby instruction text. */
  description: string;
  /** The choices of a dropdown (a value must be one of them), when the form lists them. */
  options?: string[];
  /** The most characters the field holds, when the form says (a longer value does not fit). */
  maxLength?: number;
  /** One character per printed box (a comb field): spaces in a value are left out. */
  comb?: boolean;
  /** Where the field sits (fractions of its page, top-left origin), when known: options named by position. */
  box?: { page: number; left: number; top: number; width: number; height: number };
  /** The title of the block of the form the field is in ("Donateur"), when the page prints one; its description starts with it. */
  block?: string;
}

export interface FillRequest {
  fields: FillField[];
  /** Free text, `key: value` lines, or a JSON document of the values to write. */
  instructions: string;
}

export interface FillResult {
  /** Parallel to `fields`: the text to write, "true"/"false" for checkboxes, null when nothing matched. */
  values: Array<string | null>;
}

/** Decides what goes in each field of a form from the instructions. */
export interface FormFiller {
  fill(request: FillRequest): Promise<FillResult>;
}

/**
 * An expected failure of a model (a provider that refuses, is unavailable, answers out of time, or is
 * not configured for the operation). Engines throw it; the run's task ends the run failed with `code`.
 */
export class ModelFailure extends Error {
  constructor(
    readonly code: 'model_error' | 'model_unavailable' | 'timeout' | 'configuration_error',
    message: string,
  ) {
    super(message);
    this.name = 'ModelFailure';
  }
}
