/**
 * The block types beside the document ones (API §9.2): function, conditional, for_each and
 * while_loop (containers whose children run per item / until a condition), note — run on the local
 * cloud's workflow-run state machine, with the steps and artifacts each leaves; and what the
 * definition refuses about them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestCloud, until, type TestCloud } from '../../support/cloud.ts';

let cloud: TestCloud;
beforeAll(async () => {
  cloud = await startTestCloud();
});
afterAll(() => cloud?.close());

const DRAFT = {
  blocks: [
    { id: 'in', type: 'start_json', config: {} },
    { id: 'memo', type: 'note', config: { text: 'totals above 10 go item by item' } },
    { id: 'sum', type: 'function', config: { expression: '{items: input.items, total: sum(input.items)}' } },
    { id: 'route', type: 'conditional', config: { branches: [{ name: 'big', condition: { path: 'total', operator: 'gt', value: 10 } }] } },
    { id: 'each', type: 'for_each', config: { items_path: 'items' } },
    { id: 'double', type: 'function', parent_id: 'each', config: { expression: 'input * 2' } },
    { id: 'loop', type: 'while_loop', config: { condition: { expression: 'input.total >= 100' }, max_iterations: 10 } },
    { id: 'grow', type: 'function', parent_id: 'loop', config: { expression: '{items: input.items, total: input.total * 3}' } },
  ],
  edges: [
    { source: 'in', target: 'sum' },
    { source: 'sum', target: 'route' },
    { source: 'route', target: 'each', source_handle: 'big' },
    { source: 'route', target: 'loop', source_handle: 'else' },
  ],
};

async function run(workflowId: string, items: unknown) {
  const r = await cloud.api('POST', '/v1/workflows/runs', { body: { workflow_id: workflowId, version: 'draft', json_inputs: { in: { items } } } });
  expect(r.status, r.text).toBe(201);
  const ended = await until(async () => {
    const got = (await cloud.api('GET', `/v1/workflows/runs/${r.body.id}`)).body;
    return ['completed', 'error', 'cancelled'].includes(got.lifecycle.status) ? got : undefined;
  }, 30_000, 'the run to end');
  const steps = (await cloud.api('GET', `/v1/workflows/steps?run_id=${r.body.id}&limit=100&order=asc`)).body.data as Array<Record<string, any>>;
  const artifacts = (await cloud.api('GET', `/v1/workflows/artifacts?run_id=${r.body.id}&limit=100`)).body.data as Array<Record<string, any>>;
  return { run: ended, steps, artifacts };
}

describe('function, conditional, for_each, while_loop and note blocks', () => {
  it('run: the branch taken by the condition, each item, each iteration', async () => {
    const project = (await cloud.api('POST', '/v1/projects', { body: { name: 'blocks' } })).body.id;
    const workflowId = (await cloud.api('POST', '/v1/workflows', { body: { project_id: project, name: 'Totals' } })).body.id;
    const put = await cloud.api('PUT', `/v1/workflows/${workflowId}/draft`, { body: DRAFT });
    expect(put.status, put.text).toBe(200);

    const big = await run(workflowId, [5, 6]);
    expect(big.run.lifecycle).toEqual({ status: 'completed' });
    expect(big.run.outputs).toMatchObject({ sum: { items: [5, 6], total: 11 }, route: { total: 11 }, each: [10, 12] });
    expect(big.run.outputs).not.toHaveProperty('loop');
    expect(big.run.outputs).not.toHaveProperty('memo');
    const doubled = big.steps.filter((s) => s.block_id === 'double');
    expect(doubled.map((s) => [s.loop_containers, s.handle_inputs.input.data, s.handle_outputs.output.data])).toEqual([
      [[{ container_id: 'each', iteration: 0, is_parallel: true, parallel_item_index: 0 }], 5, 10],
      [[{ container_id: 'each', iteration: 1, is_parallel: true, parallel_item_index: 1 }], 6, 12],
    ]);
    expect(big.steps.find((s) => s.block_id === 'loop')!.lifecycle).toEqual({ status: 'skipped', reason: 'not on the path the run took' });
    const evaluation = big.artifacts.find((a) => a.operation === 'conditional_evaluation')!;
    expect(evaluation).toMatchObject({ selected_handles: ['big'], matched_branch_id: 'big', evaluations: [{ branch_name: 'big', matched: true, actual: 11, operator: 'gt' }] });
    expect(big.artifacts.filter((a) => a.operation === 'function_invocation')).toHaveLength(3);

    const small = await run(workflowId, [1, 2]);
    expect(small.run.lifecycle).toEqual({ status: 'completed' });
    expect(small.run.outputs.loop).toEqual({ items: [1, 2], total: 243 });
    expect(small.steps.filter((s) => s.block_id === 'grow')).toHaveLength(4);
    expect(small.artifacts.find((a) => a.operation === 'while_loop_termination')).toMatchObject({ termination_reason: 'condition_matched' });

    // A function that cannot compute fails its run, naming the block.
    const bad = await run(workflowId, 'not a list');
    expect(bad.run.lifecycle).toMatchObject({ status: 'error', details: { block_id: 'sum', error_code: 'function_error' } });
    expect(bad.run.lifecycle.message).toMatch(/sum\(\) needs a number/);
    expect(bad.steps.find((s) => s.block_id === 'sum')!.lifecycle).toMatchObject({ status: 'error' });
  });

  it('are checked when the definition is saved, every problem named', async () => {
    const project = (await cloud.api('POST', '/v1/projects', { body: { name: 'blocks' } })).body.id;
    const workflowId = (await cloud.api('POST', '/v1/workflows', { body: { project_id: project, name: 'Bad' } })).body.id;
    const bad = await cloud.api('PUT', `/v1/workflows/${workflowId}/draft`, {
      body: {
        blocks: [
          { id: 'in', type: 'start_json', config: {} },
          { id: 'f', type: 'function', config: { expression: 'input +' } },
          { id: 'c', type: 'conditional', config: { branches: [{ name: 'x', condition: { path: 'a', operator: 'resembles' } }] } },
          { id: 'w', type: 'while_loop', config: { condition: { expression: 'true' }, max_iterations: 1000 } },
          { id: 'child', type: 'function', parent_id: 'w', config: { expression: 'input' } },
          { id: 'orphan', type: 'function', parent_id: 'f', config: { expression: 'input' } },
          { id: 'note', type: 'note', config: {} },
          { id: 'm', type: 'merge_dicts', config: { strategy: 'sideways' } },
          { id: 'p', type: 'parse', config: { review: { predicate: { kind: 'always' } } } },
        ],
        edges: [
          { source: 'in', target: 'child' },
          { source: 'c', target: 'f', source_handle: 'y' },
          { source: 'in', target: 'note' },
        ],
      },
    });
    expect(bad.status).toBe(422);
    const problems = (bad.body.detail as Array<{ loc: Array<string | number>; msg: string }>).map((d) => `${d.loc.join('.')}: ${d.msg}`);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^body\.blocks\.1\.config\.expression: .*ends too early/),
        expect.stringMatching(/^body\.blocks\.2\.config\.branches\.0\.condition\.operator: must be one of/),
        expect.stringMatching(/^body\.blocks\.3\.config\.max_iterations: /),
        expect.stringMatching(/^body\.blocks\.5\.parent_id: "f" is not a while_loop or for_each block/),
        expect.stringMatching(/^body\.blocks\.7\.config\.strategy: /),
        expect.stringMatching(/^body\.blocks\.8\.config\.review: only extract, classifier, split, for_each blocks/),
        expect.stringMatching(/^body\.edges\.0: "in" and "child" are not in the same container/),
        expect.stringMatching(/^body\.edges\.1\.source_handle: "y" is not an output of "c" \(x, else\)/),
        expect.stringMatching(/^body\.edges\.2: a note block takes no edges/),
      ]),
    );
  });
});
