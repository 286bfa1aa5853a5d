/**
 * "Did you mean …?" for commands, options and option values, and yargs' usage failures turned
 * into one line each (docs/inputs.md, errors).
 */

/** Edit distance (Levenshtein), small strings only. */
export function distance(a: string, b: string): number {
  const m = a.length;
  const n = b.length;
  let prev = Array.from({ length: n + 1 }, (_, j) => j);
  for (let i = 1; i <= m; i++) {
    const cur = [i];
    for (let j = 1; j <= n; j++) cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[n]!;
}

/** The closest candidate, when it is close enough to be what was meant (or a prefix of it). */
export function didYouMean(word: string, candidates: Iterable<string>): string | null {
  let best: string | null = null;
  let bestD = Infinity;
  const w = word.toLowerCase();
  for (const c of candidates) {
    const d = c.startsWith(w) && w.length >= 3 ? 0.5 : distance(w, c.toLowerCase());
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  return best !== null && bestD <= Math.max(1, Math.floor(best.length / 3)) ? best : null;
}

const hint = (s: string | null, dashes = '') => (s ? ` (did you mean ${dashes}${s}?)` : '');

/**
 * One line for a yargs failure message, with a suggestion: unknown commands and options, and
 * values outside an option's choices. Other messages pass through, joined on one line.
 */
export function usageLine(msg: string, ctx: { commands: readonly string[]; options: ReadonlySet<string>; commandGiven: boolean }): string {
  const unknown = /^Unknown arguments?: (.+)$/s.exec(msg);
  if (unknown) {
    const all = unknown[1]!.split(', ');
    // yargs lists `--max-x` also as `maxX`: one of the two is enough.
    const camel = (a: string) => a.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
    const args = all.filter((a) => !(/[A-Z]/.test(a) && all.some((b) => b !== a && camel(b) === a)));
    if (!ctx.commandGiven) return `unknown command "${args[0]}"${hint(didYouMean(args[0]!, ctx.commands))}; commands: ${ctx.commands.join(', ')}`;
    // One letter is a short option (`-f`), as it was typed; a suggestion gets its own dashes.
    const dashed = (o: string) => (o.length === 1 ? `-${o}` : `--${o}`);
    return args
      .map((a) => {
        const s = didYouMean(a, ctx.options);
        return `unknown ${a.length > 0 ? `option ${dashed(a)}` : 'option'}${s ? ` (did you mean ${dashed(s)}?)` : ''}`;
      })
      .join('; ');
  }
  const choice = /Argument: ([^,]+), Given: "([^"]*)", Choices: (.+)$/m.exec(msg);
  if (choice) {
    const choices = choice[3]!.split(', ').map((c) => c.replace(/^"|"$/g, ''));
    return `--${choice[1]}: "${choice[2]}" is not one of ${choices.join(', ')}${hint(didYouMean(choice[2]!, choices))}`;
  }
  return msg.replace(/\s*\n\s*/g, '; ');
}
