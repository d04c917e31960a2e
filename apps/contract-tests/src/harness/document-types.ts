// The document validator's type, for modules that take one as a parameter.
export type { DocumentValidator } from '../../../../scripts/lib/document-validator.mjs';
