import { runHandlers } from '../runs/handlers-kit.ts';
import { partitionKind } from './kind.ts';
import { partitionOperations } from './operations.ts';
import { preparePartition } from './service.ts';

const handlers = runHandlers(partitionKind, partitionOperations, 'partition_id', ({ platform, caller, body }) => preparePartition(platform, caller, body));

export const createPartition = handlers.create;
export const getPartition = handlers.get;
export const listPartitions = handlers.list;
export const deletePartition = handlers.delete;
export const cancelPartition = handlers.cancel;
