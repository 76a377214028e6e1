import { runOperations } from '../runs/schema.ts';
import { CreatePartitionBody, Partition } from './schema.ts';

export const partitionOperations = runOperations({
  resource: 'partition',
  plural: 'partitions',
  idParam: 'partition_id',
  createBody: CreatePartitionBody,
  record: Partition,
  tag: 'partitions',
});
