/**
 * The test files that share a module graph per worker (vitest.config.ts, Vitest `isolate: false`)
 * leave nothing behind for the next file in the same worker: none sets the environment, mocks a
 * module or stubs globals, timers or functions. A file that must do so goes in the config's lists of
 * files kept apart.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { REPO_ROOT } from '../lib/local/invoker.ts';

/** What one test file may do that outlives it in a shared worker. */
const LEAKS = /process\.env(?:\.\w+|\[[^\]]+\])\s*=[^=]|delete process\.env|vi\.(?:mock|doMock|stubGlobal|stubEnv|useFakeTimers|spyOn)\(/;

it('no test file that shares a worker\'s module graph sets the environment, mocks or stubs', () => {
  // The files Vitest itself puts in the shared projects (without collecting their tests).
  const listed = execFileSync(process.execPath, [join(REPO_ROOT, 'node_modules/vitest/vitest.mjs'), 'list', '--project', 'features', '--project', 'engine', '--filesOnly', '--json'], { cwd: REPO_ROOT, encoding: 'utf8' });
  const files = (JSON.parse(listed) as Array<{ file: string }>).map((entry) => entry.file);
  expect(files.length).toBeGreaterThan(50);
  const leaking = files.flatMap((file) => {
    const found = readFileSync(file, 'utf8').match(LEAKS);
    return found ? [`${file.slice(REPO_ROOT.length + 1)}: ${found[0]}`] : [];
  });
  expect(leaking, 'move these to the lists of files kept apart in vitest.config.ts').toEqual([]);
}, 60_000);
