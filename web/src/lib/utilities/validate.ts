// Field validation with the server's own rules (generated into rules.gen.ts
// from api/openapi.yaml). Messages come from the caller's catalogue.

export type Rule = {
  readonly types: readonly string[];
  readonly required?: boolean;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly pattern?: string;
  readonly enum?: readonly (string | number | boolean)[];
  readonly minimum?: number;
  readonly maximum?: number;
  readonly maxItems?: number;
  readonly itemMaxLength?: number;
  readonly format?: string;
};

export type Problem =
  | { kind: 'required' }
  | { kind: 'tooShort'; min: number }
  | { kind: 'tooLong'; max: number }
  | { kind: 'pattern' }
  | { kind: 'enum' }
  | { kind: 'integer' }
  | { kind: 'range'; min?: number; max?: number }
  | { kind: 'email' }
  | { kind: 'url' };

const emailShape = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

// Unicode code points, as the server counts a string's length.
export function length(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

function isURL(s: string): boolean {
  try {
    const u = new URL(s);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.host !== '';
  } catch {
    return false;
  }
}

// check returns the first problem of a value under a rule, or null. An
// empty value is a problem only when the field is required (here or by the
// caller: `required` overrides the rule's own flag).
export function check(rule: Rule, raw: string, required = rule.required ?? false): Problem | null {
  const value = raw.trim();
  if (value === '') return required ? { kind: 'required' } : null;
  const numeric = rule.types.includes('integer') || rule.types.includes('number');
  if (numeric) {
    if (!/^-?\d+(\.\d+)?$/.test(value)) return { kind: 'integer' };
    const n = Number(value);
    if (rule.types.includes('integer') && !Number.isInteger(n)) return { kind: 'integer' };
    if ((rule.minimum !== undefined && n < rule.minimum) || (rule.maximum !== undefined && n > rule.maximum)) {
      return { kind: 'range', min: rule.minimum, max: rule.maximum };
    }
    return null;
  }
  const len = length(raw);
  if (rule.minLength !== undefined && len < rule.minLength) return { kind: 'tooShort', min: rule.minLength };
  const max = rule.maxLength ?? rule.itemMaxLength;
  if (max !== undefined && len > max) return { kind: 'tooLong', max };
  if (rule.enum && !rule.enum.includes(value)) return { kind: 'enum' };
  if (rule.format === 'email' && !emailShape.test(value)) return { kind: 'email' };
  if (rule.format === 'uri' && !isURL(value)) return { kind: 'url' };
  if (rule.pattern && !new RegExp(rule.pattern, 'u').test(value)) return { kind: 'pattern' };
  return null;
}
