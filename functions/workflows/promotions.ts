/**
 * Promotion (API §9.4): an export of one environment imported, with a key of the target
 * environment, as the draft of a workflow there. Idempotent by `idempotency_key`: the key is reserved
 * first, so two concurrent requests cannot both create a workflow.
 */
import type { Caller } from '../auth/service.ts';
import { Conflict, Invalid } from '../platform/errors.ts';
import { timestamp } from '../platform/ids.ts';
import type { Platform } from '../platform/platform.ts';
import { definitionProblems, secretNames } from './definition.ts';
import type { ExportBundle, Promotion } from './schema.ts';
import { createWorkflow, putDraft, readWorkflow, requireCapability, VERSION_TYPE, type SecretLookup, type VersionData } from './service.ts';

type Stored = { state: 'pending' } | { state: 'done'; promotion: Promotion };

const promotionKey = (caller: Caller, idempotencyKey: string) => `${caller.orgId}#${caller.envId}#promotion#${idempotencyKey}`;

/** Config values that name resources of one environment: they do not exist in another. */
function environmentBoundReferences(bundle: ExportBundle): string[] {
  const warnings: string[] = [];
  for (const block of bundle.definition.blocks) {
    const templateId = block.config.template_id;
    if (typeof templateId === 'string') warnings.push(`Block "${block.id}" uses edit template ${templateId}, which belongs to the ${bundle.source.environment_slug} environment: set this environment's template before running`);
  }
  return warnings;
}

export async function promote(
  p: Platform,
  caller: Caller,
  body: { bundle: ExportBundle; target_workflow_id?: string | undefined; target_project_id?: string | undefined; idempotency_key: string },
  missingSecrets: SecretLookup,
): Promise<{ created: boolean; promotion: Promotion }> {
  requireCapability(caller, 'workflow:manage');
  const problems = definitionProblems(body.bundle.definition, ['body', 'bundle', 'definition']);
  if (problems.length) throw new Invalid(problems);
  if (!body.target_workflow_id && !body.target_project_id) {
    throw Invalid.at(['body', 'target_project_id'], 'Give target_workflow_id (a workflow of this environment to update) or target_project_id (where to create one)', 'missing');
  }

  const key = promotionKey(caller, body.idempotency_key);
  if (!(await p.store.putItem<Stored>(key, { state: 'pending' }, { ifAbsent: true }))) {
    const earlier = await p.store.getItem<Stored>(key);
    if (earlier?.state === 'done') return { created: false, promotion: earlier.promotion };
    throw new Conflict(`A promotion with idempotency_key "${body.idempotency_key}" is in progress`);
  }
  try {
    const workflowId = body.target_workflow_id ?? (await createWorkflow(p, caller, { project_id: body.target_project_id!, name: body.bundle.name, description: body.bundle.description })).id;
    await readWorkflow(p, caller, workflowId);
    await putDraft(p, caller, workflowId, body.bundle.definition);
    const now = timestamp(p.clock.now());
    // A snapshot of the promoted draft, runnable as `version: ver_...` (not listed until published).
    const snapshot: VersionData = { id: p.ids.next('ver'), workflow_id: workflowId, description: `Promoted from ${body.bundle.source.environment_slug}`, published_at: null, definition: body.bundle.definition };
    await p.store.putRecord(caller, { type: VERSION_TYPE, id: snapshot.id, createdAt: now, attrs: { workflow_id: workflowId, published: 'false' }, data: snapshot });
    const warnings = environmentBoundReferences(body.bundle);
    if (body.bundle.source.environment_slug === caller.envSlug) warnings.push(`The bundle comes from this same environment (${caller.envSlug})`);
    const promotion: Promotion = {
      promotion_id: p.ids.next('prm'),
      target_workflow_id: workflowId,
      target_draft_version: snapshot.id,
      missing_secrets: await missingSecrets(p, caller, secretNames(body.bundle.definition)),
      warnings,
    };
    await p.store.putItem<Stored>(key, { state: 'done', promotion });
    return { created: true, promotion };
  } catch (error) {
    await p.store.deleteItem(key);
    throw error;
  }
}
