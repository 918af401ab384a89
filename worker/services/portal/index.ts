// The client portal's door (issue 52; docs/decisions/0022-client-portal-files.md). So far its
// storage core only: what the portal's use cases, routes and cron job will stand on. Nothing
// reaches it yet: no route, no screen, no job.
import type { Bindings } from '../../env';
import type { Db } from '../../db/client';
import type { PortalStorage } from './files';
import { parseFileKeys } from './keys';

export { detectFileType, FILE_TYPES, MEDIA_TYPES, type FileType } from './file-type';
export { parseFileKeys, type FileKeys, type FileKeysResult } from './keys';
export { TamperedFileError } from './chunks';
export {
  CLIENT_STORAGE_CAP_BYTES,
  clientStorageUsed,
  deleteFile,
  MAX_FILE_BYTES,
  readFile,
  storeFile,
  type PortalStorage,
  type ReadFileResult,
  type StoreFileInput,
  type StoreFileResult,
  type StoreRefusal,
} from './files';
export { DEFAULT_RETENTION_YEARS, DISPOSAL_NOTICE_DAYS, filesDueForDisposal, filesDueWithinNotice, retentionYears, shiftYears, type DueFile } from './disposal';

/** The portal's storage over the worker's bindings, or why there is none (PORTAL_FILE_KEYS unset or malformed). */
export async function portalStorage(env: Pick<Bindings, 'DOCUMENTS' | 'PORTAL_FILE_KEYS'>, db: Db): Promise<{ ok: true; storage: PortalStorage } | { ok: false; problem: string }> {
  const keys = await parseFileKeys(env.PORTAL_FILE_KEYS);
  return keys.ok ? { ok: true, storage: { db, bucket: env.DOCUMENTS, keys: keys.keys } } : keys;
}
