/**
 * The gate options of `analyze` (and any command that gates): definitions, and their mapping to
 * the library's GateOptions. A bad value is a usage error (exit 2), never a silently passing gate.
 */
import type { Argv } from 'yargs';
import { GateOptionError, parseFailOn, validateGateOptions, type GateOptions } from '../report/gate.js';
import { InputUsageError } from '../input/sources.js';

export function gateOptions<T>(y: Argv<T>) {
  return y
    .option('fail-on', {
      type: 'string',
      describe: 'also fail on any finding of these codes or severities (CODE|error|warning|note, comma-separated, repeatable)',
    })
    .option('max-crossed-rate', { type: 'number', describe: 'fail when the FIFO crossed rate of id-paired calls exceeds R (0..1)' })
    .option('max-orphan-requests', { type: 'number', describe: 'fail when more than N requests are never closed' })
    .option('max-ambiguous', { type: 'number', describe: 'fail when more than N pairs are ambiguous' })
    .option('min-id-coverage', { type: 'number', describe: 'fail when fewer than R (0..1) of the requests carry a valid correlation id' })
    .option('fail', { type: 'boolean', default: true, hidden: true })
    .option('no-fail', { type: 'boolean', describe: 'evaluate and report the gate, but exit 0 when it fails' })
    .option('allow-unverified', { type: 'boolean', describe: 'assay: DELIVERY_UNVERIFIED (an audit that could not see everything) does not fail the gate; shown in the report' });
}

export interface GateArgs {
  failOn?: string | string[];
  maxCrossedRate?: number;
  maxOrphanRequests?: number;
  maxAmbiguous?: number;
  minIdCoverage?: number;
  allowUnverified?: boolean;
  fail: boolean;
}

/** yargs turns an unparseable number into NaN and a repeated scalar into an array: reject both. */
function single(name: string, v: unknown): number | undefined {
  if (v === undefined) return undefined;
  if (Array.isArray(v)) throw new InputUsageError(`--${name} given more than once`);
  return v as number;
}

export function gateOptionsFrom(a: GateArgs): GateOptions {
  try {
    const failOn = a.failOn === undefined ? [] : parseFailOn(([] as string[]).concat(a.failOn).map(String));
    const o: GateOptions = {
      failOn,
      maxCrossedRate: single('max-crossed-rate', a.maxCrossedRate),
      maxOrphanRequests: single('max-orphan-requests', a.maxOrphanRequests),
      maxAmbiguous: single('max-ambiguous', a.maxAmbiguous),
      minIdCoverage: single('min-id-coverage', a.minIdCoverage),
      noFail: a.fail === false,
    };
    if (a.allowUnverified === true) o.allowUnverified = true;
    validateGateOptions(o);
    return o;
  } catch (e) {
    if (e instanceof GateOptionError) throw new InputUsageError(e.message);
    throw e;
  }
}
