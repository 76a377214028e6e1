/**
 * ModelClient for Amazon Bedrock through the Converse API. Structured output is a tool: the answer's
 * JSON Schema is the input schema of one tool the model is made to call (toolChoice), and the tool
 * call's input is the answer. Images go as bytes. The SDK's own retries are reduced to one attempt:
 * ./ask.ts retries within the run's budget.
 */
import {
  BedrockRuntimeClient,
  type ContentBlock,
  ConverseCommand,
  type ConverseCommandInput,
  type ImageFormat,
  type Message,
  type ToolInputSchema,
} from '@aws-sdk/client-bedrock-runtime';
import type { BedrockSettings } from '../registry.ts';
import { type ModelClient, ProviderError, repairPrompt, type StructuredRequest } from './client.ts';

const RETRYABLE = new Set(['ThrottlingException', 'ServiceUnavailableException', 'InternalServerException', 'ModelNotReadyException', 'ModelTimeoutException', 'ServiceQuotaExceededException']);

const IMAGE_FORMAT: Record<string, ImageFormat> = { 'image/png': 'png', 'image/jpeg': 'jpeg', 'image/webp': 'webp' };

export class BedrockClient implements ModelClient {
  readonly label: string;
  private readonly bedrock: BedrockRuntimeClient;

  constructor(private readonly settings: BedrockSettings) {
    this.label = `"${settings.model}" (bedrock)`;
    this.bedrock = new BedrockRuntimeClient({ ...(settings.region ? { region: settings.region } : {}), maxAttempts: 1 });
  }

  /** The Converse request (exported for tests of the request shape). */
  input(request: Omit<StructuredRequest, 'signal'>): ConverseCommandInput {
    const content: ContentBlock[] = request.content.map((part) =>
      part.type === 'text' ? { text: part.text } : { image: { format: IMAGE_FORMAT[part.mediaType]!, source: { bytes: part.data } } },
    );
    const messages: Message[] = [{ role: 'user', content }];
    if (request.repair) {
      messages.push({ role: 'assistant', content: [{ text: request.repair.answer }] }, { role: 'user', content: [{ text: repairPrompt(request.repair.problem) }] });
    }
    return {
      modelId: this.settings.model,
      system: [{ text: `${request.system}\n\nAnswer by calling the tool "${request.schemaName}".` }],
      messages,
      inferenceConfig: { temperature: request.temperature },
      toolConfig: {
        tools: [{ toolSpec: { name: request.schemaName, description: `Records the ${request.schemaName}.`, inputSchema: { json: request.schema as ToolInputSchema.JsonMember['json'] } } }],
        toolChoice: { tool: { name: request.schemaName } },
      },
    };
  }

  async complete(request: StructuredRequest): Promise<string> {
    let response;
    try {
      response = await this.bedrock.send(new ConverseCommand(this.input(request)), { abortSignal: request.signal });
    } catch (error) {
      throw providerError(error, request.signal);
    }
    const blocks = response.output?.message?.content ?? [];
    const toolUse = blocks.find((block) => block.toolUse?.name === request.schemaName)?.toolUse;
    if (toolUse) return JSON.stringify(toolUse.input ?? null);
    // No tool call: a text answer may still be the JSON; the repair retry handles it if not.
    return blocks
      .map((block) => block.text ?? '')
      .join('')
      .trim();
  }
}

function providerError(error: unknown, signal: AbortSignal): ProviderError {
  const e = error as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
  if (signal.aborted || e.name === 'AbortError' || e.name === 'TimeoutError') return new ProviderError('retryable', 'the request timed out', { timedOut: true });
  const status = e.$metadata?.httpStatusCode ?? 0;
  const message = `${e.name ?? 'Error'}: ${e.message ?? String(error)}`;
  if (RETRYABLE.has(e.name ?? '') || status === 429 || status >= 500) return new ProviderError('retryable', message);
  // Missing credentials or region: a configuration problem, asking again would not help.
  if (e.name === 'CredentialsProviderError' || /region is missing/i.test(e.message ?? '')) return new ProviderError('fatal', message);
  // Validation, access denied, unknown model: asking again would not help. No status at all is a
  // network failure: worth another try.
  return new ProviderError(status === 0 && !e.name?.endsWith('Exception') ? 'retryable' : 'fatal', message);
}
