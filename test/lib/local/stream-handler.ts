/**
 * A streaming handler for the local runtime's streaming tests (functions/platform/response-stream.ts):
 * writes `chunks` lines `delayMs` apart; when its client goes away it stops, and says which it did
 * in the file `marker` (the test reads it: the handler runs in a worker thread).
 */
import { writeFileSync } from 'node:fs';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { ResponseSink } from '../../../functions/platform/response-stream.ts';

export const lines = Object.assign(
  async (event: APIGatewayProxyEventV2, sink: ResponseSink): Promise<void> => {
    const { chunks, delayMs, marker } = JSON.parse(event.body ?? '{}') as { chunks: number; delayMs: number; marker: string };
    sink.head(200, { 'content-type': 'application/stream+json' });
    for (let i = 0; i < chunks; i++) {
      if (sink.cut.aborted) {
        writeFileSync(marker, `cut after ${i}`);
        return;
      }
      sink.write(`${JSON.stringify({ type: 'line', i })}\n`);
      await new Promise((resolve) => setTimeout(resolve, delayMs));
    }
    sink.end();
    writeFileSync(marker, 'done');
  },
  { streaming: true as const },
);
