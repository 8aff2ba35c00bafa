/** The package version (kept equal to package.json by test/unit/toolkit/public-api.test.ts). */
export const VERSION = '0.1.0';
