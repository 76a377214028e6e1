/**
 * Bedrock permissions from the model configuration: bedrock:InvokeModel on exactly the configured
 * model ids, cdk-nag clean (checked on a small app, not the whole stack, to stay fast).
 */
import { App, Stack, Validations } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as iam from 'aws-cdk-lib/aws-iam';
import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import { grantBedrockModels, modelsConfig } from '../../../lib/cloud/models.ts';

const CONFIG = {
  claude: { provider: 'bedrock', model: 'anthropic.claude-3-5-sonnet-20240620-v1:0', region: 'eu-west-1' },
  'claude-eu': { provider: 'bedrock', model: 'eu.anthropic.claude-3-7-sonnet-20250219-v1:0' },
  'retab-large': { alias: 'claude' },
  gpt: { provider: 'openai-compatible', baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini', apiKeyEnv: 'OPENAI_API_KEY' },
};

describe('models in the CDK app', () => {
  it('passes the configuration to the Lambdas and lists each Bedrock model once', () => {
    const models = modelsConfig({ QUIRE_MODELS: JSON.stringify(CONFIG, null, 2) });
    expect(JSON.parse(models.json)).toEqual(CONFIG);
    expect(models.json).not.toContain('\n');
    expect(models.bedrock.map((m) => m.model)).toEqual(['anthropic.claude-3-5-sonnet-20240620-v1:0', 'eu.anthropic.claude-3-7-sonnet-20250219-v1:0']);
    expect(modelsConfig({})).toEqual({ json: '', bedrock: [] });
    expect(() => modelsConfig({ QUIRE_MODELS: '{"x": {"alias": "y"}}' })).toThrow(/Invalid model configuration in QUIRE_MODELS: model "x"/);
  });

  it('grants bedrock:InvokeModel on exactly the configured models, and passes cdk-nag', () => {
    const app = new App();
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
    const stack = new Stack(app, 'ModelsTest', { env: { account: '123456789012', region: 'us-east-1' } });
    const role = new iam.Role(stack, 'TaskRole', { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
    grantBedrockModels(role, modelsConfig({ QUIRE_MODELS: JSON.stringify(CONFIG) }).bedrock, role);
    const template = Template.fromStack(stack);
    const statements = Object.values(template.findResources('AWS::IAM::Policy')).flatMap((p) => p.Properties.PolicyDocument.Statement);
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatchObject({ Effect: 'Allow', Action: 'bedrock:InvokeModel' });
    // ARNs are joined with the partition token: compare them with it written out.
    const arns = (statements[0].Resource as unknown[]).map((r) =>
      typeof r === 'string' ? r : (r as { 'Fn::Join': [string, unknown[]] })['Fn::Join'][1].map((p) => (typeof p === 'string' ? p : 'aws')).join(''),
    );
    expect(arns).toEqual([
      'arn:aws:bedrock:eu-west-1::foundation-model/anthropic.claude-3-5-sonnet-20240620-v1:0',
      'arn:aws:bedrock:us-east-1:123456789012:inference-profile/eu.anthropic.claude-3-7-sonnet-20250219-v1:0',
      'arn:aws:bedrock:*::foundation-model/anthropic.claude-3-7-sonnet-20250219-v1:0',
    ]);
    // Synthesis runs cdk-nag; an unacknowledged finding would throw here.
    expect(() => app.synth()).not.toThrow();
  });

  it('grants nothing when no Bedrock model is configured', () => {
    const stack = new Stack(new App(), 'NoModels');
    const role = new iam.Role(stack, 'TaskRole', { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
    grantBedrockModels(role, [], role);
    expect(Template.fromStack(stack).findResources('AWS::IAM::Policy')).toEqual({});
  });
});
