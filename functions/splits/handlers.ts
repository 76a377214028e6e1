import { api } from '../platform/http.ts';
import { runHandlers } from '../runs/handlers-kit.ts';
import { splitKind } from './kind.ts';
import { reconstructOperation, splitOperations } from './operations.ts';
import { reconstructSplit } from './reconstruct.ts';
import { prepareSplit } from './service.ts';

const handlers = runHandlers(splitKind, splitOperations, 'split_id', ({ platform, caller, body }) => prepareSplit(platform, caller, body));

export const createSplit = handlers.create;
export const getSplit = handlers.get;
export const listSplits = handlers.list;
export const deleteSplit = handlers.delete;
export const cancelSplit = handlers.cancel;
export const reconstructSplitTables = api(reconstructOperation, ({ platform, caller, body }) => reconstructSplit(platform, caller, body));
