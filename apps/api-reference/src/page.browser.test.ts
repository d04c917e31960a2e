// Opens the built page in headless Chromium with the network cut off, as a person offline would.
// Chromium is Debian's package (scripts/ensure-chromium.mjs installs it in `pretest`).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildReferencePage } from './build-page.js';
import { DEFAULT_OUT_FILE, DEFAULT_SPEC_PATH } from './default-paths.js';
import { STATE_ATTRIBUTE } from './render-html.js';
import { getAt, loadOpenApiDocument, operations } from '@browser-cloud/openapi-document';

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
];

/** Every request the page tried, and whether the guard let it through (only the page file itself). */
interface RequestLog {
  readonly allowed: string[];
  readonly blocked: string[];
}

let userDataDir: string;
let context: BrowserContext;

beforeAll(async () => {
  userDataDir = await mkdtemp(join(tmpdir(), 'api-reference-chromium-'));
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1400, height: 1000 },
    serviceWorkers: 'block',
  });
});

afterAll(async () => {
  await context?.close();
  if (userDataDir) await rm(userDataDir, { recursive: true, force: true });
});

/**
 * Opens `file` in a new tab whose every request except `file` itself is aborted and recorded,
 * and whose Content-Security-Policy violations (requests the page's own policy stopped before
 * they reached the network) are recorded too.
 */
async function openOffline(file: string): Promise<{ page: Page; requests: RequestLog; errors: string[] }> {
  const page = await context.newPage();
  const pageUrl = pathToFileURL(file).href;
  const requests: RequestLog = { allowed: [], blocked: [] };
  const errors: string[] = [];
  await page.route('**/*', async (route) => {
    const url = route.request().url();
    if (url === pageUrl) {
      requests.allowed.push(url);
      await route.continue();
    } else {
      requests.blocked.push(url);
      await route.abort('internetdisconnected');
    }
  });
  page.on('websocket', (socket) => requests.blocked.push(socket.url()));
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  await page.goto(pageUrl);
  return { page, requests, errors };
}

describe('the offline reference page in Chromium', () => {
  it('renders the three operations and the Error schema without any network request', async () => {
    await buildReferencePage({ specPath: DEFAULT_SPEC_PATH, outFile: DEFAULT_OUT_FILE });
    const { page, requests, errors } = await openOffline(DEFAULT_OUT_FILE);

    await page.waitForSelector(`html[${STATE_ATTRIBUTE}]`);
    expect(await page.getAttribute('html', STATE_ATTRIBUTE)).toBe('ready');

    // Each operation's section (named by its operationId) shows its summary as the heading.
    const document = loadOpenApiDocument(DEFAULT_SPEC_PATH);
    const summaries = new Map(
      [...operations(document)].map(({ operationId, operation }) => [operationId, String(operation.summary)]),
    );
    expect(summaries.size).toBeGreaterThan(0);
    for (const [operationId, summary] of summaries) {
      const heading = page.locator(`[id="operation/${operationId}"] h2`).first();
      await heading.waitFor({ state: 'visible' });
      expect((await heading.innerText()).trim()).toBe(summary);
    }
    const errorSchema = page.locator('[id="schema/Error"]');
    const errorHeading = errorSchema.locator('h2').first();
    await errorHeading.scrollIntoViewIfNeeded();
    expect(await errorHeading.isVisible()).toBe(true);
    expect((await errorHeading.innerText()).trim()).toBe('Error');
    const errorCode = String(getAt(document, '#/components/schemas/Error/properties/code/description'));
    expect(await errorSchema.innerText()).toContain(errorCode.trim());

    await page.screenshot({ path: join(DEFAULT_OUT_FILE, '..', 'screenshot-error-schema.png') });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(DEFAULT_OUT_FILE, '..', 'screenshot.png') });

    // The renderer is live, not a static snapshot: its search (run in a worker) answers.
    const results = page.locator('[data-role="search:results"]');
    expect(await results.count()).toBe(0);
    // A word of the rename operation's summary that the login operation's text does not hold.
    const rename = summaries.get('renameProfile') ?? '';
    const login = [...operations(document)].find((o) => o.operationId === 'loginAuthConnection')?.operation;
    const loginText = `${login?.summary} ${login?.description}`.toLowerCase();
    const word = rename
      .toLowerCase()
      .split(/\W+/)
      .find((w) => w.length >= 4 && !loginText.includes(w));
    expect(word, `a word of "${rename}" that the login operation does not use`).toBeDefined();
    await page.getByPlaceholder('Search...').fill(word ?? '');
    await results.waitFor({ state: 'visible' });
    expect(await results.innerText()).toContain(rename);
    expect(await results.innerText()).not.toContain(summaries.get('loginAuthConnection'));

    expect(requests.blocked).toEqual([]);
    expect(requests.allowed).toEqual([pathToFileURL(DEFAULT_OUT_FILE).href]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('has a guard that really sees and stops requests (control page with a remote image)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'api-reference-control-'));
    const file = join(dir, 'control.html');
    await writeFile(file, '<!doctype html><title>control</title><img src="https://example.invalid/logo.png">');
    try {
      const { page, requests } = await openOffline(file);
      await page.waitForLoadState('load');
      expect(requests.blocked).toEqual(['https://example.invalid/logo.png']);
      await page.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
