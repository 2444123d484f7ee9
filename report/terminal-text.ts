// Text from a target on its way to a terminal: control characters (escape sequences that could move the cursor,
// recolour or retitle the terminal) are shown as \xNN instead of acting, and characters that reorder or hide text
// (bidi controls, zero-width ones) as \uNNNN. Line breaks and tabs stay.
import { INVISIBLE } from './markup.ts';

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g;

export function escapeForTerminal(text: string): string {
  return text.replace(CONTROL, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`).replace(INVISIBLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
