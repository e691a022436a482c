// Copying a link or a text to the clipboard, with a fallback for browsers (and the
// built-in browsers of chat apps) that refuse the Clipboard API.

/**
 * Copies the value of a text field (a line or a box) and selects it.
 * @param {HTMLInputElement|HTMLTextAreaElement} input
 * @returns {Promise<boolean>} whether the text reached the clipboard
 */
export async function copyText(input) {
  input.focus();
  input.select();
  try {
    await navigator.clipboard.writeText(input.value);
    return true;
  } catch {
    try {
      return document.execCommand('copy');
    } catch {
      return false;
    }
  }
}

/**
 * Copies a text through a field made for the moment; the focus comes back.
 * @param {string} text
 * @returns {Promise<boolean>}
 */
export async function copyString(text) {
  const field = document.createElement('textarea');
  field.value = text;
  field.readOnly = true;
  field.className = 'visually-hidden';
  const back = document.activeElement;
  document.body.append(field);
  try {
    return await copyText(field);
  } finally {
    field.remove();
    if (back instanceof HTMLElement) back.focus();
  }
}
