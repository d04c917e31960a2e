import { loadOpenApiDocument } from '@browser-cloud/openapi-document';
import { createRequestChecker } from '@browser-cloud/request-checker';
import { DEFAULT_FIXTURE_REFS } from '@browser-cloud/sandbox';
import { exampleResources, resourcesFrom } from '../engine/resources.js';
import { createDocumentValidator } from '../engine/judge.js';

/** Where the suite runs (README, "Targets"); the `live-sandbox` target runs as a `server`. */
export type TargetMode = 'mock' | 'proxy' | 'server' | 'sandbox';

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set; run the suite through \`npm run contract\``);
  return value;
}

export const document = loadOpenApiDocument();
/** The one request checker (the sandbox's and the mock front's): which operation a request is, and whether it keeps the document. */
export const checker = createRequestChecker(document);
export const documentValidator = createDocumentValidator(document);

export const target = {
  mode: required('CONTRACT_MODE') as TargetMode,
  baseUrl: required('CONTRACT_BASE_URL'),
  token: required('CONTRACT_TOKEN'),
  /** The server itself, past Prism's proxy, which refuses invalid requests on its own (422). */
  directUrl: process.env.CONTRACT_DIRECT_URL ?? required('CONTRACT_BASE_URL'),
  /** The resources the cases may use (ids of things that exist on the target), by variable. */
  resources: {
    ...(process.env.CONTRACT_EXAMPLE_RESOURCES === '1' ? exampleResources(checker.operations) : {}),
    ...resourcesFrom(process.env),
  },
  /** A case that cannot run for a missing variable or the target's state is skipped rather than failed. */
  allowSkips: process.env.CONTRACT_ALLOW_SKIPS === '1',
  /** On the sandbox target (which runs the default fixture): its ids, and its URL for the control endpoints. */
  sandbox:
    process.env.CONTRACT_MODE === 'sandbox'
      ? { refs: DEFAULT_FIXTURE_REFS, directUrl: required('CONTRACT_DIRECT_URL') }
      : undefined,
};
