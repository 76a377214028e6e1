/**
 * The deployment's model configuration (functions/models/registry.ts): read where the app is
 * synthesized from QUIRE_MODELS or QUIRE_MODELS_FILE (an invalid one fails the synth with the
 * registry's message), passed to every Lambda as QUIRE_MODELS (the API validates model names and
 * lists them; the task Lambdas call the providers), and turned into Bedrock permissions for the
 * task Lambdas: bedrock:InvokeModel on exactly the configured model ids, nothing else.
 */
import { readFileSync } from 'node:fs';
import { Stack, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type { IConstruct } from 'constructs';
import { type BedrockSettings, registryFromEnvironment } from '../../functions/models/registry.ts';

/** Cross-region inference profile ids start with a geography: "eu.anthropic.claude-…". */
const INFERENCE_PROFILE = /^(us|eu|apac|us-gov|ca|jp|au|global)\.(.+)$/;

export interface ModelsConfig {
  /** The QUIRE_MODELS value for the Lambdas ('' when nothing is configured). */
  json: string;
  /** The Bedrock models configured (aliases resolved, each once). */
  bedrock: BedrockSettings[];
}

/** The model configuration of this synth (from `env`); throws ModelsConfigError when it is invalid. */
export function modelsConfig(env: NodeJS.ProcessEnv = process.env): ModelsConfig {
  const registry = registryFromEnvironment(env);
  // The Lambdas get the configuration inline (the file is not there), compacted.
  const file = env.QUIRE_MODELS_FILE?.trim();
  const text = env.QUIRE_MODELS?.trim() || (file ? readFileSync(file, 'utf8') : '');
  const bedrock = [...registry.values()]
    .filter((m) => m.aliasOf === undefined)
    .map((m) => m.settings)
    .filter((s): s is BedrockSettings => s?.provider === 'bedrock');
  return { json: text ? JSON.stringify(JSON.parse(text)) : '', bedrock };
}

/** The ARNs bedrock:InvokeModel needs for one configured model id. */
export function bedrockResourceArns(stack: Stack, settings: BedrockSettings): string[] {
  const region = settings.region ?? stack.region;
  const id = settings.model;
  if (id.startsWith('arn:')) return [id];
  const profile = INFERENCE_PROFILE.exec(id);
  if (!profile) return [stack.formatArn({ service: 'bedrock', region, account: '', resource: 'foundation-model', resourceName: id })];
  // An inference profile routes to the foundation model in any region of its geography.
  return [
    stack.formatArn({ service: 'bedrock', region, resource: 'inference-profile', resourceName: id }),
    stack.formatArn({ service: 'bedrock', region: '*', account: '', resource: 'foundation-model', resourceName: profile[2]! }),
  ];
}

/** Lets `role` call the configured Bedrock models (and only them). */
export function grantBedrockModels(role: iam.IRole, models: BedrockSettings[], scope: IConstruct): void {
  if (models.length === 0) return;
  const stack = Stack.of(scope);
  const resources = [...new Set(models.flatMap((m) => bedrockResourceArns(stack, m)))];
  role.addToPrincipalPolicy(new iam.PolicyStatement({ actions: ['bedrock:InvokeModel'], resources }));
  // cdk-nag names a resource by its ARN with the partition token written <AWS::Partition>.
  for (const model of models) {
    const profile = INFERENCE_PROFILE.exec(model.model);
    if (!profile || model.model.startsWith('arn:')) continue;
    Validations.of(scope).acknowledge({
      id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:bedrock:*::foundation-model/${profile[2]}]`,
      reason: 'A cross-region inference profile of a configured model invokes that one foundation model in whichever region of its geography serves the request.',
    });
  }
}
