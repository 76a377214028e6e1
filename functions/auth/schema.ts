import * as z from 'zod';
import { ENVIRONMENT_SLUGS, ROLES } from '../platform/callers.ts';

export const Role = z.enum(ROLES);
export type Role = z.infer<typeof Role>;

export const EnvironmentSlug = z.enum(ENVIRONMENT_SLUGS);
export type EnvironmentSlug = z.infer<typeof EnvironmentSlug>;

export const AuthStatus = z
  .object({
    authenticated: z.literal(true),
    auth_method: z.literal('api_key'),
    organization_id: z.string(),
    environment_slug: EnvironmentSlug,
    environment_id: z.string(),
    environment: z.object({ id: z.string(), name: EnvironmentSlug, type: z.enum(['production', 'non_production']) }),
    key: z.object({
      id: z.string(),
      name: z.string(),
      prefix: z.string(),
      last4: z.string(),
      role: Role,
      legacy: z.boolean(),
    }),
  })
  .meta({ id: 'AuthStatus' });
