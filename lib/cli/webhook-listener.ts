/**
 * `quire webhooks listen`: the local counterpart of a dashboard's event log. It registers nothing:
 * point the environment's endpoint at it (the local runtime allows http://127.0.0.1), and every
 * delivery is verified with the given signing secrets, printed, answered (200 valid, 400 not), and
 * optionally forwarded, headers and body unchanged, to the developer's own handler.
 */
import { createServer, type IncomingMessage } from 'node:http';
import { ENVIRONMENT_HEADER, SIGNATURE_HEADER, verifyWebhook, WebhookVerificationError } from '../../functions/webhooks/verify.ts';

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export async function listenForWebhooks(options: { port: number; forward?: string | undefined; secrets: string[]; json: boolean }): Promise<void> {
  const print = (object: Record<string, unknown>, text: string) => console.log(options.json ? JSON.stringify(object) : text);
  const server = createServer(async (req, res) => {
    const body = await readBody(req);
    const headers = { [SIGNATURE_HEADER]: String(req.headers[SIGNATURE_HEADER] ?? ''), [ENVIRONMENT_HEADER]: String(req.headers[ENVIRONMENT_HEADER] ?? '') };
    let event: ReturnType<typeof verifyWebhook>;
    try {
      event = verifyWebhook(body, headers, options.secrets);
    } catch (error) {
      const reason = error instanceof WebhookVerificationError ? error.message : 'unreadable delivery';
      print({ valid: false, reason }, `✗ rejected: ${reason}`);
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: reason }));
      return;
    }
    print({ valid: true, event }, `✓ ${event.created_at}  ${event.environment}  ${event.type}  ${event.id}\n${JSON.stringify(event.data, null, 2)}`);
    if (!options.forward) {
      res.writeHead(200).end();
      return;
    }
    try {
      const forwarded = await fetch(options.forward, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
        signal: AbortSignal.timeout(10_000),
      });
      print({ forwarded: options.forward, status: forwarded.status }, `  → ${options.forward}: HTTP ${forwarded.status}`);
      // The service sees what the developer's handler answered, so retries behave as they will in production.
      res.writeHead(forwarded.status).end(await forwarded.text());
    } catch (error) {
      print({ forwarded: options.forward, error: (error as Error).message }, `  → ${options.forward}: ${(error as Error).message}`);
      res.writeHead(502).end();
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as { port: number };
  process.stderr.write(`Listening for webhook deliveries on http://127.0.0.1:${port} (Ctrl-C to stop)\n`);
  await new Promise<void>((resolve) => {
    const stop = () => server.close(() => resolve());
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
