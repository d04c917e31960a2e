export function workspaceManifests(root: string): string[];
export function publishablePackages(root: string): string[];
export function packPackages(root: string, destination: string): Map<string, string>;
export function installPacked(root: string, dir: string, devDependencies?: Record<string, string>): Map<string, string>;
