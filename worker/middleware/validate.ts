import { zValidator } from '@hono/zod-validator';
import type { ValidationTargets } from 'hono';
import type { ZodType } from 'zod';

/** Field name -> messages, from a zod error (form-level issues go under "_"). */
export function fieldMessages(issues: { path: PropertyKey[]; message: string }[]) {
  const fields: Record<string, string[]> = {};
  for (const issue of issues) {
    const key = issue.path.length ? issue.path.map(String).join('.') : '_';
    (fields[key] ??= []).push(issue.message);
  }
  return fields;
}

/**
 * zValidator with the API's one answer for bad input: 400 with `message` (the first problem, fit
 * for a toast) and `fields` (every message, per field).
 *
 * @example
 * route.post('/', validate('json', contactSchema), (c) => c.json(c.req.valid('json')))
 */
export function validate<T extends ZodType, Target extends keyof ValidationTargets>(target: Target, schema: T) {
  return zValidator(target, schema, (result, c) => {
    if (!result.success) {
      const issues = result.error.issues;
      return c.json({ message: issues[0]?.message ?? 'Invalid input', fields: fieldMessages(issues) }, 400);
    }
  });
}
