/**
 * The HTTP plumbing shared by the local AWS endpoints that speak the awsJson protocols (kms.ts:
 * awsJson1_1, stepfunctions.ts: awsJson1_0): `POST /` with `X-Amz-Target: <Prefix>.<Operation>`
 * and a JSON object body, answered with JSON, errors as `{"__type", "message"}`.
 *
 * The services only give their operations; the error type names that differ between services
 * (unknown operation, internal failure) are given by each one.
 */
import http from 'node:http';
import { randomUUID } from 'node:crypto';

/** An error answered to the client as `{"__type": type, "message": message}`. */
export class ApiError extends Error {
  constructor(
    readonly type: string,
    message: string,
    readonly statusCode = 400,
  ) {
    super(message);
  }
}

export interface AwsJsonEndpointOptions {
  host: string;
  port: number; // 0: ephemeral
  /** e.g. 'TrentService.'; the rest of X-Amz-Target is the operation. */
  targetPrefix: string;
  /** e.g. 'application/x-amz-json-1.1' */
  contentType: string;
  /** A larger request body is answered with a ValidationException. */
  maxRequestBytes: number;
  /** The __type answered to a request that is not `POST` with a matching X-Amz-Target, or names no operation. */
  unknownOperationType: string;
  /** The __type (status 500) answered when an operation throws anything but an ApiError. */
  internalErrorType: string;
  /** The operations by name; a result (awaited) is the JSON answer. Throw ApiError for a client error. */
  operations: Readonly<Record<string, AwsJsonOperation>>;
}

export type AwsJsonOperation = (body: Record<string, unknown>) => unknown;

export interface AwsJsonEndpoint {
  endpoint: string; // http://<host>:<port>
  port: number;
  server: http.Server;
  /** Closes the server and its open connections (no port left bound); idempotent. */
  close(): Promise<void>;
}

export async function startAwsJsonEndpoint(options: AwsJsonEndpointOptions): Promise<AwsJsonEndpoint> {
  const server = http.createServer((req, res) => {
    void serveAwsJson(req, res, options);
  });
  // A malformed request must not crash the process; just drop that connection.
  server.on('clientError', (_err, socket) => socket.destroy());
  const port = await listen(server, options.host, options.port);

  let closing: Promise<void> | undefined;
  return {
    endpoint: `http://${options.host}:${port}`,
    port,
    server,
    close() {
      closing ??= closeServer(server);
      return closing;
    },
  };
}

export function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/** Answers one request; never throws, never rejects. */
async function serveAwsJson(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  options: AwsJsonEndpointOptions,
): Promise<void> {
  const { targetPrefix } = options;
  let status = 200;
  let payload: unknown;
  try {
    const target = req.headers['x-amz-target'];
    if (req.method !== 'POST' || typeof target !== 'string' || !target.startsWith(targetPrefix)) {
      throw new ApiError(options.unknownOperationType, 'Expected POST / with X-Amz-Target: ' + targetPrefix + '<Operation>');
    }
    const body = await readJsonBody(req, options.maxRequestBytes);
    const operation = target.slice(targetPrefix.length);
    const run = Object.hasOwn(options.operations, operation) ? options.operations[operation] : undefined;
    if (!run) throw new ApiError(options.unknownOperationType, `Operation ${operation} is not supported locally`);
    payload = await run(body);
  } catch (error) {
    const apiError =
      error instanceof ApiError ? error : new ApiError(options.internalErrorType, describeError(error), 500);
    status = apiError.statusCode;
    payload = { __type: apiError.type, message: apiError.message };
  }
  try {
    const text = JSON.stringify(payload ?? {});
    res.writeHead(status, {
      'content-type': options.contentType,
      'content-length': Buffer.byteLength(text),
      'x-amzn-requestid': randomUUID(),
    });
    res.end(text);
  } catch {
    res.destroy(); // the client went away mid-answer
  }
}

async function readJsonBody(req: http.IncomingMessage, maxBytes: number): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw new ApiError('ValidationException', 'Request body is too large');
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return {};
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ApiError('SerializationException', 'Request body is not valid JSON');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ApiError('SerializationException', 'Request body must be a JSON object');
  }
  return body as Record<string, unknown>;
}

function listen(server: http.Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
}

function closeServer(server: http.Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    // Keep-alive sockets of SDK clients would otherwise hold the port until they time out.
    server.closeAllConnections();
  });
}
