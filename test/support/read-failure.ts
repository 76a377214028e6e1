/** The ReadFailure a read rejects with (the test fails when it resolves or throws anything else). */
import { expect } from 'vitest';
import { ReadFailure } from '../../functions/documents/doc.ts';

export async function failure(promise: Promise<unknown>): Promise<ReadFailure> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ReadFailure);
    return error as ReadFailure;
  }
  throw new Error('expected a ReadFailure');
}
