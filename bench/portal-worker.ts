// The test-only worker `npm run bench:portal` (scripts/bench-portal.ts) serves on the local stack:
// the portal's storage services (worker/services/portal) over the real local R2 and D1, behind two
// bare paths, so a 25 MB upload and download are measured before the portal has routes. Never
// deployed: only the bench's own wrangler config names it.
import { getDb } from '../worker/db/client';
import { portalClients } from '../worker/db/schema';
import type { Bindings } from '../worker/env';
import { portalStorage, readFile, storeFile } from '../worker/services/portal';

const CLIENT_ID = 1;

export default {
  async fetch(request: Request, env: Bindings): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname === '/api/health') return new Response('ok');
    const db = getDb(env.DB);
    const storage = await portalStorage(env, db);
    if (!storage.ok) return Response.json({ problem: storage.problem }, { status: 503 });

    if (request.method === 'POST' && url.pathname === '/store' && request.body) {
      await db.insert(portalClients).values({ id: CLIENT_ID, name: 'Bench client', email: 'bench@example.com', createdBy: 1 }).onConflictDoNothing();
      const size = Number(request.headers.get('content-length'));
      const stored = await storeFile(storage.storage, { clientId: CLIENT_ID, originalName: 'bench.pdf', size, body: request.body, createdBy: { kind: 'client', id: CLIENT_ID } });
      return Response.json(stored, { status: stored.ok ? 201 : 422 });
    }
    const read = /^\/read\/(\d+)$/.exec(url.pathname);
    if (request.method === 'GET' && read) {
      const file = await readFile(storage.storage, Number(read[1]), CLIENT_ID);
      if (!file.ok) return Response.json(file, { status: 404 });
      return new Response(file.body, { headers: { 'content-type': file.file.mediaType, 'content-length': String(file.file.size) } });
    }
    return new Response('not found', { status: 404 });
  },
} satisfies ExportedHandler<Bindings>;
