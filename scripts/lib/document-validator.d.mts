export function escapePointerToken(token: string | number): string;
export function pointerOf(...tokens: (string | number)[]): string;
export function resolvePointer(document: unknown, pointer: string): any;
export function deref(document: unknown, node: unknown): any;
export function eventStreamData(text: string): string[];
export interface DocumentValidator {
  validateAt(pointer: string, data: unknown): string[];
  validateResponse(operationId: string, status: number, contentType: string | null, body: unknown): string[];
  findOperation(operationId: string): { path: string; method: string; operation: any };
}
export function createDocumentValidator(document: unknown): DocumentValidator;
