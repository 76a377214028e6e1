/**
 * The local stand-in for API Gateway (HTTP API, payload format 2.0): matches a request against the
 * route table, turns it into the event API Gateway would send, invokes the route's handler and
 * writes back its result. The Lambda payload ceiling is enforced here as on AWS.
 */
import { isUtf8 } from 'node:buffer';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { ResponseSink } from '../../functions/platform/response-stream.ts';
import { routeKey, SIZES, STREAM_TIMEOUT_SECONDS, type Route } from '../../functions/platform/route.ts';
import { InvocationTimeout, type Invoker, type InvocationOrder } from './invoker.ts';

const PAYLOAD_LIMIT_BYTES = 6 * 1024 * 1024;

/**
 * How much later than a read arriving at the same moment any other request gets a container, when
 * requests wait for one (every container busy: a saturated machine). A read (GET) costs a few
 * milliseconds of CPU; a create starts a run and costs tens. Reads first keeps the API's reads
 * quick while the machine is saturated (32 clients: reads p99 ~75 ms instead of ~500; creates wait
 * longer, README), and a write still waits at most this much longer than in arrival order, so a
 * flood of reads cannot hold writes back for good.
 */
export const WRITE_WAITS_MS = 3000;

/** A request's place in the line for a container (lib/local/invoker.ts): reads before writes, then first come. */
export function requestOrder(method: string | undefined, now = Date.now()): InvocationOrder {
  return { priority: method === 'GET' || method === 'HEAD' ? now : now + WRITE_WAITS_MS };
}

interface CompiledRoute {
  route: Route;
  pattern: RegExp;
  names: string[];
}

function compile(route: Route): CompiledRoute {
  const names: string[] = [];
  const source = route.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{([^}]+)\\?\}/g, (_, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  return { route, pattern: new RegExp(`^${source}$`), names };
}

function requestId(): string {
  return `req_local${randomUUID().replace(/-/g, '').slice(0, 17)}`;
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const id = requestId();
  res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': id, ...headers });
  res.end(JSON.stringify(status >= 500 ? { ...(body as object), request_id: id } : body));
}

const TEXT_TYPES = /^(application\/(json|[a-z.+-]*\+json|x-www-form-urlencoded|xml)|text\/)/i;

function toEvent(req: IncomingMessage, url: URL, matched: CompiledRoute, params: Record<string, string>, body: Buffer): APIGatewayProxyEventV2 {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(',') : value;
  }
  const query: Record<string, string> = {};
  for (const [key, value] of url.searchParams) query[key] = key in query ? `${query[key]},${value}` : value;
  // Bytes that are not UTF-8 travel base64-encoded, so the handler sees them as sent (and can refuse them).
  const isText = TEXT_TYPES.test(headers['content-type'] ?? 'application/json') && isUtf8(body);
  const now = new Date();
  const key = routeKey(matched.route);
  return {
    version: '2.0',
    routeKey: key,
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    headers,
    queryStringParameters: Object.keys(query).length ? query : undefined,
    pathParameters: Object.keys(params).length ? params : undefined,
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: 'local',
      http: { method: req.method ?? 'GET', path: url.pathname, protocol: `HTTP/${req.httpVersion}`, sourceIp: req.socket.remoteAddress ?? '127.0.0.1', userAgent: headers['user-agent'] ?? '' },
      requestId: randomUUID(),
      routeKey: key,
      stage: '$default',
      time: now.toISOString(),
      timeEpoch: now.getTime(),
    },
    body: body.length === 0 ? undefined : isText ? body.toString('utf8') : body.toString('base64'),
    isBase64Encoded: body.length > 0 && !isText,
  };
}

/** Reads the body up to the payload limit; undefined when it is larger. */
function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > PAYLOAD_LIMIT_BYTES) {
      req.resume();
      resolve(undefined);
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > PAYLOAD_LIMIT_BYTES) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(tooLarge ? undefined : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function writeResult(res: ServerResponse, result: unknown) {
  // A Lambda answering a bare object (no statusCode) is JSON 200 for API Gateway.
  const structured: APIGatewayProxyStructuredResultV2 =
    result && typeof result === 'object' && 'statusCode' in result
      ? (result as APIGatewayProxyStructuredResultV2)
      : { statusCode: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(result) };
  const body = structured.body === undefined ? Buffer.alloc(0) : Buffer.from(structured.body, structured.isBase64Encoded ? 'base64' : 'utf8');
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(structured.headers ?? {})) headers[name] = String(value);
  if (structured.cookies?.length) headers['set-cookie'] = structured.cookies;
  headers['content-length'] = String(body.length);
  res.writeHead(structured.statusCode ?? 200, headers);
  res.end(body);
}

/**
 * A streaming route (functions/platform/response-stream.ts): each part the handler writes goes out
 * as it comes (chunked), for up to a function URL's 15 minutes. A client that goes away before the
 * end aborts the sink's `cut`, which the handler hears (in its worker thread too, lib/local/invoker.ts);
 * nothing else stops. A handler that fails after its answer began ends the answer where it was.
 */
async function serveStream(res: ServerResponse, invoker: Invoker, route: Route, event: APIGatewayProxyEventV2): Promise<void> {
  const cut = new AbortController();
  let ended = false;
  res.on('close', () => {
    if (!ended) cut.abort();
  });
  const sink: ResponseSink = {
    head(statusCode, headers) {
      if (res.headersSent || res.destroyed) return;
      res.writeHead(statusCode, headers);
      res.flushHeaders();
    },
    write(chunk) {
      if (!res.destroyed) res.write(chunk);
    },
    end() {
      ended = true;
      if (!res.destroyed && !res.writableEnded) res.end();
    },
    cut: cut.signal,
  };
  try {
    await invoker.invoke({ module: route.module, handler: route.handler }, event, STREAM_TIMEOUT_SECONDS * 1000, 'request', requestOrder(route.method), sink);
    if (!res.headersSent) sendJson(res, 500, { detail: 'Internal error' });
    else sink.end();
  } catch (error) {
    if (res.headersSent) {
      sink.end();
      return;
    }
    if (error instanceof InvocationTimeout || (error as Error).name === 'Sandbox.Timedout') return sendJson(res, 504, { detail: 'The request timed out' });
    console.error('handler invocation failed', (error as Error).name, (error as Error).message);
    sendJson(res, 500, { detail: 'Internal error' });
  }
}

export interface LocalHttpServer {
  url: string;
  server: Server;
  close(): Promise<void>;
}

export async function startHttpServer(options: { routes: Route[]; invoker: Invoker; host: string; port: number }): Promise<LocalHttpServer> {
  const compiled = options.routes.map(compile);

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const candidates = compiled.filter((c) => c.pattern.test(url.pathname));
    if (candidates.length === 0) return sendJson(res, 404, { detail: 'Not Found' });
    // Like API Gateway, a literal segment wins over a parameter: /v1/workflows/runs before /v1/workflows/{id}.
    const matched = candidates.filter((c) => c.route.method === req.method).sort((a, b) => a.names.length - b.names.length)[0];
    if (!matched) return sendJson(res, 405, { detail: 'Method Not Allowed' }, { allow: candidates.map((c) => c.route.method).join(', ') });
    const values = matched.pattern.exec(url.pathname)!.slice(1);
    const params: Record<string, string> = {};
    try {
      matched.names.forEach((name, i) => (params[name] = decodeURIComponent(values[i]!)));
    } catch {
      // "%E0%A4%A" or a lone "%": not a path at all (API Gateway answers 400 too).
      return sendJson(res, 400, { detail: `Malformed percent-encoding in the path ${url.pathname}` });
    }

    const body = await readBody(req);
    if (body === undefined) {
      return sendJson(res, 413, { detail: 'Request body is over 6 MB. Upload the file with POST /v1/files/upload and pass a FileRef instead.' });
    }
    const event = toEvent(req, url, matched, params, body);
    if (matched.route.stream) return serveStream(res, options.invoker, matched.route, event);
    try {
      const result = await options.invoker.invoke({ module: matched.route.module, handler: matched.route.handler }, event, SIZES[matched.route.size].timeoutSeconds * 1000, 'request', requestOrder(req.method));
      writeResult(res, result);
    } catch (error) {
      if (error instanceof InvocationTimeout || (error as Error).name === 'Sandbox.Timedout') return sendJson(res, 504, { detail: 'The request timed out' });
      console.error('handler invocation failed', (error as Error).name, (error as Error).message);
      sendJson(res, 500, { detail: 'Internal error' });
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) sendJson(res, 500, { detail: 'Internal error' });
      else res.destroy();
    });
  });
  // Idle keep-alive connections stay open a minute (like a load balancer). With Node's 5 s default, a
  // client reusing a pooled connection right as the server drops it gets "other side closed" — which
  // happened under load between the e2e test's requests. close() still ends every connection at once.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
