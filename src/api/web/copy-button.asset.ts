/**
 * The script behind "Copy" buttons of the HTML pages, served from the service itself because the
 * pages' Content-Security-Policy allows no inline script. Kept as a string, like the demo page's
 * HTML, so the TypeScript build carries it to dist with no bundling step.
 *
 * Markup it expects: `<button type="button" data-copy-target="ID" hidden>` next to the element
 * `#ID` holding the text, and a live region `#ID-copy-status`. The button stays hidden without
 * JavaScript, so nobody meets a button that does nothing. It copies with the asynchronous
 * Clipboard API, falls back to selecting the text (and the legacy copy command), and says which
 * happened both on the button and in the live region, for screen readers.
 */
export const COPY_BUTTON_SCRIPT = `'use strict';
(() => {
  const selectText = (element) => {
    const range = document.createRange();
    range.selectNodeContents(element);
    const selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  };
  const legacyCopy = (element) => {
    selectText(element);
    try {
      return document.execCommand('copy');
    } catch {
      return false;
    }
  };
  for (const button of document.querySelectorAll('button[data-copy-target]')) {
    const id = button.getAttribute('data-copy-target');
    const target = document.getElementById(id);
    const status = document.getElementById(id + '-copy-status');
    if (!target) continue;
    const say = (text) => {
      if (status) status.textContent = text;
    };
    const copied = () => {
      button.textContent = 'Copied';
      button.classList.add('copied');
      say('Copied to the clipboard.');
    };
    const fallback = () => {
      if (legacyCopy(target)) {
        copied();
        return;
      }
      // The text stays selected: the keyboard shortcut copies it.
      button.textContent = 'Copy';
      say('Could not copy automatically: the key is selected, press Ctrl+C (⌘C on a Mac).');
    };
    button.addEventListener('click', () => {
      const text = (target.textContent || '').trim();
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(text).then(copied, fallback);
      } else {
        fallback();
      }
    });
    button.hidden = false;
  }
})();
`;
