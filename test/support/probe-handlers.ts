import { runHandlers } from '../../functions/runs/handlers-kit.ts';
import { CreateProbe, probeKind, probeOperations, resolveDocument } from './probe.ts';
import type { z } from 'zod';

const handlers = runHandlers(probeKind, probeOperations, 'probe_id', async ({ platform, caller, body }) => {
  const b = body as z.infer<typeof CreateProbe>;
  const file = b.document ? (await resolveDocument(platform, caller, b.document, ['body', 'document'])).file : null;
  return {
    fields: {
      file: file ? { id: file.id, filename: file.filename, mime_type: file.mime_type } : null,
      model: b.model,
      mode: b.mode,
      text: b.text,
      instructions: b.instructions ?? null,
    },
    input: { gate: b.gate },
    filename: file?.filename,
    background: b.background,
  };
});

export const createProbe = handlers.create;
export const getProbe = handlers.get;
export const listProbes = handlers.list;
export const deleteProbe = handlers.delete;
export const cancelProbe = handlers.cancel;
