/**
 * Text from a client or an upstream (a model id, an upstream's model list, an error message) on
 * its way to a terminal: control characters would be obeyed, not shown — an escape sequence can
 * set the window title, hide or forge lines, or write the clipboard (OSC 52). Each C0 or C1
 * control character and DEL becomes U+FFFD; tabs and line breaks go too, since a table cell is one line.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
// eslint-disable-next-line no-control-regex -- as above
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;

export function printable(text: string): string {
  return CONTROL.test(text) ? text.replace(CONTROLS, '\ufffd') : text;
}

/** Where `text` has its first control character (as printable() finds them), or -1. */
export function firstControl(text: string): number {
  return text.search(CONTROL);
}
