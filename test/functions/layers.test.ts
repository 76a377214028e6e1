/**
 * The layers of functions/ (DESIGN §2, README "Architecture"): the platform and the run machinery
 * know no feature. Read from the source files' import statements (static and dynamic), so a new
 * import that breaks a layer fails here, whatever it imports.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../lib/local/invoker.ts';
import { features, runKinds } from '../../functions/features.ts';

const FUNCTIONS = join(REPO_ROOT, 'functions');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|mjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The functions/ folders (or root files) a file imports, by relative import specifier. */
function importedFolders(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)'(\.{1,2}\/[^']+)'/g)].map((m) => m[1]!);
  return specifiers
    .map((spec) => relative(FUNCTIONS, resolve(dirname(file), spec)))
    .filter((path) => !path.startsWith('..'))
    .map((path) => (path.includes('/') ? path.split('/')[0]! : path));
}

function offenders(folder: string, allowed: readonly string[]): string[] {
  return sourceFiles(join(FUNCTIONS, folder)).flatMap((file) =>
    importedFolders(file)
      .filter((target) => !allowed.includes(target))
      .map((target) => `${relative(FUNCTIONS, file)} imports ${target}`),
  );
}

describe('layers', () => {
  it('functions/platform/ imports nothing outside itself', () => {
    expect(offenders('platform', ['platform'])).toEqual([]);
  });

  it('functions/runs/ imports only platform/, documents/, models/ and files/', () => {
    expect(offenders('runs', ['runs', 'platform', 'documents', 'models', 'files'])).toEqual([]);
  });

  it('the engines (documents/, models/) import no feature', () => {
    expect(offenders('documents', ['documents', 'platform'])).toEqual([]);
    expect(offenders('models', ['models', 'documents', 'platform'])).toEqual([]);
  });

  it('the import scan sees a feature import where there is one (the check itself works)', () => {
    expect(importedFolders(join(FUNCTIONS, 'features.ts'))).toEqual(expect.arrayContaining(['parses', 'runs', 'platform', 'wiring.ts']));
  });
});

describe('the feature list', () => {
  it('names each feature folder with a feature.ts exactly once', () => {
    const folders = readdirSync(FUNCTIONS, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && readdirSync(join(FUNCTIONS, entry.name)).includes('feature.ts'))
      .map((entry) => entry.name)
      .sort();
    expect(features.map((f) => f.name).sort()).toEqual(folders);
  });

  it('is the only file that gathers the run kinds one by one', () => {
    const gathering = sourceFiles(FUNCTIONS).filter((file) => {
      const text = readFileSync(file, 'utf8');
      // A module that imports the kinds of two or more features lists them itself.
      return (text.match(/from '\.\.\/[\w-]+\/kind\.ts'/g) ?? []).length >= 2;
    });
    expect(gathering.map((file) => relative(FUNCTIONS, file))).toEqual([]);
    expect(new Set(runKinds.map((k) => k.idPrefix)).size).toBe(runKinds.length);
  });
});
