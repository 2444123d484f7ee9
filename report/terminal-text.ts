// Text from a target on its way to a terminal: control characters (escape sequences that could move the cursor,
// recolour or retitle the terminal) are shown as \xNN instead of acting. Line breaks and tabs stay.

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g;

export function escapeForTerminal(text: string): string {
  return text.replace(CONTROL, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}
