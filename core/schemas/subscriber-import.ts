import * as z from 'zod/v4';

/**
 * The subscriber import's requests (docs/product.md §5.10). The browser parses the CSV
 * (core/subscriber-import-csv.ts) and sends its rows in chunks of at most IMPORT_CHUNK_ROWS; the
 * worker checks every row itself (an invalid row is stored with its reason, never refused here, so
 * the dry run can list it by line).
 */
export const IMPORT_CHUNK_ROWS = 500;

/**
 * The most rows one import holds: a firm's list is a few thousand; 50,000 keeps each dry run and run
 * far inside D1's limits. Past it the browser refuses the file, and the API a chunk (413).
 */
export const IMPORT_MAX_ROWS = 50_000;

/** The one wording of that limit, in the browser's check of the file and the API's 413. */
export const IMPORT_TOO_MANY_ROWS = `An import holds at most ${IMPORT_MAX_ROWS.toLocaleString('en-US')} rows: split the file and import each part`;

const cell = (max: number) => z.string().max(max, `A cell is longer than ${max} characters`).optional();

export const importRowSchema = z.object({
  /** The row's line in the file (the header is line 1). */
  line: z.number().int().min(2).max(1_000_000),
  email: z.string().max(1000, 'A cell is longer than 1000 characters'),
  name: cell(1000),
  consentDate: cell(100),
  source: cell(1000),
  /** The export's own status of the person (Constant Contact, listmonk), when it has one. */
  status: cell(100),
});

export const createImportSchema = z.object({
  fileName: z.string().trim().min(1, 'Choose a CSV file').max(200, 'The file name is too long'),
});

export const stageImportRowsSchema = z.object({
  importId: z.number().int().positive(),
  rows: z.array(importRowSchema).min(1, 'No rows to import').max(IMPORT_CHUNK_ROWS, `At most ${IMPORT_CHUNK_ROWS} rows per request`),
});

export const confirmImportSchema = z.object({
  consent: z.enum(['given', 'confirm'], { error: 'Choose whether these people already gave consent' }),
  consentConfirmed: z.literal(true, { error: 'Please confirm that these people gave their consent' }),
});

export type ImportRow = z.infer<typeof importRowSchema>;
