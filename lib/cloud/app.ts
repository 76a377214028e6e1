/**
 * The CDK app: the `Quire-test` and `Quire-production` stacks, checked by cdk-nag's AWS Solutions
 * rules. bin/app.ts runs it for the CDK CLI; the stack tests build it in-process.
 */
import { App, Validations, type AppProps } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { QuireStack } from './stack.ts';
import type { Stage } from './stage.ts';

export interface QuireApp {
  app: App;
  stacks: Record<Stage, QuireStack>;
}

export function createQuireApp(props: AppProps = {}): QuireApp {
  const app = new App(props);

  // cdk-nag v3 is a policy validation plugin (not an Aspect): it runs when the app synthesizes,
  // and an unacknowledged error-level finding fails the synth.
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));

  const stacks: Record<Stage, QuireStack> = {
    test: new QuireStack(app, 'Quire-test', { stage: 'test', description: 'Quire (test deployment)' }),
    production: new QuireStack(app, 'Quire-production', {
      stage: 'production',
      description: 'Quire (production deployment)',
      terminationProtection: true,
    }),
  };
  return { app, stacks };
}
