/**
 * Hands the platform the two adapters that live in features: the usage ledger (usage/) and webhook
 * events (webhooks/), which every run leaves behind when it ends. The platform and the run
 * machinery reach them only through the ports (Platform `ledger`, `events`), never by import.
 *
 * Every entry imports this module first: the feature list (./features.ts, the task and sweeper
 * entries), the generated entry of each API Lambda (lib/cloud/bundling.ts) and each local container
 * (lib/local/worker.ts). It is small on purpose: the API Lambdas bundle it.
 */
import { provideFeatureAdapters } from './platform/platform.ts';
import { usageLedger } from './usage/ledger.ts';
import { webhookEvents } from './webhooks/events.ts';

provideFeatureAdapters({ ledger: usageLedger, events: webhookEvents });
