import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InferResponseType } from 'hono/client';
import { IMPORT_CHUNK_ROWS, type ImportRow } from '#core/schemas/subscriber-import';
import { api, okJson } from '../../../lib/api';
import { adminKeys } from './admin-api';

/** The subscriber import (docs/product.md §5.10) and the report per issue (§5.11). */

export type ImportSummary = InferResponseType<(typeof api.admin)['subscriber-imports'][':id']['$get'], 200>;
export type NewsletterReport = InferResponseType<(typeof api.admin)['sent-newsletters'][':id']['report']['$get'], 200>;

const imports = api.admin['subscriber-imports'];

/**
 * The dry run: a new import, the file's rows sent IMPORT_CHUNK_ROWS at a time (each chunk keyed by
 * its lines, so a retried request stores nothing twice), then what the import would do.
 */
export async function stageImport(fileName: string, rows: ImportRow[], onProgress: (sent: number) => void): Promise<ImportSummary> {
  const { id } = await okJson(imports.$post({ json: { fileName } }));
  for (let i = 0; i < rows.length; i += IMPORT_CHUNK_ROWS) {
    await okJson(imports.rows.$post({ json: { importId: id, rows: rows.slice(i, i + IMPORT_CHUNK_ROWS) } }));
    onProgress(Math.min(rows.length, i + IMPORT_CHUNK_ROWS));
  }
  return okJson(imports[':id'].$get({ param: { id: String(id) } }));
}

/** Confirms the consent, then runs the import batch by batch until it is done. */
export function useRunImport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, consent, onProgress }: { id: number; consent: 'given' | 'confirm'; onProgress: (imported: number) => void }) => {
      await okJson(imports[':id'].confirm.$post({ param: { id: String(id) }, json: { consent, consentConfirmed: true } }));
      for (;;) {
        const run = await okJson(imports[':id'].run.$post({ param: { id: String(id) } }));
        onProgress(run.importedCount);
        if (run.status === 'done') break;
      }
      return okJson(imports[':id'].$get({ param: { id: String(id) } }));
    },
    onSettled: () => {
      for (const key of [adminKeys.subscribers, adminKeys.newsletterStats]) void queryClient.invalidateQueries({ queryKey: key });
    },
  });
}

const settingsKey = ['/api/admin/newsletter/settings'];

export const useNewsletterReport = (id: number, enabled: boolean) =>
  useQuery({
    queryKey: ['/api/admin/sent-newsletters', id, 'report'],
    queryFn: () => okJson(api.admin['sent-newsletters'][':id'].report.$get({ param: { id: String(id) } })),
    enabled,
  });

export const useNewsletterSettings = (enabled: boolean) =>
  useQuery({ queryKey: settingsKey, queryFn: () => okJson(api.admin.newsletter.settings.$get()), enabled });

export function useSetClickTracking() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (clickTracking: boolean) => okJson(api.admin.newsletter.settings.$put({ json: { clickTracking } })),
    onSuccess: (answer) => queryClient.setQueryData(settingsKey, { clickTracking: answer.clickTracking }),
  });
}
