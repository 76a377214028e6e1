import { html, type Html } from '../html.ts';
import type { Environment, MemberRequest } from '../http.ts';
import { STARTABLE } from '../create.ts';
import { layout } from './layout.ts';

const EXAMPLE_NAMES = 'invoice: A bill asking for payment\nreceipt: Proof of a payment made';
export const EXAMPLE_SCHEMA = JSON.stringify(
  {
    type: 'object',
    properties: {
      invoice_number: { type: 'string', description: 'The number of the invoice' },
      invoice_date: { type: 'string', description: 'The date it was issued' },
      total: { type: 'number', description: 'The amount due' },
    },
  },
  null,
  2,
);

export function newRunView(req: MemberRequest, options: { env: Environment; kind?: string; names?: string | undefined; jsonSchema?: string | undefined; error?: string }): Html {
  const { env } = options;
  const kind = options.kind ?? 'parse';
  return layout(req, {
    title: 'New run',
    env,
    section: 'runs',
    body: html`<p>Upload a document (up to about 4 MB here; larger files through the API) and run it in the <strong>${env}</strong> environment. The run starts in the background; its page follows it live.</p>
${options.error ? html`<p class="error" role="alert">${options.error}</p>` : ''}
<form method="post" action="/dashboard/new" enctype="multipart/form-data" class="stack" id="new-run">
<input type="hidden" name="csrf" value="${req.member.session.csrf}">
<input type="hidden" name="env" value="${env}">
<label for="run-kind">Run</label>
<select id="run-kind" name="kind">${STARTABLE.map((k) => html`<option value="${k}"${k === kind ? html` selected` : ''}>${k}</option>`)}</select>
<label for="run-file">Document</label>
<input id="run-file" name="file" type="file" required accept=".pdf,.png,.jpg,.jpeg,.webp,.tif,.tiff,.docx,.xlsx,.pptx,.csv,.txt,.md,.html,.eml">
<div class="stack" data-for-kind="extraction">
<label for="run-schema">JSON Schema (extraction): the object to extract, each property with a type and a description</label>
<textarea id="run-schema" name="json_schema" rows="12" spellcheck="false" aria-describedby="run-schema-check">${options.jsonSchema ?? EXAMPLE_SCHEMA}</textarea>
<p id="run-schema-check" class="hint" aria-live="polite"></p>
</div>
<div class="stack" data-for-kind="classification split">
<label for="run-names">Categories (classification) or subdocuments (split): one per line, "name: description"</label>
<textarea id="run-names" name="names" rows="5" spellcheck="false">${options.names ?? EXAMPLE_NAMES}</textarea>
</div>
<button class="primary">Start run</button>
</form>`,
  });
}
