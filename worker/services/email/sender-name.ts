import { defaultContent } from '#core/content/default-content';
import type { Bindings } from '../../env';

// The From name of the firm's own e-mails (a message without its own fromName): the firm's name as
// published. Reading the published document is the content domain's (worker/services/content),
// which the floor does not import: the worker's entry (worker/index.ts) hands the floor that
// reader once, as it wires the app. Until then (a test that sends without loading the app) the
// default content's name.

/** Reads the firm's name as published for a deployment's bindings. */
export type FirmNameReader = (env: Bindings) => Promise<string>;

let readFirmName: FirmNameReader = async () => defaultContent.firm.name;

/** The reader the transports ask for the From name (worker/index.ts sets the content domain's). */
export function useFirmNameReader(reader: FirmNameReader): void {
  readFirmName = reader;
}

/** The firm's name for `env`'s transports, read when the first message is sent (MailChannelsTransport, LocalMailboxTransport). */
export const firmNameOf = (env: Bindings) => () => readFirmName(env);
