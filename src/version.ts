/** Kept equal to package.json's version (a test checks it). */
export const VERSION = '0.1.0';
/** The project's home (SARIF `informationUri`, rule help links). */
export const PROJECT_URL = 'https://github.com/callpair/callpair';
