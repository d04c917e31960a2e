import { getAt, loadOpenApiDocument, type OpenApiDocument } from '@browser-cloud/openapi-document';
import { describe, expect, it } from 'vitest';
import { flowTypesOf } from './sandbox-document.js';

function withFlowTypes(values: string[]): OpenApiDocument {
  const document = structuredClone(loadOpenApiDocument());
  (getAt(document, '#/components/schemas/LoginResponse/properties/flow_type') as { enum: string[] }).enum = values;
  return document;
}

describe('flowTypesOf', () => {
  it("reads the login response's two flow types in the document's order", () => {
    const document = loadOpenApiDocument();
    const listed = getAt(document, '#/components/schemas/LoginResponse/properties/flow_type/enum') as string[];
    expect(flowTypesOf(document)).toEqual({ login: listed[0], reauth: listed[1] });
  });

  it('follows a renamed value', () => {
    expect(flowTypesOf(withFlowTypes(['SIGN_IN', 'RE_AUTH']))).toEqual({ login: 'SIGN_IN', reauth: 'RE_AUTH' });
  });

  it('takes the first two of a longer list: the sandbox never starts the others', () => {
    expect(flowTypesOf(withFlowTypes(['LOGIN', 'REAUTH', 'ZZ_NOT_A_FLOW_TYPE']))).toEqual({
      login: 'LOGIN',
      reauth: 'REAUTH',
    });
  });

  it('refuses an enum of fewer than two, naming where it looked', () => {
    expect(() => flowTypesOf(withFlowTypes(['LOGIN']))).toThrow(
      /#\/components\/schemas\/LoginResponse\/properties\/flow_type\/enum must list the login flow type then/,
    );
  });
});
