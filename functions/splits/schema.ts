import * as z from 'zod';
import { ModelName } from '../models/schema.ts';
import { DocumentInput, FileRef, PrimitiveError, RunStatus } from '../platform/schemas.ts';
import { NConsensus, uniqueNames } from '../runs/consensus-schema.ts';

export const Subdocument = z.object({
  name: z.string().min(1).max(200),
  description: z.string().max(10_000).default(''),
  allow_multiple_instances: z.boolean().default(false),
});

export const CreateSplitBody = z.object({
  document: DocumentInput,
  subdocuments: z
    .array(Subdocument)
    .min(1, 'give at least 1 subdocument')
    .max(200)
    .superRefine((items, ctx) => uniqueNames(items, ctx, 'Subdocument')),
  model: ModelName,
  instructions: z.string().max(100_000).optional(),
  n_consensus: NConsensus,
  bust_cache: z.boolean().default(false),
  background: z.boolean().default(false),
});
export type CreateSplitBody = z.infer<typeof CreateSplitBody>;

/**
 * A region of a spreadsheet (./regions.ts): sheet_index from 0 in workbook order, rows and columns
 * from 1 (column 1 is A), both ends included; header_rows are row numbers within the region.
 */
export const SheetRegion = z
  .object({
    sheet_index: z.number().int().min(0),
    sheet_name: z.string().min(1).max(255),
    row_start: z.number().int().min(1),
    row_end: z.number().int().min(1),
    col_start: z.number().int().min(1).max(16_384).optional(),
    col_end: z.number().int().min(1).max(16_384).optional(),
    header_rows: z.array(z.number().int().min(1)).max(100).default([]),
  })
  .superRefine((region, ctx) => {
    if (region.row_end < region.row_start) ctx.addIssue({ code: 'custom', path: ['row_end'], message: `row_end ${region.row_end} is before row_start ${region.row_start}` });
    if (region.col_start !== undefined && region.col_end !== undefined && region.col_end < region.col_start) {
      ctx.addIssue({ code: 'custom', path: ['col_end'], message: `col_end ${region.col_end} is before col_start ${region.col_start}` });
    }
    region.header_rows.forEach((row, i) => {
      if (row < region.row_start || row > region.row_end) ctx.addIssue({ code: 'custom', path: ['header_rows', i], message: `header row ${row} is outside the region (rows ${region.row_start}–${region.row_end})` });
    });
  })
  .meta({ id: 'SheetRegion' });

const Entry = z.object({
  name: z.string(),
  pages: z.array(z.number().int()),
  regions: z.array(SheetRegion).optional().describe('Spreadsheets (XLSX, CSV): where the entry is, one region per sheet (its used range)'),
});

export const ReconstructBody = z.object({
  document: DocumentInput.describe('The spreadsheet (XLSX or CSV) the regions are of: a FileRef, as the SDK sends it'),
  subdocuments: z
    .array(
      z.object({
        name: z.string().min(1).max(200),
        regions: z.array(SheetRegion).min(1, 'give at least 1 region').max(1_000),
        partition_key: z.string().min(1).max(200).optional().describe('The key column, by its header: what enrichment.fill_key_spans fills (default: the first column)'),
        enrichment: z
          .object({
            fill_key_spans: z.boolean().optional().describe('Blank cells of the key column take the value above (default false)'),
            flatten_header: z.boolean().optional().describe('Several header rows make one header, parts joined with " / " (default true; false keeps the last header row)'),
            promote_sections: z.boolean().optional().describe('A row with a value in its first cell only is a section title: a "Section" column of the rows under it (default false)'),
          })
          .optional(),
      }),
    )
    .min(1, 'give at least 1 subdocument')
    .max(200),
});
export type ReconstructBody = z.infer<typeof ReconstructBody>;

export const ReconstructResponse = z
  .object({
    tables: z.array(
      z.object({
        label: z.string().describe('The subdocument name (with the sheet name when its regions make several tables)'),
        header: z.array(z.string()),
        rows: z.array(z.object({ cells: z.array(z.string()) })),
        csv: z.string().describe('header and rows as RFC 4180 CSV'),
      }),
    ),
  })
  .meta({ id: 'ReconstructResponse' });

export const Split = z
  .object({
    id: z.string(),
    file: FileRef,
    model: z.string(),
    subdocuments: z.array(z.object({ name: z.string(), description: z.string(), allow_multiple_instances: z.boolean() })),
    n_consensus: z.number().int(),
    instructions: z.string().nullable(),
    output: z.array(Entry),
    consensus: z.object({
      likelihoods: z.array(z.object({ name: z.number(), pages: z.array(z.number()) })),
      choices: z.array(z.array(Entry)),
    }),
    status: RunStatus,
    error: PrimitiveError.nullable(),
    usage: z.object({ credits: z.number() }),
    created_at: z.string(),
  })
  .meta({ id: 'Split' });
