// Preloaded with NODE_OPTIONS=--import=…: logs every file the CLI opens for reading (through
// fs.createReadStream or fs/promises open) to stderr, so a test can count how many times the CLI
// read a capture.
import fs from 'node:fs';
import { createRequire, syncBuiltinESMExports } from 'node:module';

const require = createRequire(import.meta.url);
const fsp = require('node:fs/promises');

const originalStream = fs.createReadStream;
fs.createReadStream = function (p, ...rest) {
  process.stderr.write(`[read] ${String(p)}\n`);
  return originalStream.call(this, p, ...rest);
};
const originalOpen = fsp.open;
fsp.open = function (p, flags, ...rest) {
  if (flags === undefined || flags === 'r') process.stderr.write(`[read] ${String(p)}\n`);
  return originalOpen.call(this, p, flags, ...rest);
};
fs.promises.open = fsp.open;
syncBuiltinESMExports();
