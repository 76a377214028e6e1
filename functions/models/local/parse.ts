/**
 * Parse (API §3) by the local engine: the Doc as read (OCR included) rendered page by page in
 * reading order, tables in the requested format. No model is asked.
 */
import { renderPage } from '../../documents/render.ts';
import type { Parser } from '../engine.ts';

export const localParser: Parser = {
  parse: async (request) => ({ pages: request.doc.pages.map((page) => renderPage(page, request.tableFormat)) }),
};
