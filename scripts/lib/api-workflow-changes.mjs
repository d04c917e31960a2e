// The four changes that scripts/check-api-workflow.mjs makes to openapi/openapi.yaml, as a
// contributor would following the README's "Changing the API": each edits the document's text
// and nothing else (comments and layout kept), and bumps `info.version` when the change breaks
// clients.
import { join } from 'node:path';
import { isScalar, parseDocument, visit } from 'yaml';
import { releasedSnapshots, versionForBreakingChange } from './api-changes.mjs';

/** How the document is written: `yaml` writes it back byte for byte with these options. */
const WRITE_OPTIONS = { lineWidth: 0, flowCollectionPadding: false, doubleQuotedAsJSON: true };

function editYaml(text, edit) {
  const doc = parseDocument(text);
  edit(doc);
  return doc.toString(WRITE_OPTIONS);
}

/** The lowest version a breaking change may have after the last release in `root`. */
function breakingVersion(root) {
  const [released] = releasedSnapshots(join(root, 'openapi/releases'));
  if (!released) throw new Error(`no released snapshot in ${join(root, 'openapi/releases')}`);
  return versionForBreakingChange(released.version);
}

export const API_WORKFLOW_CHANGES = [
  {
    name: 'wording',
    description: "an operation's summary and a property's description reworded",
    edit: (text) =>
      editYaml(text, (doc) => {
        doc.setIn(['paths', '/profiles/{id_or_name}', 'patch', 'summary'], 'Give a browser profile a new name');
        doc.setIn(
          ['components', 'schemas', 'Error', 'properties', 'code', 'description'],
          'A code for programs to act on; specific to the application.',
        );
      }),
  },
  {
    name: 'additive',
    description: 'an optional string `level` on LogEvent (SSE event data) and `region` on Profile',
    edit: (text) =>
      editYaml(text, (doc) => {
        doc.setIn(
          ['components', 'schemas', 'LogEvent', 'properties', 'level'],
          doc.createNode({ type: 'string', description: 'Severity of the entry, as the browser reported it.' }),
        );
        doc.setIn(
          ['components', 'schemas', 'Profile', 'properties', 'region'],
          doc.createNode({ type: 'string', description: "Where the profile's data is kept." }),
        );
      }),
  },
  {
    name: 'breaking',
    description: 'Profile.last_used_at removed (property and examples), info.version bumped',
    edit: (text, { root }) =>
      editYaml(text, (doc) => {
        visit(doc, {
          Pair: (_, pair) => (isScalar(pair.key) && pair.key.value === 'last_used_at' ? visit.REMOVE : undefined),
        });
        doc.setIn(['info', 'version'], breakingVersion(root));
      }),
  },
  {
    name: 'enum rename',
    description: 'the flow type REAUTH renamed RE_AUTH (enum, examples, prose), info.version bumped',
    edit: (text, { root }) =>
      editYaml(text.replace(/\bREAUTH\b/g, 'RE_AUTH'), (doc) => {
        doc.setIn(['info', 'version'], breakingVersion(root));
      }),
  },
];

/** Whether `npm run generate` may write `path` (relative to the repo root). */
export function isGeneratedOrDocument(path) {
  return path === 'openapi/openapi.yaml' || /^(packages|apps)\/[^/]+\/src\/generated\//.test(path);
}
