/**
 * One structured answer from a provider, the way every operation needs it:
 *   - each request gets the smaller of the model's per-request timeout and what is left of the run;
 *   - rate limits, 5xx, connection failures and timeouts are asked again with exponential backoff
 *     (honouring Retry-After) while the run has time;
 *   - the answer is parsed and validated against the schema; an invalid one is asked again once with
 *     the problem named (the repair retry);
 *   - what still fails becomes the run's PrimitiveError: `model_unavailable` (the provider could not
 *     answer), `model_error` (it refused the request or answered invalidly) or `timeout` (the run's
 *     budget ran out), with the provider's message, secrets removed.
 */
import { type JsonSchema, ModelFailure } from '../engine.ts';
import { type ModelClient, type Part, ProviderError } from './client.ts';
import { parseAnswer } from './validate.ts';

export interface AskOptions {
  /** Epoch ms by which the answer must be in. */
  deadline: number;
  /** Time allowed for one request. */
  timeoutMs: number;
  retry?: RetryPolicy;
  /** Strings that must never appear in a message (the API key). */
  secrets?: string[];
}

export interface RetryPolicy {
  /** First backoff delay; doubled after each failure up to maxDelayMs (plus up to 25% jitter). */
  baseDelayMs: number;
  maxDelayMs: number;
  /** Attempts in all (the first one included). */
  maxAttempts: number;
}

export const DEFAULT_RETRY: RetryPolicy = { baseDelayMs: 1_000, maxDelayMs: 20_000, maxAttempts: 6 };

export interface Question {
  system: string;
  content: Part[];
  schema: JsonSchema;
  schemaName: string;
  temperature: number;
}

export async function ask(client: ModelClient, question: Question, options: AskOptions): Promise<unknown> {
  let repair: { answer: string; problem: string } | undefined;
  for (;;) {
    const answer = await withRetries(client, (signal) => client.complete({ ...question, repair, signal }), options);
    const parsed = parseAnswer(answer, question.schema);
    if (parsed.ok) return parsed.value;
    if (repair) throw new ModelFailure('model_error', `The model ${client.label} gave an invalid answer twice: ${parsed.problem}`);
    repair = { answer, problem: parsed.problem };
  }
}

/** A retry is only worth it with at least this much of the run's budget left after the backoff. */
const MIN_ATTEMPT_MS = 500;

async function withRetries(client: ModelClient, call: (signal: AbortSignal) => Promise<string>, options: AskOptions): Promise<string> {
  const retry = options.retry ?? DEFAULT_RETRY;
  const timedOut = () => new ModelFailure('timeout', `The model ${client.label} did not answer within the run's time budget`);
  let delay = retry.baseDelayMs;
  for (let attempt = 1; ; attempt++) {
    const left = options.deadline - Date.now();
    if (left <= 0) throw timedOut();
    try {
      return await call(AbortSignal.timeout(Math.min(options.timeoutMs, left)));
    } catch (error) {
      const failure = error instanceof ProviderError ? error : new ProviderError('retryable', messageOf(error));
      const message = clean(failure.message, options.secrets);
      if (failure.kind === 'fatal') throw new ModelFailure('model_error', `The model ${client.label} refused the request: ${message}`);
      const wait = Math.min(retry.maxDelayMs, Math.max(delay, failure.options.retryAfterMs ?? 0)) * (1 + Math.random() * 0.25);
      const outOfTime = Date.now() + wait + MIN_ATTEMPT_MS >= options.deadline;
      if (failure.options.timedOut && Date.now() >= options.deadline - MIN_ATTEMPT_MS) throw timedOut();
      if (attempt >= retry.maxAttempts || outOfTime) {
        throw new ModelFailure('model_unavailable', `The model ${client.label} is unavailable after ${attempt} attempt${attempt > 1 ? 's' : ''}: ${message}`);
      }
      await new Promise((resolve) => setTimeout(resolve, wait));
      delay = Math.min(retry.maxDelayMs, delay * 2);
    }
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The provider's message without secrets or anything that looks like a key, and not too long. */
export function clean(message: string, secrets: string[] = []): string {
  let text = message;
  for (const secret of secrets) if (secret.length >= 4) text = text.split(secret).join('[redacted]');
  text = text.replace(/\b(sk|rk|pk)-[A-Za-z0-9_*-]{6,}/g, '[redacted]').replace(/\b(AKIA|ASIA)[A-Z0-9]{12,}/g, '[redacted]');
  text = text.replace(/Bearer\s+\S+/gi, 'Bearer [redacted]');
  return text.length > 500 ? `${text.slice(0, 500)}…` : text;
}

/** Runs `work` over `items` with at most `limit` at once, results in order. */
export async function mapLimited<T, R>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]!, i);
    }
  });
  await Promise.all(workers);
  return results;
}
