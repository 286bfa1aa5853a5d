import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tmpDir } from '../../test/helpers.js';
import { checkOutputs, OutputError, openOutput, writeOutput } from './outputs.js';

describe('writeOutput', () => {
  it('writes megabytes in slices, never splitting a surrogate pair between two', async () => {
    // Slices are 2^20 code units: the astral character's two halves sit at 2^20 - 1 and 2^20 (and,
    // shifted, both before or after the cut).
    for (const shift of [0, 1, 2]) {
      const file = path.join(tmpDir(), `out-${shift}.txt`);
      const body = 'a'.repeat(2 ** 20 - 2 + shift) + '😀' + 'é'.repeat(2 ** 20) + '😀\n';
      await writeOutput(await openOutput(file), body);
      expect(readFileSync(file, 'utf8')).toBe(body);
    }
  });
});

describe('writeText', () => {
  it('waits for a slow reader slice by slice and leaves no listener behind (no MaxListenersExceededWarning)', async () => {
    const { PassThrough } = await import('node:stream');
    const { writeText } = await import('./io.js');
    const s = new PassThrough({ highWaterMark: 1024 });
    let got = 0;
    s.on('data', (d: Buffer) => {
      got += d.length;
      s.pause();
      setImmediate(() => s.resume());
    });
    const before = { drain: s.listenerCount('drain'), close: s.listenerCount('close'), error: s.listenerCount('error') };
    const text = 'x'.repeat(15 * 2 ** 20);
    await writeText(s, text);
    await new Promise((r) => setImmediate(r));
    expect({ drain: s.listenerCount('drain'), close: s.listenerCount('close'), error: s.listenerCount('error') }).toEqual(before);
    s.end();
    await new Promise((r) => s.on('end', r));
    expect(got).toBe(text.length);
  });
});

describe('checkOutputs: a path inside an input directory', () => {
  const refused = async (out: string, inputs: Parameters<typeof checkOutputs>[1]) =>
    checkOutputs([{ file: out, flag: '--output ' }], inputs).then(
      () => null,
      (e: unknown) => (e instanceof OutputError ? e.message : `not an OutputError: ${String(e)}`),
    );

  it('refuses a new file the walk would read, in folders yet to be made, through links', async () => {
    const dir = tmpDir();
    const caps = path.join(dir, 'caps');
    mkdirSync(path.join(caps, 'sub'), { recursive: true });
    writeFileSync(path.join(caps, 'notes.txt'), 'not a capture\n');
    symlinkSync(caps, path.join(dir, 'link'));
    symlinkSync(path.join(caps, 'notes.txt'), path.join(dir, 'out-link.json'));
    const msg = (out: string, arg: string) => `--output ${out} is inside the input directory ${arg}: refusing to write where an input is read`;
    writeFileSync(path.join(caps, 'old.json'), '{}\n');
    for (const out of ['new.json', 'sub/r.json', 'a/b/c.jsonl.gz', '../caps/x.JSON', 'h.har', 'n.ndjson']) {
      expect(await refused(path.join(caps, out), { inputs: [caps] }), out).toBe(msg(path.join(caps, out), caps));
    }
    expect(await refused(path.join(dir, 'link', 'r.json'), { inputs: [caps] })).toBe(msg(path.join(dir, 'link', 'r.json'), caps));
    expect(await refused(path.join(caps, 'r.json'), { inputs: [path.join(dir, 'link')] })).toBe(msg(path.join(caps, 'r.json'), path.join(dir, 'link')));
    // A symlink outside to a file inside (openOutput replaces its target): judged by the target's name too.
    expect(await refused(path.join(dir, 'out-link.json'), { inputs: [caps] })).toBeNull(); // notes.txt: the walk skips it
    symlinkSync(path.join(caps, 'sub'), path.join(dir, 'sublink'));
    expect(await refused(path.join(dir, 'sublink', 'r.ndjson'), { inputs: [caps] })).toBe(msg(path.join(dir, 'sublink', 'r.ndjson'), caps));
    // A directory among --caller, --upstream or the other files read (merge's report folders).
    expect(await refused(path.join(caps, 'r.json'), { inputs: [], caller: [caps] })).not.toBeNull();
    expect(await refused(path.join(caps, 'r.json'), { inputs: [], upstream: [caps] })).not.toBeNull();
    expect(await refused(path.join(caps, 'r.json'), { inputs: [], others: [caps] })).not.toBeNull();
  });

  it('writes a name the directory walk does not read (a report.md, .sarif, .xml, .txt) inside it', async () => {
    const dir = tmpDir();
    const caps = path.join(dir, 'caps');
    mkdirSync(caps);
    writeFileSync(path.join(caps, 'notes.txt'), 'not a capture\n');
    for (const out of ['r.md', 'r.sarif', 'sub/r.junit.xml', 'notes.txt', 'r.json.txt']) expect(await refused(path.join(caps, out), { inputs: [caps] }), out).toBeNull();
  });

  it('writes beside it: a folder its name prefixes, its parent, when no directory is an input', async () => {
    const dir = tmpDir();
    const caps = path.join(dir, 'caps');
    mkdirSync(caps);
    for (const out of [path.join(dir, 'caps2', 'r.json'), path.join(dir, 'r.json'), path.join(dir, 'capsr.json')]) {
      expect(await refused(out, { inputs: [caps] }), out).toBeNull();
    }
    expect(await refused(path.join(caps, 'r.json'), { inputs: [path.join(caps, 'missing.jsonl'), '-'] })).toBeNull();
  });
});
