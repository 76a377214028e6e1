import type { RunKind } from '../runs/kinds.ts';
import type { ParseOutput } from './schema.ts';

export const EMPTY_PARSE_OUTPUT: ParseOutput = { pages: [], text: '' };

export const parseKind: RunKind = { name: 'parse', type: 'parse', idPrefix: 'prs', resource: 'Parse', emptyOutput: EMPTY_PARSE_OUTPUT, apart: ['layout'] };
