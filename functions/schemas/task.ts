/**
 * The schema generation task: every example read into a Doc, then a schema inferred from them all by
 * the model's schema generator (the local engine's inference, or a provider).
 */
import { schemaGeneratorFor } from '../models/engines.ts';
import { creditsFor } from '../models/registry.ts';
import { readRunDocument, runPageImages } from '../runs/document.ts';
import type { RunContext, RunTask } from '../runs/kinds.ts';
import { schemaGenerationKind } from './kind.ts';
import type { SchemaGenerationInput } from './service.ts';

export const schemaGenerationTask: RunTask = {
  kind: schemaGenerationKind,
  async execute(ctx: RunContext) {
    const { record } = ctx;
    const input = record._input as SchemaGenerationInput;
    const dpi = record.image_resolution_dpi as number;
    const docs = [];
    for (const document of input.documents) docs.push(await readRunDocument(ctx, document, dpi));
    const generator = await schemaGeneratorFor(record.model as string);
    const inferred = await generator.generateSchema({
      docs,
      instructions: record.instructions as string | null,
      deadline: ctx.deadline,
      pageImages: input.documents.map((document) => runPageImages(ctx, document, dpi)),
    });
    const schema = { title: inferred.title, ...inferred.schema, 'X-SchemaType': inferred.schemaType };
    const pages = docs.reduce((sum, doc) => sum + doc.pages.length, 0);
    return { output: schema, usage: { credits: creditsFor(record.model as string, pages) } };
  },
};
