/**
 * Client credentials. A profile is a client-side label for one key (test or live) and, optionally, the
 * base URL of a deployment. The base URL only chooses the deployment; the environment always follows
 * the key. Profiles live in $XDG_CONFIG_HOME/quire/profiles.json (mode 0600).
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

export const DEFAULT_BASE_URL = 'http://127.0.0.1:3000';

export interface Profile {
  key: string;
  base_url?: string;
}

export class CredentialsError extends Error {}

export function profilesFile(env: NodeJS.ProcessEnv = process.env): string {
  const configHome = env.XDG_CONFIG_HOME || join(homedir(), '.config');
  return join(configHome, 'quire', 'profiles.json');
}

export function readProfiles(file = profilesFile()): Record<string, Profile> {
  if (!existsSync(file)) return {};
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Record<string, Profile>;
  } catch (error) {
    throw new CredentialsError(`Cannot read the profiles file ${file}: ${(error as Error).message}`);
  }
}

/** Writes atomically, readable by the owner only. */
export function writeProfiles(profiles: Record<string, Profile>, file = profilesFile()): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(profiles, null, 2)}\n`, { mode: 0o600 });
  chmodSync(temporary, 0o600);
  renameSync(temporary, file);
}

export const PROFILE_NAME = /^[A-Za-z0-9_.-]{1,64}$/;

export interface Credentials {
  key: string;
  baseUrl: string;
  /** Where the key came from, for messages ("profile test", "QUIRE_API_KEY"). */
  source: string;
}

/**
 * The key: the profile's when --profile is given, else $QUIRE_API_KEY.
 * The base URL: --base-url, else the profile's, else $QUIRE_BASE_URL, else the default.
 */
export function resolveCredentials(options: { profile?: string; baseUrl?: string }, env: NodeJS.ProcessEnv = process.env): Credentials {
  let key: string | undefined;
  let profileUrl: string | undefined;
  let source = 'QUIRE_API_KEY';
  if (options.profile) {
    const profile = readProfiles(profilesFile(env))[options.profile];
    if (!profile) throw new CredentialsError(`No profile named "${options.profile}" in ${profilesFile(env)} (add one with: quire profiles add ${options.profile} --key-stdin)`);
    key = profile.key;
    profileUrl = profile.base_url;
    source = `profile ${options.profile}`;
  } else {
    key = env.QUIRE_API_KEY;
  }
  if (!key) throw new CredentialsError('No API key: set QUIRE_API_KEY or pass --profile NAME');
  return { key, baseUrl: options.baseUrl ?? profileUrl ?? env.QUIRE_BASE_URL ?? DEFAULT_BASE_URL, source };
}

/** "rt_test_abcd…wxyz": enough to recognise a key, never the secret part. */
export function maskKey(key: string): string {
  const prefix = /^(rt_test_|rt_live_|sk_service_)/.exec(key)?.[0] ?? '';
  return `${prefix}…${key.slice(-4)}`;
}
