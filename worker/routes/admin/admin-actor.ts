import type { Context } from 'hono';
import type { AppEnv } from '../../env';
import type { AuditEntry } from '../../services/audit/audit-log';
import { clientNetwork } from '../../services/limits/client-ip';

/** Who acts in this request, as the audit trail names them: the signed-in admin (c.var.adminUser) and their network. */
export const adminActor = (c: Context<AppEnv>): Pick<AuditEntry, 'actor' | 'network'> => ({ actor: c.get('adminUser'), network: clientNetwork(c) });
