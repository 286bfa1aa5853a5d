/** A capture whose strings are markup: script tags, event-handler attributes, attribute breakers. */
import { amp, resetClock } from './helpers.js';

export const HOSTILE = {
  caller: '<img src=x onerror=alert(1)>',
  model: '<script>alert(2)</script>',
  provider: '" onmouseover="alert(3)" x="',
  session: '<svg onload=alert(4)>',
  error: '</title><script>console.log("pwned")</script><b onclick=alert(5)>x</b>',
};

export function hostileLines(): object[] {
  resetClock();
  const { caller, model, provider, session, error } = HOSTILE;
  return [
    amp({ event: 'llm:request', session, id: 'h1', provider, model, caller }),
    amp({ event: 'llm:request', session, id: 'h2', provider, model, caller: 'other' }),
    amp({ event: 'llm:response', session, id: 'h2', provider, model, caller: 'other', status: 'ok' }),
    amp({ event: 'llm:response', session, id: 'h1', provider, model, caller, status: 'error', extra: { error: { type: 'Boom', msg: error } } }),
    amp({ event: 'llm:request', session, id: 'h3', provider, model: 'javascript:alert(6)', caller: '<iframe srcdoc="<script>alert(7)</script>">' }),
  ];
}
