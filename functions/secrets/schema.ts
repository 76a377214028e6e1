/** Wire types of secrets (API §11). */
import * as z from 'zod';

export const SECRET_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** API §11: a value is a string of 1..65536 characters. */
export const MAX_SECRET_LENGTH = 65_536;

export const SecretName = z
  .string()
  .min(1)
  .max(128)
  .regex(SECRET_NAME, 'must match ^[A-Za-z_][A-Za-z0-9_]*$ (letters, digits and _, not starting with a digit)');
export const SecretValue = z.string().min(1, 'must not be empty').max(MAX_SECRET_LENGTH, `must be at most ${MAX_SECRET_LENGTH} characters`);

export const Secret = z
  .object({ name: z.string(), created_at: z.string(), updated_at: z.string(), created_by: z.string(), updated_by: z.string() })
  .meta({ id: 'Secret' });
export type Secret = z.infer<typeof Secret>;

export const SecretEnvelope = z.object({ secret: Secret });
export const SecretList = z.object({ secrets: z.array(Secret) });
export const SecretValueEnvelope = z.object({ secret: z.object({ name: z.string(), value: z.string(), updated_at: z.string() }) });

export const SecretNameParams = z.object({ name: SecretName });
export const PutSecretBody = z.object({ value: SecretValue });
export const CreateSecretBody = z.object({ name: SecretName, value: SecretValue });
