import { runHandlers } from '../runs/handlers-kit.ts';
import { classificationKind } from './kind.ts';
import { classificationOperations } from './operations.ts';
import { prepareClassification } from './service.ts';

const handlers = runHandlers(classificationKind, classificationOperations, 'classification_id', ({ platform, caller, body }) => prepareClassification(platform, caller, body));

export const createClassification = handlers.create;
export const getClassification = handlers.get;
export const listClassifications = handlers.list;
export const deleteClassification = handlers.delete;
export const cancelClassification = handlers.cancel;
