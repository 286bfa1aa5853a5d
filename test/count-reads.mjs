// Preloaded with NODE_OPTIONS=--import=…: logs every fs.createReadStream to stderr, so a test can
// count how many times the CLI read a capture.
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';

const original = fs.createReadStream;
fs.createReadStream = function (p, ...rest) {
  process.stderr.write(`[read] ${String(p)}\n`);
  return original.call(this, p, ...rest);
};
syncBuiltinESMExports();
