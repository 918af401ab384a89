// Written by scripts/prerender.ts beside the page renderer (dist/page-renderer/build-id.js): names the
// build (the client's manifest and the renderer), so a page rendered by another deploy is never served.
export const buildId: string;
