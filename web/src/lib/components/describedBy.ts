// describedBy joins the ids of a control's hint and error message.
export function describedBy(id: string, hint?: string, error?: string, extra?: string): string | undefined {
  const ids = [hint ? `${id}-hint` : '', error ? `${id}-error` : '', extra ?? ''].filter(Boolean);
  return ids.length ? ids.join(' ') : undefined;
}
