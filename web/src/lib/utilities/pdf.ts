// Whether this browser shows a PDF inside a frame. Phone browsers do not
// (Chrome on Android and Safari on iOS show a blank box or the first page
// only), and say so with navigator.pdfViewerEnabled or a coarse pointer:
// there a link that opens the PDF on its own takes the frame's place.
export function framesPDF(): boolean {
  if (typeof navigator === 'undefined' || typeof matchMedia === 'undefined') return false;
  if (navigator.pdfViewerEnabled === false) return false;
  return !matchMedia('(pointer: coarse)').matches;
}
