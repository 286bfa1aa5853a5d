import { describe, expect, it } from 'vitest';
import { makeProgress } from './progress.js';

function fakeStream(isTTY: boolean) {
  const out: string[] = [];
  return { out, stream: { isTTY, columns: 80, write: (s: string) => out.push(s) } as unknown as NodeJS.WriteStream };
}

describe('progress', () => {
  it('draws on a TTY outside CI, with the path sanitised, and erases itself', () => {
    const { out, stream } = fakeStream(true);
    const p = makeProgress(stream, {});
    p.update({ path: 'evil\u001b]8;;http://x\u0007name.jsonl', index: 0, inputs: 2, bytes: 12_345_678 });
    p.done();
    expect(out[0]).toContain('[1/2] evilname.jsonl 12 MB');
    expect(out[0]).not.toContain('http://x');
    expect(out.at(-1)).toBe('\r\u001b[2K');
  });

  it('is silent when stderr is not a TTY, or in CI', () => {
    for (const [tty, env] of [
      [false, {}],
      [true, { CI: 'true' }],
    ] as const) {
      const { out, stream } = fakeStream(tty);
      const p = makeProgress(stream, env);
      p.update({ path: 'a', index: 0, inputs: 1, bytes: 1 });
      p.done();
      expect(out).toEqual([]);
    }
  });
});
