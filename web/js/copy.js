// Copying a link to the clipboard, with a fallback for browsers (and the
// built-in browsers of chat apps) that refuse the Clipboard API.

/**
 * Copies the value of a text field and selects it.
 * @param {HTMLInputElement} input
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
