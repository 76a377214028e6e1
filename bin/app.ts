/**
 * CDK entry point (cdk.json: `node --import tsx bin/app.ts`). Synthesizes both deployments:
 * `npx cdk synth`, `npx cdk deploy Quire-test`.
 */
import { createQuireApp } from '../lib/cloud/app.ts';

const { app } = createQuireApp();
app.synth();
