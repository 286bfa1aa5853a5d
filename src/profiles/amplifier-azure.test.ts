import { describe, expect, it } from 'vitest';
import type { PairRecord } from '../model.js';
import { analyzeLines } from '../../test/helpers.js';

/** An azure-era line: the payload nested once more, under `data.data`. */
const line = (event: string, ts: string, data: object) => ({
  event,
  ts,
  lvl: 'INFO',
  schema: { name: 'amplifier.log', ver: '1.0.0' },
  session_id: 's1',
  data: { data },
});

describe('amplifier: azure-era captures (data.data)', () => {
  it('acceptance: pairs by signature on provider and model, not by FIFO', async () => {
    const pairs: PairRecord[] = [];
    const r = await analyzeLines(
      [
        line('llm:request', '2025-09-01T10:00:00.000Z', { provider: 'azure-openai', model: 'gpt-4o' }),
        line('llm:request', '2025-09-01T10:00:00.100Z', { provider: 'azure-openai', model: 'gpt-4o-mini' }),
        line('llm:response', '2025-09-01T10:00:00.900Z', { provider: 'azure-openai', model: 'gpt-4o-mini', status: 'ok', usage: { input: 10, output: 2 } }),
        line('llm:response', '2025-09-01T10:00:02.000Z', { provider: 'azure-openai', model: 'gpt-4o', status: 'ok' }),
      ],
      { onPair: (p) => pairs.push(p) },
    );
    expect(pairs.map((p) => [p.method, p.confidence, p.request.attrs.model, p.terminal.attrs.model])).toEqual([
      ['signature', 'unambiguous', 'gpt-4o-mini', 'gpt-4o-mini'],
      ['signature', 'unambiguous', 'gpt-4o', 'gpt-4o'],
    ]);
    expect(pairs[0]!.terminal.attrs.usage).toMatchObject({ inputTokens: 10, outputTokens: 2 });
    expect(pairs.map((p) => p.latencyMs)).toEqual([800, 2000]);
    expect(r.channels[0]!.pairs.byMethod.fifo).toBe(0);
  });
});
