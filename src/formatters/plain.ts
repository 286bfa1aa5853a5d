/**
 * The chalk instance of a context that names none (FormatContext, CompareRenderContext): no
 * colour, so a library caller renders every format without a chalk of its own.
 */
import { Chalk, type ChalkInstance } from 'chalk';

export const NO_COLOR: ChalkInstance = new Chalk({ level: 0 });
