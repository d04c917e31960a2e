export function runtimesStamp(runtimesDir: string): { path: string; digest: string };
