/**
 * Saves text built in the browser (the CSV exports) as a file: a blob: URL clicked with the
 * download attribute, so nothing is opened and no server round trip is needed.
 */
export function downloadText(fileName: string, text: string, type = 'text/csv;charset=utf-8') {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
