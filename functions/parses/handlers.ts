import { runHandlers } from '../runs/handlers-kit.ts';
import { parseOperations } from './operations.ts';
import { parseKind } from './kind.ts';
import { prepareParse } from './service.ts';

const handlers = runHandlers(parseKind, parseOperations, 'parse_id', ({ platform, caller, body }) => prepareParse(platform, caller, body));

export const createParse = handlers.create;
export const getParse = handlers.get;
export const listParses = handlers.list;
export const deleteParse = handlers.delete;
export const cancelParse = handlers.cancel;
