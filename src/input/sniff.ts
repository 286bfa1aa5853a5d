/**
 * What an input holds, decided from its first bytes (docs/inputs.md): JSONL, a JSON document, or
 * something callpair does not read (another compression, UTF-16/UTF-32 text), which is reported
 * instead of being read as junk lines.
 *
 * `fileContains` is a cheaper look: does a file hold a byte string at all.
 *
 * JSONL or document is decided on evidence: a first line that is a complete JSON value followed by
 * another line is JSONL, whatever its first byte; a first value that spans lines and starts with
 * `[` (or `{` in a `.json` or `.har` file, or `{` alone on its line, or a first line opening
 * `{"log":` that is no complete value: a HAR under any name, or on stdin) is a document; so is a
 * single-line `[…]`, or `{…}` in a `.json` or `.har` file, with nothing after it.
 */
import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { zlib } from '../builtins.js';

export type Sniffed = { kind: 'jsonl' } | { kind: 'json' } | { kind: 'unsupported'; what: string };

/** Bytes looked at, at most, before deciding (a first line longer than this starting with `[` is a document). */
export const SNIFF_MAX = 16 << 20;
/** Enough for every magic number below. */
const MAGIC_BYTES = 16;

const MAGICS: Array<{ bytes: number[]; what: string; more?: (h: Buffer) => boolean }> = [
  { bytes: [0x28, 0xb5, 0x2f, 0xfd], what: 'zstd-compressed data (not supported: decompress it first, e.g. zstd -dc)' },
  { bytes: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], what: 'xz-compressed data (not supported: decompress it first, e.g. xz -dc)' },
  {
    bytes: [0x42, 0x5a, 0x68],
    what: 'bzip2-compressed data (not supported: decompress it first, e.g. bzip2 -dc)',
    // "BZh" + level + block magic (pi) or end-of-stream magic (sqrt pi): not a text line starting "BZh".
    more: (h) =>
      h.length >= 10 &&
      h[3]! >= 0x31 &&
      h[3]! <= 0x39 &&
      ((h[4] === 0x31 && h[5] === 0x41 && h[6] === 0x59 && h[7] === 0x26 && h[8] === 0x53 && h[9] === 0x59) ||
        (h[4] === 0x17 && h[5] === 0x72 && h[6] === 0x45 && h[7] === 0x38 && h[8] === 0x50 && h[9] === 0x90)),
  },
  { bytes: [0x04, 0x22, 0x4d, 0x18], what: 'lz4-compressed data (not supported: decompress it first, e.g. lz4 -dc)' },
  { bytes: [0x50, 0x4b, 0x03, 0x04], what: 'a zip archive (not supported: extract it first)' },
  { bytes: [0xff, 0xfe, 0x00, 0x00], what: 'UTF-32 text (little-endian BOM; not supported: convert it to UTF-8, e.g. iconv -f UTF-32 -t UTF-8)' },
  { bytes: [0x00, 0x00, 0xfe, 0xff], what: 'UTF-32 text (big-endian BOM; not supported: convert it to UTF-8, e.g. iconv -f UTF-32 -t UTF-8)' },
  { bytes: [0xff, 0xfe], what: 'UTF-16 text (little-endian BOM; not supported: convert it to UTF-8, e.g. iconv -f UTF-16 -t UTF-8)' },
  { bytes: [0xfe, 0xff], what: 'UTF-16 text (big-endian BOM; not supported: convert it to UTF-8, e.g. iconv -f UTF-16 -t UTF-8)' },
];

function startsWith(h: Buffer, bytes: number[]): boolean {
  if (h.length < bytes.length) return false;
  for (let i = 0; i < bytes.length; i++) if (h[i] !== bytes[i]) return false;
  return true;
}

const isWs = (c: number | undefined) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

const LOG_KEY = Buffer.from('"log"');

/** After the opening `{` at `from`: optional blanks, the key `"log"`, optional blanks, a colon. */
function startsLog(head: Buffer, from: number): boolean {
  let j = from;
  while (j < head.length && isWs(head[j])) j++;
  if (!head.subarray(j, j + LOG_KEY.length).equals(LOG_KEY)) return false;
  j += LOG_KEY.length;
  while (j < head.length && isWs(head[j])) j++;
  return head[j] === 0x3a;
}

/** Names whose `{` opens a JSON document (else `{` starts JSONL, unless it stands alone on the first line). */
const DOCUMENT_NAME = /\.(json|har)(\.gz)?$/i;

/**
 * Decides from `head` (the first bytes; `ended`: that is the whole input), or returns null when
 * more bytes are needed. `name` is the displayed path (`.json` and `.har` matter for `{`).
 */
export function sniff(head: Buffer, name: string, ended: boolean): Sniffed | null {
  if (head.length < MAGIC_BYTES && !ended) return null;
  for (const m of MAGICS) if (startsWith(head, m.bytes) && (!m.more || m.more(head))) return { kind: 'unsupported', what: m.what };
  // UTF-16 without a BOM: `{` or `[` with a zero byte beside it.
  if (head.length >= 4 && (head[0] === 0x7b || head[0] === 0x5b) && head[1] === 0 && head[3] === 0) return { kind: 'unsupported', what: 'UTF-16 text (little-endian, no BOM; not supported: convert it to UTF-8)' };
  if (head.length >= 4 && head[0] === 0 && (head[1] === 0x7b || head[1] === 0x5b) && head[2] === 0) return { kind: 'unsupported', what: 'UTF-16 text (big-endian, no BOM; not supported: convert it to UTF-8)' };

  let i = 0;
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) i = 3;
  while (i < head.length && isWs(head[i])) i++;
  const full = ended || head.length >= SNIFF_MAX;
  if (i >= head.length) return full ? { kind: 'jsonl' } : null;
  const c = head[i];
  const bracket = c === 0x5b;
  if (!bracket && !(c === 0x7b && DOCUMENT_NAME.test(name))) {
    // Recognised by content, whatever the name (a `.har`, a `.log`): a line holding only `{` opens
    // a pretty-printed JSON document, never a JSONL record (`{}` on one line is complete).
    if (c !== 0x7b) return { kind: 'jsonl' };
    let j = i + 1;
    while (j < head.length && (head[j] === 0x20 || head[j] === 0x09 || head[j] === 0x0d)) j++;
    if (j >= head.length) return full ? { kind: 'jsonl' } : null;
    if (head[j] === 0x0a) return { kind: 'json' };
    // A HAR by content (stdin, any name): a first line opening `{"log":` that is no complete JSON
    // value (its object goes on below) is a document, as the same bytes in a `.har` file are.
    if (!startsLog(head, i + 1)) return { kind: 'jsonl' };
    const end = head.indexOf(0x0a, i);
    if (end === -1) return full ? { kind: 'jsonl' } : null;
    try {
      JSON.parse(head.toString('utf8', i, end));
      return { kind: 'jsonl' };
    } catch {
      return { kind: 'json' };
    }
  }
  const nl = head.indexOf(0x0a, i);
  if (nl === -1) {
    if (!full) return null;
    // One line, no newline: a `[…]` is a document, and so is a `{…}` in a `.json`/`.har` file
    // (a minified HAR: over the bound it is read element by element).
    return { kind: 'json' };
  }
  let complete = true;
  try {
    JSON.parse(head.toString('utf8', i, nl));
  } catch {
    complete = false;
  }
  if (!complete) return { kind: 'json' };
  // A complete first line (`[…]`, or `{…}` in a `.json`/`.har` file): JSONL if another line
  // follows, a document if it is all there is.
  let j = nl + 1;
  while (j < head.length && isWs(head[j])) j++;
  if (j < head.length) return { kind: 'jsonl' };
  return full ? { kind: 'json' } : null;
}

/**
 * Whether a file holds one of some byte strings anywhere (gzip detected by its magic bytes), read as a stream
 * and stopped at the first hit: a cheap look before the pass, e.g. "does this --upstream log hold
 * any JSON-RPC message at all?". Only a regular file is looked into (after following links): a
 * FIFO would be consumed by the look and a device read forever, so they count as "may hold it"
 * and the pass itself reads (or skips) them.
 */
export async function fileContains(file: string | Buffer, needles: Buffer | readonly Buffer[]): Promise<boolean> {
  const list = Buffer.isBuffer(needles) ? [needles] : needles;
  const longest = Math.max(1, ...list.map((n) => n.length));
  let fh: FileHandle;
  try {
    fh = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return true;
  }
  try {
    if (!(await fh.stat()).isFile()) return true;
    const head = Buffer.alloc(2);
    const { bytesRead } = await fh.read(head, 0, 2, 0);
    const raw = fh.createReadStream({ start: 0, autoClose: false });
    const gz = bytesRead === 2 && head[0] === 0x1f && head[1] === 0x8b;
    const stream: NodeJS.ReadableStream = gz ? raw.pipe(zlib().createGunzip()) : raw;
    let tail: Buffer = Buffer.alloc(0);
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        const buf = tail.length ? Buffer.concat([tail, chunk]) : chunk;
        if (list.some((n) => buf.includes(n))) return true;
        tail = buf.subarray(Math.max(0, buf.length - longest + 1));
      }
      return false;
    } catch {
      // Unreadable or corrupt: the pass itself reports it; here it counts as "may hold it".
      return true;
    } finally {
      raw.destroy();
    }
  } catch {
    return true;
  } finally {
    await fh.close().catch(() => undefined);
  }
}
