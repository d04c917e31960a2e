export interface ApiWorkflowChange {
  name: string;
  description: string;
  edit(text: string, context: { root: string }): string;
}
export const API_WORKFLOW_CHANGES: readonly ApiWorkflowChange[];
export function isGeneratedOrDocument(path: string): boolean;
