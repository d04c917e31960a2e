// Redocly walks an object once however many places hold it. Its YAML parser makes one object of
// an anchor and its aliases, so an aliased operation, response or schema would be checked at its
// first place only (a second copy of an operation would hide a duplicate operationId). Before
// the rules run, every place gets its own copy, as in the loader's reading and in JSON.

/** A copy of `node` in which no object or array is reached twice; a cycle keeps its reference. */
function copyTree(node, ancestors = new Set()) {
  if (node === null || typeof node !== 'object' || ancestors.has(node)) return node;
  const isArray = Array.isArray(node);
  if (!isArray && Object.getPrototypeOf(node) !== Object.prototype) return node;
  ancestors.add(node);
  const copy = isArray
    ? node.map((item) => copyTree(item, ancestors))
    : Object.fromEntries(Object.entries(node).map(([key, value]) => [key, copyTree(value, ancestors)]));
  ancestors.delete(node);
  return copy;
}

export default function copyAliasedObjects() {
  return {
    Root: {
      enter(root) {
        for (const key of Object.keys(root)) root[key] = copyTree(root[key]);
      },
    },
  };
}
