export const SHARED_MODULES: Readonly<{ isolate: false }>;
