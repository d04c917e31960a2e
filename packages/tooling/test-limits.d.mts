export const HANG_LIMITS: Readonly<{ testTimeout: number; hookTimeout: number }>;
