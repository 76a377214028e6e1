/**
 * The LLM judge of `llm_judged_as` / `llm_not_judged_as` (task code only). It needs an LLM provider:
 * the model named by `QUIRE_JUDGE_MODEL`, else the first provider-backed model of the registry that
 * may extract (README "Models and LLM providers"). The built-in `quire-local` engine reads documents;
 * it cannot judge free text against a rubric, so without a provider the assertion is `blocked` and
 * says so. The judge asks the provider, through its extraction, for `{holds, label, reasoning}` about
 * a small text document holding the rubric and the value.
 */
import { extractorFor } from '../models/engines.ts';
import { findModel, listModels } from '../models/registry.ts';
import type { EvaluationContext, Judge } from './assertions.ts';

const ANSWER_SCHEMA = {
  type: 'object',
  properties: {
    holds: { type: 'boolean', description: 'true when the value meets the rubric' },
    label: { type: ['string', 'null'], description: 'the label the rubric asks for, when it asks for one' },
    reasoning: { type: 'string', description: 'one or two sentences: why' },
  },
  required: ['holds', 'label', 'reasoning'],
};

const MAX_VALUE_CHARS = 50_000;

/** The judge of this deployment, or why there is none. */
export function judgeOf(deadline: number): Pick<EvaluationContext, 'judge' | 'noJudge'> {
  const named = process.env.QUIRE_JUDGE_MODEL?.trim();
  let model: string | undefined;
  if (named) {
    const entry = findModel(named);
    if (!entry) return { noJudge: `QUIRE_JUDGE_MODEL names ${named}, which is not a configured model` };
    if (!entry.settings) return { noJudge: `QUIRE_JUDGE_MODEL names ${named}, the built-in engine: llm_judged_as needs an LLM provider (configure one in QUIRE_MODELS)` };
    model = named;
  } else {
    model = listModels().find((m) => m.settings !== undefined && m.capabilities.includes('extract'))?.id;
  }
  if (!model) {
    return {
      noJudge:
        'llm_judged_as needs an LLM provider to judge the value, and none is configured: the built-in quire-local engine does not judge free text. ' +
        'Add an OpenAI-compatible or Bedrock model to QUIRE_MODELS (README, "Models and LLM providers"); QUIRE_JUDGE_MODEL picks one',
    };
  }
  const judgeModel = model;
  const judge: Judge = async ({ rubric, value, expectedLabel }) => {
    const { readDocument } = await import('../documents/read.ts');
    const shown = typeof value === 'string' ? value : JSON.stringify(value, null, 2);
    const text = `RUBRIC\n${rubric}\n\nVALUE\n${shown.length > MAX_VALUE_CHARS ? `${shown.slice(0, MAX_VALUE_CHARS)}\n(cut)` : shown}\n`;
    const doc = await readDocument(Buffer.from(text, 'utf8'), { kind: 'txt', dpi: 150, deadline });
    const extractor = await extractorFor(judgeModel);
    const instructions =
      'You are an evaluator. The document holds a RUBRIC and a VALUE. Judge whether the VALUE meets the RUBRIC: holds = true or false. ' +
      (expectedLabel ? `The rubric asks for a label; answer the label that fits the value (the label being checked for is "${expectedLabel}").` : 'Answer label null unless the rubric asks for a label.');
    const result = await extractor.extract({ doc, schema: ANSWER_SCHEMA, instructions, nConsensus: 1, seed: 'eval-judge', deadline });
    const out = result.output as { holds?: unknown; label?: unknown; reasoning?: unknown };
    return { holds: out.holds === true, label: typeof out.label === 'string' ? out.label : null, reasoning: typeof out.reasoning === 'string' ? out.reasoning : '' };
  };
  return { judge };
}
