/**
 * What a provider engine needs of an LLM endpoint: one structured answer (a JSON text meant to match
 * a JSON Schema) to a system prompt plus a user message of text and images. The OpenAI-compatible
 * and Bedrock clients implement it; everything else (prompts, validation, retries, consensus) is
 * shared and lives in ./engine.ts and ./ask.ts.
 */
import type { JsonSchema } from '../engine.ts';

export type Part = { type: 'text'; text: string } | { type: 'image'; mediaType: 'image/png' | 'image/jpeg' | 'image/webp'; data: Uint8Array };

export interface StructuredRequest {
  system: string;
  content: Part[];
  /** The JSON Schema the answer must match. */
  schema: JsonSchema;
  /** A short name for the schema (the tool's or response format's name), e.g. "classification". */
  schemaName: string;
  temperature: number;
  /** Set when asking again after an invalid answer: what was answered and what was wrong with it. */
  repair?: { answer: string; problem: string };
  /** Aborts the request (its time budget). */
  signal: AbortSignal;
}

export interface ModelClient {
  /** "openai-compatible gpt-4o-mini": how the model is named in messages. */
  readonly label: string;
  /** The answer as JSON text. Throws ProviderError. */
  complete(request: StructuredRequest): Promise<string>;
}

/**
 * A failed call. `retryable`: rate limits, 5xx, connection failures, timeouts (asked again with
 * backoff while the run has time); `fatal`: the request itself was refused (bad model id, bad key,
 * bad request), asking again would not help.
 */
export class ProviderError extends Error {
  constructor(
    readonly kind: 'retryable' | 'fatal',
    message: string,
    readonly options: { timedOut?: boolean; retryAfterMs?: number } = {},
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

/** The phrase models get after an invalid answer, shared by the clients. */
export function repairPrompt(problem: string): string {
  return `Your previous answer was not valid: ${problem}. Answer again with JSON that matches the schema exactly.`;
}
