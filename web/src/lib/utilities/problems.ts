import { common } from '../i18n/common';
import type { Problem } from './validate';

// describe turns a validation problem into the catalogue's words.
export function describe(p: Problem): string {
  const m = common.problems;
  switch (p.kind) {
    case 'required':
      return m.required;
    case 'tooShort':
      return m.tooShort(p.min);
    case 'tooLong':
      return m.tooLong(p.max);
    case 'pattern':
      return m.pattern;
    case 'enum':
      return m.enum;
    case 'integer':
      return m.integer;
    case 'range':
      return m.range(p.min, p.max);
    case 'email':
      return m.email;
    case 'url':
      return m.url;
  }
}
