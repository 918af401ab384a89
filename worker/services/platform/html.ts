// The one HTML escape is the kernel's (core/html.ts), shared with the SPA and the content's rich
// text; the worker's e-mails and pages import it from here or from '#core/html'.
export { escapeHtml } from '#core/html';
