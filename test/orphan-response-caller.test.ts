/** A terminal whose record states no caller is named for what it is in findings, never as "(unstated)". */
import { describe, expect, it } from 'vitest';
import { amp, analyzeLines, resetClock } from './helpers.js';

describe('an orphan response with no caller field', () => {
  it('its message says the record states no caller; a stated caller is named', async () => {
    resetClock();
    const report = await analyzeLines([
      amp({ event: 'llm:response', id: 'x1', provider: 'p', model: 'm', status: 'ok' }),
      amp({ event: 'llm:response', id: 'x2', provider: 'p', model: 'm', caller: 'agent', status: 'ok' }),
    ]);
    const messages = report.findings.filter((f) => f.code === 'ORPHAN_RESPONSE').map((f) => f.message);
    expect(messages).toEqual([
      'llm:response (its record states no caller) carries an id no open request has',
      'llm:response for agent carries an id no open request has',
    ]);
  });
});
