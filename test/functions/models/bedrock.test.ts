/** The provider engine over Amazon Bedrock (Converse API, tool use for structured output), through aws-sdk-client-mock. */
import { withNullableValues } from '../../../functions/models/nullable-schema.ts';
import { BedrockRuntimeClient, ConverseCommand, type ConverseCommandInput, ThrottlingException, AccessDeniedException, type ConverseCommandOutput } from '@aws-sdk/client-bedrock-runtime';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { Doc } from '../../../functions/documents/doc.ts';
import { readDocument } from '../../../functions/documents/read.ts';
import type { PageImages } from '../../../functions/models/engine.ts';
import { BedrockClient } from '../../../functions/models/providers/bedrock.ts';
import { ProviderEngine } from '../../../functions/models/providers/engine.ts';
import { ModelFailure } from '../../../functions/models/engine.ts';

const bedrock = mockClient(BedrockRuntimeClient);
beforeEach(() => bedrock.reset());
afterAll(() => bedrock.restore());

const MODEL = 'anthropic.claude-3-5-sonnet-20240620-v1:0';

function engine(vision = false): ProviderEngine {
  return new ProviderEngine(new BedrockClient({ provider: 'bedrock', model: MODEL, region: 'eu-west-1', vision, timeoutMs: 5_000 }), {
    vision,
    timeoutMs: 5_000,
    retry: { baseDelayMs: 5, maxDelayMs: 20, maxAttempts: 3 },
  });
}

function toolAnswer(name: string, input: unknown): ConverseCommandOutput {
  return {
    $metadata: {},
    output: { message: { role: 'assistant', content: [{ toolUse: { toolUseId: 't1', name, input: input as never } }] } },
    stopReason: 'tool_use',
    usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
    metrics: { latencyMs: 1 },
  };
}

async function txtDoc(text: string): Promise<Doc> {
  return readDocument(Buffer.from(text), { kind: 'txt', dpi: 72, deadline: Date.now() + 10_000 });
}

const SCHEMA = { type: 'object', properties: { invoice_number: { type: 'string' } }, required: ['invoice_number'], additionalProperties: false };
const TEXT = 'Invoice number: INV-77\nTotal: 12.00\n';

const sent = (i = 0) => bedrock.commandCalls(ConverseCommand)[i]!.args[0].input as ConverseCommandInput;

describe('Bedrock provider', () => {
  it('asks through one forced tool whose input schema is the JSON Schema; instructions in the system prompt; text for a text-only model', async () => {
    bedrock.on(ConverseCommand).resolves(toolAnswer('extraction', { invoice_number: 'INV-77' }));
    const result = await engine().extract({ doc: await txtDoc(TEXT), schema: SCHEMA, instructions: 'Keep the dash.', nConsensus: 1, seed: 's' });
    expect(result.output).toEqual({ invoice_number: 'INV-77' });
    expect((result.sources as Record<string, { content: string }>).invoice_number.content).toBe('INV-77');

    const input = sent();
    expect(input.modelId).toBe(MODEL);
    expect(input.toolConfig?.tools?.[0]?.toolSpec?.name).toBe('extraction');
    expect(input.toolConfig?.tools?.[0]?.toolSpec?.inputSchema?.json).toEqual(withNullableValues(SCHEMA));
    expect(input.toolConfig?.toolChoice).toEqual({ tool: { name: 'extraction' } });
    expect(input.system?.[0]?.text).toContain('Keep the dash.');
    expect(input.inferenceConfig?.temperature).toBe(0);
    const content = input.messages?.[0]?.content ?? [];
    expect(content.map((c) => c.text ?? '').join('')).toContain('Invoice number: INV-77');
    expect(content.some((c) => c.image)).toBe(false);
  });

  it('sends page images as bytes to a vision model', async () => {
    bedrock.on(ConverseCommand).resolves(toolAnswer('extraction', { invoice_number: 'INV-77' }));
    const images: PageImages = { render: async (pages) => pages.map((page) => ({ page, mediaType: 'image/jpeg', data: new Uint8Array([page]) })) };
    await engine(true).extract({ doc: await txtDoc(TEXT), schema: SCHEMA, instructions: null, nConsensus: 1, seed: 's', pageImages: images });
    const content = sent().messages?.[0]?.content ?? [];
    const image = content.find((c) => c.image)?.image;
    expect(image?.format).toBe('jpeg');
    expect(Array.from(image?.source?.bytes ?? [])).toEqual([1]);
  });

  it('repairs an answer that does not match the schema once', async () => {
    bedrock.on(ConverseCommand).resolvesOnce(toolAnswer('extraction', { invoice_number: 77 })).resolves(toolAnswer('extraction', { invoice_number: 'INV-77' }));
    const result = await engine().extract({ doc: await txtDoc(TEXT), schema: SCHEMA, instructions: null, nConsensus: 1, seed: 's' });
    expect(result.output).toEqual({ invoice_number: 'INV-77' });
    const repair = sent(1);
    expect(repair.messages?.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(repair.messages?.[2]?.content?.[0]?.text).toMatch(/does not match the schema/);
  });

  it('retries throttling, then fails with model_unavailable and the provider message', async () => {
    bedrock.on(ConverseCommand).rejectsOnce(new ThrottlingException({ message: 'Too many requests', $metadata: { httpStatusCode: 429 } })).resolves(toolAnswer('classification', { reasoning: '"Invoice"', category: 'invoice', confidence: 0.7 }));
    const categories = [
      { name: 'invoice', description: '' },
      { name: 'receipt', description: '' },
    ];
    const result = await engine().classify({ doc: await txtDoc(TEXT), categories, instructions: null, firstNPages: undefined, nConsensus: 1, seed: 's' });
    expect(result.output.category).toBe('invoice');
    expect(result.consensus.likelihoods).toBeCloseTo(0.7);
    expect(bedrock.commandCalls(ConverseCommand)).toHaveLength(2);

    bedrock.reset();
    bedrock.on(ConverseCommand).rejects(new ThrottlingException({ message: 'Too many requests', $metadata: { httpStatusCode: 429 } }));
    const error = await engine()
      .classify({ doc: await txtDoc(TEXT), categories, instructions: null, firstNPages: undefined, nConsensus: 1, seed: 's' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelFailure);
    expect((error as ModelFailure).code).toBe('model_unavailable');
    expect((error as ModelFailure).message).toContain('Too many requests');
    expect(bedrock.commandCalls(ConverseCommand)).toHaveLength(3);
  });

  it('does not retry access denied: model_error', async () => {
    bedrock.on(ConverseCommand).rejects(new AccessDeniedException({ message: 'not authorized to perform bedrock:InvokeModel', $metadata: { httpStatusCode: 403 } }));
    const error = await engine()
      .extract({ doc: await txtDoc(TEXT), schema: SCHEMA, instructions: null, nConsensus: 1, seed: 's' })
      .catch((e: unknown) => e);
    expect((error as ModelFailure).code).toBe('model_error');
    expect((error as ModelFailure).message).toContain('AccessDeniedException: not authorized');
    expect(bedrock.commandCalls(ConverseCommand)).toHaveLength(1);
  });

  it('does not retry missing credentials: model_error naming the problem', async () => {
    bedrock.on(ConverseCommand).rejects(Object.assign(new Error('Could not load credentials from any providers'), { name: 'CredentialsProviderError' }));
    const error = await engine()
      .extract({ doc: await txtDoc(TEXT), schema: SCHEMA, instructions: null, nConsensus: 1, seed: 's' })
      .catch((e: unknown) => e);
    expect((error as ModelFailure).code).toBe('model_error');
    expect((error as ModelFailure).message).toContain('Could not load credentials');
    expect(bedrock.commandCalls(ConverseCommand)).toHaveLength(1);
  });

  it('samples n_consensus votes in parallel and consolidates a split page by page', async () => {
    const answers = [
      { subdocuments: [{ name: 'invoice', pages: [1] }, { name: 'receipt', pages: [2] }], confidence: 0.9 },
      { subdocuments: [{ name: 'invoice', pages: [1, 2] }], confidence: 0.5 },
      { subdocuments: [{ name: 'invoice', pages: [1] }, { name: 'receipt', pages: [2] }], confidence: 0.8 },
    ];
    let i = 0;
    bedrock.on(ConverseCommand).callsFake(async () => toolAnswer('split', answers[i++]));
    const base = await txtDoc('INVOICE');
    const doc: Doc = { ...base, pages: [base.pages[0]!, { ...base.pages[0]!, number: 2 }] };
    const result = await engine().split({
      doc,
      subdocuments: [
        { name: 'invoice', description: '', allow_multiple_instances: false },
        { name: 'receipt', description: '', allow_multiple_instances: false },
      ],
      instructions: null,
      nConsensus: 3,
      seed: 's',
    });
    expect(result.output).toEqual([
      { name: 'invoice', pages: [1] },
      { name: 'receipt', pages: [2] },
    ]);
    expect(result.consensus.choices).toHaveLength(3);
    expect(result.consensus.likelihoods[1]!.pages[0]).toBeCloseTo(2 / 3);
    expect(bedrock.commandCalls(ConverseCommand).every((c) => (c.args[0].input.inferenceConfig?.temperature ?? 0) > 0)).toBe(true);
  });
});
