import type { Context } from 'hono';
import type { AuditAction } from '#core/schemas/audit';
import type { AppEnv } from '../env';
import { type AuditEntry, recordAudit } from '../services/audit/audit-log';
import { clientNetwork } from './client-network';

/** An entry for this request's signed-in admin (c.var.adminUser) from this request's network. */
export function auditEntry(c: Context<AppEnv>, action: AuditAction, record?: string | null): AuditEntry {
  return { actor: c.get('adminUser'), action, record: record ?? null, network: clientNetwork(c) };
}

/**
 * Records this request's admin's change, after it succeeded (never a refused one):
 * `await audit(c, 'appointment.confirm', 'appointment:42')`.
 */
export async function audit(c: Context<AppEnv>, action: AuditAction, record?: string | null): Promise<void> {
  await recordAudit(c.var.db, auditEntry(c, action, record));
}

/** Who acts in this request, as the audit trail names them: the signed-in admin (c.var.adminUser) and their network. */
export const adminActor = (c: Context<AppEnv>): Pick<AuditEntry, 'actor' | 'network'> => ({ actor: c.get('adminUser'), network: clientNetwork(c) });
