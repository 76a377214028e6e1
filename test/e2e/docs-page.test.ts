/**
 * The reference page at /docs in a real browser (playwright-core driving Debian's chromium, headless):
 * every route of the route table is on it, and "Try it out" on GET /v1/auth/status with a test key
 * answers 200 for the test environment. `.ci/run` installs chromium; locally: apt-get install chromium.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { routes } from '../../functions/features.ts';
import { startTestCloud, type TestCloud } from '../support/cloud.ts';

const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) => existsSync(path));

let cloud: TestCloud;
let browser: Browser;
beforeAll(async () => {
  if (!CHROMIUM) throw new Error('This test needs Debian chromium: apt-get install chromium');
  cloud = await startTestCloud();
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
});
afterAll(async () => {
  await browser?.close();
  await cloud?.close();
});

it('lists every route and runs "Try it out" on GET /v1/auth/status with a test key', async () => {
  const page = await browser.newPage();
  await page.goto(`${cloud.url}/docs`);
  // The page opens with every tag folded (a document of 140 operations all open at once stops
  // rendering in Swagger UI 5): each tag, opened one at a time, lists its operations.
  await page.waitForSelector('.opblock-tag', { timeout: 30_000 });
  const shown: string[] = [];
  for (const tag of await page.$$eval('.opblock-tag', (tags) => tags.map((t) => t.getAttribute('data-tag')!))) {
    const header = page.locator(`.opblock-tag[data-tag="${tag}"]`);
    await header.click();
    await page.waitForSelector(`#operations-tag-${tag} + div .opblock, .opblock-tag-section.is-open .opblock`, { timeout: 10_000 });
    shown.push(
      ...(await page.$$eval('.opblock', (blocks) =>
        blocks.map((block) => `${block.querySelector('.opblock-summary-method')?.textContent?.trim()} ${block.querySelector('.opblock-summary-path')?.getAttribute('data-path')}`),
      )),
    );
    await header.click();
  }
  const expected = routes.filter((r) => r.op.auth !== 'session').map((r) => `${r.method} ${r.path}`);
  expect(expected.filter((route) => !shown.includes(route))).toEqual([]);

  // Authorize with the test key, then try the auth status route.
  await page.click('.btn.authorize');
  await page.fill('.auth-container input', cloud.keys.test);
  await page.click('.auth-btn-wrapper .btn.modal-btn.auth.authorize');
  await page.click('.auth-btn-wrapper .btn-done');
  await page.locator('.opblock-tag[data-tag="auth"]').click();
  const block = page.locator('.opblock', { has: page.locator('.opblock-summary-path[data-path="/v1/auth/status"]') });
  await block.locator('.opblock-summary').click();
  await block.locator('.try-out__btn').click();
  await block.locator('.execute').click();
  const status = block.locator('.live-responses-table tbody .response-col_status').first();
  await expect.poll(async () => (await status.textContent())?.trim(), { timeout: 15_000 }).toBe('200');
  const body = await block.locator('.live-responses-table tbody .response-col_description .microlight').first().textContent();
  expect(JSON.parse(body ?? '{}')).toMatchObject({ authenticated: true, environment_slug: 'test' });
}, 120_000); // a browser opening each of the tags in turn
