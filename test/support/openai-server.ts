/**
 * A local OpenAI-compatible HTTP test server (POST /v1/chat/completions) for the provider tests. It
 * records every request and answers with canned structured outputs; it can be told to fail (any
 * status, with a message), stall (never answer), or answer with text that is not valid JSON.
 *
 *   const server = await startOpenAiServer();
 *   server.answer('extraction', { invoice_number: 'INV-1' });       // by response schema name
 *   server.script.push({ status: 429, message: 'slow down' }, { json: {...} }); // next replies first
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Reply =
  /** A completion whose message content is this JSON. */
  | { json: unknown }
  /** A completion whose message content is this raw text (e.g. invalid JSON). */
  | { content: string }
  /** An error response in OpenAI's shape. */
  | { status: number; message: string; headers?: Record<string, string> }
  /** No answer at all (the connection is left open until the server closes). */
  | { stall: true };

export interface RecordedRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: {
    model: string;
    messages: Array<{ role: string; content: string | Array<{ type: string; text?: string; image_url?: { url: string } }> }>;
    temperature?: number;
    response_format?: { type: string; json_schema?: { name: string; schema: Record<string, unknown>; strict?: boolean } };
  };
}

export interface OpenAiServer {
  /** Base URL to configure, e.g. http://127.0.0.1:PORT/v1 */
  baseUrl: string;
  requests: RecordedRequest[];
  /** Replies used first, in order, before the canned answers. */
  script: Reply[];
  /** The canned answer for a response schema name (json_object requests use the "json" name). */
  answer(schemaName: string, reply: (request: RecordedRequest) => Reply): void;
  answer(schemaName: string, json: Record<string, unknown>): void;
  reset(): void;
  close(): Promise<void>;
}

export async function startOpenAiServer(): Promise<OpenAiServer> {
  const requests: RecordedRequest[] = [];
  const script: Reply[] = [];
  const answers = new Map<string, (request: RecordedRequest) => Reply>();
  const stalled = new Set<ServerResponse>();

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const recorded: RecordedRequest = { path: req.url ?? '', headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') };
      requests.push(recorded);
      if (req.method !== 'POST' || !recorded.path.endsWith('/chat/completions')) return send(res, 404, { error: { message: 'not found' } });
      const name = recorded.body.response_format?.json_schema?.name ?? 'json';
      const reply = script.shift() ?? answers.get(name)?.(recorded) ?? { status: 500, message: `no canned answer for ${name}` };
      if ('stall' in reply) {
        stalled.add(res);
        return;
      }
      if ('status' in reply) return send(res, reply.status, { error: { message: reply.message, type: 'test_error', code: null } }, reply.headers);
      const content = 'json' in reply ? JSON.stringify(reply.json) : reply.content;
      send(res, 200, {
        id: `chatcmpl-${requests.length}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: recorded.body.model,
        choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content, refusal: null } }],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    script,
    answer(schemaName: string, reply: Record<string, unknown> | ((request: RecordedRequest) => Reply)) {
      answers.set(schemaName, typeof reply === 'function' ? reply : () => ({ json: reply }));
    },
    reset() {
      requests.length = 0;
      script.length = 0;
      answers.clear();
    },
    async close() {
      for (const res of stalled) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** The text parts of a recorded request's user message, joined. */
export function userText(request: RecordedRequest): string {
  const user = request.body.messages.find((m) => m.role === 'user')!;
  return typeof user.content === 'string' ? user.content : user.content.map((p) => p.text ?? '').join('\n');
}

/** The image URLs of a recorded request's user message. */
export function userImages(request: RecordedRequest): string[] {
  const user = request.body.messages.find((m) => m.role === 'user')!;
  return typeof user.content === 'string' ? [] : user.content.filter((p) => p.type === 'image_url').map((p) => p.image_url!.url);
}

/** The system prompt of a recorded request. */
export function systemPrompt(request: RecordedRequest): string {
  return request.body.messages.find((m) => m.role === 'system')!.content as string;
}
