// focusHere moves focus to an element when it appears (a heading that
// replaces a form, so a screen reader hears what happened).
import type { Attachment } from 'svelte/attachments';

export const focusHere: Attachment<HTMLElement> = (node) => {
  node.focus();
};
