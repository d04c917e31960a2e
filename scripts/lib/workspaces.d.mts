export function workspaceManifests(root: string): string[];
export function publishablePackages(root: string): string[];
export function packPackages(root: string, destination: string): Map<string, string>;
