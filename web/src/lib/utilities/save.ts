// saveFile hands a downloaded file to the browser's downloads through a
// blob: URL (the pages' CSP allows blob:), under the server's name.
export function saveFile(f: { bytes: Uint8Array; type: string; filename: string }): void {
  const url = URL.createObjectURL(new Blob([f.bytes as BlobPart], { type: f.type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = f.filename;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
