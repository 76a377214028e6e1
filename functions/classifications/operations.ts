import { runOperations } from '../runs/schema.ts';
import { Classification, CreateClassificationBody } from './schema.ts';

export const classificationOperations = runOperations({
  resource: 'classification',
  plural: 'classifications',
  idParam: 'classification_id',
  createBody: CreateClassificationBody,
  record: Classification,
  tag: 'classifications',
});
