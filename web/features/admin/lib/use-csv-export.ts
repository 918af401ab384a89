import { useState } from 'react';
import { toast } from '../../../components/ui/use-toast';
import { errorMessage } from '../../../lib/api';
import { csvFileName } from './csv';
import { downloadText } from './download';

/**
 * A list's CSV export (the appointments', the contact messages'): `build` reads every row, whatever
 * is searched, and makes the CSV; it is saved as `<name>-<firm day>.csv`. `exporting` holds while it
 * runs (the button waits); a failure is said in a toast, `failure` when the error has no message.
 */
export function useCsvExport(name: string, build: () => Promise<string>, failure: string) {
  const [exporting, setExporting] = useState(false);
  async function exportCsv() {
    setExporting(true);
    try {
      downloadText(csvFileName(name), await build());
    } catch (error) {
      toast({ variant: 'destructive', title: 'Error', description: errorMessage(error, failure) });
    } finally {
      setExporting(false);
    }
  }
  return { exporting, exportCsv };
}
