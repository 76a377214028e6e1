/**
 * ModelClient for OpenAI-compatible endpoints (OpenAI, vLLM, Ollama, LM Studio, ...) through the
 * `openai` npm client's chat completions:
 *   - `structuredOutput: "strict"`: response_format json_schema, strict when the schema meets the
 *     strict rules (./validate.ts isStrictCompatible), else non-strict;
 *   - `structuredOutput: "json"`: response_format json_object with the schema in the system prompt,
 *     for endpoints without structured outputs.
 * Images go as data: URLs. The client's own retries are off: ./ask.ts retries within the run's budget.
 */
import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import type { ChatCompletionContentPart, ChatCompletionCreateParamsNonStreaming, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { OpenAiCompatibleSettings } from '../registry.ts';
import { type ModelClient, ProviderError, repairPrompt, type StructuredRequest } from './client.ts';
import { isStrictCompatible } from './validate.ts';

export class OpenAiCompatibleClient implements ModelClient {
  readonly label: string;
  private readonly openai: OpenAI;

  constructor(
    private readonly settings: OpenAiCompatibleSettings,
    apiKey: string | undefined,
  ) {
    this.label = `"${settings.model}" (openai-compatible)`;
    // Local endpoints (Ollama, vLLM) take any key; the client insists on one.
    this.openai = new OpenAI({ baseURL: settings.baseUrl, apiKey: apiKey || 'none', maxRetries: 0, timeout: settings.timeoutMs });
  }

  /** The chat completion request body (exported for tests of the request shape). */
  body(request: Omit<StructuredRequest, 'signal'>): ChatCompletionCreateParamsNonStreaming {
    const json = this.settings.structuredOutput === 'json';
    const system = json ? `${request.system}\n\nAnswer with one JSON object matching this JSON Schema:\n${JSON.stringify(request.schema)}` : request.system;
    const content: ChatCompletionContentPart[] = request.content.map((part) =>
      part.type === 'text' ? { type: 'text', text: part.text } : { type: 'image_url', image_url: { url: `data:${part.mediaType};base64,${Buffer.from(part.data).toString('base64')}` } },
    );
    const messages: ChatCompletionMessageParam[] = [
      { role: 'system', content: system },
      { role: 'user', content },
    ];
    if (request.repair) {
      messages.push({ role: 'assistant', content: request.repair.answer }, { role: 'user', content: repairPrompt(request.repair.problem) });
    }
    return {
      model: this.settings.model,
      messages,
      temperature: request.temperature,
      response_format: json
        ? { type: 'json_object' }
        : { type: 'json_schema', json_schema: { name: request.schemaName, schema: request.schema, strict: isStrictCompatible(request.schema) } },
    };
  }

  async complete(request: StructuredRequest): Promise<string> {
    let completion;
    try {
      completion = await this.openai.chat.completions.create(this.body(request), { signal: request.signal });
    } catch (error) {
      throw providerError(error, request.signal);
    }
    const message = completion.choices?.[0]?.message;
    if (message?.refusal) throw new ProviderError('fatal', `the model refused: ${message.refusal}`);
    // An empty or cut-off answer is invalid JSON: the repair retry gives it a second chance.
    return message?.content ?? '';
  }
}

function providerError(error: unknown, signal: AbortSignal): ProviderError {
  if (error instanceof APIUserAbortError || signal.aborted || error instanceof APIConnectionTimeoutError) {
    return new ProviderError('retryable', 'the request timed out', { timedOut: true });
  }
  if (error instanceof APIConnectionError) return new ProviderError('retryable', `cannot reach the endpoint (${error.message})`);
  if (error instanceof APIError) {
    const status = error.status ?? 0;
    const retryable = status === 408 || status === 409 || status === 429 || status >= 500;
    const retryAfter = Number(error.headers?.get?.('retry-after'));
    return new ProviderError(retryable ? 'retryable' : 'fatal', error.message, Number.isFinite(retryAfter) && retryAfter > 0 ? { retryAfterMs: retryAfter * 1000 } : {});
  }
  return new ProviderError('retryable', error instanceof Error ? error.message : String(error));
}
