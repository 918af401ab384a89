import { useInfiniteQuery } from '@tanstack/react-query';
import type { InferResponseType } from 'hono/client';
import type { AuditAction } from '#core/schemas/audit';
import { api, okJson } from '../../../lib/api';

// The audit trail (worker/routes/admin/audit.ts, docs/product.md §6.9), typed from the route.
export type AuditEntry = InferResponseType<typeof api.admin.audit.$get, 200>['entries'][number];

/** The screen's filter: empty strings are "any". */
export interface AuditFilterForm {
  actor: string;
  action: AuditAction | '';
  from: string;
  to: string;
}

const query = (f: AuditFilterForm) => ({
  ...(f.actor.trim() ? { actor: f.actor.trim() } : {}),
  ...(f.action ? { action: f.action } : {}),
  ...(f.from ? { from: f.from } : {}),
  ...(f.to ? { to: f.to } : {}),
});

/** The entries matching the filter, newest first, a page at a time ("Show older entries"). */
export const useAuditEntries = (filter: AuditFilterForm) =>
  useInfiniteQuery({
    // Under the route's path, so signing out drops it with the other admin lists (session.ts).
    queryKey: ['/api/admin/audit', query(filter)],
    queryFn: ({ pageParam }) => okJson(api.admin.audit.$get({ query: { ...query(filter), ...(pageParam ? { before: String(pageParam) } : {}) } })),
    initialPageParam: 0,
    getNextPageParam: (last) => (last.more ? last.entries.at(-1)?.id : undefined),
  });

/**
 * The CSV export's address for the filter: a link the browser downloads with the session cookie,
 * not a call (the client's $url needs an absolute base, and the client's base is '/').
 */
export const auditExportUrl = (filter: AuditFilterForm) => {
  const search = new URLSearchParams(query(filter)).toString();
  return `/api/admin/audit/export${search ? `?${search}` : ''}`;
};
