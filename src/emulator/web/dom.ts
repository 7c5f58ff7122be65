/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// Building the page's DOM. Every text it shows may come from an untrusted request, so text only ever
// becomes text nodes (never innerHTML), and every string child passes through {@link inert}: an invisible
// character (a bidi override, a zero-width space) is shown as its code and cannot act.
import { splitInvisible } from './invisible-characters.js';

export type Child = Node | string | undefined | false | null | '';

export const $ = <T extends HTMLElement = HTMLElement>(selector: string, root: ParentNode = document) => root.querySelector(selector) as T;

/** Text as nodes, each invisible character as a styled `<U+202E>` that names it on hover. */
export function inert(text: string): Node[] {
  return splitInvisible(text).map((part) => {
    if ('text' in part) return document.createTextNode(part.text);
    const mark = document.createElement('span');
    mark.className = 'invisible';
    mark.title = `${part.code} ${part.name}: shown, not applied`;
    mark.textContent = `<${part.code}>`;
    return mark;
  });
}

/** An element with classes and children; strings become inert text. */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, className = '', ...children: Child[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  for (const child of children) {
    if (typeof child === 'string') node.append(...inert(child));
    else if (child) node.append(child);
  }
  return node;
}

export function button(label: string, onClick: (event: MouseEvent) => void, className = ''): HTMLButtonElement {
  const node = el('button', className, label);
  node.type = 'button';
  node.addEventListener('click', onClick);
  return node;
}

/** Writes text to the clipboard; the button says whether it worked. */
export function copyButton(label: string, text: () => string, className = 'copy'): HTMLButtonElement {
  const node = button(label, () => {
    const done = (said: string) => {
      node.textContent = said;
      setTimeout(() => (node.textContent = label), 1500);
    };
    if (!navigator.clipboard) return done('select and copy');
    navigator.clipboard.writeText(text()).then(() => done('copied'), () => done('select and copy'));
  }, className);
  return node;
}

/** `1234` → `1,234`: the page writes numbers the same way whatever the browser's language. */
export const num = (n: number): string => n.toLocaleString('en-US');
export const plural = (n: number, word: string): string => `${num(n)} ${word}${n === 1 ? '' : 's'}`;
