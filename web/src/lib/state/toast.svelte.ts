// Short status messages, announced by the shell's live region.
export type Toast = { id: number; text: string; tone: 'info' | 'success' | 'error' };

export const toasts = $state<Toast[]>([]);
let seq = 0;

export function toast(text: string, tone: Toast['tone'] = 'info', ms = 6000): void {
  const id = ++seq;
  toasts.push({ id, text, tone });
  setTimeout(() => dismiss(id), ms);
}

export function dismiss(id: number): void {
  const i = toasts.findIndex((t) => t.id === id);
  if (i >= 0) toasts.splice(i, 1);
}
